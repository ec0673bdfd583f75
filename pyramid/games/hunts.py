"""Hunts on the plate (rule book 47, 50): dogs looking for a hidden wolf, explorers in a maze of dice.

Rules layer only (no physics). A dog is a ``Place`` on the flock, a question about one die and the
choice of the wolf are ``Declare``s; an explorer's move is the jump of ``pyramid.moves`` carried out as
one ``Move``. The chosen wolf is a secret: told to the others only as chosen (``told``), shown only
to the players who are not the shepherd (``secret``), and drawn afresh in a shepherd's copies
(``redeal``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from pyramid import geometry
from pyramid.drawing import slot_label
from pyramid.geometry import Slot
from pyramid.moves import is_open_for, jump_targets
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


def maze_distances(greens: frozenset[Slot], goal: Slot, blocked: frozenset[Slot] = frozenset()) -> dict[Slot, int]:
    """Moves an explorer needs from each slot it can stand in to ``goal``, through the dice ``greens`` alone
    (and never through the slots ``blocked``: other explorers standing there).

    An explorer stands in a base funnel or on green dice only, and nothing rests on it, so a jump
    and its way back are both legal: a search out from the goal gives the distances to it.
    """
    found = {goal: 0}
    frontier = [goal]
    while frontier:
        later = []
        for here in frontier:
            for there in jump_targets(greens | {here}, here):
                if there not in found and there not in blocked and all(s in greens for s in geometry.supports(there)):
                    found[there] = found[here] + 1
                    later.append(there)
        frontier = later
    return found


class PharaohsCurse(Game):
    """The Pharaoh's Curse (no. 50), by Carsten Volle.

    Setup: 42 green dice are set into the pyramid at random, one by one, each in a slot drawn from
    those where it can rest (a random heap: most in the base, some on top); the middle funnels of
    the edges and the three corner funnels stay empty. The explorers: player 0 red in (0, 4, 4),
    player 1 blue in (4, 0, 4), player 2 black in (4, 4, 0). A heap where an explorer could not
    reach its exit is drawn again.
    Turn: move your explorer once: a step to a neighbouring empty funnel of its layer, or a climb up
    (or down) a green die, the jump of game 55 (``pyramid.moves``: arms of 1 and 1 in the layer, of
    2 and 1 one layer up or down). An explorer stands only on green dice: never on another explorer.
    Legal actions: those moves; a pass only when you have none.
    Scoring: 1 to the explorer who arrives.
    End: the first explorer in the corner funnel opposite its start (player 0 (8, 0, 0), 1 (0, 8, 0),
    2 (0, 0, 8)) wins. Everyone passing in a row, or the turn limit (300 actions), ends it with
    nobody arrived (all share).
    Interpretation: the list of moves is lost (only the translator's "either-or" survives): a turn
    is either a step or a climb. The corner funnels stay empty so that the exit is a funnel to step
    into; 42 green dice in the 42 other funnels would leave no maze, so "placed randomly" is read
    as a random heap.
    """

    info = GameInfo(50, "The Pharaoh's Curse", "T", (3,), "42 green, 1 red, 1 blue, 1 black die", ("pharaoh",), 507)
    house_rules = (
        "The moves are lost: a turn is a step to a neighbouring empty funnel or a climb up or down a green die (the "
        "jump of game 55); never onto another explorer. The 42 green dice form a random heap, the corner funnels "
        "(the exits) stay empty; a heap where an explorer cannot reach its exit is drawn again."
    )
    max_moves: ClassVar[int] = 300
    # a search's rollouts follow every explorer's shortest way to the end: who arrives first, where
    # they stand in each other's way, is what a few moves ahead cannot tell (README)
    greedy_rollouts: ClassVar[int] = 60
    colours = ("red", "blue", "black")
    STARTS: ClassVar[tuple[Slot, Slot, Slot]] = ((0, 4, 4), (4, 0, 4), (4, 4, 0))
    EXITS: ClassVar[tuple[Slot, Slot, Slot]] = ((8, 0, 0), (0, 8, 0), (0, 0, 8))

    def setup(self) -> None:
        self.mazes: dict[frozenset[Slot], list[dict[Slot, int]]] = {}
        while True:
            greens = self.heap(42)
            ways = [maze_distances(greens, goal) for goal in self.EXITS]
            if all(start in ways[p] for p, start in enumerate(self.STARTS)):
                break
        self.mazes[greens] = ways
        self.detours: dict[tuple[frozenset[Slot], frozenset[Slot], Seat], dict[Slot, int]] = {}
        cells = {s: Cell("green", self.draw_orientation()) for s in greens}
        cells.update({s: Cell(c, self.draw_orientation()) for s, c in zip(self.STARTS, self.colours, strict=True)})
        self.state = PyramidState(cells)
        self.explorers = list(self.STARTS)
        self.arrived: Seat | None = None
        self.passes = 0

    def heap(self, dice: int) -> frozenset[Slot]:
        """``dice`` slots drawn one by one among those where a die can rest, the start and exit funnels kept empty."""
        kept = set(self.STARTS) | set(self.EXITS)
        occupied: set[Slot] = set()
        for _ in range(dice):
            open_ = [s for s in geometry.SLOTS if s not in kept and is_open_for(occupied, s)]
            occupied.add(open_[int(self.rng.integers(len(open_)))])
        return frozenset(occupied)

    def green_dice(self) -> frozenset[Slot]:
        """The slots of the green dice on the plate now (read from the state, which the world's poses set)."""
        return frozenset(s for s, c in self.state.items() if c.colour == "green")

    def distances(self, greens: frozenset[Slot] | None = None) -> list[dict[Slot, int]]:
        """Each player's distances to their exit through the green dice (by default those on the plate)."""
        if greens is None:
            greens = self.green_dice()
        if greens not in self.mazes:
            self.mazes[greens] = [maze_distances(greens, goal) for goal in self.EXITS]
        return self.mazes[greens]

    def moves_of(self, player: Seat) -> list[Move]:
        """The steps and climbs of ``player``'s explorer."""
        source = self.explorers[player]
        out = []
        for t in jump_targets(set(self.state), source):
            if all(self.state[s].colour == "green" for s in geometry.supports(t)):
                verb = "step" if sum(t) == sum(source) else "climb" if sum(t) < sum(source) else "climb down"
                out.append(Move(((source, t),), name=f"{verb} from {source} to {t}"))
        return out

    def legal(self) -> list[Action]:
        return list(self.moves_of(self.to_move)) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Move):
            self.explorers[player] = action.steps[0][1]
            if self.explorers[player] == self.EXITS[player]:
                self.arrived = player
                self.events.append(f"the {self.colours[player]} explorer has found the exit")
        self.passes = self.passes + 1 if isinstance(action, Pass) else 0
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(p == self.arrived) for p in range(3))

    def way_left(self, player: Seat, slot: Slot | None = None) -> int:
        """Moves ``player``'s explorer (or one in ``slot``) still needs to its exit, others aside (99 if cut off)."""
        return self.distances()[player].get(self.explorers[player] if slot is None else slot, 99)

    def advantage(self, player: Seat) -> float:
        if self.arrived is not None:
            return 10.0 if self.arrived == player else -10.0
        return min(self.way_left(p) for p in range(3) if p != player) - self.way_left(player)

    def way_around(self, player: Seat) -> int:
        """Moves ``player``'s explorer needs to its exit around the other explorers where they stand now
        (its way through them plus 4 when they cut it off: they will move on)."""
        greens = self.green_dice()
        blocked = frozenset(e for q, e in enumerate(self.explorers) if q != player)
        key = (greens, blocked, player)
        if key not in self.detours:
            self.detours[key] = maze_distances(greens, self.EXITS[player], blocked)
        return self.detours[key].get(self.explorers[player], self.way_left(player) + 4)

    def standing(self, player: Seat) -> float:
        """The race as ``advantage``, with each explorer's way around the others where they stand: a search
        sees what standing in another's way is worth."""
        if self.arrived is not None:
            return self.advantage(player)
        ways = [self.way_around(p) for p in range(3)]
        return min(w for p, w in enumerate(ways) if p != player) - ways[player]

    def termination(self) -> Termination | None:
        if self.arrived is not None:
            return Termination.GOAL_REACHED
        return Termination.BLOCKED if self.passes >= 3 else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return -50.0
        return -float(self.way_left(self.to_move, action.steps[0][1]))
