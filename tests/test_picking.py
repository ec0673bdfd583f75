"""What a ray from the eye meets: dice, the cell beyond a face, funnels, the table. Pure numpy, no window."""

from __future__ import annotations

import math

import numpy as np

from pyramid import geometry
from pyramid.picking import face_cell, nearest_funnel, pick_die, ray_hit, table_point

EDGE = 0.016
DOWN = np.array([0.0, 0.0, -1.0])


def _poses(*centres: tuple[float, float, float], yaw: float = 0.0) -> np.ndarray:
    """Poses (n, 7) of dice at ``centres``, each turned by ``yaw`` degrees about the vertical."""
    half = math.radians(yaw) / 2
    quat = [0.0, 0.0, math.sin(half), math.cos(half)]
    return np.array([[*c, *quat] for c in centres])


def test_a_ray_picks_the_nearest_die_it_passes_through_and_says_where_it_enters() -> None:
    poses = _poses((0.0, 0.0, 0.008), (0.0, 0.0, 0.040), (0.05, 0.0, 0.008))
    # Straight down onto the stack of two: the upper die is hit first, at its top face.
    hit = ray_hit(np.array([0.0, 0.0, 0.2]), DOWN, poses, EDGE)
    assert hit is not None and hit[0] == 1 and math.isclose(hit[1], 0.2 - 0.048, abs_tol=1e-9)
    assert pick_die(np.array([0.0, 0.0, 0.2]), DOWN, poses, EDGE) == 1
    # Along +x at the height of the lower dice: the nearer of the two in a row.
    assert pick_die(np.array([-0.1, 0.0, 0.008]), np.array([1.0, 0.0, 0.0]), poses, EDGE) == 0
    assert pick_die(np.array([0.1, 0.0, 0.008]), np.array([-1.0, 0.0, 0.0]), poses, EDGE) == 2
    # Beside every die, behind the eye, or no dice at all: nothing.
    assert pick_die(np.array([0.02, 0.03, 0.2]), DOWN, poses, EDGE) is None
    assert pick_die(np.array([0.0, 0.0, -0.2]), DOWN, poses, EDGE) is None
    assert ray_hit(np.array([0.0, 0.0, 0.2]), DOWN, np.zeros((0, 7)), EDGE) is None


def test_a_turned_die_is_hit_where_its_corner_reaches_out() -> None:
    origin = np.array([0.6 * EDGE, 0.0, 0.2])  # outside the half edge, inside the half diagonal
    assert pick_die(origin, DOWN, _poses((0.0, 0.0, 0.008)), EDGE) is None
    assert pick_die(origin, DOWN, _poses((0.0, 0.0, 0.008), yaw=45.0), EDGE) == 0


def test_table_point_meets_the_plane_below_the_eye_and_nothing_above() -> None:
    direction = np.array([1.0, 0.0, -1.0]) / math.sqrt(2)
    assert np.allclose(table_point(np.array([0.0, 0.0, 1.0]), direction), [1.0, 0.0, 0.0])  # type: ignore[arg-type]
    assert np.allclose(table_point(np.array([0.0, 0.0, 1.0]), direction, 0.5), [0.5, 0.0, 0.5])  # type: ignore[arg-type]
    assert table_point(np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])) is None
    assert table_point(np.array([0.0, 0.0, 1.0]), -direction) is None


def test_nearest_funnel_is_the_closest_to_the_ray_within_reach_and_the_nearest_to_the_eye_on_ties() -> None:
    origin = np.zeros(3)
    along_x = np.array([1.0, 0.0, 0.0])
    centres = {(0, 0, 0): np.array([0.10, 0.005, 0.0]), (1, 0, 0): np.array([0.10, 0.001, 0.0])}
    assert nearest_funnel(origin, along_x, centres, reach=0.01) == (1, 0, 0)
    assert nearest_funnel(origin, along_x, centres, reach=0.0005) is None, "none within reach"
    assert nearest_funnel(-0.2 * along_x, -along_x, centres, reach=0.01) is None, "all behind the eye"
    on_the_ray = {(2, 0, 0): np.array([0.30, 0.0, 0.0]), (3, 0, 0): np.array([0.20, 0.0, 0.0])}
    assert nearest_funnel(origin, along_x, on_the_ray, reach=0.01) == (3, 0, 0)
    assert nearest_funnel(origin, along_x, {}, reach=0.01) is None


def test_face_cell_names_the_cell_beyond_each_face_of_a_die_on_a_tilted_plate() -> None:
    edge = 0.016
    angle = math.radians(10)
    rot = np.array([[1, 0, 0], [0, math.cos(angle), -math.sin(angle)], [0, math.sin(angle), math.cos(angle)]])
    plate_pose = np.concatenate([[0.01, -0.02, 0.05], geometry.matrix_to_quat(rot)])
    slot = (5, 1, 1)
    centre = plate_pose[:3] + rot @ geometry.slot_centre(slot) * edge
    for axis in range(3):
        for sign in (1, -1):
            # A point on the face along sign * axis, off its centre towards an edge.
            side = geometry.CUBE_TO_PLATE[:, (axis + 1) % 3]
            point = centre + rot @ (0.49 * sign * edge * geometry.CUBE_TO_PLATE[:, axis] + 0.3 * edge * side)
            expected = tuple(c - sign * (n == axis) for n, c in enumerate(slot))
            assert face_cell(point, centre, plate_pose, edge) == expected, (axis, sign)
    # The face along +i of the die in (0, 1, 1) leads outside the full pyramid.
    centre = plate_pose[:3] + rot @ geometry.slot_centre((0, 1, 1)) * edge
    point = centre + rot @ (0.5 * edge * geometry.CUBE_TO_PLATE[:, 0])
    assert face_cell(point, centre, plate_pose, edge) == (-1, 1, 1)
