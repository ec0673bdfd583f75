"""Poses -> Readout, on hand-made poses: no physics involved."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.dice import EDGE
from pyramid.perception import Status, read_poses


def seated_pose(slot: g.Slot, up: g.UpFaces, offset: tuple[float, float, float] = (0, 0, 0)) -> np.ndarray:
    position = g.slot_centre(slot) * EDGE + np.array(offset) * EDGE
    return np.concatenate([position, g.matrix_to_quat(g.seated_rotation(up))])


def axis_angle(axis: tuple[float, float, float], degrees: float) -> np.ndarray:
    a = np.array(axis, dtype=float) / np.linalg.norm(axis)
    half = np.radians(degrees) / 2
    return np.concatenate([a * np.sin(half), [np.cos(half)]])


def test_seated_dice_read_back_slot_and_faces() -> None:
    rng = np.random.default_rng(0)
    slots = [g.SLOTS[i] for i in rng.choice(165, size=30, replace=False)]
    ups = [g.ALL_UP_FACES[i] for i in rng.integers(24, size=30)]
    poses = np.array([seated_pose(s, u, tuple(rng.normal(0, 0.03, 3))) for s, u in zip(slots, ups, strict=True)])
    readout = read_poses(list(range(30)), poses)
    for die, (slot, up) in enumerate(zip(slots, ups, strict=True)):
        r = readout.dice[die]
        assert r.status is Status.SEATED and r.slot == slot and r.up == up
        assert r.seat_error < 0.15
    assert readout.pyramid[slots[0]].up == ups[0]


def test_a_die_far_from_its_slot_is_not_seated() -> None:
    pose = seated_pose((8, 0, 0), (1, 2, 3), (0.0, 0.0, 0.4))
    r = read_poses([0], pose[None]).dice[0]
    assert r.status is not Status.SEATED and r.slot is None
    turned = seated_pose((8, 0, 0), (1, 2, 3))
    turned[3:] = axis_angle((0, 0, 1), 30)
    assert read_poses([0], turned[None]).dice[0].status is not Status.SEATED


@pytest.mark.parametrize("top", [1, 2, 3, 4, 5, 6])
def test_a_die_lying_on_the_table_shows_the_face_pointing_up(top: int) -> None:
    normal = np.array(g.FACE_NORMALS[top], dtype=float)
    # Rotate the body so that ``normal`` points to +z, then spin it about z.
    axis = np.cross(normal, [0, 0, 1])
    angle = np.degrees(np.arccos(normal[2]))
    quat = axis_angle(tuple(axis) if np.linalg.norm(axis) > 0 else (1, 0, 0), angle)
    rot = g.quat_to_matrix(axis_angle((0, 0, 1), 37))[0] @ g.quat_to_matrix(quat)[0]
    pose = np.concatenate([[0.3, 0.0, EDGE / 2], g.matrix_to_quat(rot)])
    r = read_poses([5], pose[None]).dice[5]
    assert r.status is Status.LYING and r.top == top and not r.on_plate


def test_a_leaning_die_is_cocked_and_has_no_value() -> None:
    pose = np.concatenate([[0.0, 0.3, 0.01], axis_angle((1, 0, 0), 25)])
    r = read_poses([7], pose[None]).dice[7]
    assert r.status is Status.COCKED and r.top is None
    assert 24 < r.tilt < 26


def test_readout_of_a_full_pyramid_scores_135_and_frees_the_apex() -> None:
    poses = np.array([seated_pose(s, (1, 2, 3)) for s in g.SLOTS])
    readout = read_poses(list(range(165)), poses)
    assert len(readout.seated()) == 165
    assert sum(readout.face_count().values()) == 135
    assert readout.free_dice() == [0]
    assert readout.notation().startswith("R123/R123R123,R123/")


def test_tilted_plate_is_read_in_its_own_frame() -> None:
    plate_rot = g.quat_to_matrix(axis_angle((1, 1, 0), 12))[0]
    plate_pose = np.concatenate([[0.05, -0.02, 0.0], g.matrix_to_quat(plate_rot)])
    local = seated_pose((3, 2, 1), (5, 1, 3))
    position = plate_pose[:3] + plate_rot @ local[:3]
    orientation = g.matrix_to_quat(plate_rot @ g.quat_to_matrix(local[3:])[0])
    r = read_poses([0], np.concatenate([position, orientation])[None], plate_pose).dice[0]
    assert r.status is Status.SEATED and r.slot == (3, 2, 1) and r.up == (5, 1, 3)


def test_mismatched_lengths_are_an_error() -> None:
    with pytest.raises(ValueError, match="2 dice but 1 poses"):
        read_poses([0, 1], np.zeros((1, 7)))


def test_without_a_plate_no_die_is_seated_or_on_the_plate_and_none_has_left_it() -> None:
    flat = np.array([0.0, 0.0, EDGE / 2, 0, 0, 0, 1])  # lying flat, over where the plate would be
    far = np.array([0.3, 0.0, EDGE / 2, 0, 0, 0, 1])  # lying beyond the plate's outline
    poses = np.array([flat, far, seated_pose((8, 0, 0), (1, 2, 3))])
    with_plate = read_poses([0, 1, 2], poses)
    assert with_plate.off_plate() == [1] and with_plate.dice[2].status is Status.SEATED
    bare = read_poses([0, 1, 2], poses, plate=False)
    assert bare.off_plate() == [] and not any(r.on_plate for r in bare.dice.values())
    assert bare.dice[0].status is Status.LYING and bare.dice[0].top == with_plate.dice[0].top is not None
    assert bare.dice[2].status is not Status.SEATED and len(bare.pyramid) == 0


def test_the_read_out_counts_outer_faces_like_the_state() -> None:
    slots = g.small_pyramid(4, (7, 0, 0))  # on the k = 0 face of the big pyramid: some faces are outer
    poses = np.array([seated_pose(s, (1, 2, 3)) for s in slots])
    readout = read_poses(list(range(4)), poses)
    assert readout.face_count(outer_only=True) == readout.pyramid.face_count(outer_only=True)
    assert sum(readout.face_count(outer_only=True).values()) < sum(readout.face_count().values())
