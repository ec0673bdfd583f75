"""Mount(a)ing (8): pull dice a little out of the pyramid and set more dice on the balconies they make.

Every die counted is read back from the world: a mounted die is one that rests, corner-down, in a
cell of the pyramid's lattice outside the pyramid it was handed, held there by the dice around it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import DICE, EDGE, DieId
from pyramid.geometry import Slot
from pyramid.perception import DieReading, Readout, Status
from pyramid.rules import GameInfo
from pyramid.rules.options import Options, Whole
from pyramid.skillgames.base import LAYERS, ROUNDS, DiceInHand, SkillGame, TurnEnd, TurnRecord
from pyramid.skillgames.standing import LAYER_DICE, coloured, pyramid_slots
from pyramid.tolerances import TOL

if TYPE_CHECKING:
    from pyramid.physics.world import World

Cell = tuple[int, int, int]
CORNER_DOWN = math.degrees(math.acos(1 / math.sqrt(3)))  # a die corner-down tilts each face 54.7 degrees off up


def lattice_cell(position: tuple[float, float, float] | np.ndarray) -> tuple[Cell, float]:
    """The lattice cell (i, j, k) nearest to a die centre (world, metres, plate at rest) and the distance in edges.

    Cells extend the pyramid's slots beyond it: outside the full pyramid a coordinate is negative.
    """
    cube = geometry.plate_to_cube(np.asarray(position, dtype=float).reshape(1, 3) / EDGE)
    cells, error = geometry.nearest_slots(cube)
    return (int(cells[0, 0]), int(cells[0, 1]), int(cells[0, 2])), float(error[0])


def corner_down(reading: DieReading) -> bool:
    """Whether a die stands corner-down like the pyramid's dice (seated, or aligned to a cell outside it)."""
    return reading.status is Status.SEATED or abs(reading.tilt - CORNER_DOWN) <= TOL.align


def on_table(reading: DieReading) -> bool:
    """Whether a die has left the plate: outside its triangle and down at the table's level (or the floor's)."""
    return not reading.on_plate and reading.position[2] < (geometry.SLAB_TOP + 0.45) * EDGE


class Mounting(DiceInHand, SkillGame):
    """Mount(a)ing: pull dice a little out of the pyramid and "mount" as many dice as you can on the balconies.

    Setup: the full pyramid of 165 dice (option ``layers``: a smaller one on the middle funnels, red,
        green and black shuffled) and a hand of ``dice`` loose dice (default 30).
    Turn: the player pulls pyramid dice part of the way out with one hand (``Pull``: the die slides
        along its neighbours and stays where friction holds it) and sets dice from the hand down
        corner-down (``Attach``) into funnels outside the pyramid: a "balcony" is the funnel formed
        by a die of the pyramid's face and two neighbours pulled out of it; mounted dice form funnels
        for more. The turn ends when the player stops, when the hand is empty, when any die falls
        off the plate, or after the time limit (300 simulated seconds).
    Legal actions: pull any seated die by an uncovered face, set a die of the hand down anywhere; no
        aids (tape, paper balls), as the rule book says of a real game of skill.
    Scoring: the dice mounted when the turn ends: dice of the hand resting corner-down, within 0.3
        edges of a lattice cell outside the pyramid and above the base funnels, read from the world.
        A player's score is the sum over their turns.
    End: after ``rounds`` turns each (default 1); the most dice mounted wins.
    Interpretation: the rule book gives only the principle, so: one player at a time on a fresh
        pyramid; a die that falls off the plate ends the turn (the dice still mounted count); dice
        lying loose on the pyramid or the plate do not count; the pulled dice are not counted.
    """

    info: ClassVar[GameInfo] = GameInfo(
        8, "Mount(a)ing", "S", (1, 2, 3, 4, 5, 6), "the pyramid plus 30 loose dice", ("mounting", "mountaing"), 142
    )
    option_specs: ClassVar[Options] = {
        "layers": LAYERS,
        "dice": Whole("loose dice in the hand per turn, beside the pyramid (default 30)", 0, len(DICE) - LAYER_DICE[2]),
        "rounds": ROUNDS,
    }
    time_limit: ClassVar[float] = 300.0
    default_player: ClassVar[str] = "mount"

    def setup(self) -> None:
        self.mounted: list[float] = [0.0] * self.players
        self.layers = self.option("layers", 9)
        self.slots: list[Slot] = pyramid_slots(self.layers)
        spare = len(DICE) - len(self.slots)
        if not 0 <= self.option("dice", 30) <= spare:
            raise ValueError(
                f"option dice of {self.info.title}: expected 0 to {spare} dice beside a pyramid of {self.layers} "
                f"layers, got {self.option('dice', 30)}"
            )
        self.apex: Slot = min(self.slots, key=geometry.layer)
        self.hand: list[DieId] = []
        self.handed: list[DieId] = []
        self.stopped = False

    def prepare(self, world: World) -> None:
        world.build(coloured(self.slots, self))
        count = self.option("dice", 30)
        spare = [d.id for d in DICE if d.id not in set(world.dice)]
        if not 0 <= count <= len(spare):
            raise ValueError(f"Mount(a)ing: the hand holds 0 to {len(spare)} dice beside this pyramid, not {count}")
        self.hand = spare[:count]
        self.handed = list(self.hand)
        self.stopped = False

    # -- what the players use ------------------------------------------------------------------

    def mounted_dice(self, readout: Readout) -> dict[DieId, Cell]:
        """The dice of the hand mounted on the pyramid, with their cells, read from the world."""
        inside = set(self.slots)
        out: dict[DieId, Cell] = {}
        for die in self.handed:
            r = readout.dice.get(die)
            if r is None or not corner_down(r):
                continue
            cell, error = lattice_cell(r.position)
            if error <= TOL.mount and cell not in inside and sum(cell) < geometry.BASE_LAYER:
                out[die] = cell
        return out

    # -- the referee -----------------------------------------------------------------------------

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        mounted = len(self.mounted_dice(readout))
        off = [d for d, r in readout.dice.items() if on_table(r)]
        if off:
            return TurnEnd(False, f"die {off[0]} fell off the plate; {mounted} dice mounted", mounted)
        if self.stopped or not self.hand:
            why = "the player stopped" if self.stopped else "the hand is empty"
            return TurnEnd(True, f"{why}: {mounted} dice mounted", mounted)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        self.mounted[record.player] += record.end.value
        self.events.append(f"player {record.player} mounted {record.end.value:g} dice")
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.mounted)
