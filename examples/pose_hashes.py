"""A fingerprint of the physics: seeded runs, their final poses hashed: a change for speed must leave every hash.

Each case runs as the bench and the locality study run it (``pyramid.lab.locality``): every action kind
for two seeds, with local and with whole physics, the bench's lift of the top four, a shake, a
two-handed tilt about a line, and ``pyramid demo --seed 1``. Every world's poses, velocities and clock
are hashed when it closes. Record the hashes before a change and compare after, on the same machine:

    python examples/pose_hashes.py --write hashes.json
    python examples/pose_hashes.py --check hashes.json    # exit 1 if any hash differs
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from pyramid.lab.demo import run_demo
from pyramid.lab.locality import KINDS, TOP_FOUR, Case, full_state, make_case, pyramid_centre, run_case
from pyramid.physics.actions import Lift
from pyramid.physics.plate_motion import Shake, Tilt
from pyramid.physics.world import Physics, World

_seen: list[str] = []  # the hashes of the worlds closed while a case ran


def _hashing_close(close: Callable[[World], None]) -> Callable[[World], None]:
    def hashed(world: World) -> None:
        digest = hashlib.sha256()
        dice, poses = world.poses()
        digest.update(repr(dice).encode())
        digest.update(poses.tobytes())
        digest.update(world.velocities().tobytes())
        digest.update(world.plate_pose.tobytes())
        digest.update(repr(world.time).encode())
        _seen.append(digest.hexdigest())
        close(world)

    return hashed


def cases() -> list[tuple[str, Callable[[], object]]]:
    """Every case by name, as a callable that runs it."""
    out: list[tuple[str, Callable[[], object]]] = []
    ours = Physics()
    cx, cy = pyramid_centre()
    top_four = Case("lift", 0, full_state(), tuple(Lift(s) for s in TOP_FOUR))  # the bench's lift
    plate = [
        Case("shake", 0, full_state(), (Shake(0.003, 8.0, 0.5, azimuth=30.0),)),
        Case("two-handed tilt", 0, full_state(), (Tilt(200.0, 12.0, 0.3, 0.3, pivot=(cx, cy, 0.0)),)),
    ]
    for local in (True, False):
        physics = replace(ours, local=local)
        mode = "local" if local else "whole"
        for kind in KINDS:
            for seed in (0, 1):
                out.append((f"{kind} {seed} {mode}", partial(run_case, make_case(kind, seed), physics)))
        out.append((f"bench lift {mode}", partial(run_case, top_four, physics)))
        for case in plate:
            out.append((f"{case.kind} {mode}", partial(run_case, case, physics)))
    out.append(("demo 1", partial(run_demo, seed=1, picture=None)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="record the hashes in FILE (JSON)")
    group.add_argument("--check", metavar="FILE", help="compare with the hashes recorded in FILE")
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = parser.parse_args()
    World.close = _hashing_close(World.close)  # type: ignore[method-assign,assignment]  # hashed as it closes
    hashes: dict[str, list[str]] = {}
    for name, run in cases():
        if args.only not in name:
            continue
        _seen.clear()
        tick = time.perf_counter()
        run()
        hashes[name] = list(_seen)
        print(f"{name:<28}{time.perf_counter() - tick:8.2f} s  {_seen[-1][:16]}", flush=True)
    if args.write:
        with open(args.write, "w") as f:
            json.dump(hashes, f, indent=1)
        return 0
    with open(args.check) as f:
        recorded = json.load(f)
    differ = [name for name in hashes if recorded.get(name) != hashes[name]]
    for name in differ:
        print(f"DIFFERS: {name}")
    print(f"{len(hashes) - len(differ)} of {len(hashes)} cases identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
