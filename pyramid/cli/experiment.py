"""``pyramid experiment``: the plan from the arguments, checked before anything runs; a progress bar; the summary.

The runs, the rows and the summary are ``pyramid.lab.experiments``'; this module only reads the
command line and writes to the terminal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from pyramid.games import find_game
from pyramid.lab.experiments import (
    ExperimentError,
    Plan,
    check_game,
    check_table_game,
    read_rows,
    run_experiment,
)
from pyramid.lab.scene import load_scene
from pyramid.lab.settings import parse_vary
from pyramid.lab.summaries import plural, summary_text
from pyramid.tablegames import find_table_game


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise."""

    def __init__(self, total: int, done: int = 0, width: int = 30, stream: Any = None) -> None:
        self.total, self.done, self.width = total, done, width
        self.stream = stream or sys.stderr
        self.start, self.first = time.perf_counter(), done
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last_draw, self.last_tenth = 0.0, -1
        self.closed = False

    def update(self, n: int = 1) -> None:
        """Count ``n`` more finished runs."""
        self.done += n
        now = time.perf_counter()
        tenth = 10 * self.done // max(self.total, 1)
        if (self.tty and now - self.last_draw > 0.1) or (not self.tty and tenth != self.last_tenth):
            self.draw()
            self.last_draw, self.last_tenth = now, tenth

    def draw(self) -> None:
        """Write the bar once."""
        fraction = self.done / max(self.total, 1)
        bar = "#" * round(self.width * fraction)
        elapsed = time.perf_counter() - self.start
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = f", ~{(self.total - self.done) / rate:.0f} s left" if rate > 0 else ""
        text = f"[{bar:<{self.width}}] {self.done}/{self.total} runs {100 * fraction:3.0f}%  {elapsed:.0f} s{left}"
        self.stream.write(("\r" + text) if self.tty else text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state (unless just drawn) and end the line; once."""
        if self.closed:
            return
        self.closed = True
        if self.tty or self.last_tenth != 10 * self.done // max(self.total, 1):
            self.draw()
        if self.tty:
            self.stream.write("\n")


class ProgressReport:
    """What ``run_experiment`` tells of its progress (runs done, runs in all), drawn as a ``Progress`` bar."""

    def __init__(self) -> None:
        self.bar: Progress | None = None

    def __call__(self, done: int, total: int) -> None:
        """Start the bar at the first report, move it at each next one, end it with the last run."""
        if self.bar is None:
            self.bar = Progress(total, done)
            return
        self.bar.update(done - self.bar.done)
        if done == total:
            self.bar.close()

    def close(self) -> None:
        """End the bar (after an interruption: where it stopped)."""
        if self.bar is not None:
            self.bar.close()


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def _plan(args: argparse.Namespace) -> tuple[Plan, str]:
    """The plan of the experiment the arguments ask for, every sweep point or seat checked; and its default folder."""
    vary = dict(parse_vary(text) for text in args.vary)
    if args.scene is None and args.game is None:
        raise ExperimentError("nothing to run: give a scene file (e.g. scenes/die_throw.toml) or --game with --players")
    if args.scene is not None and args.game is not None:
        raise ExperimentError(f"give a scene file or --game, not both (got {args.scene} and --game {args.game})")
    if args.scene is not None:
        base = load_scene(args.scene)
        for point in Plan({}, vary, 1).points():  # every sweep point must make a valid scene before anything runs
            load_scene(args.scene, point, origin="--vary")
        spec: dict[str, Any] = {"scene": dict(base.raw), "source": str(args.scene)}
        default_out = f"experiments/{base.name}"
    else:
        kinds = [k.strip() for k in args.players.split(",")]
        if not all(kinds):
            raise ExperimentError(f"--players {args.players!r} has an empty player name")
        if "human" in kinds:
            raise ExperimentError("--players names the bots of every seat, e.g. greedy,random (no human)")
        options = dict(o.partition("=")[::2] for o in args.option)
        table_game = find_table_game(args.game)
        if table_game is not None:
            name = table_game.info.name  # type: ignore[attr-defined]
            spec = {"table_game": name, "players": kinds, "fast": args.fast, "options": options}
            check_table_game(spec)
            default_out = f"experiments/{name}_{'_'.join(kinds)}"
        else:
            game = find_game(args.game)
            spec = {"game": str(game.info.number), "players": kinds, "fast": args.fast, "options": options}
            check_game(spec)
            default_out = f"experiments/game{game.info.number}_{'_'.join(kinds)}"
    if args.seeds < 1:
        raise ExperimentError(f"--seeds must be at least 1, got {args.seeds}")
    if args.first_seed < 0:
        raise ExperimentError(f"--first-seed must be 0 or more, got {args.first_seed}")
    if args.workers is not None and args.workers < 1:
        raise ExperimentError(f"--workers must be at least 1, got {args.workers}")
    return Plan(spec, vary, args.seeds, args.first_seed), default_out


def experiment(args: argparse.Namespace) -> int:
    """``pyramid experiment``: build the plan from the arguments, check it, run it, print the summary."""
    plan, default_out = _plan(args)
    out = Path(args.out or default_out)
    shape = f"{plural(len(plan.points()), 'setting')} x {plural(args.seeds, 'seed')}"
    _say(f"{plural(len(plan.jobs()), 'run')} ({shape}) into {out}")
    report = None if args.quiet else ProgressReport()
    try:
        try:
            result = run_experiment(
                plan, out, args.workers, args.engine, args.address, report, not args.no_plots, say=_say
            )
        finally:
            if report is not None:
                report.close()
    except KeyboardInterrupt:
        kept = len(read_rows(out / "rows.jsonl"))
        _say(f"interrupted: {kept} rows kept in {out / 'rows.jsonl'}; run the same command again to resume")
        return 130
    if result.resumed:
        _say(f"resumed: {result.resumed} runs were already done, {result.ran} run now")
    print(summary_text(result.summary))
    for path in result.files:
        print(f"wrote {path}")
    return 0
