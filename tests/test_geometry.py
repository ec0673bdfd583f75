"""The lattice: slots, supports, free dice, exposed faces and scores, checked against design.md."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pyramid import geometry as g


def test_slot_counts_per_layer_are_triangular_numbers() -> None:
    assert len(g.SLOTS) == 165
    assert [len(g.layer_slots(n)) for n in range(9)] == [(n + 1) * (n + 2) // 2 for n in range(9)]
    assert len(g.BASE_SLOTS) == 45
    assert len(set(g.SLOTS)) == 165


def test_supports_and_resting_are_inverse() -> None:
    for s in g.SLOTS:
        for t in g.supports(s):
            assert s in g.resting_on(t)
        for r in g.resting_on(s):
            assert s in g.supports(r)
    assert g.supports((8, 0, 0)) == ()
    assert set(g.supports((0, 0, 0))) == {(1, 0, 0), (0, 1, 0), (0, 0, 1)}
    assert g.resting_on((0, 0, 0)) == ()


def test_complete_pyramid_only_apex_is_free_and_135_faces_show() -> None:
    occupied = set(g.SLOTS)
    assert g.free_slots(occupied) == [g.APEX]
    faces = g.outer_faces(occupied)
    assert len(faces) == 135
    per_die = Counter(s for s, _ in faces)
    assert len(per_die) == 109
    assert Counter(per_die.values()) == {1: 84, 2: 24, 3: 1}
    assert per_die[g.APEX] == 3


def test_free_and_open_slots_of_a_partial_structure() -> None:
    base = set(g.BASE_SLOTS)
    assert len(g.free_slots(base)) == 45
    opened = g.open_slots(base)
    assert len(opened) == 36 and all(g.layer(s) == 7 for s in opened)
    one_up = base | {(7, 0, 0)}
    assert (8, 0, 0) not in g.free_slots(one_up)
    assert (7, 0, 0) in g.free_slots(one_up)
    assert g.is_stable(one_up) and not g.is_stable({(0, 0, 0)})


def test_face_count_per_owner_edges_double_apex_triple() -> None:
    owner = {s: ("apex" if s == g.APEX else "edge" if sorted(s)[:2] == [0, 0] else "rest") for s in g.SLOTS}
    counts = g.face_count(owner)
    assert counts["apex"] == 3
    assert counts["edge"] == 48
    assert sum(counts.values()) == 135


def test_neighbours_and_rows() -> None:
    assert sorted(g.neighbours((1, 1, 0))) == [(0, 1, 1), (0, 2, 0), (1, 0, 1), (2, 0, 0)]
    assert len(g.neighbours((2, 2, 4))) == 6
    for n in range(9):
        rows = g.rows(n)
        assert len(rows) == 3 * (n + 1)
        for family in range(3):
            cover = [s for r in rows[family * (n + 1) : (family + 1) * (n + 1)] for s in r]
            assert sorted(cover) == sorted(g.layer_slots(n))
    assert g.row((4, 0, 4), (1, -1, 0)) == [(0, 4, 4), (1, 3, 4), (2, 2, 4), (3, 1, 4), (4, 0, 4)]
    assert g.row((8, 0, 0), (0, 1, -1)) == [(8, 0, 0)]
    with pytest.raises(ValueError):
        g.row((0, 0, 0), (1, 1, 0))


@pytest.mark.parametrize("dice, layers", [(4, 2), (10, 3), (20, 4), (56, 6)])
def test_small_pyramids_stand_on_the_plate_anywhere(dice: int, layers: int) -> None:
    for apex in g.layer_slots(9 - layers):
        slots = g.small_pyramid(dice, apex)
        assert len(slots) == len(set(slots)) == dice
        assert all(g.is_slot(s) for s in slots)
        assert g.is_stable(slots)
        assert sum(g.layer(s) == 8 for s in slots) == layers * (layers + 1) // 2
    named = g.small_pyramid_apexes(dice)
    assert set(named) == {"a", "b", "c", "centre"}
    with pytest.raises(ValueError):
        g.small_pyramid(dice, (0, 0, 0))
    with pytest.raises(ValueError):
        g.small_pyramid(7, (0, 0, 0))


def test_there_are_24_right_handed_orientations() -> None:
    assert len(g.ALL_UP_FACES) == 24
    corners = Counter(frozenset(u) for u in g.ALL_UP_FACES)
    assert len(corners) == 8 and set(corners.values()) == {3}
    assert (1, 2, 3) in g.ALL_UP_FACES and (1, 3, 2) not in g.ALL_UP_FACES
    with pytest.raises(ValueError):
        g.orientation_matrix((1, 6, 2))


def test_orientation_round_trips_through_quaternions() -> None:
    for up in g.ALL_UP_FACES:
        rot = g.seated_rotation(up)
        back = g.quat_to_matrix(g.matrix_to_quat(rot))[0]
        np.testing.assert_allclose(back, rot, atol=1e-12)
        assert g.up_faces(g.CUBE_TO_PLATE.T @ back) == up
        # The face along +i points along the cube axis i, which is 54.7 degrees from vertical.
        normal = rot @ np.array(g.FACE_NORMALS[up[0]])
        assert normal[2] == pytest.approx(1 / np.sqrt(3))


def test_lattice_distances_match_design() -> None:
    c = g.slot_centres()
    index = g.SLOT_INDEX
    assert np.linalg.norm(c[index[(1, 0, 0)]] - c[index[(0, 1, 0)]]) == pytest.approx(np.sqrt(2))
    assert c[index[(0, 0, 0)]][2] - c[index[(1, 0, 0)]][2] == pytest.approx(1 / np.sqrt(3))
    np.testing.assert_allclose(c[index[g.APEX]][:2], 0, atol=1e-12)
    # Base dice sit with their lowest corner at the bottom of the funnel.
    assert c[index[(8, 0, 0)]][2] - np.sqrt(3) / 2 == pytest.approx(g.FUNNEL_BOTTOM)
    slots, err = g.nearest_slots(g.plate_to_cube(c))
    assert (slots == np.array(g.SLOTS)).all() and err.max() < 1e-12


def test_plate_footprint_contains_every_slot() -> None:
    assert g.on_plate_footprint(g.slot_centres()[:, :2]).all()
    assert not g.on_plate_footprint(np.array([[20.0, 0.0]])).any()


def test_what_is_not_a_slot_is_refused_by_name() -> None:
    for stray in [(0.5, 0, 0), (1.0, 2.0, 3.0), (0, 0, 9), (-1, 0, 0), (True, 0, 0)]:
        assert not g.is_slot(stray)  # type: ignore[arg-type]
    assert g.is_slot((1, 2, 3)) and g.is_slot(tuple(np.array([1, 2, 3])))
    for call in (g.supports, g.resting_on, g.neighbours):
        with pytest.raises(ValueError, match=r"\(0, 0, 9\) is not a slot of the pyramid"):
            call((0, 0, 9))
    with pytest.raises(ValueError, match=r"\(-1, 0, 0\) is not a slot"):
        g.free_slots([(0, 0, 0), (-1, 0, 0)])
    with pytest.raises(ValueError, match="not a slot"):
        g.exposed_faces([(9, 0, 0)])
    with pytest.raises(ValueError, match="a pyramid has 1, 4, 10"):
        g.small_pyramid_apexes(7)


def test_one_quaternions_matrix_is_the_batchs_bit_for_bit() -> None:
    """One quaternion's written-out matrix is the batched one to the bit (a tilted plate's run depends on it)."""
    rng = np.random.default_rng(0)
    quats = rng.normal(size=(2000, 4))
    quats[:100, 2] = 0.0
    quats[100:200, :2] = -0.0
    quats[200] = [0.0, 0.0, 0.0, 1.0]
    quats /= np.linalg.norm(quats, axis=1)[:, None]
    batch = g.quat_to_matrix(quats)
    for n, q in enumerate(quats):
        assert g.quat_to_matrix(q).tobytes() == batch[n : n + 1].tobytes(), q
    assert np.allclose(batch @ batch.transpose(0, 2, 1), np.eye(3), atol=1e-12)


def test_cross_rows_is_numpys_cross_bit_for_bit() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(500, 3)), rng.normal(size=(500, 3))
    a[:20] = 0.0
    b[20:40, 1] = -0.0
    assert g.cross_rows(a, b).tobytes() == np.cross(a, b).tobytes()
    for one in (a[0], a[30], a[300]):
        assert g.cross_rows(one, b).tobytes() == np.cross(one, b).tobytes()
        # A few rows are crossed in Python floats: the same bits, and the right shape for none.
        for rows in range(1, g.FEW_ROWS + 1):
            assert g.cross_rows(one, b[15 : 15 + rows]).tobytes() == np.cross(one, b[15 : 15 + rows]).tobytes()
        assert g.cross_rows(one, b[:0]).shape == (0, 3)
