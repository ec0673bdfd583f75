"""The plate held in two hands: turns about any horizontal line, and the games it plays (Faraday, Coulomb)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.agents.plate_aim import base_funnel, funnel_steps
from pyramid.agents.plate_hands import TiltHand
from pyramid.dice import EDGE
from pyramid.lab.scene import SceneError, scene_from_dict
from pyramid.physics import actions as A
from pyramid.physics import hands, plate_motion
from pyramid.physics.world import World
from pyramid.play import play_game
from pyramid.skillgames.plate import (
    BASE,
    CORNERS,
    Faraday,
    cheapest_pyramid,
    pyramid_cost,
    pyramid_roles,
    ramp_funnels,
    steps,
)

B, C = (0, 8, 0), (0, 0, 8)


def _centre(slot: tuple[int, int, int]) -> np.ndarray:
    return g.slot_centre(slot) * EDGE


def _line_stroke(mover: tuple[int, int, int], speed: float) -> A.Tilt:
    """A jolt back from 35 to 15 degrees about the line through the dice in corners B and C (towards +x, corner A)."""
    line = _centre(B)  # B and C share x: the line through both runs along y
    reach = float(_centre(mover)[0] - line[0])
    sweep = math.radians(20.0)
    return A.Tilt(
        0.0, 15.0, ramp=2 * sweep * reach / speed, hold=0.3, accelerate=0.9, fall=0.4,
        pivot=(float(line[0]), 0.0, float(line[2])), preset=35.0, lift_time=0.45,
    )  # fmt: skip


def test_a_turn_about_the_line_through_two_dice_throws_the_third_towards_the_far_corner_and_the_two_stay() -> None:
    world = World()
    mover = (3, 3, 2)
    for die, slot in enumerate((mover, B, C)):
        world.place(die, slot)
    world.settle()
    A.perform(world, _line_stroke(mover, 0.7), np.random.default_rng(0))
    world.settle(raise_on_timeout=False)
    readout = world.readout(require_rest=False)
    moved_to = readout.dice[0].slot
    # Seated again, read from its pose, one or two funnels on (towards a corner it lands between two steps).
    assert moved_to is not None and 1 <= funnel_steps(mover, moved_to) <= 2
    assert moved_to[0] > mover[0]  # towards corner A, away from the line
    assert readout.dice[1].slot == B and readout.dice[2].slot == C  # on the line: they only turned with the plate
    assert np.allclose(world.plate_pose, A.HOME)  # set down where it lay
    world.close()


def test_a_gentle_turn_about_the_same_line_moves_nothing() -> None:
    world = World()
    mover = (3, 3, 2)
    for die, slot in enumerate((mover, B, C)):
        world.place(die, slot)
    world.settle()
    A.perform(world, _line_stroke(mover, 0.3), np.random.default_rng(0))
    world.settle(raise_on_timeout=False)
    readout = world.readout(require_rest=False)
    assert [readout.dice[d].slot for d in range(3)] == [mover, B, C]
    world.close()


@pytest.mark.parametrize("preset", [0.0, 35.0, -20.0])
def test_the_plate_turned_about_a_line_inside_it_never_goes_through_the_table(preset: float) -> None:
    tilt = A.Tilt(60.0, 25.0, ramp=0.1, hold=0.2, accelerate=0.8, pivot=(0.01, -0.02, 0.026), preset=preset)
    corners = g.slab_prism()[0] * EDGE
    duration = A.tilt_duration(tilt, EDGE)
    lowest, highest_angle = [], 0.0
    for t in np.linspace(0.0, duration, 400):
        pose = A.plate_pose_at(tilt, float(t), EDGE)
        rot = g.quat_to_matrix(pose[3:])[0]
        lowest.append(float((corners @ rot.T + pose[:3])[:, 2].min()))
        highest_angle = max(highest_angle, math.degrees(math.acos(min(1.0, rot[2, 2]))))
    assert min(lowest) > -1e-9  # lifted clear first
    assert highest_angle == pytest.approx(max(25.0, abs(preset)), abs=0.2)
    assert np.allclose(A.plate_pose_at(tilt, duration, EDGE), A.HOME)  # and set down again


def test_the_turning_line_stays_put_while_the_plate_turns_about_it() -> None:
    pivot = np.array([0.03, 0.01, 0.026])
    tilt = A.Tilt(200.0, 20.0, ramp=0.2, hold=0.1, pivot=tuple(pivot))
    lift = A.tilt_lift(tilt, EDGE)
    assert lift > 0  # the lowered side would go below the table: the hands lift it
    for t in (0.25, 0.35, 0.45, 0.6):  # lift 0 to 0.2 s, turn 0.2 to 0.4 s, hold, turn back 0.5 to 0.7 s
        pose = A.plate_pose_at(tilt, t, EDGE)
        rot = g.quat_to_matrix(pose[3:])[0]
        moved = pose[:3] + rot @ pivot  # where the plate point at the pivot went
        assert np.allclose(moved, pivot + [0, 0, lift], atol=1e-9)


def test_a_tilt_without_a_pivot_moves_the_plate_as_before() -> None:
    tilt = A.Tilt(40.0, 12.0, ramp=0.2, hold=0.3)
    for t in np.linspace(0.0, 0.7, 15):
        rise = hands.smooth_step(t / 0.2)
        fall = hands.smooth_step((0.7 - t) / 0.2)
        expected = hands.tilted_plate_pose(hands.unit(40.0), math.radians(12.0) * min(rise, fall), EDGE)
        assert np.allclose(A.plate_pose_at(tilt, float(t), EDGE), expected)


def test_a_sudden_stop_and_a_sudden_start_are_where_the_share_says() -> None:
    # Constant acceleration to the peak at the share, constant deceleration after; the turn ends at 1.
    for share in (0.1, 0.5, 0.9):
        u = np.linspace(0, 1, 1001)
        done = np.array([hands.rise_profile(x, share) for x in u])
        rate = np.gradient(done, u)
        assert done[0] == 0 and done[-1] == pytest.approx(1.0)
        assert u[int(np.argmax(rate))] == pytest.approx(share, abs=0.01)
        assert rate.max() == pytest.approx(2.0, rel=0.01)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"preset": 30.0}, "needs a pivot"),
        ({"pivot": (0.0, 0.0, 0.02), "accelerate": 1.0}, "accelerate < 1"),
        ({"pivot": (0.0, 0.0, 0.02), "preset": 95.0}, "-80 to 80"),
        ({"pivot": (0.0, 0.0, float("nan"))}, "pivot is a point"),
    ],
)
def test_a_bad_two_handed_tilt_is_refused_with_what_is_wrong(fields: dict[str, object], words: str) -> None:
    world = World()
    with pytest.raises(ValueError, match=words):
        A.perform(world, A.Tilt(0.0, 10.0, **fields), np.random.default_rng(0))  # type: ignore[arg-type]
    world.close()


def test_the_tilt_hand_puts_the_line_between_the_die_it_moves_and_the_others() -> None:
    class Game:
        dice = [0, 1, 2]

        def goal_slots(self, readout: object) -> dict[int, tuple[int, int, int]]:
            return {0: (8, 0, 0)}

    world = World()
    for die, slot in enumerate(((3, 3, 2), B, C)):
        world.place(die, slot)
    world.settle()
    hand = TiltHand(np.random.default_rng(0))
    action = hand.act(Game(), world.readout(), 0.0)  # type: ignore[arg-type]  # a stand-in: the hand reads dice and goal_slots
    assert isinstance(action, A.Tilt) and action.pivot is not None
    points = {d: _centre(s) for d, s in enumerate(((3, 3, 2), B, C))}
    family = "return" if action.preset > action.angle else "rise"
    thrown = TiltHand.launch_distances(points, np.array(action.pivot), action.direction, family)
    assert thrown[0] > 0  # the die to move is on the side that flies
    assert all(thrown[d] <= hand.risk * thrown[0] for d in (1, 2))  # the corner dice are pressed or barely thrown
    A.perform(world, action, np.random.default_rng(1))
    world.settle(raise_on_timeout=False)
    readout = world.readout(require_rest=False)
    assert readout.dice[1].slot == B and readout.dice[2].slot == C
    assert funnel_steps(base_funnel(readout.dice[0].position), (8, 0, 0)) < funnel_steps((3, 3, 2), (8, 0, 0))
    world.close()


@pytest.mark.slow
def test_the_tilt_hand_solves_faraday_and_every_corner_is_read_back_from_the_world() -> None:
    game = play_game(Faraday, ["tilt"], 3)
    assert isinstance(game, Faraday)
    record = game.records[0]
    assert record.end.success and record.time < Faraday.time_limit
    assert game.reached == [3]  # all three corners held a die at one read-out
    assert game.best[0] == pytest.approx(record.time)
    assert set(CORNERS) == {(8, 0, 0), B, C}


def test_coulomb_builds_where_the_dice_stand_and_keeps_its_choice_unless_another_is_clearly_cheaper() -> None:
    funnels = {0: (4, 2, 2), 1: (3, 3, 2), 2: (3, 2, 3), 3: (1, 3, 4)}
    apex = cheapest_pyramid(funnels, None)
    assert set(g.supports(apex)) == {(4, 2, 2), (3, 3, 2), (3, 2, 3)} and pyramid_cost(funnels, apex) == 1
    roles = pyramid_roles(funnels, apex)
    assert roles[3] == apex  # the die that is not in the base climbs, from a funnel beside two supports
    assert (2, 3, 3) in ramp_funnels(apex) and steps((1, 3, 4), (2, 3, 3)) == 1
    corners = {0: (8, 0, 0), 1: (0, 8, 0), 2: (0, 0, 8), 3: (3, 3, 2)}
    start = cheapest_pyramid(corners, None)
    assert pyramid_cost(corners, start) <= min(pyramid_cost(corners, a) for a in g.layer_slots(7))
    assert cheapest_pyramid(corners, (2, 2, 3)) == (2, 2, 3)  # one step dearer at most: kept


def test_a_scene_may_turn_the_plate_about_a_line_and_a_bad_preset_is_refused_by_name() -> None:
    step = {"do": "tilt", "direction": 0.0, "angle": 15.0, "pivot": [-0.05, 0.0, 0.026], "preset": 35.0}
    scene = scene_from_dict({"timeline": [dict(step, accelerate=0.9, ramp=0.12)]}, "two_hands.toml")
    params = scene.timeline[0].params
    assert params["pivot"] == (-0.05, 0.0, 0.026) and params["preset"] == 35.0
    with pytest.raises(SceneError, match=r"timeline\[0\]\.preset"):
        scene_from_dict({"timeline": [dict(step, preset=95.0)]}, "two_hands.toml")
    with pytest.raises(SceneError, match=r"timeline\[0\]\.pivot"):
        scene_from_dict({"timeline": [dict(step, pivot=[0.0, 0.0])]}, "two_hands.toml")


def test_the_plates_velocity_and_turns_in_python_floats_are_numpys_bit_for_bit() -> None:
    """``pose_velocity`` and the turns of a line (``line_rotation``) are written out in Python floats: the bits of
    the numpy expressions they replace (the trace summed left to right), over the poses of a stroke and of tilts."""
    rng = np.random.default_rng(4)
    tilts = [A.Tilt.jolt(float(rng.uniform(-180, 180)), 12.0, (0.01, -0.02, 0.03), 5.0, 0.3)]
    tilts += [A.Tilt(float(rng.uniform(-180, 180)), float(rng.uniform(1, 40)), ramp=0.2) for _ in range(4)]
    for tilt in tilts:
        for t in np.arange(0.0, A.tilt_duration(tilt, EDGE), 0.005):
            before, after = A.plate_pose_at(tilt, float(t), EDGE), A.plate_pose_at(tilt, float(t) + 0.005, EDGE)
            linear, angular = hands.pose_velocity(before, after, 0.005)
            rb, ra = g.quat_to_matrix(before[3:])[0], g.quat_to_matrix(after[3:])[0]
            d = ra @ rb.T
            w = np.array([d[2, 1] - d[1, 2], d[0, 2] - d[2, 0], d[1, 0] - d[0, 1]]) / 2
            s = np.linalg.norm(w)
            expected = w / s * math.atan2(s, (np.trace(d) - 1) / 2) / 0.005 if s > 1e-12 else np.zeros(3)
            assert angular.tobytes() == expected.tobytes()
            assert linear.tobytes() == ((after[:3] - before[:3]) / 0.005).tobytes()
    for _ in range(200):
        downhill, angle = hands.unit(float(rng.uniform(-180, 180))), float(rng.uniform(-1.0, 1.0))
        d = np.array([downhill[0], downhill[1], 0.0])
        d /= np.linalg.norm(d)
        axis = np.array([0.0 * 0.0 - 1.0 * d[1], 1.0 * d[0] - 0.0 * 0.0, 0.0 * d[1] - 0.0 * d[0]])
        quat = np.concatenate([axis * math.sin(angle / 2), [math.cos(angle / 2)]])
        assert hands.line_rotation(downhill, angle)[0].tobytes() == quat.tobytes()


def test_a_plate_track_reckoned_all_at_once_is_the_one_reckoned_moment_by_moment_bit_for_bit() -> None:
    """``PlateTrack.prefetch`` reckons many moments in arrays, and ``prefetch_steps`` and ``prefetch_motion`` what the
    world asks at each step: every pose, corner, motion and split of a step has the bits of those reckoned moment by
    moment, for each kind of plate motion (one-handed tilts, shaken or not; turns about a line, smooth, jerked or
    stopped short; strokes from a preset; shakes with and without a vertical part), at the world's steps and
    sub-steps."""
    rng = np.random.default_rng(11)

    def azimuth() -> float:
        return float(rng.uniform(0, 360))

    def point() -> tuple[float, float, float]:
        return float(rng.normal(0.1, 0.03)), float(rng.normal(0.06, 0.03)), 0.0

    actions: list[A.Tilt | A.Shake] = []
    for _ in range(3):
        actions += [
            A.Tilt(azimuth(), float(rng.uniform(0, 40)), ramp=float(rng.uniform(0.05, 0.5))),
            A.Tilt(azimuth(), float(rng.uniform(0, 30)), shake=0.003, frequency=float(rng.uniform(5, 25))),
            A.Tilt(azimuth(), 10.0, pivot=point(), accelerate=float(rng.uniform(0, 0.95))),
            A.Tilt.jolt(azimuth(), float(rng.uniform(5, 30)), point(), float(rng.uniform(-20, 20)), 0.1),
            A.Shake(0.003, float(rng.uniform(4, 25)), 0.5, azimuth=azimuth(), vertical=0.001),
            A.Shake(0.003, 8.0, 0.5, azimuth=azimuth()),
        ]
    dt = 0.005
    for action in actions:
        steps = round(plate_motion.duration(action, EDGE) / dt) + 1
        times = [n * dt + i * (dt / 3) + d for n in range(steps) for i in range(3) for d in (0.0, dt / 3, dt)]
        alone, together = plate_motion.PlateTrack(action, EDGE), plate_motion.PlateTrack(action, EDGE)
        together.prefetch(times)
        for t in times:
            (pose, turn, corners), (pose2, turn2, corners2) = alone.frame(t), together.frame(t)
            assert pose.tobytes() == pose2.tobytes(), (str(action), t)
            assert corners.tobytes() == corners2.tobytes(), (str(action), t)
            # Equal, though a zero's sign may differ: one moment's turn is kept by the value of its quaternion.
            assert np.array_equal(turn, turn2), (str(action), t)
        ahead = plate_motion.PlateTrack(action, EDGE)
        ahead.prefetch_steps(steps, dt)
        for n in range(steps):
            parts = alone.parts(n * dt, dt)
            assert ahead.parts(n * dt, dt) == parts, (str(action), n)
            h = dt / parts
            ahead.prefetch_motion([n * dt + i * h for i in range(parts)], h)
            for i in range(parts):
                for mine, theirs in zip(ahead.motion(n * dt + i * h, h), alone.motion(n * dt + i * h, h), strict=True):
                    assert mine.tobytes() == theirs.tobytes(), (str(action), n, i)


def test_the_small_pyramids_roles_are_the_first_cheapest_ordering() -> None:
    """The roles kept by funnels (``pyramid_roles``, ``pyramid_cost``) are those of trying every ordering of the dice
    in turn and keeping the first of the fewest steps, for three and four dice anywhere on the plate."""
    rng = np.random.default_rng(6)
    for _ in range(60):
        count = int(rng.integers(3, 5))
        funnels = {int(d): BASE[int(rng.integers(len(BASE)))] for d in rng.choice(90, count, replace=False)}
        for apex in g.layer_slots(7):
            places = (*g.supports(apex), apex)
            best: tuple[int, dict[int, tuple[int, int, int]]] = (10**6, {})
            for order in itertools.permutations(list(funnels), min(4, len(funnels))):
                cost = sum(steps(funnels[d], s) for d, s in zip(order[:3], places, strict=False))
                if len(order) > 3:
                    cost += min(steps(funnels[order[3]], r) for r in ramp_funnels(apex))
                if cost < best[0]:
                    best = (cost, dict(zip(order, places, strict=False)))
            assert (pyramid_cost(funnels, apex), pyramid_roles(funnels, apex)) == best


def _wedged_in_corner(world: World, seed: int) -> None:
    """Dice seated in corners B and C, and die 2 wedged in corner A: flat on one of the funnel's faces, turned
    34 degrees in it, its edges against the other two (the pose rounded dice were left stuck in at the end of
    Faraday's turns, measured at seeds 5, 8 and 9), nudged by 1e-9 m."""
    import dataclasses

    from scipy.spatial.transform import Rotation

    world.place(0, B)
    world.place(1, C)
    world.place(2, CORNERS[0])
    table = world.snapshot()
    poses = table.poses.copy()
    normal = np.array([-0.408, -0.707, -0.577])  # the funnel face it lies on, pointing into the plate
    normal /= np.linalg.norm(normal)
    poses[2, 3:] = (Rotation.from_rotvec(math.radians(34.0) * normal) * Rotation.from_quat(poses[2, 3:])).as_quat()
    poses[2, :3] += np.array([-1.1, -1.9, 3.1]) * 1e-3 + 1e-9 * np.random.default_rng(seed).standard_normal(3)
    world.restore(dataclasses.replace(table, poses=poses))
    world.settle(timeout=5, raise_on_timeout=False)


@pytest.mark.parametrize("die_shape", ["box", "hull"])
def test_the_tilt_hands_unjamming_shake_seats_a_die_wedged_in_its_corner_where_a_slower_shake_does_not(
    die_shape: str,
) -> None:
    import dataclasses

    from pyramid.agents.plate_hands import UNJAM
    from pyramid.physics.settings import COMPARED_DICE, Physics

    physics = Physics(**COMPARED_DICE[die_shape])
    seated = {"slow": 0, "unjam": 0}
    kept = wedged = 0
    for name, shake in (("slow", A.Shake(0.003, 8.0, 0.3)), ("unjam", UNJAM)):
        for k in range(8):
            world = World(physics)
            try:
                _wedged_in_corner(world, k)
                wedged += world.readout(require_rest=False).dice[2].slot is None
                A.perform(world, dataclasses.replace(shake, azimuth=45.0 * k), np.random.default_rng(k))
                world.settle(timeout=5, raise_on_timeout=False)
                readout = world.readout(require_rest=False)
                seated[name] += readout.dice[2].slot == CORNERS[0]
                kept += readout.dice[0].slot == B and readout.dice[1].slot == C
            finally:
                world.close()
    # Measured over 8 directions: the wedge holds (16 of 16); 3 mm at 8 Hz (0.77 g) seats 0 of 8 on either die,
    # the hand's 3 mm at 14 Hz (2.4 g) 7 (box) and 6 (hull) of 8; neither moves the two seated dice (16 of 16).
    assert wedged == 16, f"the die was wedged in {wedged} of 16 starts"
    assert seated["slow"] <= 2, f"3 mm at 8 Hz seated {seated['slow']} of 8"
    assert seated["unjam"] >= 5, f"the unjamming shake seated {seated['unjam']} of 8"
    assert kept == 16, f"the two seated dice stayed in {kept} of 16 shakes"


@pytest.mark.slow
def test_the_tilt_hand_solves_faraday_on_the_rounded_dice_as_on_the_box() -> None:
    from scipy.stats import fisher_exact

    from pyramid.physics.settings import ROUNDED_DIE, Physics

    hull = Physics(**ROUNDED_DIE)
    solved = {
        name: sum(play_game(Faraday, ["tilt"], seed, physics=physics).records[0].end.success for seed in range(10))
        for name, physics in (("box", Physics()), ("hull", hull))
    }
    # Measured over seeds 0 to 29: 30 (box) and 26 (hull); before the unjamming shake at 14 Hz, 30 and 13.
    assert solved["box"] >= 9 and solved["hull"] >= 8, solved
    assert fisher_exact([[solved["box"], 10 - solved["box"]], [solved["hull"], 10 - solved["hull"]]]).pvalue > 0.05
