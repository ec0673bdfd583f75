"""Helpers the game tests share: a board game played to its end by programmed players, or by a hand in the world."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pyramid.agents.players import GreedyPlayer, Player, RandomPlayer
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.rules import Game, Move


def play(game: Game, kinds: list[str], seed: int) -> Game:
    """``game`` played to its end in fast mode by greedy and random players."""
    seats = [
        (GreedyPlayer if kind == "greedy" else RandomPlayer)(np.random.default_rng([seed, n]))
        for n, kind in enumerate(kinds)
    ]
    while not game.is_over:
        game.apply(seats[game.to_move].choose(game, game.legal_actions()))
    return game


def physical_moves(game: Game, moves: int, seed: int, players: Sequence[Player[Any]] | None = None) -> None:
    """``moves`` actions of ``game`` carried out by a hand in the world (random players unless ``players``).

    After each the read-back is the game's state, and after a move the dice are where it took them:
    every target holds a die, every source left empty holds none.
    """
    world = World()
    seats = players or [RandomPlayer(np.random.default_rng([seed, n])) for n in range(game.players)]
    try:
        match = Match(game, list(seats), world=world)
        for _ in range(moves):
            action = match.step()
            assert game.state == world.readout(require_rest=False).pyramid
            if isinstance(action, Move):
                sources, targets = {s for s, _ in action.steps}, {t for _, t in action.steps}
                assert targets <= set(game.state) and not (sources - targets) & set(game.state)
    finally:
        world.close()
