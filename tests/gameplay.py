"""Helpers the game tests share: a board game played to its end by programmed players."""

from __future__ import annotations

import numpy as np

from pyramid.agents.players import GreedyPlayer, RandomPlayer
from pyramid.rules import Game


def play(game: Game, kinds: list[str], seed: int) -> Game:
    """``game`` played to its end in fast mode by greedy and random players."""
    seats = [
        (GreedyPlayer if kind == "greedy" else RandomPlayer)(np.random.default_rng([seed, n]))
        for n, kind in enumerate(kinds)
    ]
    while not game.is_over:
        game.apply(seats[game.to_move].choose(game, game.legal_actions()))
    return game
