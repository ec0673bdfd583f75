"""Build a pyramid in physics, take dice off the top as El Dado players would, and score what shows.

Demonstrates the public API of the foundation: World.build / settle / remove / readout, the
Readout's free dice and face counts, and the text notation. Run:
    .venv/bin/python examples/build_and_score.py --seed 3 --take 6
"""

from __future__ import annotations

import argparse

import numpy as np

from pyramid import geometry
from pyramid.perception import Status
from pyramid.physics.world import World
from pyramid.state import random_pattern


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the colour pattern and the choices")
    parser.add_argument("--take", type=int, default=6, help="how many free dice to lift out")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    world = World()
    # A 56-die pyramid standing on the centre of the plate, in random colours and orientations.
    slots = geometry.small_pyramid(56, geometry.small_pyramid_apexes(56)["centre"])
    world.build(random_pattern(slots, rng, random_faces=True))
    world.settle()
    readout = world.readout()
    print("built:", readout.notation())
    print("faces per colour:", dict(readout.face_count()))

    for turn in range(args.take):
        free = readout.free_dice()
        die = int(rng.choice(free))
        world.remove(die)  # a hand pulls it out; physics decides what else moves
        world.settle()
        readout = world.readout()
        fallen = [d for d, r in readout.dice.items() if r.status is not Status.SEATED]
        print(f"turn {turn + 1}: lifted die {die} of {len(free)} free; dice out of their slots: {fallen}")
    print("now:", readout.notation())
    print("faces per colour:", dict(readout.face_count()))


if __name__ == "__main__":
    main()
