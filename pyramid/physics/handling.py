"""A hand on the dice and on the plate: pull, throw, hold, press, kick, push, and the plate carried (part of ``World``).

Each is a force, impulse or constraint in the engine, applied step by step by ``pyramid.physics.actions``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.physics.bodies import Vector
from pyramid.physics.bullet import pb
from pyramid.physics.hands import FINGER_HOLD, FINGER_MASS, FINGER_PAD, GRIP, PRESS_ITERATIONS, PRESS_LIMIT
from pyramid.physics.region import Region
from pyramid.physics.settings import Physics
from pyramid.physics.stepping import Stepping

PLATE_SQUEEZE = 0.02  # edges: deepest the plate may press into a die lying on the table before it rides up
PLATE_SETTLE_SPEED = 0.1  # m/s: how fast a plate resting on a die comes down again once the die is gone


class Handling(Stepping):
    """What hands do to the dice and the plate; the part of ``World`` the actions drive."""

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
        self._spin = max(self._spin, float(np.linalg.norm(spin)))  # the next step is split if it must
        if self._region is not None:
            # What the die can reach in its first step is simulated before it takes it.
            motion = np.array([[*velocity, *spin]], dtype=float)
            reach = self._region.ahead(motion, self.physics.time_step)
            start = self._region_points(np.asarray(position, dtype=float)[None, :])
            self._release(self._held_within(start, reach))

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

    def move_plate(
        self,
        pose: Vector,
        linear: Vector = (0.0, 0.0, 0.0),
        angular: Vector = (0.0, 0.0, 0.0),
        parts: int = 1,
        carry: bool = True,
    ) -> None:
        """Carry the plate to ``pose`` (7,) moving at ``linear`` (m/s) and ``angular`` (rad/s), as a hand would.

        The plate is kinematic: the dice do not push it back, and dice touching it feel its velocity
        through friction and contact. Call once per time step while it moves (with ``parts``, once
        per ``substep(parts)``); read-outs use the new pose. It cannot go through a die the table
        holds up: it rides up onto it (``plate_ride``), and comes down again when the die is gone.

        With local physics the held dice seated on the plate ride with it, held in its frame, until their
        supports cannot take them along (``riding``); with ``carry`` False (a step in which the plate makes
        dice hop) every die is simulated. Once the hand moves the plate, local physics stays in its frame until
        the plate stops: dice at rest against it are carried (again) in the steps with ``carry`` True.
        """
        pose = np.asarray(pose, dtype=float)
        if pose.shape != (7,):
            raise ValueError(f"a plate pose is (x, y, z, qx, qy, qz, qw), got shape {pose.shape}")
        if not self._plate_bodies:
            raise ValueError("this world has no plate to move")
        turn = pose[3:]
        quat = turn / math.sqrt(turn.dot(turn))  # np.linalg.norm's own sum and root, without its checks
        dt = self.physics.time_step / parts  # the step that follows (see ``substep``)
        region = self._region
        hand = _nonzero(linear) or _nonzero(angular)
        if region is not None and self._carriage is None and hand:
            if carry and region.held:
                # The hand starts to move the plate: the held dice seated on it ride with it (``_carry_begin``).
                self._carry_begin(linear, angular)
            elif not carry:
                # It jolts the plate at once: every die is simulated, in the plate's frame, so that those at rest
                # against it once it moves gently again ride it from then on; but those lying on the table out of
                # its reach, held where they lie (parked).
                self._park(linear, angular)
                self._simulate_all()
                self._carry_begin()
        before = self._plate_pose
        # Resting on a die beneath it, the plate comes down no faster than it would fall on its own.
        ride = max(0.0, self._ride - PLATE_SETTLE_SPEED * dt)
        # In Python floats, each sum as numpy's: the hand's position raised by the ride, its velocity by the rise.
        x, y, z = pose[:3].tolist()
        self._set_plate([x + 0.0, y + 0.0, z + ride], quat.tolist())
        if self._carriage is not None and region is not None and region.parked:
            # The dice lying on the table that the plate nears are simulated again, before it rides up on any die.
            self._unpark_near_plate(linear, angular)
        for _ in range(3):
            lift = self._squeezed()
            if lift <= 0:
                break
            ride += lift
            self._set_plate([x + 0.0, y + 0.0, z + ride], quat.tolist())
        vx, vy, vz = linear.tolist() if isinstance(linear, np.ndarray) else (float(v) for v in linear)
        moved = [vx + 0.0, vy + 0.0, vz + (ride - self._ride) / dt]
        self._ride = ride
        velocity = np.array(moved)
        self._plate_velocity = (moved, list(angular))
        moving = any(moved) or _nonzero(angular)
        self._plate_mass(moving)
        self._plate_moved |= moving
        carriage = self._carriage
        if carriage is not None and not carry:
            # Not to be carried now (the plate jolts): every die is simulated, let go at the velocity it rode with
            # (``carrying_steps`` lets none ride before a jolt). Local physics stays in the plate's frame: dice at
            # rest against it are carried again once it moves gently.
            self._plate_jolted |= moving
            if region is not None and region.held:
                self._simulate_all()
        elif carriage is not None and region is not None and not hand:
            # The hand holds the plate still: nothing rides it. If it still rides down off a die under it, every die
            # is simulated, as below (``wake`` ends the carriage too). A carriage left on kept the world in the
            # plate's frame for good: after a tilt ending on a fallen die, local physics held dice that whole
            # physics lets fall, and they chattered for 30 s (docs/soak.md).
            if moving:
                self.wake()
            else:
                self._carry_end()
        elif carriage is not None and region is not None:
            # The dice whose supports cannot take them along in the next step go their own way, with what
            # rests on them and what they rest on.
            turning = np.asarray(angular, dtype=float)
            slipping = carriage.slipping(self._plate_pose, velocity, turning, dt, self._gravity)
            if slipping:
                points = carriage.local_of(slipping)[:, :3]
                self._release([*slipping, *region.resting_on(points), *region.carrying(points)])
        elif (moving and region is not None and region.held) or (
            self._asleep and (region is None or not np.array_equal(before, self._plate_pose))
        ):
            # A moving plate the hand did not start moving (it rides down off a die), or one put elsewhere:
            # every die is simulated. (Held still where it is, the plate disturbs nothing.)
            self.wake()
        self._at_rest = False

    @property
    def rides_alone(self) -> bool:
        """Whether every die rides the moving plate and nothing else goes on: no die simulated (none near a carried
        one), none parked, no hand on a die, the plate on no die, nobody watching. Then ``ride_plate`` may step."""
        carriage, region = self._carriage, self._region
        return (
            carriage is not None
            and region is not None
            and not region.parked
            and not carriage.awake
            and not len(carriage.points)
            and self._finger is None
            and self._grip is None
            and self._ride == 0.0
            and not self._observers
            and not self._asleep
            and not self._simulated()
        )

    def ride_plate(self, motions: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> int:
        """Carry the plate through whole time steps while every die rides it (``rides_alone``): for each of
        ``motions``, the plate's pose (7,), velocity (3,) and turning (3,) in a step, as ``move_plate`` then ``step``
        would, bit for bit, without what a step with no die to simulate need not do (no engine step is taken then
        either). Stops before a step in which a die's supports cannot take it along or the hand holds the plate
        still; returns the steps taken (0: none, ``move_plate`` and ``step`` go on from here)."""
        if not self.rides_alone:
            return 0
        carriage = self._carriage
        assert carriage is not None
        dt, gravity = self.physics.time_step, self._gravity
        ahead = list(motions)
        if not ahead:
            return 0
        rows = len(ahead)
        poses, linear, angular = (np.array([m[k] for m in ahead], dtype=float) for k in (0, 1, 2))
        if poses.shape != (rows, 7) or linear.shape != (rows, 3) or angular.shape != (rows, 3):
            raise ValueError(
                "each step of a ride is a plate pose (x, y, z, qx, qy, qz, qw), a velocity (3,) and a turning (3,): "
                f"got poses {poses.shape}, velocities {linear.shape}, turnings {angular.shape} for {rows} steps"
            )
        # Held still from some step on: the carriage ends there (``move_plate``).
        still = ~(linear.any(axis=1) | angular.any(axis=1))
        count = int(np.argmax(still)) if still.any() else len(ahead)
        quats = poses[:count, 3:] / np.sqrt((poses[:count, 3:] ** 2).sum(axis=1))[:, None]
        sure = carriage.surely_held(geometry.quat_to_matrix(quats), linear[:count], angular[:count], dt, gravity)
        taken = 0
        last: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # the plate's pose and motion in the last step
        while taken < count:
            # The steps in which no die can slip (the screen, all at once), then one that the slip test decides.
            rest = sure[taken:]
            run = count - taken if rest.all() else int(np.argmin(rest))
            if run:
                taken += run
                last = _plate_step(*ahead[taken - 1])
            if taken == count:
                break
            if last is not None:
                carriage.linear, carriage.angular = last[1], last[2]  # what the last step's ``_carry`` recorded
            step = _plate_step(*ahead[taken])
            if carriage.slipping(step[0], step[1], step[2], dt, gravity):
                break
            taken, last = taken + 1, step
        if last is not None:
            plate, carriage.linear, carriage.angular = last
            self._set_plate(plate[:3].tolist(), plate[3:].tolist())
            self._plate_mass(True)
            self._plate_moved = True
            self._ridden(taken)
        return taken

    @property
    def plate_ride(self) -> float:
        """Metres the plate stands higher than the hand put it, because it rests on dice lying under it."""
        return self._ride

    def _set_plate(self, where: list[float], turn: list[float]) -> None:
        """The plate's bodies to the position ``where`` (3 floats) turned by ``turn`` (a unit quaternion, 4 floats)."""
        # No die moves: the poses read since are still the engine's (``_poses_read``).
        reset = self.client.uncounted("resetBasePositionAndOrientation")
        for body in self._plate_bodies:
            reset(body, where, turn)
        self._plate_pose = np.array(where + turn)

    def _poses_read(self, dice: list[DieId]) -> np.ndarray:
        """The engine's poses (n, 7) of ``dice``: as read after the last step (``_kept_read``), else read now."""
        kept = self._kept_read(dice)
        return kept[0] if kept is not None else self._engine_poses(dice)

    def _surely_clear(self, dice: list[DieId]) -> bool:
        """Whether none of a few ``dice`` lies low (``_low``) by more than ``LOW_MARGIN``: each centred an edge or more
        above the table and above the plate's underside. A screen in Python floats (``_squeezed``'s test decides
        where it is unsure)."""
        ph = self.physics
        plate = self._plate_pose
        px, py, pz = plate[:3].tolist()
        (_, _, r02), (_, _, r12), (_, _, r22) = geometry.quat_to_matrix(plate[3:])[0].tolist()
        high = ph.edge * max(ph.proportions) + LOW_MARGIN
        for x, y, z, *_ in self._poses_read(dice).tolist():
            if not (z > high and (x - px) * r02 + (y - py) * r12 + (z - pz) * r22 > LOW_MARGIN):
                return False
        return True

    def _squeezed(self) -> float:
        """How far (metres) the plate must rise so as not to press a die lying on the table (or on one there) into it.

        The hand cannot push the plate through a die that the table holds up: where the plate's
        underside comes down on such a die, the plate rides up onto it instead (as a plate does
        that is set down on a die, or whose low edge is pushed against one).
        """
        ph = self.physics
        if not self._bodies:
            return 0.0
        region = self._region
        if self._carriage is not None:
            # The dice the plate carries go with it: only the simulated ones can be under it.
            dice = self._simulated()
        elif region is not None and region.held:
            # The simulated dice, and those held still whose kept centres lie low near the plate (with a margin:
            # the test below is made again on what the engine says).
            dice = self._simulated() + self._held_low(region)
        else:
            dice = self.dice
        if not dice:
            return 0.0
        if len(dice) <= geometry.FEW_ROWS and self._surely_clear(dice):
            return 0.0
        poses = self._poses_read(dice)
        local = geometry.in_plate_frame(poses[:, :3], self._plate_pose)
        # Dice lying on the table (centred within an edge of it), or under the plate's underside (held up by
        # the table or by dice on it: a stack under the plate), near the plate's outline.
        low = _low(poses[:, 2], local, ph)
        lift = 0.0
        for n in np.flatnonzero(low):
            body = self._bodies[dice[n]]
            for plate in self._plate_bodies:
                for point in self.client.getClosestPoints(body, plate, 0.0):
                    depth, normal_z = -point[8], point[7][2]  # the normal points from the plate to the die
                    if depth > PLATE_SQUEEZE * ph.edge and normal_z < -0.3:
                        lift = max(lift, depth / -normal_z)
        return lift

    def _held_low(self, region: Region) -> list[DieId]:
        """The held dice that may lie low near the plate (``_low``), from the centres ``region`` keeps: a reading of
        every die in the engine costs a third of a tilt of the full pyramid (the hand holds the plate still)."""
        held, centres = region.held_centres()
        if not held:
            return []
        local = geometry.in_plate_frame(centres, self._plate_pose)
        near = _low(centres[:, 2] - LOW_MARGIN, local - [0.0, 0.0, LOW_MARGIN], self.physics, LOW_MARGIN)
        return [held[n] for n in np.flatnonzero(near).tolist()]

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
                c.setPhysicsEngineParameter(numSolverIterations=self.physics.iterations())
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
            c.setPhysicsEngineParameter(numSolverIterations=max(self.physics.iterations(), PRESS_ITERATIONS))
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
        self._spin = max(self._spin, float(np.linalg.norm(spin)))
        self._wake_near(position, radius=2.0 * self.physics.edge)
        self._at_rest = False


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


def _plate_step(pose: np.ndarray, linear: np.ndarray, angular: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The plate's pose (7,), velocity (3,) and turning (3,) in a step as ``move_plate`` reckons them from the hand's
    (the plate on no die: no ride), bit for bit."""
    turn = pose[3:]
    quat = turn / math.sqrt(turn.dot(turn))
    x, y, z = pose[:3].tolist()
    vx, vy, vz = linear.tolist() if isinstance(linear, np.ndarray) else (float(v) for v in linear)
    plate = np.array([x + 0.0, y + 0.0, z + 0.0, *quat.tolist()])
    return plate, np.array([vx + 0.0, vy + 0.0, vz + 0.0]), np.array(angular, dtype=float)


def _nonzero(vector: Sequence[float] | np.ndarray) -> bool:
    """Whether any component of ``vector`` is not zero (a NaN counts as not zero, as in numpy)."""
    # A float is true unless it is zero (a NaN is true); Python's floats, sooner than numpy's scalars.
    return any(vector.tolist() if isinstance(vector, np.ndarray) else vector)


LOW_MARGIN = 1e-6  # m: the held dice whose kept centres are this near to lying low are read from the engine (``_low``)


def _low(heights: np.ndarray, local: np.ndarray, ph: Physics, margin: float = 0.0) -> np.ndarray:
    """Which dice (bool (n,)), centred ``heights`` (n,) above the table and at ``local`` (n, 3) in the plate's frame,
    the plate may come down on: lying on the table (within an edge of it) or under its underside, near its outline
    (its reach widened by ``margin`` metres)."""
    held_up = (heights < ph.edge * max(ph.proportions)) | (local[:, 2] < 0.0)
    return held_up & (geometry.lengths(local[:, :2]) < _plate_reach(ph.edge) + margin)


@functools.cache
def _plate_reach(edge: float) -> float:
    """Metres from the plate's centre within which a die may lie under its outline: its farthest corner, and an edge."""
    return float(np.linalg.norm(geometry.slab_corners(), axis=1).max() * edge + edge)
