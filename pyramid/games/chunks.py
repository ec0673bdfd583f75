"""Games of building with chunks: pieces broken off a block of dice go into the pyramid keeping their shape.

Rules layer only (no physics). A chunk is a box of dice face to face; in the pyramid it becomes a box
of slots along the cube axes (so flat chunks lie parallel to a pyramid face, see design.md). A turn is
a choice of chunk (``BreakOff``), a choice of where it goes (``Build``), then one ``Place`` per die,
lowest die first, so the physical world builds it die by die.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from itertools import permutations, product
from typing import ClassVar

from pyramid import geometry
from pyramid.games.construction import touching
from pyramid.geometry import Slot
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Declare,
    Game,
    GameInfo,
    Pass,
    Place,
    Seat,
    Termination,
    open_slots,
)
from pyramid.rules.options import Options, Whole
from pyramid.state import PyramidState

Box = tuple[int, int, int]  # a chunk's extent along its three axes
Cell2 = tuple[int, ...]  # a die's place in a player's block (row, column) or cube (x, y, z)


def box_placements(state: PyramidState, dims: Box, opened: list[Slot] | None = None) -> list[tuple[Slot, ...]]:
    """Every way to put a box of ``dims`` (along i, j, k) into empty slots, resting on dice; lowest first.

    ``opened`` : the open slots of ``state``, if already known.
    """
    occupied = set(state)
    out = []
    for low in open_slots(state) if opened is None else opened:
        # The box's lowest die is its far corner, and it must rest on dice already there: an open slot.
        corner = (low[0] - dims[0] + 1, low[1] - dims[1] + 1, low[2] - dims[2] + 1)
        if min(corner) < 0:
            continue
        slots = [
            (corner[0] + a, corner[1] + b, corner[2] + c)
            for a in range(dims[0])
            for b in range(dims[1])
            for c in range(dims[2])
        ]
        inside = set(slots)
        if any(s in occupied for s in slots):
            continue
        if all(t in occupied or t in inside for s in slots for t in geometry.supports(s)):
            out.append(tuple(sorted(slots, key=lambda s: (-geometry.layer(s), geometry.SLOT_INDEX[s]))))
    return out


@dataclass(frozen=True)
class BreakOff(Declare):
    """Break the chunk made of ``cells`` (extent ``dims``) off your block."""

    cells: tuple[Cell2, ...]
    dims: Box

    def __str__(self) -> str:
        return f"break off {len(self.cells)} dice ({'x'.join(map(str, self.dims))}) at {self.cells[0]}"


@dataclass(frozen=True)
class Build(Declare):
    """Put the chunk into ``slots`` (lowest first)."""

    slots: tuple[Slot, ...]

    def __str__(self) -> str:
        return "build it at " + " ".join(map(str, self.slots))


class ChunkGame(Game):
    """Shared turn structure: break off a chunk, choose where it goes, place its dice lowest first."""

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.placed = [0] * self.players
        self.chosen: BreakOff | None = None
        self.building: list[Slot] = []
        self.passes = 0
        self.make_blocks()

    @abc.abstractmethod
    def make_blocks(self) -> None:
        """Give every player their block of dice."""

    @abc.abstractmethod
    def pieces(self, player: Seat) -> list[BreakOff]:
        """The chunks ``player`` may break off now."""

    @abc.abstractmethod
    def take(self, player: Seat, piece: BreakOff) -> None:
        """Remove ``piece`` from ``player``'s block."""

    @abc.abstractmethod
    def left(self, player: Seat) -> int:
        """Dice left in ``player``'s block."""

    def allowed(self, slots: tuple[Slot, ...]) -> bool:
        """Whether the game's contact rule lets a chunk go into ``slots``."""
        return True

    def placements(self, dims: Box) -> list[tuple[Slot, ...]]:
        """Where a chunk of ``dims`` can go, in any orientation."""
        turns = sorted(set(permutations(dims)))
        opened = open_slots(self.state)
        return [p for a, b, c in turns for p in box_placements(self.state, (a, b, c), opened) if self.allowed(p)]

    def legal(self) -> list[Action]:
        if self.building:
            return [Place(self.building[0], self.colours[self.to_move])]
        if self.chosen is not None:
            return [Build(p) for p in self.placements(self.chosen.dims)]
        fits: dict[Box, bool] = {}
        out: list[Action] = []
        for piece in self.pieces(self.to_move):
            a, b, c = sorted(piece.dims)
            key = (a, b, c)
            if key not in fits:
                fits[key] = bool(self.placements(piece.dims))
            if fits[key]:
                out.append(piece)
        return out or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, BreakOff):
            self.chosen, self.passes = action, 0
        elif isinstance(action, Build) and self.chosen is not None:
            self.take(player, self.chosen)
            self.chosen, self.building = None, list(action.slots)
        elif isinstance(action, Place):
            self.placed[player] += 1
            self.building = self.building[1:]
        else:
            self.passes += 1
        if not self.building and self.chosen is None:
            self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.placed)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.left(p) for p in range(self.players))

    def termination(self) -> Termination | None:
        if not self.building and any(self.left(p) == 0 for p in range(self.players)):
            return Termination.ALL_PLACED
        if self.passes >= self.players:
            return Termination.BLOCKED
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def keeps(self, piece: BreakOff) -> float:
        """How well the block left after ``piece`` still yields big chunks (for the greedy player)."""
        return 0.0

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, BreakOff):
            return len(action.cells) + 0.01 * self.keeps(action)
        if isinstance(action, Build):
            return sum(geometry.layer(s) for s in action.slots) / 100.0
        return 0.0


def grid_connected(mask: int, rows: int, columns: int) -> bool:
    """Whether the cells set in ``mask`` (bit ``r * columns + c``) form one piece, neighbours sharing a side."""
    if not mask:
        return True
    first = sum(1 << (r * columns) for r in range(rows))
    last = first << (columns - 1)
    seen = mask & -mask
    while True:
        # Flood one step to the right, left, down and up, never wrapping around a row's end.
        grow = seen | ((seen << 1) & ~first) | ((seen >> 1) & ~last) | (seen << columns) | (seen >> columns)
        grow &= mask
        if grow == seen:
            return seen == mask
        seen = grow


class TabulaRasa(ChunkGame):
    """Tabula Rasa (no. 28).

    Setup: an empty plate; each player lays their 55 dice of one colour as a flat block of 5 x 11.
    Turn: break a chunk of 1, 3 or 6 dice off your block and add it to the pyramid exactly as it was.
    Legal actions: break off a single die, a straight row of 3, a 2 x 3 rectangle or a straight row of
    6, so that the rest
    of the block stays in one piece; then put it into empty slots with every die resting on dice (or
    on the plate), the chunk lying in a plane parallel to a pyramid face; then place its dice.
    Scoring: the dice you have built into the pyramid.
    End: the first player to use up the whole block wins.
    Interpretation: the figure is lost; chunks break along the block's rows and columns like a bar
    of chocolate (row of 3, 2 x 3 rectangle, row of 6: the 1 x 6 strip breaks as cleanly as the
    2 x 3 one, so both are "6" chunks); no contact rule (any stable place); on the empty plate
    only single dice fit, which is why big chunks are "not possible at game start"; a player with no
    chunk that fits passes, and the game ends if all pass (most dice built wins).
    """

    info = GameInfo(28, "Tabula Rasa", "C", (3,), "55 dice each of red, green, black, as 5 x 11 blocks", (), 309)
    # (rows, columns) of the chunks; a row of 6 only along the block's rows of 11 (its columns hold 5)
    SHAPES: ClassVar[tuple[tuple[int, int], ...]] = ((1, 1), (1, 3), (3, 1), (2, 3), (3, 2), (1, 6))
    ROWS, COLUMNS = 5, 11

    def make_blocks(self) -> None:
        everything = {(r, c) for r in range(self.ROWS) for c in range(self.COLUMNS)}
        self.blocks: list[set[Cell2]] = [set(everything) for _ in range(self.players)]

    def left(self, player: Seat) -> int:
        return len(self.blocks[player])

    def pieces(self, player: Seat) -> list[BreakOff]:
        block = self.blocks[player]
        mask = sum(1 << (r * self.COLUMNS + c) for r, c in block)
        out = []
        for h, w in self.SHAPES:
            for r, c in product(range(self.ROWS - h + 1), range(self.COLUMNS - w + 1)):
                cells = tuple((r + a, c + b) for a in range(h) for b in range(w))
                bits = sum(1 << (x * self.COLUMNS + y) for x, y in cells)
                if mask & bits == bits and grid_connected(mask & ~bits, self.ROWS, self.COLUMNS):
                    out.append(BreakOff(cells, (1, h, w)))
        return out

    def take(self, player: Seat, piece: BreakOff) -> None:
        self.blocks[player] = self.blocks[player] - set(piece.cells)

    def heuristic(self, action: Action) -> float | None:
        """The biggest chunk, built as high as it goes: a chunk of 3 or 6 stands on a staircase of dice two or
        more layers deep (its dice lie along a cube axis, each on the one below), which a pyramid built layer
        by layer from the plate never offers (every greedy game was 165 single dice)."""
        if isinstance(action, Build):
            return -sum(geometry.layer(s) for s in action.slots) / 100.0
        return super().heuristic(action)

    def keeps(self, piece: BreakOff) -> float:
        rest = self.blocks[self.to_move] - set(piece.cells)
        corners = [(r, c) for r in range(self.ROWS - 1) for c in range(self.COLUMNS - 2)]
        wide = sum(all((r + a, c + b) in rest for a in range(2) for b in range(3)) for r, c in corners)
        corners = [(r, c) for r in range(self.ROWS - 2) for c in range(self.COLUMNS - 1)]
        tall = sum(all((r + a, c + b) in rest for a in range(3) for b in range(2)) for r, c in corners)
        return float(wide + tall)


class QuadrulaRasa(ChunkGame):
    """Quadrula Rasa (no. 29), by Jan Dirk Buschmann and Georg Thimme.

    Setup: an empty plate; each player builds a cube of 4 x 4 x 4 dice (option ``cube=5``: 5 x 5 x 5)
    next to it, in their colour.
    Turn: take a chunk of up to 10 dice off your cube and add it to the pyramid keeping its shape.
    Legal actions: take a box of dice (a corner piece, block, column or row) off the top of the cube:
    nothing may stay above it; put it into empty slots with every die resting on dice (or the plate),
    touching the dice already there (face or edge) except on the game's first turn; place its dice.
    Scoring: the dice you have built into the pyramid.
    End: the first player to use up the cube wins; if nobody can add a chunk (or the pyramid is
    complete), the most dice built wins.
    Interpretation: chunks are boxes (a x b x c <= 10 dice) turned any way; the cube stands under
    gravity, so a chunk must include the top die of every column it is taken from; the first turn of
    the game needs no contact (the translator's "probably"); a player whose chunks fit nowhere passes.
    """

    info = GameInfo(29, "Quadrula Rasa", "C", (2, 3), "a cube of 64 (or 125) dice per player", ("quadrula",), 316)
    option_specs: ClassVar[Options] = {
        "cube": Whole("edge of each player's cube: 4 (64 dice, default) or 5", 4, 5, among=(4, 5))
    }

    def make_blocks(self) -> None:
        self.edge = self.option("cube", 4)
        self.heights = [
            {(x, y): self.edge for x in range(self.edge) for y in range(self.edge)} for _ in range(self.players)
        ]
        n = self.edge
        self.boxes = [
            (a, b, c) for a in range(1, n + 1) for b in range(1, n + 1) for c in range(1, n + 1) if a * b * c <= 10
        ]

    def left(self, player: Seat) -> int:
        return sum(self.heights[player].values())

    def pieces(self, player: Seat) -> list[BreakOff]:
        height = self.heights[player]
        out = []
        for a, b, c in self.boxes:
            for x in range(self.edge - a + 1):
                for y in range(self.edge - b + 1):
                    top = {height[x + u, y + v] for u in range(a) for v in range(b)}
                    if len(top) == 1 and (h := top.pop()) >= c:
                        cells = tuple((x + u, y + v, z) for u in range(a) for v in range(b) for z in range(h - c, h))
                        out.append(BreakOff(cells, (a, b, c)))
        return out

    def take(self, player: Seat, piece: BreakOff) -> None:
        for x, y, z in piece.cells:
            self.heights[player][x, y] = min(self.heights[player][x, y], z)

    def allowed(self, slots: tuple[Slot, ...]) -> bool:
        return not self.state or any(t in self.state for s in slots for t in touching(s))
