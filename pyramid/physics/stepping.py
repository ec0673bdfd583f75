"""Time in the world: engine steps, local physics' held region, settling and sleep (the stepping part of ``World``).

One engine step at a time: whether every die sleeps is asked before each, observers are called between
them, and the checks of impossible states run after each. However a span is split into calls, the
poses are the same bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.geometry import Slot
from pyramid.perception import Status, read_poses
from pyramid.physics import riding, stage
from pyramid.physics.bodies import Bodies, Observer, Vector
from pyramid.physics.bullet import pb
from pyramid.physics.checks import check_state
from pyramid.physics.errors import NotAtRestError
from pyramid.physics.region import HOLD_WINDOW, MOVE_SPEED, MOVE_SPIN
from pyramid.physics.riding import Carriage
from pyramid.tolerances import TOL

# Bullet turns a body by at most a quarter turn of pi a step (``ANGULAR_MOTION_THRESHOLD``) but solves its contacts
# at its full spin: a die spinning faster (157 rad/s at 200 Hz) is turned less than the solver assumes, and its
# contact points run away from what it stands on (a die flicked off the table at 960 rad/s sank 17 mm into the
# floor). Such a step is split into parts that each turn every die less than that.
ENGINE_TURN = np.pi / 4  # radians: the most Bullet turns a body in one step

FEW_READS = 32  # up to this many dice, poses and velocities are read into a row each: sooner than one flat pass

# What a step with no die simulated leaves: no points nor reaches for carried dice to be touched from, no motion.
_NO_POINTS = np.zeros((0, 3))
_NO_REACH = np.zeros(0)
_NO_MOTION = np.zeros((0, 6))
for _empty in (_NO_POINTS, _NO_REACH, _NO_MOTION):
    _empty.flags.writeable = False


@dataclass(frozen=True)
class SettleReport:
    """How a call to ``World.settle`` ended."""

    at_rest: bool
    time: float  # simulated seconds spent settling
    moving: tuple[DieId, ...] = ()  # dice still moving at the end (on a timeout)


def fastest_spin(velocities: np.ndarray) -> float:
    """The largest angular speed (rad/s) among velocities (n, 6), linear then angular; 0 for none."""
    if len(velocities) <= geometry.FEW_ROWS:
        # A few rows: ``lengths`` in Python floats (the squares summed left to right, as numpy sums three), sooner.
        return max((math.sqrt(x * x + y * y + z * z) for *_, x, y, z in velocities.tolist()), default=0.0)
    return float(geometry.lengths(velocities[:, 3:]).max())


def spin_parts(spin: float, time_step: float) -> int:
    """Engine steps a time step is split into so that a die spinning ``spin`` rad/s turns less than ``ENGINE_TURN``
    in each: 1 below 157 rad/s at 200 Hz, and for a spin that is not a number (the step's check names it)."""
    turn = spin * time_step
    if not turn > ENGINE_TURN or not np.isfinite(turn):
        return 1
    return int(np.ceil(turn / ENGINE_TURN))


class Stepping(Bodies):
    """Stepping, holding and settling; the part of ``World`` that moves time on."""

    _spin: float = 0.0  # rad/s: the fastest spin of a simulated die after the last step, or as a hand set it since

    _simulated_key: tuple[int, int] = (-1, -1)  # the region's version and the dice in play when the list was made
    _simulated_dice: list[DieId]  # the dice simulated now, kept while the region and the dice in play stay

    def _carried_poses(self, dice: list[DieId]) -> tuple[list[int], np.ndarray]:
        """Which rows of ``dice`` the plate carries, and their poses (m, 7) where the plate has them (see ``_carry``).

        Reckoned, not read: a sleeping carried die is put in place only when a simulated die comes near.
        """
        carriage = self._carriage
        assert carriage is not None
        rows = [n for n, d in enumerate(dice) if d in carriage]
        if not rows:
            return rows, np.zeros((0, 7))
        return rows, riding.compose(carriage.frame, carriage.local_of([dice[n] for n in rows]))

    def _raw_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        """Poses (n, 7) of ``dice``; a die the plate carries is where the plate has it (see ``_carry``)."""
        if self._carriage is None:
            return self._engine_poses(dice)
        dice = list(dice)
        poses = self._engine_poses(dice)
        rows, carried = self._carried_poses(dice)
        if rows:
            poses[rows] = carried
        return poses

    def _raw_velocities(self, dice: Iterable[DieId]) -> np.ndarray:
        """Linear and angular velocities (n, 6) of ``dice``; a die the plate carries moves with it."""
        carriage = self._carriage
        if carriage is None:
            return self._engine_velocities(dice)
        dice = list(dice)
        velocities = self._engine_velocities(dice)
        rows, carried = self._carried_poses(dice)
        if rows:
            points = carried[:, :3]
            velocities[rows, :3] = riding.rigid_velocity(points, carriage.frame[:3], carriage.linear, carriage.angular)
            velocities[rows, 3:] = carriage.angular
        return velocities

    def _engine_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        """Poses (n, 7) of ``dice``: the engine's numbers read in one pass, with no tuple made per die (a few dice:
        a row each, sooner)."""
        read = map(self.client.getBasePositionAndOrientation, map(self._bodies.__getitem__, dice))
        if isinstance(dice, list | tuple) and len(dice) <= FEW_READS:
            return np.array([where + turn for where, turn in read]).reshape(-1, 7)
        return np.fromiter(chain.from_iterable(chain.from_iterable(read)), dtype=float).reshape(-1, 7)

    def _engine_velocities(self, dice: Iterable[DieId]) -> np.ndarray:
        """Linear and angular velocities (n, 6) of ``dice``, read as ``_engine_poses`` reads poses."""
        read = map(self.client.getBaseVelocity, map(self._bodies.__getitem__, dice))
        if isinstance(dice, list | tuple) and len(dice) <= FEW_READS:
            return np.array([linear + angular for linear, angular in read]).reshape(-1, 6)
        return np.fromiter(chain.from_iterable(chain.from_iterable(read)), dtype=float).reshape(-1, 6)

    def step(self, seconds: float) -> None:
        """Advance ``seconds`` of simulated time in whole steps (at least one); nothing is computed while all sleep.

        Whether every die sleeps is asked before each engine step, and the clock counts steps: a span
        split into calls of any size gives the same poses, bit for bit, as one call.
        """
        stepped = False
        dt = self.physics.time_step
        for _ in range(max(1, round(seconds / dt))):
            if not self._asleep:
                # While the hand moves the plate its pose is reckoned step by step (and a carrying plate's frame):
                # such steps are not split.
                parts = spin_parts(self._spin, dt) if self._carriage is None and not self._plate_moving else 1
                if parts == 1:
                    self._advance(dt)
                else:
                    self._advance_in_parts(parts)
                stepped = True
            self._tick(1)
        if stepped:
            self._at_rest = False

    def _advance_in_parts(self, parts: int) -> None:
        """One time step as ``parts`` engine steps: a die spins faster than one step can turn it (``ENGINE_TURN``).

        The plate stands still (``step`` splits no step of a moving plate); observers see only the step's end.
        """
        self.client.setPhysicsEngineParameter(fixedTimeStep=self.physics.time_step / parts)
        try:
            for _ in range(parts):
                self._advance(self.physics.time_step / parts)
        finally:
            self.client.setPhysicsEngineParameter(fixedTimeStep=self.physics.time_step)

    def observe(self, seconds: float, callback: Callable[[], object]) -> Callable[[], None]:
        """Call ``callback`` each time ``seconds`` of simulated time have passed (whole steps, at least one).

        Returns the undo. An observer (the window's pictures, a film's frames) sees the world between
        engine steps and cannot change how it steps: watched or not, a run is the same.
        """
        watcher = Observer(max(1, round(seconds / self.physics.time_step)), callback)
        watcher.due = self._ticks + watcher.period
        self._observers.append(watcher)

        def stop() -> None:
            if watcher in self._observers:
                self._observers.remove(watcher)

        return stop

    def _tick(self, steps: int | Fraction) -> None:
        """The clock moves on by ``steps`` time steps; observers whose time has come are called."""
        ticks = self._ticks + steps
        if type(ticks) is Fraction and ticks.denominator == 1:
            ticks = ticks.numerator  # whole again after sub-steps: an int, whose sums cost far less than a Fraction's
        self._ticks = ticks
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
        carriage = self._carriage
        # Held dice do not move: only the simulated ones need checking.
        dice = self._simulated()
        # With none simulated, none near a carried die, and no hand holding a body, every die rides the plate, asleep
        # and meeting nothing: the engine would move the plate alone, which the hand puts where it goes before the
        # next step (most steps of a plate action). No step, and no velocity for the plate.
        hands_free = self._finger is None and self._grip is None
        idle = not dice and carriage is not None and not len(carriage.points) and hands_free
        if self._plate_bodies and self._plate_moving:
            # The plate moves only as the hand moves it: what the dice push on it is undone each step.
            linear, angular = self._plate_velocity
            if not idle:
                for body in self._plate_bodies:
                    self.client.resetBaseVelocity(body, linear, angular)
            self._plate_mass(any(linear) or any(angular))
        if carriage is not None:
            # Idle, it wakes no carried die: it wakes those within reach of the simulated dice's last points (none).
            self._carry(carriage, h)
        if not idle:
            self.client.stepSimulation()
        self._plate_velocity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._stepped[0] += len(dice)
        self._stepped[1] += 1
        if carriage is not None:
            # Local physics runs in the plate's frame while it carries dice: motion is motion against the plate.
            # The engine does not move the plate (it is set each step): where the step took it, reckoned.
            carriage.advance(self._plate_pose, h)
            if not dice:
                # Every die carried (most steps of a plate action): nothing to read, check or release.
                carriage.points, carriage.reach = _NO_POINTS, _NO_REACH
                self._before = (dice, _NO_MOTION)
                self._spin = 0.0
                self._asleep = False
                return
        poses, velocities = self._engine_poses(dice), self._engine_velocities(dice)
        poses.flags.writeable = velocities.flags.writeable = False  # kept: ``_motion_read``
        self._read = (self.client.moves, dice, poses, velocities)
        self._spin = fastest_spin(velocities)
        check_state(dice, poses, velocities, h, self.physics, self._plate_or_none(), self.time, self._before)
        self._before = (dice, velocities)
        region = self._region
        if region is None:
            return
        if carriage is None:
            self._spread(dice, poses, velocities, h)
            return
        if region.held or region.bearing or region.parked:
            # A die lying still on the table (in the world's frame) moves against the plate but reaches no parked die.
            lying = self._lying_still(poses, velocities) if region.parked else None
            self._spread(dice, *self._against_plate(carriage, poses, velocities, h), h, lying)
            return
        # Nothing held (a jolt simulates every die): nothing to release, nor to wake in the next step, unless the
        # hold test now holds some: then the next step wakes what the simulated dice reach from where they are.
        carriage.points, carriage.reach = _NO_POINTS, _NO_REACH
        self._spread(dice, poses, velocities, h)
        if region.held:
            self._against_plate(carriage, poses, velocities, h)

    def _ridden(self, steps: int) -> None:
        """The clock and the carriage after ``steps`` steps in which every die rode the plate (``ride_plate``), where
        the plate stands now: what ``_advance`` leaves after such steps."""
        carriage = self._carriage
        assert carriage is not None
        carriage.advance(self._plate_pose, self.physics.time_step)
        carriage.points, carriage.reach = _NO_POINTS, _NO_REACH
        self._plate_velocity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._stepped[1] += steps
        self._before = (self._simulated(), _NO_MOTION)
        self._spin = 0.0
        self._asleep = False
        self._tick(steps)
        self._at_rest = False

    def _against_plate(
        self, carriage: Carriage, poses: np.ndarray, velocities: np.ndarray, h: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """The poses (n, 7) and velocities (n, 6) of the simulated dice against the plate (its frame), from the
        world's; kept (``Carriage.points``, ``reach``) for the next step's waking of carried dice they may touch."""
        frame, linear, angular = carriage.frame, carriage.linear, carriage.angular
        velocities = riding.relative_velocities(velocities, poses[:, :3], frame, linear, angular)
        poses = riding.relative(frame, poses)
        region = self._region
        assert region is not None
        carriage.points, carriage.reach = poses[:, :3], region.ahead(velocities, h)
        return poses, velocities

    def _spread(
        self, dice: list[DieId], poses: np.ndarray, velocities: np.ndarray, h: float, lying: np.ndarray | None = None
    ) -> None:
        """Local physics after a step: release the held dice that moving dice reach; now and then hold resting ones.

        ``lying`` (bool (n,)): the dice lying still on the table, which release no parked die (``Region.parked``).
        """
        region = self._region
        assert region is not None
        if not dice:
            # Every die held; carried by the plate, they still go where it goes, step by step.
            self._asleep = self._carriage is None
            return
        # With no die held, none to release; with none carrying a held die, none sunk (every die simulated: a jolt).
        moving = region.moving(dice, poses, velocities) if region.held or region.bearing or region.parked else None
        if moving is not None and moving.any():
            release = region.within_reach(poses[moving, :3], region.ahead(velocities[moving], h))
            if region.parked:
                movers = moving & ~lying if lying is not None else moving
                release += self._parked_within(poses[movers, :3], region.ahead(velocities[movers], h))
            self._release(release)
        # A die that sank by less than "moving" still lets what rests on it follow (it would hang, held).
        sunk = region.sunk(dice, poses) & ~moving if moving is not None else None
        if sunk is not None and sunk.any():
            # What rests on a sunk die follows it down, and what else carries those dice gives under the new
            # load: held still, a die's other supports would keep it hanging over the sunk one.
            self._release(region.resting_on(poses[sunk, :3]))
            self._release(region.carrying(region.above(poses[sunk, :3], self._region_poses(self.dice)[:, :3])))
            region.unbear([d for d, s in zip(dice, sunk, strict=True) if s])
        region.since += h
        if region.since < HOLD_WINDOW - 1e-9:
            return
        region.since = 0.0
        dice = self._simulated()
        poses, velocities = self._region_motion(dice)
        carriage = self._carriage
        # Carried by the plate, a die rests when it rests against the plate, however the plate moves.
        moved = (carriage is None and (self._plate_moved or self._plate_moving)) or self._plate_jolted
        rested = region.to_hold(dice, poses, velocities, moved)
        if rested and carriage is None:
            # Only a stable rest is held: seated in a slot or lying on a face. A cocked die (leaning on
            # a funnel's rim, on another die) may still tip over when it is touched or the plate trembles.
            reading = read_poses(rested, self._raw_poses(rested), self._plate_pose, self.physics.edge, plate=self.plate)
            rested = [d for d in rested if reading.dice[d].status is not Status.COCKED]
        elif rested:
            # The plate carries only a die seated in a slot: its supports are the lattice's (``riding.slips``).
            local = self._region_poses(rested)
            rested = [d for d, s in zip(rested, self._firmly_seated(rested, local), strict=True) if s]
        self._hold(rested)
        region.busy.clear()
        self._plate_moved = self._plate_jolted = False

    def _release(self, dice: Iterable[DieId]) -> None:
        """Simulate the held ``dice`` again, from rest where they stand."""
        if self._region is None:
            return
        dice = list(dice)
        parked = [d for d in dice if d in self._region.parked]
        if parked:
            centres = np.array([self._region.parked[d] for d in parked])
            self._region.unpark(parked, self._region_points(centres))
        dice = [d for d in dice if d in self._region.held]
        if not dice:
            return
        for die in dice:
            # Its own mass: with a spread of sizes each die weighs what its size does.
            mass = self._shape_and_mass(die)[1]
            self.client.changeDynamics(self._bodies[die], -1, mass=mass, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        if self._apart:
            self._rejoin(dice)
        carriage = self._carriage
        if carriage is None:
            self._region.activated(dice, self._raw_poses(dice))
        else:
            carried = [d for d in dice if d in carriage]
            if carried:
                self._let_go(carriage, carried)
            poses = self._region_poses(dice)
            carriage.let_go(carried)
            carriage.watch(poses[:, :3], np.full(len(dice), self._region.reach))
            self._region.activated(dice, poses)
        # Released part-way through a hold window, a die is tested for rest over the whole next one: a
        # die let go a step before the test has not moved yet, and would be held again where it hung.
        self._region.busy.update(dice)
        self._asleep = False

    def _hold(self, dice: Sequence[DieId]) -> None:
        """Hold ``dice`` still: static to the solver, carrying what rests on them, costing nothing."""
        if self._region is None:
            return
        if self._carriage is not None:
            # Held while the plate moves: carried with it, and recorded in its frame as every held die is now.
            local = self._region_poses(dice)
            self._carry_more(dice, local)
            for die, pose in zip(dice, local, strict=True):
                self._region.held_at(die, pose[:3])
            if dice:
                everyone = self.dice
                self._region.bear(dice, everyone, self._region_poses(everyone))
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

    def _plate_or_none(self) -> np.ndarray | None:
        return self._plate_pose if self._plate_bodies else None

    @property
    def simulated(self) -> list[DieId]:
        """The dice in play that the engine simulates now (all of them without local physics)."""
        return list(self._simulated())

    def _simulated(self) -> list[DieId]:
        """``simulated``, kept until a die is held, released, put in or taken out: not to be changed."""
        region = self._region
        if region is None:
            return self.dice
        # Every die put in or taken out passes through the region (activated, forget): its version moves.
        key = (region.version, len(self._bodies))
        if key != self._simulated_key:
            self._simulated_dice = region.active(self.dice)
            self._simulated_key = key
        return self._simulated_dice

    def check(self, h: float | None = None) -> None:
        """Raise ImpossibleStateError if a die's pose or speed cannot be (see ``ImpossibleStateError``).

        ``h`` is the step just taken (default the time step): a die may lie as deep in what it hit as it
        moved in that step, since contacts begin once boxes overlap.
        """
        dice = self.dice
        poses, velocities = self._raw_poses(dice), self._raw_velocities(dice)
        check_state(dice, poses, velocities, h, self.physics, self._plate_or_none(), self.time)

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

        A world that moved since it was last at rest takes at least one window, even if local physics
        holds every die by then (it costs no engine step): rest is seen over a window, as with whole
        physics, so that a game's clock runs alike with both. Nothing moved: at rest at once.
        """
        start = self.time
        if not self._bodies or (self._asleep and self._at_rest):
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
        self._carry_end()
        if self._region is not None:
            self._hold(self._region.active(self.dice))
        # The plate sleeps too: it has a mass (see ``stage.make_plate``), so it joins the dice's
        # island, and an awake plate would keep every die on it awake whenever Bullet steps.
        for body in (*self._bodies.values(), *self._plate_bodies):
            self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_SLEEP)
        self._asleep = True

    def wake(self) -> None:
        """Wake every die (with local physics: simulate every die)."""
        self._carry_end()
        self._simulate_all()

    def _simulate_all(self) -> None:
        """Every held die simulated again (a carried one at the velocity it rode with), every body awake; a parked
        die stays held, asleep (``Region.parked``: the plate cannot reach it)."""
        parked: dict[DieId, np.ndarray] = {}
        if self._region is not None:
            self._release(list(self._region.held))
            parked = self._region.parked
        for die, body in self._bodies.items():
            if die not in parked:
                self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        for body in self._plate_bodies:
            self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._asleep = False

    def _park(self, linear: Vector, angular: Vector) -> None:
        """The held dice lying on the table out of reach of the plate moving at ``linear`` (m/s) and ``angular``
        (rad/s) stay held while it moves (``Region.parked``)."""
        region = self._region
        if region is None or not region.held:
            return
        held = sorted(region.held)
        apart = self._apart_from_plate(self._raw_poses(held)[:, :3], linear, angular)
        region.park([d for d, a in zip(held, apart, strict=True) if a])

    def set_gravity(self, acceleration: Sequence[float]) -> None:
        """Point gravity along ``acceleration`` (m/s^2, world frame; the table's is (0, 0, -g)): every die feels it.

        What holds each resting die has changed, so every held die is simulated again (local physics)
        and every sleeping die wakes: a die on a slope slides if friction cannot hold it there.
        """
        g = [float(v) for v in acceleration]
        if len(g) != 3 or not all(np.isfinite(g)):
            raise ValueError(f"gravity is an acceleration (x, y, z) of 3 finite numbers in m/s^2, got {acceleration!r}")
        # Bullet gives the new gravity only to the bodies awake and dynamic now (a held or sleeping
        # die would keep the old one when it moves again): wake them all first.
        self.wake()
        self.client.setGravity(*g)
        self._gravity = np.array(g)
        self._at_rest = False

    def _wake_near(self, position: np.ndarray, radius: float) -> None:
        if self._region is not None:
            centre = self._region_points(np.asarray(position, dtype=float)[None, :])
            self._release(self._held_within(centre, radius))
            self._asleep = False
            return
        for body in self._bodies.values():
            p = np.array(self.client.getBasePositionAndOrientation(body)[0])
            if np.linalg.norm(p - position) <= radius:
                self.client.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._asleep = False

    def _held_within(self, points: np.ndarray, reach: float | np.ndarray) -> list[DieId]:
        """The held and parked dice whose centres lie within ``reach`` metres (one, or one per point) of any of
        ``points`` (n, 3), in local physics' frame (``Region.within_reach``)."""
        region = self._region
        assert region is not None
        return region.within_reach(points, reach) + self._parked_within(points, reach)

    def _parked_within(self, points: np.ndarray, reach: float | np.ndarray) -> list[DieId]:
        """The parked dice whose centres lie within ``reach`` metres of any of ``points`` (n, 3, local physics'
        frame): ``_held_within`` for the dice kept in the world's frame."""
        region = self._region
        if region is None or not region.parked or len(points) == 0:
            return []
        parked = list(region.parked)
        centres = self._region_points(np.array([region.parked[d] for d in parked]))
        gaps = geometry.lengths(centres[:, None, :] - points[None, :, :], axis=2)
        near = (gaps <= np.asarray(reach)).any(axis=1)
        return [parked[n] for n in np.flatnonzero(near).tolist()]

    def _lying_still(self, poses: np.ndarray, velocities: np.ndarray) -> np.ndarray:
        """Which dice at ``poses`` (n, 7) moving at ``velocities`` (n, 6), both in the world's frame, lie on the table
        still (bool (n,)): slower than a moving die (``region.MOVE_SPEED``, ``MOVE_SPIN``). While the plate moves
        such a die moves against it, but it reaches no parked die. (A die let go from rest moves at a few mm/s in
        its first steps as its contacts with the table form.)"""
        slow = geometry.lengths(velocities[:, :3]) < MOVE_SPEED
        return self._on_table(poses[:, :3]) & slow & (geometry.lengths(velocities[:, 3:]) < MOVE_SPIN)

    def _on_table(self, centres: np.ndarray) -> np.ndarray:
        """Which dice centred at ``centres`` (n, 3, world) lie on the table (bool (n,)): no higher than half their
        diagonal and ``riding.ON_TABLE`` edges."""
        return centres[:, 2] <= self._half_diagonal() + riding.ON_TABLE * self.physics.edge

    def _half_diagonal(self) -> float:
        """Metres from a die's centre to its farthest corner."""
        return 0.5 * float(np.linalg.norm(self.physics.proportions)) * self.physics.edge

    def _apart_from_plate(
        self, centres: np.ndarray, linear: Vector = (0.0, 0.0, 0.0), angular: Vector = (0.0, 0.0, 0.0)
    ) -> np.ndarray:
        """Which dice centred at ``centres`` (n, 3, world) lie on the table out of reach of the plate moving at
        ``linear`` (m/s, its frame's origin) and turning at ``angular`` (rad/s) (bool (n,)): their bounding boxes
        ``riding.PARK_MARGIN`` edges from the box of the plate and the dice it carries, and along each axis as far
        again as a corner of that box goes along it in ``riding.PARK_AHEAD`` seconds."""
        ph = self.physics
        if not self._plate_bodies or len(centres) == 0:
            return np.zeros(len(centres), dtype=bool)
        boxes = np.array([self.client.getAABB(body) for body in self._plate_bodies])
        low, high = boxes[:, 0].min(axis=0), boxes[:, 1].max(axis=0)
        half = self._half_diagonal()
        carriage = self._carriage
        if carriage is not None and len(carriage.local):
            # What the plate carries goes with it (a steep tilt may hold a die out past its rim).
            carried = riding.compose(self._plate_pose, carriage.local)[:, :3]
            low, high = np.minimum(low, carried.min(axis=0) - half), np.maximum(high, carried.max(axis=0) + half)
        corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])])
        # The fastest point of the plate along each axis is a corner of its box (velocity is linear in the point).
        speeds = np.asarray(linear, dtype=float) + np.cross(angular, corners - self._plate_pose[:3])
        margin = riding.PARK_MARGIN * ph.edge + riding.PARK_AHEAD * np.abs(speeds).max(axis=0)
        overlaps = ((centres + half > low - margin) & (centres - half < high + margin)).all(axis=1)
        return self._on_table(centres) & ~overlaps

    def _unpark_near_plate(self, linear: Vector, angular: Vector) -> None:
        """Simulate the parked dice that the plate, where the hand has just put it and moving at ``linear`` (m/s)
        and ``angular`` (rad/s), may come near (``_apart_from_plate``)."""
        region = self._region
        if region is None or not region.parked:
            return
        parked = list(region.parked)
        apart = self._apart_from_plate(np.array([region.parked[d] for d in parked]), linear, angular)
        if not apart.all():
            self._release([d for d, a in zip(parked, apart, strict=True) if not a])

    # -- the plate carries the held dice ---------------------------------------------------------

    def _carry_begin(self, linear: Vector = (0.0, 0.0, 0.0), angular: Vector = (0.0, 0.0, 0.0)) -> None:
        """The hand starts moving the plate: the held dice seated on it ride with it, held in its frame.

        Every other held die (lying, or off the plate) is simulated again, but those lying on the table out of
        reach of the plate moving at ``linear`` (m/s) and ``angular`` (rad/s): they stay held in the world's
        frame (``Region.parked``) until the plate or a moving die comes near (``_unpark_near_plate``,
        ``_held_within``). Local physics goes on in the plate's frame: a die moves when it moves against the plate.
        """
        region = self._region
        assert region is not None
        frame = self._plate_pose.copy()
        held = sorted(region.held)
        poses = self._raw_poses(held)
        local = riding.relative(frame, poses)
        slots = self._seats(held, local)
        seated = riding.firmly_seated(slots, local, self.physics.edge)
        # Dice lying on the table out of the plate's reach stay held where they are (parked): it cannot touch them.
        apart = self._apart_from_plate(poses[:, :3], linear, angular) & ~seated
        region.park([d for d, a in zip(held, apart, strict=True) if a])
        self._release([d for d, s, a in zip(held, seated, apart, strict=True) if not s and not a])
        rows = np.flatnonzero(seated)
        carriage = Carriage([], [], np.zeros((0, 7)), np.zeros(0), frame)
        active = region.active(self.dice)
        c = self.client
        if active:
            motion = self._raw_velocities(active)
            carriage.watch(self._raw_poses(active)[:, :3], region.ahead(motion, self.physics.time_step))
            for die in active:
                c.setCollisionFilterGroupMask(self._bodies[die], -1, riding.SIMULATED_GROUP, -1)
        for body in self._plate_bodies:
            c.changeDynamics(body, -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._carriage = carriage
        # Each die's slot as just read (its seat is its own, whatever rows are read with it); its pose reckoned again
        # from these rows, as the carriage has always kept it.
        self._carry_more([held[n] for n in rows], riding.relative(frame, poses[rows]), [slots[n] for n in rows])
        region.reframe(lambda p: riding.relative(frame, p))
        self._asleep = False

    def _firmly_seated(self, dice: Sequence[DieId], local: np.ndarray) -> np.ndarray:
        """Which of ``dice`` (bool (n,)), at poses ``local`` (n, 7) in the plate's frame, sit in a slot closely
        enough to ride the plate (``riding.firmly_seated``)."""
        return riding.firmly_seated(self._seats(dice, local), local, self.physics.edge)

    def _seats(self, dice: Sequence[DieId], local: np.ndarray) -> list[Slot | None]:
        """The slot each of ``dice`` at poses ``local`` (n, 7) in the plate's frame is seated in (None: not seated)."""
        reading = read_poses(list(dice), local, riding.IDENTITY, self.physics.edge, plate=self.plate)
        return [reading.dice[d].slot if reading.dice[d].status is Status.SEATED else None for d in dice]

    def _carry_more(self, dice: Sequence[DieId], local: np.ndarray, slots: Sequence[Slot | None] = ()) -> None:
        """The plate carries ``dice`` too: seated, at poses ``local`` (n, 7) in its frame, in ``slots`` (if known:
        else read from ``local``)."""
        carriage = self._carriage
        if carriage is None or not dice:
            return
        ph = self.physics
        slots = slots or self._seats(dice, local)
        # A base die rests in the plate's funnel, the others on three dice.
        base = np.array([geometry.layer(slot or (0, 0, 0)) == geometry.BASE_LAYER for slot in slots])
        friction = np.where(base, ph.friction_die * ph.friction_plate, ph.friction_die**2)
        bodies = [self._bodies[d] for d in dice]
        carriage.add(list(dice), bodies, local, friction)
        c = self.client
        for die, body in zip(dice, bodies, strict=True):
            # Heavy as the plate: the solver uses its velocity, and what hits it does not move it. It meets
            # neither the plate nor another held die (for as long as it is held: see ``_rejoin``), and until a
            # simulated die comes near, nothing at all: asleep, it is not even integrated (see ``_carry``).
            c.changeDynamics(body, -1, mass=stage.PLATE_MASS, activationState=pb.ACTIVATION_STATE_SLEEP)
            c.setCollisionFilterGroupMask(body, -1, riding.CARRIED_GROUP, 0)
            if die not in self._apart:
                for plate in self._plate_bodies:
                    c.setCollisionFilterPair(body, plate, -1, -1, 0)
                self._apart.add(die)

    def _carry(self, carriage: Carriage, h: float) -> None:
        """Before a step of ``h`` s: the carried dice a simulated die may touch in it go where the plate has them,
        moving as their point of the plate moves; the others sleep, meet nothing and stay where they were
        (the world's read-outs reckon where they are: ``_raw_poses``)."""
        linear, angular = (np.asarray(v, dtype=float) for v in self._plate_velocity)
        if not carriage.dice:
            # Nothing carried (a jolt): nothing to wake, put or put to sleep.
            carriage.linear, carriage.angular = linear, angular
            return
        region = self._region
        assert region is not None
        near = carriage.rows(region.within_reach(carriage.points, carriage.reach))
        c = self.client
        for n in carriage.awake.difference(near):
            c.setCollisionFilterGroupMask(carriage.bodies[n], -1, riding.CARRIED_GROUP, 0)
            c.changeDynamics(carriage.bodies[n], -1, activationState=pb.ACTIVATION_STATE_SLEEP)
        for n in near.difference(carriage.awake):
            c.setCollisionFilterGroupMask(carriage.bodies[n], -1, riding.CARRIED_GROUP, riding.CARRIED_MASK)
            c.changeDynamics(carriage.bodies[n], -1, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        carriage.awake = near
        carriage.linear, carriage.angular = linear, angular
        if near:
            rows = sorted(near)
            frame = self._plate_pose
            poses = riding.compose(frame, carriage.local[rows])
            # The plate's velocity at each die, less what gravity adds in the step (the plate feels none).
            velocities = riding.rigid_velocity(poses[:, :3], frame[:3], linear, angular) - self._gravity * h
            self._put(carriage, rows, poses, velocities)

    def _put(self, carriage: Carriage, rows: Sequence[int], poses: np.ndarray, velocities: np.ndarray) -> None:
        """The carried dice of ``rows`` to ``poses`` (n, 7), moving at ``velocities`` (n, 3), turning with the plate."""
        reset, move = self.client.resetBasePositionAndOrientation, self.client.resetBaseVelocity
        spin = carriage.angular.tolist()
        for n, pose, velocity in zip(rows, poses.tolist(), velocities.tolist(), strict=True):
            body = carriage.bodies[n]
            reset(body, pose[:3], pose[3:])
            move(body, velocity, spin)

    def _carry_end(self) -> None:
        """The plate stops: the dice it carried are held still where it has them, in the world's frame again."""
        carriage, region = self._carriage, self._region
        if carriage is None or region is None:
            return
        frame = self._plate_pose.copy()
        c = self.client
        poses = riding.compose(frame, carriage.local).tolist()
        for n, (body, pose) in enumerate(zip(carriage.bodies, poses, strict=True)):
            c.resetBasePositionAndOrientation(body, pose[:3], pose[3:])
            c.resetBaseVelocity(body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
            c.changeDynamics(body, -1, mass=0.0, activationState=pb.ACTIVATION_STATE_SLEEP)
            if n not in carriage.awake:
                # Held still, it meets the simulated dice again (never the plate, nor another held die).
                c.setCollisionFilterGroupMask(body, -1, riding.CARRIED_GROUP, riding.CARRIED_MASK)
        region.reframe(lambda p: riding.compose(frame, p))
        if region.parked:
            parked = list(region.parked)
            region.unpark(parked, np.array([region.parked[d] for d in parked]))  # in the world's frame, as ever
        self._carriage = None
        if len(region.held) == len(self._bodies):
            self._asleep = True

    def _let_go(self, carriage: Carriage, dice: Sequence[DieId]) -> None:
        """The plate lets go of the carried ``dice``: each where the plate has it, at the velocity it rode with."""
        local = carriage.local_of(dice)
        poses = riding.compose(carriage.frame, local)
        velocities = riding.rigid_velocity(poses[:, :3], carriage.frame[:3], carriage.linear, carriage.angular)
        spin = carriage.angular.tolist()
        for die, pose, velocity in zip(dice, poses.tolist(), velocities.tolist(), strict=True):
            body = self._bodies[die]
            self.client.resetBasePositionAndOrientation(body, pose[:3], pose[3:])
            self.client.resetBaseVelocity(body, velocity, spin)

    def _rejoin(self, dice: Sequence[DieId]) -> None:
        """``dice``, simulated again, meet the plate and every die again (see ``_carry_begin``)."""
        c = self.client
        for die in dice:
            if die in self._apart:
                self._apart.discard(die)
                body = self._bodies[die]
                c.setCollisionFilterGroupMask(body, -1, riding.SIMULATED_GROUP, -1)
                for plate in self._plate_bodies:
                    c.setCollisionFilterPair(body, plate, -1, -1, 1)

    def _region_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        """Poses (n, 7) of ``dice`` in local physics' frame: the world's, or the plate's while it carries dice."""
        carriage = self._carriage
        if carriage is None:
            return self._raw_poses(dice)
        dice = list(dice)
        out = np.empty((len(dice), 7))
        carried = [n for n, d in enumerate(dice) if d in carriage]
        others = [n for n, d in enumerate(dice) if d not in carriage]
        if carried:
            out[carried] = carriage.local_of([dice[n] for n in carried])
        if others:
            out[others] = riding.relative(carriage.frame, self._engine_poses([dice[n] for n in others]))
        return out

    def _kept_read(self, dice: list[DieId]) -> tuple[np.ndarray, np.ndarray] | None:
        """The poses (n, 7) and velocities (n, 6) of ``dice`` read after the last step, if they are the dice read then
        (the same list) and no body has moved since (``BulletClient.moves``): still the engine's. Read only."""
        read = self._read
        if read is not None and read[1] is dice and read[0] == self.client.moves:
            return read[2], read[3]
        return None

    def _motion_read(self, dice: list[DieId]) -> tuple[np.ndarray, np.ndarray]:
        """The engine's poses (n, 7) and velocities (n, 6) of ``dice``: as read after the last step (``_kept_read``),
        else read now."""
        return self._kept_read(dice) or (self._engine_poses(dice), self._engine_velocities(dice))

    def _region_motion(self, dice: list[DieId]) -> tuple[np.ndarray, np.ndarray]:
        """Poses (n, 7) and velocities (n, 6) of ``dice`` in local physics' frame (see ``_region_poses``)."""
        carriage = self._carriage
        poses, velocities = self._motion_read(dice)  # simulated dice: the engine's poses are theirs
        if carriage is None:
            return poses, velocities
        moving = riding.relative_velocities(velocities, poses[:, :3], carriage.frame, carriage.linear, carriage.angular)
        return riding.relative(carriage.frame, poses), moving

    def _region_points(self, points: np.ndarray) -> np.ndarray:
        """World points (n, 3) in local physics' frame (see ``_region_poses``)."""
        if self._carriage is None:
            return points
        turns = np.tile([0.0, 0.0, 0.0, 1.0], (len(points), 1))
        return riding.relative(self._carriage.frame, np.hstack([points, turns]))[:, :3]


def _moved(before: np.ndarray, after: np.ndarray, edge: float, tol: float, angle_deg: float) -> np.ndarray:
    """Which dice moved more than ``tol`` edges or turned more than ``angle_deg`` between two poses."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    turn = np.degrees((Rotation.from_quat(after[:, 3:]) * Rotation.from_quat(before[:, 3:]).inv()).magnitude())
    return (shift > tol) | (turn > angle_deg)
