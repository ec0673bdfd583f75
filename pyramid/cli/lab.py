"""``pyramid demo``, ``assets``, ``bench`` and ``run``: the lab's jobs, read from the command line and printed.

The work is ``pyramid.lab``'s (and ``pyramid.ui.film``'s for pictures and films: the demo's picture, like
``pyramid run``'s and ``pyramid play``'s, is drawn by ``make_renderer``); this module only turns arguments into
calls and results into lines on the terminal.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pyramid.cli.args import game_physics
from pyramid.cli.extras import load, require_display, require_window
from pyramid.cli.paths import check_output_file, check_output_folder, inside
from pyramid.lab.bench import bench_table, picked, run_bench
from pyramid.lab.demo import run_demo
from pyramid.lab.locality import KINDS, STATISTICS, agreement, figures_named, locality_text, statistics
from pyramid.lab.runner import report_text, run_scene
from pyramid.lab.scene import Scene, load_scene
from pyramid.lab.settings import parse_setting
from pyramid.lab.shipped_scenes import copy_scene, description, shipped_scenes
from pyramid.lab.soak import environments, skill_games, soak_envs, soak_games, soak_scenes, soak_text
from pyramid.lab.soak import soak as run_soak
from pyramid.lab.speed import Speed
from pyramid.physics.assets import write_assets
from pyramid.ui.film import BulletRenderer, StageRenderer, film_scene, make_renderer
from pyramid.ui.pace import WINDOW_ROWS


def demo(args: argparse.Namespace) -> int:
    """``pyramid demo``: build a pyramid physically, throw dice at it, print the read-out, save a picture."""
    if args.gui:
        require_display("--gui")
    check_output_file(args.picture, "--picture", ".png")
    renderer = make_renderer(args.renderer)  # before the simulation: --renderer opengl fails here, not at the end
    try:
        code = run_demo(args.seed, args.picture, args.throws, args.gui, say=print, draw=renderer)
    finally:
        renderer.close()
    if code == 0:
        print(f"drawn by the {renderer.name} renderer")
    return code


def assets(args: argparse.Namespace) -> int:
    """``pyramid assets``: write the meshes and URDF files, one path a line."""
    check_output_folder(args.out, "--out")
    for path in write_assets(args.out):
        print(path)
    return 0


def bench(args: argparse.Namespace) -> int:
    """``pyramid bench``: measure the physics, then print the table of figures."""
    figures = run_bench(
        seconds=args.seconds,
        mujoco=not args.no_mujoco,
        progress=print,
        actions=not args.no_actions,
        games=not args.no_games,
        quick=args.quick,
        only=args.only,
    )
    figures += _window_rows(args)
    print(bench_table(figures))
    return 0


def _window_rows(args: argparse.Namespace) -> list[Speed]:
    """The window's rows (``pyramid.ui.pace``) when a window can open; else a line saying why they are left out."""
    wanted = [r for r in WINDOW_ROWS if picked(r.name, args.only)]
    if args.no_actions or not wanted:
        return []
    try:
        require_window()
    except LookupError as missing:
        print(f"the window rows are left out: {missing}")
        return []
    from pyramid.ui.pace import window_speed  # opens windows: loaded only with a display

    out = []
    for n, row in enumerate(wanted, 1):
        print(f"[window {n}/{len(wanted)}] {row.name} ...")
        out.append(window_speed(row, seconds=1.0 if args.quick else 3.0))
    return out


def locality(args: argparse.Namespace) -> int:
    """``pyramid locality``: local against whole physics, case by case; exit 1 if they disagree too often."""
    kinds = args.kinds or list(KINDS)
    seeds = range(args.first, args.first + args.seeds)
    physics = game_physics(getattr(args, "physics", []))
    if physics is not None:
        print(f"physics: {', '.join(args.physics)}")
    results = (
        agreement(
            kinds,
            seeds,
            physics,
            progress=lambda t: print(f"\r  {t}   ", end="", flush=True),
            floor=args.nudged or (),
        )
        if args.seeds
        else []
    )
    games = range(args.first, args.first + args.games)
    figures = getattr(args, "figures", [])
    if figures and not figures_named(figures):
        raise ValueError(
            f"--figures {','.join(figures)}: no study figure's name holds these words; the figures: "
            + "; ".join(name for name, *_ in STATISTICS)
        )
    stats = statistics(
        games, physics, throws=results, progress=lambda t: print(f"\r  {t}   ", end="", flush=True), only=figures
    )
    print()
    print(locality_text(results, stats))
    bad = any(not a.holds for a in results) or any(not s.inside for s in stats)
    return 1 if bad else 0


def soak(args: argparse.Namespace) -> int:
    """``pyramid soak``: scenes, skill games or environments run seed after seed; exit 1 on any failure found."""
    from pyramid.cli.experiment import ProgressReport

    if args.only and args.mode == "scenes":
        raise ValueError("--only names games (--mode games) or environments (--mode envs), not scenes")
    if args.physics and args.mode != "games":
        raise ValueError("--physics sets the games' physics (--mode games); a scene sets its own in [physics]")
    physics = game_physics(args.physics)
    progress = ProgressReport()
    if args.mode == "games":
        games = skill_games(args.only)
        if physics is not None:
            print(f"physics: {', '.join(args.physics)}")
        result = soak_games(games, args.runs, args.seed, args.actions, progress=progress, physics=physics)
    elif args.mode == "envs":
        names = environments(args.only)  # LookupError naming the gymnasium extra without it
        result = soak_envs(names, args.runs, args.seed, args.steps, progress=progress)
    else:
        try:
            scenes = soak_scenes() if args.scenes is None else soak_scenes(args.scenes)
        except FileNotFoundError as err:
            raise ValueError(f"--scenes: {err}") from None
        result = run_soak(scenes, args.runs, args.seed, progress=progress)
    progress.close()  # where an interruption left it
    print(soak_text(result))
    # Failures first: an interrupted soak that found one still says so; one that found none is only cut short.
    return 1 if result.failures else 130 if result.interrupted else 0


def scenes(args: argparse.Namespace) -> int:
    """``pyramid scenes``: the shipped scenes, a name and what it shows a line; ``--copy NAME DIR`` copies one."""
    if args.copy is not None:
        name, folder = args.copy
        print(copy_scene(name, folder))
        return 0
    shipped = shipped_scenes()
    width = max(map(len, shipped))
    for name, path in shipped.items():
        print(f"{name:<{width}}  {description(path)}")
    return 0


def run(args: argparse.Namespace) -> int:
    """``pyramid run``: every scene file (and every ``--set``) checked, then each run, summarised and reported."""
    # Every file with every --set checked (errors blame --set, not the file), and the folder, before anything runs.
    overrides = dict(parse_setting(text) for text in args.set)
    scenes = [load_scene(path, overrides, origin="--set") for path in args.scene]
    if args.video == "mp4":
        load("imageio_ffmpeg")  # before the runs: a film needs its extra
    if args.renderer != "auto" and not (args.pictures or args.video):
        raise ValueError(f"--renderer {args.renderer} draws --pictures and --video: give one of them")
    renderer = make_renderer(args.renderer) if args.pictures or args.video else None
    check_output_folder(args.out, "--out")
    if renderer is not None:
        return _film(args, scenes, renderer)
    out = Path(args.out)
    for scene in scenes:
        seed = scene.seed if args.seed is None else args.seed
        report = run_scene(scene, seed)
        path = _write_report(report, inside(out, f"{scene.name}_seed{seed}.json"))
        if not args.quiet:
            print(report_text(report))
        print(f"report: {path}")
    return 0


def _film(args: argparse.Namespace, scenes: list[Scene], renderer: StageRenderer | BulletRenderer) -> int:
    """``pyramid run --pictures/--video``: each scene run as ``pyramid run`` runs it, drawn as the viewer draws it."""
    out = Path(args.out)
    for scene in scenes:
        seed = scene.seed if args.seed is None else args.seed
        stem = f"{scene.name}_seed{seed}"
        video = inside(out, f"{stem}.{args.video}") if args.video else None
        report = film_scene(scene, seed, video, inside(out, stem) if args.pictures else None, renderer)
        path = _write_report(report, inside(out, f"{stem}.json"))
        if not args.quiet:
            print(report_text(report))
        print(f"report: {path}; drawn by the {renderer.name} renderer")
        if args.pictures:
            print(f"pictures: {len(report['pictures'])} in {out / stem}")
        if video is not None:
            print(f"film: {video}")
    return 0


def _write_report(report: dict[str, object], path: Path) -> Path:
    """A run's report as indented JSON at ``path`` (its folder made); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1) + "\n")
    return path
