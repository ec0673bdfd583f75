"""What a player's hands and breath do to the dice: blow, tilt, shake, flick, throw, lift, pull, attach, press, pour.

Each action is small frozen data with SI units (the tilt and the shake, with the plate's motion, in
``plate_motion``); ``perform(world, action, rng)`` carries it out in the world, step by step, using the
models of ``pyramid.physics.hands``. The rules layer's ``Place`` and ``Remove``
(``pyramid.rules``) stay what the construction games use; ``Lift`` is the skill games' hand on a die.
Every random draw (a hand's scatter, a gust) comes from the Generator passed in. Nothing is judged
here: what happened is read back from the world afterwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.geometry import Slot
from pyramid.physics import hands, plate_motion
from pyramid.physics.plate_motion import HOME, Shake, Tilt
from pyramid.physics.plate_motion import plate_pose_at as plate_pose_at  # re-exported with the other plate motions
from pyramid.physics.plate_motion import tilt_duration as tilt_duration  # re-exported with the other plate motions
from pyramid.physics.plate_motion import tilt_lift as tilt_lift
from pyramid.units import SET_DROP
from pyramid.units import rounded as r

if TYPE_CHECKING:
    from pyramid.physics.world import World

Point: TypeAlias = tuple[float, float, float]
MAX_TILT = 80.0  # degrees: the steepest a hand tips the plate


@dataclass(frozen=True)
class Blow:
    """Blow a stream of air from ``origin`` (m) towards ``azimuth``/``elevation`` (degrees) for ``duration`` s.

    ``speed`` is the air speed at the mouth (m/s; a gentle puff 5, a strong blow 20 to 30) and
    ``nozzle`` the mouth's diameter (m). The jet spreads and slows with distance (``hands.jet_speed``);
    each die feels drag from the flow that reaches it. The breath's strength wavers by ``gust`` (a
    relative standard deviation, drawn once per blow).
    """

    origin: Point
    azimuth: float
    elevation: float = -15.0
    speed: float = 20.0
    duration: float = 0.4
    nozzle: float = 0.015
    gust: float = 0.05

    def __str__(self) -> str:
        x, y, z = (100 * c for c in self.origin)
        where = f"({x:.1f}, {y:.1f}, {z:.1f}) cm"
        return f"blow {r(self.speed)} m/s for {r(self.duration)} s from {where} at {r(self.azimuth)} deg"


@dataclass(frozen=True)
class Flick:
    """Flick ``die`` with a finger: an impulse of ``impulse`` N s towards ``azimuth``/``elevation`` (degrees).

    The finger strikes the die's back face ``height`` edges above its centre (positive: topspin).
    A light flick is about 0.002 N s (a 4.8 g die leaves at 0.4 m/s), a hard one 0.01 N s.
    """

    die: DieId
    azimuth: float
    impulse: float = 0.004
    elevation: float = 0.0
    height: float = 0.0

    def __str__(self) -> str:
        return f"flick die {self.die} with {r(1000 * self.impulse)} mN s towards {r(self.azimuth)} deg"


@dataclass(frozen=True)
class Throw:
    """Release ``die`` ``height`` m above the table, ``distance`` m short of ``target`` (x, y) along ``azimuth``.

    The horizontal speed is what makes a die dropped with no vertical speed land on the target; the
    hand's ``scatter`` is the relative standard deviation of that speed and (in radians) of the
    heading. ``spin`` (rad/s) is about a random axis; the die leaves the hand in a random orientation,
    or held the way ``orientation`` (a quaternion x, y, z, w, world frame) says: a player setting a
    die down chooses how to hold it.
    """

    die: DieId
    target: tuple[float, float]
    height: float = 0.15
    distance: float = 0.15
    azimuth: float = 0.0
    spin: float = 10.0
    scatter: float = 0.05
    orientation: tuple[float, float, float, float] | None = None

    def __str__(self) -> str:
        x, y = (100 * c for c in self.target)
        return f"throw die {self.die} from {r(100 * self.height)} cm at ({x:.1f}, {y:.1f}) cm"


@dataclass(frozen=True)
class Lift:
    """Lift the die in ``slot`` out of the pyramid with one hand (``World.pull``): it may drag its neighbours."""

    slot: Slot
    speed: float = 0.08
    grip: float = 2.0  # newtons: the most the fingers pull with

    def __str__(self) -> str:
        return f"lift {self.slot}"


@dataclass(frozen=True)
class Pull:
    """Pull the die in ``slot`` ``distance`` m out of the pyramid with one hand and let go: it stays in play.

    The fingers grip the die by its uncovered faces and drag it at ``speed`` m/s, with at most ``grip``
    newtons, along the normal of its uncovered face ``axis`` (0, 1, 2: the face along +i, +j, +k),
    or, with ``axis`` None, along the sum of its uncovered faces' normals (``World.way_out``). Then the
    hand opens: friction on the faces it slid along holds the die where it is, or it slides back, and
    the dice resting on it are dragged with it as far as friction takes them. Half an edge (8 mm) out
    makes a "balcony" (Mount(a)ing): two neighbours pulled out form a funnel outside the pyramid.
    """

    slot: Slot
    distance: float = 0.006
    axis: int | None = None
    speed: float = 0.03
    grip: float = 2.0

    def __str__(self) -> str:
        along = "" if self.axis is None else f" along +{'ijk'[self.axis]}"
        return f"pull {self.slot} {r(1000 * self.distance)} mm out{along}"


@dataclass(frozen=True)
class Attach:
    """Set ``die`` down by hand corner-down into ``cell`` of the pyramid's lattice, even outside the pyramid.

    ``cell`` (i, j, k) are lattice coordinates extended beyond the pyramid: negative coordinates lie
    outside the full pyramid's faces (a "balcony" of Mount(a)ing). The hand holds the die in the
    pyramid's orientation showing ``up`` (faces along +i, +j, +k), ``drop`` m above the cell's seat,
    misses it sideways by a seeded normal error of ``scatter`` m, and lets go without push or spin.
    """

    die: DieId
    cell: tuple[int, int, int]
    up: tuple[int, int, int] = (1, 2, 3)
    drop: float = SET_DROP
    scatter: float = 0.0003

    def __str__(self) -> str:
        return f"attach die {self.die} at {self.cell}"


@dataclass(frozen=True)
class Pour:
    """Pour ``dice`` from a ladle held ``height`` m above ``target`` (x, y), tipped towards ``azimuth``.

    The dice leave the bowl (radius ``bowl`` m) one after another, ``interval`` s apart, at ``speed`` m/s.
    """

    dice: tuple[DieId, ...]
    target: tuple[float, float]
    height: float = 0.08
    azimuth: float = 0.0
    speed: float = 0.1
    interval: float = 0.04
    bowl: float = 0.03

    def __str__(self) -> str:
        x, y = (100 * c for c in self.target)
        return f"pour {len(self.dice)} dice from {r(100 * self.height)} cm onto ({x:.1f}, {y:.1f}) cm"


@dataclass(frozen=True)
class Wait:
    """Keep the hands still for ``seconds``."""

    seconds: float = 0.5

    def __str__(self) -> str:
        return f"wait {r(self.seconds)} s"


PhysicalAction: TypeAlias = Blow | Tilt | Shake | Flick | Throw | Lift | Pull | Attach | Pour | Wait


def perform(world: World, action: PhysicalAction, rng: np.random.Generator) -> None:
    """Carry out ``action`` in ``world``, stepping it for as long as the hand acts; read the result back after."""
    if isinstance(action, Blow):
        _blow(world, action, rng)
    elif isinstance(action, Tilt):
        _move_plate(world, action, rng)
    elif isinstance(action, Shake):
        _move_plate(world, action, rng)
    elif isinstance(action, Flick):
        _flick(world, action)
    elif isinstance(action, Throw):
        _throw(world, action, rng)
    elif isinstance(action, Lift):
        _lift(world, action)
    elif isinstance(action, Pull):
        _pull(world, action)
    elif isinstance(action, Attach):
        _attach(world, action, rng)
    elif isinstance(action, Pour):
        _pour(world, action, rng)
    elif isinstance(action, Wait):
        world.step(action.seconds)
    else:
        raise TypeError(f"not a physical action: {action!r}")


def _steps(world: World, seconds: float) -> int:
    return max(1, round(seconds / world.physics.time_step))


def _blow(world: World, a: Blow, rng: np.random.Generator) -> None:
    if a.speed < 0 or a.duration < 0 or a.nozzle <= 0:
        raise ValueError(f"a blow needs speed >= 0, duration >= 0 and nozzle > 0: {a!r}")
    direction = hands.unit(a.azimuth, a.elevation)
    speed = a.speed * max(0.0, 1 + a.gust * float(rng.normal()))
    dt = world.physics.time_step
    for _ in range(_steps(world, a.duration)):
        dice, poses = world.poses()
        if dice:
            forces = hands.jet_forces(poses[:, :3], a.origin, direction, speed, a.nozzle, world.physics.edge)
            for die, force in zip(dice, forces, strict=True):
                if force @ force > 0:
                    world.apply_force(die, force)
        world.step(dt)


def _move_plate(world: World, a: Tilt | Shake, rng: np.random.Generator) -> None:
    if isinstance(a, Tilt):
        if not 0 <= a.angle <= MAX_TILT or a.ramp < 0 or a.hold < 0 or a.shake < 0 or a.press < 0:
            raise ValueError(f"a tilt needs 0 <= angle <= 80 deg and non-negative times, shake and press: {a!r}")
        if a.press > hands.PRESS_LIMIT:
            raise ValueError(
                f"a tilt's press is at most {hands.PRESS_LIMIT:g} N (a firmer finger sinks the die into the plate "
                f"in this solver: 20 N, 5.8 mm), got {a.press:g} N"
            )
        if not 0 <= a.accelerate < 1 or a.fall < 0 or a.lift_time <= 0:
            raise ValueError(f"a tilt needs 0 <= accelerate < 1, fall >= 0 s and lift_time > 0 s: {a!r}")
        if a.pivot is not None and (len(a.pivot) != 3 or not all(math.isfinite(c) for c in a.pivot)):
            raise ValueError(f"a tilt's pivot is a point (x, y, z) in metres, got {a.pivot!r}")
        if a.preset and (a.pivot is None or not -80 <= a.preset <= 80):
            raise ValueError(f"a tilt's preset is -80 to 80 deg, and needs a pivot (held in two hands): {a!r}")
    elif a.amplitude < 0 or a.vertical < 0 or a.duration < 0 or a.frequency <= 0:
        raise ValueError(f"a shake needs non-negative amplitudes and duration and a positive frequency: {a!r}")
    edge, dt = world.physics.edge, world.physics.time_step
    total = plate_motion.duration(a, edge)
    # Carried with the plate (local physics) only while it moves gently enough that no seated die hops or slides:
    # throughout, or once a jolt is over (``carrying_steps``).
    if plate_motion.carries(a, plate_motion.check_hand(a, edge, dt)):
        carrying = np.ones(_steps(world, total), dtype=bool)
    else:
        carrying = plate_motion.carrying_steps(a, edge, dt)
    top: DieId | None = None
    touch = start = np.zeros(3)  # where the finger touches the top die, and the die's centre then (plate frame)
    if isinstance(a, Tilt) and a.press > 0:
        dice, poses = world.poses()
        if dice:
            n = int(np.argmax(poses[:, 2]))
            top, touch = dice[n], _touch(world, dice[n])
            start = geometry.in_plate_frame(poses[n, :3], world.plate_pose)
    track = plate_motion.track(a, edge)
    steps = _steps(world, total)
    # What each step asks of the plate, reckoned all at once (a step split in parts: when it comes).
    track.prefetch_steps(steps, dt)
    ride_ends = _ride_ends(carrying[:steps] & (np.array([track.parts(n * dt, dt) for n in range(steps)]) == 1))
    n = 0
    while n < steps:
        if top is None and ride_ends[n] > n and world.rides_alone:
            # Every die rides the plate: the steps to the next that may do more, as the loop below would take them.
            n += world.ride_plate(track.motion(k * dt, dt) for k in range(n, ride_ends[n]))
            if n == steps:
                break
        # A fast plate is moved in sub-steps: no point of it jumps further than a die can follow.
        parts = track.parts(n * dt, dt)
        h = dt / parts
        if parts > 1:
            track.prefetch_motion([n * dt + i * h for i in range(parts)], h)
        for i in range(parts):
            t = n * dt + i * h
            now, linear, angular = track.motion(t, h)
            world.move_plate(now, linear, angular, parts, carry=bool(carrying[n]))
            if (
                top is not None
                and isinstance(a, Tilt)
                and not _press(world, top, a.press, touch, start, linear, angular)
            ):
                top = None  # the hand has let go: it does not press again in this tilt
            world.substep(parts)
        n += 1
    world.press(None)
    world.move_plate(HOME)


def _ride_ends(ridable: np.ndarray) -> list[int]:
    """For each step, where the run of ``ridable`` steps (bool (n,)) from it ends: the step itself if it is not."""
    ends, end = [0] * len(ridable), len(ridable)
    for n in range(len(ridable) - 1, -1, -1):
        if not ridable[n]:
            end = n
        ends[n] = end
    return ends


def _touch(world: World, die: DieId) -> np.ndarray:
    """Where a finger pressing ``die`` along the plate's normal touches it: its highest point, plate frame (3,)."""
    dice, poses = world.poses()
    pose = poses[dice.index(die)]
    half = 0.5 * world.physics.edge * np.asarray(world.physics.proportions, dtype=float)
    box = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half
    corners = pose[:3] + box @ geometry.quat_to_matrix(pose[3:])[0].T
    local = geometry.in_plate_frame(corners, world.plate_pose)
    # The corners highest along the normal (one for a die corner-down, four for one lying on a face).
    top = local[local[:, 2] > local[:, 2].max() - 1e-4 * world.physics.edge]
    return np.asarray(top.mean(axis=0))


def _press(
    world: World,
    die: DieId,
    press: float,
    touch: np.ndarray,
    start: np.ndarray,
    linear: np.ndarray,
    angular: np.ndarray,
) -> bool:
    """A finger presses ``die`` with ``press`` N along the plate's normal where it touched it (``touch``, plate frame).

    The fingertip is a pad the hand holds on the normal through ``touch`` and pushes along it
    (``World.press``). The hand pushes less as the pad nears ``FINGER_SPEED`` away from it, and
    lifts the finger once the pad has followed the die ``FINGER_REACH`` edges down, or the die's
    centre has slipped half an edge sideways from ``start``: then it returns False.
    """
    dice, poses = world.poses()
    edge = world.physics.edge
    plate = world.plate_pose
    if die not in dice:
        world.press(None)
        return False
    offset = geometry.in_plate_frame(poses[dice.index(die), :3], plate) - start
    rotation = geometry.quat_to_matrix(plate[3:])[0]
    pad = hands.FINGER_PAD[2]
    line = np.array([touch[0], touch[1], touch[2] + pad])
    force = press
    finger = world.finger
    if finger is not None:
        position, velocity = finger
        # The pad's speed down the normal, relative to the plate under it.
        carried = linear + np.cross(angular, position - plate[:3])
        sinking = -float(rotation[:, 2] @ (velocity - carried))
        force = press * min(1.0, max(0.0, 1.0 - sinking / hands.FINGER_SPEED))
        if line[2] - float(geometry.in_plate_frame(position, plate)[2]) > hands.FINGER_REACH * edge:
            world.press(None)
            return False
    if math.hypot(float(offset[0]), float(offset[1])) > edge / 2:
        world.press(None)
        return False
    # Nearing the finger's top speed the hand pushes less, down to nothing; the pad stays on the die.
    world.press(plate[:3] + rotation @ line, max(force, 1e-6), plate[3:])
    return True


def _flick(world: World, a: Flick) -> None:
    if a.impulse < 0:
        raise ValueError(f"a flick's impulse must be >= 0 N s, got {a.impulse}")
    dice, poses = world.poses()
    if a.die not in dice:
        raise ValueError(f"die {a.die} is not in play")
    centre = poses[dice.index(a.die), :3]
    direction = hands.unit(a.azimuth, a.elevation)
    edge = world.physics.edge
    # The finger meets the face turned away from the flick, ``height`` edges above the centre.
    point = centre - direction * edge / 2 + np.array([0.0, 0.0, a.height * edge])
    world.kick(a.die, a.impulse * direction, point)


def throw_release(
    world: World, a: Throw, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where the hand lets the die go: position (3,), velocity (3,), spin (3,) and orientation (4,)."""
    if a.height <= 0 or a.distance < 0 or a.scatter < 0:
        raise ValueError(f"a throw needs height > 0, distance >= 0 and scatter >= 0: {a!r}")
    heading = math.radians(a.azimuth) + a.scatter * float(rng.normal())
    direction = np.array([math.cos(heading), math.sin(heading), 0.0])
    fall = math.sqrt(2 * a.height / world.physics.gravity)
    speed = a.distance / fall * max(0.0, 1 + a.scatter * float(rng.normal()))
    start = np.array([a.target[0], a.target[1], a.height]) - a.distance * np.array(
        [math.cos(math.radians(a.azimuth)), math.sin(math.radians(a.azimuth)), 0.0]
    )
    axis = rng.normal(size=3)
    spin = a.spin * axis / np.linalg.norm(axis)
    turn = Rotation.random(rng=rng)  # drawn even when the hand chooses, so that the random stream stays the same
    if a.orientation is not None:
        quat = np.asarray(a.orientation, dtype=float)
        if quat.shape != (4,) or not np.linalg.norm(quat) > 0:
            raise ValueError(f"a throw's orientation is a quaternion (x, y, z, w), not {a.orientation!r}")
        turn = Rotation.from_quat(quat)
    return start, speed * direction, spin, turn.as_quat()


def _throw(world: World, a: Throw, rng: np.random.Generator) -> None:
    position, velocity, spin, orientation = throw_release(world, a, rng)
    world.throw(a.die, position, velocity, spin, orientation)


def _lift(world: World, a: Lift) -> None:
    readout = world.readout(require_rest=False)
    die = readout.slot_die.get(a.slot)
    if die is None:
        raise ValueError(f"no die is seated in {a.slot}")
    world.pull(die, world.way_out(die), speed=a.speed, force=a.grip)
    world.remove(die, pull=False)


def _pull(world: World, a: Pull) -> None:
    if a.distance < 0 or a.speed <= 0 or a.grip <= 0:
        raise ValueError(f"a pull needs distance >= 0 m, speed > 0 m/s and grip > 0 N: {a!r}")
    if a.axis is not None and a.axis not in (0, 1, 2):
        raise ValueError(f"a pull's axis is 0, 1 or 2 (the face along +i, +j or +k), got {a.axis}")
    readout = world.readout(require_rest=False)
    die = readout.slot_die.get(a.slot)
    if die is None:
        raise ValueError(f"no die is seated in {a.slot}")
    if a.axis is None:
        direction = world.way_out(die)
    else:
        above = list(a.slot)
        above[a.axis] -= 1
        if tuple(above) in readout.pyramid:
            raise ValueError(f"the face along +{'ijk'[a.axis]} of {a.slot} is covered by the die in {tuple(above)}")
        plate_rot = geometry.quat_to_matrix(world.plate_pose[3:])[0]
        direction = plate_rot @ geometry.CUBE_TO_PLATE @ np.eye(3)[a.axis]
    world.pull(die, direction, distance=a.distance / world.physics.edge, speed=a.speed, force=a.grip)


def cell_pose(world: World, cell: tuple[int, int, int], up: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """World position (3,) and quaternion (4,) of a die corner-down in lattice ``cell`` (inside the pyramid or not)."""
    pose = world.plate_pose
    plate_rot = geometry.quat_to_matrix(pose[3:])[0]
    position = pose[:3] + plate_rot @ (geometry.slot_centre(cell) * world.physics.edge)
    return position, geometry.matrix_to_quat(plate_rot @ geometry.seated_rotation(up))


def _attach(world: World, a: Attach, rng: np.random.Generator) -> None:
    if a.drop < 0 or a.scatter < 0:
        raise ValueError(f"an attach needs drop >= 0 m and scatter >= 0 m: {a!r}")
    if a.die in world.dice:
        raise ValueError(f"die {a.die} is already in play")
    if sum(a.cell) > geometry.BASE_LAYER:
        raise ValueError(
            f"cell {tuple(a.cell)} lies in or under the plate (i + j + k = {sum(a.cell)}): a die is set down "
            f"on the plate or on dice, in a cell with i + j + k at most {geometry.BASE_LAYER}"
        )
    position, orientation = cell_pose(world, a.cell, a.up)
    world.check_free(a.cell, position)  # two dice in one cell cannot be
    miss = rng.normal(0.0, a.scatter, size=3) if a.scatter > 0 else np.zeros(3)
    miss[2] = 0.0
    world.throw(a.die, position + miss + np.array([0.0, 0.0, a.drop]), orientation=orientation)


def _pour(world: World, a: Pour, rng: np.random.Generator) -> None:
    if a.height <= 0 or a.interval < 0 or a.bowl <= 0:
        raise ValueError(f"a pour needs height > 0, interval >= 0 and bowl > 0: {a!r}")
    edge = world.physics.edge
    offsets = hands.ladle_release(len(a.dice), rng, a.bowl, edge)
    centre = np.array([a.target[0], a.target[1], a.height])
    flow = a.speed * hands.unit(a.azimuth)
    for die, offset in zip(a.dice, offsets, strict=True):
        quat = Rotation.random(rng=rng).as_quat()
        jitter = rng.normal(scale=0.2 * a.speed + 0.01, size=3)
        world.throw(die, centre + offset, flow + jitter, rng.normal(scale=5.0, size=3), quat)
        world.step(a.interval)
