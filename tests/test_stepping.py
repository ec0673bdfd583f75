"""One seed, one world: ``World.step`` gives the same poses, bit for bit, however a span is split into calls.

The window steps the world a picture at a time, a film a frame at a time, ``pyramid run`` and the
Gymnasium environments a settle window at a time; a user's script steps as it likes. For every kind
of action, with local and with whole physics, random splits of every call (hypothesis) must leave
the same world as one call does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid import geometry as g
from pyramid.dice import EDGE
from pyramid.physics import actions as A
from pyramid.physics.settings import Physics
from pyramid.physics.stepping import fastest_spin
from pyramid.physics.world import World
from pyramid.state import Cell, PyramidState

APEX = (6, 0, 0)
SPARE = (200, 201, 202, 203)  # dice of the set that the small pyramid leaves free


def _centre(world: World) -> tuple[float, float]:
    x, y, _ = world.slot_pose(APEX)[0]
    return float(x), float(y)


def _top(world: World) -> int:
    return int(world.readout(require_rest=False).slot_die[APEX])


# Each kind of action on a settled 10-die pyramid: how to make it from the world it acts on.
ACTIONS: dict[str, Callable[[World], A.PhysicalAction]] = {
    "lift": lambda w: A.Lift(APEX),
    "place": lambda w: A.Attach(SPARE[0], (5, 1, 0), drop=0.002),
    "throw": lambda w: A.Throw(SPARE[0], _centre(w), height=0.06, distance=0.05, spin=5.0),
    "pull": lambda w: A.Pull((7, 1, 0), distance=0.004),
    "pour": lambda w: A.Pour(SPARE, _centre(w), height=0.06, interval=0.013),
    "tilt": lambda w: A.Tilt(30.0, angle=12.0, ramp=0.15, hold=0.1, shake=0.004, frequency=9.0),
    "shake": lambda w: A.Shake(amplitude=0.004, frequency=9.0, duration=0.25, azimuth=60.0),
    "blow": lambda w: A.Blow((_centre(w)[0] - 0.08, _centre(w)[1], 0.03), 0.0, speed=25.0, duration=0.15),
    "flick": lambda w: A.Flick(_top(w), 45.0, impulse=0.004, elevation=10.0),
}


def _run(kind: str, local: bool, splits: tuple[int, ...] = ()) -> np.ndarray:
    """Poses (n, 7) after building, settling, the action and a settle; every ``step`` call cut into ``splits``."""
    world = World(replace(Physics(), local=local))
    if splits:
        whole_call = World.step
        cycle = [0]

        def step(seconds: float) -> None:
            n = max(1, round(seconds / world.physics.time_step))
            while n > 0:
                k = min(n, splits[cycle[0] % len(splits)])
                cycle[0] += 1
                whole_call(world, k * world.physics.time_step)
                n -= k

        world.step = step  # type: ignore[method-assign]
    try:
        world.build(PyramidState({s: Cell("red", (1, 2, 3)) for s in g.small_pyramid(10, APEX)}))
        world.settle(timeout=3.0, raise_on_timeout=False)
        A.perform(world, ACTIONS[kind](world), np.random.default_rng(7))
        world.settle(timeout=3.0, raise_on_timeout=False)
        return world.poses()[1]
    finally:
        world.close()


@cache
def _reference(kind: str, local: bool) -> bytes:
    return _run(kind, local).tobytes()


@pytest.mark.parametrize("local", [True, False], ids=["local", "whole"])
@pytest.mark.parametrize("kind", list(ACTIONS))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(splits=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=5).map(tuple))
def test_any_split_of_the_steps_gives_the_same_world_bit_for_bit(
    kind: str, local: bool, splits: tuple[int, ...]
) -> None:
    assert _run(kind, local, splits).tobytes() == _reference(kind, local)


def test_splitting_the_steps_is_seen_by_the_test() -> None:
    # The property above could pass by never splitting: a split run does make more calls than one.
    world = World()
    calls = []
    original = World.step

    def counted(seconds: float) -> None:
        calls.append(seconds)
        original(world, seconds)

    world.step = counted  # type: ignore[method-assign]
    world.throw(0, (0.0, 0.0, 0.05))
    world.settle(timeout=2.0)
    assert len(calls) >= 2 and all(c == pytest.approx(0.25) for c in calls)
    world.close()


def test_the_clock_counts_steps_whatever_the_calls() -> None:
    one, many = World(), World()
    one.throw(0, (0.0, 0.0, 0.05))
    many.throw(0, (0.0, 0.0, 0.05))
    one.step(0.5)
    for _ in range(100):
        many.step(0.005)
    assert one.time == many.time == 100 * one.physics.time_step
    one.substep(4)
    assert one.time == pytest.approx(100.25 * one.physics.time_step, abs=1e-15)
    one.close()
    many.close()


def test_an_observer_is_called_on_its_period_and_changes_nothing() -> None:
    watched, plain = World(), World()
    seen: list[float] = []
    stop = watched.observe(1 / 60, lambda: seen.append(watched.time))
    for world in (watched, plain):
        world.throw(0, (0.0, 0.0, 0.05), spin=(3.0, 1.0, 0.0))
        world.step(0.1)
        world.step(0.013)
    stop()
    watched.step(0.1)
    dt = watched.physics.time_step
    assert seen == pytest.approx([3 * dt * n for n in range(1, len(seen) + 1)])
    assert len(seen) == 22 // 3  # 22 steps of 5 ms, a picture every 3
    plain.step(0.1)
    assert np.array_equal(watched.poses()[1], plain.poses()[1])
    watched.close()
    plain.close()


def test_jitter_nudges_every_die_by_a_hair_and_the_same_seed_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYRAMID_JITTER", raising=False)  # under ``pytest --jitter S`` the unjittered start too

    def start(jitter: int | None) -> np.ndarray:
        world = World(Physics(jitter=jitter))
        world.place(0, APEX)
        world.throw(1, (0.1, 0.0, 0.05))
        out = world.poses()[1]
        world.close()
        return out

    exact, nudged, again, other = start(None), start(3), start(3), start(4)
    shift = np.abs(nudged - exact)
    assert 0 < shift[:, :3].max() < 1e-8 and 0 < shift[:, 3:].max() < 1e-8
    assert np.array_equal(nudged, again)
    assert not np.array_equal(nudged, other)


def test_the_environment_turns_jitter_on_and_a_bad_seed_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYRAMID_JITTER", "3")
    world = World()
    world.place(0, APEX)
    nudged = world.poses()[1]
    world.close()
    assert not np.array_equal(nudged[0, :3], World().slot_pose(APEX)[0])
    monkeypatch.setenv("PYRAMID_JITTER", "three")
    with pytest.raises(ValueError, match="PYRAMID_JITTER must be a seed"):
        World()


def test_changing_gravity_frees_held_dice_to_slide() -> None:
    # A die lying on the table is held still by local physics once it rests; tilting gravity past the
    # friction angle (atan 0.405 = 22.0 deg) must make it slide as far as whole physics does.
    def slid(local: bool, degrees: float) -> float:
        world = World(Physics(local=local, sleep_after_settle=False), plate=False)
        world.throw(0, (0.0, 0.0, EDGE / 2))
        world.step(0.3)
        t = np.radians(degrees)
        before = world.poses()[1][0, :3]
        world.set_gravity((9.81 * np.sin(t), 0.0, -9.81 * np.cos(t)))
        world.step(1.0)
        out = float(np.linalg.norm(world.poses()[1][0, :3] - before)) / EDGE
        world.close()
        return out

    assert slid(True, 26.0) == pytest.approx(slid(False, 26.0), rel=0.05)
    assert slid(True, 26.0) > 10
    assert slid(True, 16.0) < 0.01
    with pytest.raises(ValueError, match="3 finite numbers"):
        World().set_gravity((0.0, float("nan"), -9.81))


def test_the_fastest_spin_of_a_few_dice_in_python_floats_is_numpys_bit_for_bit() -> None:
    """``stepping.fastest_spin`` sums a few dice's squares in Python floats: the bits of ``geometry.lengths`` (which
    decides when a step is split), over speeds from a micro-radian to a thousand radians a second."""
    rng = np.random.default_rng(8)
    for n in range(1, 10):
        for _ in range(300):
            velocities = rng.normal(size=(n, 6)) * 10.0 ** rng.uniform(-6, 3, size=(n, 1))
            assert fastest_spin(velocities) == float(g.lengths(velocities[:, 3:]).max())
    assert fastest_spin(np.zeros((0, 6))) == 0.0
