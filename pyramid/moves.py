"""Moves of dice on the lattice: the jump along a right angle, the long jump, the length of a move and
the edge slide. Pure core, next to ``geometry``: the tactics games (rule book 34 to 38, 55 to 57) read
their moves from here.

A move is a tuple of steps ``(source, target)`` carried out together: every source die is lifted,
then each is set down in its target keeping its faces. ``carry`` gives the cells after it.

>>> jump_targets({(8, 0, 0)}, (8, 0, 0))
[(7, 0, 1), (7, 1, 0)]
>>> move_length((6, 0, 0), (5, 3, 0))
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TypeAlias, TypeVar

from pyramid import geometry
from pyramid.geometry import Slot

Step: TypeAlias = tuple[Slot, Slot]  # one die carried from a slot to a slot
T = TypeVar("T")

AXES: tuple[Slot, Slot, Slot] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def _right_angles(arms: tuple[tuple[int, int], ...]) -> tuple[Slot, ...]:
    """Every displacement of ``a`` steps along one cube axis and ``b`` along another, (a, b) in ``arms``."""
    out: set[Slot] = set()
    for x in range(3):
        for y in range(3):
            for a, b in arms:
                for sa in (1, -1):
                    for sb in (1, -1):
                        if x != y:
                            d = [0, 0, 0]
                            d[x], d[y] = sa * a, sb * b
                            out.add((d[0], d[1], d[2]))
    return tuple(sorted(out))


# The jump along a right angle: one arm along a cube axis, the other along another, both in a plane of
# one constant coordinate (a plane parallel to a face of the pyramid, where the dice form a square
# grid). Arms of 1 and 1 give the twelve two-step jumps; only the six of them that stay in the layer
# (the in-layer neighbour steps) can ever be made, since a die two layers up or down is always
# held by, or holds, the die that would jump. Arms of 2 and 1 (the knight's L) climb or descend one
# layer over a ridge: twelve of those 24 can be made (the others cross three layers, likewise barred).
JUMPS: tuple[Slot, ...] = _right_angles(((1, 1), (2, 1)))
# The long jump: arms of 3 and 1, two layers up or down at once; rare, since it needs a tall structure.
LONG_JUMPS: tuple[Slot, ...] = _right_angles(((3, 1),))
# The steep jump: arms of 4 and 1, three layers up or down; the only jump off the top of a 20-die
# corner pyramid, which stands three layers above the plate (Mound Mover).
STEEP_JUMPS: tuple[Slot, ...] = _right_angles(((4, 1),))


def shift(slot: Slot, step: Slot, times: int = 1) -> Slot:
    """``slot`` moved ``times`` steps along ``step`` (may leave the lattice)."""
    return (slot[0] + times * step[0], slot[1] + times * step[1], slot[2] + times * step[2])


def move_length(source: Slot, target: Slot) -> int:
    """The length of a move: |di| + |dj| + |dk|, the lattice steps a die makes from ``source`` to ``target``."""
    return sum(abs(a - b) for a, b in zip(source, target, strict=True))


def is_open_for(occupied: set[Slot], slot: Slot) -> bool:
    """Whether a die can come to rest in the empty ``slot``: a base funnel, or a funnel of three dice."""
    index = geometry.SLOT_INDEX.get(slot)
    return index is not None and slot not in occupied and all(s in occupied for s in geometry.SUPPORTS[index])


def is_free(occupied: set[Slot], slot: Slot) -> bool:
    """Whether the die in ``slot`` can be lifted: no die rests on it (a die under another is blocked)."""
    return slot in occupied and not any(s in occupied for s in geometry.resting_on(slot))


def jump_targets(occupied: Iterable[Slot], source: Slot, long: bool = False, steep: bool = False) -> list[Slot]:
    """The open slots the free die in ``source`` can jump to (none if it is not free), in slot order.

    A jump is an L in a plane parallel to a face (``JUMPS``); it never lands on a slot that rests on
    ``source``, so the target's support does not depend on the die that leaves. With ``long`` also
    the long jump (``LONG_JUMPS``), with ``steep`` also the steep jump (``STEEP_JUMPS``).
    """
    occ = set(occupied)
    if not is_free(occ, source):
        return []
    rest = occ - {source}
    steps = JUMPS + (LONG_JUMPS if long else ()) + (STEEP_JUMPS if steep else ())
    found = {t for d in steps if is_open_for(rest, t := shift(source, d))}
    return sorted(found, key=geometry.SLOT_INDEX.__getitem__)


def reach(occupied: Iterable[Slot], source: Slot, length: int) -> list[Slot]:
    """The open slots at move length exactly ``length`` from the free die in ``source`` (lifted)."""
    occ = set(occupied)
    if not is_free(occ, source):
        return []
    rest = occ - {source}
    return [t for t in _at_length(source).get(length, ()) if is_open_for(rest, t)]


@cache
def _at_length(source: Slot) -> dict[int, tuple[Slot, ...]]:
    """The slots at each move length from ``source``, in slot order."""
    out: dict[int, list[Slot]] = {}
    for t in geometry.SLOTS:
        out.setdefault(move_length(source, t), []).append(t)
    return {n: tuple(slots) for n, slots in out.items()}


def edge_column(occupied: Iterable[Slot], bottom: Slot, axis: int) -> list[Slot]:
    """The dice of the edge that rises from ``bottom`` against cube axis ``axis``, bottom first, while occupied."""
    occ = set(occupied)
    column: list[Slot] = []
    slot = bottom
    while geometry.is_slot(slot) and slot in occ:
        column.append(slot)
        slot = shift(slot, AXES[axis], -1)
    return column


def edge_slide(column: list[Slot]) -> tuple[Step, ...]:
    """The slide of an edge ``column`` (bottom first): the bottom die goes on top, every other die one slot down.

    The dice of an edge rest face to face along the edge's axis, so taking out the bottom die lets
    the rest slide down by one; the top slot, vacated, takes the die taken out.
    """
    if len(column) < 2:
        raise ValueError(f"an edge to slide has two dice or more, got {column}")
    return ((column[0], column[-1]), *((column[n], column[n - 1]) for n in range(1, len(column))))


def carry(cells: Mapping[Slot, T], steps: Iterable[Step]) -> dict[Slot, T]:
    """``cells`` after the move ``steps``: each source's content lifted, then set down in its target.

    ValueError if a source is empty, a slot is a source twice or a target twice, or a target is
    occupied by a die that does not move.
    """
    steps = tuple(steps)
    sources = [s for s, _ in steps]
    targets = [t for _, t in steps]
    if len(set(sources)) < len(sources) or len(set(targets)) < len(targets):
        raise ValueError(f"a slot is used twice in the move {steps}")
    out = dict(cells)
    lifted = []
    for source in sources:
        if source not in out:
            raise ValueError(f"no die in {source} to move")
        lifted.append(out.pop(source))
    for target, content in zip(targets, lifted, strict=True):
        if target in out:
            raise ValueError(f"{target} is taken: the die cannot be set down there")
        out[target] = content
    return out


def rests_on(upper: Slot, lower: Slot) -> bool:
    """Whether a die in ``upper`` rests on a die in ``lower`` (``lower`` is one of its three supports)."""
    return lower in geometry.supports(upper)
