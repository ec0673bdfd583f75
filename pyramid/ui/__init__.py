"""The window and the films: viewer, camera, hands at the window, headless pictures (pyglet is the `view` extra)."""
