"""Every turn-based game as a PettingZoo AEC environment (the pettingzoo extra):
``pyramid.pettingzoo.env("pyramid_30")`` (or ``env("30")``, ``env("decathlon", players=3)``).

Agents ``player_0``, ``player_1``, ... take turns as the game says; rolls in between are drawn by
the game and the environment from the seed given to ``reset``. Each observation is a dict: the
``observation`` of ``pyramid.encoding.observation_tensor`` and the ``action_mask`` of the legal action
numbers (``pyramid.encoding.action_ids``), all zero when it is not the agent's turn. Reward: the
win, shared among the winners, at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramid.cli.extras import load
from pyramid.encoding import action_count, action_ids, observation_size, observation_tensor, observation_text
from pyramid.registry import BOARD_GAMES, find_game
from pyramid.rules import GameBase, Phase, Rolled
from pyramid.tablegames import TABLE_GAMES
from pyramid.tablegames.base import TableGame

pettingzoo = load("pettingzoo")
spaces = load("gymnasium.spaces")
wrappers = load("pettingzoo.utils.wrappers")

TURN_BASED: tuple[type[GameBase], ...] = (*BOARD_GAMES, *TABLE_GAMES)


def game_class(name: str) -> type[GameBase]:
    """The turn-based game called ``name`` (``pyramid_30``, ``30``, ``decathlon``, a title)."""
    key = name.removeprefix("pyramid_").replace("_", "-")
    game_cls = find_game(key)
    if game_cls not in TURN_BASED:
        raise LookupError(f"{game_cls.info.title} is played physically, turn by turn in real time: not an AEC game")
    return game_cls


class RawEnv(pettingzoo.AECEnv):  # type: ignore[misc,name-defined]
    """One game of the project for PettingZoo's agent-environment cycle; ``render_mode`` "ansi" or "human"."""

    metadata = {"name": "pyramid", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self, game_cls: type[GameBase], players: int | None = None, render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        self.game_cls = game_cls
        self.options = options
        default = 2 if issubclass(game_cls, TableGame) and 2 in game_cls.info.players else game_cls.info.players[0]
        self.players = players if players is not None else default
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": "pyramid_" + game_cls.info.key.replace("-", "_")}
        self.possible_agents = [f"player_{n}" for n in range(self.players)]
        actions = action_count(game_cls)
        seen = spaces.Box(-np.inf, np.inf, (observation_size(game_cls),), np.float32)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        both = {"observation": seen, "action_mask": mask}
        self.observation_spaces = {a: spaces.Dict(both) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.rng = np.random.default_rng()
        self.game: GameBase = game_cls(self.players, rng=self.rng, **options)

    def observation_space(self, agent: str) -> Any:
        """The agent's observation: a dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The agent's actions: every action number of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` makes it and every roll in it reproducible."""
        self.rng = np.random.default_rng(seed)
        self.game = self.game_cls(self.players, rng=np.random.default_rng(self.rng.integers(2**63)), **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._roll()
        self._judge()

    def _roll(self) -> None:
        """Answer a table game's rolls with faces drawn from the environment's generator."""
        game = self.game
        while isinstance(game, TableGame) and game.phase() is Phase.CHANCE:
            game.apply(Rolled(tuple(int(f) for f in self.rng.integers(1, 7, game.chance().dice))))

    def _legal(self) -> dict[int, Any]:
        legal = self.game.legal_actions()
        return dict(zip(action_ids(self.game, legal), legal, strict=True))

    def _judge(self) -> None:
        """The agent to move, or every agent's reward and termination once the game is over."""
        outcome = self.game.outcome
        if outcome is None:
            self.agent_selection = self.possible_agents[self.game.to_move]
            return
        winners = outcome.winners or tuple(range(self.players))
        for n, agent in enumerate(self.possible_agents):
            self.rewards[agent] = 1.0 / len(winners) if n in winners else 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"result": outcome.result(), "scores": list(outcome.scores)}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now, with the mask of its legal actions."""
        mask = np.zeros(action_count(self.game_cls), np.int8)
        if self.game.outcome is None and agent == self.possible_agents[self.game.to_move]:
            mask[list(self._legal())] = 1
        seat = self.possible_agents.index(agent)
        return {"observation": observation_tensor(self.game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent's action (by number); None once the agent is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal()
        if action not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now; legal: {sorted(legal)[:20]} ...")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(legal[int(action)])  # type: ignore[attr-defined]
        self._roll()
        self._judge()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game in words ("ansi"), or printed ("human")."""
        text = observation_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(name: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> RawEnv:
    """The environment of the game called ``name``, without PettingZoo's order checks."""
    return RawEnv(game_class(name), players, render_mode, **options)


def env(name: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> Any:
    """The environment of the game called ``name`` (``pyramid_30``, ``decathlon``), wrapped in PettingZoo's
    order checks; ``players`` seats (default: the fewest, two at a table game); the game's ``options``."""
    return wrappers.OrderEnforcingWrapper(raw_env(name, players, render_mode, **options))
