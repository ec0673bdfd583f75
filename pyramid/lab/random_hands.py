"""Random hands: legal physical actions with seeded random parameters, for the soak and the floor's tests.

Each parameter is drawn uniformly from a numpy Generator within the range a hand can give it (the ranges
of the Gymnasium environments' hands, ``pyramid.gymnasium``, where they have one). A drawn tilt or shake
that no hand can do (too fast, too jolting: ``plate_motion.check_hand``) is drawn again. Thrown and
poured dice leave the hand above everything in play, so that a die is never released inside another.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.agents.controller import reachable
from pyramid.dice import DICE, DieId
from pyramid.physics import plate_motion
from pyramid.physics.actions import Blow, Flick, Lift, PhysicalAction, Pour, Pull, Shake, Throw, Tilt
from pyramid.physics.stage import TABLE_HALF_WIDTH
from pyramid.physics.world import World

KINDS = ("flick", "throw", "pour", "pull", "lift", "tilt", "shake", "blow")
FLICK_IMPULSE = 0.02  # N s: the hardest flick (Flickers' environment), a 4.8 g die leaves at 4.2 m/s
FLICK_SPIN = 1100.0  # rad/s: that flick struck half an edge off the die's centre
PLATE_REACH = 2 * geometry.SLAB_INRADIUS  # edges from the plate's centre to its corners
TARGET_RADIUS = 0.25  # m: throws and pours aim within this of the plate's centre
RELEASE_SPAN = 0.25  # m: a hand lets go from just above everything up to this much higher
REDRAWS = 50  # draws of a plate motion before giving up (a hand can do most: this is never reached)


def fall_off_table(world: World, die: DieId, rng: np.random.Generator) -> None:
    """Send ``die`` off the table's edge as a flick can: over a random side, outward within 80 degrees of square.

    Its centre starts half an edge past the edge, 0.9 edges above the table top, in a uniformly random
    orientation, at 0 to 4.2 m/s horizontally (the hardest flick), -0.5 to 2 m/s upwards, spinning at 0 to
    1100 rad/s about a random axis. Then the world steps it like any die: settle it afterwards.
    """
    edge = world.physics.edge
    turn = int(rng.integers(4)) * math.pi / 2
    along = rng.uniform(-0.9, 0.9) * TABLE_HALF_WIDTH
    out = TABLE_HALF_WIDTH + edge / 2
    position = (
        out * math.cos(turn) - along * math.sin(turn),
        out * math.sin(turn) + along * math.cos(turn),
        0.9 * edge,
    )
    heading = turn + rng.uniform(-1.4, 1.4)
    speed = rng.uniform(0.0, FLICK_IMPULSE / world.die_mass)
    velocity = (speed * math.cos(heading), speed * math.sin(heading), rng.uniform(-0.5, 2.0))
    axis = rng.normal(size=3)
    spin = rng.uniform(0.0, FLICK_SPIN) * axis / np.linalg.norm(axis)
    world.throw(die, position, velocity, tuple(spin), tuple(Rotation.random(rng=rng).as_quat()))


def random_action(
    world: World, rng: np.random.Generator, lifts: bool = False, kinds: tuple[str, ...] = KINDS
) -> PhysicalAction:
    """A legal action among ``kinds`` that the world allows now, every parameter drawn from ``rng``.

    Flicks and pulls need a die in play (a pull, a seated one), throws and pours a die of the set not in
    play, lifts (only with ``lifts``: the game lets dice leave play) a seated die a hand can grip; tilts,
    shakes and blows need the plate. ValueError if none of ``kinds`` can be done.
    """
    readout = world.readout(require_rest=False)
    free = [d.id for d in DICE if d.id not in readout.dice]
    possible = {
        "flick": bool(readout.dice),
        "throw": bool(free),
        "pour": len(free) >= 2,
        "pull": bool(readout.slot_die),
        "lift": lifts and bool(reachable(readout.pyramid)),
        "tilt": world.plate,
        "shake": world.plate,
        "blow": world.plate,
    }
    choices = [k for k in kinds if possible.get(k, False)]
    if not choices:
        raise ValueError(f"none of {', '.join(kinds)} can be done in this world now")
    kind = choices[int(rng.integers(len(choices)))]
    edge = world.physics.edge
    if kind == "flick":
        die = sorted(readout.dice)[int(rng.integers(len(readout.dice)))]
        return Flick(
            die,
            rng.uniform(-180, 180),
            impulse=rng.uniform(0.0, FLICK_IMPULSE),
            elevation=rng.uniform(0.0, 60.0),
            height=rng.uniform(-0.5, 0.5),
        )
    if kind == "pull":
        slots = sorted(readout.slot_die)
        return Pull(
            slots[int(rng.integers(len(slots)))],
            distance=rng.uniform(0.0, edge),
            speed=rng.uniform(0.01, 0.08),
            grip=rng.uniform(0.5, 2.0),
        )
    if kind == "lift":
        slots = reachable(readout.pyramid)
        return Lift(slots[int(rng.integers(len(slots)))], speed=rng.uniform(0.02, 0.08))
    if kind in ("throw", "pour"):
        return _released(world, rng, kind, free)
    if kind == "blow":
        reach = PLATE_REACH * edge
        return Blow(
            (rng.uniform(-reach, reach), rng.uniform(-reach, reach), rng.uniform(0.0, 0.1)),
            rng.uniform(-180, 180),
            elevation=rng.uniform(-60.0, 30.0),
            speed=rng.uniform(0.0, 40.0),
            duration=rng.uniform(0.05, 0.5),
        )
    return _plate_motion(world, rng, kind)


def release_height(world: World) -> float:
    """The lowest height (m) a hand lets a die go from: its centre an edge above the highest die and the plate."""
    edge = world.physics.edge
    _, poses = world.poses()
    plate_top = (float(geometry.PLATE_CUBE_CENTRES[:, 2].max()) + 1.0) * edge + float(world.plate_pose[2])
    top = max([plate_top if world.plate else 0.0, *(poses[:, 2] + edge)])
    return top + edge


def _released(world: World, rng: np.random.Generator, kind: str, free: list[DieId]) -> Throw | Pour:
    r = TARGET_RADIUS * math.sqrt(rng.uniform())
    phi = rng.uniform(0, 2 * math.pi)
    target = (r * math.cos(phi), r * math.sin(phi))
    low = release_height(world)
    height = rng.uniform(low, low + RELEASE_SPAN)
    if kind == "throw":
        return Throw(
            free[int(rng.integers(len(free)))],
            target,
            height=height,
            distance=rng.uniform(0.0, 0.3),
            azimuth=rng.uniform(-180, 180),
            spin=rng.uniform(0.0, 30.0),
            scatter=rng.uniform(0.0, 0.1),
        )
    count = int(rng.integers(2, min(6, len(free)) + 1))
    dice = rng.choice(np.array(free), size=count, replace=False)
    return Pour(
        tuple(int(d) for d in dice), target, height=height, azimuth=rng.uniform(0, 360), speed=rng.uniform(0.05, 0.3)
    )


def _plate_motion(world: World, rng: np.random.Generator, kind: str) -> Tilt | Shake:
    edge, dt = world.physics.edge, world.physics.time_step
    for _ in range(REDRAWS):
        motion = _tilt(rng, edge) if kind == "tilt" else _shake(rng)
        try:
            plate_motion.check_hand(motion, edge, dt)
        except ValueError:
            continue
        return motion
    raise ValueError(f"no {kind} a hand can do in {REDRAWS} draws")


def _tilt(rng: np.random.Generator, edge: float) -> Tilt:
    """One hand's tilt about the low edge, or two hands' about a line through the plate (as ``TiltEnv``)."""
    angle = rng.uniform(0.0, 30.0)
    direction = rng.uniform(-180, 180)
    ramp = rng.uniform(0.05, 1.0)
    shake = rng.uniform(0.0, 0.002)
    if rng.uniform() < 0.5:
        return Tilt(direction, angle, ramp=ramp, hold=rng.uniform(0.0, 1.0), shake=shake)
    reach = PLATE_REACH * edge
    seat = float(geometry.slot_centre((3, 3, 2))[2]) * edge
    pivot = (rng.uniform(-reach, reach), rng.uniform(-reach, reach), seat)
    return Tilt.jolt(direction, angle, pivot, rng.uniform(-30.0, 30.0), ramp, shake)


def _shake(rng: np.random.Generator) -> Shake:
    return Shake(
        amplitude=rng.uniform(0.0, 0.005),
        frequency=rng.uniform(2.0, 15.0),
        duration=rng.uniform(0.1, 1.0),
        azimuth=rng.uniform(0, 360),
        vertical=rng.uniform(0.0, 0.002),
    )
