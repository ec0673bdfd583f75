"""Dice that ride the moving plate: held in its frame, carried with it, let go when their supports cannot follow.

Pure kinematics on poses (no PyBullet): ``World`` carries its held dice with a plate the hand moves
(``pyramid.physics.stepping``) and asks here where each one is, how fast it goes, and which must be
let go. A seated die rests corner-down on three faces along the lattice axes (of dice below, or of the
plate's funnel), so what its supports can give is the same for every seated die: any force in the
octant of those three normals, widened by the friction angle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from pyramid import geometry
from pyramid.dice import DieId

# Edges: farthest a seated die's centre may be from its slot's centre to ride the plate, held by its three faces
# (``slips``). A settled pyramid's dice lie within 0.002 of it (box and hull); after a stroke of the tilt hand,
# Faraday's dice came to rest against the turning plate part-way into a funnel, 0.04 to 0.14 from it, and would
# have ridden there on supports they do not have.
CARRY_SEAT = 0.01

# Degrees: a carried die is let go once the force its supports must give comes this close to the edge of
# what they can give (the octant of its contact normals widened by the friction angle). A margin for what
# the test leaves out: the pull of the dice above it, the plate's acceleration changing within a step.
SLIP_MARGIN = 10.0

# A die lying on the table stays held while the hand moves the plate (parked, in the world's frame) if its bounding
# box lies PARK_MARGIN edges or farther from the plate's, and along each axis as far again as the plate goes along
# it in PARK_AHEAD seconds; nearer, it is simulated. The margin is twice the most any point of the plate moves in a
# (sub-)step (``plate_motion.PLATE_STEP``): the test is made again before each step. The time lets a die let go
# settle on the table before the plate comes: let go 1.5 steps before the plate, set down on it at 0.5 m/s, came
# down, a die lay 1 mm deeper in the table's contacts and the plate, held still, sank that much into it afterwards
# (tests/test_plate_squeeze.py); let go 4 steps ahead (0.02 s) or more, it did not.
PARK_MARGIN = 0.5
PARK_AHEAD = 0.05  # s
# Edges above the table: how high a die's centre may lie, beyond half its diagonal, for it to lie on the table.
ON_TABLE = 0.05


def compose(frame: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """Poses (n, 7) given in the frame of the pose ``frame`` (7,), in the world: ``frame`` then each pose."""
    rotation = geometry.quat_to_matrix(frame[3:])[0]
    out = np.empty((len(poses), 7))
    out[:, :3] = poses[:, :3] @ rotation.T + frame[:3]
    out[:, 3:] = quat_product(frame[3:], poses[:, 3:])
    return out


def relative(frame: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """World poses (n, 7) in the frame of the pose ``frame`` (7,): the inverse of ``compose``."""
    rotation = geometry.quat_to_matrix(frame[3:])[0]
    out = np.empty((len(poses), 7))
    out[:, :3] = (poses[:, :3] - frame[:3]) @ rotation
    out[:, 3:] = quat_product(frame[3:] * _CONJUGATE, poses[:, 3:])
    return out


def advanced(frame: np.ndarray, linear: np.ndarray, angular: np.ndarray, h: float) -> np.ndarray:
    """The pose (7,) that a frame at ``frame`` (7,) reaches in ``h`` s moving at ``linear``, turning at ``angular``."""
    speed = float(np.linalg.norm(angular))
    angle = speed * h
    # In Python floats, each component rounded as numpy rounds it: the frame moved, then turned.
    x, y, z, *turned = frame.tolist()
    vx, vy, vz = (float(v) for v in linear)
    moved = [x + vx * h, y + vy * h, z + vz * h]
    if angle == 0.0:
        return np.array(moved + turned)
    sine = math.sin(angle / 2)
    wx, wy, wz = (float(w) / speed * sine for w in angular)
    px, py, pz, pw = turned
    w = math.cos(angle / 2)
    return np.array(
        [
            *moved,
            w * px + wx * pw + wy * pz - wz * py,
            w * py - wx * pz + wy * pw + wz * px,
            w * pz + wx * py - wy * px + wz * pw,
            w * pw - wx * px - wy * py - wz * pz,
        ]
    )


def quat_product(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The quaternion products p q (n, 4), (x, y, z, w), of one ``p`` (4,) and each row of ``q`` (n, 4)."""
    px, py, pz, pw = p
    if len(q) <= geometry.FEW_ROWS:
        # A few rows (the plate's frame turned a step, the dice a jolt simulates): the same sums in Python floats,
        # rounded alike, in a sixth of the time.
        px, py, pz, pw = (float(c) for c in p)
        return np.array(
            [
                [
                    pw * qx + px * qw + py * qz - pz * qy,
                    pw * qy - px * qz + py * qw + pz * qx,
                    pw * qz + px * qy - py * qx + pz * qw,
                    pw * qw - px * qx - py * qy - pz * qz,
                ]
                for qx, qy, qz, qw in q.tolist()
            ]
        ).reshape(-1, 4)
    qx, qy, qz, qw = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    out = np.empty(q.shape)
    out[:, 0] = pw * qx + px * qw + py * qz - pz * qy
    out[:, 1] = pw * qy - px * qz + py * qw + pz * qx
    out[:, 2] = pw * qz + px * qy - py * qx + pz * qw
    out[:, 3] = pw * qw - px * qx - py * qy - pz * qz
    return out


_CONJUGATE = np.array([-1.0, -1.0, -1.0, 1.0])
IDENTITY = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])  # the pose of a frame in itself


def rigid_velocity(points: np.ndarray, origin: np.ndarray, linear: np.ndarray, angular: np.ndarray) -> np.ndarray:
    """Velocities (n, 3) of ``points`` (n, 3) fixed to a body whose ``origin`` (3,) moves at ``linear``, turning at
    ``angular``."""
    return linear + geometry.cross_rows(angular, points - origin)


def relative_velocities(
    velocities: np.ndarray, points: np.ndarray, frame: np.ndarray, linear: np.ndarray, angular: np.ndarray
) -> np.ndarray:
    """World velocities (n, 6) of bodies at ``points`` (n, 3) against a frame at ``frame`` (7,) moving so, its axes."""
    rotation = geometry.quat_to_matrix(frame[3:])[0]
    out = np.empty(velocities.shape)
    out[:, :3] = (velocities[:, :3] - rigid_velocity(points, frame[:3], linear, angular)) @ rotation
    out[:, 3:] = (velocities[:, 3:] - angular) @ rotation
    return out


def firmly_seated(slots: Sequence[geometry.Slot | None], local: np.ndarray, edge: float) -> np.ndarray:
    """Which dice (bool (n,)) sit close enough to their ``slots`` to ride the plate: the centre of each pose of
    ``local`` (n, 7), in the plate's frame, within ``CARRY_SEAT`` edges of its slot's centre (None: no slot)."""
    out = np.zeros(len(slots), dtype=bool)
    for n, slot in enumerate(slots):
        if slot is not None:
            out[n] = np.linalg.norm(local[n, :3] / edge - geometry.slot_centre(slot)) <= CARRY_SEAT
    return out


def slips(support: np.ndarray, friction: float | np.ndarray, margin: float = SLIP_MARGIN) -> np.ndarray:
    """Which of the forces ``support`` (n, 3), plate frame, a seated die's three supports cannot give (bool (n,)).

    The supports push along the lattice axes (positive combinations: the octant of the cube frame) and
    friction ``friction`` lets each lean by its angle, so a force within that angle of the octant is
    given. The test lets go ``margin`` degrees sooner. ``friction`` is one value or one per force (n,).
    """
    return _outside(support @ geometry.CUBE_TO_PLATE, slip_cosine(friction, margin))


def slip_cosine(friction: float | np.ndarray, margin: float = SLIP_MARGIN) -> np.ndarray:
    """The cosine of the widest angle from the octant of the normals that supports of ``friction`` give (``slips``)."""
    limit = np.maximum(0.0, np.arctan(friction) - math.radians(margin))
    return np.cos(limit)


# A cosine limit below this is never reached by a force inside the octant, whose cosine ``_outside`` reckons as 1 give
# or take a few units in the last place.
INSIDE = 1 - 1e-12


def _outside(cube: np.ndarray, cosine_limit: np.ndarray) -> np.ndarray:
    """``slips`` of the forces in the cube frame (n, 3) (``support @ geometry.CUBE_TO_PLATE``), with the cosine
    of each limit given (``slip_cosine``)."""
    # The nearest direction the bare normals give: the force with its negative cube components dropped.
    nearest = np.maximum(cube, 0.0)
    norms = geometry.lengths(cube) * geometry.lengths(nearest)
    cosine = np.where(norms > 0, np.einsum("ij,ij->i", cube, nearest) / np.where(norms > 0, norms, 1.0), -1.0)
    return cosine < cosine_limit


# Newtons a kilogram, and a share of the force: a force this far inside the octant of a die's supports is inside it
# however its sums are rounded (``_deep_inside``; their rounding is some 1e-13 of the force, or of g).
DEEP_INSIDE = 1e-9


def _deep_inside(
    local: np.ndarray, rotation: np.ndarray, motion: tuple[np.ndarray, ...], h: float, gravity: np.ndarray
) -> bool:
    """Whether the force each carried die's supports must give (``Carriage.slipping``) lies inside the octant of its
    normals by more than ``DEEP_INSIDE``: then none slips, whatever the friction. A screen in Python floats for a few
    dice at poses ``local`` (n, 7), the plate turned by ``rotation`` (3, 3), ``motion`` its velocity and turning in
    the last step and the next (four (3,)), over ``h`` s; where it is unsure, the test itself decides."""
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = rotation.tolist()
    (c00, c01, c02), (c10, c11, c12), (c20, c21, c22) = geometry.CUBE_TO_PLATE.tolist()
    (ux, uy, uz), (px, py, pz), (vx, vy, vz), (qx, qy, qz) = (m.tolist() for m in motion)
    gx, gy, gz = gravity.tolist()
    # What the plate's change of motion asks of a die at the arm a: (v - u) + (q - p) x a, over h, less gravity.
    dx, dy, dz = qx - px, qy - py, qz - pz
    for lx, ly, lz in local[:, :3].tolist():
        ax, ay, az = r00 * lx + r01 * ly + r02 * lz, r10 * lx + r11 * ly + r12 * lz, r20 * lx + r21 * ly + r22 * lz
        fx = (vx - ux + dy * az - dz * ay) / h - gx
        fy = (vy - uy + dz * ax - dx * az) / h - gy
        fz = (vz - uz + dx * ay - dy * ax) / h - gz
        sx, sy, sz = fx * r00 + fy * r10 + fz * r20, fx * r01 + fy * r11 + fz * r21, fx * r02 + fy * r12 + fz * r22
        least = min(sx * c00 + sy * c10 + sz * c20, sx * c01 + sy * c11 + sz * c21, sx * c02 + sy * c12 + sz * c22)
        if not least > DEEP_INSIDE * (abs(fx) + abs(fy) + abs(fz) + 1.0):
            return False
    return True


# Collision groups while the plate carries dice: a carried die meets only the simulated dice (never another
# carried die: held in the plate's frame the two cannot move against each other, and the solver spends
# nothing on them). Bullet lets two bodies meet when each one's group is in the other's mask.
CARRIED_GROUP = 16
SIMULATED_GROUP = 1 | 8  # a simulated die once the plate has carried dice (1: the group every body starts in)
CARRIED_MASK = 8


@dataclass
class Carriage:
    """The held dice a moving plate carries: each one's pose in the plate's frame and its supports' friction."""

    dice: list[DieId]
    bodies: list[int]
    local: np.ndarray  # (n, 7) each carried die's pose in the plate's frame
    friction: np.ndarray  # (n,) the friction of each die's supports: die on die, or die on the plate's funnel
    _frame: np.ndarray  # (7,) the plate's pose that the poses of the dice in the engine go with now (``frame``)
    linear: np.ndarray = field(default_factory=lambda: np.zeros(3))  # the plate's velocity (m/s) in the last step
    angular: np.ndarray = field(default_factory=lambda: np.zeros(3))  # and its turning (rad/s)
    awake: set[int] = field(default_factory=set)  # rows of the dice a simulated die may touch: awake, meeting it
    # The simulated dice (plate frame, (m, 3)) and how far from each (m,) a carried die may be touched next step.
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    reach: np.ndarray = field(default_factory=lambda: np.zeros(0))
    _index: dict[DieId, int] = field(default_factory=dict, repr=False)
    # A step's move of the frame not yet reckoned (``advance``): the plate's pose, velocity, turning and the step.
    _moved: tuple[np.ndarray, np.ndarray, np.ndarray, float] | None = field(default=None, repr=False)
    _cosine: np.ndarray | None = field(default=None, repr=False)  # ``slip_cosine`` of ``friction``, once asked for
    _octant_holds: bool = field(default=False, repr=False)  # every limit below ``INSIDE``: a force in the octant holds

    def __post_init__(self) -> None:
        self._index = {d: n for n, d in enumerate(self.dice)}

    @property
    def frame(self) -> np.ndarray:
        """(7,) the plate's pose that the poses of the dice in the engine go with now."""
        if self._moved is not None:
            self._frame = advanced(*self._moved)
            self._moved = None
        return self._frame

    @frame.setter
    def frame(self, pose: np.ndarray) -> None:
        self._frame, self._moved = pose, None

    def advance(self, plate: np.ndarray, h: float) -> None:
        """The frame goes where a step of ``h`` s takes the plate from ``plate`` (7,) at the carriage's velocity and
        turning (``advanced``): reckoned when asked for (in most steps of a plate action nothing asks)."""
        self._moved = (plate, self.linear, self.angular, h)

    def __contains__(self, die: object) -> bool:
        return die in self._index

    def rows(self, dice: Iterable[DieId]) -> set[int]:
        """The rows of the carried ``dice``."""
        return {self._index[d] for d in dice}

    def add(self, dice: list[DieId], bodies: list[int], local: np.ndarray, friction: np.ndarray) -> None:
        """The plate carries ``dice`` (their ``bodies``, poses in its frame (n, 7), supports' ``friction`` (n,)) too."""
        self.dice = self.dice + dice
        self.bodies = self.bodies + bodies
        self.local = np.vstack([self.local, local])
        self.friction = np.concatenate([self.friction, friction])
        self._cosine = None
        self._index = {d: n for n, d in enumerate(self.dice)}

    def watch(self, points: np.ndarray, reach: np.ndarray) -> None:
        """Dice now simulated at ``points`` (m, 3), plate frame, may touch carried dice within ``reach`` (m,) too."""
        self.points = np.vstack([self.points, points])
        self.reach = np.concatenate([self.reach, reach])

    def local_of(self, dice: Sequence[DieId]) -> np.ndarray:
        """The poses (n, 7) of the carried ``dice`` in the plate's frame."""
        return self.local[[self._index[d] for d in dice]].reshape(-1, 7)

    def let_go(self, dice: Iterable[DieId]) -> None:
        """``dice`` are carried no more."""
        gone = {self._index[d] for d in dice if d in self._index}
        if not gone:
            return
        keep = [n for n in range(len(self.dice)) if n not in gone]
        renumber = {n: k for k, n in enumerate(keep)}
        self.dice = [self.dice[n] for n in keep]
        self.bodies = [self.bodies[n] for n in keep]
        self.local = self.local[keep].reshape(-1, 7)
        self.friction = self.friction[keep]
        self._cosine = None
        self.awake = {renumber[n] for n in self.awake if n in renumber}
        self._index = {d: n for n, d in enumerate(self.dice)}

    def _octant(self) -> bool:
        """Whether every carried die's limit lies below ``INSIDE``: a force inside the octant of its normals holds."""
        if self._cosine is None:
            self._cosine = slip_cosine(self.friction)
            self._octant_holds = bool(self._cosine.max() < INSIDE)
        return self._octant_holds

    def surely_held(
        self, rotations: np.ndarray, linear: np.ndarray, angular: np.ndarray, h: float, gravity: np.ndarray
    ) -> np.ndarray:
        """For each of k steps ahead, whether no carried die can slip in it (bool (k,)), all at once: the plate turned
        by ``rotations`` (k, 3, 3), moving at ``linear`` (k, 3) and turning at ``angular`` (k, 3) in each step of
        ``h`` s, from the carriage's velocity and turning before the first. A screen: True where the force each
        die's supports must give lies inside the octant of its normals by twice ``_deep_inside``'s margin, which
        no rounding of these sums (some 1e-15 of the force) can undo; False where unsure (``slipping`` decides)."""
        steps = len(rotations)
        if not len(self.dice):
            return np.ones(steps, dtype=bool)
        if not self._octant():
            return np.zeros(steps, dtype=bool)
        before_linear = np.vstack([self.linear[None], linear[:-1]])
        before_angular = np.vstack([self.angular[None], angular[:-1]])
        arms = np.einsum("kij,mj->kmi", rotations, self.local[:, :3])  # (k, m, 3): each die's centre from the origin
        turned = np.cross((angular - before_angular)[:, None, :], arms)
        force = (((linear - before_linear)[:, None, :] + turned) / h) - gravity  # (k, m, 3), per kg
        support = np.einsum("kmj,kji->kmi", force, rotations) @ geometry.CUBE_TO_PLATE
        bound = 2 * DEEP_INSIDE * (np.abs(force).sum(axis=2) + 1.0)
        return np.asarray((support.min(axis=2) > bound).all(axis=1))

    def slipping(
        self, plate: np.ndarray, linear: np.ndarray, angular: np.ndarray, h: float, gravity: np.ndarray
    ) -> list[DieId]:
        """The carried dice whose supports cannot take them along when the plate at ``plate`` (7,) moves so next.

        From the plate's velocity in the last step to ``linear``, ``angular`` in the next step of ``h``
        seconds: each die's acceleration with the plate, less ``gravity`` (3,), is the force (per kg) its
        supports must give (``slips``).
        """
        if not self.dice:
            return []
        rotation = geometry.quat_to_matrix(plate[3:])[0]
        self._octant()
        if self._octant_holds and len(self.dice) <= geometry.FEW_ROWS:
            motion = (self.linear, self.angular, linear, angular)
            if _deep_inside(self.local, rotation, motion, h, gravity):
                return []
        # Each die's centre from the plate's origin (as ``compose`` places it, then ``rigid_velocity`` takes it).
        arm = (self.local[:, :3] @ rotation.T + plate[:3]) - plate[:3]
        before = self.linear + geometry.cross_rows(self.angular, arm)
        after = linear + geometry.cross_rows(angular, arm)
        support = ((after - before) / h - gravity) @ rotation
        cube = support @ geometry.CUBE_TO_PLATE
        if self._octant_holds and cube.min() > 0:
            # Every force inside the octant itself: its cosine to the nearest is 1 to the last bits, none slips.
            return []
        assert self._cosine is not None  # reckoned by ``_octant``
        slip = _outside(cube, self._cosine)
        if not slip.any():
            return []
        return [d for d, s in zip(self.dice, slip.tolist(), strict=True) if s]
