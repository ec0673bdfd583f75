"""Skill games of a few loose dice moved by tilting, shaking or blowing: Dune (2), Faraday (3), Coulomb (4).

Each is timed in simulated seconds; a die that falls off the plate ends the turn as a failure. The
games name where each die should go (``goals``), which the programmed players steer for.
"""

from __future__ import annotations

import abc
import functools
import itertools
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import EDGE, DieId
from pyramid.geometry import Slot
from pyramid.perception import Readout
from pyramid.rules import GameInfo
from pyramid.rules.options import Options
from pyramid.skillgames.base import ROUNDS, SkillGame, TurnEnd, TurnRecord, fallen, settled_slots, stock

if TYPE_CHECKING:
    from pyramid.physics.world import World

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

    def turn_summary(self, n: int) -> str:
        return f" (at best {self.reached[n]} of {self.goal_size} dice in place)"

    def scores(self) -> tuple[float, ...]:
        return tuple(self.best)

    goal_text: ClassVar[str] = "done"

    @abc.abstractmethod
    def done(self, readout: Readout) -> bool:
        """Whether the dice are where the game wants them."""

    @abc.abstractmethod
    def goal_slots(self, readout: Readout) -> dict[DieId, Slot]:
        """The slot each die not yet in place should go to (a base funnel, or the top of a small pyramid)."""

    def goals(self, readout: Readout) -> dict[DieId, np.ndarray]:
        """Where each die not yet in place should go (world points, metres)."""
        return {d: funnel_point(slot) for d, slot in self.goal_slots(readout).items()}

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
    option_specs: ClassVar[Options] = {"rounds": ROUNDS}
    default_player: ClassVar[str] = "tilt"
    start = CENTRE
    goal_text = "all three corners filled"
    goal_size = 3

    def progress(self, readout: Readout) -> int:
        """Corners holding a die."""
        return len(set(settled_slots(readout, self.dice).values()) & set(CORNERS))

    def done(self, readout: Readout) -> bool:
        return set(settled_slots(readout, self.dice).values()) >= set(CORNERS)

    def goal_slots(self, readout: Readout) -> dict[DieId, Slot]:
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
        return pairing


class SmallPyramidGame(TimedPlateGame):
    """Shared by Coulomb and Dune: done when four dice stand as a small pyramid anywhere on the plate."""

    goal_text = "a 4-die pyramid stands"
    # The small pyramid in the middle of the plate (base funnels, then the top): one of those that count.
    target: ClassVar[tuple[Slot, ...]] = ((3, 2, 3), (2, 3, 3), (2, 2, 4), (2, 2, 3))

    def prepare(self, world: World) -> None:
        super().prepare(world)
        self.apex: Slot | None = None

    def done(self, readout: Readout) -> bool:
        return bool(four_pyramids(set(settled_slots(readout, self.dice).values())))

    def goal_slots(self, readout: Readout) -> dict[DieId, Slot]:
        """Goals for the small pyramid the dice fill soonest (kept unless another is two steps cheaper)."""
        funnels = {d: nearest_funnel(readout.dice[d].position) for d in self.dice if d in readout.dice}
        self.apex = cheapest_pyramid(funnels, self.apex)
        seated = settled_slots(readout, self.dice)
        roles = pyramid_roles(funnels, self.apex)
        return {d: slot for d, slot in roles.items() if seated.get(d) != slot}


class Coulomb(SmallPyramidGame):
    """Coulomb: tilt and shake the plate until four dice stand as a small pyramid.

    Setup: three dice in the corner funnels and a fourth in a funnel at the plate's centre.
    Turn: the player tilts and shakes the plate until three of the dice sit in three mutually touching
        funnels with the fourth on top of them, anywhere on the plate; a die off the plate ends the turn.
    Legal actions: any tilt or shake of the plate.
    Scoring: the simulated seconds needed; a failed turn scores the time limit (60 s).
    End: after ``rounds`` turns each (default 1); the fastest wins.
    Interpretation: "the middle of the base plate" is the funnel (3, 3, 2) next to the centre point;
        the programmed player builds where the dice stand: each read-out it picks the small pyramid
        that the fewest funnel-to-funnel steps would fill (keeping the one it has unless another is
        two steps cheaper), three dice for its base and the fourth to climb on top.
    """

    info: ClassVar[GameInfo] = GameInfo(4, "Coulomb", "S", (1, 2, 3, 4), "4 dice", (), 120)
    option_specs: ClassVar[Options] = {"rounds": ROUNDS}
    default_player: ClassVar[str] = "tilt"
    start = (*CORNERS, CENTRE[0])


def nearest_funnel(position: tuple[float, float, float] | np.ndarray) -> Slot:
    """The base funnel whose centre lies nearest (horizontally) to a point on the plate at rest."""
    xy = np.asarray(position, dtype=float)[:2]
    return BASE[int(np.argmin(np.linalg.norm(BASE_XY - xy, axis=1)))]


def pyramid_cost(funnels: dict[DieId, Slot], apex: Slot) -> int:
    """Fewest funnel-to-funnel steps that bring three dice onto ``apex``'s supports and the fourth to a ramp funnel."""
    return _roles(funnels, apex)[0]


def pyramid_roles(funnels: dict[DieId, Slot], apex: Slot) -> dict[DieId, Slot]:
    """Which die goes to which support of ``apex``, and which climbs onto it, in the fewest steps."""
    return _roles(funnels, apex)[1]


def _roles(funnels: dict[DieId, Slot], apex: Slot) -> tuple[int, dict[DieId, Slot]]:
    cost, roles = _cheapest_roles(tuple(funnels.items()), apex)
    return cost, dict(roles)


@functools.lru_cache(maxsize=4096)  # every read-out asks for each of the 36 apexes, and the dice seldom change funnels
def _cheapest_roles(funnels: tuple[tuple[DieId, Slot], ...], apex: Slot) -> tuple[int, tuple[tuple[DieId, Slot], ...]]:
    """``_roles`` of the dice in ``funnels`` (die, funnel), in order: the first ordering of the fewest steps."""
    places = (*geometry.supports(apex), apex)
    # Steps from each die's funnel to each support, and to the nearest ramp funnel (for a fourth die only).
    to_place = {d: [steps(f, s) for s in places[:3]] for d, f in funnels}
    to_ramp = {d: min(steps(f, r) for r in ramp_funnels(apex)) for d, f in funnels} if len(funnels) > 3 else {}
    best: tuple[int, tuple[DieId, ...]] = (10**6, ())
    for order in itertools.permutations([d for d, _ in funnels], min(4, len(funnels))):
        cost = sum(to_place[d][k] for k, d in enumerate(order[:3]))
        if len(order) > 3:
            cost += to_ramp[order[3]]
        if cost < best[0]:
            best = (cost, order)
    return best[0], tuple(zip(best[1], places, strict=False))


def cheapest_pyramid(funnels: dict[DieId, Slot], current: Slot | None) -> Slot:
    """The apex whose small pyramid the dice fill soonest; ``current`` is kept unless another is two steps cheaper."""
    costs = {apex: pyramid_cost(funnels, apex) for apex in geometry.layer_slots(7)}
    best = min(costs, key=lambda a: (costs[a], sum(abs(c - 7 / 3) for c in a)))
    if current is not None and costs[current] <= costs[best] + 1:
        return current
    return best


def ramp_funnels(apex: Slot) -> list[Slot]:
    """The base funnels beside two of ``apex``'s supports, from which a die can climb on top across their edge."""
    i, j, k = apex
    cells = [(i + 1, j + 1, k - 1), (i + 1, j - 1, k + 1), (i - 1, j + 1, k + 1)]
    return [c for c in cells if min(c) >= 0]


def steps(a: Slot, b: Slot) -> int:
    """Funnel-to-funnel steps between two base funnels."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


BASE: tuple[Slot, ...] = geometry.layer_slots(geometry.BASE_LAYER)
BASE_XY = np.array([geometry.slot_centre(s)[:2] * EDGE for s in BASE])


class Dune(SmallPyramidGame):
    """Dune: blow four dice from their starting funnels into a small pyramid anywhere on the plate.

    Setup: four dice in four funnels spread over the plate.
    Turn: the player blows (``Blow``) until three dice sit in three mutually touching funnels with the
        fourth on top; a die blown off the plate ends the turn.
    Legal actions: any blow; hands stay off the dice and the plate.
    Scoring: the simulated seconds needed; a failed turn scores the time limit (60 s).
    End: after ``rounds`` turns each (default 1); the fastest wins.
    Interpretation: the start figure is lost: the dice start in funnels (5, 2, 1), (1, 5, 2), (2, 1, 5)
        and (3, 3, 2), two funnels apart around the centre; the programmed player builds where the
        dice stand, as in Coulomb.
    """

    info: ClassVar[GameInfo] = GameInfo(2, "Dune", "S", (1, 2, 3, 4), "4 dice", (), 107)
    option_specs: ClassVar[Options] = {"rounds": ROUNDS}
    default_player: ClassVar[str] = "blow"
    start = ((5, 2, 1), (1, 5, 2), (2, 1, 5), (3, 3, 2))
