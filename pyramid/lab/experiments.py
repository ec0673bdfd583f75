"""Experiments: many seeded runs of a scene (over a sweep of its settings) or of a game, in parallel.

Sits on top of the flow: each run is ``runner.run_scene`` or a ``play.Match``, rebuilt in a worker
from plain data and a seed, so the same seed gives the same row in any process, on any engine. Rows
go to JSON lines as they finish (an interrupted experiment resumes from them), then to a CSV table,
a summary with 95% confidence intervals and a plot (``summaries``).
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
import math
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyramid.agents.seats import make_seat
from pyramid.lab.experiment_folder import ExperimentError as ExperimentError  # re-exported: the experiments' error
from pyramid.lab.experiment_folder import (
    FolderLock,
    read_manifest,
    row_problem,
    scan_rows,
    tidy_rows,
    write_manifest,
)
from pyramid.lab.provenance import provenance, warnings
from pyramid.lab.row_checks import Expected, measure_rules, spec_digest
from pyramid.lab.runner import run_scene
from pyramid.lab.scene import physics_settings, scene_from_dict
from pyramid.lab.summaries import plot_summary, plural, summarise
from pyramid.lab.workers import WorkerLost as WorkerLost  # re-exported: a run lost with its worker
from pyramid.lab.workers import require_dask, run_dask, run_local
from pyramid.lab.workers import stop_signals as stop_signals  # re-exported for the command line
from pyramid.play import start_match
from pyramid.registry import find_game
from pyramid.rules import Game
from pyramid.tablegames.base import TableGame

ENGINES = ("local", "dask")
MAX_POINTS = 10_000  # settings of a sweep
MAX_RUNS = 1_000_000  # runs of an experiment: settings x seeds
PROVENANCE = "provenance"  # experiment.json's record of the machine and physics stack it was started on


@dataclass(frozen=True)
class Job:
    """One run: which sweep point, which seed, and everything a worker needs to rebuild it."""

    key: str
    point: int
    seed: int
    params: dict[str, Any]
    spec: dict[str, Any]  # {"scene": raw TOML dict, "source": path} or {"game": name, "players": [...], ...}


@dataclass(frozen=True)
class Plan:
    """What an experiment runs: a scene and its sweep, or a game and its players; and the seeds."""

    spec: dict[str, Any]
    vary: dict[str, list[Any]]
    seeds: int
    first_seed: int = 0

    def check_size(self) -> None:
        """Raise ExperimentError if the sweep has more than MAX_POINTS points or the plan more than MAX_RUNS runs."""
        points = math.prod(len(values) for values in self.vary.values())
        if points > MAX_POINTS or points * self.seeds > MAX_RUNS:
            sizes = " x ".join(f"{len(v)} ({k})" for k, v in self.vary.items()) or "1"
            raise ExperimentError(
                f"--vary and --seeds: {sizes} settings x {self.seeds} seeds = {points * self.seeds:,} runs; "
                f"an experiment has at most {MAX_POINTS:,} settings and {MAX_RUNS:,} runs"
            )

    def points(self) -> list[dict[str, Any]]:
        """Every combination of the swept values (one empty point without a sweep)."""
        keys = list(self.vary)
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*self.vary.values())]

    def jobs(self) -> list[Job]:
        """All runs: every point with every seed."""
        return [
            Job(f"{p}:{s}", p, s, params, self.spec)
            for p, params in enumerate(self.points())
            for s in range(self.first_seed, self.first_seed + self.seeds)
        ]


# -- one run, in any process ------------------------------------------------------------------


def run_job(job: Job) -> dict[str, Any]:
    """Run one job and return its row (``job_row``)."""
    try:
        measures = _run_scene_job(job) if "scene" in job.spec else _run_game_job(job)
        return job_row(job, flatten(measures))
    except Exception as err:  # one failing run is recorded, not fatal to the experiment
        return job_row(job, {}, f"{type(err).__name__}: {err}")


def job_row(job: Job, measures: dict[str, Any], error: str | None = None) -> dict[str, Any]:
    """The row of ``job``: key, point, seed, params, its flat ``measures`` and ``error`` (None if it ran)."""
    return {
        "key": job.key,
        "point": job.point,
        "seed": job.seed,
        "params": job.params,
        "measures": measures,
        "error": error,
    }


def _run_scene_job(job: Job) -> dict[str, Any]:
    scene = scene_from_dict(job.spec["scene"], job.spec["source"], job.params)
    return run_scene(scene, seed=job.seed)["measures"]


def _run_game_job(job: Job) -> dict[str, Any]:
    """One seeded match of any game (board, skill or table) with its bots, as ``pyramid play`` sets it up."""
    spec = job.spec
    game_cls = find_game(spec.get("game") or spec["table_game"])
    swept, moved = split_physics(job.params)
    options = {**spec.get("options", {}), **{k: str(v) for k, v in swept.items()}}
    settings = {**spec.get("physics", {}), **moved}
    physics = physics_settings(settings, "physics") if settings else None
    kinds = spec["players"]
    match = start_match(game_cls, kinds, job.seed, fast=spec.get("fast", False), options=options, physics=physics)
    try:
        outcome = match.run()
    finally:
        match.close()
    game = match.game
    win = [seat in outcome.winners for seat in range(len(kinds))]
    if isinstance(game, TableGame):
        records = match.roller.records
        return {
            **game.measures(),
            "win": win,
            "termination": outcome.termination.name.lower(),
            "rolls": len(records),
            "rerolls": sum(r.rerolls for r in records),
        }
    return {
        "score": list(outcome.scores),
        "win": win,
        "termination": outcome.termination.name.lower(),
        "turns": len(game.history) if isinstance(game, Game) else None,
    }


PHYSICS = "physics."  # a game's --set and --vary keys of this prefix are physics settings; the others its options


def split_physics(settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game's ``--set``/``--vary`` settings -> (its options, its physics settings without the ``physics.`` prefix).

    >>> split_physics({"rounds": 2, "physics.die_shape": "hull"})
    ({'rounds': 2}, {'die_shape': 'hull'})
    """
    options = {k: v for k, v in settings.items() if not k.startswith(PHYSICS)}
    physics = {k.removeprefix(PHYSICS): v for k, v in settings.items() if k.startswith(PHYSICS)}
    return options, physics


def game_spec(
    name: str,
    kinds: list[str],
    fast: bool,
    options: dict[str, str],
    physics: dict[str, Any] | None = None,
    origin: str = "--set",
) -> tuple[dict[str, Any], str]:
    """The plan's spec for seeded matches of the game called ``name``, checked; and its default folder.

    ``physics``: settings of a scene's ``[physics]`` table for every match's worlds (a mistake is blamed on
    ``origin``)."""
    game_cls = find_game(name)
    if game_cls.kind == "table":
        spec: dict[str, Any] = {"table_game": game_cls.info.key, "players": kinds, "fast": fast, "options": options}
        folder = f"experiments/{game_cls.info.key}_{'_'.join(kinds)}"
    else:
        spec = {"game": game_cls.info.key, "players": kinds, "fast": fast, "options": options}
        folder = f"experiments/game{game_cls.info.key}_{'_'.join(kinds)}"
    if physics:
        if fast:
            raise ExperimentError(f"{origin} {PHYSICS}{next(iter(physics))}: --fast plays without physics")
        try:
            physics_settings(physics, origin, PHYSICS)
        except ValueError as err:
            raise ExperimentError(str(err)) from None
        spec["physics"] = dict(physics)
    check_game_spec(spec)
    return spec, folder


def check_game_spec(spec: dict[str, Any]) -> None:
    """Raise ExperimentError before anything runs if the game cannot be set up with these players and options."""
    name = spec.get("game") or spec["table_game"]
    try:
        game_cls = find_game(name)
        if game_cls.kind == "skill" and spec.get("fast", False):
            raise ValueError(f"{game_cls.info.title} is a game of physical skill: it has no fast mode")
        rng = np.random.default_rng(0)
        for kind in spec["players"]:
            make_seat(kind, rng, game_cls)
        names = {"names": list(spec["players"])} if game_cls.kind == "table" else {}
        game_cls(len(spec["players"]), rng=rng, **names, **spec.get("options", {}))
    except (TypeError, ValueError, LookupError) as err:
        raise ExperimentError(f"--game {name} with --players {','.join(spec['players'])}: {err}") from None


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts and lists -> one level with dotted keys (``thrown.0.top``); numpy's numbers become Python's
    (a row holds what its JSON line reads back as)."""
    if isinstance(data, dict):
        items: Iterable[tuple[Any, Any]] = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return {prefix: data.item() if isinstance(data, np.generic) else data}
    out: dict[str, Any] = {}
    for k, v in items:
        out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    return out


# -- the experiment folder --------------------------------------------------------------------


@dataclass
class ExperimentResult:
    """What an experiment call did: runs done before and now, and the files written."""

    total: int
    resumed: int
    ran: int
    files: list[Path]
    summary: dict[str, Any]


def run_experiment(
    plan: Plan,
    out: str | Path,
    workers: int | None = None,
    engine: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    plots: bool = True,
    say: Callable[[str], None] | None = None,
    retry_failed: bool = False,
) -> ExperimentResult:
    """Run ``plan`` into the folder ``out``, skipping runs already written there; then table, summary, plots.

    The folder holds ``experiment.json`` (the plan, and the ``provenance`` it was started on: a resume on
    another machine or physics stack is told to ``say``, each difference on a line), ``rows.jsonl`` (one
    row per run, written as each finishes), ``rows.csv``, ``summary.json`` and ``summary.png``; while it
    runs, ``lock`` (a second experiment on the folder is refused). Ctrl-C keeps every row written. On
    resume each row is checked (``experiment_folder``); runs whose row holds an error are run again with
    ``retry_failed``, else counted. ``progress`` is told (runs done, runs in all) before the first run and
    after each; ``say`` gets notes (other versions than the experiment's, lines set aside, failed runs
    kept, no plot without matplotlib).
    """
    if engine not in ENGINES:
        raise ExperimentError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if engine == "dask":
        require_dask()  # before anything is written
    plan.check_size()
    workers = workers or os.cpu_count() or 1
    note = say or (lambda text: None)
    folder = Path(out)
    new_folder = not folder.exists()
    with _writing(folder):
        folder.mkdir(parents=True, exist_ok=True)
    with FolderLock(folder, note):
        return _run_in(plan, folder, new_folder, workers, engine, address, progress, plots, note, retry_failed)


@contextlib.contextmanager
def _writing(folder: Path) -> Iterator[None]:
    """Turn an OSError while the folder is set up into an ExperimentError naming the folder."""
    try:
        yield
    except OSError as err:
        raise ExperimentError(f"cannot write the experiment to {folder}: {err.strerror or err}") from None


def _run_in(
    plan: Plan,
    folder: Path,
    new_folder: bool,
    workers: int,
    engine: str,
    address: str | None,
    progress: Callable[[int, int], None] | None,
    plots: bool,
    say: Callable[[str], None],
    retry_failed: bool,
) -> ExperimentResult:
    """``run_experiment`` in its locked folder: the plan compared or saved, the rows checked, the runs, the files."""
    manifest = folder / "experiment.json"
    rows_path = folder / "rows.jsonl"
    plan_data = json.loads(json.dumps(asdict(plan)))
    all_jobs = plan.jobs()
    plan_params = {job.key: json.loads(json.dumps(job.params)) for job in all_jobs}
    expected = Expected(plan_params, spec_digest(plan_data["spec"]), measure_rules(plan.spec))
    with _writing(folder):
        saved = read_manifest(manifest)
        if saved is not None and _comparable(saved) != _comparable(plan_data):
            raise ExperimentError(
                f"{folder} holds a different experiment (its experiment.json differs): choose another --out, "
                "or delete that folder to start again"
            )
        created = [] if saved is not None else [manifest]
        if saved is None:
            write_manifest(manifest, {**plan_data, PROVENANCE: provenance()})
        else:
            for line in warnings(saved.get(PROVENANCE), provenance()):
                say(line)
        if not rows_path.exists():
            rows_path.touch()
            created.append(rows_path)
        read = tidy_rows(rows_path, expected, say)
    failed = set(read.failed())
    if failed and not retry_failed:
        say(
            f"{plural(len(failed), 'run')} already written ended with an error: kept as they are (--retry-failed runs "
            "them again)"
        )
    redo = failed if retry_failed else set()
    rows = [r for r in read.rows if r["key"] not in redo]
    done = {r["key"] for r in rows}
    jobs = [j for j in all_jobs if j.key not in done]
    total = len(all_jobs)
    finished = len(done)
    if progress is not None:
        progress(finished, total)
    try:
        with rows_path.open("a", encoding="utf-8") as sink:

            def keep(row: dict[str, Any]) -> None:
                nonlocal finished
                row = {**row, "spec": expected.digest}
                impossible = row_problem(row, expected)  # a run that measured what cannot be (NaN, a face of 9)
                if impossible:
                    row = {**row, "measures": {}, "error": f"MeasureError: {impossible}"}
                sink.write(json.dumps(row, sort_keys=True) + "\n")
                sink.flush()
                os.fsync(sink.fileno())
                rows.append(row)
                finished += 1
                if progress is not None:
                    progress(finished, total)

            if engine == "dask":
                run_dask(jobs, run_job, workers, address, keep)
            else:
                run_local(jobs, run_job, workers, keep)
    except BaseException:
        if finished == len(done):  # not a row written: leave no half-made experiment behind
            for path in created:
                path.unlink(missing_ok=True)
            if new_folder:
                shutil.rmtree(folder, ignore_errors=True)
        raise
    if redo:
        tidy_rows(rows_path, expected)  # the failed rows, now run again, move to the set-aside file
    files = [manifest, rows_path, write_csv(rows, folder / "rows.csv")]
    summary = {**summarise(rows, plan.points()), "set_aside": len(read.bad) + read.duplicates}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    files.append(folder / "summary.json")
    if plots:
        what = (
            Path(plan.spec["source"]).name
            if "source" in plan.spec
            else plan.spec.get("game") or plan.spec.get("table_game")
        )
        shape = f" ({plural(len(plan.points()), 'setting')} x {plural(plan.seeds, 'seed')})"
        shape = shape if len(plan.points()) > 1 else ""
        title = f"{what}: {plural(len(rows), 'run')}{shape}"
        players = plan.spec.get("players")
        picture = plot_summary(rows, summary, folder / "summary.png", title, say, players)
        if picture is not None:
            files.append(picture)
    return ExperimentResult(total, len(done), len(jobs), files, summary)


def _comparable(plan_data: dict[str, Any]) -> dict[str, Any]:
    """A plan as compared on resume: what runs, not the path the scene file was named by nor the machine."""
    spec = plan_data.get("spec", {})
    spec = {k: v for k, v in spec.items() if k != "source"} if isinstance(spec, dict) else spec
    return {**{k: v for k, v in plan_data.items() if k != PROVENANCE}, "spec": spec}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The valid rows of a JSON-lines file, one per run (the file is left as it is; see ``tidy_rows``)."""
    return scan_rows(path).rows


def write_csv(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """The rows as a table sorted by sweep point and seed: params and measures as columns."""
    ordered = sorted(rows, key=lambda r: (r["point"], r["seed"]))
    params = sorted({k for r in rows for k in r["params"]})
    measures = sorted({k for r in rows for k in r["measures"]})
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["key", "point", "seed", *params, *measures, "error"])
        for r in ordered:
            values = [r["params"].get(k, "") for k in params] + [_cell(r["measures"].get(k)) for k in measures]
            writer.writerow([r["key"], r["point"], r["seed"], *values, r["error"] or ""])
    return path


def _cell(value: Any) -> Any:
    return "" if value is None else int(value) if isinstance(value, bool) else value
