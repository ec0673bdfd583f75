"""Bounds on what a user can make unbounded: search budgets, files read, typed lines, a window without a
display, an empty ``--out``. Each is refused in one line (exit 2) or answered with a line and a new prompt."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest
from test_hardening import no_simulation, refused

from pyramid.agents.players import MCTS_MOST, mcts_budget
from pyramid.cli import app as cli
from pyramid.files import FileRefused, json_depth, parse_json, read_bytes, read_json
from pyramid.physics.tables import TableFileError, load_table

__all__ = ["no_simulation"]  # the fixture, used by name


# -- search budgets ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["mcts:1000000000000", f"mcts:{MCTS_MOST + 1}", "mcts:0", "mcts:²", "mcts:-3"])
def test_a_search_budget_past_the_cap_is_refused(kind: str) -> None:
    with pytest.raises(ValueError, match=rf"budget is a whole number of simulations from 1 to {MCTS_MOST:,}"):
        mcts_budget(kind)
    assert mcts_budget(f"mcts:{MCTS_MOST}") == MCTS_MOST


def test_the_issues_endless_search_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(["play", "30", "--players", "mcts:1000000000000,greedy", "--fast"], capsys)
    assert "player 'mcts:1000000000000': the search's budget is a whole number of simulations from 1 to" in line


def test_an_experiment_with_an_endless_search_is_refused_before_it_runs(
    tmp_path: Path, no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    argv = ["experiment", "--game", "30", "--players", "mcts:99999999,greedy", "--fast", "--out", str(out)]
    assert "budget is a whole number of simulations from 1 to" in refused(argv, capsys)
    assert not out.exists()


# -- files ---------------------------------------------------------------------------------------------------------


def _refused_without_waiting(argv: list[str], capsys: pytest.CaptureFixture[str], fifo: Path | None = None) -> str:
    said: list[str] = []
    worker = threading.Thread(target=lambda: said.append(refused(argv, capsys)), daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():
        if fifo is not None:  # free the reader: a failed test must not hang the suite
            with open(fifo, "w"):
                pass
        pytest.fail(f"{argv} did not answer")
    return said[0]


def test_view_load_of_a_fifo_is_refused_without_waiting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "table.json"
    os.mkfifo(fifo)
    line = _refused_without_waiting(["view", "--load", str(fifo)], capsys, fifo)
    assert line == (
        f"pyramid view: {fifo}: cannot be read: not a regular file (a pipe, a socket or a device); "
        "a table is the JSON `pyramid view` saves with Ctrl+S"
    )


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda p: Path("/dev/zero"), "cannot be read: not a regular file"),
        (lambda p: p, "cannot be read: a folder"),
        (lambda p: _write(p / "deep.json", "[" * 100_000 + "]" * 100_000), "nested too deeply (at most 64)"),
        (lambda p: _write(p / "big.json", " " * 10_000_001), "larger than 10,000,000 bytes"),
        (lambda p: _write(p / "nan.json", '{"dice": NaN}'), "not valid JSON: NaN is not a JSON number"),
        (lambda p: _write(p / "bad.json", '{"dice": '), "not valid JSON (line 1, column 10"),
    ],
    ids=["/dev/zero", "folder", "100,000 deep", "10 MB", "NaN", "cut short"],
)
def test_view_load_reads_regular_files_within_bounds(
    make: object, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    line = _refused_without_waiting(["view", "--load", str(path)], capsys)
    assert line.startswith(f"pyramid view: {path}: ") and said in line, line
    with pytest.raises(TableFileError):
        load_table(path)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_json_depth_counts_brackets_outside_strings_only() -> None:
    assert json_depth('{"a": [1, {"b": "[[[["}]}') == 3
    assert json_depth('["\\"[[", []]') == 2
    assert parse_json("[[1]]", max_depth=2) == [[1]]
    with pytest.raises(FileRefused, match="nested too deeply"):
        parse_json("[[[1]]]", max_depth=2)


def test_read_bytes_takes_a_regular_file_up_to_its_limit(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.json", json.dumps({"x": 1}))
    assert read_json(path, 100) == {"x": 1} and read_bytes(path, 8) == b'{"x": 1}'
    with pytest.raises(FileRefused, match="larger than 7 bytes"):
        read_bytes(path, 7)
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "none.json", 7)


# -- a window without a display; an empty --out --------------------------------------------------------------------


def test_demo_gui_without_a_display_is_a_one_line_refusal(
    tmp_path: Path, no_simulation: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.chdir(tmp_path)
    line = refused(["demo", "--gui"], capsys)
    assert line == (
        "pyramid demo: --gui: PyBullet's window needs a display and DISPLAY is not set; leave out --gui "
        "(everything else runs headless), or run under xvfb-run"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [["assets"], ["run", "die_throw"], ["experiment", "--game", "10", "--fast"], ["experiment", "die_throw"]],
    ids=["assets", "run", "experiment-game", "experiment-scene"],
)
@pytest.mark.parametrize("out", ["", "  "], ids=["empty", "blank"])
def test_an_empty_out_is_refused_not_read_as_this_folder(
    argv: list[str],
    out: str,
    tmp_path: Path,
    no_simulation: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    line = refused([*argv, "--out", out], capsys)
    assert "argument --out: give a folder's name (an empty one would write into the current folder)" in line
    assert list(tmp_path.iterdir()) == []


def test_a_board_game_at_the_terminal_asks_again_after_odd_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["²", "9" * 5000, "a1", *["1"] * 400]) + "\n"))
    assert cli.main(["play", "39", "--fast", "--players", "human,greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "please type numbers with the digits 0 to 9: '²' is not one of them" in out
    assert "please type at most 200 characters (that line has 5,000)" in out
    assert "   1. player 0 (human): remove (0, 0, 0)" in out and ("wins (" in out or "share the win (" in out)


# -- a sweep that would drop a value or change nothing ------------------------------------------------------------

SWEEP_CORPUS = [
    (
        ["die_throw", "--set", "throw.height=0.1", "--vary", "throw.height=0.2,0.3"],
        "--vary throw.height and --set throw.height set the same key (timeline[0].height); give it once",
    ),
    (
        ["die_throw", "--set", "timeline.0.height=0.1", "--vary", "throw.height=0.2,0.3"],
        "--vary throw.height and --set timeline.0.height set the same key (timeline[0].height)",
    ),
    (
        ["die_throw", "--vary", "scene.seed=1,2"],
        "--vary scene.seed: sweeps a key that changes nothing: every run takes its seed from --seeds and --first-seed",
    ),
    (["die_throw", "--vary", "scene.name=a,b"], "--vary scene.name: sweeps a key that changes nothing"),
    (["die_throw", "--vary", "throw.height=0.1,0.1"], "--vary throw.height: the value 0.1 is given twice"),
    (
        ["--game", "14", "--fast", "--option", "rounds=3", "--vary", "rounds=1,2"],
        "--vary rounds and --option rounds name the same option; give it once",
    ),
    (["--game", "14", "--fast", "--vary", "rounds=2,2"], "--vary rounds: the value 2 is given twice"),
]


@pytest.mark.parametrize("argv, said", SWEEP_CORPUS, ids=[" ".join(a) for a, _ in SWEEP_CORPUS])
def test_a_sweep_that_drops_a_value_or_changes_nothing_is_refused(
    argv: list[str],
    said: str,
    tmp_path: Path,
    no_simulation: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    line = refused(["experiment", *argv], capsys)
    assert line.startswith(f"pyramid experiment: {said}"), line
    assert list(tmp_path.iterdir()) == []
