"""Die poses -> Readout: which die sits in which slot showing which faces, which lie, which are cocked.

Sits between the world (which hands out poses) and the rules (which read the Readout). Pure numpy:
the world is the truth, and this module only looks at where the dice are.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from pyramid import geometry
from pyramid.dice import DICE, EDGE, Colour, DieId
from pyramid.geometry import Face, Slot, UpFaces
from pyramid.state import Cell, PyramidState
from pyramid.tolerances import TOL


class Status(enum.Enum):
    """Where a die is, as a player would say it."""

    SEATED = "seated"  # corner-down in a slot of the pyramid
    LYING = "lying"  # flat on a face, on the table or on the plate: it shows a top face
    COCKED = "cocked"  # leaning: no face is clearly up


@dataclass(frozen=True)
class DieReading:
    """What the read-out saw of one die."""

    die: DieId
    colour: Colour
    status: Status
    position: tuple[float, float, float]  # world, metres
    on_plate: bool  # above the plate's triangle (False: it has left the plate, or there is no plate)
    slot: Slot | None = None  # SEATED: the slot
    up: UpFaces | None = None  # SEATED: the faces along +i, +j, +k
    seat_error: float = 0.0  # SEATED: distance from the slot centre, in edges
    top: Face | None = None  # LYING: the face that shows up
    tilt: float = 0.0  # degrees: SEATED, turn away from the lattice; otherwise the top face from vertical


@dataclass(frozen=True)
class Readout:
    """Every die in play, read from its pose, and the pyramid they form."""

    dice: dict[DieId, DieReading]
    pyramid: PyramidState
    slot_die: dict[Slot, DieId]
    plate: bool = True  # False: a world without the plate (a bare table): no die is seated or on the plate

    def seated(self) -> list[DieReading]:
        """Dice corner-down in a slot."""
        return [r for r in self.dice.values() if r.status is Status.SEATED]

    def cocked(self) -> list[DieId]:
        """Dice that show no clear face and are not seated."""
        return [d for d, r in self.dice.items() if r.status is Status.COCKED]

    def off_plate(self) -> list[DieId]:
        """Dice that have left the plate ([] in a world without one: there is nothing to leave)."""
        return [d for d, r in self.dice.items() if not r.on_plate] if self.plate else []

    def top_faces(self) -> dict[DieId, Face | None]:
        """The face up of each die not seated (None for a cocked die)."""
        return {d: r.top for d, r in self.dice.items() if r.status is not Status.SEATED}

    def free_dice(self) -> list[DieId]:
        """Seated dice that can be removed without moving another."""
        return [self.slot_die[s] for s in self.pyramid.free_slots()]

    def face_count(self, owners: Mapping[Colour, str] | None = None, outer_only: bool = False) -> Counter[str]:
        """Faces showing (uncovered upper faces of seated dice), per colour or per player.

        With ``outer_only`` only those on the big pyramid's three outer planes (the rule book's 135).
        """
        return self.pyramid.face_count(owners, outer_only=outer_only)

    def notation(self) -> str:
        """The pyramid in the text notation."""
        return self.pyramid.to_notation()


def read_poses(
    dice: Sequence[DieId],
    poses: np.ndarray,
    plate_pose: np.ndarray | None = None,
    edge: float = EDGE,
    plate: bool = True,
) -> Readout:
    """Read die poses back into game facts.

    Parameters
    ----------
    dice : (n,) int
        The die numbers.
    poses : (n, 7) float
        World position (metres) and quaternion (x, y, z, w) of each die.
    plate_pose : (7,) float or None
        The plate's pose (position of its underside centre and quaternion); None for the plate lying
        untilted at the world origin.
    edge : float
        The dice's edge, metres.
    plate : bool
        False for a world without the plate: every die is lying or cocked, none on the plate.
    """
    poses = np.asarray(poses, dtype=float).reshape(-1, 7)
    if len(poses) != len(dice):
        raise ValueError(f"{len(dice)} dice but {len(poses)} poses")
    if plate_pose is None:
        plate_pose = np.array([0, 0, 0, 0, 0, 0, 1.0])
    plate_rot = geometry.quat_to_matrix(plate_pose[3:])[0]
    die_rot = geometry.quat_to_matrix(poses[:, 3:])  # (n, 3, 3) body -> world

    # Die centres in the plate frame, then in the cube frame, in edges.
    local = geometry.in_plate_frame(poses[:, :3], plate_pose) / edge
    cube = geometry.plate_to_cube(local)
    slots, seat_error = geometry.nearest_slots(cube)
    in_lattice = (slots.min(axis=1) >= 0) & (slots.sum(axis=1) <= geometry.BASE_LAYER)

    # Body -> cube rotation of each die; its rotation away from the nearest lattice orientation.
    body_to_cube = geometry.CUBE_TO_PLATE.T @ plate_rot.T @ die_rot
    snapped = _snap(body_to_cube)
    cos_turn = (np.einsum("nij,nij->n", body_to_cube, snapped) - 1) / 2
    turn = np.degrees(np.arccos(np.clip(cos_turn, -1, 1)))

    ups = geometry.faces_along(snapped)  # (n, 3): faces along +i, +j, +k where seated

    # Lying dice: the body direction of world +z names the top face; its angle from an axis is the tilt.
    up_z = die_rot[:, 2, :]  # (n, 3): world +z in body coordinates
    tops = geometry.faces_along(up_z)
    tilt = np.degrees(np.arccos(np.clip(np.abs(up_z).max(axis=1), -1, 1)))
    on_plate = geometry.on_plate_footprint(local[:, :2]) & plate

    readings: dict[DieId, DieReading] = {}
    slot_die: dict[Slot, DieId] = {}
    for n, die in enumerate(dice):
        colour = DICE[die].colour
        position = (float(poses[n, 0]), float(poses[n, 1]), float(poses[n, 2]))
        slot = (int(slots[n, 0]), int(slots[n, 1]), int(slots[n, 2]))
        seated = bool(
            plate and in_lattice[n] and seat_error[n] <= TOL.seat and turn[n] <= TOL.align and slot not in slot_die
        )
        if seated:
            up = (int(ups[n, 0]), int(ups[n, 1]), int(ups[n, 2]))
            readings[die] = DieReading(
                die,
                colour,
                Status.SEATED,
                position,
                bool(on_plate[n]),
                slot,
                up,
                float(seat_error[n]),
                tilt=float(turn[n]),
            )
            slot_die[slot] = die
        elif tilt[n] <= TOL.cock:
            readings[die] = DieReading(
                die, colour, Status.LYING, position, bool(on_plate[n]), top=int(tops[n]), tilt=float(tilt[n])
            )
        else:
            readings[die] = DieReading(die, colour, Status.COCKED, position, bool(on_plate[n]), tilt=float(tilt[n]))
    pyramid = PyramidState({s: Cell(readings[d].colour, readings[d].up) for s, d in slot_die.items()})
    return Readout(readings, pyramid, slot_die, plate)


def _snap(rot: np.ndarray) -> np.ndarray:
    """Signed permutation matrices (n, 3, 3) nearest to rotations (n, 3, 3) that lie near the lattice.

    Each row keeps its largest entry, rounded to +-1. Where that is no proper rotation (the die is far
    from any lattice orientation) the result is the identity, far from the die: it will not read seated.
    """
    n = len(rot)
    cols = np.argmax(np.abs(rot), axis=2)  # (n, 3): the dominant body axis of each cube axis
    out = np.zeros_like(rot)
    rows = np.arange(3)
    for r in rows:
        out[np.arange(n), r, cols[:, r]] = np.sign(rot[np.arange(n), r, cols[:, r]])
    bad = (np.sort(cols, axis=1) != rows).any(axis=1) | (np.linalg.det(out) < 0.5)
    out[bad] = np.eye(3)
    return out
