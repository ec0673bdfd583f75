"""The board games' base: a game played on the pyramid by placing and removing dice, turn by turn.

Sits after perception in the flow: a game reads a ``PyramidState`` (exact in fast mode, read back
from the poses in physical mode) and never imports PyBullet. Every random draw (a rolled die, a
roll-off) comes from the ``numpy.random.Generator`` the game was given.
"""

from __future__ import annotations

import abc
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot, UpFaces
from pyramid.rules.actions import Action, IllegalAction, exact_result
from pyramid.rules.contract import GameBase, Phase
from pyramid.rules.outcome import Seat, Termination
from pyramid.state import PyramidState


def funnel_faces(state: PyramidState, slot: Slot) -> tuple[int, int, int] | None:
    """The three faces that form the funnel of ``slot`` (its supports' faces pointing at it), if known."""
    faces = []
    for axis, s in enumerate(geometry.supports(slot)):
        cell = state.get(s)
        if cell is None or cell.up is None:
            return None
        faces.append(cell.up[axis])
    return (faces[0], faces[1], faces[2]) if faces else None


# --- the base class ----------------------------------------------------------------------------


class Game(GameBase):
    """A game in progress: owns the state, turn order, legality, history and the outcome.

    Subclasses set ``info`` and fill in the hooks ``setup``, ``legal``, ``after`` and ``scores``,
    and optionally ``termination``, ``winners`` and ``heuristic``. The class docstring is the rules card.
    """

    kind: ClassVar[str] = "board"
    default_player: ClassVar[str] = "greedy"
    max_moves: ClassVar[int] = 3000
    # Decisions a search's rollout plays here by the heuristic alone (no random moves), instead of the
    # search's few: 0 keeps the search's own. For a game without chance whose heuristic is a sound way
    # to play and whose end is near (a race of short ways), so that a rollout tells who arrives.
    greedy_rollouts: ClassVar[int] = 0
    # How sharply a search trusts its prior (``foresight``): None scales the prior's values linearly over
    # the legal actions (the best 1, the worst 0); a number T weighs each action by e ** ((value - best) / T),
    # so that a difference of value T makes an action e times less favoured however wide the values spread.
    # For a game whose fine differences of value matter while a few of its moves gain far more (Diebylon).
    prior_temperature: ClassVar[float | None] = None
    # House rules for the ends a rule book leaves out, each stated on the game's card (0: not played):
    # the game ends as a draw when a position (``position``) comes about the ``repetitions``-th time, and
    # after ``quiet_turns`` turns in a row in which no player came nearer their goal than ever before
    # (``milestones``), decided by the scores. ``max_moves`` stays behind them as a safety net only.
    repetitions: ClassVar[int] = 0
    quiet_turns: ClassVar[int] = 0

    def __init__(self, players: int | None = None, *, rng: np.random.Generator, **options: Any) -> None:
        super().__init__(players, rng=rng, **options)
        self.state = PyramidState()
        self.history: list[tuple[Seat, Action]] = []
        self._legal_cache: list[Action] | None = None
        self.setup()
        self.seen: dict[Hashable, int] = {self.position(): 1} if self.repetitions else {}
        self.best: tuple[float, ...] = self.milestones() if self.quiet_turns else ()
        self.quiet = 0  # turns in a row without a new best in ``milestones``
        self._conclude()

    # -- hooks ------------------------------------------------------------------------------------

    @abc.abstractmethod
    def setup(self) -> None:
        """Build the starting state and per-player bookkeeping."""

    @abc.abstractmethod
    def legal(self) -> list[Action]:
        """The actions allowed to ``to_move`` now."""

    @abc.abstractmethod
    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        """Bookkeeping once ``action`` happened and ``self.state`` is the world's truth; pass the turn."""

    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]:
        """Each player's score now."""

    def termination(self) -> Termination | None:
        """Why the game is over now, or None."""
        return None

    def heuristic(self, action: Action) -> float | None:
        """A quick value of ``action`` for the greedy player, or None to let it look one move ahead."""
        return None

    def foresight(self, action: Action) -> float | None:
        """How good ``action`` looks to a search before it simulates (its prior): by default the heuristic.

        A game overrides it where a position's worth for the rolls to come is known beyond what the move
        gains now (Diebylon: the chance the next roll fills a slot), and its ``standing`` counts the same.
        """
        return self.heuristic(action)

    def dice_left(self) -> tuple[int, ...] | None:
        """Each player's dice still to place, where players hold dice; None where they hold none."""
        return None

    def position(self) -> Hashable:
        """What must be the same for a position to count as repeated: the dice with their faces and whose turn
        it is; a game adds what else decides the moves to come (a phase, dice in hand, a forced lift)."""
        return (self.to_move, frozenset(self.state.cells.items()))

    def milestones(self) -> tuple[float, ...]:
        """Each player's progress towards their goal that cannot be undone for nothing (dice home, pieces taken):
        a turn that sets a new best for anyone is progress (the ``quiet_turns`` rule)."""
        return ()

    # -- the public interface ---------------------------------------------------------------------

    def phase(self) -> Phase:
        return Phase.OVER if self.outcome is not None else Phase.DECIDE

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
        self._keep_track(player)
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

    def advantage(self, player: Seat) -> float:
        """``player``'s score minus the best other score."""
        s = self.scores()
        return s[player] - max((v for p, v in enumerate(s) if p != player), default=0.0)

    def standing(self, player: Seat) -> float:
        """How well ``player`` stands now, for a search that stops before the end: by default ``advantage``.

        A game whose score moves only at the goal (a race: dice arrived) overrides it with its measure
        of progress, so that a few moves ahead already tell a better position from a worse one.
        """
        return self.advantage(player)

    def ending(self, reason: Termination) -> str:
        if reason is Termination.NO_PROGRESS:
            return f"nobody came nearer their goal in {self.quiet_turns} turns"
        return reason.value

    def _keep_track(self, player: Seat) -> None:
        """Count the position for the repetition rule, and a turn without progress for the quiet rule."""
        if self.repetitions:
            key = self.position()
            self.seen[key] = self.seen.get(key, 0) + 1
        if self.quiet_turns and self.to_move != player:  # a turn is over
            marks = self.milestones()
            if any(m > b for m, b in zip(marks, self.best, strict=True)):
                self.best, self.quiet = tuple(map(max, marks, self.best)), 0
            else:
                self.quiet += 1

    def _conclude(self) -> None:
        reason = self.termination()
        if reason is None and not self.legal_actions():
            reason = Termination.BLOCKED
        if reason is None and self.repetitions and self.seen.get(self.position(), 0) >= self.repetitions:
            reason = Termination.REPETITION
        if reason is None and self.quiet_turns and self.quiet >= self.quiet_turns:
            reason = Termination.NO_PROGRESS
        if reason is None and len(self.history) >= self.max_moves:
            reason = Termination.TURN_LIMIT
        if reason is not None:
            self.conclude(reason)


def colour_scores(state: PyramidState, colours: Sequence[Colour]) -> tuple[float, ...]:
    """Outer faces showing per player, player ``p`` owning ``colours[p]`` (edges double, apex triple)."""
    counts = state.face_count()
    return tuple(float(counts.get(c, 0)) for c in colours)


PLAYER_COLOURS: tuple[Colour, ...] = ("red", "green", "black")
