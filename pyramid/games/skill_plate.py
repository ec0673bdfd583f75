"""Skill games of a few loose dice moved by tilting, shaking or blowing: Dune (2), Faraday (3), Coulomb (4).

Each is timed in simulated seconds; a die that falls off the plate ends the turn as a failure. The
games name where each die should go (``goals``), which the programmed players steer for.
"""

from __future__ import annotations

import abc
import itertools
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import EDGE, DieId
from pyramid.games.skill import SkillGame, TurnEnd, TurnRecord, fallen, settled_slots, stock
from pyramid.geometry import Slot
from pyramid.perception import Readout
from pyramid.rules import GameInfo

if TYPE_CHECKING:
    from pyramid.world import World

CORNERS: tuple[Slot, ...] = ((8, 0, 0), (0, 8, 0), (0, 0, 8))
CENTRE: tuple[Slot, ...] = ((3, 3, 2), (3, 2, 3), (2, 3, 3))  # the three funnels around the plate's centre


def funnel_point(slot: Slot) -> np.ndarray:
    """World position (3,), metres, of a die seated in ``slot`` on the plate at rest."""
    return geometry.slot_centre(slot) * EDGE


def best_four(slots: set[Slot]) -> int:
    """The most of ``slots`` that make up one 4-die pyramid (3 funnels touching, one die on them)."""
    return max((sum(s in slots for s in (top, *geometry.supports(top))) for top in geometry.layer_slots(7)), default=0)


def four_pyramids(slots: set[Slot]) -> list[Slot]:
    """Apexes (layer 7) of the 4-die pyramids standing complete among ``slots``."""
    return [s for s in geometry.layer_slots(7) if s in slots and all(t in slots for t in geometry.supports(s))]


class TimedPlateGame(SkillGame):
    """Shared bookkeeping: each player's fastest time; a failed turn scores the time limit."""

    lower_wins: ClassVar[bool] = True
    time_limit: ClassVar[float] = 60.0
    start: ClassVar[tuple[Slot, ...]] = ()

    def setup(self) -> None:
        self.best: list[float] = [self.time_limit] * self.players
        self.dice: list[DieId] = []
        self.reached: list[int] = []  # per finished turn: the most dice in place at any read-out
        self._reached = 0

    def prepare(self, world: World) -> None:
        self._reached = 0
        self.dice = stock("red", len(self.start), set(world.dice))
        for die, slot in zip(self.dice, self.start, strict=True):
            world.place(die, slot, geometry.ALL_UP_FACES[int(self.rng.integers(24))])

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        self._reached = max(self._reached, self.progress(readout))
        off = fallen(readout, self.dice)
        if off:
            return TurnEnd(False, f"die {off[0]} fell off the plate after {elapsed:.2f} s", self.time_limit)
        if self.done(readout):
            return TurnEnd(True, f"{self.goal_text} in {elapsed:.2f} s", elapsed)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        # A turn that failed (a die off the plate, or the time up) scores the time limit.
        time = record.end.value if record.end.success else self.time_limit
        self.best[record.player] = min(self.best[record.player], time)
        self.reached.append(self._reached)
        self.events.append(f"player {record.player}: at best {self._reached} of {self.goal_size} dice in place")
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.best)

    goal_text: ClassVar[str] = "done"

    @abc.abstractmethod
    def done(self, readout: Readout) -> bool:
        """Whether the dice are where the game wants them."""

    @abc.abstractmethod
    def goals(self, readout: Readout) -> dict[DieId, np.ndarray]:
        """Where each die not yet in place should go (world points, metres)."""

    goal_size: ClassVar[int] = 4

    def progress(self, readout: Readout) -> int:
        """How many dice stand where the goal wants them (for the records; the verdict is ``done``)."""
        return best_four(set(settled_slots(readout, self.dice).values()))


class Faraday(TimedPlateGame):
    """Faraday: tilt and shake the plate until the three dice from the centre sit in the three corner funnels.

    Setup: three dice in the three funnels around the plate's centre.
    Turn: the player tilts and shakes the plate (``Tilt``, ``Shake``) until each corner funnel holds one
        of the dice; a die that falls off the plate ends the turn.
    Legal actions: any tilt or shake of the plate; the dice are never touched.
    Scoring: the simulated seconds the player needed; a failed turn scores the time limit (60 s).
    End: after ``rounds`` turns each (default 1); the fastest wins.
    Interpretation: the "centre" is the three funnels around the plate's centre point; a die counts in
        a corner when it has come to rest seated corner-down in that funnel.
    """

    info: ClassVar[GameInfo] = GameInfo(3, "Faraday", "S", (1, 2, 3, 4), "3 dice", (), 114)
    options_help: ClassVar[dict[str, str]] = {"rounds": "turns per player (default 1)"}
    default_player: ClassVar[str] = "tilt"
    start = CENTRE
    goal_text = "all three corners filled"
    goal_size = 3

    def progress(self, readout: Readout) -> int:
        """Corners holding a die."""
        return len(set(settled_slots(readout, self.dice).values()) & set(CORNERS))

    def done(self, readout: Readout) -> bool:
        return set(settled_slots(readout, self.dice).values()) >= set(CORNERS)

    def goals(self, readout: Readout) -> dict[DieId, np.ndarray]:
        seated = settled_slots(readout, self.dice)
        free = [c for c in CORNERS if c not in seated.values()]
        movers = [d for d in self.dice if seated.get(d) not in CORNERS]
        if not free or not movers:
            return {}
        # The pairing of dice with free corners that keeps the longest way shortest (then the sum).
        here = {d: np.array(readout.dice[d].position) for d in movers}
        best: tuple[float, float] | None = None
        pairing: dict[DieId, Slot] = {}
        for corners in itertools.permutations(free, min(len(free), len(movers))):
            ways = [float(np.linalg.norm(funnel_point(c) - here[d])) for d, c in zip(movers, corners, strict=False)]
            key = (max(ways), sum(ways))
            if best is None or key < best:
                best, pairing = key, dict(zip(movers, corners, strict=False))
        return {d: funnel_point(c) for d, c in pairing.items()}


class Coulomb(TimedPlateGame):
    """Coulomb: tilt and shake the plate until four dice stand as a small pyramid.

    Setup: three dice in the corner funnels and a fourth in a funnel at the plate's centre.
    Turn: the player tilts and shakes the plate until three of the dice sit in three mutually touching
        funnels with the fourth on top of them, anywhere on the plate; a die off the plate ends the turn.
    Legal actions: any tilt or shake of the plate.
    Scoring: the simulated seconds needed; a failed turn scores the time limit (60 s).
    End: after ``rounds`` turns each (default 1); the fastest wins.
    Interpretation: "the middle of the base plate" is the funnel (3, 3, 2) next to the centre point;
        the programmed player builds in the middle, on the funnels (3, 2, 3), (2, 3, 3), (2, 2, 4)
        with the top at (2, 2, 3): a die jolted towards the middle from a corner leaves the dice in
        the other two corners, which lie on the edge the plate turns about, where they are not thrown.
    """

    info: ClassVar[GameInfo] = GameInfo(4, "Coulomb", "S", (1, 2, 3, 4), "4 dice", (), 120)
    options_help: ClassVar[dict[str, str]] = {"rounds": "turns per player (default 1)"}
    default_player: ClassVar[str] = "tilt"
    start = (*CORNERS, CENTRE[0])
    goal_text = "a 4-die pyramid stands"
    target: ClassVar[tuple[Slot, ...]] = ((3, 2, 3), (2, 3, 3), (2, 2, 4), (2, 2, 3))

    def done(self, readout: Readout) -> bool:
        return bool(four_pyramids(set(settled_slots(readout, self.dice).values())))

    def goals(self, readout: Readout) -> dict[DieId, np.ndarray]:
        return gather(readout, self.dice, self.target)


def gather(readout: Readout, dice: list[DieId], target: tuple[Slot, ...]) -> dict[DieId, np.ndarray]:
    """Goals that fill ``target`` (base funnels first, the top last) with the nearest dice not yet in it."""
    seated = settled_slots(readout, dice)
    placed = {d: s for d, s in seated.items() if s in target}
    free = [s for s in target if s not in placed.values()]
    out: dict[DieId, np.ndarray] = {}
    for die in dice:
        if die in placed or not free:
            continue
        here = np.array(readout.dice[die].position)
        base = [s for s in free if geometry.layer(s) == 8] or free
        slot = min(base, key=lambda s: float(np.linalg.norm(funnel_point(s) - here)))
        free.remove(slot)
        out[die] = funnel_point(slot)
    return out


class Dune(TimedPlateGame):
    """Dune: blow four dice from their starting funnels into a small pyramid anywhere on the plate.

    Setup: four dice in four funnels spread over the plate.
    Turn: the player blows (``Blow``) until three dice sit in three mutually touching funnels with the
        fourth on top; a die blown off the plate ends the turn.
    Legal actions: any blow; hands stay off the dice and the plate.
    Scoring: the simulated seconds needed; a failed turn scores the time limit (60 s).
    End: after ``rounds`` turns each (default 1); the fastest wins.
    Interpretation: the start figure is lost: the dice start in funnels (5, 2, 1), (1, 5, 2), (2, 1, 5)
        and (3, 3, 2), two funnels apart around the centre; the programmed player builds on the
        funnels (3, 2, 3), (2, 3, 3), (2, 2, 4) with the top at (2, 2, 3).
    """

    info: ClassVar[GameInfo] = GameInfo(2, "Dune", "S", (1, 2, 3, 4), "4 dice", (), 107)
    options_help: ClassVar[dict[str, str]] = {"rounds": "turns per player (default 1)"}
    default_player: ClassVar[str] = "blow"
    start = ((5, 2, 1), (1, 5, 2), (2, 1, 5), (3, 3, 2))
    goal_text = "a 4-die pyramid stands"
    target: ClassVar[tuple[Slot, ...]] = ((3, 2, 3), (2, 3, 3), (2, 2, 4), (2, 2, 3))

    def done(self, readout: Readout) -> bool:
        return bool(four_pyramids(set(settled_slots(readout, self.dice).values())))

    def goals(self, readout: Readout) -> dict[DieId, np.ndarray]:
        return gather(readout, self.dice, self.target)
