"""The lattice of the dice pyramid: slots, supports, free dice, exposed faces and scores.

Pure numpy. Slots are cube-lattice coordinates ``(i, j, k)``, integers >= 0 with
``i + j + k <= 8``; the apex is ``(0, 0, 0)`` and the layer counted from the top is ``i + j + k``.
A die seated in a slot shows its faces along the cube axes +i, +j, +k upward.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import TypeAlias

import numpy as np

Slot: TypeAlias = tuple[int, int, int]
Face: TypeAlias = int
UpFaces: TypeAlias = tuple[Face, Face, Face]
Exposed: TypeAlias = tuple[Slot, int]  # (slot, axis): the face of that die along +axis

LAYERS = 9
BASE_LAYER = LAYERS - 1
SQRT2 = float(np.sqrt(2.0))
SQRT3 = float(np.sqrt(3.0))

# Body-frame outward normal of each die face. Opposite faces sum to 7, and 1, 2, 3 run
# counter-clockwise around their shared corner (+x, +y, +z) seen from outside: a right-handed die.
FACE_NORMALS: dict[Face, tuple[int, int, int]] = {
    1: (1, 0, 0),
    2: (0, 1, 0),
    3: (0, 0, 1),
    4: (0, 0, -1),
    5: (0, -1, 0),
    6: (-1, 0, 0),
}


def layer(slot: Slot) -> int:
    """The layer of a slot counted from the top: 0 is the apex, 8 the base."""
    return slot[0] + slot[1] + slot[2]


def is_slot(slot: tuple[int, ...]) -> bool:
    """Whether ``slot`` is one of the 165 slots of the pyramid: three whole numbers >= 0 summing to 8 or less."""
    plain = slot.__class__ is tuple and slot in SLOT_SET
    if plain and int is slot[0].__class__ is slot[1].__class__ is slot[2].__class__:
        return True  # the common case, asked thousands of times a move
    return (
        len(slot) == 3
        and all(isinstance(c, int | np.integer) and not isinstance(c, bool) for c in slot)
        and min(slot) >= 0
        and sum(slot) <= BASE_LAYER
    )


def check_slot(slot: Slot) -> Slot:
    """``slot`` itself; ValueError if it is not one of the 165 slots."""
    if not is_slot(slot):
        raise ValueError(f"{slot} is not a slot of the pyramid (three whole numbers >= 0, at most {BASE_LAYER} in all)")
    return slot


def _check_all(occupied: Iterable[Slot]) -> set[Slot]:
    occ = set(occupied)
    if not occ <= SLOT_SET:
        strays = occ - SLOT_SET
        raise ValueError(f"{min(strays, key=str)} is not a slot of the pyramid ({len(strays)} such)")
    return occ


@cache
def layer_slots(n: int) -> tuple[Slot, ...]:
    """The slots of layer ``n`` in canonical order: rows of constant i, then j ascending."""
    if not 0 <= n <= BASE_LAYER:
        raise ValueError(f"layer must be 0..{BASE_LAYER}, got {n}")
    return tuple((i, j, n - i - j) for i in range(n + 1) for j in range(n - i + 1))


SLOTS: tuple[Slot, ...] = tuple(s for n in range(LAYERS) for s in layer_slots(n))
SLOT_INDEX: dict[Slot, int] = {s: n for n, s in enumerate(SLOTS)}
SLOT_SET: frozenset[Slot] = frozenset(SLOTS)
BASE_SLOTS: tuple[Slot, ...] = layer_slots(BASE_LAYER)
APEX: Slot = (0, 0, 0)
_UNIT: tuple[Slot, Slot, Slot] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def _add(a: Slot, b: Slot, sign: int = 1) -> Slot:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


@cache
def supports(slot: Slot) -> tuple[Slot, ...]:
    """The three slots a die in ``slot`` rests on; empty for the base layer (it rests on the plate)."""
    if layer(check_slot(slot)) == BASE_LAYER:
        return ()
    return tuple(_add(slot, u) for u in _UNIT)


@cache
def resting_on(slot: Slot) -> tuple[Slot, ...]:
    """The slots of the dice that would rest on ``slot`` (up to three)."""
    return tuple(s for s in (_add(check_slot(slot), u, -1) for u in _UNIT) if min(s) >= 0)


# Lattice tables in slot order, computed once: the games ask these questions thousands of times a move.
_RESTING_ON: tuple[tuple[Slot, ...], ...] = tuple(resting_on(s) for s in SLOTS)
SUPPORTS: tuple[tuple[Slot, ...], ...] = tuple(supports(s) for s in SLOTS)
# Per slot, per axis 0, 1, 2: the slot whose die would cover that face (None on the outer planes).
_COVERING: dict[Slot, tuple[tuple[int, Slot | None], ...]] = {
    s: tuple((axis, above if min(above) >= 0 else None) for axis, u in enumerate(_UNIT) for above in [_add(s, u, -1)])
    for s in SLOTS
}


def free_slots(occupied: Iterable[Slot]) -> list[Slot]:
    """Occupied slots whose die can be removed without moving another: nothing rests on it. In slot order."""
    occ = _check_all(occupied)
    return [s for s, above in zip(SLOTS, _RESTING_ON, strict=True) if s in occ and occ.isdisjoint(above)]


def open_slots(occupied: Iterable[Slot]) -> list[Slot]:
    """Empty slots ready for a die: base funnels, or funnels whose three supports are occupied. In slot order."""
    occ = _check_all(occupied)
    return [s for s, below in zip(SLOTS, SUPPORTS, strict=True) if s not in occ and occ.issuperset(below)]


def is_stable(occupied: Iterable[Slot]) -> bool:
    """Whether every occupied slot has all its supports occupied."""
    occ = _check_all(occupied)
    return all(all(t in occ for t in supports(s)) for s in occ)


def exposed_faces(occupied: Iterable[Slot]) -> list[Exposed]:
    """The upward faces not covered by another die: (slot, axis) for axis 0, 1, 2 = +i, +j, +k."""
    occ = _check_all(occupied)
    ordered = sorted(occ, key=SLOT_INDEX.__getitem__)
    return [(s, axis) for s in ordered for axis, above in _COVERING[s] if above not in occ]


def outer_faces(occupied: Iterable[Slot]) -> list[Exposed]:
    """Exposed faces on the three outer planes i = 0, j = 0, k = 0 (the rule book's 135 faces)."""
    return [(s, axis) for s, axis in exposed_faces(occupied) if s[axis] == 0]


def face_count(owner: Mapping[Slot, str], outer_only: bool = False) -> Counter[str]:
    """Faces showing per owner (a colour or a player): edge dice count double, the apex triple.

    ``owner`` maps occupied slots to who owns that die. Every uncovered upper face counts (135 in all
    on the complete pyramid); with ``outer_only`` only those on the big pyramid's three outer planes.
    """
    faces = outer_faces(owner) if outer_only else exposed_faces(owner)
    return Counter(owner[s] for s, _ in faces)


def pip_sum(up: Mapping[Slot, UpFaces], outer_only: bool = False) -> int:
    """Sum of the pips on the faces that show (``up`` maps slots to their upward faces)."""
    faces = outer_faces(up) if outer_only else exposed_faces(up)
    return sum(up[s][axis] for s, axis in faces)


# The six in-layer neighbour directions: permutations of (+1, -1, 0).
NEIGHBOUR_STEPS: tuple[Slot, ...] = (
    (1, -1, 0),
    (-1, 1, 0),
    (1, 0, -1),
    (-1, 0, 1),
    (0, 1, -1),
    (0, -1, 1),
)
# One direction per row family; the row keeps constant the coordinate that the step leaves at 0.
ROW_DIRECTIONS: tuple[Slot, ...] = ((0, 1, -1), (1, 0, -1), (1, -1, 0))


def neighbours(slot: Slot) -> list[Slot]:
    """The up to six slots of the same layer that touch ``slot`` edge to edge."""
    return list(_neighbours(check_slot(slot)))


@cache
def _neighbours(slot: Slot) -> tuple[Slot, ...]:
    return tuple(n for n in (_add(slot, d) for d in NEIGHBOUR_STEPS) if min(n) >= 0)


def row(slot: Slot, direction: Slot) -> list[Slot]:
    """The whole row of ``slot``'s layer through ``slot`` along ``direction`` (a neighbour step)."""
    if direction not in NEIGHBOUR_STEPS:
        raise ValueError(f"direction must be one of {NEIGHBOUR_STEPS}, got {direction}")
    start = check_slot(slot)
    while min(prev := _add(start, direction, -1)) >= 0:
        start = prev
    out = []
    while min(start) >= 0:
        out.append(start)
        start = _add(start, direction)
    return out


def rows(n: int) -> list[list[Slot]]:
    """All rows of layer ``n``: the n + 1 rows along each of the three row directions, family by family.

    Each family covers the layer once; the apex (layer 0) is the one row of each family.
    """
    out = []
    for d in ROW_DIRECTIONS:
        fixed = d.index(0)
        for value in range(n + 1):
            first = next(s for s in layer_slots(n) if s[fixed] == value)
            out.append(row(first, d))
    return out


def row_axis(direction: Slot) -> int:
    """The coordinate that stays constant along ``direction`` (a neighbour step): its row family."""
    if direction not in NEIGHBOUR_STEPS:
        raise ValueError(f"direction must be one of {NEIGHBOUR_STEPS}, got {direction}")
    return direction.index(0)


def ray(slot: Slot, direction: Slot) -> list[Slot]:
    """The slots of ``slot``'s layer beyond it along ``direction`` (a neighbour step), nearest first."""
    row_axis(direction)
    out = []
    step = _add(check_slot(slot), direction)
    while min(step) >= 0:
        out.append(step)
        step = _add(step, direction)
    return out


def pointing_face(up: UpFaces, direction: Slot) -> Face:
    """The face of a seated die showing ``up`` that points along ``direction`` (and its opposite).

    The project's convention: the face along +a points along the rows of constant a, the rows its
    horizontal diagonal lies on (seen from above, each of the three up faces is a rhombus whose
    short diagonal is parallel to the plate and runs along one row family).
    """
    return up[row_axis(direction)]


# --- small pyramids --------------------------------------------------------------------------

SMALL_PYRAMID_LAYERS = {1: 1, 4: 2, 10: 3, 20: 4, 35: 5, 56: 6, 84: 7, 120: 8, 165: 9}


def small_pyramid(dice: int, apex: Slot) -> list[Slot]:
    """The slots of a pyramid of ``dice`` dice (4, 10, 20, 56, ...) with its top at ``apex``.

    The small pyramid stands on the plate, so its apex must lie in layer ``9 - layers``.
    """
    if dice not in SMALL_PYRAMID_LAYERS:
        raise ValueError(f"a pyramid has 1, 4, 10, 20, 35, 56, 84, 120 or 165 dice, not {dice}")
    n = SMALL_PYRAMID_LAYERS[dice]
    if not is_slot(apex) or layer(apex) != LAYERS - n:
        raise ValueError(f"the apex of a {dice}-die pyramid must be a slot of layer {LAYERS - n}, got {apex}")
    return [_add(apex, d) for m in range(n) for d in layer_slots(m)]


def small_pyramid_apexes(dice: int) -> dict[str, Slot]:
    """Named apex positions for a small pyramid: the three corners ``a``, ``b``, ``c`` and ``centre``."""
    if dice not in SMALL_PYRAMID_LAYERS:
        raise ValueError(f"a pyramid has 1, 4, 10, 20, 35, 56, 84, 120 or 165 dice, not {dice}")
    top = LAYERS - SMALL_PYRAMID_LAYERS[dice]
    third = top / 3
    centre = min(layer_slots(top), key=lambda s: sum((c - third) ** 2 for c in s))
    return {"a": (top, 0, 0), "b": (0, top, 0), "c": (0, 0, top), "centre": centre}


# --- orientation of a die in the lattice -----------------------------------------------------


def orientation_matrix(up: UpFaces) -> np.ndarray:
    """Rotation (3, 3) from the die's body frame to the cube frame that shows ``up`` along +i, +j, +k.

    Raises ValueError unless the three values meet at one corner of a right-handed die.
    """
    if not isinstance(up, tuple) or len(up) != 3 or any(v not in FACE_NORMALS for v in up):
        raise ValueError(f"up faces must be three values 1..6, got {up}")
    # Rows are the body normals of the faces that must point along the cube axes.
    q = np.array([FACE_NORMALS[v] for v in up], dtype=float)
    if round(float(np.linalg.det(q))) != 1:
        raise ValueError(f"faces {up} do not meet counter-clockwise at one corner of a die")
    return q


# FACE_ON_AXIS[axis, positive]: the face whose outward normal is the body axis, with that sign.
FACE_ON_AXIS = np.zeros((3, 2), dtype=int)
for _value, _normal in FACE_NORMALS.items():
    _axis = int(np.flatnonzero(_normal)[0])
    FACE_ON_AXIS[_axis, int(_normal[_axis] > 0)] = _value


def faces_along(directions: np.ndarray) -> np.ndarray:
    """The face (..,) int whose outward normal is nearest to each body-frame direction (.., 3)."""
    directions = np.asarray(directions, dtype=float)
    axis = np.argmax(np.abs(directions), axis=-1)
    positive = np.take_along_axis(directions, axis[..., None], axis=-1)[..., 0] > 0
    return FACE_ON_AXIS[axis, positive.astype(int)]


def up_faces(q: np.ndarray) -> UpFaces:
    """The faces along +i, +j, +k for a body-to-cube rotation ``q`` (3, 3), snapped to the lattice."""
    # Row a of q is the body direction that cube axis a points along.
    a, b, c = faces_along(np.asarray(q)).tolist()
    return (a, b, c)


ALL_UP_FACES: tuple[UpFaces, ...] = tuple(
    sorted(
        (a, b, c)
        for a in FACE_NORMALS
        for b in FACE_NORMALS
        for c in FACE_NORMALS
        if len({a, b, c, 7 - a, 7 - b, 7 - c}) == 6
        and round(float(np.linalg.det(np.array([FACE_NORMALS[v] for v in (a, b, c)])))) == 1
    )
)


# --- the physical frame ----------------------------------------------------------------------
# All lengths below are in die edges; multiply by the edge (metres) for the world.

# Rows are the plate frame's x, y, z axes in cube coordinates: z is the cube diagonal (1, 1, 1),
# x points from the plate's centre towards the corner funnel (8, 0, 0).
CUBE_TO_PLATE = np.array(
    [
        np.array([-2.0, 1.0, 1.0]) / np.sqrt(6.0),
        np.array([0.0, -1.0, 1.0]) / np.sqrt(2.0),
        np.array([1.0, 1.0, 1.0]) / np.sqrt(3.0),
    ]
)
# Height above the plate's underside of the lowest corner of the virtual 10th layer of cubes
# whose upper faces form the funnels.
PLATE_FOOT = 0.2
APEX_HEIGHT = LAYERS / SQRT3 + SQRT3 / 2 + PLATE_FOOT
FUNNEL_BOTTOM = APEX_HEIGHT - BASE_LAYER / SQRT3 - SQRT3 / 2
SLAB_TOP = FUNNEL_BOTTOM - 0.1
RIM = 0.6  # flat rim of the plate beyond the outermost funnel walls
SLAB_INRADIUS = LAYERS * SQRT2 / (2 * SQRT3) + 1 / SQRT2 + RIM


def in_plate_frame(points: np.ndarray, plate_pose: np.ndarray) -> np.ndarray:
    """World points (n, 3) or (3,) in the frame of the plate at ``plate_pose`` (7,): same units, z along its normal."""
    pose = np.asarray(plate_pose, dtype=float)
    return (np.asarray(points, dtype=float) - pose[:3]) @ quat_to_matrix(pose[3:])[0]


def cube_to_plate(points: np.ndarray) -> np.ndarray:
    """Cube-frame points (n, 3), in edges, to plate-frame points (n, 3), in edges."""
    return np.asarray(points, dtype=float) @ CUBE_TO_PLATE.T + np.array([0.0, 0.0, APEX_HEIGHT])


def plate_to_cube(points: np.ndarray) -> np.ndarray:
    """Plate-frame points (n, 3), in edges, to cube-frame points (n, 3), in edges."""
    return (np.asarray(points, dtype=float) - np.array([0.0, 0.0, APEX_HEIGHT])) @ CUBE_TO_PLATE


def slot_centre(slot: Slot) -> np.ndarray:
    """Centre (3,) of a seated die in the plate frame, in edges."""
    return slot_centres([slot])[0]


def slot_centres(slots: Iterable[Slot] = SLOTS) -> np.ndarray:
    """Centres (n, 3) of seated dice in the plate frame, in edges."""
    return cube_to_plate(-np.array(list(slots), dtype=float).reshape(-1, 3))


def nearest_slots(cube: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For cube-frame points (n, 3), in edges: the nearest lattice point (n, 3) int and the distance (n,)."""
    cube = np.asarray(cube, dtype=float).reshape(-1, 3)
    # Slot (i, j, k) sits at -(i, j, k) in the cube frame.
    slots = np.rint(-cube).astype(int)
    return slots, np.linalg.norm(cube + slots, axis=1)


# The virtual 10th layer (i + j + k = 9): the 55 cubes whose upper faces are the plate's surface.
PLATE_CUBES: tuple[Slot, ...] = tuple((i, j, 9 - i - j) for i in range(10) for j in range(10 - i))
PLATE_CUBE_CENTRES = cube_to_plate(-np.array(PLATE_CUBES, dtype=float))


def slab_corners() -> np.ndarray:
    """The plate's triangular outline (3, 2) in the plate frame, in edges; corner 0 points along +x."""
    circumradius = 2 * SLAB_INRADIUS
    angles = np.radians([0.0, 120.0, 240.0])
    return circumradius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def on_plate_footprint(xy: np.ndarray) -> np.ndarray:
    """Whether plate-frame points (n, 2), in edges, lie over the plate's triangle: (n,) bool."""
    xy = np.atleast_2d(xy)
    corners = slab_corners()
    inside = np.ones(len(xy), dtype=bool)
    for a in range(3):
        p, q = corners[a], corners[(a + 1) % 3]
        # Sign of the 2-D cross product: left of each counter-clockwise edge means inside.
        inside &= (q[0] - p[0]) * (xy[:, 1] - p[1]) - (q[1] - p[1]) * (xy[:, 0] - p[0]) >= 0
    return inside


# --- rotations -------------------------------------------------------------------------------


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    """Unit quaternions (n, 4) in (x, y, z, w) order, as PyBullet gives them, to rotations (n, 3, 3).

    Of one quaternion (4,), the rotation is read only (kept for the next call).
    """
    q = np.asarray(q, dtype=float)
    if q.shape == (4,):
        return _quat_to_matrix_one(*q.tolist())
    q = np.atleast_2d(q)
    # Written out, not scipy's Rotation, whose diagonal (x^2 - y^2 - z^2 + w^2 of a renormalised q)
    # differs in the last bit: the chaotic physics of a plate tilted with it then differs too. Each entry
    # is 2 (a +- b) of two products of components (1 less that on the diagonal), e.g. 2 (xy - zw): the
    # 16 products in one go, then the two of each entry picked out.
    products = (q[:, :, None] * q[:, None, :]).reshape(-1, 16)
    m = 2 * (products.take(_ROTATION_A, axis=1) + _ROTATION_SIGN * products.take(_ROTATION_B, axis=1))
    m[:, ::4] = 1 - m[:, ::4]
    return m.reshape(-1, 3, 3)


@lru_cache(maxsize=64)
def _quat_to_matrix_one(x: float, y: float, z: float, w: float) -> np.ndarray:
    """``quat_to_matrix`` of one quaternion, (1, 3, 3), the same products and sums in Python floats (a quarter of
    the time), read only and kept: a step asks for the plate's turn and its frame's several times."""
    out = np.array(
        [
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
            ]
        ]
    )
    out.flags.writeable = False
    return out


# The products of quaternion components (x, y, z, w) = (0, 1, 2, 3) in each rotation entry, row by row,
# as 4 i + j for q_i q_j: the first, the second and its sign (yy + zz, xy - zw, xz + yw, ...).
_ROTATION_A = np.array([5, 1, 2, 1, 0, 6, 2, 6, 0])
_ROTATION_B = np.array([10, 11, 7, 11, 10, 3, 7, 3, 5])
_ROTATION_SIGN = np.array([1.0, -1.0, 1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0])


FEW_ROWS = 8  # up to this many rows, small products are summed in Python floats: numpy's calls cost more than the sums


def cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross products (n, 3) of rows of ``a`` (n, 3), or of one ``a`` (3,), with rows of ``b`` (n, 3): ``np.cross(a,
    b)`` bit for bit (each product rounded, then the difference), in a fifth of its time."""
    if a.ndim == 1 and len(b) <= FEW_ROWS:
        # One ``a`` and a few rows: the same products and differences in Python floats, rounded alike, sooner.
        ax, ay, az = a.tolist()
        rows = [[ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx] for bx, by, bz in b.tolist()]
        return np.array(rows).reshape(-1, 3)
    out = np.empty(b.shape)
    out[:, 0] = a[..., 1] * b[:, 2] - a[..., 2] * b[:, 1]
    out[:, 1] = a[..., 2] * b[:, 0] - a[..., 0] * b[:, 2]
    out[:, 2] = a[..., 0] * b[:, 1] - a[..., 1] * b[:, 0]
    return out


def lengths(vectors: np.ndarray, axis: int = 1) -> np.ndarray:
    """The lengths of ``vectors`` along ``axis``: ``np.linalg.norm(vectors, axis=axis)`` bit for bit, sooner."""
    return np.sqrt(np.add.reduce(vectors * vectors, axis=axis))


def matrix_to_quat(m: np.ndarray) -> np.ndarray:
    """A rotation (3, 3) to a unit quaternion (4,) in (x, y, z, w) order."""
    m = np.asarray(m, dtype=float)
    # Shepperd's method: pivot on the largest of w, x, y, z to stay well conditioned. Written out, not
    # scipy's Rotation, whose Markley method (normalising [m21 - m12, m02 - m20, m10 - m01, 1 + trace])
    # differs in the last bit: the chaotic physics of a pyramid seated from it then differs too.
    t = np.trace(m)
    if t > 0:
        s = 2 * np.sqrt(1 + t)
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
    else:
        a = int(np.argmax(np.diag(m)))
        b, c = (a + 1) % 3, (a + 2) % 3
        s = 2 * np.sqrt(1 + m[a, a] - m[b, b] - m[c, c])
        q = [0.0, 0.0, 0.0, (m[c, b] - m[b, c]) / s]
        q[a] = s / 4
        q[b] = (m[a, b] + m[b, a]) / s
        q[c] = (m[a, c] + m[c, a]) / s
    out = np.array(q)
    return out / np.linalg.norm(out)


def seated_rotation(up: UpFaces) -> np.ndarray:
    """Rotation (3, 3) from a die's body frame to the plate frame for a die seated showing ``up``."""
    return CUBE_TO_PLATE @ orientation_matrix(up)


def slab_prism() -> tuple[np.ndarray, np.ndarray]:
    """The plate's slab as a closed triangle mesh: vertices (6, 3) in edges and faces (8, 3), wound outward."""
    corners = slab_corners()
    vertices = np.array([[x, y, z] for z in (0.0, SLAB_TOP) for x, y in corners])
    # Vertices 0-2 are the bottom triangle, 3-5 the top, both counter-clockwise seen from above.
    tris = [(0, 2, 1), (3, 4, 5)]
    for a in range(3):
        b = (a + 1) % 3
        tris += [(a, b, b + 3), (a, b + 3, a + 3)]
    return vertices, np.array(tris)
