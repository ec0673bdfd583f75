"""How many dice of the slippery pyramid still move after 3 s, by die friction, step rate and solver iterations.

    python examples/slippery_grid.py                 # the table of docs/physics.md (about 4 minutes)
    python examples/slippery_grid.py --seconds 10    # a longer wait

Builds the full pyramid of ``scenes/slippery.toml`` (its seed) for every setting, steps it ``--seconds``
and counts the dice faster than 1 mm/s. One seed per setting: a map of where the solver gives up, not
a statistic.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools

import numpy as np

from pyramid.lab.runner import build_start
from pyramid.lab.scene import load_scene, reserved_dice
from pyramid.physics.world import World

FRICTIONS = (0.3, 0.4, 0.5, 0.6, 0.81)  # each die's value; die on die is its square
SOLVERS = ((1 / 150, 24), (1 / 150, 50), (1 / 200, 24), (1 / 200, 36), (1 / 200, 50))  # time step, iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="simulated seconds after the build (default 3)")
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds must be above 0 (got {args.seconds})")
    scene = load_scene("scenes/slippery.toml")
    print("die on die    Hz  iterations  moving  fastest (m/s)")
    for friction, (step, iterations) in itertools.product(FRICTIONS, SOLVERS):
        physics = dataclasses.replace(
            scene.physics, friction_die=friction, time_step=step, solver_iterations=iterations
        )
        world = World(physics, plate=scene.plate)
        try:
            build_start(world, scene.start, np.random.default_rng(scene.seed), reserved_dice(scene))
            world.step(args.seconds)
            speeds = np.linalg.norm(world.velocities()[:, :3], axis=1)
        finally:
            world.close()
        moving = int((speeds > 1e-3).sum())
        print(f"{friction**2:10.2f} {1 / step:5.0f} {iterations:11d} {moving:7d} {speeds.max():14.3f}", flush=True)


if __name__ == "__main__":
    main()
