"""Everything that imports PyBullet: the physics settings, the world, the hands' models, the actions,
the assets and the software pictures."""
