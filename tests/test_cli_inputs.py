"""The ``pyramid`` command refuses bad input early and clearly: the option, the value, what is allowed; no tracebacks.

Each test reproduces a mistake a new user made at the command line; none of them runs physics.
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pyramid.agents.table_players import table_players
from pyramid.cli import app as cli
from pyramid.cli.args import seat_kinds
from pyramid.lab.demo import run_demo
from pyramid.lab.scene import SceneError, scene_from_dict
from pyramid.lab.settings import SettingError, parse_setting, parse_vary
from pyramid.lab.summaries import mean_interval, plural, summarise, summary_text
from pyramid.state import SPARE_DICE
from pyramid.tablegames.base import TableGame
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.heptathlon import Heptathlon
from pyramid.tablegames.knights import Knights
from pyramid.tablegames.sport import SportIsMurder

ROOT = Path(__file__).resolve().parent.parent
DIE_THROW = ROOT / "scenes" / "die_throw.toml"


def _parse_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """argparse's error for ``argv``: it must exit with code 2; returns what it printed."""
    with pytest.raises(SystemExit) as stop:
        cli.build_parser().parse_args(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


def _never(name: str) -> Any:
    def called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{name} ran although the input was refused")

    return called


# -- 1. a human player whose input ends -------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["play", "39", "--players", "human,greedy", "--fast"], ["play", "decathlon", "--players", "human", "--fast"]],
    ids=["pyramid-game", "table-game"],
)
def test_closed_input_stops_the_match_with_a_message_not_a_traceback(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "input ended: the match stops" in err and "Traceback" not in err


# -- 2. output paths that cannot be written ------------------------------------------------------------


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A path below a regular file: no folder can be made there."""
    file = tmp_path / "a_file"
    file.write_text("not a folder\n")
    return file / "sub"


def test_demo_picture_that_cannot_be_written_is_refused_before_the_simulation(
    blocked: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.cli.lab.run_demo", _never("the demo"))
    assert cli.main(["demo", "--throws", "0", "--picture", str(blocked / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err
        == f"pyramid demo: --picture {blocked / 'x.png'}: cannot write there: {blocked.parent} is a file, not a folder"
    )


def test_play_picture_into_a_folder_is_refused_before_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.cli.play.play", _never("the match"))
    assert cli.main(["play", "10", "--picture", str(tmp_path)]) == 2
    assert f"--picture {tmp_path}: cannot write there: {tmp_path} is a folder" in capsys.readouterr().err


def test_play_picture_draws_a_skill_games_last_turn_and_is_refused_for_table_games_and_the_window(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from PIL import Image

    picture = tmp_path / "mikado.png"
    # In a process of its own: drawing with no display loads pyglet headless (EGL), which the window tests of
    # a later module in this process would inherit (they draw on a private Xvfb screen).
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    argv = ["play", "6", "--players", "careful", "--option", "layers=2", "--picture", str(picture)]
    run = subprocess.run(
        [sys.executable, "-m", "pyramid.cli.app", *argv], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert f"picture written to {picture}" in run.stdout
    shot = np.asarray(Image.open(picture).convert("RGB"), dtype=float)
    assert shot.std() > 10, "a picture of the plate, not a blank"
    for argv, why in [  # refused before a match or a window
        (["play", "decathlon", "--players", "optimal", "--fast"], "Decathlon is a table game"),
        (["play", "10", "--view"], "with --view, leave it out"),
    ]:
        assert cli.main([*argv, "--picture", str(tmp_path / "x.png")]) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("pyramid play: --picture") and why in line


def test_view_load_names_a_bad_table_file_before_asking_for_a_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.cli.app.require_window", _never("the window"))
    bad = tmp_path / "table.json"
    bad.write_text('{"format": "pyramid-table 1", "edge": 0.016, "plate": [0, 0, 0, 0, 0, 0, 1], "dice": []}')
    assert cli.main(["view", "--load", str(bad)]) == 2
    assert f"pyramid view: {bad}: dice: must be an object of die number" in capsys.readouterr().err
    assert cli.main(["view", "--load", str(tmp_path / "none.json")]) == 2
    assert "no such file (a table is saved from `pyramid view` with Ctrl+S)" in capsys.readouterr().err
    assert cli.main(["view", str(DIE_THROW), "--load", str(bad)]) == 2
    assert "--load opens a saved table; give no scene with it" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, stopped",
    [
        (["run", str(DIE_THROW), "--out"], "pyramid.cli.lab.run_scene"),
        (["experiment", "--game", "10", "--players", "greedy,random,random", "--fast", "--seeds", "1", "--out"], None),
        (["assets", "--out"], "pyramid.cli.lab.write_assets"),
    ],
    ids=["run", "experiment", "assets"],
)
def test_output_folders_that_cannot_be_made_are_refused_with_the_path_and_reason(
    argv: list[str],
    stopped: str | None,
    blocked: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if stopped:
        monkeypatch.setattr(stopped, _never(stopped))
    monkeypatch.setattr("pyramid.lab.experiments.run_job", _never("an experiment's run"))
    assert cli.main([*argv, str(blocked)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert str(blocked) in last and ("not a folder" in last or "Not a directory" in last), last


def test_output_checks_create_the_folder_and_leave_no_file_behind(tmp_path: Path) -> None:
    picture = tmp_path / "new" / "deeper" / "x.png"
    cli.check_output_file(picture, "--picture")
    assert picture.parent.is_dir() and not picture.exists()
    existing = tmp_path / "kept.png"
    existing.write_bytes(b"old")
    cli.check_output_file(existing, "--picture")
    assert existing.read_bytes() == b"old"


def test_an_os_error_anywhere_ends_in_one_line_naming_the_path(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def denied() -> None:
        raise PermissionError(13, "Permission denied", "/somewhere/locked")

    monkeypatch.setattr("pyramid.cli.games.list_games", denied)
    assert cli.main(["games"]) == 2
    assert capsys.readouterr().err.strip() == "pyramid games: /somewhere/locked: Permission denied"


# -- 3. and 4. numbers out of range: throws, seeds, counts -----------------------------------------------


@pytest.mark.parametrize("throws", ["-1", "500", "117", "three"])
def test_demo_throws_outside_the_spare_dice_are_refused_by_the_parser(
    throws: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _parse_error(["demo", "--throws", throws], capsys)
    assert "argument --throws: expected 0 to 116, the dice left to throw" in err


def test_demo_throws_at_the_limits_are_accepted_and_the_api_checks_too() -> None:
    assert SPARE_DICE == 116  # 281 dice in the set, 165 in the full pyramid
    for throws in ("0", "116"):
        assert cli.build_parser().parse_args(["demo", "--throws", throws]).throws == int(throws)
    with pytest.raises(ValueError, match="0 to 116 dice are left to throw"):
        run_demo(throws=117, picture=None)


@pytest.mark.parametrize(
    "argv, option",
    [
        (["demo", "--seed", "-1"], "--seed"),
        (["play", "10", "--seed", "-1"], "--seed"),
        (["run", "x.toml", "--seed", "-1"], "--seed"),
        (["view", "--seed", "-3"], "--seed"),
        (["experiment", "--game", "10", "--first-seed", "-5"], "--first-seed"),
        (["experiment", "--game", "10", "--seeds", "0"], "--seeds"),
        (["experiment", "--game", "10", "--seeds", "-2"], "--seeds"),
        (["experiment", "--game", "10", "--workers", "0"], "--workers"),
        (["experiment", "--game", "10", "--workers", "-1"], "--workers"),
        (["demo", "--seed", "1.5"], "--seed"),
    ],
)
def test_seeds_and_counts_out_of_range_are_refused_naming_the_option(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _parse_error(argv, capsys)
    low = "1" if option in ("--seeds", "--workers") else "0"
    assert f"argument {option}: expected a whole number from {low} to " in err


def test_the_lowest_seeds_and_counts_are_accepted() -> None:
    args = cli.build_parser().parse_args(["experiment", "--game", "10", "--first-seed", "0", "--seeds", "1"])
    assert (args.first_seed, args.seeds, args.workers) == (0, 1, None)
    assert cli.build_parser().parse_args(["experiment", "--game", "10", "--workers", "1"]).workers == 1
    assert cli.build_parser().parse_args(["run", "x.toml", "--seed", "0"]).seed == 0


# -- 5. table games' options are cast like the pyramid games' ---------------------------------------------


def test_an_invalid_table_game_option_stops_the_game_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "decathlon", "--option", "championship=banana", "--players", "optimal", "--fast"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "option championship of decathlon: expected yes or no" in err and "'banana'" in err


@pytest.mark.parametrize(
    "game, options, expected",
    [
        (Decathlon, {"championship": "yes"}, ("championship", True)),
        (Decathlon, {"championship": "false"}, ("championship", False)),
        (Decathlon, {"championship": "0"}, ("championship", False)),
        (Heptathlon, {"pairs": "distinct"}, ("distinct", True)),
        (Knights, {"max-rounds": "12"}, ("max_rounds", 12)),
    ],
)
def test_table_game_options_are_read_by_type(
    game: type[TableGame], options: dict[str, str], expected: tuple[str, Any]
) -> None:
    made = game(2, rng=np.random.default_rng(0), **options)
    assert getattr(made, expected[0]) == expected[1]


@pytest.mark.parametrize(
    "game, options, message",
    [
        (Knights, {"max-rounds": "many"}, "option max-rounds of knights: expected a whole number"),
        (Knights, {"die-cards": "1,2,x,4,5,2,3,4"}, "option die-cards of knights: expected 8 comma-separated values"),
        (SportIsMurder, {"pills-per-round": "2.5"}, "option pills-per-round of sport-is-murder: expected a whole"),
        (Heptathlon, {"pairs": "banana"}, "option pairs of heptathlon: expected each or distinct, got 'banana'"),
    ],
)
def test_bad_table_game_options_name_the_game_and_the_option(
    game: type[TableGame], options: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        game(game.info.players[0], rng=np.random.default_rng(0), **options)


def test_an_experiment_with_a_bad_table_game_option_stops_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.lab.experiments.run_job", _never("an experiment's run"))
    argv = ["experiment", "--game", "decathlon", "--players", "optimal", "--fast", "--option", "championship=maybe"]
    assert cli.main([*argv, "--out", str(tmp_path / "exp")]) == 2
    assert "championship of decathlon" in capsys.readouterr().err and not (tmp_path / "exp").exists()


# -- 6. 7. game names and what an experiment needs -----------------------------------------------------


@pytest.mark.parametrize("name", ["-30", "-1", "- 4"])
def test_a_negative_game_number_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "a game's number is 1 or more" in _parse_error(["rules", name], capsys)
    assert "a game's number is 1 or more" in _parse_error(["play", name], capsys)


def test_game_names_with_dashes_still_reach_their_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "sport-is-murder"]) == 0
    assert cli.main(["rules", "30"]) == 0
    assert "30. Fire and Water" in capsys.readouterr().out


def test_an_experiment_without_a_scene_or_game_says_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["experiment"]) == 2
    err = capsys.readouterr().err
    assert "nothing to run: give a scene file" in err and "not both" not in err
    assert cli.main(["experiment", str(DIE_THROW), "--game", "10"]) == 2
    assert "not both" in capsys.readouterr().err


# -- 8. summaries: which interval, and plurals -----------------------------------------------------


def _row(point: int, seed: int, **measures: Any) -> dict[str, Any]:
    return {"key": f"{point}:{seed}", "point": point, "seed": seed, "params": {}, "measures": measures, "error": None}


def test_a_constant_time_gets_no_share_interval_but_a_yes_no_outcome_does() -> None:
    rows = [_row(0, s, start_time_to_rest=0.0, at_rest=True, fallen=[0, 1, 0, 1][s]) for s in range(4)]
    measures = summarise(rows, [{}])["points"][0]["measures"]
    time = measures["start_time_to_rest"]
    assert (time["mean"], time["low"], time["high"]) == (0.0, 0.0, 0.0)
    rest = measures["at_rest"]  # 4 of 4: Wilson's interval reaches well below 1
    assert rest["mean"] == rest["high"] == 1.0 and 0.4 < rest["low"] < 0.6
    fallen = measures["fallen"]  # counts 0 and 1 both seen: a mean of counts, Student's t, may pass 1 and 0
    assert fallen["low"] < 0.0 and fallen["high"] > 1.0


def test_mean_interval_reads_the_kind_of_column() -> None:
    assert mean_interval([2.5, 2.5, 2.5]) == {"n": 3, "mean": 2.5, "low": 2.5, "high": 2.5}
    assert mean_interval([0.0, 0.0, 0.0])["high"] == 0.0  # 0 every time: not a share
    share = mean_interval([False, False, False])  # a yes/no never seen: the share may still be up to ~56%
    assert share["mean"] == 0.0 and 0.5 < share["high"] < 0.6
    assert math.isnan(mean_interval([3.0])["low"])


def test_summaries_and_counts_speak_in_singular_and_plural() -> None:
    assert [plural(n, "run") for n in (0, 1, 2)] == ["0 runs", "1 run", "2 runs"]
    text = summary_text(summarise([_row(0, 0, moved=3)], [{}]))
    assert text.splitlines()[:2] == ["1 run, 0 with errors", "all runs  (1 run)"]
    assert "1 runs" not in text


def test_the_summary_counts_each_way_a_game_ended_most_common_first() -> None:
    ends = ["goal_reached", "repetition", "goal_reached", "no_progress", "goal_reached"]
    rows = [_row(0, s, termination=end, turns=10 + s) for s, end in enumerate(ends)]
    summary = summarise(rows, [{}])
    assert summary["points"][0]["causes"] == {"termination": {"goal_reached": 3, "repetition": 1, "no_progress": 1}}
    assert "termination" not in summary["points"][0]["measures"]
    line = next(x for x in summary_text(summary).splitlines() if "termination" in x)
    assert line.split(None, 1)[1] == "goal_reached 3, repetition 1, no_progress 1"


def test_the_experiment_announces_its_size_in_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["experiment", "--game", "10", "--players", "greedy,random,random", "--fast", "--seeds", "1"]
    assert cli.main([*argv, "--workers", "1", "--quiet", "--no-plots", "--out", str(tmp_path / "exp")]) == 0
    captured = capsys.readouterr()
    assert f"1 run (1 setting x 1 seed) into {tmp_path / 'exp'}" in captured.err
    assert captured.out.startswith("1 run, 0 with errors\nall runs  (1 run)")


# -- 9. --set mistakes are blamed on --set -----------------------------------------------------------


@pytest.mark.parametrize(
    "setting, expected",
    [
        (
            "throw.heigth=0.02",
            "--set throw.heigth: unknown key heigth of the timeline entry 'throw' (did you mean 'height'?)",
        ),
        ("trow.height=0.02", "--set trow.height: no table or timeline entry 'trow' (did you mean 'throw'?)"),
        ("height=0.02", "--set height: a key to set is TABLE.KEY"),
        ("physics.frictoin=0.5", "--set physics.frictoin: unknown key frictoin of the table [physics]"),
        ("throw.height=tall", "--set throw.height: expected a number"),
        ("timeline.x.height=1", "--set timeline.x.height: timeline.N.KEY takes the entry's number N"),
        ("throw.height", "--set takes KEY=VALUE"),
    ],
)
def test_set_mistakes_are_blamed_on_set_not_the_file(
    setting: str, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.cli.lab.run_scene", _never("the scene"))
    assert cli.main(["run", str(DIE_THROW), "--set", setting]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"pyramid run: {expected}"), err
    assert "die_throw.toml" not in err and "swept" not in err


def test_vary_mistakes_are_blamed_on_vary_and_the_python_api_still_on_the_file() -> None:
    raw = {"scene": {"plate": False}, "timeline": [{"do": "throw", "name": "throw"}]}
    with pytest.raises(SceneError, match=r"^--vary throw\.heigth: unknown key heigth"):
        scene_from_dict(raw, "x.toml", {"throw.heigth": 0.1}, origin="--vary")
    with pytest.raises(SceneError, match=r"^x\.toml: timeline\[0\]\.heigth: unknown key"):
        scene_from_dict(raw, "x.toml", {"throw.heigth": 0.1})
    assert parse_setting("throw.colour=red") == ("throw.colour", "red")


# -- 10. 11. a sweep's count, empty player names -----------------------------------------------------


def test_a_sweep_count_of_zero_says_it_must_be_at_least_one() -> None:
    with pytest.raises(SettingError, match="COUNT of START:STOP:COUNT must be at least 1 and at most 1000, got 0"):
        parse_vary("throw.height=0.005:0.2:0")
    with pytest.raises(SettingError, match="two numbers and a whole count"):
        parse_vary("throw.height=0.005:0.2:1.5")


@pytest.mark.parametrize("players", ["greedy,,random", "greedy,random,", ",greedy", "greedy, ,random"])
def test_an_empty_player_name_is_refused(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "empty player name" in _parse_error(["play", "10", "--players", players], capsys)
    assert "empty player name" in _parse_error(["experiment", "--game", "10", "--players", players], capsys)
    with pytest.raises(ValueError, match="empty player name"):
        seat_kinds(players)
    with pytest.raises(ValueError, match="empty player name"):
        table_players(players.split(","), np.random.default_rng(0))
    assert seat_kinds("") == [] and seat_kinds(" greedy , random ") == ["greedy", "random"]


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("", "names no player"),  # given but naming nobody: refused, not taken for the default seats
        (" ", "names no player"),
        ("mcts:0,greedy", "the search's budget is a whole number"),  # refused before a game is set up
        ("mcts:99999999,greedy", "the search's budget is a whole number"),
        ("mcts:²", "the search's budget is a whole number"),
        ("greedy,mcts:x", "the search's budget is a whole number"),
    ],
)
def test_players_that_name_nobody_or_a_search_budget_out_of_range_are_refused_by_the_parser(
    players: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    play = ["play", "30", "--fast", f"--players={players}"]
    for argv in (play, ["experiment", "--game", "10", "--players", players]):
        assert says in _parse_error(argv, capsys)


def test_a_reader_that_goes_away_ends_a_listing_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class GoneReader(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sys.stdout", GoneReader())
    assert cli.main(["games"]) == 0  # `pyramid games | head -1`: no message, no traceback
    assert capsys.readouterr().err == ""


# -- a window without its extra or without a screen -----------------------------------------------------


@pytest.mark.parametrize("argv", [["view"], ["play", "10", "--view"]], ids=["view", "play-view"])
def test_a_window_without_pyglet_says_which_extra_to_install_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyglet", None)  # as if the view extra were not installed
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"pyramid {argv[0]}: pyglet is not installed; install the view extra: pip install -e '.[view]'\n"


@pytest.mark.parametrize("argv", [["view"], ["play", "10", "--view"]], ids=["view", "play-view"])
def test_a_window_without_a_display_says_what_to_do_instead_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyglet", reason="the view extra")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pyramid {argv[0]}: no display for a window; use xvfb-run") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--physics", "die_shap=1"], "--physics die_shap: unknown key (did you mean 'die_shape'?)"),
        (["--physics", 'die_shape="ball"'], "--physics die_shape: expected one of box, hull, compound, margin"),
        (["--physics", "friction_die=-1"], "--physics friction_die: expected a number >= 0"),
        (["--physics", "friction_die"], "--physics takes KEY=VALUE"),
        (["--physics", "friction_die=0.5", "--physics", "friction_die=0.6"], "--physics friction_die is given twice"),
        (["--fast", "--physics", "friction_die=0.5"], "--fast plays without it"),
        (["--view", "--physics", "friction_die=0.5"], "the window plays with the default physics"),
    ],
)
def test_play_physics_settings_are_checked_before_the_match(
    given: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pyramid.cli.play.start_match", _never("the match"))
    assert cli.main(["play", "10", *given]) == 2
    assert said in capsys.readouterr().err


def test_play_physics_builds_the_match_s_world_with_those_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rounded dice of ``--physics`` are what each of the match's worlds is made of."""
    from pyramid.physics.world import World

    shapes: list[tuple[str, int]] = []
    close = World.close

    def closing(world: World) -> None:  # each of the match's worlds, its dice as they ended
        if world.dice:
            shapes.append((world.physics.die_shape, world.physics.hull_segments))
        close(world)

    monkeypatch.setattr(World, "close", closing)
    base = ["play", "5", "--players", "stack-tower", "--option", "rounds=1", "--seed", "0"]
    assert cli.main([*base, "--physics", 'die_shape="hull"', "--physics", "hull_segments=2"]) == 0
    hulls, shapes[:] = list(shapes), []
    assert cli.main(base) == 0
    assert hulls and set(hulls) == {("hull", 2)}
    assert shapes and {shape for shape, _ in shapes} == {"box"}


def test_locality_physics_reaches_local_and_whole_sides_and_a_bad_key_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pyramid.cli import lab

    seen: dict[str, Any] = {}

    def cases(kinds: Any, seeds: Any, physics: Any = None, **_: Any) -> list[Any]:
        seen["cases"] = physics
        return []

    def figures(seeds: Any, physics: Any = None, **_: Any) -> list[Any]:
        seen["figures"] = physics
        return []

    monkeypatch.setattr(lab, "agreement", cases)
    monkeypatch.setattr(lab, "statistics", figures)
    hull = ["--physics", 'die_shape="hull"', "--physics", "hull_segments=2"]
    assert cli.main(["locality", "--seeds", "1", "--kinds", "lift", "--games", "1", *hull]) == 0
    assert {(p.die_shape, p.hull_segments) for p in seen.values()} == {("hull", 2)}
    assert cli.main(["locality", "--seeds", "1", "--kinds", "lift"]) == 0
    assert seen["cases"] is None and seen["figures"] is None  # the default physics
    capsys.readouterr()
    assert cli.main(["locality", "--seeds", "0", "--physics", 'die_shape="hul"']) == 2
    assert "--physics die_shape: expected one of box, hull" in capsys.readouterr().err
