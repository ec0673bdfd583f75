"""The PyBullet world: table, plate and the dice in play; it steps, settles and hands out poses.

The world knows no rules. Dice still in a player's hand are not simulated: a die gets a body when it
is placed or thrown and loses it when it is taken away. With local physics (the default) only the
dice that something can move are simulated; the others are held still until motion reaches them
(``pyramid.physics.region``). Headless by default.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DICE, EDGE, DieId
from pyramid.geometry import Slot, UpFaces
from pyramid.perception import Readout, Status, read_poses
from pyramid.physics import stage
from pyramid.physics.bullet import connect, pb
from pyramid.physics.errors import ImpossibleStateError as ImpossibleStateError
from pyramid.physics.errors import NotAtRestError as NotAtRestError
from pyramid.physics.hands import FINGER_HOLD, FINGER_MASS, FINGER_PAD, GRIP, PRESS_ITERATIONS, PRESS_LIMIT
from pyramid.physics.region import HOLD_WINDOW, Region
from pyramid.physics.settings import Physics
from pyramid.physics.tables import Table
from pyramid.state import PyramidState
from pyramid.tolerances import TOL

Vector = Sequence[float] | np.ndarray  # a point, direction, velocity or quaternion

PLATE_SQUEEZE = 0.02  # edges: deepest the plate may press into a die lying on the table before it rides up
PLATE_SETTLE_SPEED = 0.1  # m/s: how fast a plate resting on a die comes down again once the die is gone


@dataclass(frozen=True)
class SettleReport:
    """How a call to ``World.settle`` ended."""

    at_rest: bool
    time: float  # simulated seconds spent settling
    moving: tuple[DieId, ...] = ()  # dice still moving at the end (on a timeout)


@dataclass(eq=False)
class _Observer:
    """A callback due every ``period`` engine steps (see ``World.observe``)."""

    period: int
    callback: Callable[[], object]
    due: int | Fraction = 0


@dataclass
class World:
    """A table with the plate on it (``plate=False``: the bare table) and the dice in play.

    Units are SI; the plate's underside centre is the world origin unless the plate is moved.
    Same inputs in the same order give the same run: nothing here draws a random number.
    """

    physics: Physics = field(default_factory=Physics)
    gui: bool = False
    plate: bool = True

    def __post_init__(self) -> None:
        self.client = connect(self.gui)
        self._ticks: int | Fraction = 0  # engine steps taken (a sub-step counts its part): the clock
        self._observers: list[_Observer] = []  # called as simulated time passes (see ``observe``)
        self._bodies: dict[DieId, int] = {}
        self._at_rest = True
        self._asleep = False
        self._plate_bodies: list[int] = []
        self._plate_pose = np.array([0, 0, 0, 0, 0, 0, 1.0])
        self._ride = 0.0
        self._finger: tuple[int, int] | None = None  # the pressing fingertip's body and joint (see ``press``)
        self._grip: tuple[DieId, int, int] | None = None  # the die a hand carries, the hand, the joint (``hold``)
        self._plate_velocity: tuple[Vector, Vector] = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._plate_moving = False  # the hand moves the plate: it has a mass (see ``_plate_mass``)
        self._plate_moved = False  # the plate moved since the last hold test: hold nothing
        self._region = Region.for_die(self.physics.edge, self.physics.proportions) if self.physics.local else None
        self._stepped = [0, 0]  # dice simulated, summed over steps; steps (see ``count_steps``)
        stage.configure(self.client, self.physics)
        self.table, self.floor = stage.make_table(self.client, self.physics)
        if self.plate:
            self._plate_bodies = stage.make_plate(self.client, self.physics)
        self._die_shape = stage.make_die_shape(self.client, self.physics)
        self._die_visual, self._textures = stage.make_die_visuals(self.client, self.physics)

    # -- dice in and out -----------------------------------------------------------------------

    def _spawn(self, die: DieId, position: Vector, orientation: Vector) -> int:
        _check_die(die)
        if die in self._bodies:
            raise ValueError(f"die {die} is already in play")
        c, ph = self.client, self.physics
        body = c.createMultiBody(
            self.die_mass,
            self._die_shape,
            self._die_visual,
            basePosition=list(position),
            baseOrientation=list(orientation),
            useMaximalCoordinates=ph.maximal_coordinates,
        )
        c.changeDynamics(
            body,
            -1,
            lateralFriction=ph.friction_die,
            restitution=ph.restitution_die,
            rollingFriction=ph.rolling_friction,
            spinningFriction=ph.spinning_friction,
            # Continuous collision detection: a die flung fast must not tunnel through the table.
            ccdSweptSphereRadius=0.4 * ph.edge,
        )
        c.changeVisualShape(body, -1, textureUniqueId=self._textures[DICE[die].colour])
        self._bodies[die] = body
        if self._region is not None:
            self._region.activated([die], np.array([[*position, *orientation]], dtype=float))
        self._changed()
        return body

    def slot_pose(self, slot: Slot, up: UpFaces = (1, 2, 3)) -> tuple[np.ndarray, np.ndarray]:
        """World position (3,) and quaternion (4,) of a die seated in ``slot`` showing ``up``."""
        if not geometry.is_slot(slot):
            raise ValueError(f"{slot} is not a slot of the pyramid")
        plate_rot = geometry.quat_to_matrix(self._plate_pose[3:])[0]
        local = geometry.slot_centre(slot) * self.physics.edge
        position = self._plate_pose[:3] + plate_rot @ local
        orientation = geometry.matrix_to_quat(plate_rot @ geometry.seated_rotation(up))
        return position, orientation

    def place(self, die: DieId, slot: Slot, up: UpFaces = (1, 2, 3), drop: float = 0.0) -> None:
        """Put ``die`` into ``slot`` showing ``up``; with ``drop`` (metres) release it that high above.

        ValueError if a die in play already sits there (its centre within half an edge of the place).
        """
        position, orientation = self.slot_pose(slot, up)
        position = position + np.array([0, 0, drop + 1e-5 * self.physics.edge / EDGE])
        if self._bodies:
            ids, poses = self.poses()
            gaps = np.linalg.norm(poses[:, :3] - position, axis=1) / self.physics.edge
            if gaps.min() < TOL.occupied:
                n = int(gaps.argmin())
                raise ValueError(f"slot {slot} is taken: die {ids[n]} sits there ({gaps[n]:.2f} edges from its centre)")
        self._spawn(die, position, orientation)

    def build(
        self,
        state: PyramidState,
        dice: Mapping[Slot, DieId] | None = None,
    ) -> dict[Slot, DieId]:
        """Place a die in every occupied slot of ``state`` (unknown faces as 1, 2, 3), layer by layer.

        ``dice`` chooses which die goes where; by default the lowest free numbers of each colour.
        Returns slot -> die. Settle afterwards.
        """
        chosen = dict(dice) if dice is not None else self.assign_dice(state)
        missing = [s for s in state if s not in chosen]
        if missing:
            raise ValueError(f"no die chosen for {len(missing)} occupied slots, e.g. {missing[0]}")
        used = [chosen[s] for s in state]
        for die in used:
            _check_die(die)
        if len(set(used)) < len(used):
            twice = next(d for d in used if used.count(d) > 1)
            raise ValueError(f"die {twice} is chosen for more than one slot")
        for slot in sorted(state, key=lambda s: -geometry.layer(s)):
            die = chosen[slot]
            if DICE[die].colour != state[slot].colour:
                raise ValueError(f"die {die} is {DICE[die].colour}, but {slot} wants {state[slot].colour}")
            self.place(die, slot, state[slot].up or (1, 2, 3))
        return chosen

    def assign_dice(self, state: PyramidState) -> dict[Slot, DieId]:
        """Pick dice not yet in play for each occupied slot of ``state``, by colour, lowest numbers first."""
        stock: dict[str, list[DieId]] = {}
        for d in DICE:
            if d.id not in self._bodies:
                stock.setdefault(d.colour, []).append(d.id)
        wanted = Counter(cell.colour for cell in state.values())
        for colour, n in sorted(wanted.items()):
            have = len(stock.get(colour, []))
            if n > have:
                total = sum(d.colour == colour for d in DICE)
                raise ValueError(
                    f"the state wants {n} {colour} dice, but only {have} of the set's {total} are not in play"
                )
        out: dict[Slot, DieId] = {}
        for slot in geometry.SLOTS:
            if slot in state:
                out[slot] = stock[state[slot].colour].pop(0)
        return out

    def remove(self, die: DieId, pull: bool = True) -> None:
        """Take ``die`` out of play: lift it out as a hand would (``pull``), or make it vanish at once.

        A pulled die slides out along its uncovered faces (straight up for a free die), held with the
        force of a hand's grip; dice resting on it are dragged along and may fall. Then it leaves the
        world, and what it touched wakes up. Settle afterwards. A die with all three upper faces
        covered (inside the pyramid) has no way out: the hand pulls it straight up with no more than
        its grip, which cannot move the dice above, so it leaves as if drawn out from below and nothing
        else moves; games only take dice a hand can reach.
        """
        body = self._body(die)
        position = np.array(self.client.getBasePositionAndOrientation(body)[0])
        if self.held_die == die:
            self.hold(None)
        if pull:
            self.pull(die, self.way_out(die))
        self.client.removeBody(body)
        del self._bodies[die]
        if self._region is not None:
            self._region.forget(die)
        self._wake_near(position, radius=2.0 * self.physics.edge)
        self._changed()

    def way_out(self, die: DieId) -> np.ndarray:
        """Unit world direction (3,) in which a hand pulls ``die`` out of the pyramid.

        Along the sum of the normals of its uncovered upper faces: straight up for a free die,
        up and outward for a die on the pyramid's surface that carries others. A die not seated in a
        slot is lifted straight up.
        """
        dice, poses = self.poses()
        readout = read_poses(dice, poses, self._plate_pose, self.physics.edge)
        r = readout.dice[die]
        if r.slot is None:
            return np.array([0.0, 0.0, 1.0])
        i, j, k = r.slot
        # The face along +i is uncovered when nothing sits in (i - 1, j, k); likewise for j and k.
        above = ((i - 1, j, k), (i, j - 1, k), (i, j, k - 1))
        uncovered = [axis for axis, slot in enumerate(above) if slot not in readout.pyramid]
        plate_rot = geometry.quat_to_matrix(self._plate_pose[3:])[0]
        cube_dir = np.zeros(3)
        cube_dir[uncovered or [0, 1, 2]] = 1.0
        direction = plate_rot @ geometry.CUBE_TO_PLATE @ cube_dir
        return direction / np.linalg.norm(direction)

    def pull(
        self,
        die: DieId,
        direction: Vector,
        distance: float = 1.5,
        speed: float = 0.08,
        force: float = 2.0,
    ) -> None:
        """Drag ``die`` by ``distance`` edges along ``direction`` at ``speed`` m/s, gripped by a hand.

        The hand is a critically damped spring (15 Hz) on position and orientation that also carries
        the die's weight, with at most ``force`` newtons: a wedged die moves what it must and no more
        than fingers could.
        """
        c, ph = self.client, self.physics
        body = self._body(die)
        start, orientation = (np.array(v) for v in c.getBasePositionAndOrientation(body))
        unit = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
        mass = self.die_mass
        inertia = mass * ph.edge**2 / 6
        omega = 2 * math.pi * 15.0
        if self._region is None:
            self.wake()
        else:
            self._release([die])
            self._wake_near(start, self._region.reach)
        steps = max(1, round(distance * ph.edge / speed / ph.time_step))
        for n in range(1, steps + 1):
            if self._region is not None:
                self._region.busy.add(die)  # the hand holds it: not to be held still (busy clears each window)
            target = start + unit * distance * ph.edge * n / steps
            position, quat = (np.array(v) for v in c.getBasePositionAndOrientation(body))
            velocity, spin = (np.array(v) for v in c.getBaseVelocity(body))
            push = mass * (omega**2 * (target - position) + 2 * omega * (unit * speed - velocity))
            push[2] += mass * ph.gravity
            push *= min(1.0, force / max(float(np.linalg.norm(push)), 1e-12))
            turn = _rotation_vector(orientation, quat)
            twist = inertia * (omega**2 * turn - 2 * omega * spin)
            c.applyExternalForce(body, -1, push.tolist(), position.tolist(), pb.WORLD_FRAME)
            c.applyExternalTorque(body, -1, twist.tolist(), pb.WORLD_FRAME)
            self.step(ph.time_step)

    def throw(
        self,
        die: DieId,
        position: Vector,
        velocity: Vector = (0.0, 0.0, 0.0),
        spin: Vector = (0.0, 0.0, 0.0),
        orientation: Vector = (0.0, 0.0, 0.0, 1.0),
    ) -> None:
        """Release ``die`` at ``position`` with a velocity (m/s), spin (rad/s) and orientation (x, y, z, w)."""
        body = self._spawn(die, position, orientation)
        self.client.resetBaseVelocity(body, list(velocity), list(spin))
        if self._region is not None:
            # What the die can reach in its first step is simulated before it takes it.
            motion = np.array([[*velocity, *spin]], dtype=float)
            reach = self._region.ahead(motion, self.physics.time_step)
            self._release(self._region.within_reach(np.asarray(position, dtype=float)[None, :], reach))

    def random_throw(
        self,
        die: DieId,
        rng: np.random.Generator,
        height: float = 0.15,
        target: Vector = (0.0, 0.0),
        speed: float = 0.5,
        spin: float = 20.0,
        lowest_corner: bool = False,
    ) -> None:
        """Throw ``die`` from ``height`` metres towards ``target`` (x, y) from a seeded random direction.

        Orientation is uniform over rotations, the heading uniform; the horizontal speed and the spin
        (rad/s, about a uniform random axis) are scaled by uniform factors in [0.5, 1.5]. ``height`` is
        that of the die's centre, or with ``lowest_corner`` that of its lowest corner: then low throws
        compare, a die released 5 mm up falls 5 mm whichever way it is turned.
        """
        quat = Rotation.random(rng=rng).as_quat()
        heading = rng.uniform(0, 2 * math.pi)
        v = speed * rng.uniform(0.5, 1.5)
        axis = rng.normal(size=3)
        omega = spin * rng.uniform(0.5, 1.5) * axis / np.linalg.norm(axis)
        ph = self.physics
        release = height
        if lowest_corner:
            rotation = geometry.quat_to_matrix(quat)[0]
            # Depth of the box's lowest corner below its centre: the half extents projected on world z.
            depth = float(np.abs(rotation[2]) @ (np.asarray(ph.proportions) * ph.edge / 2))
            release = height + depth + 1e-5
        fall = math.sqrt(2 * height / ph.gravity) if ph.gravity > 0 else 0.0
        # Start back along the heading so that the die lands near the target.
        direction = np.array([math.cos(heading), math.sin(heading)])
        start = np.asarray(target, dtype=float) - v * fall * direction
        self.throw(die, (start[0], start[1], release), (*(v * direction), 0.0), tuple(omega), tuple(quat))

    # -- a hand on the plate and on the dice (used by pyramid.physics.actions) -----------------------------

    @property
    def die_mass(self) -> float:
        """Mass of one die in kilograms."""
        ph = self.physics
        return ph.density * ph.edge**3 * float(np.prod(ph.proportions))

    def move_plate(
        self, pose: Vector, linear: Vector = (0.0, 0.0, 0.0), angular: Vector = (0.0, 0.0, 0.0), parts: int = 1
    ) -> None:
        """Carry the plate to ``pose`` (7,) moving at ``linear`` (m/s) and ``angular`` (rad/s), as a hand would.

        The plate is kinematic: the dice do not push it back, and dice touching it feel its velocity
        through friction and contact. Call once per time step while it moves (with ``parts``, once
        per ``substep(parts)``); read-outs use the new pose. It cannot go through a die the table
        holds up: it rides up onto it (``plate_ride``), and comes down again when the die is gone.
        """
        pose = np.asarray(pose, dtype=float)
        if pose.shape != (7,):
            raise ValueError(f"a plate pose is (x, y, z, qx, qy, qz, qw), got shape {pose.shape}")
        if not self._plate_bodies:
            raise ValueError("this world has no plate to move")
        quat = pose[3:] / np.linalg.norm(pose[3:])
        dt = self.physics.time_step / parts  # the step that follows (see ``substep``)
        # Resting on a die beneath it, the plate comes down no faster than it would fall on its own.
        ride = max(0.0, self._ride - PLATE_SETTLE_SPEED * dt)
        self._set_plate(pose[:3] + [0.0, 0.0, ride], quat)
        for _ in range(3):
            lift = self._squeezed()
            if lift <= 0:
                break
            ride += lift
            self._set_plate(pose[:3] + [0.0, 0.0, ride], quat)
        rising = np.array([0.0, 0.0, (ride - self._ride) / dt])
        self._ride = ride
        velocity = np.asarray(linear, dtype=float) + rising
        self._plate_velocity = (velocity.tolist(), list(angular))
        moving = bool(np.any(velocity != 0) or np.any(np.asarray(angular) != 0))
        self._plate_mass(moving)
        self._plate_moved |= moving
        if self._asleep or (moving and self._region is not None and self._region.held):
            # A moving plate moves everything on it: every die is simulated while it does.
            self.wake()
        self._at_rest = False

    def _plate_mass(self, moving: bool) -> None:
        """Give the plate a mass while the hand moves it, and none while it stands still.

        The contact solver uses a body's velocity only if the body has a mass (see
        ``stage.make_plate``); standing still, the plate is static again: dice resting on it then
        form islands of their own, and held dice touching it are not tested against it.
        """
        if moving != self._plate_moving:
            for body in self._plate_bodies:
                self.client.changeDynamics(body, -1, mass=stage.PLATE_MASS if moving else 0.0)
            self._plate_moving = moving

    @property
    def plate_ride(self) -> float:
        """Metres the plate stands higher than the hand put it, because it rests on dice lying under it."""
        return self._ride

    def _set_plate(self, position: np.ndarray, quat: np.ndarray) -> None:
        for body in self._plate_bodies:
            self.client.resetBasePositionAndOrientation(body, list(position), quat.tolist())
        self._plate_pose = np.concatenate([position, quat])

    def _squeezed(self) -> float:
        """How far (metres) the plate must rise so as not to press a die lying on the table into it.

        The hand cannot push the plate through a die that the table holds up: where the plate's
        underside comes down on such a die, the plate rides up onto it instead (as a plate does
        that is set down on a die, or whose low edge is pushed against one).
        """
        ph = self.physics
        if not self._bodies:
            return 0.0
        dice, poses = self.poses()
        local = geometry.in_plate_frame(poses[:, :3], self._plate_pose)
        reach = np.linalg.norm(geometry.slab_corners(), axis=1).max() * ph.edge + ph.edge
        # Dice lying on the table (centred within an edge of it) near the plate's outline.
        low = (poses[:, 2] < ph.edge * max(ph.proportions)) & (np.linalg.norm(local[:, :2], axis=1) < reach)
        lift = 0.0
        for n in np.flatnonzero(low):
            body = self._bodies[dice[n]]
            for plate in self._plate_bodies:
                for point in self.client.getClosestPoints(body, plate, 0.0):
                    depth, normal_z = -point[8], point[7][2]  # the normal points from the plate to the die
                    if depth > PLATE_SQUEEZE * ph.edge and normal_z < -0.3:
                        lift = max(lift, depth / -normal_z)
        return lift

    def apply_force(self, die: DieId, force: Vector, point: Vector | None = None) -> None:
        """Push ``die`` with ``force`` (N, world frame) at ``point`` (default its centre) during the next step."""
        body = self._body(die)
        if point is None:
            point = self.client.getBasePositionAndOrientation(body)[0]
        if self._region is not None:
            self._release([die])
            self._region.busy.add(die)
        self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self.client.applyExternalForce(body, -1, list(force), list(point), pb.WORLD_FRAME)
        self._asleep = False
        self._at_rest = False

    def press(self, line: Vector | None, force: float = 0.0, turn: Vector = (0.0, 0.0, 0.0, 1.0)) -> None:
        """A fingertip pressed with ``force`` N along the line through ``line`` (world, m) on ``turn``'s z axis.

        ``turn`` is a quaternion; ``None`` takes the finger away. The fingertip is a pad of skin
        (``FINGER_PAD`` half-extents, friction 1, flat side along the line) that the hand holds on
        the line and pushes along it, carrying its own weight: a body with the mass of what moves with a
        finger (``FINGER_MASS``), met by the solver together with the contacts. A die the pyramid holds
        up is pressed with the whole force; a die that gives way is followed, the finger's mass moving
        with it, and never pulled. (A force on the die itself gives it force / mass each step it is
        not held up: 5 N is 1000 m/s^2 on a die, which flung dice off at metres a second.) Call it each
        step the finger presses: the push, like ``apply_force``, lasts one step.
        """
        c = self.client
        if line is None or force <= 0:
            if self._finger is not None:
                c.removeConstraint(self._finger[1])
                c.removeBody(self._finger[0])
                self._finger = None
                c.setPhysicsEngineParameter(numSolverIterations=self.physics.solver_iterations)
            return
        if not 0 < force <= PRESS_LIMIT:
            raise ValueError(
                f"a finger presses with at most {PRESS_LIMIT:g} N (the firmest press the solver holds a die out of "
                f"the plate against), got {force:g} N"
            )
        point, quat = [float(v) for v in line], [float(v) for v in turn]
        if self._finger is None:
            shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=list(FINGER_PAD))
            # A multibody: Bullet joins one to the world (a rigid-body die it joins only to another body).
            tip = c.createMultiBody(
                FINGER_MASS, shape, -1, basePosition=point, baseOrientation=quat, useMaximalCoordinates=False
            )
            c.changeDynamics(tip, -1, lateralFriction=1.0, restitution=0.0, linearDamping=0.0, angularDamping=0.0)
            # The hand: the pad slides freely along its z axis and is held firmly every other way.
            joint = c.createConstraint(
                tip, -1, -1, -1, pb.JOINT_PRISMATIC, [0, 0, 1], [0, 0, 0], point, [0, 0, 0, 1], quat
            )
            self._finger = (tip, joint)
            # A press loads a die a hundred times its weight: at the usual iterations the solver lets it
            # sink 3.5 mm into the plate under 5 N (0.6 mm at these).
            c.setPhysicsEngineParameter(numSolverIterations=max(self.physics.solver_iterations, PRESS_ITERATIONS))
        tip, joint = self._finger
        c.changeConstraint(joint, point, jointChildFrameOrientation=quat, maxForce=FINGER_HOLD)
        axis = geometry.quat_to_matrix(np.asarray(quat))[0][:, 2]
        # The push along the line, and the hand carrying the pad's own weight along it.
        push = -force * axis + FINGER_MASS * self.physics.gravity * float(axis[2]) * axis
        position = c.getBasePositionAndOrientation(tip)[0]
        c.applyExternalForce(tip, -1, push.tolist(), list(position), pb.WORLD_FRAME)
        self._wake_near(np.array(position), radius=2.0 * self.physics.edge)
        self._asleep = False
        self._at_rest = False

    def hold(self, die: DieId | None, point: Vector | None = None) -> None:
        """A hand carries ``die`` with its centre towards ``point`` (world, m); ``None`` lets go of it.

        The hand grips the die as it is turned when first held and pulls it towards ``point`` with at
        most ``GRIP`` newtons, so the die follows the hand as a held die does and stops against what it
        meets (a die in a funnel is dragged out along its way, or stays). Let go, the die keeps the
        velocity the hand gave it: carried fast, it is thrown. Call it each step the hand moves.
        """
        c = self.client
        if self._grip is not None and (die is None or die != self._grip[0]):
            c.removeConstraint(self._grip[2])
            c.removeBody(self._grip[1])
            self._grip = None
            self._at_rest = False
        if die is None:
            return
        if point is None:
            raise ValueError("a hand holding a die needs the point to hold it at")
        body = self._body(die)
        target = [float(v) for v in point]
        if not all(math.isfinite(v) for v in target) or len(target) != 3:
            raise ValueError(f"the point to hold die {die} at must be 3 finite numbers (m), got {point!r}")
        if self._grip is None:
            # The hand: a body without mass or shape that goes where it is put; the die joins it (Bullet
            # joins a rigid-body die to another body, never to the world itself).
            hand = c.createMultiBody(0.0, -1, -1, basePosition=target, useMaximalCoordinates=False)
            quat = c.getBasePositionAndOrientation(body)[1]
            joint = c.createConstraint(
                hand, -1, body, -1, pb.JOINT_FIXED, [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0, 1], quat
            )
            self._grip = (die, hand, joint)
        self._release([die])  # local physics may have held it still while the hand paused: simulate it
        c.resetBasePositionAndOrientation(self._grip[1], target, [0, 0, 0, 1])
        c.changeConstraint(self._grip[2], maxForce=GRIP)
        c.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._asleep = False
        self._wake_near(np.array(target), radius=2.0 * self.physics.edge)
        self._at_rest = False

    @property
    def held_die(self) -> DieId | None:
        """The die a hand carries now (see ``hold``), or None."""
        return None if self._grip is None else self._grip[0]

    @property
    def finger(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The pressing fingertip's centre (3,) and velocity (3,), or ``None`` when no finger presses."""
        if self._finger is None:
            return None
        tip = self._finger[0]
        position = self.client.getBasePositionAndOrientation(tip)[0]
        return np.array(position), np.array(self.client.getBaseVelocity(tip)[0])

    def kick(self, die: DieId, impulse: Vector, point: Vector | None = None) -> None:
        """Give ``die`` an instant ``impulse`` (N s, world frame) at ``point`` (default: its centre), as a finger."""
        body = self._body(die)
        if self._region is not None:
            self._release([die])
        position = np.array(self.client.getBasePositionAndOrientation(body)[0])
        velocity, spin = (np.array(v) for v in self.client.getBaseVelocity(body))
        impulse = np.asarray(impulse, dtype=float)
        arm = np.zeros(3) if point is None else np.asarray(point, dtype=float) - position
        # A cube's inertia is isotropic: I = m a^2 / 6 about any axis through its centre.
        inertia = self.die_mass * self.physics.edge**2 / 6
        velocity = velocity + impulse / self.die_mass
        spin = spin + np.cross(arm, impulse) / inertia
        self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self.client.resetBaseVelocity(body, velocity.tolist(), spin.tolist())
        self._wake_near(position, radius=2.0 * self.physics.edge)
        self._at_rest = False

    # -- time ------------------------------------------------------------------------------------

    def step(self, seconds: float) -> None:
        """Advance ``seconds`` of simulated time in whole steps (at least one); nothing is computed while every die sleeps.

        Whether every die sleeps is asked before each engine step, and the clock counts steps: a span
        split into calls of any size gives the same poses, bit for bit, as one call.
        """
        stepped = False
        for _ in range(max(1, round(seconds / self.physics.time_step))):
            if not self._asleep:
                self._advance(self.physics.time_step)
                stepped = True
            self._tick(1)
        if stepped:
            self._at_rest = False

    def observe(self, seconds: float, callback: Callable[[], object]) -> Callable[[], None]:
        """Call ``callback`` each time ``seconds`` of simulated time have passed (whole steps, at least one).

        Returns the undo. An observer (the window's pictures, a film's frames) sees the world between
        engine steps and cannot change how it steps: watched or not, a run is the same.
        """
        watcher = _Observer(max(1, round(seconds / self.physics.time_step)), callback)
        watcher.due = self._ticks + watcher.period
        self._observers.append(watcher)

        def stop() -> None:
            if watcher in self._observers:
                self._observers.remove(watcher)

        return stop

    def _tick(self, steps: int | Fraction) -> None:
        """The clock moves on by ``steps`` time steps; observers whose time has come are called."""
        self._ticks += steps
        for watcher in list(self._observers):
            if self._ticks >= watcher.due:
                watcher.due += watcher.period
                watcher.callback()

    @property
    def time(self) -> float:
        """Simulated seconds since the world was made: engine steps counted, times the time step."""
        return float(self._ticks) * self.physics.time_step

    def substep(self, parts: int) -> None:
        """Advance one ``parts``-th of a time step: a plate moving faster than a step can follow is moved that often."""
        if parts < 1:
            raise ValueError(f"a time step splits into at least 1 part, got {parts}")
        if parts == 1:
            self.step(self.physics.time_step)
            return
        h = self.physics.time_step / parts
        self.client.setPhysicsEngineParameter(fixedTimeStep=h)
        try:
            self._advance(h)
        finally:
            self.client.setPhysicsEngineParameter(fixedTimeStep=self.physics.time_step)
        self._tick(Fraction(1, parts))
        self._at_rest = False

    def _advance(self, h: float) -> None:
        """One engine step of ``h`` seconds, the plate moving as the hand last set it (then still), then the check."""
        if self._plate_bodies and self._plate_moving:
            # The plate moves only as the hand moves it: what the dice push on it is undone each step.
            linear, angular = self._plate_velocity
            for body in self._plate_bodies:
                self.client.resetBaseVelocity(body, linear, angular)
            self._plate_mass(any(linear) or any(angular))
        self.client.stepSimulation()
        self._plate_velocity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        # Held dice do not move: only the simulated ones need checking.
        dice = self.simulated
        poses, velocities = self._raw_poses(dice), self._raw_velocities(dice)
        self._stepped[0] += len(dice)
        self._stepped[1] += 1
        self._check(dice, poses, velocities, h)
        if self._region is not None:
            self._spread(dice, poses, velocities, h)

    def _spread(self, dice: list[DieId], poses: np.ndarray, velocities: np.ndarray, h: float) -> None:
        """Local physics after a step: release the held dice that moving dice reach; now and then hold resting ones."""
        region = self._region
        assert region is not None
        if not dice:
            self._asleep = True
            return
        moving = region.moving(dice, poses, velocities)
        if moving.any():
            self._release(region.within_reach(poses[moving, :3], region.ahead(velocities[moving], h)))
        # A die that sank by less than "moving" still lets what rests on it follow (it would hang, held).
        sunk = region.sunk(dice, poses) & ~moving
        if sunk.any():
            self._release(region.resting_on(poses[sunk, :3]))
        region.since += h
        if region.since < HOLD_WINDOW - 1e-9:
            return
        region.since = 0.0
        dice = region.active(self.dice)
        poses, velocities = self._raw_poses(dice), self._raw_velocities(dice)
        rested = region.to_hold(dice, poses, velocities, self._plate_moved or self._plate_moving)
        if rested:
            # Only a stable rest is held: seated in a slot or lying on a face. A cocked die (leaning on
            # a funnel's rim, on another die) may still tip over when it is touched or the plate trembles.
            reading = read_poses(rested, self._raw_poses(rested), self._plate_pose, self.physics.edge, plate=self.plate)
            rested = [d for d in rested if reading.dice[d].status is not Status.COCKED]
        self._hold(rested)
        region.busy.clear()
        self._plate_moved = False

    def _release(self, dice: Iterable[DieId]) -> None:
        """Simulate the held ``dice`` again, from rest where they stand."""
        if self._region is None:
            return
        dice = [d for d in dice if d in self._region.held]
        if not dice:
            return
        mass = self.die_mass
        for die in dice:
            self.client.changeDynamics(self._bodies[die], -1, mass=mass, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._region.activated(dice, self._raw_poses(dice))
        self._asleep = False

    def _hold(self, dice: Sequence[DieId]) -> None:
        """Hold ``dice`` still: static to the solver, carrying what rests on them, costing nothing."""
        if self._region is None:
            return
        for die in dice:
            body = self._bodies[die]
            self.client.resetBaseVelocity(body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
            self.client.changeDynamics(body, -1, mass=0.0, activationState=pb.ACTIVATION_STATE_SLEEP)
            self._region.held_at(die, self.client.getBasePositionAndOrientation(body)[0])
        if dice:
            # What carries the dice just held: if it moves by a hair, they must follow (see Region.sunk).
            everyone = self.dice
            self._region.bear(dice, everyone, self._raw_poses(everyone))
        if len(self._region.held) == len(self._bodies):
            self._asleep = True

    def count_steps(self) -> float:
        """Mean dice simulated per engine step since the last call (0 if none was taken); starts a new count."""
        dice, steps = self._stepped
        self._stepped = [0, 0]
        return dice / steps if steps else 0.0

    @property
    def simulated(self) -> list[DieId]:
        """The dice in play that the engine simulates now (all of them without local physics)."""
        return self.dice if self._region is None else self._region.active(self.dice)

    def check(self, h: float | None = None) -> None:
        """Raise ImpossibleStateError if a die's pose or speed cannot be (see ``ImpossibleStateError``).

        ``h`` is the step just taken (default the time step): a die may lie as deep in what it hit as it
        moved in that step, since contacts begin once boxes overlap.
        """
        dice = self.dice
        self._check(dice, self._raw_poses(dice), self._raw_velocities(dice), h)

    def _check(self, dice: list[DieId], poses: np.ndarray, velocities6: np.ndarray, h: float | None) -> None:
        if not dice:
            return
        velocities = velocities6[:, :3]
        speeds = np.linalg.norm(velocities, axis=1)
        finite = np.isfinite(poses).all(axis=1) & np.isfinite(speeds)
        if not finite.all():
            n = int(np.argmin(finite))
            raise ImpossibleStateError(dice[n], self.time, f"its pose or speed is not a number ({poses[n].tolist()})")
        ph = self.physics
        lowest = ph.edge * min(ph.proportions) / 2  # the lowest a die's centre rests, whichever way it lies
        # Box contacts start when a die already overlaps: one falling at v can be v dt deep before
        # its first contact, which then pushes it out. Deeper than that, it went through.
        sink = TOL.sunk * ph.edge + np.maximum(0.0, -velocities[:, 2]) * (h or ph.time_step)
        x, y, z = poses[:, 0], poses[:, 1], poses[:, 2]
        inner = stage.TABLE_HALF_WIDTH - ph.edge  # over the table, not tipping over its edge
        in_table = (np.abs(x) < inner) & (np.abs(y) < inner) & (z < lowest - sink)
        in_floor = z < -stage.FLOOR_DEPTH + lowest - sink
        for inside, what, top in ((in_table, "table", 0.0), (in_floor, "floor", -stage.FLOOR_DEPTH)):
            if inside.any():
                n = int(np.argmax(inside))
                raise ImpossibleStateError(
                    dice[n],
                    self.time,
                    f"it is inside the {what}: its centre lies {1000 * (z[n] - top):.1f} mm from the {what}'s top, "
                    f"a die at rest lies at least {1000 * lowest:.1f} mm above it",
                )
        if self._plate_bodies:
            local = geometry.in_plate_frame(poses[:, :3], self._plate_pose)
            slab = geometry.SLAB_TOP * ph.edge
            over = geometry.on_plate_footprint(local[:, :2] / ph.edge)
            in_plate = over & (local[:, 2] > 0) & (local[:, 2] < slab - sink)
            if in_plate.any():
                n = int(np.argmax(in_plate))
                raise ImpossibleStateError(
                    dice[n],
                    self.time,
                    f"it is inside the plate: its centre lies {1000 * (slab - local[n, 2]):.1f} mm under its top",
                )
        if speeds.max() > TOL.max_speed:
            n = int(np.argmax(speeds))
            raise ImpossibleStateError(
                dice[n],
                self.time,
                f"it moves at {speeds[n]:.1f} m/s, faster than any action can send a die "
                f"({TOL.max_speed:g} m/s): energy from nowhere",
            )

    def settle(
        self,
        timeout: float = 10.0,
        window: float = 0.25,
        position_tolerance: float = TOL.rest_shift,
        angle_tolerance: float = TOL.rest_turn,
        raise_on_timeout: bool = True,
    ) -> SettleReport:
        """Step until every die is at rest: over a whole ``window`` of seconds no die moved more than
        ``position_tolerance`` edges nor turned more than ``angle_tolerance`` degrees.

        Raises NotAtRestError on a timeout unless ``raise_on_timeout`` is False. At rest, every die is
        put to sleep (``Physics.sleep_after_settle``) so that an idle world costs nothing.
        """
        start = self.time
        if self._asleep or not self._bodies:
            self._at_rest = True
            return SettleReport(True, 0.0)
        dice = list(self._bodies)
        before = self._raw_poses(dice)
        while self.time - start < timeout - 1e-9:
            self.step(window)
            after = self._raw_poses(dice)
            moved = _moved(before, after, self.physics.edge, position_tolerance, angle_tolerance)
            if not moved.any():
                self._at_rest = True
                if self.physics.sleep_after_settle:
                    self.sleep()
                return SettleReport(True, self.time - start)
            before = after
        still = tuple(d for d, m in zip(dice, moved, strict=True) if m)
        if raise_on_timeout:
            raise NotAtRestError(f"{len(still)} dice still moving after {timeout:g} s: {list(still)[:10]}")
        return SettleReport(False, self.time - start, still)

    def sleep(self) -> None:
        """Put every die to sleep (local physics: hold it still); a die hit, or whose neighbour is taken, wakes."""
        if self._region is not None:
            self._hold(self._region.active(self.dice))
        # The plate sleeps too: it has a mass (see ``stage.make_plate``), so it joins the dice's
        # island, and an awake plate would keep every die on it awake whenever Bullet steps.
        for body in (*self._bodies.values(), *self._plate_bodies):
            self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_SLEEP)
        self._asleep = True

    def wake(self) -> None:
        """Wake every die (with local physics: simulate every die)."""
        if self._region is not None:
            self._release(list(self._region.held))
        for body in (*self._bodies.values(), *self._plate_bodies):
            self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._asleep = False

    def _wake_near(self, position: np.ndarray, radius: float) -> None:
        if self._region is not None:
            self._release(self._region.within_reach(np.asarray(position, dtype=float)[None, :], radius))
            self._asleep = False
            return
        for body in self._bodies.values():
            p = np.array(self.client.getBasePositionAndOrientation(body)[0])
            if np.linalg.norm(p - position) <= radius:
                self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._asleep = False

    def _changed(self) -> None:
        self._at_rest = False
        if self._asleep:
            # A new or vanished body touches the sleeping island: let Bullet wake what it reaches.
            self._asleep = False

    # -- going back --------------------------------------------------------------------------------

    def snapshot(self) -> Table:
        """The table now: every die in play with its pose and velocity, and the plate's pose."""
        dice = self.dice
        return Table(
            tuple(dice),
            self._raw_poses(dice),
            self._raw_velocities(dice),
            self.plate_pose,
            self.physics.edge,
            self.time,
        )

    def restore(self, table: Table) -> None:
        """Go back to ``table``: dice not in it leave, its dice come back or are put where it says, the plate too.

        The time goes on (it never runs backwards); a finger pressing is taken away. ValueError if
        the table's dice have another edge, or it has a die of the set twice or a die not in the set.
        """
        if not math.isclose(table.edge, self.physics.edge, rel_tol=1e-6):
            raise ValueError(f"the table's dice have an edge of {table.edge:g} m, this world's {self.physics.edge:g} m")
        if len(set(table.dice)) != len(table.dice):
            raise ValueError("the table names a die twice")
        for die in table.dice:
            _check_die(die)
        self.press(None)
        self.hold(None)
        self.wake()
        c = self.client
        for die in [d for d in self._bodies if d not in set(table.dice)]:
            c.removeBody(self._bodies.pop(die))
            if self._region is not None:
                self._region.forget(die)
        self._set_plate(np.asarray(table.plate[:3], dtype=float), np.asarray(table.plate[3:], dtype=float))
        self._plate_velocity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._ride = 0.0
        self._plate_moved = True  # the plate may stand elsewhere: hold nothing until the next hold test
        for die, pose, velocity in zip(table.dice, table.poses, table.velocities, strict=True):
            if die in self._bodies:
                c.resetBasePositionAndOrientation(self._bodies[die], pose[:3].tolist(), pose[3:].tolist())
            else:
                self._spawn(die, pose[:3].tolist(), pose[3:].tolist())
            c.resetBaseVelocity(self._bodies[die], velocity[:3].tolist(), velocity[3:].tolist())
        if self._region is not None:
            self._region.activated(list(table.dice), table.poses)
        self._changed()
        self._at_rest = False

    # -- reading ---------------------------------------------------------------------------------

    @property
    def dice(self) -> list[DieId]:
        """The dice in play, by number."""
        return sorted(self._bodies)

    @property
    def asleep(self) -> bool:
        """Whether every die sleeps now (``sleep``): nothing moves until something wakes them."""
        return self._asleep

    @property
    def at_rest(self) -> bool:
        """Whether the last settle found every die at rest and nothing has happened since."""
        return self._at_rest

    def _body(self, die: DieId) -> int:
        try:
            return self._bodies[die]
        except KeyError:
            raise ValueError(f"die {die} is not in play") from None

    def _raw_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        get = self.client.getBasePositionAndOrientation
        return np.array([sum(map(tuple, get(self._bodies[d])), ()) for d in dice]).reshape(-1, 7)

    def poses(self) -> tuple[list[DieId], np.ndarray]:
        """The dice in play and their poses (n, 7): position (metres) and quaternion (x, y, z, w)."""
        dice = self.dice
        return dice, self._raw_poses(dice)

    def velocities(self) -> np.ndarray:
        """Linear (m/s) and angular (rad/s) velocity (n, 6) of the dice in play, in ``dice`` order."""
        return self._raw_velocities(self.dice)

    def _raw_velocities(self, dice: Iterable[DieId]) -> np.ndarray:
        get = self.client.getBaseVelocity
        return np.array([sum(map(tuple, get(self._bodies[d])), ()) for d in dice]).reshape(-1, 6)

    @property
    def plate_pose(self) -> np.ndarray:
        """The plate's pose (7,): position of its underside centre and quaternion (x, y, z, w)."""
        return self._plate_pose.copy()

    def readout(self, require_rest: bool = True) -> Readout:
        """The read-out of every die in play; raises NotAtRestError unless the world has settled."""
        if require_rest and not self._at_rest:
            raise NotAtRestError("the dice are not at rest: call settle() before reading the world")
        dice, poses = self.poses()
        return read_poses(dice, poses, self._plate_pose, self.physics.edge, plate=self.plate)

    def close(self) -> None:
        """Disconnect from the physics server."""
        self.client.disconnect()


def _check_die(die: DieId) -> None:
    """ValueError unless ``die`` numbers a die of the set."""
    if not (isinstance(die, int | np.integer) and 0 <= die < len(DICE)):
        raise ValueError(f"die {die!r} is not in the set (0..{len(DICE) - 1})")


def _rotation_vector(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """World rotation vector (3,) that turns quaternion ``current`` into ``target`` (both x, y, z, w)."""
    # q_err = target * conj(current), as a rotation vector along the shorter way round (written out:
    # scipy's Rotation product and as_rotvec differ in the last bits, and the hand's torque with them).
    x1, y1, z1, w1 = target
    x2, y2, z2, w2 = -current[0], -current[1], -current[2], current[3]
    err = np.array(
        [
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        ]
    )
    if err[3] < 0:
        err = -err
    sin_half = np.linalg.norm(err[:3])
    if sin_half < 1e-12:
        return np.zeros(3)
    return err[:3] / sin_half * 2 * math.atan2(sin_half, err[3])


def _moved(before: np.ndarray, after: np.ndarray, edge: float, tol: float, angle_deg: float) -> np.ndarray:
    """Which dice moved more than ``tol`` edges or turned more than ``angle_deg`` between two poses."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    turn = np.degrees((Rotation.from_quat(after[:, 3:]) * Rotation.from_quat(before[:, 3:]).inv()).magnitude())
    return (shift > tol) | (turn > angle_deg)
