"""Dice rolls for the table games: thrown in the physics world and read off, or drawn from a generator.

A game asks a Roller for ``n`` faces; PhysicalRoller throws real (simulated) dice onto the table,
FastRoller draws the faces for strategy studies. Both record every roll.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from pyramid.dice import DieId, dice_of
from pyramid.perception import DieReading, Readout, Status
from pyramid.tolerances import TOL

if TYPE_CHECKING:
    from pyramid.physics.world import World  # a PhysicalRoller is handed its world: the games load without PyBullet

TABLE_RADIUS = 0.35  # metres: a die resting farther than this from the origin has left the table area
MAX_ATTEMPTS = 20  # re-throws of one roll before giving up
ROLL_TRIES = 3  # whole rolls made afresh when the physics cannot read one (RollError) before giving up
SETTLE_TIMEOUT = 4.0  # seconds of simulated time before a die spinning flat on the table is read anyway
SPIN_WINDOW = 0.25  # seconds over which such a die must keep its top face and place
SPIN_TIMEOUT = 8.0  # further seconds of waiting for the spinning dice


@dataclass(frozen=True)
class RollRecord:
    """One roll: the faces shown, and how many dice had to be thrown again (cocked or off the table)."""

    faces: tuple[int, ...]
    rerolls: int = 0


class Roller(Protocol):
    """Something that rolls dice for a game."""

    records: list[RollRecord]

    def roll(self, n: int) -> list[int]:
        """Roll ``n`` dice and return their faces, 1..6, in throwing order."""
        ...


@dataclass
class FastRoller:
    """Draws faces from the seeded generator: no physics."""

    rng: np.random.Generator
    records: list[RollRecord] = field(default_factory=list)

    def roll(self, n: int) -> list[int]:
        """Roll ``n`` dice and return their faces."""
        faces = [int(f) for f in self.rng.integers(1, 7, size=n)]
        self.records.append(RollRecord(tuple(faces)))
        return faces


class RollError(RuntimeError):
    """Raised when the physics does not give a readable roll after many throws."""


@dataclass
class PhysicalRoller:
    """Throws dice onto the table of ``world`` and reads their top faces once all rest.

    Cocked dice and dice that left the table area are thrown again, as players would; the faces are
    exactly what the physics showed.
    """

    world: World
    rng: np.random.Generator
    height: float = 0.12  # metres: release height of the first die
    speed: float = 0.4  # m/s: horizontal speed
    spin: float = 20.0  # rad/s
    colour: str = "red"
    records: list[RollRecord] = field(default_factory=list)

    def _free_dice(self, n: int) -> list[DieId]:
        in_play = set(self.world.dice)
        free = [d for d in dice_of(self.colour) if d not in in_play]
        if len(free) < n:
            raise ValueError(f"only {len(free)} {self.colour} dice are not in play; {n} needed")
        return free[:n]

    def _throw(self, dice: list[DieId]) -> None:
        # Targets on a ring around the origin, one height step per die so no two start overlapping.
        for k, die in enumerate(dice):
            angle = 2 * math.pi * k / max(1, len(dice))
            radius = 0.0 if len(dice) == 1 else 0.04
            target = (radius * math.cos(angle), radius * math.sin(angle))
            self.world.random_throw(
                die, self.rng, height=self.height + 0.03 * k, target=target, speed=self.speed, spin=self.spin
            )

    def _wait_for_faces(self, pending: list[DieId]) -> Readout:
        """Settle; a die still spinning flat on one face about the vertical after ``SETTLE_TIMEOUT`` counts
        as showing that face once its top face and place stay the same over a whole window."""
        report = self.world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
        if report.at_rest:
            return self.world.readout()
        previous = self.world.readout(require_rest=False)
        waited = 0.0
        while waited < SPIN_TIMEOUT:
            self.world.step(SPIN_WINDOW)
            waited += SPIN_WINDOW
            readout = self.world.readout(require_rest=False)
            if all(_spinning_flat(previous.dice[d], readout.dice[d], self.world.physics.edge) for d in pending):
                return readout
            previous = readout
        raise RollError(f"dice still moving after {SETTLE_TIMEOUT + SPIN_TIMEOUT:g} s")

    def roll(self, n: int) -> list[int]:
        """Throw ``n`` dice, re-throw the cocked or lost ones, and return the faces in throwing order.

        A roll the physics cannot read at all (RollError) is made afresh, ``ROLL_TRIES`` times in all.
        """
        for _ in range(ROLL_TRIES - 1):
            with contextlib.suppress(RollError):
                return self._roll_once(n)
        return self._roll_once(n)

    def _roll_once(self, n: int) -> list[int]:
        dice = self._free_dice(n)
        faces: dict[DieId, int] = {}
        pending = list(dice)
        rerolls = 0
        try:
            for attempt in range(MAX_ATTEMPTS):
                self._throw(pending)
                readout = self._wait_for_faces(pending)
                again: list[DieId] = []
                for die in pending:
                    reading = readout.dice[die]
                    far = math.hypot(reading.position[0], reading.position[1]) > TABLE_RADIUS
                    if reading.status is Status.LYING and reading.top is not None and not far:
                        faces[die] = int(reading.top)
                    else:
                        again.append(die)
                for die in again:
                    self.world.remove(die, pull=False)
                if not again:
                    break
                rerolls += len(again)
                pending = again
                if attempt == MAX_ATTEMPTS - 1:
                    raise RollError(f"{len(again)} dice still unreadable after {MAX_ATTEMPTS} throws")
        finally:
            for die in dice:
                if die in self.world.dice:
                    self.world.remove(die, pull=False)
        result = [faces[d] for d in dice]
        self.records.append(RollRecord(tuple(result), rerolls))
        return result


def _spinning_flat(before: DieReading, after: DieReading, edge: float) -> bool:
    """Whether a die lies flat with the same top face and hardly slides: its face is known while it spins."""
    return (
        before.status is Status.LYING
        and after.status is Status.LYING
        and before.top == after.top
        and math.dist(before.position, after.position) < TOL.spin_drift * edge
    )
