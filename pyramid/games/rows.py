"""Triangle (rule book 53): rows of one's own dice shift across the plate as one piece.

Rules layer only (no physics), on the plate games' base in ``pyramid.games.boards``. A shift is one
``Move`` of every die of the row together (a hand lifts them all, then sets them down, faces kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import product
from typing import ClassVar

import numpy as np

from pyramid import geometry
from pyramid.games.boards import PlateGame, on_plate, step
from pyramid.geometry import Slot
from pyramid.moves import carry
from pyramid.rules import PLAYER_COLOURS, Action, GameInfo, Move, Pass, Seat, Termination
from pyramid.state import Cell, PyramidState

BASE = geometry.BASE_LAYER


def triangles() -> list[frozenset[Slot]]:
    """Every triangle of 6 base funnels (rows of 3, 2 and 1) on the plate, pointing either way.

    One that points like the plate is {i >= I, j >= J, k >= K} with I + J + K = 6; one that points
    the other way is {i <= I, j <= J, k <= K} with I + J + K = 10.
    """
    out = []
    for lo in product(range(BASE + 1), repeat=3):
        if sum(lo) == BASE - 2:
            out.append(frozenset(s for s in geometry.BASE_SLOTS if all(a >= b for a, b in zip(s, lo, strict=True))))
        if sum(lo) == BASE + 2:
            out.append(frozenset(s for s in geometry.BASE_SLOTS if all(a <= b for a, b in zip(s, lo, strict=True))))
    return [t for t in out if len(t) == 6]


TRIANGLES: tuple[frozenset[Slot], ...] = tuple(triangles())


def hex_distance(a: Slot, b: Slot) -> int:
    """The fewest neighbour steps from base funnel ``a`` to base funnel ``b``."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def heading(direction: Slot) -> str:
    """A neighbour step in words, by the plate's corners: (1, -1, 0) is "towards corner a, away from b"."""
    return f"towards corner {'abc'[direction.index(1)]}, away from {'abc'[direction.index(-1)]}"


def own_rows(mine: frozenset[Slot] | set[Slot]) -> list[tuple[Slot, ...]]:
    """The rows of the dice in ``mine``: each longest unbroken run along a row direction (a lone die is a row)."""
    out: set[tuple[Slot, ...]] = set()
    for d in geometry.ROW_DIRECTIONS:
        for s in mine:
            if step(s, d, -1) in mine:
                continue  # not the first of its run
            run = [s]
            while (nxt := step(run[-1], d)) in mine:
                run.append(nxt)
            out.add(tuple(run))
    return sorted(out, key=lambda r: (len(r), [geometry.SLOT_INDEX[s] for s in r]))


Shift = tuple[tuple[Slot, ...], Slot, frozenset[Slot]]  # (row, direction, the dice after)


@lru_cache(maxsize=1 << 16)
def row_shifts(mine: frozenset[Slot], occupied: frozenset[Slot]) -> tuple[Shift, ...]:
    """(row, direction, the dice after) for each shift of a row of ``mine`` one funnel into empty funnels.

    ``occupied`` holds every die on the plate; a funnel the row itself leaves counts as empty. One
    shift per resulting position (a lone die is the same row along each row direction).
    """
    out, seen = [], set()
    for run in own_rows(mine):
        for d in geometry.NEIGHBOUR_STEPS:
            targets = [step(s, d) for s in run]
            if all(on_plate(t) and (t not in occupied or t in run) for t in targets):
                after = mine - set(run) | set(targets)
                if after not in seen:
                    seen.add(after)
                    out.append((run, d, after))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def best_triangle(mine: frozenset[Slot]) -> int:
    """The most of the dice in ``mine`` in any one triangle."""
    return max(len(t & mine) for t in TRIANGLES)


# The triangles as masks over the base funnels, and the funnel steps between any two base funnels.
FUNNEL_INDEX: dict[Slot, int] = {s: n for n, s in enumerate(geometry.BASE_SLOTS)}
TRIANGLE_MASKS = np.array([[s in t for s in geometry.BASE_SLOTS] for t in TRIANGLES])
STEPS_BETWEEN = np.array([[hex_distance(a, b) for b in geometry.BASE_SLOTS] for a in geometry.BASE_SLOTS])


@lru_cache(maxsize=1 << 16)
def outlook(mine: frozenset[Slot], occupied: frozenset[Slot]) -> float:
    """How near the dice in ``mine`` are to a triangle, ``occupied`` holding every die (1000 when they form one).

    The best over the triangles of: ten per die in it, less two per funnel step from each die outside
    it to its nearest gap, less three per gap another player's die stands in (it has to leave first).
    """
    index = np.array([FUNNEL_INDEX[s] for s in mine], dtype=int)
    taken = np.zeros(len(geometry.BASE_SLOTS), dtype=bool)
    taken[[FUNNEL_INDEX[s] for s in occupied]] = True
    ours = np.zeros_like(taken)
    ours[index] = True
    held = TRIANGLE_MASKS[:, index]  # (triangles, dice): the die lies in the triangle
    inside = held.sum(axis=1)
    if inside.max(initial=0) == 6:
        return 1000.0
    gaps = TRIANGLE_MASKS & ~ours
    nearest = np.where(gaps[:, None, :], STEPS_BETWEEN[index][None, :, :], 99).min(axis=2, initial=99)
    far = (nearest * ~held).sum(axis=1)
    blocked = (gaps & taken).sum(axis=1)
    return float((10.0 * inside - 2.0 * far - 3.0 * blocked).max())


@lru_cache(maxsize=1 << 16)
def finishing(mine: frozenset[Slot], occupied: frozenset[Slot]) -> bool:
    """Whether one shift of a row of ``mine`` completes a triangle."""
    if best_triangle(mine) < 3:
        return False  # a shifted row meets a triangle in at most 3 funnels
    return any(best_triangle(after) == 6 for _, _, after in row_shifts(mine, occupied))


class Triangle(PlateGame):
    """Triangle (no. 53), by Jürgen Lutze.

    Setup: each player has 6 dice (player 0 red, 1 green, 2 black), set out in the three corner
    triangles of side 3: in each corner the corner funnel, the row of two and the row of three
    towards the middle hold three different colours, in cyclic order from corner to corner (corner
    a: red, green, black from the corner inwards; corner b: green, black, red; corner c: black, red,
    green).
    Turn: shift one row of your dice one funnel in any of the six directions, as one piece, into
    funnels that are empty or that the row itself leaves. A row is a longest unbroken run of your
    dice along one of the plate's rows; a die with no die of yours beside it along a row direction
    is a row of one there, so it can move alone.
    Legal actions: those shifts (one per resulting position); Pass only when you have none.
    Scoring: the most of your dice in any one triangle of 6 funnels (3 + 2 + 1, pointing either way).
    End: the first player whose 6 dice form a triangle wins. House rule: after 30 turns in a row in
    which no player came nearer a triangle than ever before (``outlook``: dice in it, the steps of
    the others to its gaps, gaps another player stands in), the game ends: the highest score wins
    (shared when equal).
    Interpretation: the list of moves is lost; "rows of dice are always moved as one piece" is read
    as above: one row, one funnel, no captures and no jumps.
    """

    info = GameInfo(53, "Triangle", "T", (3,), "6 red, 6 green, 6 black dice", (), 536)
    house_rules = (
        "The moves are lost: a turn shifts one row of your dice (a longest run of them along a row; a lone die is a "
        "row) one funnel in any direction into empty funnels. A triangle of 6 pointing either way wins. After 30 "
        "turns in which nobody came nearer a triangle than ever before, the game ends: the highest score wins."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 30
    colours = PLAYER_COLOURS

    def setup(self) -> None:
        cells: dict[Slot, Cell] = {}
        for corner in range(3):
            for depth in range(3):  # the corner funnel, the row of two, the row of three
                colour = self.colours[(corner + depth) % 3]
                for s in geometry.BASE_SLOTS:
                    if s[corner] == BASE - depth:
                        cells[s] = Cell(colour, self.draw_orientation())
        self.state = PyramidState(cells)

    def shift(self, run: tuple[Slot, ...], direction: Slot) -> Move:
        """The row ``run`` moved one funnel along ``direction``."""
        steps = tuple((s, step(s, direction)) for s in run)
        where = f"{run[0]}" if len(run) == 1 else f"{run[0]}..{run[-1]}"
        return Move(steps, name=f"shift {where} {heading(direction)}")

    def shifts(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> list[Move]:
        """Every shift of a row of ``player``'s dice, one per resulting position."""
        state = self.state if cells is None else cells
        mine = frozenset(self.own(player, state))
        return [self.shift(run, d) for run, d, _ in row_shifts(mine, frozenset(state))]

    def legal(self) -> list[Action]:
        return list(self.shifts(self.to_move)) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.to_move = self.next_player(player)

    def best_triangle(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """The most of ``player``'s dice in any one triangle."""
        return best_triangle(frozenset(self.own(player, cells)))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.best_triangle(p)) for p in range(3))

    def milestones(self) -> tuple[float, ...]:
        """How near each player is to a triangle (``outlook``)."""
        occupied = frozenset(self.state)
        return tuple(outlook(frozenset(self.own(p)), occupied) for p in range(3))

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if max(self.scores()) == 6 else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return 0.0
        me, cells = self.to_move, carry(self.state.cells, action.steps)
        occupied = frozenset(cells)
        dice = [frozenset(self.own(p, cells)) for p in range(3)]
        threat = max(outlook(dice[p], occupied) + 400.0 * finishing(dice[p], occupied) for p in range(3) if p != me)
        return outlook(dice[me], occupied) - threat / 2
