"""Knizia's Decathlon: the rule book's examples, exact DP values checked independently and by simulation."""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass, field

import numpy as np
import pytest
from table_scripts import ScriptedRoller, drive

from pyramid.agents.players import RandomPlayer
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.cli.games import list_games, rules_text, show_rules
from pyramid.cli.play import play
from pyramid.physics.roller import FastRoller
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.tablegames import decathlon_dp as dp
from pyramid.tablegames.base import Decision, TableGame
from pyramid.tablegames.decathlon import DISCIPLINES, Decathlon, Entry


@dataclass
class ScriptedPlayer:
    """Answers with prepared option indices."""

    name: str
    answers: list[int]
    asked: list[Decision] = field(default_factory=list)

    def answer(self, decision: Decision) -> int:
        self.asked.append(decision)
        return self.answers.pop(0)


def _random(name: str, rng: np.random.Generator) -> RandomPlayer:
    player = RandomPlayer(rng)
    player.name = name
    return player


def test_lookup_by_name_and_alias() -> None:
    assert find_game("Decathlon", TableGame) is Decathlon
    assert find_game("ZEHNKAMPF", TableGame) is Decathlon
    with pytest.raises(LookupError, match="chess"):
        find_game("chess", TableGame)


def test_championship_medals_as_in_the_rule_book() -> None:
    rng = np.random.default_rng(0)
    game = Decathlon(rng=rng, names=list("ABCD"), championship=True)
    entries = [Entry(best=b) for b in (27, 27, 25, 20)]
    game._book("100 metres", entries)
    assert game.totals == [3, 3, 1, 0]
    game._book("long jump", [Entry(best=None), Entry(best=5), Entry(best=None), Entry(best=None)])
    assert game.totals == [3, 6, 1, 0]


def test_high_jump_example_scores_14() -> None:
    # Mastering height 14, skipping height 16 and failing at height 18 results in 14 points.
    rng = np.random.default_rng(0)
    throws = [[2, 2, 2, 2, 2], [3, 3, 2, 2, 2], [1, 1, 1, 1, 1], [3, 3, 3, 3, 2]]
    throws += [[4, 4, 4, 4, 1], [3, 3, 3, 3, 3], [6, 6, 2, 2, 1]]
    player = ScriptedPlayer("A", [0, 0, 0, 1, 0])
    game = Decathlon(rng=rng, names=["A"])
    drive(game.play_discipline("high jump"), ScriptedRoller(throws), [player])
    entry = game.sheet["high jump"][0]
    assert entry.best == 14 and entry.results == ["10:O", "12:O", "14:XO", "18:XXX"]
    assert game.totals == [14]


def test_pole_vault_example_scores_12() -> None:
    # Skipping 10, mastering 12, skipping 14 and failing at 16 results in 12 points.
    rng = np.random.default_rng(0)
    throws = [[6, 6], [6, 6, 1], [2, 2, 2], [5, 5, 5]]
    player = ScriptedPlayer("A", [dp.POLE_DICE, 1, dp.POLE_DICE, 2, 2, 2])
    game = Decathlon(rng=rng, names=["A"])
    drive(game.play_discipline("pole vault"), ScriptedRoller(throws), [player])
    assert game.sheet["pole vault"][0].best == 12 and game.totals == [12]


def test_sprint_and_shot_put_scoring() -> None:
    rng = np.random.default_rng(0)
    # 100 metres: 2 sets of 4; a rethrow of the first set, sixes subtract.
    throws = [[6, 6, 1, 1], [5, 4, 3, 6], [5, 5, 4, 4]]
    game = Decathlon(rng=rng, names=["A"])
    drive(game.play_discipline("100 metres"), ScriptedRoller(throws), [ScriptedPlayer("A", [1, 0, 0])])
    assert game.totals == [6 + 18]
    # Shot put: a 1 is invalid; stopping keeps the total.
    throws = [[4], [6], [5], [1], [6], [6], [3]]
    player = ScriptedPlayer("A", [1, 1, 0, 1, 1, 0])
    game = Decathlon(rng=rng, names=["A"])
    drive(game.play_discipline("shot put"), ScriptedRoller(throws), [player])
    assert game.sheet["shot put"][0].results == ["15", "X", "15"] and game.totals == [15]


def test_dp_against_independent_computation() -> None:
    # 110 m hurdles: 6 throws, keep the first above a threshold, computed from all 6^5 throws.
    sums = np.array([sum(t) for t in itertools.product(range(1, 7), repeat=5)])
    value = sums.mean()
    for _ in range(dp.HURDLE_PICKUPS):
        value = np.maximum(sums, value).mean()
    assert value == pytest.approx(dp.hurdles_value(dp.HURDLE_PICKUPS), abs=1e-12)
    # 1500 metres by a plain recursion over (dice left, rethrows left).
    points = [1, 2, 3, 4, 5, -6]
    table = {(0, r): 0.0 for r in range(6)}
    for d in range(1, 9):
        for r in range(6):
            table[d, r] = float(np.mean([max(x + table[d - 1, r], table[d, r - 1] if r else -99) for x in points]))
    assert table[8, 5] == pytest.approx(dp.expected_scores()["1500 metres"], abs=1e-12)
    # High jump probability of reaching 20 with 5 dice.
    assert dp.clear_probability(5, 20, False) == pytest.approx((sums >= 20).mean())


def _simulate(games: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scores = np.zeros((games, len(DISCIPLINES)))
    for g in range(games):
        game = Decathlon(rng=rng, names=["opt"])
        Match(game, [OptimalPlayer("opt")], roller=FastRoller(rng)).run()
        scores[g] = [game.sheet[name][0].best or 0 for name in DISCIPLINES]
    return scores


def _check_against_dp(scores: np.ndarray) -> None:
    exact = dp.expected_scores()
    n = len(scores)
    for k, name in enumerate(DISCIPLINES):
        se = scores[:, k].std(ddof=1) / np.sqrt(n)
        assert abs(scores[:, k].mean() - exact[name]) < 4.5 * se + 1e-9, name
    totals = scores.sum(axis=1)
    assert abs(totals.mean() - sum(exact.values())) < 4.5 * totals.std(ddof=1) / np.sqrt(n)


def test_optimal_player_matches_dp_expectation() -> None:
    _check_against_dp(_simulate(300, seed=1))


@pytest.mark.slow
def test_optimal_player_matches_dp_expectation_long() -> None:
    _check_against_dp(_simulate(4000, seed=2))


def test_optimal_beats_random() -> None:
    rng = np.random.default_rng(3)
    wins = 0
    for _ in range(40):
        game = Decathlon(rng=rng, names=["opt", "rnd"])
        Match(game, [OptimalPlayer("opt"), _random("rnd", rng)], roller=FastRoller(rng)).run()
        totals = game.totals
        wins += totals[0] > totals[1]
    assert wins >= 32


def test_full_games_with_every_player_count() -> None:
    rng = np.random.default_rng(4)
    for n in range(1, 5):
        game = Decathlon(rng=rng, names=[f"p{i}" for i in range(n)])
        Match(game, [_random(f"p{i}", rng) for i in range(n)], roller=FastRoller(rng)).run()
        totals = game.totals
        assert len(totals) == n and len(game.sheet) == 10
        assert game.score_sheet().count("\n") == 12
    with pytest.raises(ValueError):
        Decathlon(rng=rng, names=[f"p{i}" for i in range(5)])
    with pytest.raises(ValueError, match="for 1, 2, 3, 4 players, not 5"):
        Decathlon(rng=rng, names=[f"p{i}" for i in range(5)])


def test_championship_takes_any_number_of_players() -> None:
    rng = np.random.default_rng(6)
    for n in (1, 8, 13, 30):
        game = Decathlon(rng=rng, names=[f"p{i}" for i in range(n)], championship=True)
        Match(game, [_random(f"p{i}", rng) for i in range(n)], roller=FastRoller(rng)).run()
        assert len(game.totals) == n and len(game.sheet) == 10
        # Each discipline gives at most 3 + 2 + 1 honours (more only to players tied for a medal).
        assert sum(game.totals) >= min(n, 3) and game.winners(game.scores())
    with pytest.raises(ValueError, match="1 or more players, not 0"):
        Decathlon(0, rng=rng, championship=True)


def test_rules_card_gives_the_optimal_expected_scores() -> None:
    card = rules_text(Decathlon).splitlines()
    exact = dp.expected_scores()
    names = ["100 metres", "Long Jump", "Shot Put", "High Jump", "400 metres", "110 m Hurdles", "Discus"]
    names += ["Pole-Vault", "Javelin", "1500 metres"]
    for name, value in zip(names, exact.values(), strict=True):
        assert f"    {name:<16s}{value:6.2f}" in card
    total = f"    {'Total':<16s}{sum(exact.values()):6.2f}"
    assert total in card and total.endswith(" 219.71")


def test_human_player_reasks_on_bad_input() -> None:
    answers = iter(["x", "0", "99"] + ["1"] * 10_000)
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    rng = np.random.default_rng(5)
    human = TableHumanPlayer("me", read=read)
    game = Decathlon(rng=rng, names=["me", "rnd"])
    Match(game, [human, _random("rnd", rng)], roller=FastRoller(rng)).run()
    assert len(game.sheet) == 10 and len(asked) > 3


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        game="decathlon", players="optimal,random", seed=1, fast=True, picture=None, option=["championship=1"]
    )
    assert play(args) == 0
    out = capsys.readouterr().out
    assert "Championship - Score Sheet" in out and "Total" in out
    assert show_rules("decathlon") == 0 and "Interpretation" in capsys.readouterr().out
    with pytest.raises(LookupError, match="nothing"):
        show_rules("nothing")
    list_games()
    assert "decathlon" in capsys.readouterr().out


def test_physical_game_runs() -> None:
    args = argparse.Namespace(game="decathlon", players="random", seed=1, fast=False, picture=None, option=[])
    assert play(args) == 0
