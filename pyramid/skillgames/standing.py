"""Skill games played on a standing pyramid: Dice Mikado (6) and Captain Flint's Skeleton Trick (1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pyramid import geometry
from pyramid.dice import DieId
from pyramid.geometry import Slot
from pyramid.perception import Readout, Status
from pyramid.rules import GameInfo
from pyramid.rules.options import Options
from pyramid.skillgames.base import LAYERS, ROUNDS, SkillGame, TurnEnd, TurnRecord, fallen
from pyramid.state import Cell, PyramidState

if TYPE_CHECKING:
    from pyramid.physics.world import World

LAYER_DICE = {n: n * (n + 1) * (n + 2) // 6 for n in range(1, 10)}  # dice in a pyramid of n layers


def pyramid_slots(layers: int) -> list[Slot]:
    """The slots of a pyramid of ``layers`` layers standing on the middle of the plate (9: the full pyramid)."""
    if not 2 <= layers <= 9:
        raise ValueError(f"a pyramid has 2 to 9 layers, got {layers}")
    dice = LAYER_DICE[layers]
    return geometry.small_pyramid(dice, geometry.small_pyramid_apexes(dice)["centre"])


def skeleton_of(slots: list[Slot]) -> frozenset[Slot]:
    """The skeleton of the pyramid on ``slots``: its apex and its three edges (the slots one lattice axis away from
    the apex), the dice Captain Flint's trick keeps."""
    apex = min(slots, key=geometry.layer)
    return frozenset(s for s in slots if sorted(a - b for a, b in zip(s, apex, strict=True))[1] == 0)


def coloured(slots: list[Slot], game: SkillGame) -> PyramidState:
    """Red, green and black dice in equal shares, shuffled over ``slots`` with the game's generator."""
    colours = [("red", "green", "black")[n % 3] for n in range(len(slots))]
    order = game.rng.permutation(len(slots))
    return PyramidState({s: Cell(colours[int(n)]) for s, n in zip(slots, order, strict=True)})


class DiceMikado(SkillGame):
    """Dice Mikado: take dice out of the pyramid, one hand only, until its top falls.

    Setup: the full pyramid of 165 dice (option ``layers``: a smaller pyramid on the middle funnels).
    Turn: the player lifts dice out one at a time with one hand (``Lift``: pulled along its
        uncovered faces; it may drag the dice that rest on it). The turn ends when the topmost die
        leaves its slot, when a die falls off the plate, or when no die can be gripped any more.
    Legal actions: lift any die that shows an uncovered face, except the topmost.
    Scoring: the dice taken before the collapse; a player's score is the sum over their turns.
    End: after ``rounds`` turns each (default 1); the highest score wins.
    Interpretation: the die whose lifting made the top fall (or a die fall off) is not counted; a die
        whose faces are all covered cannot be gripped; the pyramid is rebuilt for every turn, each
        time with a fresh shuffle of colours.
    """

    lifts_dice_out = True

    info: ClassVar[GameInfo] = GameInfo(6, "Dice Mikado", "S", (1, 2, 3, 4, 5, 6), "165 dice", ("mikado",), 130)
    option_specs: ClassVar[Options] = {"layers": LAYERS, "rounds": ROUNDS}
    time_limit: ClassVar[float] = 1000.0
    default_player: ClassVar[str] = "careful"

    def setup(self) -> None:
        self.taken: list[float] = [0.0] * self.players
        self.top_slot: Slot = geometry.APEX
        self.top_die: DieId = -1
        self.start_dice = 0

    def prepare(self, world: World) -> None:
        slots = pyramid_slots(self.option("layers", 9))
        self.top_slot = min(slots, key=geometry.layer)
        slot_die = world.build(coloured(slots, self))
        self.top_die = slot_die[self.top_slot]
        self.start_dice = len(slots)

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        lifted = self.start_dice - len(readout.dice)
        top = readout.dice.get(self.top_die)  # None: a hand took the top die itself out
        if top is None or top.status is not Status.SEATED or top.slot != self.top_slot:
            return TurnEnd(
                False, f"the top fell at the {lifted}. die; {max(lifted - 1, 0)} dice conquered", max(lifted - 1, 0)
            )
        if fallen(readout):
            return TurnEnd(False, f"a die fell off the plate at the {lifted}. die", max(lifted - 1, 0))
        grippable = {s for s, _ in geometry.exposed_faces(readout.pyramid)} - {self.top_slot}
        if not grippable:
            return TurnEnd(True, f"nothing left to grip: {lifted} dice conquered", lifted)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        self.taken[record.player] += record.end.value
        self.events.append(f"player {record.player} conquered {record.end.value:g} dice")
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.taken)


# The 25 dice of the skeleton: the three edges of the pyramid (two coordinates zero) and the apex.
SKELETON: frozenset[Slot] = frozenset(s for s in geometry.SLOTS if sorted(s)[1] == 0)


class CaptainFlint(SkillGame):
    """Captain Flint's Skeleton Trick: press the top, tilt and shake, and see what is left of the pyramid.

    Setup: the full pyramid of 165 dice (option ``layers`` for a smaller one).
    Turn: one press-tilt-shake (a finger presses the apex along the plate's normal while the plate is
        tilted steeply and jiggled), then the dice settle.
    Legal actions: any tilt; the programmed Flint presses 5 N, tilts 50 degrees and shakes 3 mm at 8 Hz.
    Scoring: a demonstration: the dice left seated, how many of them belong to the 25-die skeleton (the
        three edges and the apex), and how many other dice stayed.
    End: after one turn per player; the most skeleton dice left (and fewest others) is the best trick.
    Interpretation: the rule book promises that exactly the skeleton remains; the score is skeleton
        dice kept minus other dice kept, so a perfect trick of the full pyramid scores 25.
    """

    info: ClassVar[GameInfo] = GameInfo(
        1, "Captain Flint's Skeleton Trick", "S", (1, 2, 3), "165 dice", ("captain flint", "skeleton"), 91
    )
    option_specs: ClassVar[Options] = {"layers": LAYERS}
    time_limit: ClassVar[float] = 30.0
    default_player: ClassVar[str] = "flint"

    def setup(self) -> None:
        self.results: list[float] = [0.0] * self.players
        self.acted = False
        self.skeleton: frozenset[Slot] = SKELETON

    def prepare(self, world: World) -> None:
        slots = pyramid_slots(self.option("layers", 9))
        self.skeleton = skeleton_of(slots)
        world.build(coloured(slots, self))
        self.acted = False

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        if elapsed <= 0:
            return None
        seated = set(readout.pyramid)
        kept = len(seated & self.skeleton)
        others = len(seated - self.skeleton)
        note = (
            f"{kept} of the {len(self.skeleton)} skeleton dice and {others} other dice stayed seated; "
            f"{len(readout.off_plate())} dice left the plate"
        )
        return TurnEnd(kept == len(self.skeleton) and others == 0, note, kept - others)

    def turn_over(self, record: TurnRecord) -> None:
        self.results[record.player] = record.end.value
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.results)
