"""The physical actions: each one's effect checked against common sense (and the air jet's model on its own)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.dice import EDGE
from pyramid.perception import Status
from pyramid.physics import actions as A
from pyramid.physics import hands
from pyramid.physics.errors import OccupiedError
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.state import Cell, PyramidState


def test_jet_slows_with_distance_spreads_and_has_no_flow_behind() -> None:
    d = np.array([1.0, 0.0, 0.0])
    points = np.array([[0.05, 0, 0], [0.2, 0, 0], [0.2, 0.03, 0], [-0.05, 0, 0]])
    u = hands.jet_speed(points, (0, 0, 0), d, 20.0, 0.015)
    assert u[0] == pytest.approx(20.0)  # inside the potential core (6 mouth diameters = 9 cm)
    assert u[1] == pytest.approx(20.0 * 6 * 0.015 / 0.2)  # beyond it, 1/x
    assert u[0] > u[1] > u[2] > 0 and u[3] == 0


def test_jet_hits_the_first_die_and_the_one_behind_gets_less() -> None:
    d = np.array([1.0, 0.0, 0.0])
    positions = np.array([[0.05, 0, 0], [0.07, 0, 0], [0.07, 0.05, 0]])
    f = hands.jet_forces(positions, (0, 0, 0), d, 20.0, 0.015, EDGE)
    assert f[0, 0] > 0 and f[1, 0] < 0.5 * f[0, 0]
    # Drag 1/2 rho Cd A u^2 at the first die, along the flow.
    u = 20.0
    assert f[0, 0] == pytest.approx(0.5 * 1.2 * 1.05 * EDGE**2 * u**2)


def _lying_die(world: World) -> np.ndarray:
    world.throw(0, (0.0, 0.0, EDGE / 2))
    world.settle()
    return world.poses()[1][0, :3].copy()


@pytest.mark.parametrize(("speed", "moves"), [(6.0, False), (30.0, True)])
def test_a_strong_blow_moves_a_die_and_a_weak_one_does_not(speed: float, moves: bool) -> None:
    world = World(plate=False)
    start = _lying_die(world)
    origin = (start[0] - 0.05, start[1], start[2] + 0.01)
    A.perform(world, A.Blow(origin, azimuth=0.0, elevation=-10.0, speed=speed, duration=0.5), np.random.default_rng(0))
    world.settle()
    shift = world.poses()[1][0, :3] - start
    if moves:
        assert shift[0] > 2 * EDGE and abs(shift[1]) < abs(shift[0])  # downstream
    else:
        assert np.linalg.norm(shift) < 0.05 * EDGE
    world.close()


def test_a_steep_tilt_sends_a_seated_die_downhill_and_a_gentle_one_does_not() -> None:
    # Coulomb's law lets a seated die slide out towards azimuth 180 from 62.3 degrees (along the groove of
    # its two lower faces, friction 0.36): 70 left in 10 of 10 nudged starts, 20 in none (65 sat on the edge).
    rng = np.random.default_rng(0)
    for angle, leaves in ((20.0, False), (70.0, True)):
        world = World()
        world.place(0, (3, 3, 2))
        world.settle()
        start = world.poses()[1][0, :3].copy()
        A.perform(world, A.Tilt(180.0, angle, hold=0.8), rng)
        world.settle(raise_on_timeout=False)
        r = world.readout(require_rest=False).dice[0]
        if leaves:
            assert r.slot != (3, 3, 2) and r.position[0] < start[0] - 2 * EDGE  # towards azimuth 180: -x
        else:
            assert r.slot == (3, 3, 2)
        assert np.allclose(world.plate_pose, A.HOME)  # the hand puts the plate back down
        world.close()


def test_shaking_while_tilted_frees_a_die_the_tilt_alone_cannot() -> None:
    rng = np.random.default_rng(0)
    slots = []
    # 10 mm at 8 Hz is 2.6 g along the slope: enough to lift a seated die over its funnel's rim (about 2.3 g).
    for shake in (0.0, 0.010):
        world = World()
        world.place(0, (3, 3, 2))
        world.settle()
        A.perform(world, A.Tilt(180.0, 15.0, hold=1.0, shake=shake, frequency=8.0), rng)
        world.settle(raise_on_timeout=False)
        slots.append(world.readout(require_rest=False).dice[0].slot)
        world.close()
    assert slots[0] == (3, 3, 2) and slots[1] != (3, 3, 2)


def test_read_outs_stay_right_on_a_tilted_plate() -> None:
    world = World()
    pose = hands.tilted_plate_pose(hands.unit(40.0), math.radians(25.0), EDGE)
    world.move_plate(pose)
    world.place(0, (4, 2, 2), (3, 1, 2))
    r = world.readout(require_rest=False).dice[0]
    assert r.status is Status.SEATED and r.slot == (4, 2, 2) and r.up == (3, 1, 2)
    # The low edge of the plate stays on the table.
    corners = g.slab_corners() * EDGE
    rot = g.quat_to_matrix(pose[3:])[0]
    lowest = min((pose[:3] + rot @ np.array([x, y, 0.0]))[2] for x, y in corners)
    assert lowest == pytest.approx(0.0, abs=1e-9)
    world.close()


def test_a_flick_moves_and_spins_a_die() -> None:
    world = World(plate=False)
    start = _lying_die(world)
    A.perform(world, A.Flick(0, azimuth=90.0, impulse=0.003, height=0.4), np.random.default_rng(0))
    v = world.velocities()[0]
    mass = world.die_mass
    assert v[1] == pytest.approx(0.003 / mass, abs=1e-3) and abs(v[0]) < 1e-3
    # Struck above the centre while pushed along +y: the spin r x J, r = (0, -a/2, h a), turns about -x: topspin.
    assert v[3] < -10 and abs(v[4]) < 0.1
    world.settle()
    assert world.poses()[1][0, 1] - start[1] > 2 * EDGE
    world.close()


def test_a_throw_lands_where_it_is_aimed_and_a_seed_replays_it() -> None:
    def first_touch(seed: int) -> np.ndarray:
        world = World(plate=False)
        throw = A.Throw(0, (0.05, -0.03), height=0.15, distance=0.15, azimuth=30.0, spin=0.0, scatter=0.0)
        A.perform(world, throw, np.random.default_rng(seed))
        while world.poses()[1][0, 2] > 0.9 * EDGE:
            world.step(world.physics.time_step)
        out = world.poses()[1][0, :3]
        world.close()
        return out

    touch = first_touch(1)
    assert np.linalg.norm(touch[:2] - np.array([0.05, -0.03])) < EDGE
    assert np.array_equal(touch, first_touch(1))


def _apex_stays_when_its_supports_are_lifted(local: bool, friction: float, jitter: int) -> bool:
    """Whether the apex of a 10-die pyramid still reads in its slot once its three supports are lifted out."""
    world = World(Physics(local=local, friction_die=friction, jitter=jitter))
    apex = (6, 0, 0)
    slot_die = world.build(PyramidState({s: Cell("green", (1, 2, 3)) for s in g.small_pyramid(10, apex)}))
    world.settle()
    top = slot_die[apex]
    try:
        for support in ((6, 1, 0), (6, 0, 1), (7, 0, 0)):  # the supports, the one below along +i last
            A.perform(world, A.Lift(support), np.random.default_rng(0))
            world.settle(raise_on_timeout=False)
            assert slot_die[support] not in world.dice
        return world.readout(require_rest=False).dice[top].slot == apex
    finally:
        world.close()


# The apex of a 10-die pyramid touches, besides its three supports, the three dice two layers down along
# an edge each (the cube lattice). With its supports lifted one by one it slides towards a hole only
# against friction on those dice's faces. Without friction it always drops out of its slot; with
# acrylic's 0.66 it jams in its slot in most cases and not in all: the hand lifting a support drags it,
# and where it ends is a knife's edge (20 nudges of the start by 1e-9 m: 17 stay with local physics and
# 13 with whole; before friction anchors 9 and 6). So the default suite asserts the sure half, and the
# slow suite the share.
@pytest.mark.parametrize("local", [True, False], ids=["local", "whole"])
def test_a_die_whose_supports_are_lifted_drops_out_without_friction(local: bool) -> None:
    assert not any(_apex_stays_when_its_supports_are_lifted(local, 0.0, jitter) for jitter in (1, 2))
    world = World()
    with pytest.raises(ValueError, match="no die is seated"):
        A.perform(world, A.Lift((3, 3, 2)), np.random.default_rng(0))
    world.close()


@pytest.mark.slow
@pytest.mark.parametrize("local", [True, False], ids=["local", "whole"])
def test_friction_jams_a_die_whose_supports_are_lifted_in_a_share_of_nudged_starts(local: bool) -> None:
    stayed = sum(_apex_stays_when_its_supports_are_lifted(local, 0.81, jitter) for jitter in range(20))
    # Measured 17 (local) and 13 (whole) of 20; at a share of 0.65, fewer than 6 of 20 come one time in 3,000.
    assert stayed >= 6, f"the apex stayed in {stayed} of 20 nudged starts"
    assert not any(_apex_stays_when_its_supports_are_lifted(local, 0.0, jitter) for jitter in range(5))


def test_a_ladle_pours_its_dice_onto_the_plate_the_same_way_for_a_seed() -> None:
    def pour(seed: int) -> np.ndarray:
        world = World()
        A.perform(world, A.Pour(tuple(range(6)), (0.0, 0.0), height=0.08), np.random.default_rng(seed))
        world.settle(raise_on_timeout=False)
        readout = world.readout(require_rest=False)
        assert sum(r.on_plate for r in readout.dice.values()) >= 4
        out = world.poses()[1]
        world.close()
        return out

    assert np.array_equal(pour(3), pour(3))


def test_bad_actions_are_refused() -> None:
    world = World()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="speed"):
        A.perform(world, A.Blow((0, 0, 0.05), 0.0, speed=-1.0), rng)
    with pytest.raises(ValueError, match="angle"):
        A.perform(world, A.Tilt(0.0, 95.0), rng)
    with pytest.raises(ValueError, match="not in play"):
        A.perform(world, A.Flick(5, 0.0), rng)
    with pytest.raises(TypeError):
        A.perform(world, "tilt", rng)  # type: ignore[arg-type]
    world.close()


def test_a_pulled_die_stays_out_and_two_pulled_neighbours_carry_a_balcony_die() -> None:
    """Mount(a)ing's principle: 8 mm out, friction holds a die; its pulled neighbours and the face form a funnel."""

    def balcony(depth: float) -> tuple[float, float]:
        world = World()
        slots = g.small_pyramid(20, (2, 2, 1))  # 4 layers on the middle funnels; its face i = 2 looks out
        world.build(PyramidState({s: Cell("green", (1, 2, 3)) for s in slots}))
        world.settle()
        rng = np.random.default_rng(0)
        pulled = [(2, 3, 3), (2, 4, 2)]
        moved = []
        for slot in pulled:
            die = world.readout().slot_die[slot]
            A.perform(world, A.Pull(slot, distance=depth, axis=0), rng)
            world.settle(raise_on_timeout=False)
            centre = np.array(world.readout(require_rest=False).dice[die].position)
            moved.append(float(np.linalg.norm(centre - g.slot_centre(slot) * EDGE)) / EDGE)
        A.perform(world, A.Attach(250, (1, 3, 2)), rng)
        world.settle(raise_on_timeout=False)
        cell_centre = g.slot_centre((1, 3, 2)) * EDGE
        stayed = float(np.linalg.norm(np.array(world.readout(require_rest=False).dice[250].position) - cell_centre))
        world.close()
        return min(moved), stayed / EDGE

    moved, stayed = balcony(0.008)
    assert moved > 0.25 and stayed < 0.2  # pulled dice stay out; the balcony die stays in its cell
    moved, stayed = balcony(0.0)
    assert moved < 0.05 and stayed > 0.5  # on the bare face the same die slides away


def test_bad_pulls_and_attaches_are_refused() -> None:
    world = World()
    world.build(PyramidState({s: Cell("red", (1, 2, 3)) for s in g.small_pyramid(4, (7, 0, 0))}))
    world.settle()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="covered"):
        A.perform(world, A.Pull((8, 0, 0), axis=0), rng)  # (7, 0, 0) rests on its +i face
    with pytest.raises(ValueError, match="no die is seated"):
        A.perform(world, A.Pull((3, 3, 2)), rng)
    with pytest.raises(ValueError, match="axis"):
        A.perform(world, A.Pull((7, 0, 0), axis=3), rng)
    with pytest.raises(ValueError, match="already in play"):
        A.perform(world, A.Attach(world.dice[0], (6, 0, 0)), rng)
    world.close()


def test_a_die_is_not_attached_into_a_cell_a_die_fills() -> None:
    world = World()
    built = world.build(PyramidState({s: Cell("red", (1, 2, 3)) for s in g.small_pyramid(4, (7, 0, 0))}))
    world.settle()
    before = world.poses()[1]
    rng = np.random.default_rng(0)
    for cell in ((7, 0, 0), (8, 0, 0)):  # the top die, a base die
        with pytest.raises(OccupiedError, match=rf"cell \({cell[0]}, 0, 0\) is taken: die {built[cell]} sits there"):
            A.perform(world, A.Attach(200, cell, drop=0.01), rng)
    assert sorted(world.dice) == sorted(built.values()) and np.array_equal(world.poses()[1], before)  # nothing done
    A.perform(world, A.Attach(200, (6, 0, 0)), rng)  # the cell on top of the small pyramid is free
    assert 200 in world.dice
    world.close()
