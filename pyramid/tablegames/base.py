"""What every table game shares: a game is a script that yields requests (a player's ``Decision``, a ``Roll``).

``TableGame`` turns the script into the one game contract (``phase``, ``legal_actions``, ``apply``,
``clone``); ``pyramid.play.Match`` plays it, as it plays every game.
"""

from __future__ import annotations

import abc
import copy
import itertools
import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Self, TypeAlias, TypeVar

import numpy as np

from pyramid.rules import Choice, GameBase, IllegalAction, Phase, Roll, Rolled, Seat, Termination

T = TypeVar("T")
Faces = tuple[int, ...]


@dataclass
class Decision:
    """A choice put to a player: whose it is, a prompt, numbered options and, for strong players, their values."""

    seat: Seat
    prompt: str
    options: list[str]
    values: Callable[[], list[float]] | None = None  # expected final score after each option, computed when asked


Request: TypeAlias = Decision | Roll
Steps: TypeAlias = Generator[Request, Any, T]  # a script, or a part of one, that ends with a T
Answer: TypeAlias = int | Faces  # a chosen option's index, or the faces a roll showed


def ask(seat: Seat, prompt: str, options: list[str], values: Callable[[], list[float]] | None = None) -> Steps[int]:
    """Put a decision to ``seat``; the index of the option chosen."""
    choice = yield Decision(seat, prompt, options, values)
    return int(choice)


def roll(n: int) -> Steps[list[int]]:
    """Ask the world to roll ``n`` dice; their faces in throwing order."""
    faces = yield Roll(n)
    return list(faces)


class TableGame(GameBase):
    """A dice game played on the table, written as ``script()``: a generator of decisions and rolls.

    Subclasses set ``info``, build their state in ``setup`` (every random draw of their own through
    ``permutation``), and write the game as ``script``: ``choice = yield from ask(...)``,
    ``faces = yield from roll(n)``, messages through ``say``. The base answers the contract from the
    pending request and records every answer, so that ``clone`` replays them into a fresh script.
    ``to_move`` is the seat of the pending decision (while a roll is pending, of the last one).

    A long game may call ``checkpoint()`` where its script keeps nothing in local variables (the top of
    its round loop): ``clone`` then starts a fresh script from a copy of the state there and replays only
    the answers since, not the whole game.
    """

    # Attributes that are the script's machinery, not the game's state a checkpoint copies.
    _MACHINERY: ClassVar[frozenset[str]] = frozenset(
        {"_script", "_pending", "_mark", "_replay", "answers", "draws", "rng"}
    )
    _mark: tuple[dict[str, Any], int, int] | None  # the last checkpoint: state, answers, draws

    kind: ClassVar[str] = "table"
    termination_reason: ClassVar[Termination] = Termination.ROUNDS_PLAYED

    def __init__(
        self,
        players: int | None = None,
        *,
        rng: np.random.Generator,
        names: Sequence[str] | None = None,
        **options: Any,
    ) -> None:
        if players is None and names is not None:
            players = len(names)
        super().__init__(players, rng=rng, **options)
        if names is not None and len(names) != self.players:
            raise ValueError(f"{self.players} players but {len(names)} names: {', '.join(names)}")
        self.names = list(names) if names is not None else [f"player {n + 1}" for n in range(self.players)]
        self._start([], [])

    # -- hooks --------------------------------------------------------------------------------------

    def setup(self) -> None:  # noqa: B027 - a hook with a default
        """Build the game's state from its options (before the script starts)."""

    @abc.abstractmethod
    def script(self) -> Steps[None]:
        """The whole game, from the first request to the end."""

    @abc.abstractmethod
    def score_sheet(self) -> str:
        """The score sheet as the rule book has it, as far as the game has come."""

    def termination(self) -> Termination:
        """Why the game ended, once the script has run out."""
        return self.termination_reason

    def measures(self) -> dict[str, list[float]]:
        """What an experiment's row records of each seat, by name: the scores, unless the game counts otherwise."""
        return {"score": list(self.scores())}

    # -- what the script uses -----------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Tell the table ``text`` (it goes to ``events``)."""
        self.events.append(text)

    def checkpoint(self) -> None:
        """Mark a point where ``script()``, started afresh on the state as it is, goes on as this one does."""
        if self._mark is not None and self._mark[1] == len(self.answers):
            return  # no request since the last mark (a clone restarting there)
        state = {k: v for k, v in self.__dict__.items() if k not in self._MACHINERY and k != "events"}
        state = copy.deepcopy(state)
        state["events"] = list(self.events)  # strings: a shallow copy is a full one
        self._mark = (state, len(self.answers), len(self.draws))

    def permutation(self, n: int) -> list[int]:
        """A random order of ``range(n)`` from the game's generator, recorded so that ``clone`` replays it."""
        order = self._replay.pop(0) if self._replay else [int(k) for k in self.rng.permutation(n)]
        self.draws.append(order)
        return order

    # -- the contract -------------------------------------------------------------------------------

    def phase(self) -> Phase:
        if isinstance(self._pending, Decision):
            return Phase.DECIDE
        if isinstance(self._pending, Roll):
            return Phase.CHANCE
        return Phase.OVER

    def decision(self) -> Decision:
        """The decision waiting for ``to_move``; ValueError when none is."""
        if not isinstance(self._pending, Decision):
            raise ValueError(f"no decision is pending: {self.phase().value}")
        return self._pending

    def chance(self) -> Roll:
        """The roll waiting for the world; ValueError when none is."""
        if not isinstance(self._pending, Roll):
            raise ValueError(f"no roll is pending: {self.phase().value}")
        return self._pending

    def legal_actions(self) -> list[Choice]:
        """The options of the pending decision as ``Choice``s (none unless the phase is DECIDE)."""
        if not isinstance(self._pending, Decision):
            return []
        return [Choice(i, text) for i, text in enumerate(self._pending.options)]

    def apply(self, action: Choice | Rolled) -> None:
        """Answer the pending request: a ``Choice`` among ``legal_actions``, or the ``Rolled`` faces of the roll."""
        request = self._pending
        if isinstance(request, Decision):
            if not isinstance(action, Choice) or action not in self.legal_actions():
                options = "; ".join(f"{i}: {text}" for i, text in enumerate(request.options))
                raise IllegalAction(f"{action!r} is not an option of {self.names[request.seat]}'s decision ({options})")
            answer: Answer = action.index
        elif isinstance(request, Roll):
            faces = action.faces if isinstance(action, Rolled) else ()
            if not isinstance(action, Rolled) or len(faces) != request.dice or not all(1 <= f <= 6 for f in faces):
                raise IllegalAction(f"{action!r} does not answer {request}: {request.dice} faces from 1 to 6 are due")
            answer = tuple(int(f) for f in faces)
        else:
            raise IllegalAction(f"{action!r}: the game is over")
        self.answers.append(answer)
        self._advance(answer)

    def clone(self) -> Self:
        """An independent game in the same state: a fresh script fed the recorded draws and answers."""
        other = copy.copy(self)
        other.rng = copy.deepcopy(self.rng)
        if self._mark is None:
            other.names, other.options = list(self.names), dict(self.options)
            other._start(self.draws, self.answers)
            return other
        state, answered, drawn = self._mark
        other.__dict__.update(copy.deepcopy({k: v for k, v in state.items() if k != "events"}))
        other.events = list(state["events"])
        other.answers, other.draws = list(self.answers[:answered]), [list(d) for d in self.draws[:drawn]]
        other._replay = [list(order) for order in self.draws[drawn:]]
        other._run(self.answers[answered:])
        return other

    # -- driving the script -------------------------------------------------------------------------

    def _start(self, draws: list[list[int]], answers: list[Answer]) -> None:
        self.events, self.outcome, self.to_move = [], None, 0
        self.draws: list[list[int]] = []
        self.answers: list[Answer] = []
        self._replay = [list(order) for order in draws]
        self._pending: Request | None = None
        self._mark = None
        self.setup()
        self._run(answers)

    def _run(self, answers: list[Answer]) -> None:
        """A fresh script on the state as it is, fed ``answers`` (recorded as they are given)."""
        self._pending = None
        self._script = self.script()
        self._advance(None)
        for answer in answers:
            self.answers.append(answer)
            self._advance(answer)

    def _advance(self, answer: Answer | None) -> None:
        try:
            self._pending = self._script.send(answer)
        except StopIteration:
            self._pending = None
            self.conclude(self.termination())
            return
        if isinstance(self._pending, Decision):
            self.to_move = self._pending.seat


@cache
def outcomes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """All distinct throws of ``k`` dice: probabilities (m,) and faces sorted high to low (m, k) int."""
    faces = list(itertools.combinations_with_replacement(range(6, 0, -1), k))
    probs = []
    for combo in faces:
        counts = [combo.count(v) for v in set(combo)]
        probs.append(math.factorial(k) / math.prod(math.factorial(c) for c in counts) / 6**k)
    return np.array(probs), np.array(faces, dtype=int).reshape(len(faces), k)
