"""The physics: the settings, the PyBullet world and its stage, the hands' models, the actions, the assets and
the software pictures. Settings, hands, actions and plate motion import no PyBullet (scene files need them)."""
