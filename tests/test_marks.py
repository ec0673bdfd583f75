"""Marks on the window's picture: corner letters where the plate's corners are, and funnel labels in action texts."""

from __future__ import annotations

import numpy as np

from pyramid import geometry
from pyramid.ui.marks import corner_marks, slot_marks, with_labels


def test_action_texts_name_each_slot_by_its_label_too() -> None:
    text = with_labels("jump (7, 0, 0) to (6, 0, 1)")
    assert text == "jump h36 (7, 0, 0) to h34 (6, 0, 1)"
    # a direction is no slot: it stays as it is
    assert with_labels("shift (0, 6, 2) by (1, -1, 0)") == "shift i7 (0, 6, 2) by (1, -1, 0)"
    assert with_labels("pass") == "pass"
    # a slot the text already labels is labelled once
    assert with_labels("hide the wolf in i3 (0, 2, 6)") == "hide the wolf in i3 (0, 2, 6)"
    assert with_labels("i3 (0, 2, 6) to (6, 0, 1)") == "i3 (0, 2, 6) to h34 (6, 0, 1)"


def test_the_corner_letters_stand_beyond_their_corners_and_turn_with_the_plate() -> None:
    edge = 0.016
    flat = np.array([0, 0, 0, 0, 0, 0, 1.0])
    marks = corner_marks(flat, edge)
    assert [m.text for m in marks] == ["corner a", "corner b", "corner c"]
    middle = np.mean([geometry.slot_centre(s) for s in ((8, 0, 0), (0, 8, 0), (0, 0, 8))], axis=0) * edge
    for mark, slot in zip(marks, ((8, 0, 0), (0, 8, 0), (0, 0, 8)), strict=True):
        corner = geometry.slot_centre(slot) * edge
        point = np.array(mark.point)
        # beyond the corner funnel, outwards from the middle, and nearer that corner than any other
        assert np.linalg.norm(point[:2] - middle[:2]) > np.linalg.norm(corner[:2] - middle[:2])
        others = [geometry.slot_centre(s) * edge for s in ((8, 0, 0), (0, 8, 0), (0, 0, 8)) if s != slot]
        assert all(np.linalg.norm(point - corner) < np.linalg.norm(point - o) for o in others)
    # the plate turned a quarter round the vertical and lifted: the letters go with it
    turned = np.array([0.0, 0.0, 0.01, 0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)])
    moved = corner_marks(turned, edge)
    for before, after in zip(marks, moved, strict=True):
        x, y, z = before.point
        assert np.allclose(after.point, (-y, x, z + 0.01), atol=1e-9)


def test_slot_marks_put_each_label_at_its_centre() -> None:
    marks = slot_marks([(8, 0, 0), (0, 0, 0)], lambda s: geometry.slot_centre(s) * 0.016)
    assert [m.text for m in marks] == ["i45", "a1"]
    assert np.allclose(marks[1].point, geometry.slot_centre((0, 0, 0)) * 0.016)
