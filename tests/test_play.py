"""The match loop: fast matches of every game, the command line, and one small physical match."""

from __future__ import annotations

import argparse
import re

import numpy as np
import pytest

from pyramid.agents.players import GreedyPlayer, HumanPlayer, RandomPlayer
from pyramid.cli.games import list_games, show_rules
from pyramid.cli.play import play
from pyramid.play import Match
from pyramid.registry import BOARD_GAMES, find_game
from pyramid.rules import Game


@pytest.mark.parametrize("game_cls", BOARD_GAMES, ids=lambda g: f"{g.info.number}")
def test_fast_match_with_greedy_and_random_ends(game_cls: type) -> None:
    game = game_cls(None, rng=np.random.default_rng(3))
    players = [GreedyPlayer(np.random.default_rng(4))] + [
        RandomPlayer(np.random.default_rng(5 + n)) for n in range(game.players - 1)
    ]
    lines: list[str] = []
    outcome = Match(game, players, log=lines.append).run()
    assert outcome.scores == game.scores()
    # Every action taken is printed as a numbered turn.
    numbered = [line for line in lines if re.match(r"\s*\d+\. ", line)]
    assert len(numbered) == len(game.history) > 0


def test_human_at_the_terminal_plays_a_match_to_its_end() -> None:
    game = find_game(27, Game)(3, rng=np.random.default_rng(0))
    human = HumanPlayer(ask=lambda prompt: "1", show=lambda text: None)
    outcome = Match(game, [human, RandomPlayer(np.random.default_rng(1)), RandomPlayer(np.random.default_rng(2))]).run()
    assert len(game.history) == 60 and outcome.winners


def test_cli_lists_rules_and_plays(capsys: pytest.CaptureFixture[str]) -> None:
    list_games()
    assert "El Dado" in capsys.readouterr().out
    assert show_rules("rasanto") == 0
    assert "HOUSE RULE" in capsys.readouterr().out
    args = argparse.Namespace(game="mucho", players="greedy,random,random", seed=2, fast=True, picture=None, option=[])
    assert play(args) == 0
    out = capsys.readouterr().out
    assert "final pyramid:" in out and ("wins" in out or "share the win" in out)


def test_cli_passes_options() -> None:
    args = argparse.Namespace(
        game="12", players="random,random,random", seed=1, fast=True, picture=None, option=["forbidden=3"]
    )
    assert play(args) == 0


def test_physical_match_reads_the_world() -> None:
    from pyramid.physics.world import World

    world = World()
    game = find_game(27, Game)(3, rng=np.random.default_rng(0))
    match = Match(
        game, [RandomPlayer(np.random.default_rng(n)) for n in range(3)], world=world, rng=np.random.default_rng(9)
    )
    for _ in range(6):
        match.step()
    readout = world.readout(require_rest=False)
    assert game.state == readout.pyramid
    world.close()
