"""A row counts only as a row of its experiment: the digest of the experiment's spec in every row, each
measure of the type and range its scene (or game) gives; a row that lies is set aside with its line number and why,
the summary says how many, and an experiment with failed runs exits non-zero saying how many."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli
from pyramid.lab import experiments
from pyramid.lab.experiment_folder import SET_ASIDE
from pyramid.lab.experiments import Job, Plan, job_row, run_experiment
from pyramid.lab.row_checks import measure_problem, measure_rules, spec_digest
from pyramid.lab.scene import load_scene

SEEDS = 4
GAME = {"game": "10", "players": ["greedy", "random", "random"], "fast": True, "options": {}}


def thrown_row(job: Job) -> dict[str, Any]:
    """A row as a run of die_throw makes it, from the seed alone (no physics)."""
    measures = {
        "at_rest": True,
        "start_time_to_rest": 0.0,
        "thrown.0.die": 0,
        "thrown.0.kept_top": job.seed % 2 == 0,
        "thrown.0.slot": None,
        "thrown.0.start_top": 1 + job.seed % 6,
        "thrown.0.status": "lying",
        "thrown.0.top": 1 + (job.seed * 5) % 6,
        "time_to_rest": 0.5 + job.seed / 10,
    }
    return job_row(job, measures)


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The scene's runs are stand-ins; returns the keys run, in order."""
    keys: list[str] = []

    def run_job(job: Job) -> dict[str, Any]:
        keys.append(job.key)
        return thrown_row(job)

    monkeypatch.setattr(experiments, "run_job", run_job)
    return keys


def _plan(height: float = 0.1) -> Plan:
    scene = load_scene("die_throw", {"throw.height": height})
    return Plan({"scene": dict(scene.raw), "source": "die_throw"}, {}, SEEDS)


def _lines(folder: Path) -> list[str]:
    return (folder / "rows.jsonl").read_text().splitlines()


def _lying(line: str, **measures: Any) -> str:
    row = json.loads(line)
    row["measures"].update(measures)
    return json.dumps(row)


def test_every_row_carries_the_digest_of_its_experiments_spec(tmp_path: Path, ran: list[str]) -> None:
    plan = _plan()
    run_experiment(plan, tmp_path / "exp", workers=1, plots=False)
    rows = [json.loads(line) for line in _lines(tmp_path / "exp")]
    assert {r["spec"] for r in rows} == {spec_digest(plan.spec)} and len(rows) == SEEDS
    assert spec_digest(plan.spec) != spec_digest(_plan(0.2).spec)  # another throw height, another experiment
    assert spec_digest(plan.spec) == spec_digest({**plan.spec, "source": "elsewhere/die_throw.toml"})


# (case, how the third row is damaged, the reason given)
LIES = [
    ("a measure as a string", lambda line: _lying(line, time_to_rest="0.5"), "measure time_to_rest is '0.5'"),
    ("a measure NaN", lambda line: line.replace('"time_to_rest": 0.7', '"time_to_rest": NaN'), "NaN is not a JSON"),
    ("a measure Infinity", lambda line: line.replace('"time_to_rest": 0.7', '"time_to_rest": Infinity'), "Infinity"),
    ("a face of 9", lambda line: _lying(line, **{"thrown.0.top": 9}), "measure thrown.0.top is 9; expected a face"),
    ("a face of 0", lambda line: _lying(line, **{"thrown.0.start_top": 0}), "expected a face, 1 to 6"),
    ("a face of True", lambda line: _lying(line, **{"thrown.0.top": True}), "measure thrown.0.top is True"),
    ("a measure the scene lacks", lambda line: _lying(line, seated=3), "measure 'seated' is not one this experiment"),
    ("a negative time", lambda line: _lying(line, time_to_rest=-1.0), "expected a finite number from 0 to"),
    ("a status no die has", lambda line: _lying(line, **{"thrown.0.status": "flying"}), "expected one of seated"),
    ("no spec", lambda line: json.dumps({k: v for k, v in json.loads(line).items() if k != "spec"}), "without spec"),
    ("another experiment's", lambda line: line.replace(json.loads(line)["spec"], "0" * 16), "of another experiment"),
    (
        "a game's row",
        lambda line: json.dumps({**json.loads(line), "measures": {"score.0": 4.0, "win.0": True}}),
        "measure 'score.0' is not one this experiment measures",
    ),
]


@pytest.mark.parametrize("case, damage, why", LIES, ids=[c[0] for c in LIES])
def test_a_row_that_lies_is_set_aside_with_its_line_and_why_and_run_again(
    case: str, damage: Any, why: str, tmp_path: Path, ran: list[str]
) -> None:
    folder = tmp_path / "exp"
    run_experiment(_plan(), folder, workers=1, plots=False)
    good = _lines(folder)
    (folder / "rows.jsonl").write_text("\n".join([*good[:2], damage(good[2]), good[3]]) + "\n")
    ran.clear()
    said: list[str] = []
    result = run_experiment(_plan(), folder, workers=1, plots=False, say=said.append)
    assert ran == ["0:2"] and sorted(_lines(folder)) == sorted(good)  # nothing lost, nothing doubled
    assert said[0].startswith(f"{folder / 'rows.jsonl'} line 3: ") and why in said[0], said
    assert result.summary["set_aside"] == 1 and result.summary["runs"] == SEEDS
    aside = [json.loads(x) for x in (folder / SET_ASIDE).read_text().splitlines()]
    assert [(a["line"], why in a["why"]) for a in aside] == [(3, True)]


def test_the_row_of_an_experiment_with_another_throw_height_is_not_counted(tmp_path: Path, ran: list[str]) -> None:
    """The issue's example: the swept keys alike (none), the scene not: only the spec's digest tells them apart."""
    run_experiment(_plan(0.2), tmp_path / "other", workers=1, plots=False)
    folder = tmp_path / "exp"
    run_experiment(_plan(0.1), folder, workers=1, plots=False)
    (folder / "rows.jsonl").write_text("\n".join([*_lines(folder)[:2], *_lines(tmp_path / "other")[2:]]) + "\n")
    said: list[str] = []
    result = run_experiment(_plan(0.1), folder, workers=1, plots=False, say=said.append)
    assert result.ran == 2 and result.summary["set_aside"] == 2
    assert all("a row of another experiment" in s for s in said[:2]), said


def test_the_summary_says_how_many_lines_were_set_aside(
    tmp_path: Path, ran: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "exp"
    argv = ["experiment", "die_throw", "--set", "throw.height=0.1", "--seeds", str(SEEDS), "--workers", "1"]
    argv += ["--out", str(folder), "--quiet", "--no-plots"]
    assert cli.main(argv) == 0
    good = _lines(folder)
    (folder / "rows.jsonl").write_text("\n".join([good[0], "garbage", _lying(good[1], pips=3), *good[2:]]) + "\n")
    capsys.readouterr()
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert f"{SEEDS} runs, 0 with errors; 2 lines of rows.jsonl set aside (rows.set_aside.jsonl)" in out
    assert json.loads((folder / "summary.json").read_text())["set_aside"] == 2


def test_an_experiment_with_failed_runs_exits_non_zero_saying_how_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def run_job(job: Job) -> dict[str, Any]:
        row = thrown_row(job)
        return {**row, "measures": {}, "error": "RuntimeError: broke"} if job.seed % 2 else row

    monkeypatch.setattr(experiments, "run_job", run_job)
    folder = tmp_path / "exp"
    argv = ["experiment", "die_throw", "--seeds", str(SEEDS), "--workers", "1", "--out", str(folder), "--quiet"]
    assert cli.main([*argv, "--no-plots"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        err[-1]
        == f"2 of {SEEDS} runs failed: each row's error is in {folder / 'rows.jsonl'} (--retry-failed runs them again)"
    )
    monkeypatch.setattr(experiments, "run_job", lambda job: {**thrown_row(job), "error": "RuntimeError: all"})
    every = tmp_path / "every"
    assert (
        cli.main(
            ["experiment", "die_throw", "--seeds", "3", "--workers", "1", "--out", str(every), "--quiet", "--no-plots"]
        )
        == 1
    )
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("3 of 3 runs failed")


def test_a_run_that_measures_what_cannot_be_is_written_as_a_failed_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def run_job(job: Job) -> dict[str, Any]:
        row = thrown_row(job)
        row["measures"]["time_to_rest"] = math.nan if job.seed == 1 else row["measures"]["time_to_rest"]
        return row

    monkeypatch.setattr(experiments, "run_job", run_job)
    result = run_experiment(_plan(), tmp_path / "exp", workers=1, plots=False)
    assert result.summary["errors"] == 1
    rows = {json.loads(x)["key"]: json.loads(x) for x in _lines(tmp_path / "exp")}
    assert rows["0:1"]["measures"] == {} and rows["0:1"]["error"].startswith(
        "MeasureError: measure time_to_rest is nan"
    )
    assert "NaN" not in (tmp_path / "exp" / "rows.jsonl").read_text()


def test_the_measures_of_every_game_and_scene_row_fit_their_rules() -> None:
    rules = measure_rules(GAME)
    good = {"score.0": 40.0, "score.2": -1, "win.1": True, "termination": "pyramid_complete", "turns": 165}
    assert measure_problem(good, rules) == ""
    assert "not one this experiment measures" in measure_problem({"score.3": 1.0}, rules)  # a fourth seat of three
    assert "expected one of" in measure_problem({"termination": "tired"}, rules)
    assert "expected a finite number" in measure_problem({"score.0": math.inf}, rules)
    scene = measure_rules({"scene": {"scene": {"measure": ["readout", "score"]}}})
    assert measure_problem({"seated": 165, "faces.red": 45, "pips": 500, "pyramid": "R123"}, scene) == ""
    assert "expected a whole number from 0 to 281" in measure_problem({"seated": 300}, scene)
