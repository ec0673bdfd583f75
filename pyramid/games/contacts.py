"""Dice touching face to face on the lattice: the six face steps, neighbours, connected groups, straight
columns and corners of three, and the groups of empty slots that can be filled together.

Rules layer only (no physics): shared by the tactical games (``tactics``, ``sliding``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pyramid import geometry
from pyramid.geometry import Slot

AXES: tuple[Slot, Slot, Slot] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


# The six directions in which two dice touch face to face: along the cube axes, both ways.
FACE_STEPS: tuple[Slot, ...] = AXES + tuple((-a, -b, -c) for a, b, c in AXES)


def shift(slot: Slot, step: Slot, times: int = 1) -> Slot:
    """``slot`` moved ``times`` steps along ``step`` (may leave the lattice)."""
    return (slot[0] + times * step[0], slot[1] + times * step[1], slot[2] + times * step[2])


def face_neighbours(slot: Slot) -> list[Slot]:
    """The up to six slots whose dice touch a die in ``slot`` face to face (three below, three above)."""
    return [t for t in (shift(slot, d) for d in FACE_STEPS) if geometry.is_slot(t)]


def _lines(length: int) -> list[frozenset[Slot]]:
    out = []
    for s in geometry.SLOTS:
        for e in AXES:
            line = [shift(s, e, n) for n in range(length)]
            if all(geometry.is_slot(t) for t in line):
                out.append(frozenset(line))
    return out


def _corners() -> list[frozenset[Slot]]:
    out = set()
    for c in geometry.SLOTS:
        for a in FACE_STEPS:
            for b in FACE_STEPS:
                arms = (shift(c, a), shift(c, b))
                # the two arms must run along different cube axes
                if any(x and y for x, y in zip(a, b, strict=True)) or not all(geometry.is_slot(t) for t in arms):
                    continue
                out.add(frozenset((c, *arms)))
    return sorted(out, key=lambda f: sorted(f))


COLUMNS3: list[frozenset[Slot]] = _lines(3)  # Triops: three dice in a straight line along a cube axis


COLUMNS2: list[frozenset[Slot]] = _lines(2)


CORNERS: list[frozenset[Slot]] = _corners()  # Triangel: three dice bent at a right angle


TRIOPS_SET: frozenset[frozenset[Slot]] = frozenset(COLUMNS3)


def component(state: Iterable[Slot], start: Slot) -> set[Slot]:
    """The dice joined to ``start`` by a chain of face-to-face contacts."""
    occ = set(state)
    seen = {start} if start in occ else set()
    todo = list(seen)
    while todo:
        for t in face_neighbours(todo.pop()):
            if t in occ and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def free_faces(state: Iterable[Slot], slot: Slot) -> int:
    """How many of the three upward faces of the die in ``slot`` no die covers."""
    occ = set(state)
    return sum(1 for e in AXES if shift(slot, e, -1) not in occ)


def _closures(occ: set[Slot], limit: int) -> dict[Slot, frozenset[Slot]]:
    """For each empty slot, the empty slots that must be filled to seat a die there (itself included),
    if at most ``limit``."""
    out: dict[Slot, frozenset[Slot]] = {}
    for s in reversed(geometry.SLOTS):  # base layer first, so supports come before what rests on them
        if s in occ:
            continue
        need = {s}
        for t in geometry.supports(s):
            if t not in occ:
                if t not in out:
                    break
                need |= out[t]
        else:
            if len(need) <= limit:
                out[s] = frozenset(need)
    return out


def face_groups(
    state: Iterable[Slot], size: int, contact: set[Slot] | None, barred: set[Slot]
) -> list[frozenset[Slot]]:
    """Every set of ``size`` empty slots, joined face to face, that can be filled (in some order) on
    ``state``, avoids ``barred`` and, unless ``contact`` is None, contains a slot of ``contact``."""
    occ = set(state)
    nodes = {s for s in _closures(occ, size) if s not in barred}
    if contact is not None:
        # keep only slots within size - 1 face steps of a contact slot
        near = nodes & contact
        frontier = set(near)
        for _ in range(size - 1):
            frontier = {t for s in frontier for t in face_neighbours(s) if t in nodes and t not in near}
            near |= frontier
        nodes = near
    adj = {s: [t for t in face_neighbours(s) if t in nodes] for s in nodes}
    rank = {s: n for n, s in enumerate(sorted(nodes))}
    found: list[frozenset[Slot]] = []

    def extend(group: set[Slot], border: set[Slot], extension: list[Slot], root: Slot) -> None:
        if len(group) == size:
            chosen = frozenset(group)
            stable = all(t in occ or t in chosen for s in chosen for t in geometry.supports(s))
            if stable and (contact is None or chosen & contact):
                found.append(chosen)
            return
        extension = list(extension)
        while extension:
            w = extension.pop()
            fresh = [u for u in adj[w] if rank[u] > rank[root] and u not in group and u not in border]
            extend(group | {w}, border | set(fresh) | {w}, extension + fresh, root)

    for v in sorted(nodes):
        start = [u for u in adj[v] if rank[u] > rank[v]]
        extend({v}, {v, *start}, start, v)
    return found


def is_column(slots: list[Slot]) -> bool:
    """Whether ``slots`` (two or more) lie in one straight line of face-to-face steps."""
    if len(slots) < 2:
        return False
    for a in range(3):
        rest = {tuple(s[b] for b in range(3) if b != a) for s in slots}
        values = sorted(s[a] for s in slots)
        if len(rest) == 1 and values == list(range(values[0], values[0] + len(slots))):
            return True
    return False
