"""The active region of local physics: which dice the world simulates and which it holds still.

Pure bookkeeping on poses (no PyBullet): ``World`` asks it which held dice to release as motion
spreads, and which resting dice to hold again; it then makes them static or dynamic in the engine.
A held die is static to the solver: it carries what rests on it and pushes back on what hits it, but
it costs nothing and joins no island, so a lift on the apex no longer solves the whole pyramid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from pyramid.dice import DieId
from pyramid.geometry import cross_rows, lengths, quat_to_matrix
from pyramid.tolerances import TOL

HOLD_WINDOW = 0.1  # s: how often resting dice are held again (the settle test scaled to this window)
MOVE_SHIFT = 0.01  # edges: an active die further than this from where it was last still is moving
MOVE_TURN = 0.5  # degrees: or turned more than this
MOVE_SPEED = 0.01  # m/s: or faster than this (a die set down 1 mm hits at 0.14 m/s)
MOVE_SPIN = 1.0  # rad/s: or spinning faster than this
# Reach, in die diagonals (corner on corner, the farthest two touching dice's centres can be apart).
# Releasing only what touches a moving die (1.02) left the pyramid stiffer than whole physics: its
# unmoved neighbours, held still, gave nothing under the changed load. Dice Mikado (5 layers, careful,
# seeds 100 to 139, friction anchors at Bullet's friction_erp 0.2) took 15.1 dice against whole physics'
# 13.6 (local - whole +0.22 to +2.73 at 95%). Releasing the ring beyond them too (1.5 diagonals) took 13.9
# (-0.81 to +1.36), for about twice the dice simulated (a lift of the apex: 16 a step, not 6). Without
# anchors the same held: 10.6 against 9.5 at 1.02, 9.3 at 1.5. docs/physics.md has the study now.
REACH_MARGIN = 1.5
TOUCH_MARGIN = 1.02  # a little beyond the farthest two touching dice's centres can be apart: what rests on what
RESTS_RISE = 0.25  # edges: a die within reach whose centre lies this much higher may rest on the other
SINK = 0.003  # edges: a die whose corners moved this far since what rests on it was held lets that go (a die released
# alone settles 0.0007 to 0.0022 edges into its contacts: below this, every release would release the next layer)


@dataclass
class Region:
    """Which dice are held still, and where each active die last stood still.

    ``reach`` (metres) is ``REACH_MARGIN`` die diagonals: the dice a moving die touches (corner on corner
    they lie one diagonal apart) and the ring beyond them. A held die within reach of a moving die is
    released: touching it, the moving die may push it or take away its support, and its neighbours
    must give under the load that changes. Over-inclusive on purpose: a die released
    that need not have been costs a little time; one held that should have moved costs truth.
    """

    edge: float
    reach: float
    touch: float = 0.0  # metres: the farthest apart two touching dice's centres can be (what rests on what)
    held: dict[DieId, np.ndarray] = field(default_factory=dict)  # held die -> its centre (3,)
    anchors: dict[DieId, np.ndarray] = field(default_factory=dict)  # active die -> pose (7,) when last still
    since: float = 0.0  # simulated seconds since the last hold test
    window: dict[DieId, np.ndarray] = field(default_factory=dict)  # active die -> pose (7,) at the window's start
    busy: set[DieId] = field(default_factory=set)  # dice a hand acts on in this window: never held
    bearing: dict[DieId, np.ndarray] = field(default_factory=dict)  # die -> pose (7,) when what rests on it was held
    corners: np.ndarray = field(default_factory=lambda: np.zeros((8, 3)))  # a die's corners in its own frame (8, 3)
    _centres: tuple[list[DieId], np.ndarray] | None = field(default=None, repr=False)  # held dice, sorted; centres
    # Kept between steps, so that a step allocates little: the anchors of the dice last asked about, in
    # their order, and the corners (8, 3) of each bearing die where it stood when what rests on it was held.
    _anchor_rows: tuple[list[DieId], np.ndarray] | None = field(default=None, repr=False)
    _bearing_spots: dict[DieId, np.ndarray] = field(default_factory=dict, repr=False)
    version: int = 0  # counts the changes of which dice are held (the world keeps its list of simulated dice till then)
    # Dice lying on the table out of the plate's reach while the hand moves it: held still in the world's frame, not
    # the plate's (their centres (3,) are the world's). Neither held nor active here: the world parks and unparks them.
    parked: dict[DieId, np.ndarray] = field(default_factory=dict)

    @classmethod
    def for_die(cls, edge: float, proportions: Sequence[float]) -> Region:
        """The region for dice of ``edge`` metres and box ``proportions``."""
        half = np.asarray(proportions, dtype=float) * edge / 2
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half
        diagonal = float(np.linalg.norm(proportions)) * edge
        return cls(edge, REACH_MARGIN * diagonal, TOUCH_MARGIN * diagonal, corners=corners)

    def active(self, dice: Iterable[DieId]) -> list[DieId]:
        """Those of ``dice`` that are simulated, in the order given."""
        held, parked = self.held, self.parked
        if not parked:
            return [d for d in dice if d not in held]
        return [d for d in dice if d not in held and d not in parked]

    def park(self, dice: Iterable[DieId]) -> None:
        """The held ``dice`` stay held in the world's frame while the region's moves with the plate (``parked``)."""
        dice = [d for d in dice if d in self.held]
        if dice:
            self._changed()
            for die in dice:
                self.parked[die] = self.held.pop(die)

    def unpark(self, dice: Iterable[DieId], centres: np.ndarray) -> None:
        """The parked ``dice`` are held dice of the region again, centred at ``centres`` (n, 3) in its frame now."""
        self._changed()
        for die, centre in zip(dice, centres, strict=True):
            del self.parked[die]
            self.held[die] = np.asarray(centre, dtype=float).copy()

    def activated(self, dice: Iterable[DieId], poses: np.ndarray) -> None:
        """Record ``dice`` (just released, thrown or placed) as active, still at ``poses`` (n, 7)."""
        self._changed()
        for die, pose in zip(dice, poses, strict=True):
            self.held.pop(die, None)
            self.parked.pop(die, None)
            self.anchors[die] = pose.copy()
            self.window[die] = pose.copy()

    def forget(self, die: DieId) -> None:
        """``die`` left the world."""
        self._changed()
        self.held.pop(die, None)
        self.parked.pop(die, None)
        self.anchors.pop(die, None)
        self.window.pop(die, None)
        self.bearing.pop(die, None)
        self._bearing_spots.pop(die, None)
        self.busy.discard(die)

    def reframe(self, move: Callable[[np.ndarray], np.ndarray]) -> None:
        """Take every pose kept here into another frame: ``move`` gives poses (n, 7) there (the plate's, moving)."""
        held = list(self.held)
        if held:
            # The held centres as poses with no turn, moved, their positions kept.
            centres = np.hstack([np.array([self.held[d] for d in held]), np.tile([0.0, 0.0, 0.0, 1.0], (len(held), 1))])
            self.held.update(zip(held, move(centres)[:, :3], strict=True))
        for kept in (self.anchors, self.window, self.bearing):
            dice = list(kept)
            if dice:
                kept.update(zip(dice, move(np.array([kept[d] for d in dice])), strict=True))
        self._bearing_spots.clear()
        self._centres = None
        self._anchor_rows = None

    def _changed(self) -> None:
        """Which dice are held, or which are in the world, changed: what was kept of them is stale."""
        self._centres = None
        self._anchor_rows = None
        self.version += 1

    def ahead(self, velocities: np.ndarray, h: float) -> np.ndarray:
        """How far (metres, (n,)) from each die held dice must be released before the next step of ``h`` s.

        Touching reach, plus what the die travels in a step (its centre, and a corner swung by its
        spin): a held die is released before a die can hit it, never after. Hit while held, it would
        throw the blow back as a wall does, and take none of it. (Twice the travel cost a ladle pour
        a third more time and changed no read-out in 4 cases.)
        """
        travel = lengths(velocities[:, :3]) + lengths(velocities[:, 3:]) * self.touch / 2
        return self.reach + travel * h

    def moving(self, dice: Sequence[DieId], poses: np.ndarray, velocities: np.ndarray) -> np.ndarray:
        """Which active ``dice`` (bool (n,)) are moving: gone from where they were last still, or fast.

        ``poses`` (n, 7) and ``velocities`` (n, 6) in the same order.
        """
        if not dice:
            return np.zeros(0, dtype=bool)
        if self._anchor_rows is None or self._anchor_rows[0] != dice:
            self._anchor_rows = list(dice), np.array([self.anchors[d] for d in dice])
        shift, turn = shift_and_turn(self._anchor_rows[1], poses, self.edge)
        fast = lengths(velocities[:, :3]) > MOVE_SPEED
        spinning = lengths(velocities[:, 3:]) > MOVE_SPIN
        return (shift > MOVE_SHIFT) | (turn > MOVE_TURN) | fast | spinning

    def held_at(self, die: DieId, position: np.ndarray) -> None:
        """Record ``die`` as held still with its centre at ``position`` (3,)."""
        self._changed()
        self.held[die] = np.asarray(position, dtype=float).copy()
        self.anchors.pop(die, None)
        self.window.pop(die, None)

    def bear(self, held: Sequence[DieId], dice: Sequence[DieId], poses: np.ndarray) -> None:
        """Dice ``held`` were just held: record the pose of each of ``dice`` (poses (n, 7)) that may carry one."""
        if not held or not dice:
            return
        above = np.array([self.held[d] for d in held])
        gaps = np.linalg.norm(poses[:, None, :3] - above[None, :, :], axis=2)
        carries = ((gaps <= self.touch) & (above[None, :, 2] >= poses[:, 2:3] + RESTS_RISE * self.edge)).any(axis=1)
        for n in np.flatnonzero(carries).tolist():
            self.bearing.setdefault(dice[n], poses[n].copy())  # sinking counts from the first die it carried

    def unbear(self, dice: Sequence[DieId]) -> None:
        """What rested on ``dice`` was released (they sank): their sinking counts afresh from the next hold."""
        for die in dice:
            self.bearing.pop(die, None)
            self._bearing_spots.pop(die, None)

    def sunk(self, dice: Sequence[DieId], poses: np.ndarray) -> np.ndarray:
        """Which active ``dice`` (bool (n,)) moved a corner SINK edges or more since what rests on them was held.

        Far less than moving dice are told by (``MOVE_SHIFT``, ``MOVE_TURN``): a die that settles, slips
        or tips by a hair under a held die must let it follow, not leave it hanging in the air. Dice
        that never carried a held die are not sunk.
        """
        out = np.zeros(len(dice), dtype=bool)
        rows = [n for n, d in enumerate(dice) if d in self.bearing]
        if not rows:
            return out
        spots = self._bearing_spots
        new = [dice[n] for n in rows if dice[n] not in spots]
        if new:
            spots.update(zip(new, self.corner_spots(np.array([self.bearing[d] for d in new])), strict=True))
        before = np.array([spots[dice[n]] for n in rows])
        # How far each corner moved: as corner_travel reckons it, the corners before kept from the hold.
        travel = lengths(self.corner_spots(poses[rows]) - before, axis=2)
        out[rows] = travel.max(axis=1) >= SINK * self.edge
        return out

    def corner_travel(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """How far (metres, (n, 8)) each corner of each die moved between poses ``before`` and ``after`` (n, 7)."""
        return lengths(self.corner_spots(after) - self.corner_spots(before), axis=2)

    def corner_spots(self, poses: np.ndarray) -> np.ndarray:
        """Where (metres, (n, 8, 3)) the corners of dice at ``poses`` (n, 7) lie, in the world frame."""
        return poses[:, None, :3] + np.einsum("nij,kj->nki", quat_to_matrix(poses[:, 3:]), self.corners)

    def held_centres(self) -> tuple[list[DieId], np.ndarray]:
        """The held dice in order and their centres (n, 3): kept until a die is held, released or leaves."""
        if self._centres is None:
            held = sorted(self.held)
            self._centres = held, np.array([self.held[d] for d in held]).reshape(-1, 3)
        return self._centres

    def resting_on(self, points: np.ndarray) -> list[DieId]:
        """The held dice that may rest on dice centred at ``points`` (n, 3): touching, RESTS_RISE edges higher.

        A corner-down die sits 0.58 edges above the three it rests on; a die beside another, at its height.
        """
        if len(points) == 0 or not self.held:
            return []
        rise = RESTS_RISE * self.edge
        held, above = self.held_centres()
        gaps = np.linalg.norm(above[:, None, :] - points[None, :, :], axis=2)
        on = ((gaps <= self.touch) & (above[:, None, 2] >= points[None, :, 2] + rise)).any(axis=1)
        return [d for d, o in zip(held, on, strict=True) if o]

    def above(self, points: np.ndarray, others: np.ndarray) -> np.ndarray:
        """Those of the centres ``others`` (m, 3) that may rest on dice centred at ``points`` (n, 3)."""
        if len(points) == 0 or len(others) == 0:
            return others[:0]
        gaps = np.linalg.norm(others[:, None, :] - points[None, :, :], axis=2)
        on = ((gaps <= self.touch) & (others[:, None, 2] >= points[None, :, 2] + RESTS_RISE * self.edge)).any(axis=1)
        return others[on]

    def carrying(self, points: np.ndarray) -> list[DieId]:
        """The held dice that may carry dice centred at ``points`` (n, 3): touching, RESTS_RISE edges lower."""
        if len(points) == 0 or not self.held:
            return []
        held, below = self.held_centres()
        gaps = np.linalg.norm(below[:, None, :] - points[None, :, :], axis=2)
        under = ((gaps <= self.touch) & (below[:, None, 2] <= points[None, :, 2] - RESTS_RISE * self.edge)).any(axis=1)
        return [d for d, u in zip(held, under, strict=True) if u]

    def within_reach(self, points: np.ndarray, reach: float | np.ndarray | None = None) -> list[DieId]:
        """The held dice whose centres lie within ``reach`` metres (default: touching) of any of ``points`` (n, 3).

        ``reach`` may be one distance or one per point (n,).
        """
        if len(points) == 0 or not self.held:
            return []
        held, held_points = self.held_centres()
        # Distance from every held die's centre to every moving die's centre.
        gaps = lengths(held_points[:, None, :] - points[None, :, :], axis=2)
        near = (gaps <= (self.reach if reach is None else np.asarray(reach))).any(axis=1)
        return [held[n] for n in np.flatnonzero(near).tolist()]

    def to_hold(
        self, dice: Sequence[DieId], poses: np.ndarray, velocities: np.ndarray, plate_moved: bool
    ) -> list[DieId]:
        """At the end of a hold window: the active ``dice`` that rested through it and may be held.

        A die rested if it moved and turned no more than the settle test allows (``TOL.rest_shift``,
        ``TOL.rest_turn`` per settle window, scaled to ``HOLD_WINDOW``) and is slow now; it is held
        unless a hand acts on it or a die within reach is still moving. Nothing is held in a window in
        which the plate moved. Dice that rested but stay active are anchored where they are now.
        """
        if not dice:
            return []
        scale = HOLD_WINDOW / 0.25
        before = np.array([self.window[d] for d in dice])
        shift, turn = shift_and_turn(before, poses, self.edge)
        slow = (lengths(velocities[:, :3]) < MOVE_SPEED) & (lengths(velocities[:, 3:]) < MOVE_SPIN)
        rested = (shift <= TOL.rest_shift * scale) & (turn <= TOL.rest_turn * scale) & slow
        for n, die in enumerate(dice):
            self.window[die] = poses[n].copy()
            if rested[n]:
                self.anchors[die] = poses[n].copy()
        self._anchor_rows = None
        if plate_moved:
            return []
        restless = poses[~rested, :3]
        calm = rested.copy()
        if len(restless):
            # A rested die within reach of a die still moving stays active.
            calm &= ~(lengths(restless[None, :, :] - poses[:, None, :3], axis=2) <= self.reach).any(axis=1)
        return [die for n, die in enumerate(dice) if calm[n] and die not in self.busy]


def shift_and_turn(before: np.ndarray, after: np.ndarray, edge: float) -> tuple[np.ndarray, np.ndarray]:
    """How far (edges) and how much (degrees) each die moved and turned between two poses (n, 7)."""
    shift = lengths(after[:, :3] - before[:, :3]) / edge
    # The turn between the orientations: the angle of after * conj(before), 2 atan2(|vector|, |scalar|)
    # (exact for small angles, where 2 acos of the dot product loses its digits).
    p, q = after[:, 3:], before[:, 3:] * _CONJUGATE
    vector = p[:, 3:4] * q[:, :3] + q[:, 3:4] * p[:, :3] + cross_rows(p[:, :3], q[:, :3])
    scalar = p[:, 3] * q[:, 3] - np.einsum("ij,ij->i", p[:, :3], q[:, :3])
    turn = np.degrees(2 * np.arctan2(lengths(vector), np.abs(scalar)))
    return shift, turn


_CONJUGATE = np.array([-1.0, -1.0, -1.0, 1.0])
