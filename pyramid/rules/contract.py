"""The one game contract that board, skill and table games share, and that the match loop drives.

A game states its metadata (``info``), validates its players and options, says what kind of step
comes next (``phase``): a player decides among ``legal_actions``, the world resolves a chance step
(a roll, a physical turn), or the game is over with an ``Outcome``. ``clone`` gives an independent
copy for look-ahead. The game never owns the world; it reads what the world shows.
"""

from __future__ import annotations

import abc
import copy
import enum
import sys
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np

from pyramid.rules.options import Options, read_options
from pyramid.rules.outcome import GameInfo, Outcome, Seat, Termination


class Phase(enum.Enum):
    """What the game waits for now."""

    DECIDE = "a player chooses one of the legal actions"
    CHANCE = "the world resolves a chance step (a roll)"
    PHYSICAL = "a player acts with their hands until the game judges the turn over"
    OVER = "the game is over"


ANY_NUMBER = range(1, sys.maxsize)  # the player counts of a game for any number of players


def player_counts(counts: Sequence[int]) -> str:
    """``(2, 3, 4)`` as ``2, 3, 4``; ``ANY_NUMBER`` as ``1 or more``."""
    if counts == ANY_NUMBER:
        return "1 or more"
    return ", ".join(map(str, counts))


class GameBase(abc.ABC):
    """What every game is: metadata, seats, options, a seeded generator, events, scores, an outcome.

    Subclasses (``Game`` for the board games, ``SkillGame``, ``TableGame``) add how a turn goes;
    each game's class docstring is its rules card.
    """

    info: ClassVar[GameInfo]
    kind: ClassVar[str]  # "board", "skill" or "table"
    house_rules: ClassVar[str] = ""  # rules the seed lost, filled in by the project
    option_specs: ClassVar[Options] = {}  # each option's meaning, type and range (``pyramid.rules.options``)
    default_player: ClassVar[str] = "random"  # the player `pyramid play` seats when none is named

    def __init__(self, players: int | None = None, *, rng: np.random.Generator, **options: Any) -> None:
        n = self.info.players[0] if players is None else players
        options = self.read_options(options, n)
        if n not in self.allowed_players(options):
            raise ValueError(
                f"{self.info.title} is for {player_counts(self.allowed_players(options))} players, not {n}"
            )
        self.players = n
        self.rng = rng
        self.options = options
        self.to_move: Seat = 0
        self.events: list[str] = []
        self.outcome: Outcome | None = None

    @classmethod
    def allowed_players(cls, options: dict[str, Any]) -> Sequence[int]:
        """The player counts this game takes with ``options`` as read (by default ``info.players``)."""
        return cls.info.players

    @classmethod
    def read_options(cls, options: dict[str, Any], players: int) -> dict[str, Any]:
        """``options`` (text or Python values) read by the game's ``option_specs``; ValueError naming the option,
        the value and what is allowed for an unknown key or a value out of range, not finite or of another type."""
        name = cls.info.title if cls.info.number is not None else cls.info.key
        return read_options(options, cls.option_specs, players, name)

    # -- what the match loop asks ------------------------------------------------------------

    @abc.abstractmethod
    def phase(self) -> Phase:
        """What the game waits for now."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Any]:
        """The actions ``to_move`` may choose now (empty unless the phase is DECIDE)."""

    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score now."""

    def secret(self, player: Seat) -> str:
        """What only ``player`` knows, in words ("" when the game deals nothing in secret)."""
        return ""

    def told(self, action: Any) -> str:
        """What every player learns of ``action`` when it is made: its words, unless the rules keep part of
        it secret (Wolf in a Sheep's Coat: which die the wolf is)."""
        return str(action)

    def scores_seen_by(self, player: Seat | None) -> tuple[float | None, ...]:
        """The scores as ``player`` sees them: None where the rules hide one from that player.

        ``None`` for ``player`` is a looker-on, who sees what every player sees. Every score is public
        unless a game says otherwise (Slipped: each progress follows a secret slip).
        """
        return tuple(self.scores())

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        """The winners given the final scores: by default the highest."""
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def ending(self, reason: Termination) -> str:
        """Why the game ends, in words: by default the termination's; a game says more where it can (who)."""
        return reason.value

    def score_line(self, scores: Sequence[float]) -> str:
        """The final scores in words, e.g. ``player 0 4, player 1 6``; a game whose scores are not one measure
        (smugglers through against smugglers captured) or where fewer is better says so."""
        return ", ".join(f"player {p} {s:g}" for p, s in enumerate(scores))

    def conclude(self, reason: Termination) -> Outcome:
        """End the game for ``reason``: the scores now and their winners (a repetition is a draw: all share)."""
        scores = self.scores()
        winners = tuple(range(len(scores))) if reason is Termination.REPETITION else self.winners(scores)
        said = self.ending(reason)
        self.outcome = Outcome(reason, scores, winners, "" if said == reason.value else said)
        return self.outcome

    def option(self, key: str, default: Any) -> Any:
        """A game option given on construction (``--option KEY=VALUE``), as read; ``default`` when not given."""
        return self.options.get(key, default)

    def next_player(self, player: Seat | None = None) -> Seat:
        """The player after ``player`` (default ``to_move``) in turn order."""
        return ((self.to_move if player is None else player) + 1) % self.players

    def redeal(self, player: Seat, rng: np.random.Generator) -> None:
        """Redraw, in place, what ``player`` cannot know (the others' secret cards) from what it could be.

        Called on a copy (``clone``) by a player that plans ahead, so that its plans never see what
        the rules hide from it. Nothing by default: most games hide nothing, or draw the hidden part
        only when it is revealed (Wolf in a Sheep's Coat with ``wolf=drawn``).
        """
        return None

    def clone(self) -> Self:
        """An independent copy: lists, dicts and sets copied one level deep, the generator deep-copied."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict | set):
                setattr(other, name, copy.copy(value))
        other.rng = copy.deepcopy(self.rng)
        return other
