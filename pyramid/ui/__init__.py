"""The window and the films: viewer, camera, hands at the window, replays, headless pictures.

Imports nothing: pyglet (the ``view`` extra) loads only with the window modules (viewer, hands,
player, skill); the camera, the films and the replays need no screen.
"""
