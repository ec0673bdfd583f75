"""Why Emag's face-on-face tower falls: one solver or placement setting changed at a time.

Six box dice set exactly on one another on the bare table (``real_dice_study.py --tower``: each die 10 um above
the one below, every world nudged by its jitter seed, whole physics, 24 solver iterations) fall within 3 s;
towers of two or three stand. For each candidate (``--list``; "a+b" combines two) this prints the top die's
sideways drift after ``--seconds`` (die edges; "fell": more than half an edge) per seed, how fast the top die
still moves in the last two seconds (mm/s, the median over seeds; a tower that fell lies still, about 0), and
with ``--game-seeds`` how many dice high Emag's programmed tower stands on the plate at the end of its turn
(``pyramid play 5 --players stack-tower``).

    .venv/bin/python examples/tower_study.py --list                         # the candidates
    nice -n 10 .venv/bin/python examples/tower_study.py                     # every candidate, seeds 0 to 4: 40 s
    nice -n 10 .venv/bin/python examples/tower_study.py --only default,breaking_20mm --seeds 10 --game-seeds 10
    .venv/bin/python examples/tower_study.py --only breaking_20mm+warm_0.85 --dice 8
    .venv/bin/python examples/tower_study.py --contacts --only default,anchors_off,breaking_20mm --seeds 2
    nice -n 10 .venv/bin/python examples/tower_study.py --costs breaking_20mm,step_300hz   # a few minutes

``--contacts`` prints, every 50 ms of the first second, the contact points the six contacts' manifolds dropped
and how far the top die is off its start, then how far a contact point's two halves slid apart (um): Bullet drops
a point once they are ``contact_breaking_threshold`` times the smaller shape's bounding radius apart (a die's
13.9 mm: 28 um at the default 2 mm), and with friction anchors a point whose friction stays inside the cone
keeps where it first touched. ``--costs`` gives candidates' price elsewhere, beside the defaults: the six 1 cm
drops of ``pyramid bench``, a die on a slope of the table and in a funnel of a tilted plate (the friction
figures of docs/physics.md), and the awake full pyramid's sag and speed (CPU time; compare rows of one run).
The study and its figures: docs/studies/real-dice.md, "Why the tower falls".
"""

from __future__ import annotations

import argparse
import math
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.dice import EDGE
from pyramid.lab import bench
from pyramid.physics import actions
from pyramid.physics.bullet import pb
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.play import play_game
from pyramid.skillgames.more import Emag

GAP = 1e-5  # m between dice as the tower is put down, as real_dice_study.py --tower puts it


@dataclass(frozen=True)
class Candidate:
    """One change from the defaults: Physics fields, engine parameters set after the world is built, per-die
    dynamics, and how the tower is put down (``gap`` between dice, metres; negative: an overlap)."""

    label: str
    physics: dict[str, Any] = field(default_factory=dict)
    engine: dict[str, Any] = field(default_factory=dict)
    die: dict[str, Any] = field(default_factory=dict)
    gap: float = GAP
    jitter: bool = True


CANDIDATES = {
    "default": Candidate("the defaults"),
    "anchors_off": Candidate("friction anchors off", {"friction_anchor": False}),
    "friction_erp_0": Candidate("anchors, friction_erp 0 (no pull back)", {"friction_erp": 0.0}),
    "friction_erp_0.005": Candidate("anchors, friction_erp 0.005", {"friction_erp": 0.005}),
    "friction_erp_0.02": Candidate("anchors, friction_erp 0.02", {"friction_erp": 0.02}),
    "friction_erp_0.2": Candidate("anchors, friction_erp 0.2 (Bullet's)", {"friction_erp": 0.2}),
    "restitution_0": Candidate("restitution 0 (dice, table)", {"restitution_die": 0.0, "restitution_table": 0.0}),
    "restitution_threshold_5": Candidate("restitution threshold 5 m/s", {"restitution_threshold": 5.0}),
    "contact_erp_0.2": Candidate("contact ERP 0.2", {"contact_erp": 0.2}),
    "contact_erp_0.4": Candidate("contact ERP 0.4", {"contact_erp": 0.4}),
    "contact_erp_0.8": Candidate("contact ERP 0.8", {"contact_erp": 0.8}),
    "split_off": Candidate("split impulse off", {"split_impulse": False}),
    "split_threshold_bullet": Candidate("split impulse from 4 cm (Bullet's)", {"split_impulse_threshold": -0.04}),
    "warm_0": Candidate("warm starting 0", {"warm_starting": 0.0}),
    "warm_0.7": Candidate("warm starting 0.7", {"warm_starting": 0.7}),
    "warm_0.85": Candidate("warm starting 0.85 (Bullet's)", {"warm_starting": 0.85}),
    "warm_0.95": Candidate("warm starting 0.95", {"warm_starting": 0.95}),
    "breaking_0.5mm": Candidate("contact breaking threshold 0.5 mm", {"contact_breaking_threshold": 0.0005}),
    "breaking_5mm": Candidate("contact breaking threshold 5 mm", {"contact_breaking_threshold": 0.005}),
    "breaking_10mm": Candidate("contact breaking threshold 10 mm", {"contact_breaking_threshold": 0.01}),
    "breaking_20mm": Candidate("contact breaking threshold 20 mm", {"contact_breaking_threshold": 0.02}),
    "step_100hz": Candidate("time step 1/100 s", {"time_step": 1 / 100}),
    "step_240hz": Candidate("time step 1/240 s (PyBullet's)", {"time_step": 1 / 240}),
    "step_300hz": Candidate("time step 1/300 s", {"time_step": 1 / 300}),
    "step_400hz": Candidate("time step 1/400 s", {"time_step": 1 / 400}),
    "substeps_2": Candidate("2 sub-steps a step", engine={"numSubSteps": 2}),
    "no_sleep": Candidate("deactivation disabled", die={"activationState": pb.ACTIVATION_STATE_DISABLE_SLEEPING}),
    "margin": Candidate("die_shape margin (1 mm collision margin)", {"die_shape": "margin"}),
    "hull": Candidate("die_shape hull, two steps (rounded dice)", {"die_shape": "hull", "hull_segments": 2}),
    "hull_gjk": Candidate(
        "die_shape hull, two steps, GJK's normal", {"die_shape": "hull", "hull_segments": 2, "hull_axis": "gjk"}
    ),
    "compound": Candidate("die_shape compound (boxes and capsules)", {"die_shape": "compound"}),
    "hull_real": Candidate(
        "die_shape hull, two steps, GJK's normal, sizes spread 0.05 mm",
        {"die_shape": "hull", "hull_segments": 2, "hull_axis": "gjk", "size_spread": 5e-5},
    ),
    "rolling_1e-4": Candidate("rolling friction 1e-4", {"rolling_friction": 1e-4}),
    "spinning_1e-4": Candidate("spinning friction 1e-4", {"spinning_friction": 1e-4}),
    "no_jitter": Candidate("no jitter (one world: the seeds are the same)", jitter=False),
    "gap_0": Candidate("set touching (gap 0)", gap=0.0),
    "gap_1mm": Candidate("set 1 mm apart", gap=1e-3),
    "overlap_1um": Candidate("set 1 um into each other", gap=-1e-6),
    "density_x10": Candidate("ten times the density", {"density": 11800.0}),
    "iterations_50": Candidate("50 solver iterations (not 24)", {"solver_iterations": 50}),
    "iterations_100": Candidate("100 solver iterations (not 24)", {"solver_iterations": 100}),
}


def candidate(name: str) -> Candidate:
    """A candidate by name; names joined by "+" combine their changes (the later wins where they overlap)."""
    parts = [CANDIDATES[n] for n in name.split("+")]
    merged = Candidate(" + ".join(p.label for p in parts))
    for p in parts:
        merged = replace(
            merged,
            physics={**merged.physics, **p.physics},
            engine={**merged.engine, **p.engine},
            die={**merged.die, **p.die},
            gap=p.gap if p.gap != GAP else merged.gap,
            jitter=merged.jitter and p.jitter,
        )
    return merged


def tower_world(c: Candidate, seed: int, dice: int = 6) -> World:
    """The tower of ``dice`` box dice on the bare table, put down as ``c`` says, not yet stepped."""
    world = World(replace(Physics(), local=False, jitter=seed if c.jitter else None, **c.physics), plate=False)
    if c.engine:
        world.client.setPhysicsEngineParameter(**c.engine)
    for n in range(dice):
        world.throw(n, (0.0, 0.0, EDGE / 2 + n * EDGE + c.gap * (n + 1)))
        if c.die:
            world.client.changeDynamics(world._body(n), -1, **c.die)
    return world


def tower(c: Candidate, seed: int, seconds: float = 3.0, dice: int = 6) -> tuple[float, float]:
    """(the top die's sideways drift in edges after ``seconds``, its mean speed in mm/s over the last 2 s)."""
    world = tower_world(c, seed, dice)
    world.step(max(seconds - 2.0, 0.0))
    speeds = []
    for _ in range(round(min(seconds, 2.0) / 0.01)):
        world.step(0.01)
        speeds.append(float(np.linalg.norm(world.velocities()[-1, :3])))
    _, poses = world.poses()
    world.close()
    return float(np.linalg.norm(poses[-1, :2]) / EDGE), 1e3 * float(np.mean(speeds))


def game_height(c: Candidate, seed: int) -> tuple[int, int]:
    """Dice high that Emag's programmed tower (``stack-tower``) stands at the end of its turn on the plate, and the
    most it stood during the turn: the hand sets die N down only on a tower of N dice standing upright."""
    said: list[str] = []
    game = play_game(Emag, ["stack-tower"], seed, physics=replace(Physics(), **c.physics), log=said.append)
    end = max(0, round(game.scores()[0] / 100 / EDGE - geometry.SLAB_TOP))
    set_on = [int(m.group(1)) for line in said if (m := re.search(r"throw die (\d+) from", line))]
    return end, max([end, *set_on])


def contacts(c: Candidate, seed: int, seconds: float = 1.0, window: float = 0.05) -> tuple[list[str], float, float]:
    """Over ``seconds``, per ``window``: "points dropped/top die's sideways offset in mm" (the six contacts' manifolds);
    and the median and largest sideways distance between a contact point's two halves (um)."""
    world = tower_world(c, seed)
    h = world.physics.time_step
    bodies = [world.table, *(world._body(n) for n in range(6))]
    before = [0] * 6
    dropped, apart, windows = 0, [], []
    for step in range(1, round(seconds / h) + 1):
        world.step(h)
        for k in range(6):
            points = world.client.getContactPoints(bodies[k], bodies[k + 1])
            dropped += max(before[k] - len(points), 0)
            before[k] = len(points)
            # The two halves' offset across the normal: how far a kept point has slid since it was made.
            apart += [np.linalg.norm(np.subtract(p[5], p[6]) - np.multiply(p[7], p[8])) for p in points]
        if step % round(window / h) == 0:
            _, poses = world.poses()
            windows.append(f"{dropped}/{1e3 * np.linalg.norm(poses[-1, :2]):.2f}")
            dropped = 0
    world.close()
    return windows, 1e6 * float(np.median(apart)), 1e6 * float(np.max(apart))


def slid_on_slope(physics: Physics, degrees: float) -> float:
    """Edges a die lying on the table slides in 1 s under gravity tilted by ``degrees`` (it holds to 22.0)."""
    world = World(replace(physics, sleep_after_settle=False), plate=False)
    world.throw(0, (0.0, 0.0, physics.edge / 2))
    world.step(0.2)
    # Gravity turned by ``degrees`` towards azimuth 30 degrees, as examples/support_probe.py turns it.
    t, g, azimuth = math.radians(degrees), physics.gravity, math.radians(30.0)
    world.set_gravity((g * math.sin(t) * math.cos(azimuth), g * math.sin(t) * math.sin(azimuth), -g * math.cos(t)))
    _, before = world.poses()
    world.step(1.0)
    _, after = world.poses()
    world.close()
    return float(np.linalg.norm(after[0, :3] - before[0, :3]) / physics.edge)


def left_funnel(physics: Physics, degrees: float, seed: int) -> bool:
    """Whether a die seated in a funnel leaves it on the plate tilted by ``degrees`` (Coulomb: from 62.3)."""
    world = World(replace(physics, jitter=seed))
    world.place(0, (3, 3, 2))
    world.settle()
    actions.perform(world, actions.Tilt(180.0, degrees, hold=0.8), np.random.default_rng(seed))
    world.settle(raise_on_timeout=False)
    left = world.readout(require_rest=False).dice[0].slot != (3, 3, 2)
    world.close()
    return left


def costs(names: list[str], seconds: float, parts: str = "drop,slope,tilt,awake") -> None:
    """The candidates' price elsewhere, beside the defaults: six 1 cm drops onto the table, a die on a slope, a
    die in a funnel of a tilted plate (five nudged starts an angle), the awake full pyramid's sag and speed."""
    for label in ["default", *names]:
        physics = replace(Physics(), **candidate(label).physics)
        if "drop" in parts:
            print(f"{label}: {bench.gentle_drop(physics).note} gentle 1 cm drops keep their face", flush=True)
        if "slope" in parts:
            slopes = {deg: slid_on_slope(physics, deg) for deg in (18.0, 21.0, 22.0, 23.0, 24.0)}
            slid = ", ".join(f"{d:g}: {e:.3f}" for d, e in slopes.items())
            print(f"{label}: slope (deg: edges slid in 1 s) {slid}", flush=True)
        if "tilt" in parts:
            tilts = {d: sum(left_funnel(physics, d, seed) for seed in range(5)) for d in (52.0, 58.0, 62.0, 66.0, 72.0)}
            left = ", ".join(f"{d:g}: {n}" for d, n in tilts.items())
            print(f"{label}: tilted plate (deg: dice of 5 that left) {left}", flush=True)
        if "awake" not in parts:
            continue
        awake = bench.awake_pyramid(replace(physics, local=False), seconds, label, clock=time.process_time)
        print(
            f"{label}: awake pyramid {seconds:g} s: sag mean {awake.sag_mean:.4f} max {awake.sag_max:.4f} edges, "
            f"{awake.realtime:.2f} x real time (CPU)",
            flush=True,
        )


def main() -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        description=doc.splitlines()[0],
        epilog=doc.split("\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only", default="", help="candidates, comma-separated (default: all; --list names them); a+b combines two"
    )
    parser.add_argument("--list", action="store_true", help="name every candidate and stop")
    parser.add_argument("--seeds", type=int, default=5, help="jitter seeds of the bare-table tower")
    parser.add_argument("--first-seed", type=int, default=0, help="the first jitter seed (and game seed)")
    parser.add_argument("--seconds", type=float, default=3.0, help="simulated seconds a tower is left")
    parser.add_argument("--dice", type=int, default=6, help="dice in the bare-table tower")
    parser.add_argument("--game-seeds", type=int, default=0, help="also play Emag's tower with N seeds")
    parser.add_argument("--contacts", action="store_true", help="the contact points dropped, every 50 ms, instead")
    parser.add_argument("--costs", metavar="NAMES", help="candidates' price elsewhere instead, comma-separated")
    parser.add_argument("--parts", default="drop,slope,tilt,awake", help="with --costs: which of them to run")
    parser.add_argument("--awake-seconds", type=float, default=2.0, help="with --costs: the awake pyramid's time")
    args = parser.parse_args()
    if args.list:
        for name, c in CANDIDATES.items():
            print(f"{name:<24} {c.label}")
        return
    if args.costs:
        costs([n for n in args.costs.split(",") if n != "default"], args.awake_seconds, args.parts)
        return
    names = [n for n in args.only.split(",") if n] or list(CANDIDATES)
    unknown = [n for name in names for n in name.split("+") if n not in CANDIDATES]
    if unknown:
        parser.error(f"unknown candidates {', '.join(unknown)}: --list names them")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    for name in names:
        c = candidate(name)
        if args.contacts:
            for seed in seeds:
                windows, median, largest = contacts(c, seed)
                print(
                    f"{name} seed {seed}: points dropped/top's offset (mm) every 50 ms of the first 1 s: "
                    f"{' '.join(windows)}; a point's halves apart (um): median {median:.1f}, largest {largest:.1f}",
                    flush=True,
                )
            continue
        towers = [tower(c, seed, args.seconds, args.dice) for seed in seeds]
        drifts = [d for d, _ in towers]
        line = (
            f"{name:<24} {' '.join(f'{d:5.2f}' for d in drifts)}  fell {sum(d > 0.5 for d in drifts)} of "
            f"{len(drifts)}, top {np.median([s for _, s in towers]):6.2f} mm/s"
        )
        # The game builds its own worlds from Physics alone: engine, per-die and placement candidates are skipped.
        if args.game_seeds and not (c.engine or c.die or not c.jitter or c.gap != GAP):
            games = [game_height(c, seed) for seed in range(args.first_seed, args.first_seed + args.game_seeds)]
            heights, tallest = [e for e, _ in games], [t for _, t in games]
            line += (
                f" | game {heights}: 5 high in {sum(h >= 5 for h in heights)} of {len(heights)} at the end; "
                f"tallest {tallest}: stood 5 high in {sum(t >= 5 for t in tallest)}"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
