"""Games of observation and memory for children: the Clever Mole and Storing Scores.

Rules layer only (no physics): what the children see is the read-out; answers and choices of number
are ``Declare`` actions that move no die. Each class is one game of the rule book, its docstring the
rules card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from typing import ClassVar

from pyramid import geometry
from pyramid.geometry import Slot
from pyramid.rules import Action, Declare, Game, GameInfo, Place, Remove, Seat, Termination, funnel_faces
from pyramid.rules.options import Number, Options, PerPlayer, Whole
from pyramid.state import Cell, PyramidState, random_pattern

MAX_ROUNDS = 1000  # the most rounds an option may ask for

# Chance that three dice total t, for t = 3..18.
THREE_DICE: dict[int, float] = {t: 0.0 for t in range(3, 19)}
for _roll in product(range(1, 7), repeat=3):
    THREE_DICE[sum(_roll)] += 1 / 216


@dataclass(frozen=True)
class Roll(Declare):
    """Roll the three red dice for a new number."""

    def __str__(self) -> str:
        return "roll the red dice"


@dataclass(frozen=True)
class Reuse(Declare):
    """Play for the number the previous player rolled."""

    number: int

    def __str__(self) -> str:
        return f"use the predecessor's number {self.number}"


class StoringScores(Game):
    """Storing Scores (no. 15).

    Setup: the 45 base funnels hold black dice, covered at once by a layer of 36 green dice; every die
    shows any faces. Three red dice are rolled off the pyramid.
    Turn: roll the red dice (or play for your predecessor's number), then lift one green die: the
    three black faces of its funnel are totalled aloud. Equal to your number: keep the green die and
    go again with a new roll. Otherwise put it back; everybody tries to remember that total.
    Legal actions: roll, or use the predecessor's number; lift a green die; after a miss, put it back.
    Scoring: the green dice you kept.
    End: house rule: when every green die has been taken, or when every player has had 10 turns
    (option ``rounds``); the most green dice wins.
    Interpretation: "the numbers on the black dice" are the three faces forming the funnel; a turn
    ends with a miss; after a hit you roll anew. Memory lives in the players: the game records every
    total lifted so far (``revealed``), which the greedy player remembers perfectly and the random
    player ignores.
    """

    info = GameInfo(15, "Storing Scores", "O/Ch", (2, 3, 4, 5, 6), "45 black, 36 green, 3 red dice", (), 187)
    house_rules = (
        "End (lost in the seed): the game ends when every green die has been taken or every player has "
        "had 10 turns (option rounds); most green dice wins."
    )
    option_specs: ClassVar[Options] = {"rounds": Whole("turns each player gets (default 10)", 1, MAX_ROUNDS)}

    def setup(self) -> None:
        cells = {s: Cell("black", self.draw_orientation()) for s in geometry.BASE_SLOTS}
        cells |= {s: Cell("green", self.draw_orientation()) for s in geometry.layer_slots(geometry.BASE_LAYER - 1)}
        self.state = PyramidState(cells)
        self.kept = [0] * self.players
        self.turns = 0
        self.target: int | None = None
        self.predecessor: int | None = None
        self.lifted: tuple[Slot, Cell] | None = None
        self.revealed: dict[Slot, int] = {}

    def green(self) -> list[Slot]:
        """The green dice still covering funnels."""
        return [s for s, c in self.state.items() if c.colour == "green" and geometry.layer(s) == 7]

    def legal(self) -> list[Action]:
        if self.lifted is not None:
            slot, cell = self.lifted
            return [Place(slot, cell.colour, cell.up)]
        if self.target is None:
            choices: list[Action] = [Roll()]
            return choices + ([Reuse(self.predecessor)] if self.predecessor is not None else [])
        return [Remove(s) for s in self.green()]

    def _roll_target(self) -> None:
        rolls = [int(self.rng.integers(1, 7)) for _ in range(3)]
        self.target = sum(rolls)
        self.events.append(f"player {self.to_move} rolls {rolls[0]}+{rolls[1]}+{rolls[2]} = {self.target}")

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Roll):
            self._roll_target()
        elif isinstance(action, Reuse):
            self.target = action.number
        elif isinstance(action, Remove):
            faces = funnel_faces(self.state, action.slot) or (0, 0, 0)
            total = sum(faces)
            self.revealed[action.slot] = total
            self.events.append(f"under {action.slot}: {faces[0]}+{faces[1]}+{faces[2]} = {total}")
            if total == self.target:
                self.kept[player] += 1
                self._roll_target()
            else:
                self.lifted = (action.slot, before[action.slot])
        elif isinstance(action, Place):
            self.lifted = None
            self.predecessor, self.target = self.target, None
            self.turns += 1
            self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.kept)

    def termination(self) -> Termination | None:
        if not self.green() and self.lifted is None:
            return Termination.ALL_TAKEN
        return Termination.ROUNDS_PLAYED if self.turns >= self.option("rounds", 10) * self.players else None

    def chance(self, number: int) -> float:
        """The chance of a hit for ``number``, remembering every total lifted so far."""
        known = {self.revealed[s] for s in self.green() if s in self.revealed}
        return 1.0 if number in known else THREE_DICE.get(number, 0.0)

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, Roll):
            return sum(p * self.chance(t) for t, p in THREE_DICE.items())
        if isinstance(action, Reuse):
            return self.chance(action.number)
        if isinstance(action, Remove) and self.target is not None:
            if action.slot in self.revealed:
                return float(self.revealed[action.slot] == self.target)
            return THREE_DICE.get(self.target, 0.0)
        return 0.0


# The six mole hills: 10-die pyramids whose tops sit in layer 6, in the three corners and between them.
HILL_APEXES: tuple[Slot, ...] = ((6, 0, 0), (0, 6, 0), (0, 0, 6), (3, 3, 0), (0, 3, 3), (3, 0, 3))
HILL_NAMES: tuple[str, ...] = ("corner a", "corner b", "corner c", "edge ab", "edge bc", "edge ca")
SIDE_NAMES: tuple[str, ...] = ("bc", "ca", "ab")  # a hill's side along +i faces the plate edge bc, ...
FACE_WORDS: tuple[str, ...] = ("", "ones", "twos", "threes", "fours", "fives", "sixes")
# Which kinds of clue the game master uses at each difficulty.
CLUE_KINDS: dict[int, tuple[str, ...]] = {
    1: ("top", "colour"),
    2: ("top", "colour", "top eyes", "side eyes"),
    3: ("top", "colour", "top eyes", "side eyes", "side face"),
}
Clue = tuple[str, tuple[object, ...], int | str]  # (kind, what, value)


def hill_features(state: PyramidState, apex: Slot) -> dict[tuple[str, tuple[object, ...]], int | str]:
    """What a child sees of the hill topped at ``apex``: colours, the top die, each side's faces."""
    slots = [s for s in geometry.small_pyramid(10, apex) if s in state]
    top = state.get(apex)
    out: dict[tuple[str, tuple[object, ...]], int | str] = {}
    out["top", ()] = top.colour if top is not None else "none"
    for colour in ("red", "green", "black", "blue", "gold"):
        out["colour", (colour,)] = sum(1 for s in slots if state[s].colour == colour)
    sides: list[list[int]] = [[], [], []]
    for s, axis in geometry.exposed_faces(slots):
        up = state[s].up
        if up is not None and s[axis] == apex[axis]:
            sides[axis].append(up[axis])
    if top is not None and top.up is not None:
        out["top eyes", ()] = sum(top.up)
    for axis, faces in enumerate(sides):
        out["side eyes", (axis,)] = sum(faces)
        for face in range(1, 7):
            out["side face", (axis, face)] = faces.count(face)
    return out


def clue_text(clue: Clue) -> str:
    """The game master's words for one clue."""
    kind, what, value = clue
    if kind == "top":
        return f"the top die is {value}"
    if kind == "colour":
        return f"{value or 'no'} {'die is' if value == 1 else 'dice are'} {what[0]}"
    if kind == "top eyes":
        return f"looking from below, I see {value} eyes on the top die"
    side = SIDE_NAMES[int(str(what[0]))]
    if kind == "side eyes":
        return f"side {side} shows {value} eyes in all"
    word = FACE_WORDS[int(str(what[1]))]
    return f"side {side} shows {value or 'no'} {word[:-1] if value == 1 else word}"


@dataclass(frozen=True)
class Point(Declare):
    """Point at the hill the mole hides under."""

    hill: int

    def __str__(self) -> str:
        return f"point at hill {self.hill + 1} ({HILL_NAMES[self.hill]})"


def _per_player(given: tuple[float, ...], players: int, draw: Callable[[], float]) -> list[float]:
    """The values of a ``PerPlayer`` option, one per player; each drawn when the option is not given."""
    return list(given) if given else [draw() for _ in range(players)]


class CleverMole(Game):
    """The Clever Mole (no. 14): an observation game for children of 5 and up, with a game master.

    Setup: six mole hills, 10-die pyramids of dice drawn at random from the set, stand on the plate:
    in the three corners and between them. Each child has a seeded speed (median reaction time) and
    accuracy (options ``speeds``, ``accuracy``).
    Turn: the game master (the game) hides the mole under a hill and describes that hill by clues
    read off the pyramid until only that hill fits; then every child points at a hill.
    Legal actions: point at one of the six hills.
    Scoring: one point per round for the fastest child who pointed at the right hill.
    End: after 10 rounds (option ``rounds``); the most points wins.
    Interpretation: the master's example descriptions are lost; clues are the top die's colour or
    eyes, how many dice of a colour, a side's eyes in all or how many faces of a number it shows
    (difficulty 1 colours only, 2 also eyes, 3 also faces; option ``difficulty``). A child's answer
    slips to another hill with chance 1 - accuracy; reaction times are lognormal about the child's
    median, longer for longer descriptions. Sides are named by the plate edge they face.
    """

    info = GameInfo(14, "The Clever Mole", "O", (2, 3, 4, 5, 6), "6 hills of 10 mixed dice", ("mole",), 179)
    option_specs: ClassVar[Options] = {
        "rounds": Whole("rounds played (default 10)", 1, MAX_ROUNDS),
        "difficulty": Whole("1 colours, 2 also eyes (default), 3 also faces on a side", 1, 3),
        "speeds": PerPlayer(
            "median reaction seconds per child, e.g. 3,5 (default drawn from 2..6)", Number("", 0.0, 600.0, above=True)
        ),
        "accuracy": PerPlayer(
            "chance per child to point where meant, e.g. 0.9,0.8 (default drawn from 0.75..0.95)", Number("", 0.0, 1.0)
        ),
    }

    def setup(self) -> None:
        slots = [s for apex in HILL_APEXES for s in geometry.small_pyramid(10, apex)]
        self.state = random_pattern(slots, self.rng, random_faces=True)
        self.speeds = _per_player(self.option("speeds", ()), self.players, lambda: float(self.rng.uniform(2, 6)))
        self.accuracy = _per_player(
            self.option("accuracy", ()), self.players, lambda: float(self.rng.uniform(0.75, 0.95))
        )
        self.points = [0] * self.players
        self.rounds = 0
        self.answers: list[int] = []
        for hill in range(len(HILL_APEXES)):
            self.events.append(self.view(hill))
        self.new_round()

    def view(self, hill: int) -> str:
        """What a child sees of ``hill``, in words: its colours, its top die and the faces on each side."""
        seen = hill_features(self.state, HILL_APEXES[hill])
        colours = ", ".join(f"{seen['colour', (c,)]} {c}" for c in ("red", "green", "black", "blue", "gold"))
        sides = "; ".join(
            f"side {SIDE_NAMES[a]} " + "".join(str(f) * int(seen["side face", (a, f)]) for f in range(1, 7))
            for a in range(3)
        )
        return f"hill {hill + 1} ({HILL_NAMES[hill]}): top {seen['top', ()]}; {colours}; {sides}"

    def features(self) -> list[dict[tuple[str, tuple[object, ...]], int | str]]:
        """Each hill's features as the children see them now."""
        return [hill_features(self.state, apex) for apex in HILL_APEXES]

    def new_round(self) -> None:
        """Hide the mole and describe its hill."""
        kinds = CLUE_KINDS[self.option("difficulty", 2)]
        seen = self.features()
        for _ in range(50):
            self.target = int(self.rng.integers(len(HILL_APEXES)))
            own = [(k, w, v) for (k, w), v in seen[self.target].items() if k in kinds]
            order = self.rng.permutation(len(own))
            fits: set[int] = set(range(len(HILL_APEXES)))
            self.clues: list[Clue] = []
            for n in order:
                kind, what, value = own[int(n)]
                rest = {h for h in fits if seen[h].get((kind, what)) == value}
                if rest != fits:
                    fits, self.clues = rest, [*self.clues, own[int(n)]]
                if fits == {self.target}:
                    self.events.append("the mole hides under a hill where " + "; ".join(map(clue_text, self.clues)))
                    return
            kinds = CLUE_KINDS[3]
        raise ValueError("two mole hills look exactly alike; rebuild them")

    def fits(self, hill: int) -> bool:
        """Whether ``hill`` matches the master's description."""
        seen = hill_features(self.state, HILL_APEXES[hill])
        return all(seen.get((kind, what)) == value for kind, what, value in self.clues)

    def legal(self) -> list[Action]:
        return [Point(h) for h in range(len(HILL_APEXES))]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Point):
            self.answers.append(action.hill)
        if len(self.answers) < self.players:
            self.to_move = self.next_player()
            return
        slow = 1 + 0.5 * (len(self.clues) - 1)
        times = [self.speeds[p] * slow * float(self.rng.lognormal(0.0, 0.3)) for p in range(self.players)]
        for p in range(self.players):
            if self.rng.random() > self.accuracy[p]:
                self.answers[p] = int(self.rng.choice([h for h in range(len(HILL_APEXES)) if h != self.answers[p]]))
        right = [p for p in range(self.players) if self.answers[p] == self.target]
        self.events.append(
            f"the mole was under hill {self.target + 1}; "
            + ", ".join(f"player {p} hill {self.answers[p] + 1} in {times[p]:.1f} s" for p in range(self.players))
        )
        if right:
            first = min(right, key=lambda p: times[p])
            self.points[first] += 1
            self.events.append(f"player {first} was first to find it")
        self.rounds += 1
        self.answers, self.to_move = [], 0
        if self.rounds < self.option("rounds", 10):
            self.new_round()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.points)

    def termination(self) -> Termination | None:
        return Termination.ROUNDS_PLAYED if self.rounds >= self.option("rounds", 10) else None

    def heuristic(self, action: Action) -> float | None:
        return float(self.fits(action.hill)) if isinstance(action, Point) else 0.0
