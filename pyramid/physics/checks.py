"""The checks of impossible states: a die whose pose or speed cannot be is an error that names its cause.

``World`` runs them after every engine step on the dice it simulates (``World.check`` on all of them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.physics import stage
from pyramid.physics.errors import ImpossibleStateError
from pyramid.physics.settings import Physics
from pyramid.tolerances import TOL


def check_state(
    dice: Sequence[DieId],
    poses: np.ndarray,
    velocities6: np.ndarray,
    h: float | None,
    physics: Physics,
    plate_pose: np.ndarray | None,
    time: float,
    before: tuple[Sequence[DieId], np.ndarray] | None = None,
) -> None:
    """Raise ImpossibleStateError naming the first die of ``dice`` whose pose (n, 7) or velocity (n, 6) cannot be.

    Not a number; inside the table, the floor or the plate (``plate_pose`` (7,), None without a
    plate) deeper than a step of ``h`` seconds could take it before its contact pushes it out; faster
    than any action sends a die. ``time`` is the world's clock, for the message. ``before``: the dice checked
    a step earlier and their velocities (n, 6), or None.
    """
    if not len(dice):
        return
    if len(dice) <= geometry.FEW_ROWS and _surely_possible(poses, velocities6, physics, plate_pose):
        return
    speeds = geometry.lengths(velocities6[:, :3])
    if _plainly_possible(poses, speeds, physics, plate_pose):
        return
    velocities = velocities6[:, :3]
    finite = np.isfinite(poses).all(axis=1) & np.isfinite(speeds)
    if not finite.all():
        n = int(np.argmin(finite))
        raise ImpossibleStateError(dice[n], time, f"its pose or speed is not a number ({poses[n].tolist()})")
    ph = physics
    lowest = ph.edge * min(ph.proportions) / 2  # the lowest a die's centre rests, whichever way it lies
    # Contacts start when a die already overlaps: one falling at v can be v dt deep before its first
    # contact, which then pushes it out over the next steps. Deeper than that, it went through. The fall
    # is the faster of this step's and the last: the step after an impact the die has turned back and
    # is still that deep (a die falling 3.9 m/s lay with its centre 0.9 mm over the floor's top).
    falling = np.maximum(0.0, -velocities[:, 2])
    if before is not None:
        falling = np.maximum(falling, _fall_before(dice, *before))
    sink = TOL.sunk * ph.edge + falling * (h or ph.time_step)
    x, y, z = poses[:, 0], poses[:, 1], poses[:, 2]
    inner = stage.TABLE_HALF_WIDTH - ph.edge  # over the table, not tipping over its edge
    in_table = (np.abs(x) < inner) & (np.abs(y) < inner) & (z < lowest - sink)
    in_floor = z < -stage.FLOOR_DEPTH + lowest - sink
    for inside, what, top in ((in_table, "table", 0.0), (in_floor, "floor", -stage.FLOOR_DEPTH)):
        if inside.any():
            n = int(np.argmax(inside))
            raise ImpossibleStateError(
                dice[n],
                time,
                f"it is inside the {what}: its centre lies {1000 * (z[n] - top):.1f} mm from the {what}'s top, "
                f"a die at rest lies at least {1000 * lowest:.1f} mm above it",
            )
    if plate_pose is not None:
        local = geometry.in_plate_frame(poses[:, :3], plate_pose)
        slab = geometry.SLAB_TOP * ph.edge
        over = geometry.on_plate_footprint(local[:, :2] / ph.edge)
        in_plate = over & (local[:, 2] > 0) & (local[:, 2] < slab - sink)
        if in_plate.any():
            n = int(np.argmax(in_plate))
            raise ImpossibleStateError(
                dice[n],
                time,
                f"it is inside the plate: its centre lies {1000 * (slab - local[n, 2]):.1f} mm under its top",
            )
    if speeds.max() > TOL.max_speed:
        n = int(np.argmax(speeds))
        raise ImpossibleStateError(
            dice[n],
            time,
            f"it moves at {speeds[n]:.1f} m/s, faster than any action can send a die "
            f"({TOL.max_speed:g} m/s): energy from nowhere",
        )


def _fall_before(dice: Sequence[DieId], checked: Sequence[DieId], velocities: np.ndarray) -> np.ndarray:
    """The downward speed (m/s, >= 0) a step earlier of each of ``dice``: 0 for one not ``checked`` then."""
    down = np.maximum(0.0, -velocities[:, 2])
    if checked is dice or list(checked) == list(dice):
        return down
    row = {die: n for n, die in enumerate(checked)}
    return np.array([down[row[d]] if d in row else 0.0 for d in dice])


# Metres, and a share of the fastest speed: what ``_surely_possible`` keeps from each bound, far beyond the rounding of
# its sums (some 1e-17 m on a pyramid's heights).
SURE_MARGIN = 1e-9


def _surely_possible(
    poses: np.ndarray, velocities6: np.ndarray, physics: Physics, plate_pose: np.ndarray | None
) -> bool:
    """``_plainly_possible`` for a few dice in Python floats, sooner: True only where every bound is kept by
    ``SURE_MARGIN`` (where it is unsure, ``_plainly_possible`` decides)."""
    ph = physics
    least = TOL.sunk * ph.edge
    floor = ph.edge * min(ph.proportions) / 2 - least + SURE_MARGIN
    fastest = (TOL.max_speed * (1 - SURE_MARGIN)) ** 2
    rows = poses.tolist()
    for (x, y, z, *turn), (vx, vy, vz, *_) in zip(rows, velocities6.tolist(), strict=True):
        if not (vx * vx + vy * vy + vz * vz < fastest and z > floor and math.isfinite(x + y + z + sum(turn))):
            return False
    if plate_pose is None:
        return True
    px, py, pz = plate_pose[:3].tolist()
    (_, _, r02), (_, _, r12), (_, _, r22) = geometry.quat_to_matrix(plate_pose[3:])[0].tolist()
    top = geometry.SLAB_TOP * ph.edge - least
    for x, y, z, *_ in rows:
        height = (x - px) * r02 + (y - py) * r12 + (z - pz) * r22
        if not (height < -SURE_MARGIN or height > top + SURE_MARGIN):
            return False
    return True


def _plainly_possible(poses: np.ndarray, speeds: np.ndarray, physics: Physics, plate_pose: np.ndarray | None) -> bool:
    """True if no die can fail a check: every number finite, no die too fast, none below the least sink.

    The screen run after every engine step; where it is unsure, ``check_state`` looks die by die. A die
    sinks at least ``TOL.sunk`` edges before it is inside the table, the floor or the plate, whatever
    its speed: a centre above that depth everywhere passes all three.
    """
    # A NaN or an infinity anywhere makes the sum one (so may an overflow: then the checks look, as they should).
    if not (speeds.max() <= TOL.max_speed and math.isfinite(float(poses.sum()))):
        return False
    ph = physics
    least = TOL.sunk * ph.edge  # the sink of a die not falling; a falling one may sink deeper
    if poses[:, 2].min() < ph.edge * min(ph.proportions) / 2 - least:
        return False
    if plate_pose is None:
        return True
    # Heights over the plate's underside, as geometry.in_plate_frame reckons them.
    heights = ((poses[:, :3] - plate_pose[:3]) @ geometry.quat_to_matrix(plate_pose[3:])[0])[:, 2]
    return not ((heights > 0) & (heights < geometry.SLAB_TOP * ph.edge - least)).any()
