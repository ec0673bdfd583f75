"""Where a die that leaves the table ends up: the figures behind the floor in ``pyramid.physics.stage``.

Each fall: one die leaves the table's edge as the hardest flick can send it (``random_hands.fall_off_table``:
0 to 4.2 m/s outward, -0.5 to 2 m/s up, 0 to 1100 rad/s of spin, any orientation), seeded. The world then
settles (10 s at most).
Counted per floor: falls the world stops as impossible, split into dice that sank into the floor where it
is (over it) and dice that went off its far edge and fell past it; falls still moving after 10 s; and how
far from the table's centre the dice came to rest (and how many beyond 5 m, the old floor's edge).

Floors (``--floor``, several allowed):
  thin     a 10 m square, 0.1 m thick box without walls (the floor before walls)
  thick    the same 10 m square 1 m thick
  ccd0     thin, the die's continuous collision detection off (ccdSweptSphereRadius 0)
  ccd50    thin, the swept sphere half an edge across (0.5 edge, the world's is 0.4)
  step1000 thin, every step 1 ms instead of 5 ms (the whole world)
  now      the floor the world has now (``stage.make_table``): 100 m square, the table on a closed base
Run (about a minute per floor at 500 falls):
    .venv/bin/python examples/floor_probe.py --falls 500
    .venv/bin/python examples/floor_probe.py --floor thin --floor now --falls 200
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from pyramid.lab.random_hands import fall_off_table
from pyramid.physics import stage
from pyramid.physics.bullet import BulletClient, pb
from pyramid.physics.errors import ImpossibleStateError
from pyramid.physics.settings import Physics
from pyramid.physics.world import World

FLOORS = ("thin", "thick", "ccd0", "ccd50", "step1000", "now")


@dataclass
class Tally:
    falls: int = 0
    sank: int = 0  # impossible: inside the floor, over it
    off_edge: int = 0  # impossible: went past the floor's edge
    other: Counter[str] = field(default_factory=Counter)  # any other impossible state, by cause
    restless: int = 0
    reach: list[float] = field(default_factory=list)  # metres from the table's centre, dice at rest
    examples: list[str] = field(default_factory=list)


def bare_floor(thickness: float) -> Callable[[BulletClient, Physics], tuple[int, int]]:
    """``stage.make_table`` as it was: the table's top on nothing and a 10 m square floor ``thickness`` m thick."""

    def make(c: BulletClient, ph: Physics) -> tuple[int, int]:
        half = stage.TABLE_HALF_WIDTH
        shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=[half, half, 0.02])
        table = c.createMultiBody(0, shape, basePosition=[0, 0, -0.02], useMaximalCoordinates=True)
        c.changeDynamics(table, -1, lateralFriction=ph.friction_table, restitution=ph.restitution_table)
        floor_shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=[5.0, 5.0, thickness / 2])
        floor = c.createMultiBody(
            0, floor_shape, basePosition=[0, 0, -stage.FLOOR_DEPTH - thickness / 2], useMaximalCoordinates=True
        )
        c.changeDynamics(floor, -1, lateralFriction=ph.friction_table, restitution=ph.restitution_table)
        return table, floor

    return make


@contextmanager
def floor_of(kind: str) -> Iterator[None]:
    """``stage.make_table`` swapped for the floor ``kind`` while worlds are made."""
    made = stage.make_table
    if kind in ("thin", "ccd0", "ccd50", "step1000"):
        stage.make_table = bare_floor(0.1)  # type: ignore[assignment]
    elif kind == "thick":
        stage.make_table = bare_floor(1.0)  # type: ignore[assignment]
    try:
        yield
    finally:
        stage.make_table = made  # type: ignore[assignment]


def fall(kind: str, seed: int, tally: Tally) -> None:
    """One seeded fall off the table's edge with the floor ``kind``, counted in ``tally``."""
    rng = np.random.default_rng(seed)
    physics = Physics(time_step=1 / 1000) if kind == "step1000" else Physics()
    edge = physics.edge
    with floor_of(kind):
        world = World(physics, plate=False)
    try:
        fall_off_table(world, 0, rng)
        body = world._bodies[0]
        if kind == "ccd0":
            world.client.changeDynamics(body, -1, ccdSweptSphereRadius=0.0)
        elif kind == "ccd50":
            world.client.changeDynamics(body, -1, ccdSweptSphereRadius=0.5 * edge)
        tally.falls += 1
        try:
            report = world.settle(timeout=10.0, raise_on_timeout=False)
        except ImpossibleStateError as err:
            x, y, _ = world.client.getBasePositionAndOrientation(body)[0]
            over = max(abs(x), abs(y)) < 5.0
            if "inside the floor" in err.cause and over:
                tally.sank += 1
            elif "inside the floor" in err.cause:
                tally.off_edge += 1
            else:
                tally.other[err.cause.split(":")[0]] += 1
            if len(tally.examples) < 3:
                tally.examples.append(f"seed {seed}: {err} (at x {x:.2f} m, y {y:.2f} m)")
            return
        if not report.at_rest:
            tally.restless += 1
            return
        x, y, _ = world.client.getBasePositionAndOrientation(body)[0]
        tally.reach.append(math.hypot(x, y))
    finally:
        world.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--falls", type=int, default=500, help="seeded falls per floor (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--floor", action="append", choices=FLOORS, help="floors to probe (default all)")
    args = parser.parse_args()
    print(
        f"{'floor':<10}{'falls':>6}{'sank':>6}{'off edge':>9}{'other':>6}{'restless':>9}"
        f"{'reach median':>13}{'p99':>6}{'max':>6}{'> 5 m':>6}{'s':>6}"
    )
    for kind in args.floor or FLOORS:
        tally = Tally()
        start = time.perf_counter()
        for seed in range(args.seed, args.seed + args.falls):
            fall(kind, seed, tally)
        reach = np.array(tally.reach) if tally.reach else np.zeros(1)
        print(
            f"{kind:<10}{tally.falls:>6}{tally.sank:>6}{tally.off_edge:>9}{sum(tally.other.values()):>6}"
            f"{tally.restless:>9}{np.median(reach):>13.2f}{np.percentile(reach, 99):>6.2f}{reach.max():>6.2f}"
            f"{int((reach > 5).sum()):>6}"
            f"{time.perf_counter() - start:>6.0f}",
            flush=True,
        )
        for line in tally.examples:
            print(f"  {line}")


if __name__ == "__main__":
    main()
