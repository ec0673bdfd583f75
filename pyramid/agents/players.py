"""Who chooses the actions: a random player, a greedy baseline, a tree search and a person at the terminal.

Players see the game (rules layer) and its legal actions and return one of them; they never touch
the world. Every random choice uses the Generator the player was given.
"""

from __future__ import annotations

import abc
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from pyramid.agents.search import UctSearch
from pyramid.agents.terminal import TypedMoveError, board_view, move_help, move_list, read_move, use_colour
from pyramid.rules import Action, Game, GameBase

G = TypeVar("G", bound=GameBase, contravariant=True)  # the kind of game a player can play


class Player(abc.ABC, Generic[G]):
    """Chooses one of the legal actions of a game of kind ``G`` (board ``Game``, ``TableGame``, any ``GameBase``)."""

    name: str = "player"

    @abc.abstractmethod
    def choose(self, game: G, legal: Sequence[Any]) -> Any:
        """One action of ``legal`` for ``game.to_move``."""


class RandomPlayer(Player[Any]):  # any kind of game: Player[Any] mixes with every other kind in one list
    """Picks uniformly among the legal actions, in any game."""

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, game: GameBase, legal: Sequence[Any]) -> Any:
        """A uniformly drawn legal action."""
        return legal[int(self.rng.integers(len(legal)))]


class GreedyPlayer(Player[Game]):
    """The best action by the game's ``heuristic``, else by one move of lookahead on the score.

    The lookahead applies the action to a copy of the game, then any forced actions that follow
    (a single legal action, e.g. automatic fills), and compares ``game.advantage(player)``.
    Ties are broken at random.
    """

    name = "greedy"

    def __init__(self, rng: np.random.Generator, forced_limit: int = 20) -> None:
        self.rng = rng
        self.forced_limit = forced_limit

    def value(self, game: Game, action: Action) -> float:
        """How good ``action`` looks for the player to move."""
        quick = game.heuristic(action)
        if quick is not None:
            return quick
        player = game.to_move
        trial = game.clone()
        trial.apply(action)
        for _ in range(self.forced_limit):
            legal = trial.legal_actions()
            if len(legal) != 1:
                break
            trial.apply(legal[0])
        return trial.advantage(player)

    @staticmethod
    def repeats(game: Game, action: Action) -> bool:
        """Whether ``action`` brings back a position already seen, where the game counts them (``repetitions``)."""
        trial = game.clone()
        trial.apply(action)
        return trial.seen.get(trial.position(), 0) > 1

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        """The legal action of highest value; where the game counts repeated positions, among those that bring
        back no position already seen while there are such (greedy would go to and fro between two best moves)."""
        if len(legal) == 1:
            return legal[0]
        if game.repetitions:
            legal = [a for a in legal if not self.repeats(game, a)] or legal
        values = np.array([self.value(game, a) for a in legal])
        best = np.flatnonzero(values >= values.max() - 1e-9)
        return legal[int(best[self.rng.integers(len(best))])]


class HumanPlayer(Player[Game]):
    """A person at the terminal: the pyramid drawn with the legal moves labelled, a move typed back.

    A move is typed by its label (``i12``), its slot (``0 0 8``), its number or its words; bad input
    is asked again with what was wrong. ``?``, ``help``, ``rules`` and ``board`` show the moves, the
    rules card (``card``, else the game's docstring) and the pyramid. ``colour``: paint the dice in
    ANSI colours (None: when standard output is a terminal and NO_COLOR is unset).
    """

    name = "human"

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        show: Callable[[str], None] = print,
        colour: bool | None = None,
        card: str = "",
    ) -> None:
        self.ask = ask
        self.show = show
        self.colour = colour
        self.card = card

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        """The action the person names; a lone legal action is taken without asking."""
        colour = use_colour(sys.stdout) if self.colour is None else self.colour
        self.show(board_view(game, legal, colour))
        if len(legal) == 1:
            self.show(f"the only legal move: {legal[0]}")
            return legal[0]
        while True:
            answer = self.ask(f"player {game.to_move}, your move (label, slot or number; ? for help): ").strip()
            command = answer.lower()
            if command in ("?", "help"):
                self.show(move_help(legal))
                if command == "help":
                    self.show(self.card or inspect.getdoc(type(game)) or "")
                self.show(move_list(legal))
            elif command == "rules":
                self.show(self.card or inspect.getdoc(type(game)) or "")
            elif command == "board":
                self.show(board_view(game, legal, colour))
            else:
                try:
                    return read_move(answer, legal)
                except TypedMoveError as err:
                    self.show(str(err))


MCTS_ITERATIONS = 200  # the search's budget when ``mcts`` names none (``mcts:400`` does)
MCTS_MOST = 10_000  # the largest budget: about a minute a decision in Fire and Water (8 ms a simulation)


class MctsPlayer(Player[Any]):  # any turn-based game: board or table
    """Monte Carlo tree search (``pyramid.agents.search.UctSearch``) with ``iterations`` simulations a decision."""

    name = "mcts"

    def __init__(self, rng: np.random.Generator, iterations: int = MCTS_ITERATIONS) -> None:
        self.search = UctSearch(rng, iterations)

    def choose(self, game: GameBase, legal: Sequence[Any]) -> Any:
        """The action the search rates best."""
        return self.search.choose(game, legal)


def mcts_budget(kind: str) -> int | None:
    """The budget of ``mcts`` (the default) or ``mcts:N`` (N simulations a decision); None for another kind."""
    name, colon, budget = kind.partition(":")
    if name != "mcts":
        return None
    if not colon:
        return MCTS_ITERATIONS
    if not (budget.isascii() and budget.isdigit() and len(budget) <= 9) or not 1 <= int(budget) <= MCTS_MOST:
        raise ValueError(
            f"player {kind!r}: the search's budget is a whole number of simulations from 1 to {MCTS_MOST:,} (mcts:400)"
        )
    return int(budget)


def make_player(kind: str, rng: np.random.Generator) -> Player:
    """A player by name: ``random``, ``greedy``, ``mcts`` (or ``mcts:N``, N simulations a decision) or ``human``."""
    budget = mcts_budget(kind)
    if budget is not None:
        return MctsPlayer(rng, budget)
    kinds: dict[str, Callable[[], Player]] = {
        "random": lambda: RandomPlayer(rng),
        "greedy": lambda: GreedyPlayer(rng),
        "human": HumanPlayer,
    }
    if kind not in kinds:
        raise ValueError(f"unknown player {kind!r}; choose from {', '.join(kinds)}, mcts")
    return kinds[kind]()
