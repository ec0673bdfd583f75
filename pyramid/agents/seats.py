"""Who can sit at a game, by name: the players and programmed hands of each kind of game.

``make_seat(kind, rng, game_cls)`` is how the command line, the window and experiments turn
``--players greedy,random`` into seats; ``seat_kinds(game_cls)`` lists the names a game takes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from pyramid.agents.controller import Controller
from pyramid.agents.dice_hands import (
    FlickHand,
    FowlHand,
    HumanHand,
    LadleHand,
    MaliceHand,
    MikadoHand,
    MountHand,
    StackHand,
    ThrowHand,
)
from pyramid.agents.plate_hands import BlowHand, FlintHand, TiltHand
from pyramid.agents.players import GreedyPlayer, HumanPlayer, MctsPlayer, Player, RandomPlayer, mcts_budget
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.rules import GameBase

BOARD_PLAYERS: dict[str, Callable[[np.random.Generator], Player[Any]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "mcts": MctsPlayer,  # also mcts:N, N simulations a decision
    "human": lambda rng: HumanPlayer(),
}

SKILL_PLAYERS: dict[str, Callable[[np.random.Generator], Controller]] = {
    "careful": lambda rng: MikadoHand(rng, "careful"),
    "bottom": lambda rng: MikadoHand(rng, "bottom"),
    "random": lambda rng: MikadoHand(rng, "random"),
    "tilt": TiltHand,
    "blow": BlowHand,
    "flick": FlickHand,
    "flint": FlintHand,
    "throw": ThrowHand,
    "ladle": LadleHand,
    "malice": MaliceHand,
    "fowl": FowlHand,
    "fowl-random": lambda rng: FowlHand(rng, hold=False),
    "stack": StackHand,
    "stack-tower": lambda rng: StackHand(rng, "tower"),
    "mount": MountHand,
    "mount-shallow": lambda rng: MountHand(rng, depth=0.004),
    "human": lambda rng: HumanHand(),
}


TABLE_PLAYERS: dict[str, Callable[[np.random.Generator], Player[Any]]] = {
    "optimal": lambda rng: OptimalPlayer(),
    "strong": lambda rng: OptimalPlayer("strong"),
    "random": RandomPlayer,
    "mcts": MctsPlayer,  # also mcts:N, N simulations a decision
    "human": lambda rng: TableHumanPlayer(),
}


def _table(kind: str) -> dict[str, Callable[[np.random.Generator], Player[Any] | Controller]]:
    if kind == "skill":
        return dict(SKILL_PLAYERS)
    if kind == "table":
        return dict(TABLE_PLAYERS)
    return dict(BOARD_PLAYERS)


def seat_kinds(game_cls: type[GameBase]) -> tuple[str, ...]:
    """The names of the players that can sit at ``game_cls`` (for a skill game: the hands that play it)."""
    table = _table(game_cls.kind)
    if game_cls.kind == "skill":
        return tuple(k for k, make in table.items() if _plays(make(np.random.default_rng(0)), game_cls))
    return tuple(table)


def _plays(seat: Player[Any] | Controller, game_cls: type[GameBase]) -> bool:
    return not isinstance(seat, Controller) or issubclass(game_cls, seat.plays)


def default_seats(game_cls: type[GameBase]) -> list[str]:
    """Who plays ``game_cls`` when nobody is named: the strong player first, filled up to the fewest seats."""
    if game_cls.kind == "board":
        return ["greedy"] + ["random"] * (game_cls.info.players[0] - 1)
    if game_cls.kind == "table":
        return [game_cls.default_player, "random"]
    return [game_cls.default_player] * game_cls.info.players[0]


def make_hand(kind: str, rng: np.random.Generator) -> Controller:
    """The programmed hand (or ``human``) called ``kind`` for a skill game; ValueError naming the choices."""
    if kind not in SKILL_PLAYERS:
        raise ValueError(f"unknown skill player {kind!r}; choose from {', '.join(SKILL_PLAYERS)}")
    return SKILL_PLAYERS[kind](rng)


def make_seat(
    kind: str, rng: np.random.Generator, game_cls: type[GameBase], name: str | None = None
) -> Player[Any] | Controller:
    """The player called ``kind`` for a game of ``game_cls`` (named ``name`` at the table, if given);
    ValueError naming the choices when unknown."""
    table = _table(game_cls.kind)
    budget = mcts_budget(kind) if "mcts" in table else None
    if budget is not None:
        table[kind] = partial(MctsPlayer, iterations=budget)
    if kind not in table:
        what = "skill player" if game_cls.kind == "skill" else "player"
        raise ValueError(f"unknown {what} {kind!r}; choose from {', '.join(seat_kinds(game_cls))}")
    seat = table[kind](rng)
    if not _plays(seat, game_cls):
        raise ValueError(
            f"the {kind!r} hand does not play {game_cls.info.title}; choose from {', '.join(seat_kinds(game_cls))}"
        )
    if name is not None:
        seat.name = name
    return seat
