"""Storing Scores and the Clever Mole on hand-made states: totals, memory, descriptions, the race to answer."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid.agents.players import GreedyPlayer, Player, RandomPlayer
from pyramid.games.observation import (
    HILL_APEXES,
    THREE_DICE,
    CleverMole,
    Point,
    Reuse,
    Roll,
    StoringScores,
    clue_text,
    hill_features,
)
from pyramid.play import Match
from pyramid.rules import Place, Remove, Termination
from pyramid.state import PyramidState


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def empty_layers(first: int, last: int) -> list[str]:
    return [",".join("." * (n - i + 1) for i in range(n + 1)) for n in range(first, last + 1)]


# Every base die shows 1, 2, 3 along +i, +j, +k, so every funnel totals 1 + 2 + 3 = 6; one green die on
# the funnel (7,0,0).
STORE = "/".join(
    [
        *empty_layers(0, 6),
        ",".join("." * (8 - i) for i in range(7)) + ",G123",
        ",".join("K123" * (9 - i) for i in range(9)),
    ]
)


def test_storing_scores_hit_keeps_the_die_and_ends_when_all_are_taken() -> None:
    game = StoringScores(2, rng=rng())
    game.observe(PyramidState.from_notation(STORE))
    assert game.legal_actions() == [Roll()]
    game.apply(Roll())
    game.target = 6
    game.apply(Remove((7, 0, 0)))
    assert game.revealed == {(7, 0, 0): 6} and game.kept == [1, 0]
    assert game.outcome is not None and game.outcome.termination is Termination.ALL_TAKEN
    assert game.outcome.winners == (0,)


def test_storing_scores_miss_puts_back_and_the_next_may_reuse() -> None:
    game = StoringScores(2, rng=rng())
    game.observe(PyramidState.from_notation(STORE))
    game.apply(Roll())
    game.target = 7
    game.apply(Remove((7, 0, 0)))
    assert game.legal_actions() == [Place((7, 0, 0), "green", (1, 2, 3))]
    game.apply(Place((7, 0, 0), "green", (1, 2, 3)))
    assert game.to_move == 1 and game.legal_actions() == [Roll(), Reuse(7)]
    # The greedy player remembers the 6 under (7,0,0): a sure hit for 6, the dice's chance for 7.
    assert game.chance(6) == 1.0 and game.chance(7) == pytest.approx(THREE_DICE[7])
    assert game.heuristic(Roll()) == pytest.approx(THREE_DICE[6] + sum(p * p for t, p in THREE_DICE.items() if t != 6))


def test_storing_scores_house_rule_end_after_the_rounds() -> None:
    game = StoringScores(2, rng=rng(), rounds=1)
    game.observe(PyramidState.from_notation(STORE))
    for _ in range(2):
        game.apply(game.legal_actions()[0])
        game.target = 3
        game.apply(Remove((7, 0, 0)))
        game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.ROUNDS_PLAYED
    assert game.outcome.winners == (0, 1) and StoringScores.house_rules


# The hill of corner a, its top green, the other nine red, every die showing 1, 2, 3 along +i, +j, +k.
def bottom_rows(n: int, rows: str) -> str:
    """Layer ``n`` with its rows i = 0..5 empty and ``rows`` for i = 6 and below."""
    return ",".join("." * (n - i + 1) for i in range(6)) + "," + rows


HILL_A = "/".join(
    [
        *empty_layers(0, 5),
        bottom_rows(6, "G123"),
        bottom_rows(7, "R123R123,R123"),
        bottom_rows(8, "R123" * 3 + ",R123R123,R123"),
    ]
)


def test_hill_features_from_the_notation() -> None:
    seen = hill_features(PyramidState.from_notation(HILL_A), (6, 0, 0))
    assert seen["top", ()] == "green" and seen["top eyes", ()] == 6
    assert seen["colour", ("red",)] == 9 and seen["colour", ("gold",)] == 0
    assert seen["side eyes", (0,)] == 6 and seen["side face", (0, 1)] == 6  # side bc shows six ones
    assert seen["side eyes", (1,)] == 12 and seen["side face", (2, 3)] == 6
    assert clue_text(("side face", (0, 1), 6)) == "side bc shows 6 ones"
    assert clue_text(("colour", ("blue",), 0)) == "no dice are blue"


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_the_description_fits_only_the_mole_hill(difficulty: int) -> None:
    for seed in range(5):
        game = CleverMole(3, rng=np.random.default_rng(seed), difficulty=difficulty)
        assert [game.fits(h) for h in range(len(HILL_APEXES))].count(True) == 1
        assert game.fits(game.target) and game.clues
        assert "the mole hides under a hill where" in game.events[-1]


def test_the_fastest_right_answer_scores() -> None:
    game = CleverMole(2, rng=rng(), speeds="1,100", accuracy="1", rounds=2)
    target = game.target
    game.apply(Point(target))
    game.apply(Point(target))
    assert game.points == [1, 0]
    game.apply(Point((game.target + 1) % 6))  # player 0 is faster but wrong
    game.apply(Point(game.target))
    assert game.points == [1, 1]
    assert game.outcome is not None and game.outcome.termination is Termination.ROUNDS_PLAYED


def greedy_share(cls: type, seeds: int) -> float:
    wins = 0.0
    for seed in range(seeds):
        game = cls(None, rng=np.random.default_rng([seed, 1]))
        players: list[Player] = [GreedyPlayer(np.random.default_rng([seed, 2]))]
        players += [RandomPlayer(np.random.default_rng([seed, 3, n])) for n in range(game.players - 1)]
        outcome = Match(game, players).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    return wins / seeds


@pytest.mark.parametrize("cls", [StoringScores, CleverMole])
def test_greedy_beats_random(cls: type) -> None:
    # Two players: a random seat wins half of the games.
    assert greedy_share(cls, 20) >= 0.9
