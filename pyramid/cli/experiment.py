"""``pyramid experiment``: the plan from the arguments, checked before anything runs; a progress bar; the summary.

The runs, the rows and the summary are ``pyramid.lab.experiments``'; this module only reads the
command line and writes to the terminal.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from pyramid.agents.seats import default_seats
from pyramid.cli.args import game_options, seat_kinds
from pyramid.lab.experiments import (
    PHYSICS,
    ExperimentError,
    Plan,
    WorkerLost,
    game_spec,
    read_rows,
    run_experiment,
    split_physics,
    stop_signals,
)
from pyramid.lab.overrides import override
from pyramid.lab.scene import load_scene, scene_from_dict
from pyramid.lab.settings import parse_setting, parse_vary
from pyramid.lab.summaries import plural, summary_text
from pyramid.registry import find_game


class Progress(tqdm):
    """The runs' progress bar: tqdm on stderr, redrawn in place on a terminal, a line about every tenth otherwise.

    A resumed experiment starts at the ``done`` runs already written; its pace, and so the time left,
    counts this session's runs only, and shows once the first of them has finished.
    """

    monitor_interval = 0  # no tqdm monitor thread: it would redraw off the main thread and undo the pacing

    def __init__(self, total: int, done: int = 0, width: int = 30, stream: TextIO | None = None) -> None:
        stream = stream or sys.stderr
        tty = stream.isatty()
        # The terminal's size, 80 x 24 where it does not tell (tqdm would then draw nothing).
        columns, lines = shutil.get_terminal_size() if tty else (None, None)
        super().__init__(
            total=total,
            initial=done,
            file=stream if tty else _Lines(stream),
            bar_format=f"[{{bar:{width}}}] " + "{n_fmt}/{total_fmt} runs {percentage:3.0f}%  {elapsed_s:.0f} s{left}",
            ascii=" #",
            smoothing=0,  # the pace is this session's average, not a moving one
            ncols=columns,
            nrows=lines,
            mininterval=0.1 if tty else 0,
            miniters=None if tty else max(1, -(-(total - done) // 10)),
        )

    @property
    def format_dict(self) -> MutableMapping[str, Any]:
        """tqdm's fields, and ``left``: the time left at this session's pace, blank before its first run is in."""
        fields = super().format_dict
        ran = fields["n"] - fields["initial"]
        fields["left"] = f", ~{(fields['total'] - fields['n']) * fields['elapsed'] / ran:.0f} s left" if ran > 0 else ""
        return fields


class _Lines:
    """A stream for a progress bar off a terminal: each redraw becomes a line of its own, a repeat is left out."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last = stream, ""

    def write(self, text: str) -> int:
        """Write a redraw (tqdm's carriage return and padding dropped) as one line."""
        line = text.strip()
        if line and line != self.last:
            self.stream.write(line + "\n")
            self.last = line
        return len(text)

    def flush(self) -> None:
        """Flush the stream beneath."""
        self.stream.flush()


class ProgressReport:
    """What ``run_experiment`` tells of its progress (runs done, runs in all), drawn as a ``Progress`` bar."""

    def __init__(self) -> None:
        self.bar: Progress | None = None

    def __call__(self, done: int, total: int) -> None:
        """Start the bar at the first report, move it at each next one, end it with the last run."""
        if self.bar is None:
            self.bar = Progress(total, done)
            return
        self.bar.update(done - self.bar.n)
        if done == total:
            self.bar.close()

    def close(self) -> None:
        """End the bar (after an interruption: where it stopped)."""
        if self.bar is not None:
            self.bar.close()


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def plan_from_args(args: argparse.Namespace) -> tuple[Plan, str]:
    """The plan of the experiment the arguments ask for, every sweep point or seat checked; and its default folder."""
    swept = [parse_vary(text) for text in args.vary]
    vary = dict(swept)
    if len(vary) < len(swept):
        again = next(key for n, (key, _) in enumerate(swept) if key in dict(swept[:n]))
        raise ExperimentError(f"--vary {again} is given twice; list all its values in one --vary {again}=V1,V2")
    if args.scene is None and args.game is None:
        raise ExperimentError(
            "nothing to run: give a scene file or a shipped scene's name (die_throw), or --game with --players"
        )
    if args.scene is not None and args.game is not None:
        raise ExperimentError(f"give a scene file or --game, not both (got {args.scene} and --game {args.game})")
    if args.address is not None and args.engine != "dask":
        raise ExperimentError(f"--address {args.address} is a Dask scheduler's: it needs --engine dask")
    shape = Plan({}, vary, args.seeds, args.first_seed)
    shape.check_size()  # before any sweep point is built
    for key, values in vary.items():
        seen = [json.dumps(v, sort_keys=True) for v in values]
        twice = next((v for n, v in enumerate(values) if seen[n] in seen[:n]), None)
        if twice is not None:
            raise ExperimentError(f"--vary {key}: the value {twice!r} is given twice; each setting is run once")
    if args.scene is not None:
        given = [name for name, value in (("--option", args.option), ("--players", args.players)) if value]
        given += ["--fast"] if args.fast else []
        if given:
            raise ExperimentError(f"{', '.join(given)} go with --game, not with a scene file (a scene's keys: --set)")
        sets = dict(parse_setting(text) for text in args.set)
        base = load_scene(args.scene, sets, origin="--set")
        _check_scene_sweep(base.raw, base.source, sets, vary)
        for point in shape.points():  # every sweep point must make a valid scene before anything runs
            scene_from_dict(base.raw, base.source, point, origin="--vary")
        spec: dict[str, Any] = {"scene": dict(base.raw), "source": str(args.scene)}
        default_out = f"experiments/{base.name}"
    else:
        not_physics, physics = split_physics(dict(parse_setting(text) for text in args.set))
        other = next(iter(not_physics), None)
        if other is not None:
            raise ExperimentError(
                f"--set {other}: with --game, --set takes physics settings ({PHYSICS}KEY=VALUE, as in a scene's "
                "[physics] table); a game's options are --option KEY=VALUE"
            )
        game = find_game(args.game)
        kinds = seat_kinds(args.players) or default_seats(game)
        if "human" in kinds:
            raise ExperimentError("--players names the bots of every seat, e.g. greedy,random (no human)")
        options = game_options(args.option, game, len(kinds))
        both = [key for key in vary if key.strip().lower() in options]
        if both:
            raise ExperimentError(
                f"--vary {both[0]} and --option {both[0]} name the same option; give it once: its values in --vary, "
                "or one value in --option"
            )
        both = [key for key in split_physics(vary)[1] if key in physics]
        if both:
            raise ExperimentError(
                f"--vary {PHYSICS}{both[0]} and --set {PHYSICS}{both[0]} set the same key; give it once: its values "
                "in --vary, or one value in --set"
            )
        spec, default_out = game_spec(args.game, kinds, args.fast, options, physics)
        for point in shape.points() if vary else []:  # every swept value checked: a game option, or a physics key
            swept_options, moved = split_physics(point)
            named = [f"{key}={value}" for key, value in swept_options.items()]
            game_spec(
                args.game,
                kinds,
                args.fast,
                {**options, **game_options(named, game, len(kinds), "--vary")},
                {**physics, **moved},
                origin="--vary",
            )
    return Plan(spec, vary, args.seeds, args.first_seed), default_out


# A scene's keys that no run of an experiment reads: each run's seed comes from --seeds and --first-seed.
NO_EFFECT = {
    "scene.seed": "every run takes its seed from --seeds and --first-seed",
    "scene.name": "a scene's name changes no run",
    "scene.description": "a scene's description changes no run",
}


def _check_scene_sweep(raw: Mapping[str, Any], source: str, sets: dict[str, Any], vary: dict[str, list[Any]]) -> None:
    """ExperimentError for a swept key that changes nothing, or that --set sets too (its value would be dropped)."""
    set_at = {path: dotted for path, (dotted, _, _) in override(raw, sets, source, "--set")[1].items()}
    for key, values in vary.items():
        for path, (dotted, _, _) in override(raw, {key: values[0]}, source, "--vary")[1].items():
            if path in NO_EFFECT:
                raise ExperimentError(f"--vary {dotted}: sweeps a key that changes nothing: {NO_EFFECT[path]}")
            if path in set_at:
                raise ExperimentError(
                    f"--vary {dotted} and --set {set_at[path]} set the same key ({path}); give it once: its values "
                    "in --vary, or one value in --set"
                )


def experiment(args: argparse.Namespace) -> int:
    """``pyramid experiment``: build the plan from the arguments, check it, run it, print the summary."""
    plan, default_out = plan_from_args(args)
    out = Path(args.out or default_out)
    shape = f"{plural(len(plan.points()), 'setting')} x {plural(args.seeds, 'seed')}"
    _say(f"{plural(len(plan.jobs()), 'run')} ({shape}) into {out}")
    report = None if args.quiet else ProgressReport()
    with stop_signals() as caught:
        try:
            try:
                result = run_experiment(
                    plan,
                    out,
                    args.workers,
                    args.engine,
                    args.address,
                    report,
                    not args.no_plots,
                    say=_say,
                    retry_failed=args.retry_failed,
                )
            finally:
                if report is not None:
                    report.close()
        except (KeyboardInterrupt, WorkerLost) as stop:
            kept = len(read_rows(out / "rows.jsonl"))
            why = str(stop) if isinstance(stop, WorkerLost) else "interrupted"
            why += f" ({signal.Signals(caught[0]).name})" if caught else ""
            _say(f"{why}: {kept} rows kept in {out / 'rows.jsonl'}; run the same command again to resume")
            return 1 if isinstance(stop, WorkerLost) else 128 + (caught[0] if caught else signal.SIGINT)
    if result.resumed:
        _say(f"resumed: {plural(result.resumed, 'run')} already done, {plural(result.ran, 'run')} this time")
    print(summary_text(result.summary))
    for path in result.files:
        print(f"wrote {path}")
    failed = result.summary["errors"]
    if failed:
        _say(
            f"{failed} of {plural(result.summary['runs'], 'run')} failed: each row's error is in {out / 'rows.jsonl'} "
            "(--retry-failed runs them again)"
        )
        return 1
    return 0
