"""The rules layer: game metadata, actions as intents, the Game base class, outcomes and the checker.

Sits after perception in the flow: a game reads a ``PyramidState`` (exact in fast mode, read back
from the poses in physical mode) and never imports PyBullet. Every random draw (a rolled die, a
roll-off) comes from the ``numpy.random.Generator`` the game was given.
"""

from __future__ import annotations

import abc
import copy
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

import numpy as np

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot, UpFaces
from pyramid.state import Cell, PyramidState

Player: TypeAlias = int


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why."""


# --- metadata and outcome ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameInfo:
    """One game's metadata, as the rule book gives it."""

    number: int  # number in the rule book (seed 004)
    title: str
    category: str  # S skill, C construction, D demolition, T tactics, Ch chance, O observation
    players: tuple[int, ...]  # the player counts supported
    material: str
    aliases: tuple[str, ...] = ()
    seed_line: int = 0  # line of seeds/004_*.txt where the rule body starts


class Termination(enum.Enum):
    """Why a game ended."""

    PYRAMID_COMPLETE = "the pyramid is complete"
    PYRAMID_CLEARED = "the pyramid has been taken apart"
    ALL_PLACED = "a player has placed all their dice"
    ROUNDS_PLAYED = "all rounds have been played"
    BLOCKED = "nobody can make a legal move"
    TURN_LIMIT = "the turn limit was reached"
    GOAL_REACHED = "a player has reached the goal"
    PLAYERS_OUT = "all other players are out"
    ALL_TAKEN = "every die at stake has been taken"


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: why it ended, each player's score and the winners."""

    termination: Termination
    scores: tuple[float, ...]
    winners: tuple[Player, ...]

    def result(self) -> str:
        """A one-line summary, e.g. ``player 1 wins (the pyramid is complete)``."""
        who = " and ".join(f"player {p}" for p in self.winners)
        verb = "wins" if len(self.winners) == 1 else "share the win"
        return f"{who} {verb} ({self.termination.value})"


# --- actions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Put a die of ``colour`` into ``slot``; ``up`` fixes its faces (None: as it happens to land)."""

    slot: Slot
    colour: Colour
    up: UpFaces | None = None

    def __str__(self) -> str:
        faces = "" if self.up is None else " showing " + "".join(map(str, self.up))
        return f"place {self.colour} at {self.slot}{faces}"


@dataclass(frozen=True)
class Remove:
    """Take the die in ``slot`` out of the pyramid."""

    slot: Slot

    def __str__(self) -> str:
        return f"remove {self.slot}"


@dataclass(frozen=True)
class RemoveColumn:
    """Take a column of dice out, top first: ``slots`` in the order they are lifted."""

    slots: tuple[Slot, ...]

    def __str__(self) -> str:
        return "remove column " + " ".join(map(str, self.slots))


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn (only where the rules allow it)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Declare:
    """A decision that moves no die (an answer, a choice, a plan); games subclass it to carry their data."""

    def __str__(self) -> str:
        return "declare"


Action: TypeAlias = Place | Remove | RemoveColumn | Pass | Declare


def exact_result(state: PyramidState, action: Action, up: UpFaces = (1, 2, 3)) -> PyramidState:
    """The state after ``action`` performed exactly; a Place without faces shows ``up``."""
    if isinstance(action, Place):
        return state.with_cell(action.slot, Cell(action.colour, action.up or up))
    if isinstance(action, Remove):
        return state.without(action.slot)
    if isinstance(action, RemoveColumn):
        for s in action.slots:
            state = state.without(s)
        return state
    return state


def funnel_faces(state: PyramidState, slot: Slot) -> tuple[int, int, int] | None:
    """The three faces that form the funnel of ``slot`` (its supports' faces pointing at it), if known."""
    faces = []
    for axis, s in enumerate(geometry.supports(slot)):
        cell = state.get(s)
        if cell is None or cell.up is None:
            return None
        faces.append(cell.up[axis])
    return (faces[0], faces[1], faces[2]) if faces else None


# Lattice tables, computed once: the rules ask these questions thousands of times per game.
_RESTING_ON: dict[Slot, tuple[Slot, ...]] = {s: geometry.resting_on(s) for s in geometry.SLOTS}
_SUPPORTS: dict[Slot, tuple[Slot, ...]] = {s: geometry.supports(s) for s in geometry.SLOTS}


def free_slots(state: Iterable[Slot]) -> list[Slot]:
    """Occupied slots with nothing resting on them, in slot order (as ``geometry.free_slots``, faster)."""
    occ = set(state)
    return [s for s in geometry.SLOTS if s in occ and not any(r in occ for r in _RESTING_ON[s])]


def open_slots(state: Iterable[Slot]) -> list[Slot]:
    """Empty slots whose supports are all occupied, in slot order (as ``geometry.open_slots``, faster)."""
    occ = set(state)
    return [s for s in geometry.SLOTS if s not in occ and all(t in occ for t in _SUPPORTS[s])]


# --- the base class ----------------------------------------------------------------------------


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def cast_option(game: str, key: str, value: Any, default: Any) -> Any:
    """``value`` (often a string from ``--option KEY=VALUE``) as the type of ``default``.

    ValueError naming the game, the option and the expected type when it does not fit; "false" is
    False for a yes/no option (Python's bool("false") would be True).
    """
    if default is None or value is None or isinstance(value, type(default)):
        return value
    text = str(value).strip()
    if isinstance(default, bool):
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise ValueError(f"option {key} of {game}: expected yes or no (true/false, 1/0), got {text!r}")
    try:
        return type(default)(text)
    except ValueError:
        kind = {int: "a whole number", float: "a number"}.get(type(default), type(default).__name__)
        raise ValueError(f"option {key} of {game}: expected {kind} (default {default!r}), got {text!r}") from None


class Game(abc.ABC):
    """A game in progress: owns the state, turn order, legality, history and the outcome.

    Subclasses set ``info`` and fill in the hooks ``setup``, ``legal``, ``after`` and ``scores``,
    and optionally ``termination``, ``winners`` and ``heuristic``. The class docstring is the rules card.
    """

    info: ClassVar[GameInfo]
    house_rules: ClassVar[str] = ""  # rules the seed lost, filled in by the project
    options_help: ClassVar[dict[str, str]] = {}
    max_moves: ClassVar[int] = 3000

    def __init__(self, players: int | None = None, *, rng: np.random.Generator, **options: Any) -> None:
        n = self.info.players[0] if players is None else players
        if n not in self.info.players:
            raise ValueError(f"{self.info.title} is for {_counts(self.info.players)} players, not {n}")
        unknown = set(options) - set(self.options_help)
        if unknown:
            known = ", ".join(sorted(self.options_help)) or "none"
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))} for {self.info.title}; known: {known}")
        self.players = n
        self.rng = rng
        self.options = options
        self.state = PyramidState()
        self.to_move: Player = 0
        self.history: list[tuple[Player, Action]] = []
        self.events: list[str] = []
        self.outcome: Outcome | None = None
        self._legal_cache: list[Action] | None = None
        self.setup()
        self._conclude()

    # -- hooks ------------------------------------------------------------------------------------

    @abc.abstractmethod
    def setup(self) -> None:
        """Build the starting state and per-player bookkeeping."""

    @abc.abstractmethod
    def legal(self) -> list[Action]:
        """The actions allowed to ``to_move`` now."""

    @abc.abstractmethod
    def after(self, action: Action, player: Player, before: PyramidState) -> None:
        """Bookkeeping once ``action`` happened and ``self.state`` is the world's truth; pass the turn."""

    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score now."""

    def termination(self) -> Termination | None:
        """Why the game is over now, or None."""
        return None

    def winners(self, scores: tuple[float, ...]) -> tuple[Player, ...]:
        """The winners given the final scores: by default the highest."""
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def heuristic(self, action: Action) -> float | None:
        """A quick value of ``action`` for the greedy player, or None to let it look one move ahead."""
        return None

    # -- the public interface ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def legal_actions(self) -> list[Action]:
        """The actions allowed now (empty once the game is over)."""
        if self.outcome is not None:
            return []
        if self._legal_cache is None:
            self._legal_cache = self.legal()
        return list(self._legal_cache)

    def apply(self, action: Action, observed: PyramidState | None = None) -> None:
        """Validate ``action``, then take ``observed`` (the read-out) or the exact result as the new state."""
        if self.outcome is not None:
            raise IllegalAction(f"the game is over: {self.outcome.result()}")
        if action not in self.legal_actions():
            raise IllegalAction(f"{action} is not legal for player {self.to_move} now")
        if observed is None:
            observed = exact_result(self.state, action, self.draw_orientation())
        player, before = self.to_move, self.state
        self.state = observed
        self.history.append((player, action))
        self._legal_cache = None
        self.after(action, player, before)
        self._legal_cache = None
        self._conclude()

    def observe(self, state: PyramidState) -> None:
        """Take ``state`` as the truth (e.g. the read-out of a physically built starting pyramid)."""
        self.state = state
        self._legal_cache = None

    def roll(self, sides: int = 6) -> int:
        """Roll a die with the game's generator and note it in ``events``."""
        value = int(self.rng.integers(1, sides + 1))
        self.events.append(f"player {self.to_move} rolls {value}")
        return value

    def draw_orientation(self) -> UpFaces:
        """One of the 24 ways a die can sit, drawn with the game's generator."""
        return geometry.ALL_UP_FACES[int(self.rng.integers(24))]

    def clone(self) -> Game:
        """An independent copy (shares the immutable state; copies bookkeeping and the generator)."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict | set):
                setattr(other, name, copy.copy(value))
        other.rng = copy.deepcopy(self.rng)
        return other

    def advantage(self, player: Player) -> float:
        """``player``'s score minus the best other score."""
        s = self.scores()
        return s[player] - max((v for p, v in enumerate(s) if p != player), default=0.0)

    def option(self, key: str, default: Any) -> Any:
        """A game option given on construction (``--option KEY=VALUE``), cast to the default's type."""
        return cast_option(self.info.title, key, self.options.get(key, default), default)

    def next_player(self, player: Player | None = None) -> Player:
        """The player after ``player`` (default ``to_move``) in turn order."""
        return ((self.to_move if player is None else player) + 1) % self.players

    def _conclude(self) -> None:
        reason = self.termination()
        if reason is None and not self.legal_actions():
            reason = Termination.BLOCKED
        if reason is None and len(self.history) >= self.max_moves:
            reason = Termination.TURN_LIMIT
        if reason is not None:
            scores = self.scores()
            self.outcome = Outcome(reason, scores, self.winners(scores))


def _counts(counts: Sequence[int]) -> str:
    return ", ".join(map(str, counts))


def colour_scores(state: PyramidState, colours: Sequence[Colour]) -> tuple[float, ...]:
    """Outer faces showing per player, player ``p`` owning ``colours[p]`` (edges double, apex triple)."""
    counts = state.face_count()
    return tuple(float(counts.get(c, 0)) for c in colours)


PLAYER_COLOURS: tuple[Colour, ...] = ("red", "green", "black")


# --- the conformance checker -------------------------------------------------------------------


@dataclass
class CheckReport:
    """What ``check_game`` saw: games played, moves made, outcomes, and any violated invariant."""

    game: str
    games: int = 0
    moves: int = 0
    terminations: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether no invariant was violated."""
        return not self.problems


def _illegal_candidates(game: Game) -> list[Action]:
    state = game.state
    empty = [s for s in geometry.SLOTS if s not in state]
    free = set(free_slots(state))
    covered = [s for s in state if s not in free]
    out: list[Action] = [Pass()]
    out += [Place(s, "red") for s in list(state)[:3]]
    out += [Remove(s) for s in empty[:2] + covered[:2]]
    return [a for a in out if a not in game.legal_actions()]


def check_game(game_cls: type[Game], seeds: Iterable[int], players: int | None = None) -> CheckReport:
    """Play seeded random games of ``game_cls`` and check the invariants of the rules layer.

    Invariants: every illegal action is refused and leaves the game unchanged; every legal action is
    accepted; the state stays stable (every die supported); the game ends; the outcome's scores equal
    the scores recomputed from the final state read back from its text notation; the same seed
    replays the same game.
    """
    report = CheckReport(game_cls.info.title)
    for seed in seeds:
        histories = []
        for _ in range(2):
            rng = np.random.default_rng(seed)
            game = game_cls(players, rng=np.random.default_rng([seed, 1]))
            while not game.is_over:
                legal = game.legal_actions()
                for bad in _illegal_candidates(game)[:3]:
                    before = (game.state, len(game.history))
                    try:
                        game.apply(bad)
                        report.problems.append(f"seed {seed}: illegal {bad} was accepted")
                    except IllegalAction:
                        if (game.state, len(game.history)) != before:
                            report.problems.append(f"seed {seed}: refusing {bad} changed the game")
                action = legal[int(rng.integers(len(legal)))]
                game.apply(action)
                if not geometry.is_stable(game.state):
                    report.problems.append(f"seed {seed}: unsupported die after {action}")
                if len(game.history) > game.max_moves + 1:
                    report.problems.append(f"seed {seed}: the game did not end")
                    break
            histories.append(list(game.history))
        if histories[0] != histories[1]:
            report.problems.append(f"seed {seed}: the same seed played two different games")
        outcome = game.outcome
        if outcome is None:
            continue
        replay = game.clone()
        replay.state = PyramidState.from_notation(game.state.to_notation())
        if replay.scores() != outcome.scores:
            report.problems.append(f"seed {seed}: scores {outcome.scores} differ from the read-out's {replay.scores()}")
        if not outcome.winners or any(not 0 <= p < game.players for p in outcome.winners):
            report.problems.append(f"seed {seed}: bad winners {outcome.winners}")
        report.games += 1
        report.moves += len(game.history)
        key = outcome.termination.name
        report.terminations[key] = report.terminations.get(key, 0) + 1
    return report
