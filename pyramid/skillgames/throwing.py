"""Skill games of dice flicked, thrown or poured onto a shared plate: Flickers (7), Hide Away (9), Trulla (16),
Dishing Up (19).

The dice stay on the plate from turn to turn (``shared_world``); dice that leave the plate go back
to their owner's hand at the start of the next turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import COUNTS, EDGE, Colour, DieId
from pyramid.geometry import Slot
from pyramid.perception import DieReading, Readout
from pyramid.rules import GameInfo, Termination
from pyramid.rules.options import Options, Whole
from pyramid.skillgames.base import (
    MAX_ROUNDS,
    MAX_THROWS,
    SkillGame,
    ThrowingRace,
    TurnEnd,
    TurnRecord,
    seat_with_dice,
    stock,
)
from pyramid.state import Cell, PyramidState
from pyramid.tolerances import TOL
from pyramid.units import PLACE_DROP

if TYPE_CHECKING:
    from pyramid.physics.world import World

SIDES = (180.0, 300.0, 60.0)  # azimuth (degrees) of the plate side each player sits at


def on_plate(r: DieReading) -> bool:
    """Whether a die lies on the plate (over its outline and above the table)."""
    return r.on_plate and r.position[2] > TOL.on_plate_height * EDGE


def table_spot(side: float, slot: int, gap: float = 0.04) -> tuple[float, float, float]:
    """A spot on the table ``gap`` m beyond the plate's ``side`` (azimuth), shifted sideways by ``slot``."""
    reach = geometry.SLAB_INRADIUS * EDGE + gap
    a = math.radians(side)
    sideways = (slot - 2) * 1.6 * EDGE
    return (reach * math.cos(a) - sideways * math.sin(a), reach * math.sin(a) + sideways * math.cos(a), EDGE / 2)


class Flickers(SkillGame):
    """Flickers: flick your five dice from the table onto the plate; the first with all five on it wins.

    Setup: each player has five dice of their colour (red, green, black) on the table at their side
        of the empty plate, 4 cm from its edge.
    Turn: the player flicks one die (``Flick``) from their side onto the plate; then every die that is
        not on the plate (missed, or knocked off by the flick) goes back to its owner's side.
    Legal actions: one flick of one of the player's dice not yet on the plate.
    Scoring: the player's dice on the plate.
    End: as soon as a player has all five on the plate after their turn (they win), or after
        ``rounds`` rounds (default 25): the most dice on the plate wins.
    Interpretation: a turn is one flick; "on the plate" means lying or seated on it, not on the table.
    """

    info: ClassVar[GameInfo] = GameInfo(7, "Flickers", "S", (2, 3), "5 dice per player", (), 137)
    option_specs: ClassVar[Options] = {
        "rounds": Whole("most rounds before the dice on the plate decide (25)", 1, MAX_ROUNDS)
    }
    shared_world: ClassVar[bool] = True
    default_player: ClassVar[str] = "flick"
    time_limit: ClassVar[float] = 10.0
    COLOURS: ClassVar[tuple[Colour, ...]] = ("red", "green", "black")

    def setup(self) -> None:
        taken: set[DieId] = set()
        self.own: list[list[DieId]] = [stock(self.COLOURS[p], 5, taken) for p in range(self.players)]
        self.count: list[float] = [0.0] * self.players
        self.flicked: DieId | None = None
        self.was_on: set[DieId] = set()
        # Where each seat's last flicked die came to rest: metres from the plate's centre (x, y), before it
        # went back to its owner's side; nan before the seat's first flick.
        self.landed: list[float] = [math.nan] * self.players

    def prepare(self, world: World) -> None:
        for p in range(self.players):
            for n, die in enumerate(self.own[p]):
                world.throw(die, table_spot(SIDES[p], n))

    def begin_turn(self, world: World) -> None:
        readout = world.readout(require_rest=False)
        for p in range(self.players):
            for n, die in enumerate(self.own[p]):
                r = readout.dice[die]
                home = np.array(table_spot(SIDES[p], n))
                if not on_plate(r) and np.linalg.norm(np.array(r.position) - home) > 0.2 * EDGE:
                    world.remove(die, pull=False)
                    world.throw(die, home)
        self.flicked = None
        readout = world.readout(require_rest=False)
        self.was_on = {d for dice in self.own for d in dice if on_plate(readout.dice[d])}

    def next_die(self, readout: Readout) -> DieId:
        """The die the player to move flicks next: their first die not on the plate."""
        waiting = [d for d in self.own[self.to_move] if not on_plate(readout.dice[d])]
        self.flicked = waiting[0]
        return waiting[0]

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        if elapsed <= 0:
            return None
        self.count = [float(sum(on_plate(readout.dice[d]) for d in dice)) for dice in self.own]
        mine = self.count[self.to_move]
        landed = self.flicked is not None and on_plate(readout.dice[self.flicked])
        if self.flicked is not None:
            x, y = readout.dice[self.flicked].position[:2]
            self.landed[self.to_move] = math.hypot(x, y)
        knocked = [d for d in self.was_on if not on_plate(readout.dice[d])]
        note = f"{'on the plate' if landed else 'missed'}; {mine:g} of 5 on the plate"
        return TurnEnd(landed, note + (f"; knocked off: {knocked}" if knocked else ""), mine)

    def finished(self) -> bool:
        return max(self.count) >= 5 or len(self.records) >= self.players * self.option("rounds", 25)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.count)

    def termination(self) -> Termination:
        return Termination.GOAL_REACHED if max(self.count) >= 5 else Termination.ROUNDS_PLAYED

    def winners(self, scores: tuple[float, ...]) -> tuple[int, ...]:
        if len(self.records) and self.count[self.records[-1].player] >= 5:
            return (self.records[-1].player,)
        return super().winners(scores)


HIDE_APEXES: tuple[Slot, ...] = ((5, 1, 1), (1, 5, 1), (1, 1, 5))  # 4-die pyramids off the plate's edge
HIDE_COLOURS: tuple[Colour, ...] = ("green", "red", "blue")


class HideAway(SkillGame):
    """Hide Away: throw black dice onto the plate to cover your own small pyramid.

    Setup: each player builds a 4-die pyramid of their colour (green, red, blue) on funnels off the
        plate's edge and takes ``dice`` black dice (default 8).
    Turn: the player throws one black die (``Throw``) from about 15 cm onto the plate.
    Legal actions: one throw of one of the player's black dice.
    Scoring: the faces of the player's own colour still showing (lower is better).
    End: when a player's pyramid shows no face of its colour (that player wins), or when every black
        die has been thrown; then the fewest faces showing wins.
    Interpretation: the win condition is lost; "hidden" is read as no uncovered face of your own colour.
        A black die that falls off the plate goes back to its thrower's hand; a die of a small pyramid
        knocked out of its slot is put back at the start of the next turn, if its slot is free.
    """

    info: ClassVar[GameInfo] = GameInfo(9, "Hide Away", "S", (2, 3), "4-die pyramids and black dice", (), 153)
    option_specs: ClassVar[Options] = {"dice": Whole("black dice per player (default 8)", 1, COUNTS["black"] // 2)}
    shared_world: ClassVar[bool] = True
    lower_wins: ClassVar[bool] = True
    default_player: ClassVar[str] = "throw"
    time_limit: ClassVar[float] = 10.0

    def setup(self) -> None:
        taken: set[DieId] = set()
        self.hand: list[list[DieId]] = [stock("black", self.option("dice", 8), taken) for _ in range(self.players)]
        self.black: list[list[DieId]] = [list(h) for h in self.hand]
        self.pyramids: list[dict[Slot, DieId]] = []
        self.showing: list[float] = [9.0] * self.players
        self.thrown: DieId | None = None

    def prepare(self, world: World) -> None:
        for p in range(self.players):
            slots = geometry.small_pyramid(4, HIDE_APEXES[p])
            state = PyramidState({s: Cell(HIDE_COLOURS[p], (1, 2, 3)) for s in slots})
            self.pyramids.append(world.build(state))

    def begin_turn(self, world: World) -> None:
        readout = world.readout(require_rest=False)
        for p in range(self.players):
            for die in [d for d in world.dice if d in self.black[p] and not on_plate(readout.dice[d])]:
                world.remove(die, pull=False)
                if die not in self.hand[p]:
                    self.hand[p].append(die)
            for slot, die in self.pyramids[p].items():
                r = readout.dice[die]
                if r.slot != slot and slot not in readout.slot_die:
                    world.remove(die, pull=False)
                    world.place(die, slot, drop=PLACE_DROP)
                    self.events.append(f"player {p} rebuilds {slot}")
        self.thrown = None

    def next_throw(self, readout: Readout, rng: np.random.Generator) -> tuple[DieId, tuple[float, float], float]:
        """The die, target (x, y) and height of the next throw: at the player's own pyramid, from 15 cm."""
        die = self.hand[self.to_move].pop(0)
        self.thrown = die
        apex = geometry.slot_centre(HIDE_APEXES[self.to_move]) * EDGE
        return die, (float(apex[0]), float(apex[1])), 0.15

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        if elapsed <= 0:
            return None
        owner = {s: p for p, pyr in enumerate(self.pyramids) for s, d in pyr.items() if readout.dice[d].slot == s}
        faces = geometry.exposed_faces(readout.pyramid)
        self.showing = [float(sum(owner.get(s) == p for s, _ in faces)) for p in range(self.players)]
        landed = self.thrown is not None and on_plate(readout.dice[self.thrown])
        mine = self.showing[self.to_move]
        if not landed and self.thrown is not None and self.thrown not in self.hand[self.to_move]:
            self.hand[self.to_move].append(self.thrown)  # it goes back to the hand, to be thrown again
        return TurnEnd(landed, f"{'landed' if landed else 'fell off'}; {mine:g} faces of yours still show", mine)

    def finished(self) -> bool:
        return min(self.showing) == 0 or not any(self.hand)

    def turn_over(self, record: TurnRecord) -> None:
        super().turn_over(record)
        self.to_move = seat_with_dice(self.hand, self.to_move)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.showing)


class Trulla(SkillGame):
    """Trulla: pour your dice from a ladle onto the plate; the most faces showing on the pyramid wins.

    Setup: the dice are shared out by colour (red, green, black): ``dice`` each (default 55).
    Turn: the player fills the ladle with as many of their dice as they like and pours them onto the
        plate (``Pour``); the turn ends when the ladle is empty (or touches the pyramid: see below).
    Legal actions: one pour of any number of the player's remaining dice.
    Scoring: faces of the player's colour on the outside of the pyramid that the seated dice form
        (edges double, apex triple), read from the world.
    End: when every die has been poured (or after ``rounds`` rounds, default 30); the most faces wins.
    Interpretation: dice that fall off the plate go back to their owner to be poured again; dice that
        come to rest anywhere but corner-down in a funnel stay where they lie and count for nobody.
        The ladle is not a body in the simulation: a pour lets its dice go from points in its bowl,
        above the target, so it cannot touch the pyramid, and a turn ends when the ladle is empty,
        which is one pour. The hands hold it clear instead: the programmed one 12 cm above the table,
        higher where dice under it reach up, keeping its dice 5 mm above every die
        (``ladle_height``); a person's 8 cm above the point under the mouse. A "touch" never happens.
    """

    info: ClassVar[GameInfo] = GameInfo(16, "Trulla", "C (S)", (2, 3), "all dice by colour; a ladle", (), 196)
    option_specs: ClassVar[Options] = {
        "dice": Whole("dice per player (default 55)", 1, COUNTS["red"]),
        "rounds": Whole("most rounds (default 30)", 1, MAX_ROUNDS),
    }
    shared_world: ClassVar[bool] = True
    default_player: ClassVar[str] = "ladle"
    time_limit: ClassVar[float] = 10.0
    COLOURS: ClassVar[tuple[Colour, ...]] = ("red", "green", "black")

    def setup(self) -> None:
        taken: set[DieId] = set()
        self.hand: list[list[DieId]] = [
            stock(self.COLOURS[p], self.option("dice", 55), taken) for p in range(self.players)
        ]
        self.mine: list[set[DieId]] = [set(h) for h in self.hand]
        self.faces: list[float] = [0.0] * self.players

    def prepare(self, world: World) -> None:
        """The plate starts empty."""

    def begin_turn(self, world: World) -> None:
        for die in world.readout(require_rest=False).off_plate():
            world.remove(die, pull=False)

    def ladleful(self, count: int) -> list[DieId]:
        """Up to ``count`` of the player to move's remaining dice, taken out of their hand into the ladle."""
        hand = self.hand[self.to_move]
        out, self.hand[self.to_move] = hand[:count], hand[count:]
        return out

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        if elapsed <= 0:
            return None
        counts = geometry.face_count(readout.pyramid.colours(), outer_only=True)
        self.faces = [float(counts.get(c, 0)) for c in self.COLOURS[: self.players]]
        for die in readout.off_plate():
            owner = next(p for p in range(self.players) if die in self.mine[p])
            if die not in self.hand[owner]:
                self.hand[owner].append(die)  # it goes back to its owner, to be poured again
        seated = len(readout.pyramid)
        mine = self.faces[self.to_move]
        return TurnEnd(True, f"{seated} dice seated; {mine:g} faces of yours show", mine)

    def finished(self) -> bool:
        return not any(self.hand) or len(self.records) >= self.players * self.option("rounds", 30)

    def turn_over(self, record: TurnRecord) -> None:
        super().turn_over(record)
        self.to_move = seat_with_dice(self.hand, self.to_move)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.faces)


class DishingUp(ThrowingRace):
    """Dishing Up: throw your dice onto a core pyramid until one falls off; its number names who goes next.

    Setup: a core pyramid of 56 dice on the 21 inner funnels; 108 dice shared out (``dice`` each,
        default 108 // players). With 4 to 6 players each owns one number (player p: p + 1); with 3,
        two (player p: 2p + 1 and 2p + 2).
    Turn: the player throws their dice one at a time onto the pyramid from about 20 cm (``Throw``)
        until a die falls off the plate, the thrown one or one it knocked off; the number that die
        shows names the next player (a number nobody owns, or a die that shows none, passes on
        clockwise).
    Legal actions: one throw of one of the player's dice.
    Scoring: the player's dice resting on the plate.
    End: the first player with no dice left in hand wins (or, after ``throws`` throws in all, default
        600, the most dice on the plate).
    Interpretation: a die that stays on the plate counts as placed wherever it rests; a die that falls
        off, whoever threw it, is back in its owner's hand at once (it is not placed), and a core die
        that falls off is out of the game. When one throw sends several dice off, the thrown die names
        the next player if it is among them, else one of them drawn at random (house rule: the
        simulation sees them only once they lie still, not which fell first).
    """

    throw_limit = 600

    info: ClassVar[GameInfo] = GameInfo(19, "Dishing Up", "C (S)", (3, 4, 5, 6), "56-die core; 108 dice", (), 220)
    option_specs: ClassVar[Options] = {
        "dice": Whole("dice per player (default 108 // players)", 1, COUNTS["red"]),
        "throws": Whole("most throws in all (default 600)", 1, MAX_THROWS),
    }
    shared_world: ClassVar[bool] = True
    default_player: ClassVar[str] = "throw"
    time_limit: ClassVar[float] = 120.0

    def setup(self) -> None:
        self.taken: set[DieId] = set()
        colours = ("red", "green", "black", "red", "green", "black")
        count = self.option("dice", 108 // self.players)
        self.hand: list[list[DieId]] = [stock(colours[p], count, self.taken) for p in range(self.players)]
        self.own: list[set[DieId]] = [set(h) for h in self.hand]
        self.placed: list[float] = [0.0] * self.players
        self.thrown: DieId | None = None
        self.throws = 0
        self.next_seat: int | None = None
        self.core = geometry.small_pyramid(56, geometry.small_pyramid_apexes(56)["centre"])
        self.apex = geometry.slot_centre(min(self.core, key=geometry.layer)) * EDGE  # what the throws aim at

    def owner_of(self, number: int) -> int | None:
        """The player who owns ``number`` (None if nobody does)."""
        if self.players == 3:
            return (number - 1) // 2
        return number - 1 if number <= self.players else None

    def prepare(self, world: World) -> None:
        slots = self.core
        colours = [("red", "green", "black")[n % 3] for n in range(len(slots))]
        taken = {d for d in range(281) if d in self.taken}
        core = PyramidState({s: Cell(c) for s, c in zip(slots, colours, strict=True)})
        dice = {s: stock(core[s].colour, 1, taken)[0] for s in slots}
        self.taken |= taken
        world.build(core, dice)

    def begin_turn(self, world: World) -> None:
        fallen = [d for d, r in world.readout(require_rest=False).dice.items() if not on_plate(r)]
        self.back_to_hand(fallen)
        for die in fallen:
            world.remove(die, pull=False)
        self.thrown = None

    def next_throw(self, readout: Readout, rng: np.random.Generator) -> tuple[DieId, tuple[float, float], float]:
        """The die, target (x, y) and height of the next throw: at the core's top, from 20 cm."""
        die = self.hand[self.to_move].pop(0)
        self.thrown = die
        self.throws += 1
        return die, (float(self.apex[0]), float(self.apex[1])), 0.2

    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        on = {d for d, r in readout.dice.items() if on_plate(r)}
        self.placed = [float(len(self.own[p] & on)) for p in range(self.players)]
        mine = self.placed[self.to_move]
        off = [d for d in readout.dice if d not in on]
        if not off:
            if self.hand[self.to_move] and self.throws < self.option("throws", self.throw_limit):
                return None
            return TurnEnd(True, f"all thrown; {mine:g} dice on the plate", mine)
        self.back_to_hand(off)
        # The die that names the next player: the thrown one if it fell, else one of those knocked off.
        die = self.thrown if self.thrown in off else off[int(self.rng.integers(len(off)))]
        top = readout.dice[die].top
        self.thrown = None
        self.next_seat = self.owner_of(top) if top is not None else None
        shows = f"it shows {top}" if top is not None else "it shows no number"
        return TurnEnd(False, f"die {die} fell off ({shows}); {mine:g} dice on the plate", mine)

    def turn_over(self, record: TurnRecord) -> None:
        super().turn_over(record)
        if self.next_seat is not None:
            self.to_move = self.next_seat
        self.next_seat = None
