"""What stands in each slot of the pyramid (colour and faces), and its compact text notation.

A ``PyramidState`` is what the rules read; the read-out builds it from die poses, tests and games
build it from the notation. Pure Python.

Notation: the nine layers from the apex down, separated by ``/``; within a layer the rows of
constant i (i = 0 first) separated by ``,``; within a row the slots by rising j. A slot is ``.``
when empty, else a colour code (R red, G green, K black, B blue, Y gold) followed by the faces
along +i, +j, +k (``R123``), or by nothing when the faces are not known. A state with only the
top layers filled may stop early: missing layers are empty.

>>> PyramidState.from_notation("R123/G.,.").cells
{(0, 0, 0): Cell(colour='red', up=(1, 2, 3)), (0, 0, 1): Cell(colour='green', up=None)}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from pyramid import geometry
from pyramid.dice import CODE_TO_COLOUR, COLOURS, COUNTS, DICE, Colour
from pyramid.geometry import LAYERS, Slot, UpFaces

SPARE_DICE = len(DICE) - len(geometry.SLOTS)  # the dice left over once the full pyramid is built: 116
_VALID_UP = frozenset(geometry.ALL_UP_FACES)
_TOKEN = re.compile(r"\.|([A-Z])([0-9]{3})?")  # ASCII digits only: "R١٢٣" is not R123


class NotationError(ValueError):
    """A pyramid notation string that cannot be read; the message says where and why."""


@dataclass(frozen=True)
class Cell:
    """The die in one slot: its colour and the faces it shows along +i, +j, +k (None if unknown)."""

    colour: Colour
    up: UpFaces | None = None

    def __post_init__(self) -> None:
        if self.colour not in COLOURS:
            raise ValueError(f"{self.colour!r} is not a colour of the set: {', '.join(COLOURS)}")

    def token(self) -> str:
        """This cell in the text notation, e.g. ``R123``."""
        code = COLOURS[self.colour][0]
        return code + ("" if self.up is None else "".join(map(str, self.up)))


@dataclass(frozen=True)
class PyramidState(Mapping[Slot, Cell]):
    """An immutable map from occupied slots to their cells, with the lattice questions asked of it."""

    cells: dict[Slot, Cell] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for slot, cell in self.cells.items():
            if not geometry.is_slot(slot):
                raise ValueError(f"{slot} is not a slot of the pyramid")
            if cell.up is not None and cell.up not in _VALID_UP:
                geometry.orientation_matrix(cell.up)  # raises, saying why

    def __getitem__(self, slot: Slot) -> Cell:
        return self.cells[slot]

    def __iter__(self) -> Iterator[Slot]:
        return iter(self.cells)

    def __contains__(self, slot: object) -> bool:
        return slot in self.cells

    def get(self, slot: Slot, default: Cell | None = None) -> Cell | None:  # type: ignore[override]
        return self.cells.get(slot, default)

    def __len__(self) -> int:
        return len(self.cells)

    def __hash__(self) -> int:
        return hash(frozenset(self.cells.items()))

    def __repr__(self) -> str:
        return f"PyramidState.from_notation({self.to_notation()!r})"

    # -- building --------------------------------------------------------------------------

    @classmethod
    def full(cls, colour: Colour = "black", up: UpFaces | None = (1, 2, 3)) -> PyramidState:
        """The complete 165-die pyramid in one colour and orientation."""
        return cls({s: Cell(colour, up) for s in geometry.SLOTS})

    def with_cell(self, slot: Slot, cell: Cell) -> PyramidState:
        """A copy with ``cell`` placed in ``slot``."""
        return PyramidState({**self.cells, slot: cell})

    def without(self, slot: Slot) -> PyramidState:
        """A copy with ``slot`` emptied."""
        return PyramidState({s: c for s, c in self.cells.items() if s != slot})

    # -- questions ---------------------------------------------------------------------------

    def free_slots(self) -> list[Slot]:
        """Occupied slots whose die can be taken without moving another."""
        return geometry.free_slots(self.cells)

    def open_slots(self) -> list[Slot]:
        """Empty slots on which a die can be placed now."""
        return geometry.open_slots(self.cells)

    def colours(self) -> dict[Slot, Colour]:
        """Slot -> colour of its die."""
        return {s: c.colour for s, c in self.cells.items()}

    def face_count(self, owners: Mapping[Colour, str] | None = None, outer_only: bool = False) -> Counter[str]:
        """Uncovered faces per colour, or per player when ``owners`` maps colours to players (a colour
        it leaves out counts under its own name)."""
        owner = {s: (owners.get(c.colour, c.colour) if owners else c.colour) for s, c in self.cells.items()}
        return geometry.face_count(owner, outer_only)

    def pip_sum(self, slots: Iterable[Slot] | None = None, outer_only: bool = False) -> int:
        """Pips on the faces that show, over all dice or only over ``slots``; faces must be known."""
        chosen = set(self.cells if slots is None else slots)
        faces = geometry.outer_faces(self.cells) if outer_only else geometry.exposed_faces(self.cells)
        total = 0
        for s, axis in faces:
            if s in chosen:
                up = self.cells[s].up
                if up is None:
                    raise ValueError(f"the faces of the die in {s} are not known")
                total += up[axis]
        return total

    # -- notation ----------------------------------------------------------------------------

    def to_notation(self, trim: bool = True) -> str:
        """The text notation; with ``trim`` empty layers at the bottom are left out."""
        layers = []
        for n in range(LAYERS):
            rows = []
            for i in range(n + 1):
                rows.append("".join(self.cells[s].token() if s in self.cells else "." for s in _row_slots(n, i)))
            layers.append(",".join(rows))
        if trim:
            while len(layers) > 1 and set(layers[-1]) <= {".", ","}:
                layers.pop()
        return "/".join(layers)

    @classmethod
    def from_notation(cls, text: str) -> PyramidState:
        """Read the text notation; raises NotationError naming the layer, row and what was wrong."""
        layers = text.strip().split("/")
        if len(layers) > LAYERS:
            raise NotationError(f"{len(layers)} layers given; the pyramid has {LAYERS}")
        cells: dict[Slot, Cell] = {}
        for n, layer_text in enumerate(layers):
            rows = layer_text.split(",")
            if len(rows) != n + 1:
                raise NotationError(f"layer {n} has {n + 1} rows separated by ',', got {len(rows)}: {layer_text!r}")
            for i, row_text in enumerate(rows):
                slots = _row_slots(n, i)
                tokens = _tokens(row_text, n, i)
                if len(tokens) != len(slots):
                    raise NotationError(f"layer {n} row {i} has {len(slots)} slots, got {len(tokens)}: {row_text!r}")
                for slot, token in zip(slots, tokens, strict=True):
                    if token is not None:
                        try:
                            cells[slot] = Cell(*token)
                            cls({slot: cells[slot]})
                        except ValueError as err:
                            raise NotationError(f"slot {slot} (layer {n} row {i}): {err}") from None
        return cls(cells)


def _row_slots(n: int, i: int) -> list[Slot]:
    return [(i, j, n - i - j) for j in range(n - i + 1)]


def _tokens(row_text: str, n: int, i: int) -> list[tuple[Colour, UpFaces | None] | None]:
    out: list[tuple[Colour, UpFaces | None] | None] = []
    pos = 0
    while pos < len(row_text):
        m = _TOKEN.match(row_text, pos)
        if m is None or (m.group(1) and m.group(1) not in CODE_TO_COLOUR):
            codes = ", ".join(sorted(CODE_TO_COLOUR))
            raise NotationError(
                f"layer {n} row {i}: cannot read {row_text[pos:]!r}; expected '.' or a colour ({codes}) "
                "optionally followed by three face values"
            )
        if m.group(0) == ".":
            out.append(None)
        else:
            up = None if m.group(2) is None else (int(m.group(2)[0]), int(m.group(2)[1]), int(m.group(2)[2]))
            out.append((CODE_TO_COLOUR[m.group(1)], up))
        pos = m.end()
    return out


def random_pattern(
    slots: Iterable[Slot],
    rng: np.random.Generator,
    stock: Mapping[Colour, int] | None = None,
    random_faces: bool = False,
) -> PyramidState:
    """Fill ``slots`` with dice drawn at random, without replacement, from ``stock`` (the set's colours).

    With ``random_faces`` each die gets one of the 24 orientations at random; else faces 1, 2, 3.
    """
    slots = list(slots)
    unknown = sorted(set(stock or COUNTS) - set(COLOURS))
    if unknown:
        raise ValueError(f"the set has no {', '.join(unknown)} dice; its colours are {', '.join(COLOURS)}")
    pool = [c for c, n in (stock or COUNTS).items() for _ in range(n)]
    if len(pool) < len(slots):
        raise ValueError(f"{len(slots)} slots but only {len(pool)} dice in stock")
    picks = rng.choice(len(pool), size=len(slots), replace=False)
    cells = {}
    for slot, p in zip(slots, picks, strict=True):
        up = geometry.ALL_UP_FACES[rng.integers(24)] if random_faces else (1, 2, 3)
        cells[slot] = Cell(pool[p], up)
    return PyramidState(cells)
