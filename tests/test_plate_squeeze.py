"""The plate set down on dice under it rides up on them: it never crushes a die into the table or into itself.

Found by ``pyramid soak --mode games`` (docs/soak.md): a two-handed tilt of the full pyramid threw dice off
under the lifted plate, one came to rest on another, and the plate, set down, pressed it into its slab.
The hand's ride-up (``World._squeezed``) only looks at dice lying on the table (centres within an edge
of it), so a die on a die is pushed down by a plate of 1000 kg until something gives.
"""

from __future__ import annotations

import numpy as np

from pyramid import geometry as g
from pyramid.physics.handling import _low
from pyramid.physics.plate_motion import hands
from pyramid.physics.world import World
from pyramid.state import Cell, PyramidState

smooth_step = hands.smooth_step

HOME_DOWN = 0.5  # m/s: how fast the hands set the plate down after a two-handed tilt (0.08 m in 0.16 s or so)


def set_down(world: World, height: int) -> float:
    """The plate of ``world`` lifted 8 cm over ``height`` dice stacked on the table under it, then set down at
    0.5 m/s: how high it rides (m) once the dice rest. ImpossibleStateError if it crushes one."""
    edge, dt = world.physics.edge, world.physics.time_step
    z = 0.08
    for _ in range(2):
        world.move_plate(np.array([0, 0, z, 0, 0, 0, 1.0]))
    for k in range(height):
        world.throw(100 + k, (0.06, -0.03, edge / 2 + k * edge + 1e-4))
    world.settle(timeout=1.0, raise_on_timeout=False)
    while z > 0:
        z = max(0.0, z - HOME_DOWN * dt)
        world.move_plate(np.array([0, 0, z, 0, 0, 0, 1.0]), linear=(0, 0, -HOME_DOWN if z > 0 else 0))
        world.step(dt)
    world.move_plate(np.array([0, 0, 0, 0, 0, 0, 1.0]))
    world.settle(timeout=2.0, raise_on_timeout=False)
    return world.plate_ride


def set_down_on_a_stack(height: int) -> float:
    """``set_down`` in a world of its own."""
    world = World()
    try:
        return set_down(world, height)
    finally:
        world.close()


def test_the_plate_set_down_on_a_die_lying_on_the_table_rides_on_it() -> None:
    assert set_down_on_a_stack(1) > 0.95 * 0.016


def test_the_plate_set_down_on_two_stacked_dice_rides_on_them() -> None:
    # Riding up only on dice lying on the table, the plate crushed the lower die into the table (its centre
    # 0.3 mm under the top: an impossible state, found by the games soak at seed 67).
    assert set_down_on_a_stack(2) > 1.9 * 0.016


def test_the_plate_held_still_on_a_die_local_physics_holds_keeps_riding_on_it() -> None:
    # Set down on a die and at rest, the die held still by local physics, the plate is held where it is step
    # after step (as the hands hold it through a tilt's hold): each step it would come down a little, and the
    # squeeze test, reading that die from what the region keeps of it, lifts it back at once. Missing the held die
    # (the plate then wakes every die and finds it a step late), the plate sank 0.06 edges into it.
    world = World()
    try:
        edge, dt = world.physics.edge, world.physics.time_step
        ride = set_down(world, 1)
        assert 100 not in world.simulated  # held still by local physics
        lowest = ride
        for _ in range(20):
            world.move_plate(np.array([0, 0, 0, 0, 0, 0, 1.0]))
            lowest = min(lowest, world.plate_ride)
            world.step(dt)
    finally:
        world.close()
    assert lowest > ride - 0.01 * edge  # it settled 0.0024 edges at most


def test_the_squeeze_tests_screen_clears_only_dice_the_test_would_not_look_at() -> None:
    """``World._surely_clear`` (a few dice, in Python floats) finds no die to ride up on only where ``_low``, the
    test itself, finds none either: dice put around the bounds (an edge over the table, the plate's underside) under
    a plate tilted every way; and it clears dice standing high over the plate."""
    rng = np.random.default_rng(3)
    world = World()
    try:
        edge = world.physics.edge
        dice = [100, 101, 102]
        for k, die in enumerate(dice):
            world.throw(die, (0.3 + 0.1 * k, 0.3, 0.1))
        cleared = 0
        for trial in range(400):
            turn = rng.normal(size=3) * 0.3
            quat = np.concatenate(
                [np.sin(np.linalg.norm(turn) / 2) * turn / np.linalg.norm(turn), [np.cos(np.linalg.norm(turn) / 2)]]
            )
            lying = trial % 2 == 0  # the plate on the table: every die over its underside, near the table's bound
            for k, die in enumerate(dice):  # out of the plate's way while it moves: it rides up on none
                world.client.resetBasePositionAndOrientation(
                    world._bodies[die], [0.3 + 0.1 * k, 0.3, 0.1], [0, 0, 0, 1]
                )
            world.move_plate(
                np.array([0, 0, 0, 0, 0, 0, 1.0]) if lying else np.concatenate([[0.0, 0.0, rng.uniform(0, 0.03)], quat])
            )
            plate = world.plate_pose
            assert world.plate_ride == 0.0
            rotation = g.quat_to_matrix(plate[3:])[0]
            for die in dice:
                # Near the table's bound, near the plate's underside, or well clear of both.
                over = rng.choice([0.0, 2 * edge]) + rng.normal() * 1e-7
                spot = np.array([*rng.normal(size=2) * 0.05, over]) @ rotation.T + plate[:3]
                if lying or trial % 3 == 0:
                    spot[2] = edge + rng.uniform(-3e-6, 3e-6)
                world.client.resetBasePositionAndOrientation(world._bodies[die], spot.tolist(), [0, 0, 0, 1])
            poses = world._engine_poses(dice)
            low = _low(poses[:, 2], g.in_plate_frame(poses[:, :3], plate), world.physics)
            clear = world._surely_clear(dice)
            assert not (clear and low.any()), (trial, poses)
            cleared += clear
        assert cleared > 10
    finally:
        world.close()


def test_a_die_moved_between_steps_is_seen_where_it_is_now() -> None:
    # While the plate carries dice, the squeeze test reuses the poses of the simulated dice read after the last step,
    # as long as no body has moved since (the plate's own moves aside). A die put under the lifted plate after that
    # step must be seen there: the plate set down on it rides up on it. Seen where the step left it (a decimetre up,
    # far off), the plate would come down on it.
    world = World()
    try:
        edge, dt = world.physics.edge, world.physics.time_step
        world.build(
            PyramidState({(5 + a, b, 0): Cell("black", (1, 2, 3)) for a in range(2) for b in range(2) if a + b <= 1})
        )
        world.settle()
        steps = 60  # the hand lifts the plate 3 cm in 0.3 s, smoothly: the plate carries the three dice on it
        for n in range(steps):
            s, s_next = (smooth_step(k / steps) for k in (n, n + 1))
            world.move_plate(np.array([0, 0, 0.03 * s, 0, 0, 0, 1.0]), (0.0, 0.0, 0.03 * (s_next - s) / dt))
            world.step(dt)
        die = 200
        world.throw(die, (0.3, 0.3, 0.1))
        world.move_plate(np.array([0, 0, 0.03, 0, 0, 0, 1.0]), (0.0, 0.0, 1e-3))
        world.step(dt)
        assert world._carriage is not None and die in world.simulated  # the hand moves the plate; the die falls
        world.client.resetBasePositionAndOrientation(world._bodies[die], [0.06, -0.03, edge / 2 + 1e-4], [0, 0, 0, 1])
        world.client.resetBaseVelocity(world._bodies[die], [0, 0, 0], [0, 0, 0])
        world.move_plate(np.array([0, 0, 0.0, 0, 0, 0, 1.0]), (0.0, 0.0, -1e-3))
        assert world.plate_ride > 0.9 * edge
    finally:
        world.close()
