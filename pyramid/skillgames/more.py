"""More throwing and building skill games: Malicious Pleasure (20) and The Vain Guinea Fowl (17).

Dice are thrown or set down by hand (``Throw``); what counts is read back from the world. A die that
falls off the plate ends the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import COUNTS, EDGE, Colour, DieId
from pyramid.geometry import Slot, UpFaces
from pyramid.perception import DieReading, Readout, Status
from pyramid.rules import GameInfo
from pyramid.rules.options import Number, OneOf, Options, Whole
from pyramid.skillgames.base import (
    MAX_THROWS,
    ROUNDS,
    DiceInHand,
    SkillGame,
    ThrowingRace,
    TurnEnd,
    TurnRecord,
    stock,
)
from pyramid.skillgames.throwing import on_plate
from pyramid.state import Cell, PyramidState

if TYPE_CHECKING:
    from pyramid.physics.world import World


# Lattice steps to the cubes that share a face (6) or an edge (12) with a cube.
TOUCH_STEPS: tuple[Slot, ...] = tuple(
    (a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if abs(a) + abs(b) + abs(c) in (1, 2)
)


def touching(slot: Slot) -> set[Slot]:
    """Slots whose dice touch a die in ``slot`` face to face or along an edge."""
    near = ((slot[0] + a, slot[1] + b, slot[2] + c) for a, b, c in TOUCH_STEPS)
    return {s for s in near if geometry.is_slot(s)}


def set_down_point(slot: Slot) -> tuple[float, float, float]:
    """Where a hand lets a die go to set it into ``slot``: over its funnel, half an edge above its seat."""
    x, y, z = geometry.slot_centre(slot) * EDGE
    return float(x), float(y), float(z + 0.5 * EDGE)


class MaliciousPleasure(ThrowingRace):
    """Malicious Pleasure: throw a die; if it lands in a funnel holding a die of yours, set down more dice.

    Setup: each player has dice of one colour (red, green, black): 82 each with 2 players, 55 with 3
        (option ``dice``); the plate starts empty.
    Turn: the player throws one die onto the plate from about 20 cm (``Throw``). If it comes to rest
        seated in a funnel formed by dice and one of those dice is the player's, the number that die turns
        into the funnel allows that many dice in all, the thrown one included: the player sets the others down one at a
        time (``Throw`` from just above a funnel), each into an open funnel touching a die placed this
        turn. Otherwise the turn ends after the throw.
    Legal actions: one throw, then set-downs into open funnels touching this turn's dice.
    Scoring: the player's dice on the plate.
    End: the first player with no dice left in hand wins; after ``throws`` throws in all (default 2000)
        the most dice on the plate wins.
    Interpretation: the translator's "hard line": all the turn's dice touch (face or edge), the thrown
        one counts, so a "1" allows nothing more. The number "shown on that existing die" is the face it
        turns into the funnel, the face the thrown die comes to rest on, as the book reads a funnel's
        numbers in games 15, 18 and 41 (option ``number=lowest``: the lowest of the three faces it turns
        up, the reading before); house rules (the book is silent): the player uses the best of their dice
        in the funnel; a base funnel holds no die, so a die landing there allows nothing more; a thrown
        die that rests anywhere on the plate stays and counts as placed; a die that falls off (thrown,
        set down or knocked off) ends the turn and is back in its owner's hand at once, before the end
        is checked ("not put back" onto the plate; a die on the table is not placed, so a player whose
        last die fell off has not won); a set-down that does not come to rest seated stays where it lies.
    """

    throw_limit = 2000

    info: ClassVar[GameInfo] = GameInfo(20, "Malicious Pleasure", "C (S)", (2, 3), "82 or 55 dice each", (), 226)
    option_specs: ClassVar[Options] = {
        "dice": Whole("dice per player (default 82 with 2 players, 55 with 3)", 1, COUNTS["red"]),
        "throws": Whole("most throws in all (default 2000)", 1, MAX_THROWS),
        "number": OneOf(
            "the number a die in the funnel shows: funnel (the face it turns into it, default) or lowest",
            ("funnel", "lowest"),
        ),
    }
    shared_world: ClassVar[bool] = True
    default_player: ClassVar[str] = "malice"
    time_limit: ClassVar[float] = 60.0
    COLOURS: ClassVar[tuple[Colour, ...]] = ("red", "green", "black")

    def setup(self) -> None:
        taken: set[DieId] = set()
        count = self.option("dice", 82 if self.players == 2 else 55)
        self.hand: list[list[DieId]] = [stock(self.COLOURS[p], count, taken) for p in range(self.players)]
        self.own: list[set[DieId]] = [set(h) for h in self.hand]
        self.placed: list[float] = [0.0] * self.players
        self.throws = 0
        self.thrown: DieId | None = None
        self.group: list[DieId] = []  # this turn's dice
        self.allowed = 0  # dice the turn may place in all (0 until the throw is judged)
        self.spot: Slot | None = None  # where the next set-down goes
        self.reading = self.option("number", "funnel")

    def prepare(self, world: World) -> None:
        """The plate starts empty."""

    def begin_turn(self, world: World) -> None:
        fallen = [d for d, r in world.readout(require_rest=False).dice.items() if not on_plate(r)]
        self.back_to_hand(fallen)
        for die in fallen:
            world.remove(die, pull=False)
        self.thrown, self.group, self.allowed, self.spot = None, [], 0, None

    def next_throw(self, readout: Readout, rng: np.random.Generator) -> tuple[DieId, tuple[float, float], float]:
        """The die, target (x, y) and height of the turn's throw: a random point near the centre, from 20 cm."""
        die = self.hand[self.to_move].pop(0)
        self.thrown = die
        self.group = [die]
        self.throws += 1
        aim = rng.normal(0.0, 0.02, size=2)
        return die, (float(aim[0]), float(aim[1])), 0.2

    def next_set_down(self) -> tuple[DieId, tuple[float, float, float]]:
        """The die to set down next and the point above ``spot`` to let it go from."""
        if self.spot is None:
            raise ValueError("no set-down is due")
        die = self.hand[self.to_move].pop(0)
        self.group.append(die)
        return die, set_down_point(self.spot)

    def number_in_funnel(self, readout: Readout, slot: Slot) -> int:
        """The best number the player's dice under ``slot`` show (0 if none of the funnel's dice is theirs):
        the face each turns into the funnel, or with ``number=lowest`` the lowest of its three upward faces."""
        best = 0
        for axis, s in enumerate(geometry.supports(slot)):
            die = readout.slot_die.get(s)
            r = readout.dice.get(die) if die is not None else None
            if r is not None and die in self.own[self.to_move] and r.up is not None:
                best = max(best, min(r.up) if self.reading == "lowest" else r.up[axis])
        return best

    def open_spot(self, readout: Readout) -> Slot | None:
        """An open funnel touching a die of this turn, clear of loose dice (inner and low first), or None."""
        near: set[Slot] = set()
        for die in self.group:
            r = readout.dice.get(die)
            if r is not None and r.slot is not None:
                near |= touching(r.slot)
        loose = [np.array(r.position) for r in readout.dice.values() if r.slot is None]
        spots = [
            s
            for s in set(geometry.open_slots(readout.pyramid)) & near
            if all(np.linalg.norm(geometry.slot_centre(s) * EDGE - p) > EDGE for p in loose)
        ]
        # Away from the plate's rim first (a die set down there may tumble off), then the lowest.
        return max(spots, key=lambda s: (min(s) > 0, geometry.layer(s), s)) if spots else None

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        on = {d for d, r in readout.dice.items() if on_plate(r)}
        self.placed = [float(len(self.own[p] & on)) for p in range(self.players)]
        if self.thrown is None:
            return None
        mine = self.placed[self.to_move]
        off = [d for d, r in readout.dice.items() if not on_plate(r)]
        if off:
            self.back_to_hand(off)  # before the end is checked: a die off the plate is not placed
            return TurnEnd(False, f"die {off[0]} fell off the plate; {mine:g} dice on the plate", mine)
        if self.allowed == 0:
            r = readout.dice[self.thrown]
            self.allowed = max(1, self.number_in_funnel(readout, r.slot)) if r.slot is not None else 1
            where = f"in {r.slot}" if r.slot is not None else r.status.value
            self.events.append(f"the die landed {where}: {self.allowed} dice in all")
        if len(self.group) >= self.allowed or not self.hand[self.to_move]:
            return TurnEnd(True, f"{len(self.group)} dice placed; {mine:g} dice on the plate", mine)
        self.spot = self.open_spot(readout)
        if self.spot is None:
            return TurnEnd(True, f"no open funnel touches; {len(self.group)} placed; {mine:g} on the plate", mine)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        super().turn_over(record)
        self.thrown = None


ROLL_DROP = 0.02  # metres: a roll lets the die go at least this far above its seat (The Vain Guinea Fowl)
SIDE_NUMBERS = (1, 5, 4)  # the numbers the sides facing +i, +j, +k must show (a real die corner: 1, 5, 4)


class VainGuineaFowl(SkillGame):
    """The Vain Guinea Fowl: dress a green core in black dice so that each side shows only 1s, 4s or 5s.

    Setup: the "naked" fowl, a 10-die green pyramid, stands on the middle of the plate (option
        ``core``: 1, 4 or 10 dice); the finished bird is the pyramid three layers taller with the core
        inside (56 dice for the 10-die core), so its coat takes 46 black dice (19 for a 1-die core).
    Turn: the player rolls black dice into open funnels of the coat, one at a time (``Throw`` let go
        above the funnel, held the way the player chooses), and lifts out (``Lift``) any die that shows
        a wrong number on a side, to roll it again; a die that lands loose is jiggled once (``Shake``).
        The clock runs in simulated seconds until the coat is complete and right.
    Legal actions: roll a die into an open coat funnel; lift out a coat die nothing rests on; shake.
    Scoring: the player's simulated time (lower is better); a failed turn scores the time limit.
    End: after one turn per player (``rounds`` for more; the best time counts); the fastest wins.
    Interpretation: the side facing +i must show 1s, +j 5s and +k 4s, the way 1, 4 and 5 meet at a corner
        of a real die (the red reminder die; the other way round no die could close the top); a die
        counts as it lies, never turned by hand once it lies, and a loose die left lying on the plate
        does not spoil the bird (house rule: the book does not say whether dice may be turned; a wrong
        die must be lifted out and rolled again). How the player holds a die before letting it go is
        their choice (house rule): a roll is a die let go from at least ``ROLL_DROP`` (2 cm) above
        its seat, without push or spin, so that it falls and settles by itself. House rule for the
        race: the book has all players roll at once into one bird, sharing the coat (23 each, or 15
        each with three, one short of 46); a simulation plays turns, so each player dresses a bird of
        their own against the clock. A die that falls off the plate ends the turn as a failure. ``time`` (simulated
        seconds, default 240) limits a turn.
    """

    lifts_dice_out = True

    info: ClassVar[GameInfo] = GameInfo(17, "The Vain Guinea Fowl", "S", (2, 3), "10 green, 46 black, 1 red", (), 202)
    option_specs: ClassVar[Options] = {
        "core": Whole("dice of the green core (default 10)", 1, 10, among=(1, 4, 10)),
        "time": Number("simulated seconds a turn may last (default 240)", 0.0, 3600.0, above=True),
        "rounds": ROUNDS,
    }
    lower_wins: ClassVar[bool] = True
    default_player: ClassVar[str] = "fowl"
    time_limit: ClassVar[float] = 3600.0

    def setup(self) -> None:
        core = self.option("core", 10)
        layers = geometry.SMALL_PYRAMID_LAYERS[core] + 3
        bird = next(n for n, m in geometry.SMALL_PYRAMID_LAYERS.items() if m == layers)
        self.apex: Slot = geometry.small_pyramid_apexes(bird)["centre"]
        self.bird: list[Slot] = geometry.small_pyramid(bird, self.apex)
        core_apex = (self.apex[0] + 1, self.apex[1] + 1, self.apex[2] + 1)
        self.core: list[Slot] = geometry.small_pyramid(core, core_apex)
        self.coat: list[Slot] = [s for s in self.bird if s not in set(self.core)]
        self.limit = float(self.option("time", 240.0))
        self.best: list[float] = [self.limit] * self.players
        self.hand: list[DieId] = []
        self.black: list[DieId] = []
        self.rolls: list[int] = []  # dice rolled in each turn so far, in turn order

    def prepare(self, world: World) -> None:
        world.build(PyramidState({s: Cell("green") for s in self.core}))
        self.black = stock("black", len(self.coat) + 24, set(world.dice))
        self.hand = list(self.black)
        self.rolls.append(0)

    def wrong(self, readout: Readout) -> list[Slot]:
        """Coat slots whose seated die shows a wrong number on a side of the bird."""
        out = []
        for s in self.coat:
            die = readout.slot_die.get(s)
            r = readout.dice.get(die) if die is not None else None
            if r is None or r.up is None:
                continue
            if any(s[a] == self.apex[a] and r.up[a] != SIDE_NUMBERS[a] for a in range(3)):
                out.append(s)
        return out

    def loose(self, readout: Readout) -> list[DieId]:
        """Dice on the plate that are not seated in a funnel."""
        return [d for d, r in readout.dice.items() if r.status is not Status.SEATED]

    def dressing(self, slot: Slot) -> UpFaces:
        """Faces along +i, +j, +k a die in coat ``slot`` may show: the bird's numbers on its outer sides."""
        sides = [a for a in range(3) if slot[a] == self.apex[a]]
        return next(up for up in geometry.ALL_UP_FACES if all(up[a] == SIDE_NUMBERS[a] for a in sides))

    def next_roll(self, readout: Readout, clear: bool = True) -> tuple[DieId, Slot] | None:
        """A die from the hand and the lowest open coat funnel (with ``clear``, one no loose die lies in); None
        when there is none, or no die left."""
        loose = [np.array(r.position) for r in readout.dice.values() if r.status is not Status.SEATED and clear]
        spots = {
            s
            for s in set(geometry.open_slots(readout.pyramid)) & set(self.coat)
            if all(np.linalg.norm(geometry.slot_centre(s) * EDGE - p) > EDGE for p in loose)
        }
        if not spots or not self.hand:
            return None
        self.rolls[-1] += 1
        return self.hand.pop(0), max(spots, key=lambda s: (geometry.layer(s), s))

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        for die in self.black:  # a die lifted out goes back to the hand
            if die not in readout.dice and die not in self.hand:
                self.hand.append(die)
        off = [d for d, r in readout.dice.items() if not on_plate(r)]
        if off:
            return TurnEnd(False, f"die {off[0]} fell off the plate after {elapsed:.2f} s", self.limit)
        dressed = sum(1 for s in self.coat if s in readout.pyramid)
        if dressed == len(self.coat) and not self.wrong(readout):
            return TurnEnd(True, f"the fowl is dressed in {elapsed:.2f} s", elapsed)
        if elapsed >= self.limit:
            return TurnEnd(False, f"time is up: {dressed} of {len(self.coat)} coat dice in place", self.limit)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        self.best[record.player] = min(self.best[record.player], record.end.value)
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.best)


TOWER_SPOT = 0.45  # edges from a corner of the plate, along its bisector: where a die lies flat on the slab


def tower_spot(corner: int = 0) -> tuple[float, float, float]:
    """Where a die lies flat on the plate (world, metres, plate at rest): its centre, on the slab's corner ``corner``.

    The plate's one flat spot big enough for a die: beyond the corner funnel, where the slab's rim
    meets at 60 degrees. The die's centre lies ``TOWER_SPOT`` edges in from the corner (3.6 mm from
    either edge of the slab), its diagonal along the corner's bisector; further in it meets the
    corner funnel's wall.
    """
    corner_xy = geometry.slab_corners()[corner]
    xy = corner_xy * (1 - TOWER_SPOT / float(np.linalg.norm(corner_xy))) * EDGE
    return float(xy[0]), float(xy[1]), float((geometry.SLAB_TOP + 0.5) * EDGE)


def die_top(reading: DieReading) -> float:
    """Height above the table (m) of the highest point of a die: its centre plus how far its corners reach up.

    Half a diagonal (0.87 edges) for a die seated corner-down; for a die lying or leaning ``tilt``
    degrees off flat, half an edge times (cos + sin) of the tilt (exact for a tilt about one face axis).
    """
    if reading.status is Status.SEATED:
        return reading.position[2] + EDGE * np.sqrt(3) / 2
    tilt = np.radians(reading.tilt)
    return reading.position[2] + EDGE / 2 * float(np.cos(tilt) + np.sin(tilt))


class Emag(DiceInHand, SkillGame):
    """Emag: "the Game principle reversed": stack dice as high as you can (a house rule; the rules are lost).

    Setup: an empty plate and a hand of ``dice`` red dice (default 20) per turn.
    Turn: the player sets dice down one at a time (``Throw`` let go from a still hand, held the way the
        player chooses) anywhere on the plate, on it or on dice already there. The turn ends when the
        hand is empty, when the player stops, when a die falls off the plate, or at the time limit
        (120 simulated seconds).
    Legal actions: set a die of the hand down anywhere over the plate; stop.
    Scoring: the height above the table of the highest point of any die on the plate, in centimetres,
        read from the world at the end of the turn (``die_top``); the best turn counts.
    End: after one turn per player (``rounds`` for more); the highest stack wins.
    Interpretation: all that survives is "The Game principle reversed! The dice must be built as high as
        possible. Who will be able to stack the greatest number of dice?"; everything else here is a
        labelled house rule: each player stacks alone in a fresh world, on the plate (not on the table
        beside it), the dice are set down in any pose a hand gives them (never wedged or glued), and
        height is measured, not counted, since a heap has no columns to count. A die that falls off
        the plate ends the turn; the stack as it then stands is scored. Two ways stand out: a
        corner-down pyramid in the lattice's funnels (20 dice: 4 layers), or a tower face on face on
        the plate's one flat spot big enough for a die, at a corner beyond the corner funnel
        (``tower_spot``).
    """

    info: ClassVar[GameInfo] = GameInfo(5, "Emag", "S", (1, 2, 3, 4, 5, 6), "not stated: 20 dice (house rule)", (), 128)
    house_rules: ClassVar[str] = "all of it: the rule text is lost"
    option_specs: ClassVar[Options] = {"dice": Whole("dice per turn (default 20)", 1, COUNTS["red"]), "rounds": ROUNDS}
    default_player: ClassVar[str] = "stack"
    time_limit: ClassVar[float] = 120.0

    def setup(self) -> None:
        self.best: list[float] = [0.0] * self.players
        self.hand: list[DieId] = []
        self.stopped = False

    def prepare(self, world: World) -> None:
        self.hand = stock("red", self.option("dice", 20), set(world.dice))
        self.stopped = False

    def height(self, readout: Readout) -> float:
        """The highest point of any die over the plate above the table, metres (0 with none)."""
        return max((die_top(r) for r in readout.dice.values() if on_plate(r)), default=0.0)

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        cm = round(100 * self.height(readout), 2)
        off = [d for d, r in readout.dice.items() if not on_plate(r)]
        if off:
            return TurnEnd(False, f"die {off[0]} fell off the plate; the stack stands {cm:g} cm high", cm)
        if not self.hand or self.stopped:
            why = "the hand is empty" if not self.hand else "the player stopped"
            return TurnEnd(True, f"{why}: {len(readout.dice)} dice; the stack stands {cm:g} cm high", cm)
        return None

    def turn_over(self, record: TurnRecord) -> None:
        self.best[record.player] = max(self.best[record.player], record.end.value)
        super().turn_over(record)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.best)
