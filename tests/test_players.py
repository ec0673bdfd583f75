"""The players: greedy beats random by a clear margin over many seeded fast games; a human re-asks."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid.agents.players import GreedyPlayer, HumanPlayer, Player, RandomPlayer, make_player
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.rules import Game


def greedy_share(number: int, seeds: int) -> float:
    """Share of wins (split on ties) of one greedy player in seat 0 against random players."""
    wins = 0.0
    for seed in range(seeds):
        game = find_game(number, Game)(None, rng=np.random.default_rng([seed, 1]))
        players: list[Player] = [GreedyPlayer(np.random.default_rng([seed, 2]))]
        players += [RandomPlayer(np.random.default_rng([seed, 3, n])) for n in range(game.players - 1)]
        outcome = Match(game, players).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    return wins / seeds


@pytest.mark.parametrize(("number", "seeds", "at_least"), [(27, 200, 0.8), (39, 100, 0.9), (10, 40, 0.8)])
def test_greedy_beats_random(number: int, seeds: int, at_least: float) -> None:
    # A random seat wins 1/players of the games; greedy must do far better.
    assert greedy_share(number, seeds) >= at_least


def test_human_player_reasks_on_bad_input() -> None:
    answers = iter(["", "x", "99", "2"])
    shown: list[str] = []
    human = HumanPlayer(ask=lambda prompt: next(answers), show=shown.append)
    game = find_game(39, Game)(2, rng=np.random.default_rng(0))
    game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    assert human.choose(game, legal) == legal[1]
    assert sum("please type" in line for line in shown) == 3


def test_make_player_names() -> None:
    rng = np.random.default_rng(0)
    assert isinstance(make_player("greedy", rng), GreedyPlayer)
    assert isinstance(make_player("random", rng), RandomPlayer)
    with pytest.raises(ValueError, match="unknown player"):
        make_player("alphazero", rng)
