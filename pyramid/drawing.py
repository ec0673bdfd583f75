"""The pyramid drawn as text for a terminal: each layer a triangle of cells, slots named by short labels.

Pure core, beside the notation: a ``PyramidState`` in, lines of text out. A label names a slot by its
layer's letter (``a`` the apex, ``i`` the base) and its place in that layer counted in notation order
(rows of constant i, each by rising j): ``a1`` is the apex, ``i1`` to ``i45`` the base funnels.

>>> slot_label((0, 0, 2)), label_slot("c1")
('c1', (0, 0, 2))
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pyramid.dice import Colour
from pyramid.geometry import LAYERS, Slot, is_slot, layer, layer_slots
from pyramid.state import Cell, PyramidState

LAYER_LETTERS = "abcdefghi"[:LAYERS]  # the layer of each letter, the apex first
_LABEL = re.compile(r"([a-i])([0-9]{1,2})")
_RESET = "\x1b[0m"
# Background and a readable foreground per colour of the set; labels are bold.
_ANSI: dict[Colour, str] = {
    "red": "\x1b[41;97m",
    "green": "\x1b[42;30m",
    "black": "\x1b[100;97m",
    "blue": "\x1b[44;97m",
    "gold": "\x1b[43;30m",
}
_BOLD = "\x1b[1m"


def slot_label(slot: Slot) -> str:
    """The short label of ``slot``: its layer's letter and its place in the layer, e.g. ``i12``."""
    n = layer(slot)
    return f"{LAYER_LETTERS[n]}{layer_slots(n).index(slot) + 1}"


def label_slot(label: str) -> Slot:
    """The slot a label names; ValueError saying what a label looks like when it names none."""
    m = _LABEL.fullmatch(label.strip().lower())
    if m is not None:
        slots = layer_slots(LAYER_LETTERS.index(m.group(1)))
        if 1 <= int(m.group(2)) <= len(slots):
            return slots[int(m.group(2)) - 1]
        letter, last = m.group(1), len(slots)
        has = f"only the slot {letter}1" if last == 1 else f"the slots {letter}1 to {letter}{last}"
        raise ValueError(f"layer {letter} has {has}, not {label!r}")
    raise ValueError(f"{label!r} is not a label: a layer letter a (apex) to i (base) and a number, e.g. i12")


def _cell_text(cell: Cell | None, label: str | None) -> str:
    if cell is None:
        return label or "."
    return cell.token() if label is None else f"{cell.token()} {label}"


def _paint(cell: Cell | None, label: str | None, text: str, width: int) -> str:
    """``text`` padded to ``width`` with the die's colour behind its token and the label in bold."""
    pad = " " * (width - len(text))
    token = "" if cell is None else cell.token()
    rest = text[len(token) :]
    painted = f"{_ANSI[cell.colour]}{token}{_RESET}" if cell is not None else ""
    if label is not None:
        rest = rest.replace(label, f"{_BOLD}{label}{_RESET}")
    return painted + rest + pad


def draw_layer(state: PyramidState, n: int, labelled: set[Slot], colour: bool = False) -> list[str]:
    """Layer ``n`` as a triangle: row i = 0 at the top, each next row shifted by half a cell.

    A die shows its notation token (colour letter, faces along +i, +j, +k), an empty slot ``.``;
    a slot in ``labelled`` shows its label (after the token when a die stands there).
    """
    texts = {s: _cell_text(state.get(s), slot_label(s) if s in labelled else None) for s in layer_slots(n)}
    width = max(len(t) for t in texts.values())
    step = width + 1
    lines = []
    for i in range(n + 1):
        row = [(i, j, n - i - j) for j in range(n - i + 1)]
        cells = []
        for s in row:
            label = slot_label(s) if s in labelled else None
            text = texts[s]
            cells.append(_paint(state.get(s), label, text, width) if colour else text.ljust(width))
        lines.append((" " * ((i * step) // 2) + " ".join(cells)).rstrip())
    return lines


def draw_pyramid(state: PyramidState, labelled: Iterable[Slot] = (), colour: bool = False) -> str:
    """Every layer from the apex down, each under a heading; empty layers above the dice in one line.

    ``labelled``: the slots to mark with their labels (free dice, open funnels: where a move goes).
    ``colour``: paint each die's token in its colour with ANSI codes (else the letters alone say it).
    """
    marked = set(labelled)
    bad = [s for s in marked if not is_slot(s)]
    if bad:
        raise ValueError(f"{bad[0]} is not a slot of the pyramid")
    used = {layer(s) for s in [*state, *marked]}
    top = min(used, default=LAYERS - 1)
    lines = []
    if top > 0:
        last = LAYER_LETTERS[top - 1]
        lines.append("layer a: empty" if top == 1 else f"layers a to {last}: empty")
    for n in range(top, LAYERS):
        slots = layer_slots(n)
        dice = sum(1 for s in slots if s in state)
        lines.append(f"layer {LAYER_LETTERS[n]} ({n + 1} of {LAYERS}): {dice} of {len(slots)} dice")
        lines += ["  " + line for line in draw_layer(state, n, marked, colour)]
    return "\n".join(lines)
