"""What a ray from the eye meets: the die it hits, the cell beyond the face it enters, a funnel, the table.

Pure numpy, in world coordinates (metres): the window's hands pick with it (``pyramid.ui.hands``),
and a script can aim the same way.
"""

from __future__ import annotations

import numpy as np

from pyramid import geometry


def pick_die(origin: np.ndarray, direction: np.ndarray, poses: np.ndarray, edge: float) -> int | None:
    """Index of the nearest die whose cube the ray (origin (3,), unit direction (3,)) hits, or None.

    poses : (n, 7) float, die positions and quaternions (x, y, z, w)
    """
    hit = ray_hit(origin, direction, poses, edge)
    return None if hit is None else hit[0]


def ray_hit(origin: np.ndarray, direction: np.ndarray, poses: np.ndarray, edge: float) -> tuple[int, float] | None:
    """The nearest die the ray hits and how far along the ray (metres) it enters its cube, or None.

    poses : (n, 7) float, die positions and quaternions (x, y, z, w)
    """
    if len(poses) == 0:
        return None
    rot = geometry.quat_to_matrix(poses[:, 3:])  # (n, 3, 3) body -> world
    # The ray in each die's body frame, then the slab test against the cube [-edge/2, edge/2]^3.
    o = np.einsum("nji,nj->ni", rot, origin - poses[:, :3])
    d = np.einsum("nji,j->ni", rot, direction)
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (-edge / 2 - o) / d, (edge / 2 - o) / d
    near = np.nanmax(np.minimum(t1, t2), axis=1)
    far = np.nanmin(np.maximum(t1, t2), axis=1)
    hit = (near <= far) & (far > 0)
    if not hit.any():
        return None
    n = int(np.flatnonzero(hit)[np.argmin(near[hit])])
    return n, float(near[n])


def face_cell(point: np.ndarray, centre: np.ndarray, plate_pose: np.ndarray, edge: float) -> tuple[int, int, int]:
    """The lattice cell beyond the face of a corner-down die (centre (3,)) on which ``point`` (3,) lies.

    The face along +i of the die in cell (i, j, k) leads to (i - 1, j, k), the face along -i to (i + 1, j, k),
    and so on; cells beyond the pyramid's faces have a negative coordinate. plate_pose : (7,) float.
    """
    # Both points in the plate's frame, in edges, then in the cube frame, where cell (i, j, k) sits at -(i, j, k).
    cube = geometry.plate_to_cube(geometry.in_plate_frame(np.stack([point, centre]), plate_pose) / edge)
    cell = geometry.nearest_slots(cube[1:])[0][0].astype(int)
    # The face is the one whose normal the point lies farthest along, seen from the centre.
    along = cube[0] - cube[1]
    axis = int(np.argmax(np.abs(along)))
    cell[axis] -= int(np.sign(along[axis]))
    return int(cell[0]), int(cell[1]), int(cell[2])


def table_point(origin: np.ndarray, direction: np.ndarray, height: float = 0.0) -> np.ndarray | None:
    """Where the ray meets the horizontal plane z = ``height``, or None if it never does."""
    if direction[2] >= -1e-9:
        return None
    t = (height - origin[2]) / direction[2]
    return origin + t * direction


def nearest_funnel(
    origin: np.ndarray, direction: np.ndarray, centres: dict[geometry.Slot, np.ndarray], reach: float
) -> geometry.Slot | None:
    """The slot whose centre passes closest to the ray, within ``reach`` metres; the nearest to the eye on ties."""
    best: tuple[float, float, geometry.Slot] | None = None
    for slot, centre in centres.items():
        along = float((centre - origin) @ direction)
        gap = float(np.linalg.norm(centre - origin - along * direction))
        if along > 0 and gap <= reach and (best is None or (round(gap / reach, 1), along) < best[:2]):
            best = (round(gap / reach, 1), along, slot)
    return best[2] if best else None
