"""Brad Nordeng's Heptathlon: the rule book's seven worked examples on scripted dice, scoring, full games."""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import pytest
from table_scripts import ScriptedRoller, drive

from pyramid.agents.players import RandomPlayer
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.cli.games import rules_text, show_rules
from pyramid.cli.play import play
from pyramid.physics.roller import FastRoller
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.tablegames import heptathlon_dp as dp
from pyramid.tablegames.base import Decision, Steps, TableGame
from pyramid.tablegames.heptathlon import EVENTS, SKILLS, Heptathlon, roll_skills

T = TypeVar("T")


@dataclass
class ScriptedPlayer:
    """Answers with prepared option texts."""

    name: str
    answers: list[str]

    def answer(self, decision: Decision) -> int:
        if len(decision.options) == 1:
            return 0
        return decision.options.index(self.answers.pop(0))


def _marks(**skills: int) -> list[int]:
    return [skills.get(s, 0) for s in SKILLS]


@dataclass
class Table:
    """A one-player heptathlon with fixed skills, prepared answers and throws; ``run`` plays a part of it."""

    game: Heptathlon
    player: ScriptedPlayer
    roller: ScriptedRoller

    def run(self, part: Steps[T]) -> T:
        return drive(part, self.roller, [self.player])


def _game(answers: list[str], throws: list[list[int]], options: dict[str, Any] | None = None, **skills: int) -> Table:
    game = Heptathlon(rng=np.random.default_rng(0), names=["A"], **(options or {}))
    game.skills = [_marks(**skills)]
    return Table(game, ScriptedPlayer("A", answers), ScriptedRoller(throws))


def _random(name: str, rng: np.random.Generator) -> RandomPlayer:
    player = RandomPlayer(rng)
    player.name = name
    return player


def test_lookup() -> None:
    assert find_game("Heptathlon", TableGame) is Heptathlon
    assert find_game("siebenkampf", TableGame) is Heptathlon


def test_scoring_rules() -> None:
    assert dp.hurdles_score([1, 6, 1, 5, 5, 4, 2]) == 17
    assert dp.hurdles_score([1, 1, 1, 1, 2, 2, 2]) == 10
    assert dp.hurdles_score([2, 2, 2, 2, 2, 2, 2]) == 0
    assert dp.pair_score([4, 4, 5, 5, 6, 1, 2]) == 18
    assert dp.pair_score([3, 3, 3, 3, 3]) == 12 and dp.pair_score([3, 3, 3, 3, 3], distinct=True) == 6
    assert dp.has_run_of_three([2, 3, 4, 4]) and not dp.has_run_of_three([1, 2, 4, 5, 5])
    assert dp.javelin_allowed(1, 2, 0) and not dp.javelin_allowed(1, 1, 4)
    assert dp.javelin_allowed(2, 3, 0) and not dp.javelin_allowed(4, 0, 4)
    assert dp.javelin_keeps([1, 1], 0, 0) == [(), (1,), (1, 1)]
    assert dp.javelin_keeps([5, 5], 0, 3) == [(), (5,)]


def test_setup_rerolls_a_fourth_die_of_a_number() -> None:
    roller = ScriptedRoller([[2, 2, 2, 2, 5], [2], [6]])
    assert drive(roll_skills(), roller, []) == [0, 3, 0, 0, 1, 1]


def test_example_hurdles_17() -> None:
    throws = [[1, 6, 3, 2], [1, 5, 5, 2, 3], [4, 2], [2]]
    table = _game(["keep [1, 6]", "keep [1, 5, 5]", "keep [4]"], throws, speed=1)
    assert table.run(table.game._attempt("100m hurdles", 0))[0] == 17


def test_example_high_jump_9() -> None:
    throws = [[2, 3, 3], [1, 1, 4, 5], [2, 3, 4, 6], [1, 1, 4, 6], [4, 5, 6, 1, 1]]
    answers = ["attempt", "jump with 3 dice", "skip", "attempt"] + ["jump with 4 dice"] * 3 + ["jump with 5 dice"]
    table = _game(answers, throws, jumping=2, size=1)
    table.run(table.game.play_event("high jump"))
    game = table.game
    entry = game.sheet["high jump"][0]
    assert entry.best == 9 and entry.results == ["9:O", "15:XXXX"] and game.totals == [9]


def test_example_shot_put_21() -> None:
    throws = [[3, 3, 1, 2, 4, 5, 6], [6, 6, 1, 2, 4], [6, 6, 1, 2, 3], [1, 3, 4, 6]]
    answers = ["keep 2x3 and spin again", "keep 2x6 and spin again", "keep 4x6 and throw"]
    table = _game(answers, throws, strength=1, size=1)
    assert table.run(table.game._attempt("shot put", 0))[0] == 21


def test_example_200_meters_18() -> None:
    throws = [[4, 1], [5, 2, 1], [4, 3, 2, 1], [6, 5, 2, 1], [1, 2]]
    table = _game(["keep [4]", "keep [5]", "keep [4]", "keep [6, 5]"], throws, speed=2)
    assert table.run(table.game._attempt("200 meters", 0))[0] == 18


def test_example_long_jump_24() -> None:
    throws = [[2, 4, 5, 1, 1, 3, 3], [1, 3, 6, 6], [6, 4, 3, 2, 1], [6, 5, 1], [3]]
    answers = [
        "keep [5, 4, 2] and run on",
        "keep [3, 1] and jump",
        "keep [6, 4] and roll the rest",
        "keep [6, 5] and roll the rest",
    ]
    table = _game(answers, throws, jumping=1)
    assert table.run(table.game._attempt("long jump", 0))[0] == 24


def test_example_javelin_21() -> None:
    throws = [[1, 3], [2, 5], [1, 2], [3, 3], [1, 4], [2, 6]]
    answers = ["keep [1]", "keep none", "keep [1]", "keep none", "keep [1, 4]", "keep [6]"]
    table = _game(answers, throws, strength=1, dexterity=1)
    assert table.run(table.game._attempt("javelin throw", 0))[0] == 21


def test_example_800_meters_26() -> None:
    throws = [[3, 6], [1, 6], [2, 2], [4, 4], [3, 6], [5, 5], [3]]
    answers = ["keep none", "keep none", "keep both", "keep both", "keep none", "keep both"]
    table = _game(answers, throws, endurance=2)
    assert table.run(table.game._attempt("800 meters", 0))[0] == 26


def test_hurdle_ones_kept_or_rolled() -> None:
    # Three 1s are rolled and none kept: the seven dice at the end (6 5 5 6 6 5 4 = 37) keep all three
    # -7s by default; with hurdles=rolled the 1s rolled crossed them out.
    throws = [[1, 6, 5, 5], [1, 1, 6, 6], [5, 4]]
    answers = ["keep [6, 5, 5]", "keep [6, 6]"]
    table = _game(list(answers), [list(t) for t in throws])
    assert table.run(table.game._attempt("100m hurdles", 0)) == (16, "6+6+6+5+5+5+4 -7x3 = 16")
    table = _game(list(answers), [list(t) for t in throws], {"hurdles": "rolled"})
    assert table.run(table.game._attempt("100m hurdles", 0)) == (37, "6+6+6+5+5+5+4 -7x0 = 37")
    # The tables under that reading: six dice kept (sum 31), the seventh rolled once; a 1 it shows
    # crosses out one more box.
    assert dp.hurdles_value(1, [6, 6, 6, 6, 6, 1], crossed=3) == pytest.approx(31 + 3.5)
    one_box = sum(31 + f - 7 * (2 - (f == 1)) for f in range(1, 7)) / 6
    assert dp.hurdles_value(1, [6, 6, 6, 6, 6, 1], crossed=1) == pytest.approx(one_box)
    assert dp.hurdles_value(2, [], crossed=0) > dp.hurdles_value(2, [])


def test_spin_may_keep_no_dice() -> None:
    # spin=optional: a poor first spin (1 1 2 2 3 3 4) is rolled again whole, then three 6s are thrown.
    throws = [[1, 1, 2, 2, 3, 3, 4], [6, 6, 6, 1, 2, 3, 4], [5, 5, 5]]
    answers = ["keep none and spin again", "keep 3x6 and throw"]
    table = _game(answers, throws, {"spin": "optional"})
    assert table.run(table.game._attempt("shot put", 0)) == (21, "6+15+0 = 21")
    seen: list[Decision] = []

    class Watcher:
        def answer(self, decision: Decision) -> int:
            seen.append(decision)
            return 0

    game = Heptathlon(rng=np.random.default_rng(0), names=["A"])
    game.skills = [_marks()]
    drive(game._attempt("shot put", 0), FastRoller(np.random.default_rng(1)), [Watcher()])
    assert "keep none and spin again" not in seen[0].options  # by default every spin roll keeps a number
    assert (
        dp.spin_value(0, 0, 3, optional=True)
        == pytest.approx(dp.spin_value(0, 0, 3))
        == pytest.approx(16.453, abs=1e-3)
    )
    assert dp.hurdles_value(3, []) == pytest.approx(19.934, abs=1e-3)
    assert dp.hurdles_value(3, [], crossed=0) == pytest.approx(26.330, abs=1e-3)
    card = rules_text(Heptathlon)
    assert all(f"``{o}``" in card for o in ("hurdles=rolled", "pairs=distinct", "spin=optional"))
    with pytest.raises(ValueError):
        Heptathlon(1, rng=np.random.default_rng(0), spin="sometimes")


def test_dynamic_programmes_against_brute_force() -> None:
    assert dp.throw_value(1, 2) == pytest.approx((4 + 5 + 6 + 3 * 3.5) / 6)
    rolls = list(itertools.product(range(1, 7), repeat=4))
    assert dp.clear_probability(4, 15, 1) == pytest.approx(
        np.mean([sum(r) + 1 >= 15 and not dp.has_run_of_three(r) for r in rolls])
    )
    # Hurdles with six dice kept (sum 20, one 1) and two rolls of the last die left.
    one = [max(0, 20 + f - 7 * (2 - (f == 1))) for f in range(1, 7)]
    two = np.mean([max(max(0, 20 + f - 7 * (2 - (f == 1))), np.mean(one)) for f in range(1, 7)])
    assert dp.hurdles_value(2, [1, 4, 4, 4, 4, 3]) == pytest.approx(two)
    # 800 metres: one roll of the last die with 2, 2, 3, 5, 5, 6 kept.
    assert dp.eight_hundred_value((2, 2, 3, 5, 5, 6), 1, False) == pytest.approx(14 + 6 / 6 + 12 / 6)


def test_full_games_every_player_count() -> None:
    rng = np.random.default_rng(4)
    for n in range(1, 5):
        players = [_random(f"p{i}", rng) for i in range(n - 1)] + [OptimalPlayer("strong")]
        game = Heptathlon(rng=rng, names=[p.name for p in players], pairs="distinct" if n == 3 else "each")
        Match(game, players, roller=FastRoller(rng)).run()
        totals = game.totals
        assert len(totals) == n and list(game.sheet) == list(EVENTS)
        sheet = game.score_sheet()
        assert "Running Total" in sheet and sheet.count("\n") == 2 + 6 + 7 * (2 + n) + 1
        assert all(sum(s) == 5 and max(s) <= 3 for s in game.skills)
    with pytest.raises(ValueError):
        Heptathlon(5, rng=rng)


def test_human_at_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["nonsense", "0"] + ["1"] * 10_000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rng = np.random.default_rng(5)
    human = TableHumanPlayer("me", read=lambda prompt: input(prompt))
    game = Heptathlon(rng=rng, names=["me", "strong"])
    Match(game, [human, OptimalPlayer("strong")], roller=FastRoller(rng)).run()
    assert len(game.sheet) == 7
    out = capsys.readouterr().out
    assert "hurdles roll 1/" in out and "please type a number" in out


def _margins(games: int, seed: int) -> tuple[int, float]:
    rng = np.random.default_rng(seed)
    wins, margin = 0, 0.0
    for _ in range(games):
        game = Heptathlon(rng=rng, names=["strong", "rnd"])
        Match(game, [OptimalPlayer("strong"), _random("rnd", rng)], roller=FastRoller(rng)).run()
        totals = game.totals
        wins += totals[0] > totals[1]
        margin += (totals[0] - totals[1]) / games
    return wins, margin


def test_strong_beats_random() -> None:
    wins, margin = _margins(40, seed=3)
    assert wins >= 36 and margin > 30


@pytest.mark.slow
def test_strong_beats_random_long() -> None:
    wins, margin = _margins(500, seed=6)
    assert wins >= 475 and margin > 40


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(
        game="heptathlon", players="strong,random", seed=1, fast=True, picture=None, option=["pairs=distinct"]
    )
    assert play(args) == 0
    out = capsys.readouterr().out
    assert "Heptathlon - Score Sheet" in out and "winner:" in out
    assert show_rules("heptathlon") == 0 and "Interpretation" in capsys.readouterr().out
    with pytest.raises(ValueError):
        play(
            argparse.Namespace(
                game="heptathlon", players="random", seed=1, fast=True, picture=None, option=["colour=red"]
            )
        )


def test_physical_game_runs() -> None:
    args = argparse.Namespace(game="heptathlon", players="strong", seed=2, fast=False, picture=None, option=[])
    assert play(args) == 0
