"""The bench's window rows: how fast the window runs the world while the plate moves, and how many pictures a
second it shows (``pyramid bench``, with a display).

Each row opens the window of ``pyramid view`` on the same seeded table (the full pyramid and every spare die),
presses a key as a person would, and runs the world as the window does (paced to real time, a picture drawn
whenever the screen can take one), for a few simulated seconds. Its figures are those of the stretch in which the
plate moves (``while_moving``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

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
    presses: int = 1  # pressed so often at once (the actions queue): the plate moves for about a second


WINDOW_ROWS = (
    WindowRow("window: tilt (arrow key)", "LEFT"),  # 1.15 s
    WindowRow("window: gentle shake (Shift+S)", "S", shift=True, presses=3),  # 0.3 s each
    WindowRow("window: hard shake (S)", "S", presses=2),  # 0.6 s
    WindowRow("window: firm shake (J)", "J", presses=3),  # 0.3 s
)


@dataclass(frozen=True)
class Picture:
    """What the window had done when it drew a picture: wall, processor and engine seconds, simulated seconds,
    and the plate's pose drawn (bytes)."""

    wall: float
    cpu: float
    engine: float
    simulated: float
    plate: bytes


@dataclass(frozen=True)
class Moving:
    """A window row's figures while the plate moved: from the picture before the first that shows it moved to the
    last that does."""

    simulated: float
    wall: float
    cpu: float
    engine: float
    pictures: float  # a second: those that show the plate moved, over the time since the picture before each


def while_moving(shown: list[Picture]) -> Moving | None:
    """The figures of the pictures ``shown`` (in order) while the plate moved; None if it never did.

    Only that stretch counts: a still picture the window shows again costs little, and a world at rest keeps
    real time for nothing, so the longer the plate stood still the more the whole run's figures would say.
    """
    moved = [n for n in range(1, len(shown)) if shown[n].plate != shown[n - 1].plate]
    if not moved:
        return None
    first, last = shown[moved[0] - 1], shown[moved[-1]]
    spans = sum(shown[n].wall - shown[n - 1].wall for n in moved)
    return Moving(
        simulated=last.simulated - first.simulated,
        wall=last.wall - first.wall,
        cpu=last.cpu - first.cpu,
        engine=last.engine - first.engine,
        pictures=len(moved) / spans if spans > 0 else 0.0,
    )


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
        shown: list[Picture] = []
        start = world.time
        for _ in range(row.presses):
            hands.on_key_press(getattr(key, row.key), key.MOD_SHIFT if row.shift else 0)
        with watching(world, viewer), engine_time() as engine:
            viewer.on_frame.append(
                lambda _: shown.append(
                    Picture(
                        time.perf_counter(), time.process_time(), engine.seconds, world.time, world.plate_pose.tobytes()
                    )
                )
            )
            viewer.live(seconds)
        simulated = world.time - start
    finally:
        viewer.close()
        world.close()
    moving = while_moving(shown)
    if moving is None:
        raise RuntimeError(f"{row.name}: the plate never moved in {simulated:.2f} simulated seconds")
    ok = moving.pictures >= PICTURES_TARGET
    return Speed(
        row.name,
        realtime=moving.simulated / moving.wall,
        wall=moving.wall,
        target=WINDOW_TARGET - PACE_SLACK,
        cpu=moving.simulated / moving.cpu if moving.cpu > 0 else None,
        engine=moving.simulated / moving.engine if moving.engine > 0 else None,
        note=f"{moving.pictures:.1f} pictures/s ({PICTURES_TARGET:g} wanted: {'met' if ok else 'NOT met'}); "
        f"{moving.simulated:.2f} s simulated while the plate moved, of {simulated:.2f}; {size[0]}x{size[1]}",
    )
