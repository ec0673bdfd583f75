"""Games of taking the pyramid apart: free dice are removed and scored by colour or counted.

Rules layer only (no physics): each class is one game of the rule book, its docstring the rules card.
"""

from __future__ import annotations

from typing import ClassVar

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.geometry import Slot
from pyramid.rules import (
    Action,
    Game,
    GameInfo,
    Pass,
    Remove,
    RemoveColumn,
    Seat,
    Termination,
    free_slots,
    funnel_faces,
)
from pyramid.state import PyramidState, random_pattern

DADO_VALUES: dict[Colour, int] = {"gold": 10, "blue": 5, "green": 3, "black": 2, "red": 1}


class Demolition(Game):
    """Shared bookkeeping of the demolition games: a full random pyramid, free dice taken in turn."""

    stock: ClassVar[dict[Colour, int]] = COUNTS
    random_faces: ClassVar[bool] = False
    values: ClassVar[dict[Colour, int]] = DADO_VALUES

    def setup(self) -> None:
        self.state = random_pattern(geometry.SLOTS, self.rng, self.stock, self.random_faces)
        self.taken: list[list[Colour]] = [[] for _ in range(self.players)]

    def legal(self) -> list[Action]:
        return [Remove(s) for s in free_slots(self.state)]

    def credit(self, player: Seat, action: Action, before: PyramidState) -> None:
        """Give ``player`` the dice that ``action`` took out of ``before``."""
        slots = (
            action.slots if isinstance(action, RemoveColumn) else (action.slot,) if isinstance(action, Remove) else ()
        )
        self.taken[player] = self.taken[player] + [before[s].colour for s in slots if s in before]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.credit(player, action, before)
        self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(sum(self.values.get(c, 0) for c in taken)) for taken in self.taken)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_CLEARED if not self.state else None

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, Remove):
            return float(self.values.get(self.state[action.slot].colour, 0))
        if isinstance(action, RemoveColumn):
            return float(sum(self.values.get(self.state[s].colour, 0) for s in action.slots))
        return 0.0


class ElDado(Demolition):
    """El Dado (no. 39), by Karin Wittig.

    Setup: the complete pyramid, its 165 dice drawn at random from the whole set (90 red, 90 green,
    90 black, 10 blue, 1 gold). Colours score gold 10, blue 5, green 3, black 2, red 1.
    Turn: remove one die; skipping is not allowed.
    Legal actions: remove a free die (nothing rests on it).
    Scoring: the points of the dice you took.
    End: when the pyramid has been removed completely; the highest total wins.
    Interpretation: only free dice may be taken (implied by the seed).
    """

    info = GameInfo(39, "El Dado", "D", (2, 3, 4, 5, 6), "full pyramid of mixed colours", ("dado",), 406)


class Asparagus(Demolition):
    """Asparagus (no. 40), by Heike Kaufmann.

    Setup: as El Dado: the complete random pyramid; gold 10, blue 5, green 3, black 2, red 1.
    Turn: remove one free die or one column of dice of the same colour; skipping is not allowed.
    Legal actions: remove a free die; or a column: a free die and the dice straight below it along
    one cube axis (one pyramid edge direction), all of its colour, each free once those above it are
    gone, taken top first.
    Scoring: the points of the dice you took.
    End: when the pyramid has been removed completely; the highest total wins.
    Interpretation: a "column" is a straight line of dice resting face to face (as in Triops), of any
    length of at least two.
    """

    info = GameInfo(40, "Asparagus", "D", (2, 3, 4, 5, 6), "full pyramid of mixed colours", ("spargel",), 419)

    def columns(self, top: Slot) -> list[RemoveColumn]:
        """Every same-colour column that starts at the free die ``top``."""
        out = []
        colour = self.state[top].colour
        for axis in range(3):
            gone = {top}
            line = [top]
            while True:
                nxt = (line[-1][0] + (axis == 0), line[-1][1] + (axis == 1), line[-1][2] + (axis == 2))
                cell = self.state.get(nxt)
                if cell is None or cell.colour != colour:
                    break
                if any(r in self.state and r not in gone for r in geometry.resting_on(nxt)):
                    break
                line.append(nxt)
                gone.add(nxt)
                out.append(RemoveColumn(tuple(line)))
        return out

    def legal(self) -> list[Action]:
        free = free_slots(self.state)
        out: list[Action] = [Remove(s) for s in free]
        for s in free:
            out.extend(self.columns(s))
        return out


class Doubles(Demolition):
    """Doubles (no. 41), by Jürgen Wagner and Reinhold Wittig.

    Setup: the complete pyramid of red, green and black dice mixed at random, each die showing any faces.
    Turn: remove one die. If the three faces of the funnel it leaves show doubles you may take one
    more die; triples, two more. The bonus dice earn bonuses in the same way (chain reaction).
    Legal actions: remove a free die; while you hold bonus dice, you may also pass.
    Scoring: the number of dice you took.
    End: when the pyramid has been removed completely; most dice wins.
    Interpretation: only free dice may be taken; a base die leaves no funnel (the plate's funnels
    show no numbers); bonus dice add up; passing ends the turn and forfeits the rest.
    """

    info = GameInfo(41, "Doubles", "D", (2, 3, 4, 5, 6), "full pyramid, red, green, black, random faces", (), 425)
    stock: ClassVar[dict[Colour, int]] = {"red": 90, "green": 90, "black": 90}
    random_faces: ClassVar[bool] = True

    def setup(self) -> None:
        super().setup()
        self.bonus = 0

    def legal(self) -> list[Action]:
        return super().legal() + ([Pass()] if self.bonus > 0 else [])

    def scores(self) -> tuple[float, ...]:
        return tuple(float(len(t)) for t in self.taken)

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.credit(player, action, before)
        if isinstance(action, Pass):
            self.bonus = 0
        else:
            self.bonus = max(0, self.bonus - 1)
            faces = funnel_faces(self.state, action.slot) if isinstance(action, Remove) else None
            if faces is not None:
                extra = {3: 0, 2: 1, 1: 2}[len(set(faces))]
                if extra:
                    self.events.append(f"funnel shows {faces}: {extra} more")
                self.bonus += extra
        if self.bonus == 0 or not self.state:
            self.bonus = 0
            self.to_move = self.next_player()

    def heuristic(self, action: Action) -> float | None:
        return 0.0 if isinstance(action, Pass) else 1.0


class Favourite(Demolition):
    """Favourite (no. 42), by Eberhard Wegner.

    Setup: the complete pyramid of red, green and black dice mixed at random.
    Turn: remove one die: "green before black before red".
    Legal actions: a free green die; only if none is free, a free black die; only then a free red die.
    Scoring: green 3, black 2, red 1 point for each die you took.
    End: when the pyramid has been removed completely. The player to the LEFT of the top scorer (the
    next in turn order) wins.
    Interpretation: when several players tie for the top score, the players to the left of each of
    them share the win; the colours are red, green and black (the translator's inference).
    """

    info = GameInfo(42, "Favourite", "D", (2, 3, 4, 5, 6), "full pyramid, red, green, black", (), 430)
    stock: ClassVar[dict[Colour, int]] = {"red": 90, "green": 90, "black": 90}
    values: ClassVar[dict[Colour, int]] = {"green": 3, "black": 2, "red": 1}

    def legal(self) -> list[Action]:
        free = free_slots(self.state)
        for colour in ("green", "black", "red"):
            chosen = [Remove(s) for s in free if self.state[s].colour == colour]
            if chosen:
                return list(chosen)
        return []

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        best = max(scores)
        return tuple(sorted({self.next_player(p) for p, s in enumerate(scores) if s == best}))

    def advantage(self, player: Seat) -> float:
        s = self.scores()
        right = (player - 1) % self.players
        return s[right] - max((v for p, v in enumerate(s) if p != right), default=0.0)

    def heuristic(self, action: Action) -> float | None:
        return None
