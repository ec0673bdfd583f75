"""Experiment folders owned and checked: one experiment at a time, every row checked on resume, a bad
line set aside with its line number and never the good rows after it, duplicates counted once, failed runs
kept or retried, a broken experiment.json named. The runs are stand-ins (no physics): rows from the seed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli
from pyramid.lab import experiments
from pyramid.lab.experiment_folder import SET_ASIDE, FolderLock, row_problem, scan_rows
from pyramid.lab.experiments import ExperimentError, Job, Plan, job_row, run_experiment
from pyramid.lab.row_checks import Expected, measure_rules, spec_digest

GAME = {"game": "10", "players": ["greedy", "random", "random"], "fast": True, "options": {}}
SEEDS = 6


def fake_row(job: Job) -> dict[str, Any]:
    """A row as ``run_job`` makes it, from the seed alone."""
    measures = {"score.0": float(job.seed * 3 % 7), "win.0": job.seed % 2 == 0, "termination": "pyramid_complete"}
    return job_row(job, measures)


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The runs are stand-ins; returns the keys run, in order."""
    keys: list[str] = []

    def run_job(job: Job) -> dict[str, Any]:
        keys.append(job.key)
        return fake_row(job)

    monkeypatch.setattr(experiments, "run_job", run_job)
    return keys


def _plan() -> Plan:
    return Plan(GAME, {}, SEEDS)


def _lines(folder: Path) -> list[str]:
    return (folder / "rows.jsonl").read_text().splitlines()


def _whole(tmp_path: Path) -> Path:
    """A finished experiment of SEEDS runs."""
    folder = tmp_path / "whole"
    run_experiment(_plan(), folder, workers=1, plots=False)
    return folder


def _say() -> tuple[list[str], Callable[[str], None]]:
    said: list[str] = []
    return said, said.append


# -- one experiment at a time --------------------------------------------------------------------------


def test_a_second_experiment_on_a_held_folder_is_refused_naming_the_holder(tmp_path: Path, ran: list[str]) -> None:
    folder = tmp_path / "exp"
    folder.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom pathlib import Path\nfrom pyramid.lab.experiment_folder import "
            "FolderLock\nwith FolderLock(Path(sys.argv[1])):\n    print('held', flush=True)\n    time.sleep(60)\n",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(ExperimentError, match=rf"in use by another experiment \(pid {holder.pid} on "):
            run_experiment(_plan(), folder, workers=1, plots=False)
        assert ran == [] and sorted(p.name for p in folder.iterdir()) == ["lock"]
    finally:
        holder.kill()
        holder.wait()
    # A holder that died holds nothing: its lock file is taken over.
    assert run_experiment(_plan(), folder, workers=1, plots=False).ran == SEEDS
    assert not (folder / "lock").exists()


def test_the_cli_refuses_a_held_folder_in_one_line(tmp_path: Path, ran: list[str], capsys: Any) -> None:
    folder = tmp_path / "exp"
    folder.mkdir()
    with FolderLock(folder):
        argv = ["experiment", "--game", "10", "--players", "greedy,random,random", "--fast", "--seeds", "2"]
        assert cli.main([*argv, "--out", str(folder), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"pyramid experiment: {folder} is in use by another experiment (pid ")
    assert ran == []


# -- rows checked on resume ----------------------------------------------------------------------------

BAD_LINES = [
    ("garbage", "this is not json", "not JSON"),
    ("empty", "", "empty"),
    ("a list", "[1, 2]", "not a row (a JSON object), but list"),
    ("null", "null", "not a row (a JSON object), but NoneType"),
    ("a number", "3.5", "but float"),
    (
        "a string measures",
        '{"key": "0:9", "point": 0, "seed": 9, "params": {}, "measures": "x", "error": null}',
        "params and measures are JSON objects",
    ),
    (
        "a non-numeric point",
        '{"key": "a:1", "point": "a", "seed": 1, "params": {}, "measures": {}, "error": null}',
        "point and seed are whole numbers",
    ),
    ("no key", '{"point": 0, "seed": 1, "params": {}, "measures": {}, "error": null}', "a row without key"),
    (
        "a key that lies",
        '{"key": "0:1", "point": 0, "seed": 2, "params": {}, "measures": {}, "error": null}',
        "is not point:seed",
    ),
    (
        "another experiment's run",
        '{"key": "3:0", "point": 3, "seed": 0, "params": {"x": 1}, "measures": {}, "error": null}',
        "run 3:0 is not one of this experiment's",
    ),
    (
        "other settings",
        '{"key": "0:0", "point": 0, "seed": 0, "params": {"x": 1}, "measures": {}, "error": null}',
        "has other settings",
    ),
    (
        "an error that is a number",
        '{"key": "0:0", "point": 0, "seed": 0, "params": {}, "measures": {}, "error": 5}',
        "error is a message or null",
    ),
    ("nested 10,000 deep", "[" * 10_000 + "]" * 10_000, "not JSON"),
]


@pytest.mark.parametrize("case, line, why", BAD_LINES, ids=[c[0] for c in BAD_LINES])
def test_a_bad_line_in_the_middle_is_set_aside_with_its_number_and_no_good_row_is_lost(
    case: str, line: str, why: str, tmp_path: Path, ran: list[str]
) -> None:
    good = _lines(_whole(tmp_path))
    folder = tmp_path / "damaged"
    folder.mkdir()
    (folder / "experiment.json").write_text((tmp_path / "whole" / "experiment.json").read_text())
    (folder / "rows.jsonl").write_text("\n".join([*good[:2], line, *good[2:4]]) + "\n")
    ran.clear()
    said, say = _say()
    result = run_experiment(_plan(), folder, workers=1, plots=False, say=say)
    assert (result.resumed, result.ran) == (4, SEEDS - 4)  # the two rows after the bad line were kept
    assert sorted(ran) == ["0:4", "0:5"]
    assert sorted(_lines(folder)) == sorted(good)  # nothing lost, nothing doubled
    assert said[0].startswith(f"{folder / 'rows.jsonl'} line 3: ") and why in said[0], said
    aside = [json.loads(x) for x in (folder / SET_ASIDE).read_text().splitlines()]
    assert aside == [{"file": "rows.jsonl", "line": 3, "why": aside[0]["why"], "text": line}]


def test_duplicated_rows_are_counted_once_and_reported(tmp_path: Path, ran: list[str]) -> None:
    whole = _whole(tmp_path)
    good = _lines(whole)
    (whole / "rows.jsonl").write_text("\n".join([*good, good[0], good[3], good[3]]) + "\n")
    ran.clear()
    said, say = _say()
    result = run_experiment(_plan(), whole, workers=1, plots=False, say=say)
    assert (result.resumed, result.ran, result.summary["runs"]) == (SEEDS, 0, SEEDS)  # not 9 runs of 6
    assert _lines(whole) == good and ran == []
    assert any("3 rows of runs already written (duplicates) counted once" in s for s in said), said
    assert len((whole / SET_ASIDE).read_text().splitlines()) == 3


def test_two_experiments_racing_leave_each_run_once(tmp_path: Path, ran: list[str]) -> None:
    """What two unlocked experiments wrote (every row twice, interleaved) resumes to each run once."""
    whole = _whole(tmp_path)
    good = _lines(whole)
    (whole / "rows.jsonl").write_text("\n".join(x for pair in zip(good, good, strict=True) for x in pair) + "\n")
    result = run_experiment(_plan(), whole, workers=1, plots=False)
    assert result.summary["runs"] == SEEDS and _lines(whole) == good


def test_a_torn_last_line_is_set_aside_and_its_run_done_again(tmp_path: Path, ran: list[str]) -> None:
    whole = _whole(tmp_path)
    good = _lines(whole)
    (whole / "rows.jsonl").write_text("\n".join(good[:3]) + "\n" + good[3][:20])
    ran.clear()
    said, say = _say()
    result = run_experiment(_plan(), whole, workers=1, plots=False, say=say)
    assert (result.resumed, sorted(ran)) == (3, ["0:3", "0:4", "0:5"])
    assert "line 4: cut short (an interrupted write)" in said[0]
    assert sorted(_lines(whole)) == sorted(good)


def test_a_failed_run_is_reported_by_default_and_run_again_when_asked(
    tmp_path: Path, ran: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _whole(tmp_path)
    good = _lines(whole)
    failed = {**json.loads(good[2]), "measures": {}, "error": "RuntimeError: the world broke"}
    (whole / "rows.jsonl").write_text("\n".join([*good[:2], json.dumps(failed), *good[3:]]) + "\n")
    ran.clear()
    said, say = _say()
    result = run_experiment(_plan(), whole, workers=1, plots=False, say=say)
    assert (result.ran, ran, result.summary["errors"]) == (0, [], 1)
    assert "1 run already written ended with an error: kept as they are (--retry-failed runs them again)" in said
    result = run_experiment(_plan(), whole, workers=1, plots=False, retry_failed=True)
    assert (result.resumed, result.ran, ran, result.summary["errors"]) == (SEEDS - 1, 1, ["0:2"], 0)
    assert sorted(_lines(whole)) == sorted(good)  # the failed row moved aside, its retry in its place
    assert "run 0:2 failed here and was run again" in (whole / SET_ASIDE).read_text()


def test_retry_failed_is_a_documented_flag(tmp_path: Path, ran: list[str], capsys: Any) -> None:
    with pytest.raises(SystemExit):
        cli.main(["experiment", "--help"])
    out = capsys.readouterr().out
    assert "--retry-failed" in out and "rows.set_aside.jsonl" in out


@pytest.mark.parametrize(
    "text, said",
    [
        ("[1, 2]", "expected a JSON object (the experiment's plan), got list"),
        ("null", "expected a JSON object (the experiment's plan), got NoneType"),
        ('{"spec": ', "not valid JSON"),
        ("", "not valid JSON"),
    ],
    ids=["a list", "null", "cut short", "empty"],
)
def test_an_unusable_experiment_json_is_named(tmp_path: Path, ran: list[str], text: str, said: str) -> None:
    folder = tmp_path / "exp"
    folder.mkdir()
    (folder / "experiment.json").write_text(text)
    with pytest.raises(ExperimentError) as caught:
        run_experiment(_plan(), folder, workers=1, plots=False)
    assert str(caught.value).startswith(f"{folder / 'experiment.json'}: {said}")
    assert ran == [] and (folder / "experiment.json").read_text() == text


def test_a_refused_scheduler_leaves_no_experiment_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed")

    def refused(*args: Any) -> None:
        time.sleep(0.01)
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:1 after 30 s")

    monkeypatch.setattr(experiments, "run_dask", refused)
    with pytest.raises(OSError):
        run_experiment(_plan(), tmp_path / "exp", engine="dask", address="tcp://127.0.0.1:1", plots=False)
    assert not (tmp_path / "exp").exists()


def test_row_checks_name_what_is_wrong() -> None:
    row = {**fake_row(Job("0:1", 0, 1, {}, GAME)), "spec": spec_digest(GAME)}
    expected = Expected({"0:1": {}}, spec_digest(GAME), measure_rules(GAME))
    assert row_problem(row) == "" and row_problem(row, expected) == ""
    assert row_problem({**row, "seed": True}).startswith("point and seed are whole numbers")
    assert row_problem({**row, "measures": {"a": [1]}}) == "a measure is a number, true/false, a string or null"
    assert scan_rows(Path("/nonexistent/rows.jsonl")).rows == []
