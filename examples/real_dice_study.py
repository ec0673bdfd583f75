"""The die's collision shapes compared: contacts at rest, the full pyramid's height, sag and speed.

For each ``Physics.die_shape`` (the sharp box, and the die rounded by ``edge_radius`` as a hull, a compound and a
box with a margin) this prints one row of docs/studies/real-dice.md's first table:

- contact points of a die lying on a face on the table, and of a die lying on it, 0.2 s after they are put
  down (a full contact patch is four; fewer means one point a step and a die that rocks or spins);
- the full pyramid built, settled and read back: whether every die reads in its slot with its faces, and how
  far the apex stands above its slot in the lattice of the die's edge (mm; a rounded die seats deeper or not);
- the awake full pyramid (whole physics, never held, as ``pyramid bench``'s row) left ``--seconds``: its
  real-time ratio by CPU time and its sag (mean and largest, die edges), and that ratio against the box in
  the same run.

    nice -n 10 .venv/bin/python examples/real_dice_study.py                      # every shape, 10 s each
    nice -n 10 .venv/bin/python examples/real_dice_study.py --shapes box,hull --seconds 2 --spread 5e-5
    .venv/bin/python examples/real_dice_study.py --tower       # Emag's face-on-face tower of six, each shape
    nice -n 10 .venv/bin/python examples/real_dice_study.py --shapes hull --segments 2 --axis gjk  # GJK's normal

The fair-die and long-dice columns come from ``pyramid experiment`` with ``--set physics.die_shape=...``
(the commands are on the study's page).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from pyramid.lab import bench
from pyramid.lab.bench import Figure
from pyramid.lab.locality import full_state
from pyramid.physics.settings import DIE_SHAPES, HULL_AXES, Physics
from pyramid.physics.world import World


def contacts_at_rest(physics: Physics) -> tuple[int, int]:
    """Contact points (die on table, die on die) of dice lying flat, 0.2 s after they are put down."""
    world = World(physics, plate=False)
    a = physics.edge
    world.throw(0, (0.0, 0.0, a / 2 + 1e-5))
    world.throw(1, (0.1, 0.0, a / 2 + 1e-5))
    world.throw(2, (0.1, 0.0, 1.5 * a + 1e-4))
    world.step(0.2)
    table = len(world.client.getContactPoints(world._body(0), world.table))
    stacked = len(world.client.getContactPoints(world._body(2), world._body(1)))
    world.close()
    return table, stacked


def pyramid_readback(physics: Physics) -> tuple[bool, float, float]:
    """Build the full pyramid and settle it: (every die reads back in its slot, apex height over its slot in mm,
    the largest distance of a die from its slot centre in edges)."""
    world = World(physics)
    state = full_state()
    world.build(state)
    world.settle(timeout=10.0, raise_on_timeout=False)
    readout = world.readout(require_rest=False)
    right = readout.pyramid == state
    dice, poses = world.poses()
    ideal = np.array([world.slot_pose(slot)[0] for slot in readout.slot_die])
    placed = np.array([poses[dice.index(die)][:3] for die in readout.slot_die.values()])
    apex = list(readout.slot_die).index((0, 0, 0)) if (0, 0, 0) in readout.slot_die else None
    height = float(placed[apex, 2] - ideal[apex, 2]) * 1e3 if apex is not None else float("nan")
    worst = float(np.linalg.norm(placed - ideal, axis=1).max() / physics.edge)
    world.close()
    return right, height, worst


def awake_pyramid(physics: Physics, seconds: float) -> Figure:
    """``pyramid bench``'s awake pyramid, timed by this process's CPU time: the machine's other loads (a shared
    machine) change the wall time far more than the work; the ratio to the box is the figure to read."""
    return bench.awake_pyramid(physics, seconds, physics.die_shape, clock=time.process_time)


def tower_drift(physics: Physics, seeds: int = 5, dice: int = 6, seconds: float = 3.0) -> list[float]:
    """Emag's face-on-face tower: ``dice`` dice set exactly on one another on the bare table, each world
    nudged by its jitter seed; how far the top die drifts sideways in ``seconds`` (edges), per seed."""
    drifts = []
    for seed in range(seeds):
        world = World(replace(physics, jitter=seed, local=False), plate=False)
        a = physics.edge
        for n in range(dice):
            world.throw(n, (0.0, 0.0, a / 2 + n * a + 1e-5 * (n + 1)))
        world.step(seconds)
        _, poses = world.poses()
        drifts.append(float(np.linalg.norm(poses[-1, :2]) / a))
        world.close()
    return drifts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(DIE_SHAPES), help="die shapes, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="simulated seconds of the awake pyramid")
    parser.add_argument("--radius", type=float, default=Physics().edge_radius, help="edge_radius (m)")
    parser.add_argument("--spread", type=float, default=0.0, help="size_spread (m)")
    parser.add_argument("--segments", type=int, default=Physics().hull_segments, help="hull_segments")
    parser.add_argument("--axis", choices=HULL_AXES, default=Physics().hull_axis, help="hull_axis: sat or gjk")
    parser.add_argument("--tower", action="store_true", help="only Emag's tower of six dice, five nudged seeds")
    args = parser.parse_args()
    if args.tower:
        for shape in args.shapes.split(","):
            drifts = tower_drift(
                Physics(
                    die_shape=shape,
                    edge_radius=args.radius,
                    size_spread=args.spread,
                    hull_segments=args.segments,
                    hull_axis=args.axis,
                )
            )
            fell = sum(d > 0.5 for d in drifts)
            print(f"{shape:<9} tower of 6: top die's drift in 3 s (edges) {[round(d, 3) for d in drifts]}; fell {fell}")
        return
    shapes = args.shapes.split(",")
    print(
        f"{'shape':<9} {'table':>5} {'on die':>6}  {'reads':<5} {'apex mm':>8} {'worst':>6}  {'x real':>7} "
        f"{'sag mean':>9} {'sag max':>8}  vs box"
    )
    box_speed = None
    for shape in ["box", *[s for s in shapes if s != "box"]]:
        physics = Physics(
            die_shape=shape,
            edge_radius=args.radius,
            size_spread=args.spread,
            hull_segments=args.segments,
            hull_axis=args.axis,
        )
        table, stacked = contacts_at_rest(physics)
        right, height, worst = pyramid_readback(physics)
        awake = awake_pyramid(replace(physics, local=False), args.seconds)
        speed = awake.realtime or 0.0
        box_speed = box_speed or speed
        if shape in shapes:
            print(
                f"{shape:<9} {table:>5} {stacked:>6}  {'yes' if right else 'NO':<5} {height:>+8.3f} {worst:>6.3f}  "
                f"{speed:>7.2f} {awake.sag_mean or 0:>9.4f} {awake.sag_max or 0:>8.4f}  {speed / box_speed:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
