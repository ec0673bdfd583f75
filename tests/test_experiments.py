"""Experiments: rows reproducible from their seeds in any process and on Dask, an interrupted experiment
resumed to exactly the rows of an uninterrupted one, a summary with confidence intervals, a table and a plot."""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli
from pyramid.cli.experiment import Progress, plan_from_args
from pyramid.lab import experiments
from pyramid.lab.experiments import ExperimentError, Plan, read_rows, run_experiment
from pyramid.lab.scene import load_scene
from pyramid.lab.settings import SettingError, parse_vary
from pyramid.lab.summaries import chi_square_uniform, mean_interval

ROOT = Path(__file__).parent.parent
DIE_THROW = ROOT / "scenes" / "die_throw.toml"


def _plan(seeds: int, heights: tuple[float, ...] = (0.005, 0.1)) -> Plan:
    spec = {"scene": dict(load_scene(DIE_THROW).raw), "source": str(DIE_THROW)}
    return Plan(spec, {"throw.height": list(heights)}, seeds)


def _rows(folder: Path) -> list[dict[str, Any]]:
    return sorted(read_rows(folder / "rows.jsonl"), key=lambda r: r["key"])


def test_parse_vary_reads_lists_ranges_and_words() -> None:
    assert parse_vary("throw.height=0.01,0.02") == ("throw.height", [0.01, 0.02])
    assert parse_vary("physics.edge=0.01:0.02:3") == ("physics.edge", [0.01, 0.015, 0.02])
    assert parse_vary("throw.colour=red,green") == ("throw.colour", ["red", "green"])
    assert parse_vary("start.layers=3") == ("start.layers", [3])
    for bad in ("throw.height", "=1,2", "x=1:2:0", "x=1:2:1.5"):
        with pytest.raises(SettingError, match="--vary"):
            parse_vary(bad)


def test_confidence_intervals_and_chi_square_agree_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    values = [1.0, 2.0, 4.0, 4.5, 7.0, 3.2]
    m = mean_interval(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=m["mean"], scale=stats.sem(values))
    assert (m["low"], m["high"]) == pytest.approx((low, high), rel=1e-3)
    # 0/1 values: Wilson's interval for a proportion (7 of 20).
    p = mean_interval([1.0] * 7 + [0.0] * 13)
    wilson = stats.binomtest(7, 20).proportion_ci(method="wilson")
    assert (p["low"], p["high"]) == pytest.approx((wilson.low, wilson.high), rel=1e-4)
    counts = [95, 110, 102, 88, 120, 85]
    ours = chi_square_uniform(counts)
    theirs = stats.chisquare(counts)
    assert ours["chi2"] == pytest.approx(theirs.statistic) and ours["p"] == pytest.approx(theirs.pvalue, rel=1e-9)
    assert ours["df"] == 5 and math.isnan(chi_square_uniform([0] * 6)["p"])


def test_a_sweep_gives_the_same_rows_for_the_same_seeds_in_any_number_of_processes(tmp_path: Path) -> None:
    plan = _plan(4)
    one = run_experiment(plan, tmp_path / "one", workers=1, plots=False)
    run_experiment(plan, tmp_path / "two", workers=2, plots=False)
    assert one.total == one.ran == 8 and one.resumed == 0
    rows = _rows(tmp_path / "one")
    assert rows == _rows(tmp_path / "two")
    assert [r["key"] for r in rows] == [f"{p}:{s}" for p in range(2) for s in range(4)]
    assert all(r["error"] is None and r["measures"]["thrown.0.top"] in range(1, 7) for r in rows)
    assert {r["params"]["throw.height"] for r in rows} == {0.005, 0.1}
    # The same seed at two heights: the same hand (start face) but its own fall.
    by_key = {r["key"]: r["measures"] for r in rows}
    assert all(by_key[f"0:{s}"]["thrown.0.start_top"] == by_key[f"1:{s}"]["thrown.0.start_top"] for s in range(4))


def test_the_table_summary_and_plot_are_written_with_confidence_intervals(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = run_experiment(_plan(6), tmp_path / "exp", workers=2)
    names = sorted(p.name for p in result.files)
    assert names == ["experiment.json", "rows.csv", "rows.jsonl", "summary.json", "summary.png"]
    with (tmp_path / "exp" / "rows.csv").open() as f:
        table = list(csv.DictReader(f))
    assert len(table) == 12 and {"seed", "throw.height", "thrown.0.top", "thrown.0.kept_top"} <= set(table[0])
    summary = json.loads((tmp_path / "exp" / "summary.json").read_text())
    assert summary["runs"] == 12 and summary["errors"] == 0
    for point in summary["points"]:
        kept = point["measures"]["thrown.0.kept_top"]
        assert kept["n"] == 6 and 0 <= kept["low"] <= kept["mean"] <= kept["high"] <= 1
        faces = point["faces"]["thrown.0.top"]
        assert sum(faces["counts"]) + faces["none"] == 6 and 0 <= faces["p"] <= 1
    png = (tmp_path / "exp" / "summary.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_a_torn_last_line_is_dropped_and_the_rest_kept_byte_for_byte_on_resume(tmp_path: Path) -> None:
    plan = _plan(5)
    run_experiment(plan, tmp_path / "whole", workers=2, plots=False)
    lines = (tmp_path / "whole" / "rows.jsonl").read_text().splitlines(keepends=True)
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "experiment.json").write_text((tmp_path / "whole" / "experiment.json").read_text())
    kept = "".join(lines[:4])
    (cut / "rows.jsonl").write_text(kept + lines[4][: len(lines[4]) // 2])  # killed while writing row 5
    result = run_experiment(plan, cut, workers=2, plots=False)
    assert (result.resumed, result.ran) == (4, 6)
    text = (cut / "rows.jsonl").read_text()
    assert text.startswith(kept)  # nothing already written was lost or rewritten
    assert _rows(cut) == _rows(tmp_path / "whole")  # nothing duplicated, nothing missing


def test_an_experiment_interrupted_with_ctrl_c_resumes_to_the_rows_of_an_uninterrupted_run(tmp_path: Path) -> None:
    runs = 30
    plan = _plan(runs, heights=(0.02,))
    out = tmp_path / "stopped"
    command = [sys.executable, "-m", "pyramid.cli.app", "experiment", str(DIE_THROW), "--vary", "throw.height=0.02"]
    command += ["--seeds", str(runs), "--workers", "2", "--out", str(out), "--no-plots"]
    # Ctrl-C as a terminal sends it, also when this test runs in the background (which ignores SIGINT).
    default_sigint = functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL)
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=default_sigint
    )
    rows_file = out / "rows.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not rows_file.exists() or len(rows_file.read_text().splitlines()) < 5):
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    written = rows_file.read_text()
    stopped_at = len(written.splitlines())
    assert 5 <= stopped_at < runs and "run the same command again to resume" in err
    assert not (out / "summary.json").exists()
    # The same command again: only the missing runs, then the summary.
    assert cli.main(command[3:] + ["--quiet"]) == 0
    assert rows_file.read_text().startswith(written)
    run_experiment(plan, tmp_path / "whole", workers=2, plots=False)
    assert _rows(out) == _rows(tmp_path / "whole")
    assert len({r["key"] for r in _rows(out)}) == runs


def test_another_experiment_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    run_experiment(_plan(1), tmp_path / "exp", workers=1, plots=False)
    with pytest.raises(ExperimentError, match="holds a different experiment"):
        run_experiment(_plan(2), tmp_path / "exp", workers=1, plots=False)
    # The same scene named by another path (from another folder) is the same experiment.
    same = Plan({**_plan(1).spec, "source": "../scenes/die_throw.toml"}, _plan(1).vary, 1)
    assert run_experiment(same, tmp_path / "exp", workers=1, plots=False).resumed == 2


def test_the_dask_engine_on_a_local_cluster_gives_the_rows_of_the_local_processes(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    plan = _plan(3)
    run_experiment(plan, tmp_path / "local", workers=2, plots=False)
    result = run_experiment(plan, tmp_path / "dask", workers=2, engine="dask", plots=False)
    assert result.ran == 6
    assert _rows(tmp_path / "dask") == _rows(tmp_path / "local")


def test_the_dask_engine_without_its_extra_says_how_to_install_it_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if dask were not installed
    with pytest.raises(ExperimentError, match=r"pip install 'pyramid\[dask\]'"):
        run_experiment(_plan(1), tmp_path / "exp", engine="dask")
    assert not (tmp_path / "exp").exists()


def test_games_run_in_bulk_reproducibly_from_their_seeds(tmp_path: Path) -> None:
    spec = {"game": "10", "players": ["greedy", "random", "random"], "fast": True, "options": {}}
    plan = Plan(spec, {}, 3)
    run_experiment(plan, tmp_path / "a", workers=1, plots=False)
    run_experiment(plan, tmp_path / "b", workers=2, plots=False)
    rows = _rows(tmp_path / "a")
    assert rows == _rows(tmp_path / "b") and all(r["error"] is None for r in rows)
    assert all(r["measures"]["termination"] for r in rows) and all("score.0" in r["measures"] for r in rows)


def test_a_game_with_the_wrong_number_of_players_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    assert cli.main(["experiment", "--game", "10", "--players", "greedy,random", "--fast", "--out", str(out)]) == 2
    assert "--game 10 with --players greedy,random: " in capsys.readouterr().err
    assert not out.exists()


def test_the_progress_bar_counts_runs_and_estimates_the_time_left() -> None:
    stream = StringIO()
    bar = Progress(20, done=5, stream=stream)
    for _ in range(15):
        bar.update()
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines[-1].startswith("[" + "#" * 30 + "] 20/20 runs 100%")
    assert 2 <= len(lines) <= 12  # not a line per run: one every tenth
    assert any("s left" in line for line in lines)


def test_experiment_help_teaches_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["experiment", "--help"])
    text = capsys.readouterr().out
    for phrase in ("--vary", "--seeds", "--engine", "resumes", "examples:", "summary.png", "confidence"):
        assert phrase in text


def test_a_failing_run_is_a_row_with_its_error_not_the_end_of_the_experiment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = experiments.run_scene

    def fails_for_seed_1(scene: Any, seed: int | None = None, **kwargs: Any) -> dict[str, Any]:
        if seed == 1:
            raise RuntimeError("the world broke")
        return real(scene, seed, **kwargs)

    monkeypatch.setattr(experiments, "run_scene", fails_for_seed_1)
    result = run_experiment(_plan(3, heights=(0.01,)), tmp_path / "exp", workers=1, plots=False)
    rows = _rows(tmp_path / "exp")
    assert [r["error"] for r in rows] == [None, "RuntimeError: the world broke", None]
    assert result.summary["errors"] == 1 and result.summary["points"][0]["runs"] == 2
    assert math.isnan(mean_interval([])["mean"])


@pytest.mark.slow
def test_a_few_hundred_runs_finish_with_their_summary_and_plot(tmp_path: Path) -> None:
    out = tmp_path / "exp"
    code = cli.main(
        ["experiment", str(DIE_THROW), "--vary", "throw.height=0.005,0.04,0.16", "--seeds", "100", "--out", str(out)]
    )
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["runs"] == 300 and summary["errors"] == 0
    kept = [p["measures"]["thrown.0.kept_top"]["mean"] for p in summary["points"]]
    assert kept[0] > kept[2]  # low throws remember their start face
    assert (out / "summary.png").stat().st_size > 10_000
    assert os.path.getsize(out / "rows.csv") > 0


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("6", ["careful"]),
        ("dice mikado", ["careful"]),
        ("10", ["greedy", "random", "random"]),
        ("decathlon", ["optimal", "random"]),
    ],
)
def test_an_experiment_on_a_game_without_players_seats_them_as_play_does(game: str, seats: list[str]) -> None:
    args = cli.build_parser().parse_args(["experiment", "--game", game, "--seeds", "3"])
    plan, folder = plan_from_args(args)
    assert plan.spec["players"] == seats and len(plan.jobs()) == 3
    assert folder.endswith("_".join(seats))


def test_a_hand_that_does_not_play_the_game_is_refused_before_anything_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["experiment", "--game", "6", "--players", "flick", "--seeds", "1"]) == 2
    err = capsys.readouterr().err
    assert "--game 6 with --players flick" in err and "careful, bottom, random" in err and "tilt" not in err


def test_a_game_s_matches_run_with_the_physics_set_and_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--set physics.KEY`` and ``--vary physics.KEY`` with --game: every match's worlds are built with them."""
    from pyramid.physics.world import World

    built: list[tuple[str, int]] = []
    close = World.close

    def closing(world: World) -> None:
        if world.dice:
            built.append((world.physics.die_shape, world.physics.hull_segments))
        close(world)

    monkeypatch.setattr(World, "close", closing)
    out = tmp_path / "exp"
    argv = ["experiment", "--game", "5", "--players", "stack-tower", "--option", "rounds=1", "--seeds", "2"]
    argv += ["--set", "physics.hull_segments=2", "--vary", "physics.die_shape=box,hull", "--workers", "1"]
    assert cli.main([*argv, "--out", str(out), "--quiet", "--no-plots"]) == 0
    rows = _rows(out)
    assert [r["params"] for r in rows] == [{"physics.die_shape": s} for s in ("box", "box", "hull", "hull")]
    assert all(r["error"] is None for r in rows)
    assert {shape for shape, _ in built} == {"box", "hull"} and {n for _, n in built} == {2}


def test_a_row_holds_python_numbers_as_its_json_line_reads_back() -> None:
    """A game's score can be numpy's (Emag measures its tower with numpy): the row's checks take only what JSON
    gives back, and took np.float64(4.13) for a bad measure."""
    import numpy as np

    from pyramid.lab.experiments import flatten
    from pyramid.lab.row_checks import game_rules

    row = flatten({"score": [np.float64(4.13), np.int64(2)], "win": [np.bool_(True), False], "termination": "x"})
    assert row == {"score.0": 4.13, "score.1": 2, "win.0": True, "win.1": False, "termination": "x"}
    assert [type(row[k]) for k in ("score.0", "score.1", "win.0")] == [float, int, bool]
    rules = game_rules(2, table=False)
    score = next(r for r in rules if r.pattern.startswith("score"))
    assert score.check(row["score.0"]) and not score.check(np.float64(4.13))
