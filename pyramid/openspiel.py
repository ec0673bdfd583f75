"""Every turn-based game as an OpenSpiel Python game: ``import pyramid.openspiel`` registers ``pyramid_30``,
``pyramid_decathlon``, ``pyramid_knights``, ... for ``pyspiel.load_game`` (the openspiel extra).

The game runs as it runs everywhere; each random draw it makes becomes a chance node. A board game's
draws (a rolled die, the orientation a placed die lands in, a roll-off) and a table game's shuffles
come from a stand-in generator that hands out the outcomes chosen at chance nodes: the first draw
not yet chosen stops the step, which is played again from a clone once it is. A table game's ``Roll``
of n dice is n chance nodes of six faces. Draws from a continuous distribution (the simulated speeds
and reaction times of Clever Mole and the races) are made in 16 equally likely steps, each the
middle of its share of the distribution. Returns: the win, shared among the winners (1 in all).
"""

from __future__ import annotations

import copy
import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from pyramid.cli.extras import load
from pyramid.encoding import (
    MAX_PLAYERS,
    action_count,
    action_ids,
    observation_size,
    observation_tensor,
    observation_text,
)
from pyramid.registry import BOARD_GAMES
from pyramid.rules import ANY_NUMBER, Game, GameBase, Phase, Place, Rolled, exact_result
from pyramid.tablegames import TABLE_GAMES
from pyramid.tablegames.base import TableGame

pyspiel = load("pyspiel")

TURN_BASED: tuple[type[GameBase], ...] = (*BOARD_GAMES, *TABLE_GAMES)
STEPS = 16  # a continuous draw as this many equally likely values
MAX_CHANCE_OUTCOMES = 512
MAX_GAME_LENGTH = 20_000  # decisions and chance nodes; the longest game seen (Sport is murder) takes about 4,000


def short_name(game_cls: type[GameBase]) -> str:
    """The OpenSpiel name of a game: ``pyramid_`` and its number, or its name with ``_`` for ``-``."""
    return "pyramid_" + game_cls.info.key.replace("-", "_")


# -- chance: the game's generator, answered from chance nodes ------------------------------------


@dataclass
class DrawNeeded(Exception):
    """A draw the chance nodes have not chosen yet: its possible values and their probabilities."""

    values: Sequence[Any]
    probabilities: list[float]

    def __deepcopy__(self, memo: dict[int, Any]) -> DrawNeeded:
        return self  # never changed: copies of a state share it


class ChanceScript:
    """Stands in for a game's ``numpy.random.Generator``: each draw takes the next outcome chosen at a
    chance node (an index into the draw's values); the first draw beyond them raises ``DrawNeeded``."""

    def __init__(self, chosen: Sequence[int] = ()) -> None:
        self.chosen = chosen
        self.used = 0

    def _next(self, values: Sequence[Any], probabilities: list[float] | None = None) -> Any:
        if len(values) > MAX_CHANCE_OUTCOMES:
            raise ValueError(f"a draw of {len(values)} outcomes; chance nodes hold {MAX_CHANCE_OUTCOMES}")
        if self.used < len(self.chosen):
            self.used += 1
            return values[self.chosen[self.used - 1]]
        raise DrawNeeded(values, probabilities or [1.0 / len(values)] * len(values))

    def _many(self, size: Any, draw: Any) -> Any:
        if size is None:
            return draw()
        shape = (size,) if isinstance(size, int) else tuple(size)
        return np.array([draw() for _ in range(math.prod(shape))]).reshape(shape)

    def integers(self, low: int, high: int | None = None, size: Any = None, endpoint: bool = False, **_: Any) -> Any:
        """Whole numbers, each a chance node of equally likely values."""
        low, high = (0, low) if high is None else (low, high)
        values = list(range(int(low), int(high) + (1 if endpoint else 0)))
        return self._many(size, lambda: np.int64(self._next(values)))

    def _steps(self, quantile: Any) -> list[float]:
        return [float(quantile((k + 0.5) / STEPS)) for k in range(STEPS)]

    def random(self, size: Any = None, **_: Any) -> Any:
        """Uniform on [0, 1), in ``STEPS`` steps."""
        return self._many(size, lambda: self._next(self._steps(lambda q: q)))

    def uniform(self, low: float = 0.0, high: float = 1.0, size: Any = None) -> Any:
        """Uniform on [low, high), in ``STEPS`` steps."""
        return self._many(size, lambda: self._next(self._steps(lambda q: low + (high - low) * q)))

    def normal(self, loc: float = 0.0, scale: float = 1.0, size: Any = None) -> Any:
        """Normal, in ``STEPS`` steps."""
        return self._many(size, lambda: self._next(self._steps(NormalDist(loc, scale).inv_cdf)))

    def lognormal(self, mean: float = 0.0, sigma: float = 1.0, size: Any = None) -> Any:
        """Log-normal, in ``STEPS`` steps."""
        return self._many(size, lambda: self._next(self._steps(lambda q: math.exp(NormalDist(mean, sigma).inv_cdf(q)))))

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        """One of ``a`` (or of ``range(a)``), with probabilities ``p``; several only with replacement."""
        values = list(range(a)) if isinstance(a, int) else list(a)
        probabilities = None if p is None else [float(x) for x in p]
        if size is not None and not replace:
            order = self.permutation(len(values))
            return np.array([values[k] for k in order[: math.prod((size,) if isinstance(size, int) else size)]])
        return self._many(size, lambda: self._next(values, probabilities))

    def permutation(self, x: Any) -> Any:
        """A random order: each next element a chance node over those left."""
        items = list(range(x)) if isinstance(x, int) else list(x)
        order = []
        while items:
            order.append(items.pop(self._next(list(range(len(items)))) if len(items) > 1 else 0))
        return np.array(order)

    def shuffle(self, x: list[Any]) -> None:
        """Shuffle ``x`` in place."""
        x[:] = [x[k] for k in self.permutation(len(x))]

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"the chance nodes cannot answer Generator.{name}: add it to ChanceScript")


# -- the game and its states ---------------------------------------------------------------------


class Shared:
    """A table game that copies of a state read in common until one of them moves on (``version``)."""

    def __init__(self, game: GameBase) -> None:
        self.game = game
        self.version = 0


def snapshot(game: TableGame) -> TableGame:
    """A table game's record as it stands (its draws and answers), for ``clone`` to replay later."""
    frozen = copy.copy(game)
    frozen.draws, frozen.answers = list(game.draws), list(game.answers)
    return frozen


class Held:
    """The project's game inside an OpenSpiel state, and its legal actions by number (kept until it changes).

    A board game is copied by its own ``clone``. A table game's ``clone`` replays every answer so far, so
    copies share the game and a snapshot of its record instead: the first to move on takes the game
    (``take``), the others replay the snapshot only when they are read after that.
    """

    def __init__(self, game: GameBase | None) -> None:
        self.legal: dict[int, Any] | None = None
        self._own = game if not isinstance(game, TableGame) else None
        self._shared = Shared(game) if isinstance(game, TableGame) else None
        self._version = 0
        self._snapshot: TableGame | None = None

    @property
    def game(self) -> GameBase | None:
        """The game (None before the set-up)."""
        if self._shared is None:
            return self._own
        if self._shared.version != self._version:  # another copy moved on: replay the record
            assert self._snapshot is not None
            self._shared, self._version = Shared(self._snapshot.clone()), 0
        return self._shared.game

    def take(self) -> GameBase:
        """The game, to change in place: the copies sharing it replay their snapshot when next read."""
        game = self.game
        assert game is not None
        if self._shared is not None:
            self._shared.version += 1
            self._version, self._snapshot = self._shared.version, None
        self.legal = None
        return game

    def __deepcopy__(self, memo: dict[int, Any]) -> Held:
        game = self.game
        if not isinstance(game, TableGame):
            return Held(game.clone() if game is not None else None)
        assert self._shared is not None
        if self._snapshot is None:
            self._snapshot = snapshot(game)
        other = Held(None)
        other._shared, other._version, other._snapshot, other.legal = (
            self._shared,
            self._version,
            self._snapshot,
            self.legal,
        )
        return other


def player_range(game_cls: type[GameBase]) -> tuple[int, int]:
    """The fewest and most players, the most capped at ``MAX_PLAYERS``."""
    counts = game_cls.info.players
    if counts == ANY_NUMBER:
        return 1, MAX_PLAYERS
    return min(counts), min(max(counts), MAX_PLAYERS)


def game_type(game_cls: type[GameBase]) -> Any:
    """OpenSpiel's description of ``game_cls``: sequential, chance explicit, imperfect information (the
    outcome of a shuffle is not shown), the win shared (constant sum), rewarded at the end."""
    fewest, most = player_range(game_cls)
    return pyspiel.GameType(
        short_name=short_name(game_cls),
        long_name=f"{game_cls.info.title} (dice pyramid)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players(game_cls)},
    )


def default_players(game_cls: type[GameBase]) -> int:
    """The players a game loads with when ``players`` is not given: the fewest, two for a table game."""
    fewest, most = player_range(game_cls)
    return max(fewest, min(2, most)) if issubclass(game_cls, TableGame) else fewest


class PyramidGame(pyspiel.Game):  # type: ignore[misc,name-defined]
    """One of the project's games for OpenSpiel; parameter ``players``."""

    game_cls: type[GameBase]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", default_players(self.game_cls)))
        fewest, most = player_range(self.game_cls)
        if not fewest <= players <= most:
            raise ValueError(f"{self.game_cls.info.title} takes {fewest} to {most} players here, not {players}")
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.game_cls),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(self.game_cls), info, {"players": players})
        self.players = players
        self.start: PyramidState | None = None  # the first state, copied for every new one (set-ups are slow)

    def new_initial_state(self) -> PyramidState:
        """The game before its first draw."""
        if self.start is None:
            self.start = PyramidState(self)
        return PyramidState(self, self.start)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observation (``perfect_recall`` False) or the information state (True)."""
        return Observer(self.game_cls, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class PyramidState(pyspiel.State):  # type: ignore[misc,name-defined]
    """A game in progress: the project's game, and the step waiting for chance, if any."""

    def __init__(self, game: PyramidGame, like: PyramidState | None = None) -> None:
        super().__init__(game)
        self.game_cls = game.game_cls
        self.players = game.players
        self.held = Held(None)  # no game until the set-up's draws are made
        self.step: Any = None  # the action being resolved (None: the set-up) while draws are pending
        # The draws made for it so far: an array, as a copy of the state copies it whole (a set-up makes
        # hundreds of draws, and a list is copied element by element).
        self.chosen = array("H")
        self.need: DrawNeeded | None = None
        self.dice: list[int] = []  # the faces of a table game's pending roll rolled so far
        self.log = ""  # every step, in words, "; " between: the information state (a str is copied whole)
        self.steps = 0
        if like is None:
            self._resolve()
        else:  # a copy of the first state
            self.held, self.chosen, self.need = (
                copy.deepcopy(like.held),
                array("H", like.chosen),
                like.need,
            )

    # -- resolving a step against the chance nodes ---------------------------------------------

    def _resolve(self) -> None:
        try:
            game = self._play_step()
        except DrawNeeded as need:
            self.need = need
            return
        game.rng = ChanceScript()  # type: ignore[assignment]
        self.held = Held(game)
        self.step, self.chosen, self.need = None, array("H"), None

    def _play_step(self) -> GameBase:
        """The game after the pending step (or set-up), its draws answered by ``chosen``."""
        if self.base is None:
            return self.game_cls(self.players, rng=ChanceScript(self.chosen))  # type: ignore[arg-type]
        if isinstance(self.base, TableGame) and not self.chosen:
            # A table game draws only while setting up: the step is played in place, without a replay.
            before = snapshot(self.base)
            game = self.held.take()
            try:
                self._apply_to(game, self.step)
                return game
            except DrawNeeded:
                self.held = Held(before.clone())  # a draw after all: the step is played again from a copy
        game = self.base.clone()
        game.rng = ChanceScript(self.chosen)  # type: ignore[assignment]
        self._apply_to(game, self.step)
        return game

    @property
    def base(self) -> GameBase | None:
        """The project's game as far as every step is resolved (None before the set-up)."""
        return self.held.game

    @staticmethod
    def _apply_to(game: GameBase, action: Any) -> None:
        if isinstance(game, Game):
            observed = None if isinstance(action, Place) and action.up is None else exact_result(game.state, action)
            game.apply(action, observed)
        else:
            game.apply(action)  # type: ignore[attr-defined]

    def _legal(self) -> dict[int, Any]:
        assert self.base is not None
        if self.held.legal is None:
            legal = self.base.legal_actions()
            self.held.legal = dict(zip(action_ids(self.base, legal), legal, strict=True))
        return self.held.legal

    # -- the OpenSpiel state ------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or chance, or terminal."""
        if self.need is not None or (self.base is not None and self.base.phase() is Phase.CHANCE):
            return int(pyspiel.PlayerId.CHANCE)
        assert self.base is not None
        if self.base.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.base.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the draw pending: indices into its values, with their probabilities."""
        if self.need is not None:
            return list(enumerate(self.need.probabilities))
        return [(face - 1, 1 / 6) for face in range(1, 7)]

    def _apply_action(self, action: int) -> None:
        if self.need is not None:
            # The set-up's draws are not told: what they laid out is seen in the pyramid, and what they
            # dealt in secret (Slipped's slips) each player learns only of their own (``secret``).
            self._record(f"chance {self.need.values[action]}" if self.base is not None else "")
            self.chosen.append(action)
            self._resolve()
            return
        assert self.base is not None
        if self.base.phase() is Phase.CHANCE:
            assert isinstance(self.base, TableGame)
            self.dice.append(action + 1)
            if len(self.dice) < self.base.chance().dice:
                return
            self.step, self.dice = Rolled(tuple(self.dice)), []
        else:
            self.step = self._legal()[action]
        who = "chance" if isinstance(self.step, Rolled) else f"p{self.base.to_move}"
        self._record(f"{who} {self.base.told(self.step)}")  # a secret choice is told only as made
        self._resolve()

    def _record(self, text: str) -> None:
        if text:
            self.log += ("; " if self.log else "") + text
        self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.need is not None:
                return f"draw {self.need.values[action]}"
            return f"die shows {action + 1}"
        legal = self._legal() if self.base is not None and self.base.outcome is None else {}
        return str(legal[action]) if action in legal else f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.need is None and self.base is not None and self.base.outcome is not None

    def returns(self) -> list[float]:
        """The win, shared among the winners, once over; nothing before."""
        if not self.is_terminal():
            return [0.0] * self.players
        assert self.base is not None and self.base.outcome is not None
        winners = self.base.outcome.winners or tuple(range(self.players))
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def __str__(self) -> str:
        return "set-up" if self.base is None else observation_text(self.base)


class Observer:
    """What a player sees (``perfect_recall`` False) or knows (True), as ``tensor`` and as text.

    The tensor: ``pyramid.encoding.observation_tensor``; the information state adds the seat whose it
    is (one-hot) and the number of steps so far. The text: the observation; the information state
    adds every step in words (decisions and the outcomes of chance, all public).
    """

    def __init__(self, game_cls: type[GameBase], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = observation_size(game_cls) + (MAX_PLAYERS + 1 if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PyramidState, player: int) -> None:
        """Fill ``tensor`` from ``state`` for ``player``."""
        self.tensor.fill(0.0)
        if state.base is not None:
            seen = observation_tensor(state.base, player)
            self.tensor[: len(seen)] = seen
        if self.perfect_recall:
            self.tensor[-MAX_PLAYERS - 1 + player] = 1.0
            self.tensor[-1] = state.steps / MAX_GAME_LENGTH

    def string_from(self, state: PyramidState, player: int) -> str:
        """``state`` as ``player`` sees (or knows) it, in words."""
        seen = "set-up" if state.base is None else observation_text(state.base, player)
        if self.perfect_recall:
            return f"player {player}\n{seen}\nhistory: " + state.log
        return seen


def _register(game_cls: type[GameBase]) -> type[PyramidGame]:
    cls = type(f"{game_cls.__name__}Spiel", (PyramidGame,), {"game_cls": game_cls})
    pyspiel.register_game(game_type(game_cls), cls)
    return cls


GAMES: dict[str, type[PyramidGame]] = {short_name(g): _register(g) for g in TURN_BASED}
