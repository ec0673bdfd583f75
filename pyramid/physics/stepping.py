"""Time in the world: engine steps, local physics' held region, settling and sleep (the stepping part of ``World``).

One engine step at a time: whether every die sleeps is asked before each, observers are called between
them, and the checks of impossible states run after each. However a span is split into calls, the
poses are the same bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid.dice import DieId
from pyramid.perception import Status, read_poses
from pyramid.physics.bodies import Bodies, Observer
from pyramid.physics.bullet import pb
from pyramid.physics.checks import check_state
from pyramid.physics.errors import NotAtRestError
from pyramid.physics.region import HOLD_WINDOW
from pyramid.tolerances import TOL


@dataclass(frozen=True)
class SettleReport:
    """How a call to ``World.settle`` ended."""

    at_rest: bool
    time: float  # simulated seconds spent settling
    moving: tuple[DieId, ...] = ()  # dice still moving at the end (on a timeout)


class Stepping(Bodies):
    """Stepping, holding and settling; the part of ``World`` that moves time on."""

    _simulated_key: tuple[int, int] = (-1, -1)  # the region's version and the dice in play when the list was made
    _simulated_dice: list[DieId]  # the dice simulated now, kept while the region and the dice in play stay

    def _raw_poses(self, dice: Iterable[DieId]) -> np.ndarray:
        """Poses (n, 7) of ``dice``: the engine's numbers read in one pass, with no tuple made per die."""
        read = map(self.client.getBasePositionAndOrientation, map(self._bodies.__getitem__, dice))
        return np.fromiter(chain.from_iterable(chain.from_iterable(read)), dtype=float).reshape(-1, 7)

    def _raw_velocities(self, dice: Iterable[DieId]) -> np.ndarray:
        """Linear and angular velocities (n, 6) of ``dice``, read as ``_raw_poses`` reads poses."""
        read = map(self.client.getBaseVelocity, map(self._bodies.__getitem__, dice))
        return np.fromiter(chain.from_iterable(chain.from_iterable(read)), dtype=float).reshape(-1, 6)

    def step(self, seconds: float) -> None:
        """Advance ``seconds`` of simulated time in whole steps (at least one); nothing is computed while all sleep.

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
        watcher = Observer(max(1, round(seconds / self.physics.time_step)), callback)
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
        dice = self._simulated()
        poses, velocities = self._raw_poses(dice), self._raw_velocities(dice)
        self._stepped[0] += len(dice)
        self._stepped[1] += 1
        check_state(dice, poses, velocities, h, self.physics, self._plate_or_none(), self.time)
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
            # What rests on a sunk die follows it down, and what else carries those dice gives under the new
            # load: held still, a die's other supports would keep it hanging over the sunk one.
            self._release(region.resting_on(poses[sunk, :3]))
            self._release(region.carrying(region.above(poses[sunk, :3], self._raw_poses(self.dice)[:, :3])))
            region.unbear([d for d, s in zip(dice, sunk, strict=True) if s])
        region.since += h
        if region.since < HOLD_WINDOW - 1e-9:
            return
        region.since = 0.0
        dice = self._simulated()
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
        for die in dice:
            # Its own mass: with a spread of sizes each die weighs what its size does.
            mass = self._shape_and_mass(die)[1]
            self.client.changeDynamics(self._bodies[die], -1, mass=mass, activationState=pb.ACTIVATION_STATE_WAKE_UP)
        self._region.activated(dice, self._raw_poses(dice))
        # Released part-way through a hold window, a die is tested for rest over the whole next one: a
        # die let go a step before the test has not moved yet, and would be held again where it hung.
        self._region.busy.update(dice)
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
        self._at_rest = False

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


def _moved(before: np.ndarray, after: np.ndarray, edge: float, tol: float, angle_deg: float) -> np.ndarray:
    """Which dice moved more than ``tol`` edges or turned more than ``angle_deg`` between two poses."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    turn = np.degrees((Rotation.from_quat(after[:, 3:]) * Rotation.from_quat(before[:, 3:]).inv()).magnitude())
    return (shift > tol) | (turn > angle_deg)
