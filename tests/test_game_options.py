"""Every game option declared with its type and range: bad values are refused before anything runs,
in one line naming the option, the value and what is allowed; the card shows what each option takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_hardening import no_simulation, refused

from pyramid.cli import app as cli
from pyramid.cli.games import rules_text
from pyramid.registry import GAMES
from pyramid.rules import GameBase
from pyramid.rules.options import ListOf, Name, Number, OneOf, Option, OptionError, PerPlayer, Whole, YesNo

__all__ = ["no_simulation"]  # the fixture, used by name

DECLARED = [(game, key, option) for game in GAMES for key, option in game.option_specs.items()]


def bad_values(option: Option) -> list[Any]:
    """Values ``option`` must refuse: out of range, not finite, of another type, digits that are not ASCII."""
    common: list[Any] = ["", "   ", "nan", "inf", "-inf", "banana", "²", "١٢", "9" * 5000, "1" + "0" * 400]
    if isinstance(option, Whole):
        outside = [option.low - 1, option.high + 1] + (
            [n for n in range(option.low, option.high + 1) if n not in option.among][:1] if option.among else []
        )
        return [*common, *map(str, outside), "1.5", "1e3", True]
    if isinstance(option, Number):
        low = option.low if option.above else option.low - 1
        return [*common, str(low), str(option.high * 10 + 1), "1,2", float("nan"), float("inf")]
    if isinstance(option, YesNo):
        return ["maybe", "2", "", "yes please"]
    if isinstance(option, OneOf):
        return ["", "zzz", option.choices[0] + "x", "1"]
    if isinstance(option, PerPlayer):
        return ["", "nan", "inf,inf", "-1", ",".join(["1"] * 7), "1,,2", "abc"]
    if isinstance(option, ListOf):
        return ["", ",", "x" * 40, ",".join(["1"] * 50), "%", "1;2"]
    raise AssertionError(f"no bad values for {type(option).__name__}")


def build(game: type[GameBase], **options: Any) -> GameBase:
    names = {"names": [f"p{n}" for n in range(game.info.players[0])]} if game.kind == "table" else {}
    return game(game.info.players[0], rng=np.random.default_rng(0), **names, **options)


@pytest.mark.parametrize("game, key, option", DECLARED, ids=[f"{g.info.key}-{k}" for g, k, _ in DECLARED])
def test_every_option_refuses_what_it_does_not_take(game: type[GameBase], key: str, option: Option) -> None:
    for value in bad_values(option):
        with pytest.raises(OptionError) as refusal:
            build(game, **{key: value})
        message = str(refusal.value)
        assert message.startswith(f"option {key} of ") and "expected " in message and ", got " in message
        assert "\n" not in message and len(message) < 400


@pytest.mark.parametrize("game, key, option", DECLARED, ids=[f"{g.info.key}-{k}" for g, k, _ in DECLARED])
def test_every_option_takes_its_lowest_value(game: type[GameBase], key: str, option: Option) -> None:
    lowest: dict[type[Option], Any] = {
        Whole: lambda o: o.among[0] if o.among else o.low,
        Number: lambda o: o.high if o.above else o.low,
        YesNo: lambda o: "yes",
        OneOf: lambda o: o.choices[-1],
        PerPlayer: lambda o: "0.5",
        ListOf: lambda o: ",".join(["2"] * o.count) if o.count else "A,B",
    }
    value = lowest[type(option)](option)
    made = build(game, **{key: str(value)})
    assert key in made.options


def test_every_game_declares_each_option_it_reads() -> None:
    for game in GAMES:
        assert all(isinstance(o, Option) and o.help.strip() for o in game.option_specs.values()), game.info.title
        build(game)  # the defaults are taken


def test_the_card_shows_what_each_option_takes() -> None:
    for game in GAMES:
        card = rules_text(game)
        for key, option in game.option_specs.items():
            assert f"{key}: {option.help} [{option.allowed()}]" in card, (game.info.title, key)


def test_per_player_values_are_one_for_all_or_one_each() -> None:
    speeds = PerPlayer("", Number("", 0.0, 60.0, above=True))
    assert speeds.read("speeds", "g", "2", 3) == (2.0, 2.0, 2.0)
    assert speeds.read("speeds", "g", "1,2,3", 3) == (1.0, 2.0, 3.0)
    with pytest.raises(OptionError, match=r"for every player, or 2 of them, comma-separated, got '1,2,3'"):
        speeds.read("speeds", "g", "1,2,3", 2)
    assert ListOf("", Name(""), distinct=True).read("sports", "g", "Chess, Go", 2) == ("Chess", "Go")


# -- the issue's examples, on the command line: one line, exit 2, nothing run ------------------------------------

ISSUE_EXAMPLES = [
    (["play", "14", "--players", "greedy,greedy", "--fast", "--seed", "1", "--option", "rounds=-1"], "rounds", "-1"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "rounds=0"], "rounds", "0"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "difficulty=4"], "difficulty", "4"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "accuracy=nan,nan"], "accuracy", "nan,nan"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "speeds=-1,5"], "speeds", "-1,5"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "speeds=1,2,3"], "speeds", "1,2,3"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "speeds=inf,inf"], "speeds", "inf,inf"),
    (["play", "14", "--players", "greedy,greedy", "--fast", "--option", "speeds=abc"], "speeds", "abc"),
    (["play", "18", "--fast", "--option", "spread=inf"], "spread", "inf"),
    (["play", "18", "--fast", "--option", "spread=nan"], "spread", "nan"),
    (["play", "18", "--fast", "--option", "spread=-1"], "spread", "-1"),
    (["play", "21", "--fast", "--option", "dice=0"], "dice", "0"),
    (["play", "21", "--fast", "--option", "dice=-5"], "dice", "-5"),
    (["play", "21", "--fast", "--option", "dice=100000"], "dice", "100000"),
    (["play", "57", "--fast", "--option", "greens=-5"], "greens", "-5"),
    (["play", "5", "--option", "dice=0"], "dice", "0"),
    (["play", "6", "--option", "rounds=-2"], "rounds", "-2"),
    (["play", "17", "--option", "time=-1"], "time", "-1"),
    (["play", "19", "--option", "throws=-1"], "throws", "-1"),
    (["play", "knights", "--fast", "--option", "die-cards=1,2,3"], "die-cards", "1,2,3"),
]


@pytest.mark.parametrize(
    "argv, key, value", ISSUE_EXAMPLES, ids=[" ".join(a[:2] + a[-1:]) for a, _, _ in ISSUE_EXAMPLES]
)
def test_the_issues_bad_options_are_refused_in_one_line(
    argv: list[str], key: str, value: str, no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(argv, capsys)
    assert line.startswith(f"pyramid play: --option {key} of "), line
    assert f"got {value!r}" in line and "expected " in line, line


@pytest.mark.parametrize("values, bad", [("-1,0", "-1"), ("5,0", "0"), ("3,1001", "1001"), ("2,x", "x")])
def test_experiment_vary_checks_every_value_of_a_game_option(
    values: str, bad: str, tmp_path: Path, no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    line = refused(["experiment", "--game", "14", "--fast", "--vary", f"rounds={values}", "--out", str(out)], capsys)
    assert line.startswith("pyramid experiment: --vary rounds of The Clever Mole: expected a whole number from 1"), line
    assert f"got {bad!r}" in line
    assert not out.exists()


def test_an_option_given_twice_is_refused(no_simulation: None, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(["play", "14", "--fast", "--option", "rounds=3", "--option", "rounds=4"], capsys)
    assert "--option rounds is given twice ('3' and '4')" in line


def test_good_values_still_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "14", "--players", "greedy,greedy", "--fast", "--option", "rounds=2", "--option", "speeds=3"]
    assert cli.main(argv) == 0
    assert "all rounds have been played" in capsys.readouterr().out
