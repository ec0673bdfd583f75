"""Board games on the plate (rule book 45 to 54): dice stand in the 45 base funnels and move between them.

Rules layer only (no physics). Neighbours and rows are ``pyramid.geometry``'s; a move is a ``Move``
(a hand lifts the die and sets it down, faces kept) and a capture a ``Remove`` by the capturing
player right after it, so physical play carries out and reads back every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot
from pyramid.rules import PLAYER_COLOURS, Action, Game, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.state import Cell, PyramidState

BASE = frozenset(geometry.BASE_SLOTS)


def on_edge(slot: Slot) -> bool:
    """Whether the base funnel ``slot`` lies on an edge of the plate."""
    return min(slot) == 0


def step(slot: Slot, direction: Slot, times: int = 1) -> Slot:
    """``slot`` moved ``times`` neighbour steps along ``direction`` (may leave the plate)."""
    return (slot[0] + times * direction[0], slot[1] + times * direction[1], slot[2] + times * direction[2])


def on_plate(slot: Slot) -> bool:
    """Whether ``slot`` is one of the 45 base funnels."""
    return slot in BASE


class PlateGame(Game):
    """What the plate games share: dice owned by colour, steps and straight jumps, captures to carry out."""

    colours: tuple[Colour, ...] = ()

    def owner(self, slot: Slot, cells: Mapping[Slot, Cell] | None = None) -> Seat | None:
        """The player whose colour the die in ``slot`` has, or None."""
        cell = (self.state if cells is None else cells).get(slot)
        if cell is None or cell.colour not in self.colours:
            return None
        return self.colours.index(cell.colour)

    def own(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> list[Slot]:
        """The base funnels holding ``player``'s dice, in slot order."""
        state = self.state if cells is None else cells
        return [s for s in geometry.BASE_SLOTS if self.owner(s, state) == player]

    @staticmethod
    def move(source: Slot, target: Slot, verb: str = "move") -> Move:
        """The die in ``source`` carried to ``target``."""
        return Move(((source, target),), name=f"{verb} {source} to {target}")

    def steps_from(self, source: Slot, cells: Mapping[Slot, Cell] | None = None) -> list[Slot]:
        """The empty neighbouring funnels of ``source``."""
        state = self.state if cells is None else cells
        return [n for n in geometry.neighbours(source) if n not in state]

    def jumps_from(self, source: Slot, cells: Mapping[Slot, Cell] | None = None) -> list[tuple[Slot, Slot]]:
        """(jumped, target): the straight jumps of ``source`` over a neighbouring die into the empty funnel beyond."""
        state = self.state if cells is None else cells
        out = []
        for d in geometry.NEIGHBOUR_STEPS:
            over, target = step(source, d), step(source, d, 2)
            if over in state and on_plate(target) and target not in state:
                out.append((over, target))
        return out


def sandwiched(cells: Mapping[Slot, Cell], slot: Slot) -> bool:
    """Whether the die in ``slot`` lies between two dice of one other colour along a row."""
    colour = cells[slot].colour
    for d in geometry.ROW_DIRECTIONS:
        a, b = cells.get(step(slot, d)), cells.get(step(slot, d, -1))
        if a is not None and b is not None and a.colour == b.colour != colour:
            return True
    return False


class Sandwich(PlateGame):
    """Sandwich (no. 45).

    Setup: each player holds 6 dice of their colour (5 with three players): red, green, black.
    Turn: while anyone holds dice, place one of yours in an empty base funnel. Then move one of your
    dice into a neighbouring empty funnel, or jump it straight over one neighbouring die (any
    colour) into the empty funnel beyond; no chains of jumps.
    Captures: a die between two dice of one other colour along a row is sandwiched. After a placing
    or a move, every die of another player that the moved die sandwiches is captured, then the
    moved die itself if it stands in a sandwich; the mover takes the captured dice off the plate
    (one ``Remove`` each, forced, before the turn passes).
    Third phase: once a player is down to two dice, every player makes one more move; from then on
    each turn is two moves (using one die or two; the second may be a pass).
    Legal actions: placings, then steps and jumps; a pass only when you cannot move.
    Scoring: your dice still in play.
    End: when a player is down to one die: most dice win. Everyone passing in a row, or the turn
    limit (600 actions), ends it too.
    Interpretation: adjacent means the six neighbouring funnels, straight means along one of the
    three rows through the funnel; a die is sandwiched only between two dice of one colour (with
    three players two dice of two opponents do not catch); captures work in the placing phase too.
    """

    info = GameInfo(45, "Sandwich", "T", (2, 3), "6 dice each (5 each with three players)", (), 456)
    house_rules = (
        "Adjacent: the six neighbouring funnels; straight: along one of the three rows. Sandwiched: between two "
        "dice of one other colour. The mover's captures first, then the moved die if it stands in a sandwich. "
        "Third phase: two moves a turn, the second may be a pass."
    )
    max_moves: ClassVar[int] = 600

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.hand = [6 if self.players == 2 else 5] * self.players
        self.captures: list[Slot] = []
        self.singles_left: int | None = None  # single moves before the third phase, once counting
        self.second = False  # the player makes the second move of a third-phase turn
        self.passes = 0

    def dice(self, player: Seat) -> int:
        """``player``'s dice in play: on the plate and in hand."""
        return len(self.own(player)) + self.hand[player]

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.hand)

    def legal(self) -> list[Action]:
        me = self.to_move
        if self.captures:
            return [Remove(self.captures[0])]
        if self.hand[me]:
            return [Place(s, self.colours[me]) for s in geometry.BASE_SLOTS if s not in self.state]
        moves: list[Action] = []
        for s in self.own(me):
            moves += [self.move(s, t) for t in self.steps_from(s)]
            moves += [self.move(s, t, "jump") for _, t in self.jumps_from(s)]
        return moves + [Pass()] if self.second or not moves else moves

    def captured_by(self, cells: Mapping[Slot, Cell], moved: Slot) -> list[Slot]:
        """The dice ``moved`` (just placed or moved) captures, then itself if it stands in a sandwich."""
        colour = cells[moved].colour
        out = []
        for d in geometry.NEIGHBOUR_STEPS:
            victim, far = step(moved, d), step(moved, d, 2)
            v, f = cells.get(victim), cells.get(far)
            if v is not None and f is not None and f.colour == colour != v.colour:
                out.append(victim)
        rest = {s: c for s, c in cells.items() if s not in out}
        if sandwiched(rest, moved):
            out.append(moved)
        return sorted(set(out), key=geometry.SLOT_INDEX.__getitem__)

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.events.append(f"{before[action.slot].colour} die at {action.slot} is captured")
            self.captures.remove(action.slot)
        elif isinstance(action, Place | Move):
            if isinstance(action, Place):
                self.hand[player] -= 1
            moved = action.slot if isinstance(action, Place) else action.steps[0][1]
            self.captures = [s for s in self.captured_by(self.state.cells, moved) if s in self.state]
            self.passes = 0
        elif not self.second:
            self.passes += 1
        if self.captures:
            return
        if self.singles_left == 0 and not self.second:
            self.second = True  # the third phase: the same player moves again
            return
        self.second = False
        if self.singles_left is not None:
            self.singles_left = max(0, self.singles_left - 1)
        elif not any(self.hand) and min(self.dice(p) for p in range(self.players)) <= 2:
            self.singles_left = self.players
            self.events.append("a player is down to two dice: one more move each, then two moves a turn")
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.dice(p)) for p in range(self.players))

    def termination(self) -> Termination | None:
        if self.captures:
            return None
        if min(self.dice(p) for p in range(self.players)) <= 1:
            return Termination.PLAYERS_OUT
        if self.passes >= self.players:
            return Termination.BLOCKED
        return None

    def threats(self, cells: Mapping[Slot, Cell], player: Seat) -> int:
        """Dice of ``player``'s with an enemy die on one side along a row and an empty funnel on the other."""
        count = 0
        for s in self.own(player, cells):
            for d in geometry.NEIGHBOUR_STEPS:
                a, b = step(s, d), step(s, d, -1)
                enemy = self.owner(a, cells)
                count += enemy is not None and enemy != player and on_plate(b) and b not in cells
        return count

    def heuristic(self, action: Action) -> float | None:
        me = self.to_move
        cells = dict(self.state.cells)
        if isinstance(action, Place):
            cells[action.slot] = Cell(action.colour, (1, 2, 3))
            moved = action.slot
        elif not isinstance(action, Move):
            return 0.0
        else:
            (source, moved), *_ = action.steps
            cells[moved] = cells.pop(source)
        lost = self.captured_by(cells, moved)
        for s in lost:
            cells.pop(s)
        mine = len(self.own(me, cells)) + self.hand[me] - (1 if isinstance(action, Place) else 0)
        theirs = max(len(self.own(p, cells)) + self.hand[p] for p in range(self.players) if p != me)
        others = sum(self.threats(cells, p) for p in range(self.players) if p != me)
        return 10.0 * (mine - theirs) + 0.5 * others - 0.7 * self.threats(cells, me)


__all__ = ["PlateGame", "Sandwich", "on_edge", "sandwiched", "step"]
