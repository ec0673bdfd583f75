"""The bench's window rows: how fast the window runs the world while the plate moves, and how many pictures a
second it shows (``pyramid bench``, with a display).

Each row opens the window of ``pyramid view`` on the same seeded table (the full pyramid and every spare die),
presses a key as a person would, and runs the world as the window does (paced to real time, a picture drawn
whenever the screen can take one), for a few simulated seconds. Pictures a second are counted while the plate
moves (``moving_pictures``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from pyramid.lab.speed import Speed
from pyramid.physics.bullet import engine_time

WINDOW_TARGET = 1.0  # x real time: the window keeps up with the world
PICTURES_TARGET = 15.0  # pictures a second while the plate moves
# The window is paced to real time and never runs ahead; the last picture's wait is what the clock loses.
PACE_SLACK = 0.03


@dataclass(frozen=True)
class WindowRow:
    """A key a person presses, and the name of the row that times it."""

    name: str
    key: str  # pyglet's key name
    shift: bool = False


WINDOW_ROWS = (
    WindowRow("window: tilt (arrow key)", "LEFT"),
    WindowRow("window: gentle shake (Shift+S)", "S", shift=True),
    WindowRow("window: hard shake (S)", "S"),
    WindowRow("window: firm shake (J)", "J"),
)


def moving_pictures(shown: list[tuple[float, bytes]]) -> float:
    """Pictures a second while the plate moves: of the pictures (time drawn, plate pose) in order, those that show
    the plate elsewhere than the picture before, over the time since that picture. A still picture the window
    shows again costs little; counted, the figure would say more the longer the plate stood still."""
    spans = [t - t0 for (t0, p0), (t, p) in pairwise(shown) if p != p0]
    return len(spans) / sum(spans) if spans and sum(spans) > 0 else 0.0


def window_speed(row: WindowRow, seconds: float = 3.0, size: tuple[int, int] = (1024, 700), seed: int = 0) -> Speed:
    """Time ``row`` in a window of ``size`` pixels: simulated seconds a wall second and pictures a second."""
    from pyglet.window import key

    from pyramid.ui.player import full_pyramid_world, open_view
    from pyramid.ui.viewer import watching

    world = full_pyramid_world(np.random.default_rng(seed))
    viewer, hands = open_view(world, row.name, np.random.default_rng(seed))
    try:
        viewer.set_size(*size)
        for _ in range(5):
            viewer.frame(0.0)
        shown: list[tuple[float, bytes]] = []  # each picture: when it was drawn, and the plate's pose in it
        viewer.on_frame.append(lambda _: shown.append((time.perf_counter(), world.plate_pose.tobytes())))
        start, wall, cpu = world.time, time.perf_counter(), time.process_time()
        hands.on_key_press(getattr(key, row.key), key.MOD_SHIFT if row.shift else 0)
        with watching(world, viewer), engine_time() as engine:
            viewer.live(seconds)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        simulated = world.time - start
    finally:
        viewer.close()
        world.close()
    pictures = moving_pictures(shown)
    ok = pictures >= PICTURES_TARGET
    return Speed(
        row.name,
        realtime=simulated / wall,
        wall=wall,
        target=WINDOW_TARGET - PACE_SLACK,
        cpu=simulated / cpu if cpu > 0 else None,
        engine=simulated / engine.seconds if engine.seconds > 0 else None,
        note=f"{pictures:.1f} pictures/s ({PICTURES_TARGET:g} wanted: {'met' if ok else 'NOT met'}); "
        f"{simulated:.2f} s simulated, {size[0]}x{size[1]}",
    )
