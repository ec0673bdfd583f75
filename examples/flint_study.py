"""Captain Flint's trick, swept: which press, tilt, shake and die contact leave the skeleton standing.

The rule book: Flint heaps up a complete pyramid, presses his index finger firmly on its top, tilts
and shakes the plate, and what is left is the skeleton (the apex and the three edges). Each trial
here builds a pyramid of ``--layers`` layers, presses its apex, tilts and shakes the plate, and
counts the dice still in their slots (centre within a quarter edge of the slot) at three moments:
at the end of the hold (plate tilted, still pressed: the demonstration), when the plate is back down
(still pressed), and after the press ends and the dice settle.

Two models of the press:

- ``pad``: the game's press (``Tilt.press``), as the programmed Flint does: a fingertip pad held on
  the plate's normal through the apex's top and pushed along it with the force; it follows a die
  that gives way with the hand's mass and never pulls.
- ``finger``: the fingertip as a body, a 6 mm sphere with skin friction 1, held on the apex's top
  corner by a constraint that moves with the plate and pushes with at most the press force: it
  holds the apex where it is, sideways too, as a finger pressing a die does.

The factors (``--list`` prints them with their values): the press (force, model, where on the apex),
the tilt (angle, ramp time), the shake (amplitude, frequency), and the dice's contact (die friction,
restitution, contact stiffness). ``sweep`` varies one factor at a time around the programmed Flint;
``search`` draws settings of every factor at random (seeded) and keeps the best. Rows go to a JSON
lines file, one per trial; a second run with the same file skips what is done.

    .venv/bin/python examples/flint_study.py sweep --seeds 3 --workers 2
    .venv/bin/python examples/flint_study.py search --trials 120 --workers 2
    .venv/bin/python examples/flint_study.py report            # the tables (and flint_study.png) from the rows
    .venv/bin/python examples/flint_study.py sweep --dice hull --out runs/flint_hull.jsonl   # on rounded dice
    .venv/bin/python examples/flint_study.py sweep --dice real --out runs/flint_real.jsonl   # rounded, sizes spread
    .venv/bin/python examples/flint_study.py load --layers 9      # where a press on the apex goes
    .venv/bin/python examples/flint_study.py compare --files runs/flint_box.jsonl runs/flint_real.jsonl \
        --picture runs/flint_compare.png                   # each file's trials against the book's skeleton
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pybullet as pb
from tqdm import tqdm

from pyramid import geometry
from pyramid.physics.actions import perform
from pyramid.physics.errors import ImpossibleStateError, NotAtRestError
from pyramid.physics.hands import PRESS_LIMIT
from pyramid.physics.plate_motion import Tilt
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.skillgames.standing import pyramid_slots, skeleton_of
from pyramid.state import Cell, PyramidState

IN_PLACE = 0.25  # edges: a die this close to its slot's centre is still in place
FINGER_RADIUS = 0.006  # m: a fingertip
FINGER_DEPTH = 0.001  # m: how far the finger's target lies inside the apex (it pushes up to the force)


@dataclass(frozen=True)
class Setting:
    """One trial's press, tilt, shake and contact. The defaults are the programmed Flint's."""

    press: float = 5.0  # N
    model: str = "pad"  # "pad" or "finger"
    where: float = 0.0  # edges: the finger's point, moved downhill along the plate from the apex's top
    angle: float = 50.0  # degrees
    ramp: float = 0.6  # s to reach the angle (and to lower it)
    hold: float = 1.5  # s
    shake: float = 0.003  # m, along the slope
    frequency: float = 8.0  # Hz
    friction: float = 0.81  # die's friction coefficient (Bullet multiplies the two bodies')
    restitution: float = 0.6  # die's restitution (multiplied too)
    stiffness: float = 0.0  # N/m contact stiffness of a die (0: rigid, Bullet's own contacts)
    dice: str = "box"  # the dice: a key of DICE


# The dice's physics settings (docs/studies/real-dice.md): the ideal box; the hull rounded by 1 mm in two steps,
# all of one size; the same with the chosen spread of sizes (0.05 mm, each seed drawing its own); and the
# most worn dice the sources allow (rounded by 2 mm as the drawings of game dice, the lathe-cut dice's 0.1 mm).
ROUNDED = {"die_shape": "hull", "hull_segments": 2, "hull_axis": "gjk"}
DICE: dict[str, dict[str, Any]] = {
    "box": {},
    "hull": ROUNDED,
    "real": ROUNDED | {"size_spread": 5e-5},
    "worn": ROUNDED | {"edge_radius": 0.002, "size_spread": 1e-4},
}


SWEEP: dict[str, tuple[Any, ...]] = {
    "press": (0.0, 2.0, 5.0, 10.0),  # a firmer press is refused (``hands.PRESS_LIMIT``)
    "model": ("pad", "finger"),
    "where": (-0.3, 0.0, 0.3),
    "angle": (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0),
    "ramp": (0.2, 0.6, 1.5, 3.0),
    "shake": (0.0, 0.0005, 0.001, 0.002, 0.003, 0.005),
    "frequency": (4.0, 8.0, 12.0, 16.0, 25.0),
    "friction": (0.2, 0.3, 0.4, 0.5, 0.6, 0.81, 1.0),
    "restitution": (0.0, 0.3, 0.6, 0.9),
    "stiffness": (0.0, 3e3, 1e4, 3e4, 1e5),
}
# The random search's ranges: (low, high) drawn uniformly, or a tuple of choices.
SEARCH: dict[str, Any] = {
    "press": (0.0, 10.0),
    "model": ("pad", "finger"),
    "where": (-0.3, 0.3),
    "angle": (5.0, 75.0),
    "ramp": (0.2, 3.0),
    "shake": (0.0, 0.005),
    "frequency": (3.0, 25.0),
    "friction": (0.2, 1.0),
    "restitution": (0.0, 0.9),
    "stiffness": (0.0, 3e3, 1e4, 3e4, 1e5),
}


def in_place(world: World, slots: list[tuple[int, int, int]]) -> int:
    """How many of ``slots`` hold a die (any die) within IN_PLACE edges of the slot's centre."""
    if not slots:
        return 0
    _, poses = world.poses()
    if not len(poses):
        return 0
    local = geometry.in_plate_frame(poses[:, :3], world.plate_pose) / world.physics.edge
    centres = geometry.slot_centres(slots)
    near = np.linalg.norm(local[None, :, :] - centres[:, None, :], axis=2) < IN_PLACE
    return int(near.any(axis=1).sum())


def striped(slots: list[tuple[int, int, int]]) -> PyramidState:
    """A pyramid on ``slots`` whose colours only tell dice apart: red, green and black in turn (90 of each)."""
    return PyramidState({s: Cell(("red", "green", "black")[n % 3]) for n, s in enumerate(slots)})


def trial(setting: Setting, layers: int, seed: int) -> dict[str, Any]:
    """Build, press, tilt, shake, release: the dice in place at each moment (or the failure's cause)."""
    rng = np.random.default_rng([seed, 1])
    direction = float(rng.uniform(0, 360))
    physics = replace(
        Physics(), friction_die=setting.friction, restitution_die=setting.restitution, **DICE[setting.dice]
    )
    if physics.size_spread:
        physics = replace(physics, size_seed=seed)  # each seed a set of its own sizes
    slots = pyramid_slots(layers)
    apex = min(slots, key=geometry.layer)
    skeleton = sorted(skeleton_of(slots))
    others = [s for s in slots if s not in skeleton]
    row: dict[str, Any] = {"setting": asdict(setting), "layers": layers, "seed": seed, "direction": direction}
    row |= {"skeleton": len(skeleton), "others": len(others)}
    world = World(physics)
    try:
        world.build(striped(slots))
        c, edge = world.client, physics.edge
        if setting.stiffness > 0:
            # Soft contacts: a spring of this stiffness, critically damped for a die's mass.
            damping = 2.0 * math.sqrt(setting.stiffness * world.die_mass)
            for die in world.dice:
                c.changeDynamics(world._body(die), -1, contactStiffness=setting.stiffness, contactDamping=damping)
        world.settle()
        row["built"] = (in_place(world, skeleton), in_place(world, others))
        # The apex's top corner in the plate frame, moved ``where`` edges downhill.
        downhill = np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction)), 0.0])
        tip = geometry.slot_centre(apex) * edge + np.array([0.0, 0.0, edge * math.sqrt(3) / 2])
        tip = tip + setting.where * edge * downhill
        finger = constraint = None
        if setting.model == "finger" and setting.press > 0:
            shape = c.createCollisionShape(pb.GEOM_SPHERE, radius=FINGER_RADIUS)
            start = tip + np.array([0.0, 0.0, FINGER_RADIUS])
            finger = c.createMultiBody(0.02, shape, -1, basePosition=start.tolist())
            c.changeDynamics(finger, -1, lateralFriction=1.0, restitution=0.0)
            constraint = c.createConstraint(finger, -1, -1, -1, pb.JOINT_FIXED, [0, 0, 0], [0, 0, 0], start.tolist())
            c.changeConstraint(constraint, start.tolist(), maxForce=setting.press)
        marks: dict[str, tuple[int, int]] = {}
        step = world.substep
        start_time = world.time

        def substep(parts: int) -> None:
            if constraint is not None:
                pose = world.plate_pose
                rotation = geometry.quat_to_matrix(pose[3:])[0]
                target = pose[:3] + rotation @ (tip + np.array([0.0, 0.0, FINGER_RADIUS - FINGER_DEPTH]))
                c.changeConstraint(
                    constraint, target.tolist(), jointChildFrameOrientation=list(pose[3:]), maxForce=setting.press
                )
            step(parts)
            if "held" not in marks and world.time - start_time >= setting.ramp + setting.hold - 1e-9:
                marks["held"] = (in_place(world, skeleton), in_place(world, others))

        world.substep = substep  # type: ignore[method-assign]
        press = setting.press if setting.model == "pad" else 0.0
        tilt = Tilt(
            direction,
            setting.angle,
            ramp=setting.ramp,
            hold=setting.hold,
            shake=setting.shake,
            frequency=setting.frequency,
            press=press,
        )
        perform(world, tilt, rng)
        row["held"] = marks.get("held")
        row["down"] = (in_place(world, skeleton), in_place(world, others))
        if constraint is not None and finger is not None:
            c.removeConstraint(constraint)
            c.removeBody(finger)
        world.settle(timeout=10.0)
        row["after"] = (in_place(world, skeleton), in_place(world, others))
        row["off_plate"] = len(world.readout().off_plate())
    except (ImpossibleStateError, NotAtRestError, ValueError) as error:
        row["error"] = f"{type(error).__name__}: {error}"
    finally:
        world.close()
    return row


def score(pair: tuple[int, int] | list[int] | None) -> float:
    """The game's score of a moment: skeleton dice in place minus other dice in place."""
    return -math.inf if pair is None else float(pair[0] - pair[1])


def _key(setting: Setting, layers: int, seed: int) -> str:
    return json.dumps([asdict(setting), layers, seed], sort_keys=True)


def _run_one(job: tuple[Setting, int, int]) -> dict[str, Any]:
    return trial(*job)


def run(jobs: list[tuple[Setting, int, int]], out: Path, workers: int) -> list[dict[str, Any]]:
    """Run the jobs not yet in ``out`` (``workers`` processes), appending a row per trial; all rows."""
    rows = load(out)
    done = {_key(Setting(**r["setting"]), r["layers"], r["seed"]) for r in rows}
    todo = [j for j in jobs if _key(*j) not in done]
    if len(todo) < len(jobs):
        print(f"{len(jobs) - len(todo)} of {len(jobs)} trials already in {out}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a") as sink, multiprocessing.Pool(workers) if workers > 1 else _Serial() as pool:
        for row in tqdm(pool.imap_unordered(_run_one, todo), total=len(todo), desc="trials", unit="trial"):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            rows.append(row)
    return rows


class _Serial:
    """A pool of one, in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Any, jobs: list[Any]) -> Iterator[Any]:
        return map(fn, jobs)


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            print(f"{path}:{n}: not a JSON row, left out", file=sys.stderr)
    return rows


def sweep_jobs(seeds: int, layers: int, dice: str = "box") -> list[tuple[Setting, int, int]]:
    base = Setting(dice=dice)
    settings = {base}
    for name, values in SWEEP.items():
        settings |= {replace(base, **{name: v}) for v in values}
    # The press model matters for every factor: the sweep is run with both.
    settings |= {replace(s, model="finger") for s in list(settings)}
    return [(s, layers, seed) for s in sorted(settings, key=lambda s: json.dumps(asdict(s))) for seed in range(seeds)]


def search_jobs(trials: int, layers: int, seed: int, dice: str = "box") -> list[tuple[Setting, int, int]]:
    rng = np.random.default_rng([seed, 7])
    jobs = []
    for n in range(trials):
        values: dict[str, Any] = {}
        for name, space in SEARCH.items():
            if isinstance(space[0], str) or len(space) != 2:
                values[name] = space[int(rng.integers(len(space)))]
            else:
                values[name] = round(float(rng.uniform(*space)), 4)
        jobs.append((Setting(**values, dice=dice), layers, n))
    return jobs


def _mean(rows: list[dict[str, Any]], moment: str, index: int) -> float:
    values = [r[moment][index] for r in rows if r.get(moment) is not None]
    return float(np.mean(values)) if values else math.nan


def report(rows: list[dict[str, Any]], picture: Path | None, dice: str = "box") -> str:
    """Per factor (one at a time, around the programmed Flint on ``dice``): mean dice in place; then the best
    settings."""
    base = asdict(Setting(dice=dice))
    for r in rows:  # rows written before the dice were a factor: boxes
        r["setting"].setdefault("dice", "box")
    rows = [r for r in rows if r["setting"]["dice"] == dice]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        s = r["setting"]
        differ = [k for k in base if k != "model" and s[k] != base[k]]
        if len(differ) <= 1:
            groups[(s["model"], differ[0] if differ else "")].append(r)
    lines = []
    first = rows[0] if rows else {"skeleton": 0, "others": 0}
    lines.append(
        f"dice in place of {first['skeleton']} skeleton / {first['others']} others, mean over seeds "
        "(held: end of the hold, tilted and pressed; after: released and settled)"
    )
    curves: dict[tuple[str, str], list[tuple[Any, float, float]]] = defaultdict(list)
    for name in SWEEP:
        for model in ("pad", "finger"):
            lines.append(f"{name} ({model} press)")
            by_value: dict[Any, list[dict[str, Any]]] = defaultdict(list)
            for r in groups[(model, name)] + groups[(model, "")]:
                by_value[r["setting"][name]].append(r)
            for value in sorted(by_value, key=lambda v: (isinstance(v, str), v)):
                rs = by_value[value]
                failed = sum("error" in r for r in rs)
                held = (_mean(rs, "held", 0), _mean(rs, "held", 1))
                after = (_mean(rs, "after", 0), _mean(rs, "after", 1))
                curves[(name, model)].append((value, held[0], held[1]))
                lines.append(
                    f"  {name} = {value!s:<8} held {held[0]:5.1f} / {held[1]:5.1f}   after {after[0]:5.1f} / "
                    f"{after[1]:5.1f}   n = {len(rs)}" + (f", {failed} failed" if failed else "")
                )
    ranked = sorted((r for r in rows if "error" not in r), key=lambda r: -score(r.get("held")))[:8]
    lines.append("best single trials by skeleton minus others in place, held:")
    for r in ranked:
        s = r["setting"]
        lines.append(f"  held {r['held']}, after {r['after']}: " + ", ".join(f"{k} {v}" for k, v in s.items()))
    errors = [r for r in rows if "error" in r]
    if errors:
        lines.append(f"{len(errors)} trials failed, e.g. {errors[0]['error']}")
    if picture is not None:
        _plot(curves, picture, first)
        lines.append(f"picture: {picture}")
    return "\n".join(lines)


def _pyplot() -> Any:
    """matplotlib's pyplot drawing to files, or None (said on stderr) without the ``plots`` extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("the picture needs matplotlib: pip install -e '.[plots]'", file=sys.stderr)
        return None
    return plt


def _plot(curves: dict[tuple[str, str], list[tuple[Any, float, float]]], path: Path, first: dict[str, Any]) -> None:
    plt = _pyplot()
    if plt is None:
        return
    names = [n for n in SWEEP if n != "model"]
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(3, 3, figsize=(12, 10))
    for ax, name in zip(axes.flat, names, strict=False):
        for model, colour in (("pad", "tab:blue"), ("finger", "tab:red")):
            points = [(v, sk, ot) for v, sk, ot in curves.get((name, model), []) if not isinstance(v, str)]
            if not points:
                continue
            v, sk, ot = zip(*sorted(points), strict=True)
            ax.plot(v, sk, "o-", color=colour, label=f"skeleton ({model})")
            ax.plot(v, ot, "s--", color=colour, alpha=0.5, label=f"others ({model})")
        ax.set_title(name)
        ax.set_ylim(-0.5, max(first["skeleton"], first["others"]) + 0.5)
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("Captain Flint: dice in place at the end of the hold (pressed, tilted)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


# The book's trick, as the target figure measures it on the full pyramid: at least 19 of the 25 skeleton dice kept
# and at most 28 of the 140 others; as shares, for any number of layers.
BOOK_SKELETON = 19 / 25
BOOK_OTHERS = 28 / 140
OFF_DIAGONAL = 0.1  # a trial whose two shares differ by more than this keeps one part more than the other


def shares(row: dict[str, Any], moment: str = "held") -> tuple[float, float] | None:
    """The shares of the skeleton and of the other dice in place at ``moment`` (None: the trial failed)."""
    kept = row.get(moment)
    if kept is None or "error" in row:
        return None
    return kept[0] / row["skeleton"], kept[1] / row["others"]


def compare(files: list[Path], picture: Path | None) -> str:
    """Each file's trials (any dice, any settings) against the book's trick: how many keep the skeleton and shed
    the rest, and how far apart the two shares ever come (a block that holds or slides whole keeps them equal)."""
    lines = [
        f"trials whose held shares reach the book's (skeleton at least {BOOK_SKELETON:.2f}, others at most "
        f"{BOOK_OTHERS:.2f}); the trials whose skeleton share lies more than {OFF_DIAGONAL:g} below or above "
        "the others' share; the programmed Flint's mean shares; the widest gap, skeleton share minus others share"
    ]
    lines.append(
        f"{'file':<28}{'dice':>6}{'trials':>8}{'failed':>8}{'book':>6}{'below':>7}{'above':>7}{'Flint':>14}"
        f"{'widest gap':>12}  setting"
    )
    points: dict[str, list[tuple[float, float]]] = {}
    for path in files:
        rows = load(path)
        if not rows:
            lines.append(f"{path.name:<28} no rows")
            continue
        dice = str(rows[0]["setting"].get("dice", "box"))
        got = [(r, shares(r)) for r in rows]
        ok = [(r, s) for r, s in got if s is not None]
        book = sum(1 for _, (sk, ot) in ok if sk >= BOOK_SKELETON and ot <= BOOK_OTHERS)
        below = sum(1 for _, (sk, ot) in ok if sk < ot - OFF_DIAGONAL)
        above = sum(1 for _, (sk, ot) in ok if sk > ot + OFF_DIAGONAL)
        programmed = asdict(Setting(dice=dice))
        flint = [s for r, s in ok if r["setting"] == programmed]
        flint_text = f"{np.mean([s[0] for s in flint]):.2f} / {np.mean([s[1] for s in flint]):.2f}" if flint else "-"
        best, (sk, ot) = max(ok, key=lambda rs: rs[1][0] - rs[1][1]) if ok else ({}, (math.nan, math.nan))
        differ = {k: v for k, v in best.get("setting", {}).items() if programmed.get(k) != v}
        lines.append(
            f"{path.name:<28}{dice:>6}{len(rows):>8}{len(rows) - len(ok):>8}{book:>6}{below:>7}{above:>7}"
            f"{flint_text:>14}"
            f"{sk - ot:>12.2f}  {sk:.2f} / {ot:.2f}, seed {best.get('seed')}: "
            + (", ".join(f"{k} {v}" for k, v in differ.items()) or "the programmed Flint")
        )
        points[f"{dice} ({path.name})"] = [s for _, s in ok]
    if picture is not None and points:
        _plot_compare(points, picture)
        lines.append(f"picture: {picture}")
    return "\n".join(lines)


def _plot_compare(points: dict[str, list[tuple[float, float]]], path: Path) -> None:
    plt = _pyplot()
    if plt is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, len(points), figsize=(4 * len(points), 4.2), sharey=True, squeeze=False)
    rng = np.random.default_rng(0)  # a little spread, so that trials at the same shares show as many
    for ax, (label, pts) in zip(axes.flat, points.items(), strict=True):
        ax.add_patch(plt.Rectangle((0, BOOK_SKELETON), BOOK_OTHERS, 1.05 - BOOK_SKELETON, color="tab:green", alpha=0.2))
        ax.text(0.01, 0.97, "the book", color="tab:green", fontsize=8, va="top")
        ax.plot([0, 1], [0, 1], ":", color="grey", lw=1)
        if pts:
            xy = np.asarray(pts) + rng.normal(0, 0.008, (len(pts), 2))
            ax.scatter(xy[:, 1], xy[:, 0], s=10, alpha=0.5)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("other dice in place (share)")
        ax.set_xlim(-0.05, 1.05)
        ax.set_ylim(-0.05, 1.05)
    axes.flat[0].set_ylabel("skeleton dice in place (share)")
    fig.suptitle(
        "Captain Flint: every trial at the end of the hold (pressed, tilted)\n"
        "on the dotted diagonal the block holds or slides whole; above it the skeleton outlasts the rest"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def load_paths(
    layers: int, press: float, iterations: int, seconds: float = 0.5, dice: str = "box", tilt: float = 0.0
) -> dict[str, float]:
    """Where a press on the apex goes: the pyramid of ``layers`` of ``dice`` (a key of DICE) settled on the level
    plate, then pressed with the game's pad (``press`` N along the plate's normal) for ``seconds``, with
    ``iterations`` solver iterations (a press solves at least ``hands.PRESS_ITERATIONS``).

    In a lattice of rigid cubes standing corner-down, a die presses on the three below it along its own axes,
    one face each; a load along an axis goes on straight along it, and the three axes from the apex are the
    pyramid's three edges. Pressed only through its faces, the pyramid would carry the press to the plate
    through the skeleton, as struts, and the rest would carry only its own weight: the book's trick. Measured,
    each a mean over 0.1 s: the pad's push on the apex ("pad"); the rise of the plate's upward push on the three
    corner dice ("corners") and on all the others ("others": the funnels' cubes touch dice above the base too),
    each as a share of the press; the rise of the push between neighbouring dice of an edge, as a share of the
    press / sqrt(3) a strut would carry ("strut"); and how far the apex sank ("sunk mm"). With ``tilt`` (degrees)
    gravity turns that far, over 0.5 s, before the press: the plate tilted without moving it (pushes along its
    normal).
    """
    from pyramid.physics.actions import _press, _touch

    # Whole physics: local physics holds the dice nothing moves, and a held die has no contacts to read.
    physics = replace(Physics(), solver_iterations=iterations, local=False, **DICE[dice])
    dt = physics.time_step
    slots = pyramid_slots(layers)
    apex = min(slots, key=geometry.layer)
    skeleton = skeleton_of(slots)
    # Neighbours along an edge: the skeleton die of each slot and the one a layer down (one lattice step).
    edges = [
        (s, t)
        for s in skeleton
        for t in skeleton
        if geometry.layer(t) == geometry.layer(s) + 1 and sum(abs(a - b) for a, b in zip(s, t, strict=True)) == 1
    ]
    world = World(physics)
    try:
        world.build(striped(slots))
        world.settle()
        slot_of = {d: r.slot for d, r in world.readout().dice.items() if r.slot is not None}
        die_at = {s: d for d, s in slot_of.items()}
        c = world.client
        top = die_at[apex]
        corners = {die_at[s] for s in skeleton if geometry.layer(s) == geometry.BASE_LAYER and s in die_at}

        def push_up(die: int) -> float:
            # The plate's push up on a die (every die: the funnels' cubes touch dice above the base too): a
            # funnel's faces push along their normals, slanted, and rub along them. The normal points from the
            # plate to the die, PyBullet's friction directions the other way: so the settled pyramid's pushes add
            # up to its weight (7.82 N for 165 dice, to 0.1%).
            points = (p for body in world._plate_bodies for p in c.getContactPoints(world._body(die), body))
            return sum(p[9] * p[7][2] - p[10] * p[11][2] - p[12] * p[13][2] for p in points)

        def strut() -> float:
            # The mean push between neighbouring dice of an edge.
            forces = [
                sum(p[9] for p in c.getContactPoints(world._body(die_at[s]), world._body(die_at[t])))
                for s, t in edges
                if s in die_at and t in die_at
            ]
            return float(np.mean(forces)) if forces else math.nan

        def centre(die: int) -> np.ndarray:
            dice_now, poses = world.poses()
            return np.asarray(poses[dice_now.index(die), :3])

        if tilt:
            # Gravity turns from straight down towards +x, smoothly: the plate as if tilted, standing still.
            steps = max(1, round(0.5 / dt))
            for n in range(1, steps + 1):
                angle = math.radians(tilt) * (1 - math.cos(math.pi * n / steps)) / 2
                world.set_gravity((physics.gravity * math.sin(angle), 0.0, -physics.gravity * math.cos(angle)))
                world.step(dt)
        touch, zero = _touch(world, top), np.zeros(3)
        start = geometry.in_plate_frame(centre(top), world.plate_pose)
        height = centre(top)[2]

        def run(steps: int, pressing: bool, measure: bool) -> tuple[float, float, float, float]:
            # ``steps`` steps, the pad pressing or not; measured: the means over them of the plate's push on the
            # corner dice and on the others, of the push along the edges and of the pad's push on the apex.
            sums = np.zeros(4)
            for _ in range(steps):
                if pressing:
                    _press(world, top, press, touch, start, zero, zero)
                world.step(dt)
                if not measure:
                    continue
                up = {d: push_up(d) for d in world.dice}
                pad = 0.0
                if world._finger is not None:
                    pad = sum(p[9] for p in c.getContactPoints(world._finger[0], world._body(top)))
                on_corners = sum(f for d, f in up.items() if d in corners)
                sums += (on_corners, sum(up.values()) - on_corners, strut(), pad)
            corners_, others, along, pad_ = (sums / steps).tolist()
            return corners_, others, along, pad_

        window = max(1, round(0.1 / dt))  # forces from one step jitter: each measured as a mean over 0.1 s
        before = run(window, pressing=False, measure=True)
        run(max(1, round(seconds / dt)), pressing=True, measure=False)
        after = run(window, pressing=True, measure=True)
        sunk = float(height - centre(top)[2])
        world.press(None)
    finally:
        world.close()
    return {
        "pad": after[3] / press,
        "corners": (after[0] - before[0]) / press,
        "others": (after[1] - before[1]) / press,
        "strut": (after[2] - before[2]) / (press / math.sqrt(3)),
        "sunk mm": 1000 * sunk,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "mode",
        choices=("sweep", "search", "report", "compare", "load"),
        help="what to run (report: only print; compare: the --files against the book's trick; load: where a press "
        "on the apex goes, whole physics, --press and --iterations)",
    )
    parser.add_argument("--layers", type=int, default=5, help="layers of the pyramid, 2 to 9 (default 5: 35 dice)")
    parser.add_argument("--seeds", type=int, default=3, help="sweep: seeds (tilt directions) per setting (default 3)")
    parser.add_argument("--trials", type=int, default=100, help="search: random settings to try (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="search: the generator's seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", type=Path, default=Path("runs/flint_study.jsonl"), help="the rows (JSON lines)")
    parser.add_argument("--picture", type=Path, default=Path("runs/flint_study.png"), help="the sweep's plot")
    parser.add_argument("--list", action="store_true", help="print the factors and their values, and stop")
    parser.add_argument(
        "--dice",
        choices=tuple(DICE),
        default="box",
        help="the dice: box (default); hull (rounded by 1 mm); real (hull, sizes spread 0.05 mm); "
        "worn (rounded 2 mm, spread 0.1 mm): docs/studies/real-dice.md",
    )
    parser.add_argument("--files", type=Path, nargs="+", default=[], help="compare: the row files (JSON lines)")
    parser.add_argument("--press", default="2,5,10", help="load: presses, N, comma-separated (default 2,5,10)")
    parser.add_argument("--iterations", default="24,400", help="load: solver iterations, comma-separated")
    parser.add_argument("--tilt", type=float, default=0.0, help="load: gravity turned this far (degrees), 0 to 60")
    a = parser.parse_args()
    if a.mode == "load":
        try:
            presses = [float(x) for x in a.press.split(",")]
            iterations = [int(x) for x in a.iterations.split(",")]
        except ValueError:
            parser.error(
                f"--press takes numbers and --iterations whole numbers, comma-separated: {a.press!r}, {a.iterations!r}"
            )
        if not all(0 < p <= PRESS_LIMIT for p in presses) or not all(1 <= n <= 1000 for n in iterations):
            parser.error(f"--press is above 0 up to {PRESS_LIMIT:g} N, --iterations 1 to 1000")
        if not 2 <= a.layers <= 9:
            parser.error(f"--layers must be 2 to 9, got {a.layers}")
        if not 0 <= a.tilt <= 60:
            parser.error(f"--tilt is 0 to 60 degrees, got {a.tilt:g}")
        print(
            f"{a.dice} dice, {a.layers} layers, whole physics" + (f", gravity turned {a.tilt:g} deg" if a.tilt else "")
        )
        print(f"{'iterations':>10}{'press N':>9}{'pad':>7}{'corners':>9}{'others':>9}{'strut':>7}{'sunk mm':>9}")
        for n in iterations:
            for press in presses:
                r = load_paths(a.layers, press, n, dice=a.dice, tilt=a.tilt)
                print(
                    f"{n:>10}{press:>9g}{r['pad']:>7.2f}{r['corners']:>9.3f}{r['others']:>9.3f}"
                    f"{r['strut']:>7.3f}{r['sunk mm']:>9.3f}",
                    flush=True,
                )
        return
    if a.mode == "compare":
        missing = [str(f) for f in a.files if not f.is_file()]
        if not a.files or missing:
            parser.error(f"compare needs --files of rows that exist; missing: {', '.join(missing) or 'no --files'}")
        print(compare(a.files, a.picture))
        return
    if a.list:
        for name, values in SWEEP.items():
            print(f"{name:<12} sweep {values}   search {SEARCH[name]}   default {getattr(Setting(), name)}")
        return
    for name, value, low, high in (
        ("--layers", a.layers, 2, 9),
        ("--seeds", a.seeds, 1, 1000),
        ("--trials", a.trials, 1, 100000),
        ("--workers", a.workers, 1, 64),
    ):
        if not low <= value <= high:
            parser.error(f"{name} must be {low} to {high}, got {value}")
    if a.mode == "sweep":
        rows = run(sweep_jobs(a.seeds, a.layers, a.dice), a.out, a.workers)
    elif a.mode == "search":
        rows = run(search_jobs(a.trials, a.layers, a.seed, a.dice), a.out, a.workers)
    else:
        rows = load(a.out)
    rows = [r for r in rows if r["layers"] == a.layers]
    if not rows:
        print(f"no rows for {a.layers} layers in {a.out}")
        return
    print(report(rows, a.picture, a.dice))


if __name__ == "__main__":
    main()
