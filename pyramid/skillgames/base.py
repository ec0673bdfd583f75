"""The skill games' rules layer: a turn is physical play judged from read-outs, not a move from a list.

A ``SkillGame`` sets up the dice in the world it is handed (it never owns it and never imports
PyBullet), judges each read-out of a turn (going on, done, failed), keeps the scores, and ends as an
``Outcome``. ``pyramid.play.Match`` runs the turns; ``pyramid.agents`` has the players.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from pyramid.dice import DICE, Colour, DieId
from pyramid.perception import Readout, Status
from pyramid.rules import GameBase, Phase, Seat, Termination
from pyramid.rules.options import Whole

if TYPE_CHECKING:
    from pyramid.physics.world import World


@dataclass(frozen=True)
class TurnEnd:
    """How a turn ended: whether the player did what the turn asks, a note, and the turn's result value."""

    success: bool
    note: str
    value: float = 0.0


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn: who played, how it ended, and its simulated duration (seconds)."""

    player: Seat
    end: TurnEnd
    time: float
    actions: int


MAX_ROUNDS = 100  # turns per player an option may ask for: each is a physical turn of up to a few minutes
ROUNDS = Whole("turns per player (default 1)", 1, MAX_ROUNDS)
LAYERS = Whole("layers of the pyramid (default 9: all 165 dice)", 2, 9)
MAX_THROWS = 10_000  # throws in all an option may ask for


class SkillGame(GameBase):
    """A game of physical skill: set-up in the world, turns judged from read-outs, scores and an outcome.

    Subclasses set ``info`` and fill in ``prepare`` (put the dice for a turn into the world),
    ``judge`` (None while the turn goes on) and ``scores``; ``turn_over`` may do bookkeeping. With
    ``shared_world`` the dice stay between turns (one world for the whole game), otherwise each turn
    starts in a fresh world. The class docstring is the rules card.
    """

    kind: ClassVar[str] = "skill"
    time_limit: ClassVar[float] = 60.0  # simulated seconds a turn may last
    shared_world: ClassVar[bool] = False
    lower_wins: ClassVar[bool] = False
    termination_reason: ClassVar[Termination] = Termination.ROUNDS_PLAYED
    default_player: ClassVar[str] = "human"
    lifts_dice_out: ClassVar[bool] = False  # whether a hand may take dice out of play (``Lift``)

    def __init__(self, players: int | None = None, *, rng: np.random.Generator, **options: Any) -> None:
        super().__init__(players, rng=rng, **options)
        self.records: list[TurnRecord] = []
        self.setup()

    # -- hooks ----------------------------------------------------------------------------------

    def setup(self) -> None:  # noqa: B027 - a hook with a default
        """Per-game bookkeeping before the first turn."""

    @abc.abstractmethod
    def prepare(self, world: World) -> None:
        """Put the dice for the turn of ``to_move`` into ``world`` (every turn, or once with ``shared_world``)."""

    def begin_turn(self, world: World) -> None:  # noqa: B027 - a hook with a default
        """Get ``world`` ready for the turn of ``to_move`` (e.g. hand back dice that fell off); by default nothing."""

    @abc.abstractmethod
    def judge(self, readout: Readout, elapsed: float) -> TurnEnd | None:
        """How the turn stands after an action: None while it goes on. ``elapsed`` is simulated seconds."""

    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score now."""

    def turn_over(self, record: TurnRecord) -> None:
        """Bookkeeping after a turn; by default the next player moves."""
        self.to_move = (record.player + 1) % self.players

    def turn_summary(self, n: int) -> str:
        """A note on the ``n``-th finished turn beyond its verdict (e.g. how near the goal it came); "" for none."""
        return ""

    def finished(self) -> bool:
        """Whether the game is over: by default once every player had ``rounds`` turns."""
        return len(self.records) >= self.players * self.option("rounds", 1)

    def termination(self) -> Termination:
        """Why the game ended, once ``finished``."""
        return self.termination_reason

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        """The best score wins (the lowest where ``lower_wins``)."""
        best = min(scores) if self.lower_wins else max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    # -- bookkeeping ----------------------------------------------------------------------------

    def phase(self) -> Phase:
        return Phase.OVER if self.outcome is not None else Phase.PHYSICAL

    def legal_actions(self) -> list[Any]:
        """None to choose from: a turn is played with the hands (``pyramid.physics.actions``)."""
        return []

    def end_turn(self, end: TurnEnd, time: float, actions: int) -> TurnRecord:
        """Record the end of the turn of ``to_move`` and pass on; conclude the game when it is over."""
        if self.outcome is not None:
            raise ValueError(f"the game is over: {self.outcome.result()}")
        record = TurnRecord(self.to_move, end, time, actions)
        self.records.append(record)
        self.turn_over(record)
        if self.finished():
            self.conclude(self.termination())
        return record


class ThrowingRace(SkillGame):
    """A race to empty one's hand by throwing dice (Malicious Pleasure, Dishing Up): a player whose hand is
    empty wins (else the most dice placed), and the game ends then or after ``throw_limit`` throws."""

    throw_limit: ClassVar[int]  # the default of the ``throws`` option
    hand: list[list[DieId]]
    own: list[set[DieId]]  # each player's dice, in hand or not
    placed: list[float]  # each player's dice on the plate
    throws: int

    def back_to_hand(self, fallen: Sequence[DieId]) -> None:
        """Give each of ``fallen`` (dice off the plate) back to its owner's hand, so it is not placed; the
        world takes it away at the start of the next turn. A die nobody owns (a core die) stays out."""
        for die in fallen:
            owner = next((p for p in range(self.players) if die in self.own[p]), None)
            if owner is not None and die not in self.hand[owner]:
                self.hand[owner].append(die)

    def finished(self) -> bool:
        return min(len(h) for h in self.hand) == 0 or self.throws >= self.option("throws", self.throw_limit)

    def termination(self) -> Termination:
        return Termination.ALL_PLACED if min(len(h) for h in self.hand) == 0 else Termination.TURN_LIMIT

    def winners(self, scores: tuple[float, ...]) -> tuple[int, ...]:
        done = tuple(p for p in range(self.players) if not self.hand[p])
        return done or super().winners(scores)

    def scores(self) -> tuple[float, ...]:
        return tuple(self.placed)


def seat_with_dice(hand: Sequence[Sequence[DieId]], seat: Seat) -> Seat:
    """``seat``, or the first seat after it whose hand still holds dice; ``seat`` itself when no hand does."""
    n = len(hand)
    return next(((seat + k) % n for k in range(n) if hand[(seat + k) % n]), seat)


class DiceInHand:
    """For games whose player sets dice down from a hand, one at a time, and may say the turn is over."""

    hand: list[DieId]
    stopped: bool

    def next_die(self) -> DieId:
        """The next die from the player's hand; ValueError when the hand is empty."""
        if not self.hand:
            raise ValueError("the hand is empty")
        return self.hand.pop(0)

    def stop(self) -> None:
        """The player declares the turn over (a word to the others: nothing moves)."""
        self.stopped = True


def stock(colour: Colour, count: int, taken: set[DieId]) -> list[DieId]:
    """``count`` dice of ``colour`` not in ``taken``, lowest numbers first; adds them to ``taken``."""
    out = [d.id for d in DICE if d.colour == colour and d.id not in taken][:count]
    if len(out) < count:
        raise ValueError(f"only {len(out)} {colour} dice are left, {count} wanted")
    taken.update(out)
    return out


def fallen(readout: Readout, dice: list[DieId] | None = None) -> list[DieId]:
    """Dice (of ``dice``, default all) that have left the plate."""
    off = readout.off_plate()
    return [d for d in off if dice is None or d in dice]


def settled_slots(readout: Readout, dice: list[DieId]) -> dict[DieId, tuple[int, int, int]]:
    """The slot of each of ``dice`` that is seated corner-down in the lattice."""
    return {d: r.slot for d in dice if (r := readout.dice.get(d)) and r.status is Status.SEATED and r.slot is not None}
