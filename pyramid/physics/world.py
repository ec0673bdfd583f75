"""The PyBullet world: table, plate and the dice in play; it steps, settles and hands out poses.

The world knows no rules. Dice still in a player's hand are not simulated: a die gets a body when it
is placed or thrown and loses it when it is taken away. With local physics (the default) only the
dice that something can move are simulated; the others are held still until motion reaches them
(``pyramid.physics.region``). Headless by default. ``World`` is built in parts: ``bodies`` (the dice
in the engine, read back), ``stepping`` (time, the held region, settling), ``checks`` (impossible
states), ``handling`` (hands on dice and plate); this module builds, takes away and goes back.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from pyramid import geometry
from pyramid.dice import DICE, EDGE, DieId
from pyramid.geometry import Slot, UpFaces
from pyramid.perception import Readout, read_poses
from pyramid.physics import stage
from pyramid.physics.bodies import Observer, Vector, _check_die, jitter_seed
from pyramid.physics.bullet import connect
from pyramid.physics.errors import ImpossibleStateError as ImpossibleStateError
from pyramid.physics.errors import NotAtRestError as NotAtRestError
from pyramid.physics.errors import OccupiedError as OccupiedError
from pyramid.physics.handling import Handling
from pyramid.physics.region import Region
from pyramid.physics.settings import Physics as Physics
from pyramid.physics.stepping import SettleReport as SettleReport
from pyramid.physics.stepping import fastest_spin
from pyramid.physics.tables import Table
from pyramid.state import PyramidState
from pyramid.tolerances import TOL


@dataclass
class World(Handling):
    """A table with the plate on it (``plate=False``: the bare table) and the dice in play.

    Units are SI; the plate's underside centre is the world origin unless the plate is moved.
    Same inputs in the same order give the same run: nothing here draws a random number.
    """

    physics: Physics = field(default_factory=Physics)
    gui: bool = False
    plate: bool = True

    def __post_init__(self) -> None:
        self.client = connect(self.gui)
        self._ticks: int | Fraction = 0  # engine steps taken (a sub-step counts its part): the clock
        self._observers: list[Observer] = []  # called as simulated time passes (see ``observe``)
        self._bodies: dict[DieId, int] = {}
        seed = jitter_seed(self.physics)
        self._jitter = None if seed is None else np.random.default_rng(seed)
        self._at_rest = True
        self._asleep = False
        self._plate_bodies: list[int] = []
        self._plate_pose = np.array([0, 0, 0, 0, 0, 0, 1.0])
        self._ride = 0.0
        self._finger: tuple[int, int] | None = None  # the pressing fingertip's body and joint (see ``press``)
        self._grip: tuple[DieId, int, int] | None = None  # the die a hand carries, the hand, the joint (``hold``)
        self._plate_velocity: tuple[Vector, Vector] = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._plate_moving = False  # the hand moves the plate: it has a mass (see ``_plate_mass``)
        self._plate_moved = False  # the plate moved since the last hold test: hold nothing
        self._plate_jolted = False  # the plate moved too hard to carry dice since the last hold test: hold nothing
        self._region = Region.for_die(self.physics.edge, self.physics.proportions) if self.physics.local else None
        self._carriage = None
        self._apart: set[DieId] = set()
        self._gravity = np.array([0.0, 0.0, -self.physics.gravity])
        self._stepped = [0, 0]  # dice simulated, summed over steps; steps (see ``count_steps``)
        self._before = None
        self._read = None
        stage.configure(self.client, self.physics)
        self.table, self.floor = stage.make_table(self.client, self.physics)
        if self.plate:
            self._plate_bodies = stage.make_plate(self.client, self.physics)
        self._die_shape = stage.make_die_shape(self.client, self.physics)
        self._sized: dict[DieId, tuple[int, float]] = {}
        self._die_visual = stage.make_die_visual(self.client, self.physics)
        self._textures: dict[str, int] = {}  # loaded for PyBullet's own pictures only (``dress``)
        if self.gui:
            self.dress()

    # -- dice in and out -----------------------------------------------------------------------

    def slot_pose(self, slot: Slot, up: UpFaces = (1, 2, 3)) -> tuple[np.ndarray, np.ndarray]:
        """World position (3,) and quaternion (4,) of a die seated in ``slot`` showing ``up``."""
        if not geometry.is_slot(slot):
            raise ValueError(f"{slot} is not a slot of the pyramid")
        plate_rot = geometry.quat_to_matrix(self._plate_pose[3:])[0]
        local = geometry.slot_centre(slot) * self.physics.edge
        position = self._plate_pose[:3] + plate_rot @ local
        orientation = geometry.matrix_to_quat(plate_rot @ geometry.seated_rotation(up))
        return position, orientation

    def place(self, die: DieId, slot: Slot, up: UpFaces = (1, 2, 3), drop: float = 0.0) -> None:
        """Put ``die`` into ``slot`` showing ``up``; with ``drop`` (metres) release it that high above.

        OccupiedError (a ValueError) if a die in play already sits there (see ``check_free``).
        """
        position, orientation = self.slot_pose(slot, up)
        position = position + np.array([0, 0, drop + 1e-5 * self.physics.edge / EDGE])
        self.check_free(slot, position, "slot")
        self._spawn(die, position, orientation)

    def check_free(self, cell: tuple[int, int, int], position: np.ndarray, kind: str = "cell") -> None:
        """OccupiedError naming the ``kind`` ``cell`` and the die if a die in play has its centre within
        ``TOL.occupied`` edges of ``position`` (3,), the centre of a die about to be put into ``cell``."""
        if self._bodies:
            ids, poses = self.poses()
            gaps = np.linalg.norm(poses[:, :3] - position, axis=1) / self.physics.edge
            if gaps.min() < TOL.occupied:
                n = int(gaps.argmin())
                raise OccupiedError(cell, int(ids[n]), float(gaps[n]), kind)

    def build(
        self,
        state: PyramidState,
        dice: Mapping[Slot, DieId] | None = None,
    ) -> dict[Slot, DieId]:
        """Place a die in every occupied slot of ``state`` (unknown faces as 1, 2, 3), layer by layer.

        ``dice`` chooses which die goes where; by default the lowest free numbers of each colour.
        Returns slot -> die. Settle afterwards.
        """
        chosen = dict(dice) if dice is not None else self.assign_dice(state)
        missing = [s for s in state if s not in chosen]
        if missing:
            raise ValueError(f"no die chosen for {len(missing)} occupied slots, e.g. {missing[0]}")
        used = [chosen[s] for s in state]
        for die in used:
            _check_die(die)
        if len(set(used)) < len(used):
            twice = next(d for d in used if used.count(d) > 1)
            raise ValueError(f"die {twice} is chosen for more than one slot")
        for slot in sorted(state, key=lambda s: -geometry.layer(s)):
            die = chosen[slot]
            if DICE[die].colour != state[slot].colour:
                raise ValueError(f"die {die} is {DICE[die].colour}, but {slot} wants {state[slot].colour}")
            self.place(die, slot, state[slot].up or (1, 2, 3))
        return chosen

    def assign_dice(self, state: PyramidState) -> dict[Slot, DieId]:
        """Pick dice not yet in play for each occupied slot of ``state``, by colour, lowest numbers first."""
        stock: dict[str, list[DieId]] = {}
        for d in DICE:
            if d.id not in self._bodies:
                stock.setdefault(d.colour, []).append(d.id)
        wanted = Counter(cell.colour for cell in state.values())
        for colour, n in sorted(wanted.items()):
            have = len(stock.get(colour, []))
            if n > have:
                total = sum(d.colour == colour for d in DICE)
                raise ValueError(
                    f"the state wants {n} {colour} dice, but only {have} of the set's {total} are not in play"
                )
        out: dict[Slot, DieId] = {}
        for slot in geometry.SLOTS:
            if slot in state:
                out[slot] = stock[state[slot].colour].pop(0)
        return out

    def remove(self, die: DieId, pull: bool = True) -> None:
        """Take ``die`` out of play: lift it out as a hand would (``pull``), or make it vanish at once.

        A pulled die slides out along its uncovered faces (straight up for a free die), held with the
        force of a hand's grip; dice resting on it are dragged along and may fall. Then it leaves the
        world, and what it touched wakes up. Settle afterwards. A die with all three upper faces
        covered (inside the pyramid) has no way out: the hand pulls it straight up with no more than
        its grip, which cannot move the dice above, so it leaves as if drawn out from below and nothing
        else moves; games only take dice a hand can reach.
        """
        body = self._body(die)
        position = np.array(self.client.getBasePositionAndOrientation(body)[0])
        if self.held_die == die:
            self.hold(None)
        if pull:
            self.pull(die, self.way_out(die))
        if self._carriage is not None:
            self._carriage.let_go([die])
        self._apart.discard(die)
        self.client.removeBody(body)
        del self._bodies[die]
        if self._region is not None:
            self._region.forget(die)
        self._wake_near(position, radius=2.0 * self.physics.edge)
        self._changed()

    def way_out(self, die: DieId) -> np.ndarray:
        """Unit world direction (3,) in which a hand pulls ``die`` out of the pyramid.

        Along the sum of the normals of its uncovered upper faces: straight up for a free die,
        up and outward for a die on the pyramid's surface that carries others. A die not seated in a
        slot is lifted straight up.
        """
        dice, poses = self.poses()
        readout = read_poses(dice, poses, self._plate_pose, self.physics.edge)
        r = readout.dice[die]
        if r.slot is None:
            return np.array([0.0, 0.0, 1.0])
        i, j, k = r.slot
        # The face along +i is uncovered when nothing sits in (i - 1, j, k); likewise for j and k.
        above = ((i - 1, j, k), (i, j - 1, k), (i, j, k - 1))
        uncovered = [axis for axis, slot in enumerate(above) if slot not in readout.pyramid]
        plate_rot = geometry.quat_to_matrix(self._plate_pose[3:])[0]
        cube_dir = np.zeros(3)
        cube_dir[uncovered or [0, 1, 2]] = 1.0
        direction = plate_rot @ geometry.CUBE_TO_PLATE @ cube_dir
        return direction / np.linalg.norm(direction)

    # -- going back --------------------------------------------------------------------------------

    def snapshot(self) -> Table:
        """The table now: every die in play with its pose and velocity, and the plate's pose."""
        dice = self.dice
        return Table(
            tuple(dice),
            self._raw_poses(dice),
            self._raw_velocities(dice),
            self.plate_pose,
            self.physics.edge,
            self.time,
        )

    def restore(self, table: Table) -> None:
        """Go back to ``table``: dice not in it leave, its dice come back or are put where it says, the plate too.

        The time goes on (it never runs backwards); a finger pressing is taken away. ValueError if
        the table's dice have another edge, or it has a die of the set twice or a die not in the set.
        """
        if not math.isclose(table.edge, self.physics.edge, rel_tol=1e-6):
            raise ValueError(f"the table's dice have an edge of {table.edge:g} m, this world's {self.physics.edge:g} m")
        if len(set(table.dice)) != len(table.dice):
            raise ValueError("the table names a die twice")
        for die in table.dice:
            _check_die(die)
        self.press(None)
        self.hold(None)
        self.wake()
        c = self.client
        for die in [d for d in self._bodies if d not in set(table.dice)]:
            self._apart.discard(die)
            c.removeBody(self._bodies.pop(die))
            if self._region is not None:
                self._region.forget(die)
        self._set_plate([float(v) for v in table.plate[:3]], [float(v) for v in table.plate[3:]])
        self._plate_velocity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        self._ride = 0.0
        self._plate_moved = True  # the plate may stand elsewhere: hold nothing until the next hold test
        for die, pose, velocity in zip(table.dice, table.poses, table.velocities, strict=True):
            if die in self._bodies:
                c.resetBasePositionAndOrientation(self._bodies[die], pose[:3].tolist(), pose[3:].tolist())
            else:
                self._spawn(die, pose[:3].tolist(), pose[3:].tolist(), nudge=False)  # exactly as it was
            c.resetBaseVelocity(self._bodies[die], velocity[:3].tolist(), velocity[3:].tolist())
        self._spin = fastest_spin(np.asarray(table.velocities, dtype=float).reshape(-1, 6))
        if self._region is not None:
            self._region.activated(list(table.dice), table.poses)
        self._changed()
        self._at_rest = False

    # -- reading ---------------------------------------------------------------------------------

    def readout(self, require_rest: bool = True) -> Readout:
        """The read-out of every die in play; raises NotAtRestError unless the world has settled."""
        if require_rest and not self._at_rest:
            raise NotAtRestError("the dice are not at rest: call settle() before reading the world")
        dice, poses = self.poses()
        return read_poses(dice, poses, self._plate_pose, self.physics.edge, plate=self.plate)

    def close(self) -> None:
        """Disconnect from the physics server."""
        self.client.disconnect()
