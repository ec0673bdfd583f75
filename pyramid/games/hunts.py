"""Hunts on the plate (rule book 47, 50): dogs looking for a hidden wolf, explorers in a maze of dice.

Rules layer only (no physics). A dog is a ``Place`` on the flock, a question about one die and the
choice of the wolf are ``Declare``s; an explorer's walk is one ``Move`` of two dice changing places, a
roll a ``Reroll`` carried out as a ``Remove`` and a ``Place``. The chosen wolf is a secret: told to the
others only as chosen (``told``), shown only to the players who are not the shepherd (``secret``), and
drawn afresh in a shepherd's copies (``redeal``).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from pyramid import geometry
from pyramid.drawing import slot_label
from pyramid.games.boards import Reroll
from pyramid.geometry import Slot
from pyramid.moves import is_open_for
from pyramid.rules import Action, Declare, Game, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.rules.options import OneOf, Options, Whole
from pyramid.state import Cell, PyramidState

FLOCK_LAYER = geometry.BASE_LAYER - 1  # the dogs stand in the funnels the base dice form
_UNIT: tuple[Slot, Slot, Slot] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))

# --- Wolf in a Sheep's Coat -------------------------------------------------------------------


@dataclass(frozen=True)
class Accuse(Declare):
    """The shepherd asks whether the die in ``slot`` is the wolf (it costs a dog, set beside the board).

    Typed at the terminal by the die's label: ``ask i33``.
    """

    slot: Slot

    def __str__(self) -> str:
        return f"ask whether {slot_label(self.slot)} {self.slot} is the wolf"


@dataclass(frozen=True)
class Hide(Declare):
    """The hider chooses the wolf: the black die in ``slot``, while the shepherd looks away.

    Typed at the terminal by the die's label: ``hide i33``. The others are told only that it was chosen.
    """

    slot: Slot

    def __str__(self) -> str:
        return f"hide the wolf in {slot_label(self.slot)} {self.slot}"


def dog_rays(dog: Slot) -> list[list[Slot]]:
    """The six rays of base funnels a dog in ``dog`` looks along, each from one of the dice under it, nearest first.

    The dog's funnel lies between three rows of the plate (one of each family), each through two
    of the dice it rests on; it looks both ways along each row, starting at those dice.
    """
    out = []
    for a, under in enumerate(geometry.supports(dog)):
        for b in range(3):
            if b != a:
                d = tuple(_UNIT[a][n] - _UNIT[b][n] for n in range(3))
                out.append([under, *geometry.ray(under, (d[0], d[1], d[2]))])
    return out


def sight(cells: Mapping[Slot, Cell], dog: Slot) -> set[Slot]:
    """The base dice a dog in ``dog`` sees among ``cells``: along its rays up to a die another dog stands
    on or a bush (green), neither seen; the dice under it always (a bush under it hides nothing)."""
    covered = {s for other, c in cells.items() if c.colour == "red" and other != dog for s in geometry.supports(other)}
    seen: set[Slot] = set()
    for ray in dog_rays(dog):
        for n, slot in enumerate(ray):
            cell = cells.get(slot)
            if cell is None or cell.colour == "green" or (n and slot in covered):
                break
            seen.add(slot)
    return seen


def search_cost(n: float) -> float:
    """About the dogs still needed to find the wolf among ``n`` candidates: halve them, then ask."""
    return 1.0 + math.log2(n) if n > 0 else 0.0


class WolfInASheepsCoat(Game):
    """Wolf in a Sheep's Coat (no. 47).

    Setup: 45 black dice fill the base funnels; with the option ``bushes`` that many of them, drawn
    at random, are green bushes instead.
    Turn: each player in turn is the shepherd of one round (player 0 first). The round begins with
    the next player (the hider) choosing one black die as the wolf for the others, in secret (a
    ``Hide``). The shepherd then places a red dog in a free funnel of the flock (the 36 funnels the
    base dice form), and the game answers whether it sees the wolf; or asks whether one black die
    is the wolf (an ``Accuse``), which costs a dog too, whatever the answer. A dog looks both ways
    along the three rows of the plate its funnel lies between, starting at the three dice under it
    (``dog_rays``); it sees every die up to one that another dog stands on, or a bush: no dog looks
    through another dog or over a bush. It always sees the dice under it. Once the wolf is found
    (asked about, yes), the shepherd takes the dogs off (one ``Remove`` each, forced) and the next
    player is shepherd of a new wolf.
    Legal actions: the hider: any black die; the shepherd: a dog in any free flock funnel, or a
    question about any black die not yet asked about this round.
    Scoring: the dogs (and questions) each shepherd needed.
    End: when every player has been shepherd once; the fewest dogs win.
    Interpretation: the figure of the directions of view is lost; a dog's three faces pointing along
    the three row families (``geometry.pointing_face``) give the six directions. "The others decide"
    on the wolf: the player after the shepherd chooses it for them (with two players, the other).
    Option ``wolf=drawn``: nobody chooses; the wolf is drawn at random as late as possible, at each
    answer among the dice that fit every answer so far (the same as a die drawn at the start and
    kept secret, while no copy of the game, a search player's, can know it).
    """

    info = GameInfo(
        47, "Wolf in a Sheep's Coat", "T", (2, 3, 4, 5, 6), "45 black, red dogs (green bushes)", ("wolf",), 478
    )
    option_specs: ClassVar[Options] = {
        "bushes": Whole("black dice replaced by green bushes at random (default 0)", 0, 40),
        "wolf": OneOf(
            "chosen: the player after the shepherd chooses it in secret (the book, default); "
            "drawn: drawn at random, as late as the answers allow",
            ("chosen", "drawn"),
        ),
    }
    house_rules = (
        "A dog looks both ways along the three rows its funnel lies between, from the dice under it, up to a die "
        "another dog stands on or a bush (figure lost). The player after the shepherd chooses the wolf for the "
        "others (with --option wolf=drawn it is drawn at random, as late as the answers allow). Every player is "
        "shepherd once; dogs stand only on the flock."
    )
    max_moves: ClassVar[int] = 800
    # a shepherd's belief of the hider: each funnel more whose dog would see a die makes it e times less
    # likely the wolf (a hider hides where the fewest dogs can see it, as greedy does)
    HIDE_WEIGHT: ClassVar[float] = 1.0

    def setup(self) -> None:
        bushes = self.option("bushes", 0)
        self.chosen = self.option("wolf", "chosen") == "chosen"
        green = {geometry.BASE_SLOTS[int(n)] for n in self.rng.permutation(45)[:bushes]}
        self.state = PyramidState(
            {s: Cell("green" if s in green else "black", self.draw_orientation()) for s in geometry.BASE_SLOTS}
        )
        self.dogs = [0] * self.players
        self.rounds = 0  # rounds over
        self.clearing: list[Slot] = []  # dogs to take off before the next round
        self.new_round()

    def new_round(self) -> None:
        """A new wolf: every black die a candidate, nothing asked; the hider to choose it (unless drawn)."""
        self.candidates = set(self.black_dice())
        self.asked: set[Slot] = set()
        self.wolf: Slot | None = None  # the chosen wolf (never set when drawn)
        # how many flock funnels' dogs would see each black die, the flock empty: public, a hider's guide
        views = [sight(self.state.cells, f) for f in self.flock_funnels()]
        self.cover = {s: sum(1 for seen in views if s in seen) for s in self.candidates}
        self.to_move = self.hider() if self.chosen else self.shepherd()

    def shepherd(self) -> Seat:
        """The shepherd of this round (of the next while the dogs are taken off)."""
        return self.rounds % self.players

    def black_dice(self) -> list[Slot]:
        """The black dice on the plate (each may be the wolf of a new round), in slot order."""
        return [s for s in geometry.BASE_SLOTS if s in self.state and self.state[s].colour == "black"]

    def pool(self) -> list[Slot]:
        """The dice that fit every answer of this round, in slot order (the wolf is one of them)."""
        return sorted(self.candidates, key=geometry.SLOT_INDEX.__getitem__)

    def hider(self) -> Seat:
        """Who chooses the wolf for this round: the player after the shepherd."""
        return self.next_player(self.shepherd())

    def flock_funnels(self) -> list[Slot]:
        """The free funnels of the flock, where a dog can stand."""
        occupied = set(self.state)
        return [s for s in geometry.layer_slots(FLOCK_LAYER) if is_open_for(occupied, s)]

    def legal(self) -> list[Action]:
        if self.clearing:
            return [Remove(self.clearing[0])]
        black = self.black_dice()
        if self.chosen and self.wolf is None:
            return [Hide(s) for s in black]
        dogs: list[Action] = [Place(s, "red") for s in self.flock_funnels()]
        return dogs + [Accuse(s) for s in black if s not in self.asked]

    def told(self, action: Action) -> str:
        """The choice of the wolf is told only as made."""
        return "hide the wolf (chosen in secret)" if isinstance(action, Hide) else str(action)

    def secret(self, player: Seat) -> str:
        """The chosen wolf, to every player but the shepherd, until it is found."""
        if self.wolf is None or player == self.shepherd() or self.clearing:
            return ""
        return f"the wolf is {slot_label(self.wolf)} {self.wolf}"

    def belief(self, slots: list[Slot]) -> list[float]:
        """How likely each of ``slots`` is the chosen wolf to a shepherd: e to the power of ``-HIDE_WEIGHT``
        per funnel whose dog would see it (``cover``). Sums to 1."""
        logits = [-self.HIDE_WEIGHT * self.cover.get(s, 0) for s in slots]
        top = max(logits)
        weights = [math.exp(v - top) for v in logits]
        total = sum(weights)
        return [w / total for w in weights]

    def redeal(self, player: Seat, rng: np.random.Generator) -> None:
        """The chosen wolf, for its shepherd, drawn again among the dice that fit the answers (``belief``)."""
        if self.wolf is None or player != self.shepherd() or self.clearing:
            return
        pool = self.pool()
        self.wolf = pool[int(rng.choice(len(pool), p=self.belief(pool)))]

    def answer(self, seen: Iterable[Slot]) -> bool:
        """Whether the wolf is among ``seen`` (drawn among the candidates if nobody chose it); the candidates
        shrink to fit."""
        if self.wolf is not None:
            wolf = self.wolf
        else:
            pool = self.pool()
            wolf = pool[int(self.rng.integers(len(pool)))]
        seen = set(seen)
        self.candidates = self.candidates & seen if wolf in seen else self.candidates - seen
        return wolf in seen

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.clearing.pop(0)
            if not self.clearing:
                self.new_round()
            return
        if isinstance(action, Hide):
            self.wolf = action.slot
            self.to_move = self.shepherd()
            self.events.append(f"player {player} has chosen the wolf: player {self.to_move}, find it")
            return
        self.dogs[player] += 1
        if isinstance(action, Place):
            yes = self.answer(sight(self.state.cells, action.slot))
            self.events.append(f"the dog at {action.slot} {'sees' if yes else 'does not see'} the wolf")
            return
        assert isinstance(action, Accuse)
        self.asked.add(action.slot)
        if not self.answer({action.slot}):
            self.events.append(f"{action.slot} is not the wolf")
            return
        self.events.append(f"{action.slot} is the wolf: player {player} found it with {self.dogs[player]} dogs")
        self.rounds += 1
        if self.rounds < self.players:
            self.clearing = [s for s in geometry.layer_slots(FLOCK_LAYER) if s in self.state]
            if not self.clearing:
                self.new_round()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(d) for d in self.dogs)

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        best = min(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def projected(self, player: Seat) -> float:
        """``player``'s dogs so far and about those still to come: the rest of the round, or a whole round."""
        if player < self.rounds:
            return float(self.dogs[player])
        if player == self.rounds and not self.clearing:
            return self.dogs[player] + search_cost(self.hidden_among(self.candidates))
        black = self.black_dice()
        return self.dogs[player] + search_cost(self.hidden_among(black))

    def hidden_among(self, slots: Iterable[Slot]) -> float:
        """How many dice the wolf hides among, to a shepherd who knows it is one of ``slots``: their number when
        it is drawn; when chosen, 2 to the power of the entropy (bits) of the shepherd's ``belief``."""
        pool = list(slots)
        if not self.chosen or len(pool) < 2:
            return float(len(pool))
        return 2.0 ** -sum(p * math.log2(p) for p in self.belief(pool) if p > 0)

    def advantage(self, player: Seat) -> float:
        projected = [self.projected(p) for p in range(self.players)]
        return min((v for p, v in enumerate(projected) if p != player), default=0.0) - projected[player]

    def termination(self) -> Termination | None:
        return Termination.ROUNDS_PLAYED if self.rounds >= self.players else None

    def heuristic(self, action: Action) -> float | None:
        """The shepherd's: less the dog and about the dogs still to come after each answer, the candidates
        counted alike (greedy has no belief of the hider); the hider's: the fewer funnels whose dogs would
        see the die, the better."""
        n = len(self.candidates)
        if isinstance(action, Place):
            m = len(self.candidates & sight(self.state.cells, action.slot))
            return -1.0 - (m * search_cost(m) + (n - m) * search_cost(n - m)) / n
        if isinstance(action, Accuse):
            if action.slot not in self.candidates:
                return -2.0 - search_cost(n)
            return -1.0 - (n - 1) / n * search_cost(n - 1)
        if isinstance(action, Hide):
            return -float(self.cover[action.slot])
        return 0.0


# --- The Pharaoh's Curse ----------------------------------------------------------------------

WALL = 3.0  # turns to pass a green die whose number is high: two rolls on average until it is low, then the walk
BASE = frozenset(geometry.BASE_SLOTS)
Doors = tuple[bool, bool, bool]  # a die's doors: along each row family (``geometry.row_axis``), low or not


def doors(cell: Cell | None) -> Doors:
    """Along which row families the die ``cell`` lets an explorer in: where the number pointing along the row
    (``geometry.pointing_face``) is low, 1, 2 or 3."""
    if cell is None or cell.up is None or cell.colour != "green":
        return (False, False, False)
    return (cell.up[0] <= 3, cell.up[1] <= 3, cell.up[2] <= 3)


# How likely each pattern of doors is for a die rolled: over its 24 ways to land, one face of each opposite pair up.
ROLLED: tuple[tuple[Doors, float], ...] = tuple(
    (pattern, n / 24) for pattern, n in Counter((a <= 3, b <= 3, c <= 3) for a, b, c in geometry.ALL_UP_FACES).items()
)


def maze_turns(
    cells: Mapping[Slot, Cell], start: Slot, goal: Slot, closed: Iterable[Slot] = (), rolled: Slot | None = None
) -> dict[Doors, float]:
    """The fewest turns an explorer in ``start`` needs to walk into ``goal``: 1 through a door, ``WALL`` through a
    high number (rolled until low), never through ``closed`` (the other explorers); 99 when cut off.

    ``rolled``: a die whose doors are not known yet (it is being rolled): the turns for each of its patterns.
    """
    shut = set(closed)
    patterns: tuple[Doors, ...] = tuple(p for p, _ in ROLLED) if rolled is not None else ((False, False, False),)
    out = {}
    for pattern in patterns:
        best = {start: 0.0}
        frontier = [(0.0, start)]
        while frontier:
            here_cost, here = heapq.heappop(frontier)
            if here == goal:
                break
            if here_cost > best[here]:
                continue
            for direction in geometry.NEIGHBOUR_STEPS:
                there = (here[0] + direction[0], here[1] + direction[1], here[2] + direction[2])
                if there not in BASE or there in shut:
                    continue
                door = (pattern if there == rolled else doors(cells.get(there)))[geometry.row_axis(direction)]
                cost = here_cost + (1.0 if door else WALL)
                if cost < best.get(there, math.inf):
                    best[there] = cost
                    heapq.heappush(frontier, (cost, there))
        out[pattern] = best.get(goal, 99.0)
    return out


class PharaohsCurse(Game):
    """The Pharaoh's Curse (no. 50), by Carsten Volle.

    Setup: 42 green dice are rolled into the base funnels, all but the three middle funnels of the
    edges, as they fall; the explorers stand in those: player 0 red in (0, 4, 4), player 1 blue in
    (4, 0, 4), player 2 black in (4, 4, 0).
    Turn: either walk: your explorer changes places with the green die in a neighbouring base
    funnel whose number pointing along the row through both funnels (``geometry.pointing_face``) is
    low, 1, 2 or 3 (a door; 4, 5 or 6 is a wall); the green die goes into the funnel the explorer
    left, faces kept (one ``Move`` of both dice); or roll: lift a green die next to your explorer,
    roll it and set it back into its funnel as it lands (a ``Reroll``, its ``Remove`` and a ``Place``).
    Legal actions: the walks and the rolls; a pass only when you have neither (other explorers all round).
    Scoring: 1 to the explorer who arrives.
    End: the first explorer to walk into the corner funnel opposite its start (player 0 (8, 0, 0), 1
    (0, 8, 0), 2 (0, 0, 8)) wins. Everyone passing in a row ends it with nobody arrived (all share).
    Interpretation: the list of moves is lost (only the translator's "either-or" survives). The
    book fills the plate: 42 green dice in the 42 funnels the explorers leave free, so the
    explorers cannot step into empty funnels, and the maze can only be in the dice: "placed
    randomly" is read as rolled, their numbers the doors and walls; the either-or as walking
    through a door or rolling a die to open (or close) one. An explorer enters the exit's green die
    like any other. (Options: none; the earlier reading, a random heap of 42 dice in the pyramid
    with empty funnels to step into, put dice where the book puts none.)
    """

    info = GameInfo(50, "The Pharaoh's Curse", "T", (3,), "42 green, 1 red, 1 blue, 1 black die", ("pharaoh",), 507)
    house_rules = (
        "The moves are lost: a turn either walks the explorer into a neighbouring funnel, changing places with its "
        "green die, when that die's number pointing along the row between them is low (1, 2 or 3: a door; 4 to 6 is "
        "a wall), or rolls a green die next to the explorer and sets it back as it lands. The 42 green dice fill the "
        "base around the explorers, rolled; an explorer walking into its exit's die wins."
    )
    max_moves: ClassVar[int] = 1500
    # a search's rollouts follow every explorer's best way to the end: who arrives first, where they stand in
    # each other's way, is what a few moves ahead cannot tell (README)
    greedy_rollouts: ClassVar[int] = 60
    colours = ("red", "blue", "black")
    STARTS: ClassVar[tuple[Slot, Slot, Slot]] = ((0, 4, 4), (4, 0, 4), (4, 4, 0))
    EXITS: ClassVar[tuple[Slot, Slot, Slot]] = ((8, 0, 0), (0, 8, 0), (0, 0, 8))

    def setup(self) -> None:
        cells = {s: Cell("green", self.draw_orientation()) for s in geometry.BASE_SLOTS if s not in self.STARTS}
        cells.update({s: Cell(c, self.draw_orientation()) for s, c in zip(self.STARTS, self.colours, strict=True)})
        self.state = PyramidState(cells)
        self.explorers = list(self.STARTS)
        self.arrived: Seat | None = None
        self.passes = 0
        self.rolling: Slot | None = None  # a green die to lift and roll
        self.returning: Slot | None = None  # a rolled die to set back into its funnel

    def walks(self, player: Seat) -> list[Move]:
        """The walks of ``player``'s explorer: into each neighbouring funnel whose green die shows a door."""
        here = self.explorers[player]
        out = []
        for direction in geometry.NEIGHBOUR_STEPS:
            there = (here[0] + direction[0], here[1] + direction[1], here[2] + direction[2])
            if there in BASE and doors(self.state.get(there))[geometry.row_axis(direction)]:
                out.append(Move(((here, there), (there, here)), name=f"walk from {here} to {there}"))
        return out

    def rolls(self, player: Seat) -> list[Reroll]:
        """The green dice next to ``player``'s explorer, to roll."""
        here = self.explorers[player]
        near = [n for n in geometry.neighbours(here) if n in BASE]
        return [Reroll(n) for n in near if (c := self.state.get(n)) is not None and c.colour == "green"]

    def legal(self) -> list[Action]:
        if self.rolling is not None:
            return [Remove(self.rolling)]
        if self.returning is not None:
            return [Place(self.returning, "green")]
        return [*self.walks(self.to_move), *self.rolls(self.to_move)] or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Reroll):
            self.rolling = action.slot
            return
        if isinstance(action, Remove):
            self.rolling, self.returning = None, action.slot
            return
        self.returning = None
        if isinstance(action, Move):
            self.explorers[player] = action.steps[0][1]
            if self.explorers[player] == self.EXITS[player]:
                self.arrived = player
                self.events.append(f"the {self.colours[player]} explorer has found the exit")
        self.passes = self.passes + 1 if isinstance(action, Pass) else 0
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(p == self.arrived) for p in range(3))

    def turns_left(self, player: Seat, cells: Mapping[Slot, Cell] | None = None, start: Slot | None = None) -> float:
        """The fewest turns ``player``'s explorer (or one in ``start``) needs to its exit in ``cells``, the other
        explorers where they stand."""
        closed = [e for q, e in enumerate(self.explorers) if q != player]
        here = self.explorers[player] if start is None else start
        return maze_turns(self.state if cells is None else cells, here, self.EXITS[player], closed)[(False,) * 3]

    def advantage(self, player: Seat) -> float:
        if self.arrived is not None:
            return 10.0 if self.arrived == player else -10.0
        ways = [self.turns_left(p) for p in range(3)]
        return min(w for p, w in enumerate(ways) if p != player) - ways[player]

    def standing(self, player: Seat) -> float:
        return self.advantage(player)

    def termination(self) -> Termination | None:
        if self.arrived is not None:
            return Termination.GOAL_REACHED
        return Termination.BLOCKED if self.passes >= 3 else None

    def heuristic(self, action: Action) -> float | None:
        """Less the turns the mover still needs after ``action``: a walk as it leaves the dice, a roll over
        the patterns of doors the rolled die may show."""
        me = self.to_move
        if isinstance(action, Move):
            (source, target), _ = action.steps
            if target == self.EXITS[me]:
                return 100.0
            cells = dict(self.state.cells)
            cells[source], cells[target] = cells[target], cells[source]
            return -self.turns_left(me, cells, target)
        if isinstance(action, Reroll):
            closed = [e for q, e in enumerate(self.explorers) if q != me]
            turns = maze_turns(self.state, self.explorers[me], self.EXITS[me], closed, action.slot)
            return -sum(chance * turns[pattern] for pattern, chance in ROLLED)
        return 0.0 if isinstance(action, Remove | Place) else -50.0
