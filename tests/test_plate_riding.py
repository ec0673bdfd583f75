"""Dice that ride the moving plate (local physics): held in its frame, let go when their supports cannot follow."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.dice import EDGE
from pyramid.lab.locality import signature
from pyramid.physics import actions as A
from pyramid.physics import plate_motion, riding
from pyramid.physics.bullet import engine_time
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.state import Cell, PyramidState

# A pyramid of four layers (20 dice) in the plate's corner funnel (8, 0, 0): its apex is (5, 0, 0).
SMALL = PyramidState(
    {(5 + a, b, c): Cell("black", (1, 2, 3)) for a in range(4) for b in range(4) for c in range(4) if a + b + c <= 3}
)
APEX = (5, 0, 0)
G = 9.81


def small_pyramid(physics: Physics) -> World:
    world = World(physics)
    world.build(SMALL)
    world.settle()
    return world


def _leaning(degrees: float, azimuth: float = 0.0) -> np.ndarray:
    """The support (per kg, plate frame) a die needs on a plate tilted ``degrees`` towards ``azimuth``, at rest."""
    a, b = math.radians(degrees), math.radians(azimuth)
    return G * np.array([[math.sin(a) * math.cos(b), math.sin(a) * math.sin(b), math.cos(a)]])


def test_a_seated_die_is_let_go_only_when_its_supports_cannot_give_the_force() -> None:
    # Straight up: the middle of the three normals' octant.
    assert not riding.slips(_leaning(0.0), 0.36)[0]
    # Every way round, a tilt of 20 degrees stays inside the octant widened by friction; 80 does not.
    for azimuth in range(0, 360, 15):
        assert not riding.slips(_leaning(20.0, azimuth), 0.36)[0]
        assert riding.slips(_leaning(80.0, azimuth), 0.66)[0]
    # Pulled down (the plate dropping faster than a die falls) nothing holds it.
    assert riding.slips(np.array([[0.0, 0.0, -1.0]]), 0.66)[0]
    # Friction widens the cone: towards an octant face (35.3 degrees away) a steeper lean holds with more friction.
    face = next(az for az in range(0, 360) if riding.slips(_leaning(40.0, az), 0.0)[0])
    assert not riding.slips(_leaning(40.0, face), 0.66)[0]


def test_poses_go_into_the_plates_frame_and_back() -> None:
    rng = np.random.default_rng(0)
    frame = np.concatenate([rng.normal(size=3), g.matrix_to_quat(g.quat_to_matrix(rng.normal(size=4))[0])])
    frame[3:] /= np.linalg.norm(frame[3:])
    poses = np.hstack([rng.normal(size=(5, 3)), rng.normal(size=(5, 4))])
    poses[:, 3:] /= np.linalg.norm(poses[:, 3:], axis=1, keepdims=True)
    back = riding.compose(frame, riding.relative(frame, poses))
    assert np.allclose(back[:, :3], poses[:, :3])
    assert np.allclose(np.abs((back[:, 3:] * poses[:, 3:]).sum(axis=1)), 1.0)


@pytest.mark.parametrize("nudge", [None, 1])
def test_a_gentle_tilt_carries_every_die_and_reads_as_whole_physics(nudge: int | None) -> None:
    tilt = A.Tilt(200.0, 8.0, ramp=0.3, hold=0.2)
    outcome = {}
    for local in (True, False):
        world = small_pyramid(Physics(local=local, jitter=nudge if local else None))
        world.count_steps()
        start = world.time
        with engine_time() as engine:
            A.perform(world, tilt, np.random.default_rng(0))
        stepped, elapsed, engine_steps = world.count_steps(), world.time - start, engine.steps
        world.settle()
        dice, poses = world.poses()
        outcome[local] = (signature(world.readout()), poses, stepped, engine_steps, elapsed)
        world.close()
    assert outcome[True][2] == 0  # local: the plate carried every die, none was simulated
    assert outcome[False][2] == len(SMALL)
    # Nor did the engine step (it would have moved the plate alone), while the clock went on as in whole physics.
    assert outcome[True][3] == 0
    assert outcome[False][3] == round(outcome[False][4] / Physics().time_step) > 100
    assert outcome[True][4] == outcome[False][4]
    assert outcome[True][0] == outcome[False][0]
    # Every die where whole physics left it, to a hundredth of an edge.
    gaps = np.linalg.norm(outcome[True][1][:, :3] - outcome[False][1][:, :3], axis=1) / Physics().edge
    assert gaps.max() < 0.01


def _line_jolt(preset: float, ramp: float = 0.1) -> A.Tilt:
    """A stroke in ``ramp`` s about the line under the small pyramid's far side, from 15 + ``preset`` to 15 degrees."""
    base = g.slot_centre((8, 0, 0)) * Physics().edge
    far = g.slot_centre((5, 3, 0)) * Physics().edge
    # The line runs through the far base die, square to the way to the corner funnel: the apex swings most.
    heading = math.degrees(math.atan2(base[1] - far[1], base[0] - far[0]))
    return A.Tilt.jolt(heading, 15.0, (float(far[0]), float(far[1]), 0.0), preset=preset, ramp=ramp)


def test_a_jolt_that_makes_dice_hop_lets_every_die_go_and_throws_them_out_as_whole_physics_does() -> None:
    jolt = _line_jolt(40.0)  # stopped short at about 350 rad/s^2: whole physics throws 7 of the 20 dice out
    edge, dt = Physics().edge, Physics().time_step
    assert not plate_motion.carries(jolt, plate_motion.peak_motion(jolt, edge, dt)[1])
    # Nothing rides before the jolt (beyond 30 degrees, and the stop): a die let go into it would hop too far.
    carrying = plate_motion.carrying_steps(jolt, edge, dt)
    assert not carrying[:100].any()
    # Which dice a hop throws out is chaotic (one start nudged by 1e-9 m moved 3 dice locally, 6 in whole
    # physics): the mean over 8 nudged starts is compared, each start the same for both.
    moved: dict[bool, list[int]] = {True: [], False: []}
    for seed in range(8):
        for local in (True, False):
            world = small_pyramid(Physics(local=local, jitter=seed))
            before = world.readout()
            world.count_steps()
            A.perform(world, jolt, np.random.default_rng(0))
            assert world.count_steps() == len(SMALL)  # no die rode the plate: each one was simulated
            world.settle(raise_on_timeout=False)
            after = world.readout(require_rest=False)
            moved[local].append(sum(after.dice[d].slot != before.dice[d].slot for d in before.dice))
            world.close()
    assert min(moved[False]) > 0
    assert abs(np.mean(moved[True]) - np.mean(moved[False])) <= 2.0, moved  # of 20 dice; 3 to 13 a start


def test_after_a_strokes_stop_the_dice_at_rest_against_the_plate_ride_it_again_and_read_as_whole_physics() -> None:
    stroke = _line_jolt(10.0)  # the tilt hand's kind of stroke: from 25 degrees to 15, stopped short
    for seed in range(3):
        signatures = []
        for local in (True, False):
            world = small_pyramid(Physics(local=local, jitter=seed))
            simulated: list[int] = []

            def count(w: World = world, seen: list[int] = simulated) -> None:
                seen.append(len(w.simulated))

            stop = world.observe(world.physics.time_step, count)
            A.perform(world, stroke, np.random.default_rng(0))
            stop()
            world.settle(raise_on_timeout=False)
            signatures.append(signature(world.readout(require_rest=False)))
            world.close()
            if local:
                # Every die simulated from the start (nothing rides into a jolt), and most ride again after the stop,
                # before the plate lies still (measured: all but 0 or 1 of the 20).
                assert simulated[0] == len(SMALL) and min(simulated) <= len(SMALL) // 4, simulated
        assert signatures[0] == signatures[1]


def test_a_plate_pulled_down_faster_than_a_die_falls_lets_go_of_every_die() -> None:
    world = small_pyramid(Physics())
    dt = world.physics.time_step
    pose = A.HOME.copy()
    world.move_plate(pose, (0.0, 0.0, 0.02))  # raised slowly: every die rides it
    world.step(dt)
    assert world.simulated == []
    pose[2] += 0.02 * dt
    world.move_plate(pose, (0.0, 0.0, -0.2))  # then pulled down at 44 m/s^2 (4.5 g): nothing holds a die up
    assert len(world.simulated) == len(SMALL)
    world.step(dt)
    world.close()


def test_a_gentle_jolt_lets_go_of_nothing() -> None:
    world = small_pyramid(Physics())
    world.count_steps()
    A.perform(world, _line_jolt(5.0, ramp=0.5), np.random.default_rng(0))
    assert world.count_steps() == 0
    world.close()


def test_a_die_let_go_mid_tilt_rides_on_the_carried_dice_as_on_the_plate() -> None:
    # The plate turns about a line 10 cm from the pyramid: the apex moves at about 10 cm/s. Let go of by
    # the plate halfway up, it rests on carried dice that the solver must see moving with the plate: if
    # it saw them at rest, friction would drag the apex back against the plate.
    tilt = A.Tilt(180.0, 20.0, ramp=0.5, hold=0.1, pivot=(0.15, 0.0, 0.0))
    drift = {}
    for local in (True, False):
        world = small_pyramid(Physics(local=local))
        apex = next(d for d, r in world.readout().dice.items() if r.slot == APEX)
        seen: list[np.ndarray] = []

        def watch(world: World = world, apex: int = apex, seen: list[np.ndarray] = seen) -> None:
            dice, poses = world.poses()
            seen.append(g.in_plate_frame(poses[dice.index(apex), :3], world.plate_pose))
            if len(seen) == 10:
                world.apply_force(apex, (0.0, 0.0, 0.0))  # let go of it: simulated from here on

        stop = world.observe(0.03, watch)
        A.perform(world, tilt, np.random.default_rng(0))
        stop()
        if local:
            assert apex in world.simulated
        drift[local] = float(np.linalg.norm(seen[-1] - seen[9])) / world.physics.edge
        world.close()
    assert drift[True] < 0.02
    assert drift[False] < 0.02


def test_whole_physics_is_one_setting_away() -> None:
    world = small_pyramid(replace(Physics(), local=False))
    world.count_steps()
    A.perform(world, A.Tilt(0.0, 5.0, ramp=0.1, hold=0.05), np.random.default_rng(0))
    assert world.count_steps() == len(SMALL)
    world.close()


def test_only_a_die_close_to_its_slots_centre_rides_the_plate() -> None:
    edge = Physics().edge
    slot = (3, 2, 3)
    centre = g.slot_centre(slot) * edge
    local = np.tile(riding.IDENTITY, (4, 1))
    local[:, :3] = centre
    local[1, 2] += 0.005 * edge  # settled under load: a pyramid's dice lie within 0.002 edges
    local[2, 2] += 0.05 * edge  # caught part-way into its funnel
    seated = riding.firmly_seated([slot, slot, slot, None], local, edge)
    assert seated.tolist() == [True, True, False, False]


def test_a_few_rows_quaternion_product_is_the_batchs_bit_for_bit() -> None:
    """The plate's frame is turned one row at a time, and a jolt's few dice a few rows at a time: that path (Python
    floats) must give the batched path's bits, signed zeros included."""
    rng = np.random.default_rng(3)
    ps, qs = rng.normal(size=(50, 4)), rng.normal(size=(40, 4))
    qs[:5, 1] = 0.0
    ps[:5, 2] = -0.0
    assert len(qs) > g.FEW_ROWS
    for p in ps:
        batch = riding.quat_product(p, qs)
        for n in range(len(qs)):
            for rows in range(g.FEW_ROWS + 1):
                if n + rows <= len(qs):
                    assert riding.quat_product(p, qs[n : n + rows]).tobytes() == batch[n : n + rows].tobytes()
    # The product composes turns: a turn times its conjugate is no turn.
    q = qs[7] / np.linalg.norm(qs[7])
    assert np.allclose(riding.quat_product(q, (q * [-1, -1, -1, 1])[None, :])[0], [0, 0, 0, 1], atol=1e-15)


def test_a_frame_advanced_in_python_floats_is_numpys_bit_for_bit() -> None:
    """``advanced`` turns the plate's frame each step in Python floats: the numpy expression's bits, signed zeros
    and a still frame included."""
    rng = np.random.default_rng(5)
    for k in range(400):
        frame = rng.normal(size=7)
        frame[3:] /= np.linalg.norm(frame[3:])
        linear, angular = rng.normal(size=3) * 0.3, rng.normal(size=3) * 4.0
        if k % 7 == 0:
            angular[:] = 0.0
        if k % 11 == 0:
            linear[1], angular[2] = -0.0, 0.0
        h = 0.005 / (1 + k % 3)
        speed = np.linalg.norm(angular)
        expected = np.empty(7)
        expected[:3] = frame[:3] + linear * h
        if float(speed) * h == 0.0:
            expected[3:] = frame[3:]
        else:
            angle = float(speed) * h
            turn = np.concatenate([angular / speed * math.sin(angle / 2), [math.cos(angle / 2)]])
            expected[3:] = riding.quat_product(turn, np.tile(frame[3:], (g.FEW_ROWS + 1, 1)))[0]
        assert riding.advanced(frame, linear, angular, h).tobytes() == expected.tobytes()


def test_the_slip_tests_shortcut_gives_the_full_tests_answer() -> None:
    """A force inside the octant of a seated die's normals never slips: the carriage skips the angles for it, and
    answers as ``slips`` does, for forces inside, outside and on the octant's faces, and for frictions down to 0."""
    rng = np.random.default_rng(9)
    local = np.tile(riding.IDENTITY, (5, 1))
    local[:, :3] = g.slot_centre((3, 2, 3)) * EDGE
    plate = riding.IDENTITY.copy()
    for friction in (0.0, 0.1, 0.2, 0.36, 0.66):
        carriage = riding.Carriage(list(range(5)), list(range(5)), local.copy(), np.full(5, friction), plate)
        for _ in range(200):
            gravity = rng.normal(size=3) * 9.81
            if rng.uniform() < 0.3:
                gravity = -np.abs(gravity) @ g.CUBE_TO_PLATE.T  # pulling into the octant: supported
            slipped = carriage.slipping(plate, np.zeros(3), np.zeros(3), 0.005, gravity)
            support = np.tile(-gravity, (5, 1))
            assert slipped == [d for d, s in enumerate(riding.slips(support, friction)) if s]


def test_the_slip_tests_screen_for_a_few_dice_answers_as_the_full_test() -> None:
    """A few carried dice are screened in Python floats (``riding._deep_inside``) before the full test: on a turned,
    moving plate, for forces deep inside, outside and on the octant's faces, the carriage answers as the full test
    (the force each die needs, by numpy, then ``slips``) does."""
    rng = np.random.default_rng(21)
    slots = [(3, 2, 3), (5, 0, 0), (4, 1, 2)]
    local = np.tile(riding.IDENTITY, (len(slots), 1))
    local[:, :3] = [g.slot_centre(s) * EDGE for s in slots]
    answers = set()
    for trial in range(600):
        plate = np.concatenate([rng.normal(size=3) * 0.05, rng.normal(size=4)])
        plate[3:] /= np.linalg.norm(plate[3:])
        friction = float(rng.choice([0.36, 0.66]))
        carriage = riding.Carriage(
            list(range(len(slots))), list(range(len(slots))), local.copy(), np.full(3, friction), plate
        )
        carriage.linear, carriage.angular = rng.normal(size=3) * 0.2, rng.normal(size=3) * 2.0
        linear = carriage.linear + rng.normal(size=3) * 10.0 ** rng.uniform(-6, -1)
        angular = carriage.angular + rng.normal(size=3) * 10.0 ** rng.uniform(-5, 0)
        rotation = g.quat_to_matrix(plate[3:])[0]
        gravity = np.array([0.0, 0.0, -9.81])
        if trial % 3 == 0:
            # The force the first die needs put on a face of its octant: one cube component zero.
            arm = local[0, :3] @ rotation.T
            change = (linear + np.cross(angular, arm)) - (carriage.linear + np.cross(carriage.angular, arm))
            cube = (change / 0.005 - gravity) @ rotation @ g.CUBE_TO_PLATE
            cube[int(rng.integers(3))] = 0.0
            gravity = change / 0.005 - cube @ g.CUBE_TO_PLATE.T @ rotation.T
        arm = (local[:, :3] @ rotation.T + plate[:3]) - plate[:3]
        before = carriage.linear + g.cross_rows(carriage.angular, arm)
        after = linear + g.cross_rows(angular, arm)
        support = ((after - before) / 0.005 - gravity) @ rotation
        expected = [d for d, s in enumerate(riding.slips(support, friction)) if s]
        assert carriage.slipping(plate, linear, angular, 0.005, gravity) == expected
        answers.add(len(expected))
    assert {0, 3} <= answers  # forces that every die's supports give, and forces none gives


def test_the_slip_screen_over_many_steps_holds_only_where_the_slip_test_lets_nothing_slip() -> None:
    """``Carriage.surely_held`` screens many steps at once (``World.ride_plate``): a step it clears is one in which the
    slip test, step by step, lets no die slip; over random plate motions, gentle to jolting, seated dice and dice on
    the faces of their octants, it clears most gentle steps and no step in which a die slips."""
    rng = np.random.default_rng(31)
    slots = [(3, 2, 3), (5, 0, 0), (4, 1, 2), (6, 1, 0)]
    local = np.tile(riding.IDENTITY, (len(slots), 1))
    local[:, :3] = [g.slot_centre(s) * EDGE for s in slots]
    gravity, h = np.array([0.0, 0.0, -9.81]), 0.005
    cleared = slipped = 0
    for trial in range(40):
        steps = 50
        turns = rng.normal(size=(steps, 4)) * 0.02 + [0.0, 0.0, 0.0, 1.0]
        turns /= np.linalg.norm(turns, axis=1, keepdims=True)
        rotations = g.quat_to_matrix(turns)
        scale = 10.0 ** rng.uniform(-3, 1.5)  # m/s a step: from a gentle tilt to a jolt that throws dice off
        linear = np.cumsum(rng.normal(size=(steps, 3)) * scale * h, axis=0)
        angular = np.cumsum(rng.normal(size=(steps, 3)) * scale * h * 10, axis=0)
        friction = float(rng.choice([0.0, 0.36, 0.66]))
        carriage = riding.Carriage(list(range(4)), list(range(4)), local.copy(), np.full(4, friction), riding.IDENTITY)
        carriage.linear, carriage.angular = np.zeros(3), np.zeros(3)
        sure = carriage.surely_held(rotations, linear, angular, h, gravity)
        for n in range(steps):
            plate = np.concatenate([[0.0, 0.0, 0.01], turns[n]])
            slips = carriage.slipping(plate, linear[n], angular[n], h, gravity)
            assert not (sure[n] and slips), (trial, n)
            cleared += bool(sure[n])
            slipped += bool(slips)
            carriage.linear, carriage.angular = linear[n], angular[n]
    assert cleared > 500 and slipped > 100


# -- dice lying on the table out of the plate's reach (parked) --------------------------------------------------


def _with_table_dice(physics: Physics, spots: list[tuple[float, float]]) -> tuple[World, list[int]]:
    """The small pyramid, and a die lying on a face on the table at each of ``spots`` (x, y), settled."""
    from pyramid.dice import DICE

    world = small_pyramid(physics)
    spare = [d.id for d in DICE if d.id not in set(world.dice)][: len(spots)]
    for die, (x, y) in zip(spare, spots, strict=True):
        world.throw(die, (x, y, physics.edge / 2 + 1e-4))
    world.settle()
    return world, spare


def test_dice_lying_on_the_table_out_of_the_plates_reach_stay_held_while_it_moves() -> None:
    tilt = A.Tilt(200.0, 8.0, ramp=0.3, hold=0.2)
    far = (0.0, 0.22)  # 6 cm beyond the plate's outline
    near = (0.0, 0.14 + 0.016)  # its box within PARK_MARGIN of the plate's
    outcome = {}
    for local in (True, False):
        world, (far_die, near_die) = _with_table_dice(Physics(local=local), [far, near])
        before = world.poses()[1][world.dice.index(far_die)]
        seen: list[tuple[bool, bool]] = []

        def watch(w: World = world, a: int = far_die, b: int = near_die, out: list[tuple[bool, bool]] = seen) -> None:
            out.append((a in w.simulated, b in w.simulated))

        stop = world.observe(world.physics.time_step, watch)
        A.perform(world, tilt, np.random.default_rng(0))
        stop()
        world.settle()
        after = world.poses()[1][world.dice.index(far_die)]
        if local:
            assert not any(a for a, _ in seen), "the far die is never simulated: the plate cannot reach it"
            assert seen[0][1], "the die lying by the plate is simulated as it starts moving (held again in the hold)"
            assert np.array_equal(after, before), "held still, exactly where it lay"
        outcome[local] = (signature(world.readout()), float(np.linalg.norm(after[:3] - before[:3])))
        world.close()
    assert outcome[True][0] == outcome[False][0]
    assert outcome[False][1] < 1e-4, "whole physics leaves it where it lay too"
    # With only far dice on the table, the gentle tilt takes no engine step: every die rides or is parked.
    world, _ = _with_table_dice(Physics(), [far, (0.1, -0.22)])
    with engine_time() as engine:
        A.perform(world, tilt, np.random.default_rng(0))
    assert engine.steps == 0
    world.close()


def _slide_plate(
    world: World, distance: float, seconds: float, during: dict[int, Callable[[], None]] | None = None
) -> None:
    """The hand slides the plate along x by ``distance`` m in ``seconds``, smoothly; ``during`` calls by step."""
    dt = world.physics.time_step
    steps = round(seconds / dt)
    for n in range(steps):
        s, s_next = (plate_motion.hands.smooth_step(k / steps) for k in (n, n + 1))
        pose = A.HOME.copy()
        pose[0] += distance * s
        world.move_plate(pose, (distance * (s_next - s) / dt, 0.0, 0.0), carry=True)
        if during and n in during:
            during[n]()
        world.step(dt)
    world.move_plate(A.HOME + np.array([distance, 0, 0, 0, 0, 0, 0]))


def test_the_plate_sliding_towards_a_parked_die_lets_it_go_and_pushes_it_as_whole_physics_does() -> None:
    ahead = (0.161 + 0.014 + 0.015, 0.0)  # beyond PARK_MARGIN of the plate's box, in its way
    pushed = {}
    for local in (True, False):
        world, (die,) = _with_table_dice(Physics(local=local), [ahead])
        start = world.poses()[1][world.dice.index(die)]
        simulated: list[bool] = []

        def watch(w: World = world, d: int = die, seen: list[bool] = simulated) -> None:
            seen.append(d in w.simulated)

        stop = world.observe(world.physics.time_step, watch)
        _slide_plate(world, 0.04, 1.0)  # 4 cm
        stop()
        world.settle(raise_on_timeout=False)
        end = world.poses()[1][world.dice.index(die)]
        if local:
            assert not simulated[0] and simulated[-1], "parked at first, simulated once the plate came near"
        pushed[local] = float(end[0] - start[0])
        world.close()
    # Pushed ahead of the rim (never gone through): the rim (x 0.159) ran 1.7 cm past the die's near face (x 0.182).
    assert pushed[False] > 0.015 and pushed[True] > 0.015, pushed
    assert abs(pushed[True] - pushed[False]) < 0.005, pushed


def test_a_die_thrown_at_a_parked_die_lets_it_go_and_knocks_it_as_whole_physics_does() -> None:
    target = (0.0, 0.24)
    knocked = {}
    for local in (True, False):
        world, (die,) = _with_table_dice(Physics(local=local), [target])
        thrown = max(world.dice) + 1  # a die not in play
        start = world.poses()[1][world.dice.index(die)]

        def throw(w: World = world, t: int = thrown) -> None:
            # From 5 cm off, sliding along the table at 1 m/s straight at it.
            w.throw(t, (target[0] - 0.05, target[1], 0.0081), velocity=(1.0, 0.0, 0.0))

        _slide_plate(world, 0.003, 0.6, during={20: throw})  # a gentle push of the plate: the far dice parked
        world.settle(raise_on_timeout=False)
        knocked[local] = float(np.linalg.norm(world.poses()[1][world.dice.index(die)][:2] - start[:2]))
        world.close()
    # Knocked about 4 cm both ways (nudged starts 1 to 3: 4.07 against 4.11 cm).
    assert knocked[False] > 0.02 and knocked[True] > 0.02, knocked
    assert abs(knocked[True] - knocked[False]) < 0.2 * knocked[False], knocked


def test_a_jolt_simulates_every_die_but_those_lying_out_of_the_plates_reach() -> None:
    shake = A.Shake(amplitude=0.0035, frequency=22.0, duration=0.3)  # the window's hard shake (S), shorter
    edge, dt = Physics().edge, Physics().time_step
    assert not plate_motion.carries(shake, plate_motion.peak_motion(shake, edge, dt)[1])
    world, (far, near) = _with_table_dice(Physics(), [(0.0, 0.22), (0.0, 0.14 + 0.016)])
    before = world.poses()[1][world.dice.index(far)]
    seen: list[tuple[bool, bool]] = []

    def watch(w: World = world, out: list[tuple[bool, bool]] = seen) -> None:
        out.append((far in w.simulated, near in w.simulated))

    stop = world.observe(dt, watch)
    world.count_steps()
    A.perform(world, shake, np.random.default_rng(0))
    stepped = world.count_steps()
    stop()
    assert not any(f for f, _ in seen), "the far die stays held through the jolt"
    assert all(n for _, n in seen), "the die by the plate is simulated, as every die on it"
    assert stepped == pytest.approx(len(SMALL) + 1), "every die simulated in every step, but the far one"
    world.settle(raise_on_timeout=False)
    assert np.array_equal(world.poses()[1][world.dice.index(far)], before)
    world.close()


@pytest.mark.parametrize("carry", [True, False])
def test_a_die_kicked_at_a_parked_die_with_nothing_else_held_lets_it_go(carry: bool) -> None:
    # No pyramid: once the plate moves nothing is held or carried, the one die left lying out of reach is parked. The
    # die kicked at it must still release it (a parked die is a wall to the solver), gently moved plate or jolted.
    from pyramid.dice import DICE

    pushed = {}
    for local in (True, False):
        physics = Physics(local=local)
        world = World(physics)
        target, kicked = [d.id for d in DICE][:2]
        world.throw(target, (0.0, 0.24, physics.edge / 2 + 1e-4))
        world.throw(kicked, (-0.10, 0.24, physics.edge / 2 + 1e-4))
        world.settle()
        start = world.poses()[1][world.dice.index(target)]
        dt, steps = physics.time_step, 200
        for n in range(steps):
            pose = A.HOME.copy()
            pose[0] += 0.001 * n / steps
            world.move_plate(pose, (0.001 / steps / dt, 0.0, 0.0), carry=carry)
            if n == 5:
                if local:
                    assert target in world._region.parked and kicked not in world.simulated  # type: ignore[union-attr]
                world.kick(kicked, (world.die_mass * 1.0, 0.0, 0.0))  # 1 m/s along the table at it
            world.step(dt)
        world.move_plate(A.HOME + np.array([0.001, 0, 0, 0, 0, 0, 0]))
        world.settle(raise_on_timeout=False)
        pushed[local] = float(world.poses()[1][world.dice.index(target)][0] - start[0])
        world.close()
    assert pushed[False] > 0.01, pushed  # 1.8 cm
    assert abs(pushed[True] - pushed[False]) < 0.2 * pushed[False], pushed


# -- riding through many steps at once (``World.ride_plate``) ----------------------------------------------------


def _lift_then_jolt(world: World, ride: bool, jolt: int = 25, steps: int = 40) -> tuple[int, bytes]:
    """The hand lifts the plate of ``world`` slowly, then jolts it sideways at 10 g at step ``jolt``: every step by
    ``move_plate`` and ``step``, or (``ride``) those from the second on by ``ride_plate`` as far as it goes. Returns
    the steps ``ride_plate`` took and the world's state at the end, as bytes."""
    dt = world.physics.time_step
    motions = []
    pose, velocity = A.HOME.copy(), np.zeros(3)
    for n in range(steps):
        velocity = np.array([0.5 if n >= jolt else 0.0, 0.0, 0.001 * (n + 1)])
        motions.append((pose.copy(), velocity.copy(), np.zeros(3)))
        pose[:3] += velocity * dt
    first, *rest = motions
    world.move_plate(*first)
    world.step(dt)
    taken = world.ride_plate(iter(rest)) if ride else 0
    for motion in rest[taken:]:
        world.move_plate(*motion)
        world.step(dt)
    dice, poses = world.poses()
    state = poses.tobytes() + world.velocities().tobytes() + world.plate_pose.tobytes() + repr(world.time).encode()
    return taken, state


def test_riding_many_steps_at_once_is_stepping_them_one_by_one_bit_for_bit() -> None:
    # The slow lift carries every die; at the jolt their supports cannot take them along: the ride stops before it.
    outcome = {}
    for ride in (False, True):
        world = small_pyramid(Physics())
        outcome[ride] = _lift_then_jolt(world, ride)
        if ride:
            assert len(world.simulated) == len(SMALL)  # the jolt let every die go
        world.close()
    assert outcome[True][0] == 25 - 1  # every step from the second up to the jolt
    assert outcome[True][1] == outcome[False][1]


def test_riding_stops_where_more_than_riding_goes_on() -> None:
    world = small_pyramid(Physics())
    assert not world.rides_alone  # the plate stands still: nothing rides it
    dt = world.physics.time_step
    pose = A.HOME.copy()
    world.move_plate(pose, (0.0, 0.0, 0.01))
    world.step(dt)
    assert world.rides_alone
    stop = world.observe(dt, lambda: None)  # watched, every step is stepped one by one
    assert not world.rides_alone
    assert world.ride_plate(iter([(pose, np.array([0.0, 0.0, 0.01]), np.zeros(3))])) == 0
    stop()
    # The hand holding the plate still ends the ride (and the carriage, in ``move_plate``).
    assert world.ride_plate(iter([(pose, np.zeros(3), np.zeros(3))])) == 0
    # A step that is no plate pose and motion is refused, and nothing moves.
    before = (world.time, world.plate_pose.tobytes())
    with pytest.raises(ValueError, match="plate pose"):
        world.ride_plate(iter([(pose[:6], np.array([0.0, 0.0, 0.01]), np.zeros(3))]))
    assert (world.time, world.plate_pose.tobytes()) == before
    world.close()
