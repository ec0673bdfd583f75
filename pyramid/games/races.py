"""Games in which players race each other: grabbing, spotting and building as fast as they can.

Rules layer only (no physics). Each player's speed is a reaction-time distribution drawn, seeded,
from the game's generator (or given by the ``speeds`` option); in every race the fastest valid
reaction wins, and that player makes the next action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.games.construction import outer_planes
from pyramid.geometry import Slot
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Pass,
    Place,
    Remove,
    Seat,
    Termination,
    free_slots,
    funnel_faces,
    open_slots,
)
from pyramid.rules.options import Number, Options, PerPlayer
from pyramid.state import PyramidState, random_pattern

SPEED_OPTIONS: Options = {
    "speeds": PerPlayer(
        "mean reaction times in seconds, one per player, comma-separated (default: drawn, 0.35..0.75)",
        Number("", 0.0, 60.0, above=True),
    ),
    "spread": Number("log-normal spread of each reaction around its mean (default 0.3)", 0.0, 3.0),
}


@dataclass(frozen=True)
class Reflexes:
    """Each player's reaction time: log-normal around a personal mean (seconds)."""

    means: tuple[float, ...]
    spread: float = 0.3

    @classmethod
    def for_game(cls, game: Game) -> Reflexes:
        """The reflexes given by the game's ``speeds``/``spread`` options, else drawn from its generator."""
        means: tuple[float, ...] = game.option("speeds", ())
        if not means:
            means = tuple(float(v) for v in game.rng.uniform(0.35, 0.75, game.players))
        return cls(means, game.option("spread", 0.3))

    def times(self, rng: np.random.Generator, players: Sequence[Seat]) -> dict[Seat, float]:
        """One reaction time for each of ``players``."""
        draws = rng.lognormal(0.0, self.spread, len(players))
        return {p: self.means[p] * float(d) for p, d in zip(players, draws, strict=True)}

    def finish_times(self, rng: np.random.Generator, player: Seat, actions: int) -> list[float]:
        """When ``player`` finishes each of ``actions`` actions done one after another from time 0."""
        draws = rng.lognormal(0.0, self.spread, actions) * self.means[player]
        return [float(t) for t in np.cumsum(draws)]

    def fastest(self, rng: np.random.Generator, players: Sequence[Seat]) -> tuple[Seat, float]:
        """Who of ``players`` reacts first, and how fast."""
        times = self.times(rng, players)
        winner = min(times, key=lambda p: times[p])
        return winner, times[winner]


class GreedyGrabber(Game):
    """Greedy Grabber (no. 43), by Uwe Beul ("Raffzahn").

    Setup: the complete pyramid of randomly mixed dice, each showing random faces. Three players sit
    one at each side: player p sees the faces along cube axis p. Each has one extra die to roll.
    Turn: the roller rolls their die. Every free die whose face towards a player shows that number may
    be grabbed by that player, one die per grab, until the roller calls "Stop!" or nothing is left to
    grab; grabbing frees further dice. Then the next player rolls.
    Legal actions: each grab is a race: the players with a grabbable die, and the roller (who can
    always call "Stop!"), react; the fastest acts. The winner removes one free die whose face on their
    side shows the number; the roller may instead call "Stop!" (Pass), and must when nothing is theirs.
    Scoring: the number of dice you grabbed.
    End: when the pyramid has been taken apart; most dice wins.
    Interpretation: a free die shows one upward face to each side (its faces along +i, +j, +k); speeds
    are modelled (options ``speeds``, ``spread``), and the simulated players never grab after "Stop!",
    so the penalty (put back, one die to each other player) does not arise; a roll that nobody can use
    passes the die to the next roller.
    Strategy: the choices are which die to grab and, for the roller, when to call "Stop!". Every die is
    grabbed by somebody in the end, so a grab now beats a "Stop!" (measured: a roller who stops to deny
    the faster players loses more than they save); a grab should free dice that show the number on your
    side, not theirs. With drawn speeds the speeds still decide most games.
    """

    info = GameInfo(
        43, "Greedy Grabber", "D/S", (3,), "full pyramid, mixed colours; 1 extra die each", ("raffzahn",), 435
    )
    option_specs: ClassVar[Options] = SPEED_OPTIONS

    def setup(self) -> None:
        self.state = random_pattern(geometry.SLOTS, self.rng, COUNTS, random_faces=True)
        self.reflexes = Reflexes.for_game(self)
        self.taken = [0] * self.players
        self.roller: Seat = 0
        self.number = 0
        self._start_turn(0)

    def grabbable(self, player: Seat, state: PyramidState | None = None) -> list[Slot]:
        """The free dice showing the rolled number on ``player``'s side."""
        state = self.state if state is None else state
        return [s for s in free_slots(state) if self.shows(state, s, player)]

    def shows(self, state: PyramidState, slot: Slot, player: Seat) -> bool:
        """Whether the die in ``slot`` shows the rolled number on ``player``'s side."""
        up = state[slot].up
        return up is not None and up[player] == self.number

    def _race(self) -> bool:
        eligible = [p for p in range(self.players) if self.grabbable(p)]
        if not eligible:
            return False
        contenders = sorted({*eligible, self.roller})
        self.to_move, time = self.reflexes.fastest(self.rng, contenders)
        self.events.append(f"player {self.to_move} is fastest ({time:.2f} s)")
        return True

    def _start_turn(self, roller: Seat) -> None:
        for _ in range(1000):
            self.roller = self.to_move = roller
            if not self.state:
                return
            self.number = self.roll()
            if self._race():
                return
            roller = self.next_player(roller)

    def legal(self) -> list[Action]:
        out: list[Action] = [Remove(s) for s in self.grabbable(self.to_move)]
        return out + ([Pass()] if self.to_move == self.roller else [])

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.taken[player] += 1
            if self._race():
                return
        else:
            self.events.append(f"player {player} calls Stop!")
        self._start_turn(self.next_player(self.roller))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.taken)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_CLEARED if not self.state else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Remove):
            return 0.0
        after = self.state.without(action.slot)
        freed = set(free_slots(after)) - set(free_slots(self.state))
        me = self.to_move
        mine = sum(1 for s in freed if self.shows(after, s, me))
        theirs = sum(1 for s in freed for p in range(self.players) if p != me and self.shows(after, s, p))
        return 1.0 + 0.3 * mine - 0.2 * theirs


class Lookout(Game):
    """Lookout (no. 33), by Joe Nikisch.

    Setup: each player owns one colour: 82 dice each for two players, 55 each for three. Each player
    also holds one die of their right-hand neighbour's colour; the start player holds the golden die.
    Turn: a construction phase. Everybody throws 10 dice of their colour (fewer if fewer are left,
    topped up with blue dice to 5), plus the neighbour's die, plus the golden die for its holder, all
    at once. Your dice showing the number your left-hand neighbour threw with your colour's die may be
    built; so may those showing the golden number, except for the golden die's holder. Everybody
    builds as fast as they can; the holder calls "Stop!" when done. Then the golden die passes on.
    Legal actions: the next player to finish a placement (by time) places one die of their colour in
    an open slot.
    Scoring: the dice you have placed.
    End: the first player to place all their dice wins (or most placed when the pyramid is complete).
    Interpretation: speeds are modelled (options ``speeds``, ``spread``): each placement takes one
    reaction time; the holder places all their dice, then calls "Stop!" after one more reaction, and
    the others' placements that come later are void; blue dice that are built count as the player's
    own at once (they are exchanged after the phase anyway); the seed's "in a 2-player game ... 55"
    reads as three players.
    Strategy: none at the table; only speed counts. The seed sets which dice may be built, never where,
    and an open slot is always left (at most 165 dice are built), so where a die goes changes no count
    and no later throw: a greedy and a random player play the same game for the same seed. (A holder
    who calls "Stop!" early only lets the others build more, so the simulated holder never does.)
    """

    info = GameInfo(33, "Lookout", "C/S", (2, 3), "82 (2p) or 55 (3p) per colour; golden die; blue fillers", (), 355)
    option_specs: ClassVar[Options] = SPEED_OPTIONS
    house_rules = (
        "Placement (lost in the seed): a die may be built in any open slot: an empty base funnel or a "
        "funnel of three dice."
    )
    STOCK: ClassVar[dict[int, int]] = {2: 82, 3: 55}

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.left = [self.STOCK[self.players]] * self.players
        self.reflexes = Reflexes.for_game(self)
        self.holder: Seat = 0
        self.queue: list[tuple[float, Seat]] = []
        self._start_phase()

    def buildable(self, thrown: list[int], target: int, golden: int | None, left: int) -> int:
        """How many of ``thrown`` may be built: those showing ``target`` (or ``golden``), at most ``left``."""
        return min(left, sum(1 for v in thrown if v == target or v == golden))

    def _start_phase(self) -> None:
        for _ in range(1000):
            if min(self.left) <= 0 or not open_slots(self.state):
                return
            golden = int(self.rng.integers(1, 7))
            targets = [int(v) for v in self.rng.integers(1, 7, self.players)]
            counts = []
            for p in range(self.players):
                own = min(10, self.left[p])
                thrown = [int(v) for v in self.rng.integers(1, 7, max(own, 5 if own < 5 else 0))]
                counts.append(self.buildable(thrown, targets[p], None if p == self.holder else golden, self.left[p]))
            self.events.append(f"golden die {golden} (player {self.holder}); numbers {targets}; buildable {counts}")
            # the holder calls Stop! one reaction after finishing; the others' later placements are void
            times = [
                self.reflexes.finish_times(self.rng, p, counts[p] + (p == self.holder)) for p in range(self.players)
            ]
            stop = times[self.holder].pop()
            self.events.append(f"player {self.holder} calls Stop! at {stop:.2f} s")
            self.queue = sorted((t, p) for p, ts in enumerate(times) for t in ts if t <= stop)
            if self.queue:
                self.to_move = self.queue[0][1]
                return
            self.holder = self.next_player(self.holder)

    def legal(self) -> list[Action]:
        return [Place(s, self.colours[self.to_move]) for s in open_slots(self.state)]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.left[player] -= 1
        self.queue.pop(0)
        if self.queue and self.left[player] > 0:
            self.to_move = self.queue[0][1]
            return
        self.holder = self.next_player(self.holder)
        self._start_phase()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.STOCK[self.players] - n) for n in self.left)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.left)

    def termination(self) -> Termination | None:
        if min(self.left) <= 0:
            return Termination.ALL_PLACED
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        return float(outer_planes(action.slot)) if isinstance(action, Place) else 0.0


COW_COLOURS: tuple[Colour, ...] = ("red", "green", "black", "red", "green", "black")


class SpottedCow(Game):
    """Spotted Cow (no. 18), by Erika Wittig.

    Setup: the base layer is 45 black dice showing random faces; 120 dice are shared out equally
    (2 players 60 each, 3: 40, 4: 30, 5: 24, 6: 20). A game master rolls three dice each round.
    Turn: the master rolls; everybody looks for a funnel whose three faces add up to the total. The
    first to spot one places a die in it. If no funnel fits, the first to call "Blank!" places a die
    in a funnel of their choice; a wrong "Blank!" places nothing and takes one die from every other
    player as a penalty. Then the master rolls again.
    Legal actions: the fastest player (a race) places a die in a fitting funnel, or calls "Blank!"
    (Pass); after a right "Blank!" they place a die in any open funnel.
    Scoring: dice given away: your share minus the dice you still hold.
    End: the first player to have placed all their dice wins.
    Interpretation: speeds are modelled (options ``speeds``, ``spread``); a funnel's faces are the
    three faces pointing into it; a placed die shows whatever faces it lands with; after a wrong
    "Blank!" the master rolls again; the game master is the game (not a seat); dice are coloured
    per player only to tell them apart (a colour that runs out is replaced by another).
    """

    info = GameInfo(18, "Spotted Cow", "O/S", (2, 3, 4, 5, 6), "45 base dice + 120 shared; 3 dice", ("bunte kuh",), 213)
    option_specs: ClassVar[Options] = SPEED_OPTIONS

    def setup(self) -> None:
        self.state = random_pattern(geometry.BASE_SLOTS, self.rng, {"black": 45}, random_faces=True)
        self.share = 120 // self.players
        self.left = [self.share] * self.players
        self.reflexes = Reflexes.for_game(self)
        self.blank = False  # a right "Blank!" was called: the caller places anywhere
        self._master_rolls()

    def colour(self, player: Seat) -> Colour:
        """The colour of ``player``'s next die (their own while the set has it)."""
        used = {c: 0 for c in COUNTS}
        for cell in self.state.values():
            used[cell.colour] += 1
        mine = COW_COLOURS[player]
        return mine if used[mine] < COUNTS[mine] else max(used, key=lambda c: COUNTS[c] - used[c])

    def fitting(self) -> list[Slot]:
        """The open funnels whose three faces add up to the master's total."""
        return [s for s in open_slots(self.state) if sum(funnel_faces(self.state, s) or (0,)) == self.total]

    def _master_rolls(self) -> None:
        dice = [int(v) for v in self.rng.integers(1, 7, 3)]
        self.total = sum(dice)
        self.blank = False
        self.to_move, _ = self.reflexes.fastest(self.rng, list(range(self.players)))
        self.events.append(f"the master rolls {'+'.join(map(str, dice))} = {self.total}; player {self.to_move} first")

    def legal(self) -> list[Action]:
        colour = self.colour(self.to_move)
        if self.blank:
            return [Place(s, colour) for s in open_slots(self.state)]
        actions: list[Action] = [Place(s, colour) for s in self.fitting()]
        return [*actions, Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Pass):
            if not any(sum(funnel_faces(before, s) or (0,)) == self.total for s in open_slots(before)):
                self.events.append(f"player {player}: Blank! (right)")
                self.blank = True
                return
            givers = [p for p in range(self.players) if p != player and self.left[p] > 0]
            for p in givers:
                self.left[p] -= 1
            self.left[player] += len(givers)
            self.events.append(f"player {player}: Blank! (wrong): takes {len(givers)} dice as a penalty")
        else:
            self.left[player] -= 1
        self._master_rolls()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.share - n) for n in self.left)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.left)

    def termination(self) -> Termination | None:
        if min(self.left) <= 0:
            return Termination.ALL_PLACED
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, Pass):
            return -float(self.players) if self.fitting() else 0.0
        return 1.0
