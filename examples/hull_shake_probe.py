"""Why the rounded hull die leaves its funnel less often than the sharp box under the window's hard shake.

The shake (default): tests/test_strokes.py's measurement. Faraday's start (three dice seated in the funnels
around the plate's centre, faces drawn by the seed) is settled, shaken with ``pyramid.ui.strokes.HARD_SHAKE``
(3.5 mm at 22 Hz, 6.8 g) along azimuth 60 * seed degrees and settled again. Printed per variant, for seeds
0-5 (the test's 18 dice), 0-7 (24 dice) and 0 to N-1: dice whose nearest funnel changed ("left") and dice no
longer over the plate ("off"); and, watched every step of the shake in the plate's frame, the mean of each
die's highest rise and farthest sideways reach from its seat (mm), and how many dice went over a rim (farther
than half the way to the next funnel) at some time.

Other measurements (seed 0's start settled, or one die):
  --seat    each die's centre height above its ideal slot centre (micrometres), its contact points on the
            plate and their summed normal force (die weights), and the rim: the die slid sideways as it sits
            (12 azimuths), lifted just clear of the plate's shapes (getClosestPoints): the highest lift
            needed on the way out and where (mm), the mean and the easiest azimuth's.
  --hold    gravity turned slowly until a seated die moves 1 mm: the steady sideways push (in g) that frees
            it, per azimuth; beside it what Coulomb's law allows (translation only, three walls), and what
            Bullet's two friction directions allow (each up to mu N, along btPlaneSpace1's axes).
  --bounce  the effective restitution of a die dropped face, edge or corner first from 12 and 2 cm on the
            table and on a funnel cube (tests/test_physics_truth.py's drops).
  --kick    a lone seated die set moving 45 degrees up along 12 azimuths: the least speed that leaves it in
            another funnel (m/s), the plate still.
The variants are Physics keywords (``--list``); two are probes, not settings: the stage's boxes (plate
cubes, slab, table) given the other die shape's kind. ``--jitter S`` nudges every die (Physics.jitter).

    .venv/bin/python examples/hull_shake_probe.py --list
    .venv/bin/python examples/hull_shake_probe.py --variant box --variant hull             # 96 seeds, ~35 s
    .venv/bin/python examples/hull_shake_probe.py --variant box --variant hull --jitter 1
    .venv/bin/python examples/hull_shake_probe.py --variant box --variant hull --amplitude 3.75
    .venv/bin/python examples/hull_shake_probe.py --variant box --variant hull --seat      # or --hold, --bounce
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.physics import actions, stage
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.skillgames.plate import Faraday, nearest_funnel
from pyramid.ui import strokes

HULL = {"die_shape": "hull", "hull_segments": 2, "hull_axis": "gjk"}
VARIANTS: dict[str, dict[str, object]] = {
    "box": {},
    "hull": HULL,
    "hull-sat": {**HULL, "hull_axis": "sat"},  # contact slop 0 instead of GJK_SLOP
    "hull-seg1": {**HULL, "hull_segments": 1},
    "hull-r0.05": {**HULL, "edge_radius": 0.00005},
    "hull-r0.5": {**HULL, "edge_radius": 0.0005},
    "hull-r1.5": {**HULL, "edge_radius": 0.0015},
    "hull-r2": {**HULL, "edge_radius": 0.002},
    "compound": {"die_shape": "compound"},  # the exact rounded die (boxes and capsules) on the box's stage
    "margin": {"die_shape": "margin"},
    "hull-no-table-torque": {**HULL, "rolling_friction_table": 0.0, "spinning_friction_table": 0.0},
    "hull-no-anchor": {**HULL, "friction_anchor": False},
    "box-no-anchor": {"friction_anchor": False},
    "hull-ferp0.2": {**HULL, "friction_erp": 0.2},
    "box-ferp0.2": {"friction_erp": 0.2},
    "hull-ferp0.01": {**HULL, "friction_erp": 0.01},
    "hull-plate-mu0.3": {**HULL, "friction_plate": 0.3},
    "box-plate-mu0.3": {"friction_plate": 0.3},
    "hull-plate-mu0.4": {**HULL, "friction_plate": 0.4},
    "hull-plate-mu0.5": {**HULL, "friction_plate": 0.5},
    "hull-plate-mu0.6": {**HULL, "friction_plate": 0.6},
    "box-plate-mu0.6": {"friction_plate": 0.6},
    "hull-plate-rest0": {**HULL, "restitution_plate": 0.0},
    "box-plate-rest0": {"restitution_plate": 0.0},
    "hull-plate-rest0.6": {**HULL, "restitution_plate": 0.6},
    "hull-plate-rest0.7": {**HULL, "restitution_plate": 0.7},
    "hull-plate-rest0.8": {**HULL, "restitution_plate": 0.8},
    "box-plate-rest0.8": {"restitution_plate": 0.8},
    "hull-die-rest0.7": {**HULL, "restitution_die": 0.7},
    "box-800hz": {"time_step": 1 / 800},  # the engine, not the material: what the step's length does
    "hull-800hz": {**HULL, "time_step": 1 / 800},
    # Probes, not settings: the stage's boxes (plate cubes, slab, table) made as the other die shape has them.
    "box-on-mesh-plate": {"stage": "mesh"},  # the box die against convex meshes (the hull's stage)
    "hull-on-box-plate": {**HULL, "stage": "box"},  # the hull die against Bullet's boxes (the box's stage)
}


def physics_of(name: str, jitter: int | None = None) -> Physics:
    """The variant's Physics; a probe variant's "stage" makes the stage's boxes convex meshes ("mesh") or not."""
    settings = dict(VARIANTS[name])
    kind = settings.pop("stage", None)
    if jitter is not None:
        settings["jitter"] = jitter
    physics = Physics(**settings)  # type: ignore[arg-type]
    stage.polyhedral = (lambda ph: ph.die_shape == "hull") if kind is None else (lambda ph: kind == "mesh")
    return physics


def faraday_world(physics: Physics, seed: int) -> tuple[World, Faraday]:
    game = Faraday(1, rng=np.random.default_rng(seed))
    world = World(physics)
    game.prepare(world)
    world.settle(timeout=5, raise_on_timeout=False)
    return world, game


def shake(physics: Physics, seeds: range, amplitude: float | None = None) -> list[dict[str, float]]:
    """The test's measurement, one row per seed: dice that left their funnel, fell off, and how they moved."""
    rows = []
    for seed in seeds:
        world, game = faraday_world(physics, seed)
        try:
            readout = world.readout(require_rest=False)
            before = {d: nearest_funnel(readout.dice[d].position) for d in game.dice}
            seat = {
                d: geometry.in_plate_frame(np.asarray(readout.dice[d].position), world.plate_pose) for d in game.dice
            }
            rise, reach = dict.fromkeys(game.dice, 0.0), dict.fromkeys(game.dice, 0.0)

            def watch(world: World = world, seat: dict = seat, rise: dict = rise, reach: dict = reach) -> None:
                ids, poses = world.poses()
                local = geometry.in_plate_frame(poses[:, :3], world.plate_pose)
                for die, p in zip(ids, local, strict=True):
                    if die in rise:
                        reach[die] = max(reach[die], float(np.linalg.norm(p[:2] - seat[die][:2])))
                        rise[die] = max(rise[die], float(p[2] - seat[die][2]))

            stop = world.observe(physics.time_step, watch)  # watched or not, the run is the same
            stroke = dataclasses.replace(strokes.HARD_SHAKE, azimuth=60.0 * seed)
            if amplitude is not None:
                stroke = dataclasses.replace(stroke, amplitude=amplitude)
            actions.perform(world, stroke, np.random.default_rng(seed))
            stop()
            world.settle(timeout=5, raise_on_timeout=False)
            readout = world.readout(require_rest=False)
            rows.append(
                {
                    "left": sum(nearest_funnel(readout.dice[d].position) != before[d] for d in game.dice),
                    "off": sum(not readout.dice[d].on_plate for d in game.dice),
                    "dice": len(game.dice),
                    "rise": sum(rise.values()),
                    "reach": sum(reach.values()),
                    # over the rim at some time: farther than half the way to the next funnel (a sqrt 2 / 2)
                    "crossed": sum(r > physics.edge * math.sqrt(0.5) for r in reach.values()),
                }
            )
        finally:
            world.close()
    return rows


def total(rows: list[dict[str, float]]) -> str:
    n = sum(r["dice"] for r in rows)
    return f"{sum(r['left'] for r in rows):3d}/{n:<3d} off {sum(r['off'] for r in rows)}"


def rim(world: World, die: int, azimuth: float, reach: float = 1.2) -> tuple[float, float]:
    """Slide ``die`` (as it sits) sideways along ``azimuth`` (degrees, plate frame) up to ``reach`` edges, lifted
    just enough not to overlap the plate: (slide at the highest lift, highest lift), metres."""
    c, a = world.client, world.physics.edge
    body = world._body(die)
    home, turn = c.getBasePositionAndOrientation(body)
    home = np.array(home)
    way = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth)), 0.0])
    c.setCollisionFilterGroupMask(body, -1, 0, 0)  # out of the way of the other dice while it is probed

    def clear(p: np.ndarray) -> bool:
        c.resetBasePositionAndOrientation(body, p.tolist(), turn)
        c.performCollisionDetection()
        return all(pt[8] >= 0.0 for plate in world._plate_bodies for pt in c.getClosestPoints(body, plate, 0.0))

    best = (0.0, 0.0)
    for s in np.linspace(0.0, reach * a, 121)[1:]:
        lo, hi = 0.0, a
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if clear(home + s * way + [0, 0, mid]) else (mid, hi)
        if hi > best[1]:
            best = (float(s), hi)
    c.resetBasePositionAndOrientation(body, home.tolist(), turn)
    return best


def seat(physics: Physics, seed: int = 0) -> dict[str, float]:
    """Seed ``seed``'s start settled: centre height above the slot (um), contacts on the plate, force, the rim."""
    world, game = faraday_world(physics, seed)
    c = world.client
    try:
        world.wake()
        world.step(physics.time_step)  # one step awake: the contacts as the solver has them
        readout = world.readout(require_rest=False)
        heights, points, forces, slides, lifts = [], [], [], [], []
        for d, slot in zip(game.dice, game.start, strict=True):
            body = world._body(d)
            weight = c.getDynamicsInfo(body, -1)[0] * physics.gravity
            ideal, _ = world.slot_pose(slot)
            heights.append(1e6 * (readout.dice[d].position[2] - ideal[2]))
            touching = [pt for plate in world._plate_bodies for pt in c.getContactPoints(body, plate)]
            points.append(len(touching))
            forces.append(sum(pt[9] for pt in touching) / weight)
        for d in game.dice:
            for azimuth in range(0, 360, 30):
                s, h = rim(world, d, azimuth)
                slides.append(s)
                lifts.append(h)
    finally:
        world.close()
    return {
        "height": float(np.mean(heights)),
        "points": float(np.mean(points)),
        "force": float(np.mean(forces)),
        "slide": 1e3 * float(np.mean(slides)),
        "lift": 1e3 * float(np.mean(lifts)),
        "lift_min": 1e3 * float(np.min(lifts)),
    }


TURNS = {  # how a dropped die meets the surface: tests/test_physics_truth.py's three
    "face": Rotation.identity(),
    "edge": Rotation.from_euler("x", 45, degrees=True),
    "corner": Rotation.from_euler("xy", [45, math.degrees(math.atan(1 / math.sqrt(2)))], degrees=True),
}


def bounce(physics: Physics, kind: str, height: float, on_plate: bool) -> float:
    """A die dropped ``height`` m (its lowest point, held still) ``kind`` first on the table or on a funnel cube of
    the plate turned so that the cube's top face lies level (as tests/test_physics_truth.py): the effective
    restitution, the square root of the rebound of its lowest point over the drop."""
    world = World(physics, plate=on_plate)
    a = physics.edge
    turn, place, top = TURNS[kind], np.array([0.1, 0.1, 0.0]), 0.0
    if on_plate:
        up = geometry.CUBE_TO_PLATE @ np.array([0.0, 0.0, 1.0])
        level, _ = Rotation.align_vectors([[0.0, 0.0, 1.0]], [up])
        pose = np.concatenate([[0.0, 0.0, 0.2], level.as_quat()])
        world.move_plate(pose)
        place = level.apply(geometry.cube_to_plate(-np.array([[5.0, 4.0, 0.0]]))[0] * a) + pose[:3]
        top = place[2] + a / 2
        turn = turn * level * Rotation.from_matrix(geometry.CUBE_TO_PLATE)
    depth = float(np.abs(turn.as_matrix()[2]).sum() * a / 2)  # the lowest point below the centre
    world.throw(0, (place[0], place[1], top + height + depth), orientation=turn.as_quat())
    lows, rising = [], []
    try:
        for _ in range(round(0.6 / physics.time_step)):
            world.step(physics.time_step)
            _, poses = world.poses()
            lows.append(
                poses[0, 2] - float(np.abs(Rotation.from_quat(poses[0, 3:]).as_matrix()[2]).sum() * a / 2) - top
            )
            rising.append(world.velocities()[0, 2] > 0)
    finally:
        world.close()
    if True not in rising:
        return 0.0
    up = rising.index(True)
    down = up + (rising[up:].index(False) if False in rising[up:] else len(rising) - up)
    return math.sqrt(max(0.0, max(lows[up : down + 1])) / height)


def hold(physics: Physics, azimuth: float, most: float = 8.0, seconds: float = 4.0) -> list[float]:
    """Seed 0's start settled, then gravity turned slowly, its sideways part growing from 0 to ``most`` g along
    ``azimuth`` (degrees) over ``seconds``: for each die, the sideways g at which its centre has moved 1 mm
    from its seat (``most`` if it never does). The plate stands still: the die's friction and the funnel's
    walls against a steady push, the solver's friction as it applies it."""
    world, game = faraday_world(dataclasses.replace(physics, local=False), 0)
    c, g = world.client, physics.gravity
    way = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth))])
    try:
        world.wake()
        ids, poses = world.poses()
        home = {d: poses[ids.index(d), :3] for d in game.dice}
        freed = dict.fromkeys(game.dice, most)
        steps = round(seconds / physics.time_step)
        for n in range(1, steps + 1):
            side = most * n / steps
            c.setGravity(*(g * side * way), -g)
            world.step(physics.time_step)
            ids, poses = world.poses()
            for d in game.dice:
                if freed[d] == most and np.linalg.norm(poses[ids.index(d), :3] - home[d]) > 0.001:
                    freed[d] = side
            if max(freed.values()) < most:
                break
    finally:
        world.close()
    return list(freed.values())


def kick(physics: Physics, azimuth: float, speeds: np.ndarray) -> float:
    """A lone die settled in the funnel (3, 3, 2), then set moving along ``azimuth`` (degrees), 45 degrees up, at
    each of ``speeds`` (m/s) in turn, each in a world of its own: the least speed after which it comes to rest in
    another funnel (nan if none). How hard it is to carry a die over a rim, the plate still."""
    way = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth)), 1.0]) / math.sqrt(2)
    for speed in speeds:
        world = World(dataclasses.replace(physics, local=False))
        try:
            world.place(0, (3, 3, 2))
            world.settle(timeout=2, raise_on_timeout=False)
            world.wake()
            world.client.resetBaseVelocity(world._body(0), (speed * way).tolist(), [0.0, 0.0, 0.0])
            world.settle(timeout=3, raise_on_timeout=False)
            if nearest_funnel(world.readout(require_rest=False).dice[0].position) != (3, 3, 2):
                return float(speed)
        finally:
            world.close()
    return float("nan")


def coulomb(mu: float, azimuth: float, square: bool) -> float:
    """The steady sideways push (in g) beyond which no contact forces can hold a die in a funnel (translation only):
    Coulomb's cone of friction ``mu`` on each of the three walls, or (``square``) Bullet's two friction directions
    each limited to ``mu`` times the normal force, along the axes ``btPlaneSpace1`` picks for a wall's normal."""
    from scipy.optimize import linprog

    d = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth)), 0.0])
    columns = []
    for n in geometry.CUBE_TO_PLATE.T:  # the walls' normals (the cube axes in the plate's frame)
        p = np.array([-n[1], n[0], 0.0]) / math.hypot(n[0], n[1])  # btPlaneSpace1 for |n_z| < sqrt 1/2
        q = np.cross(n, p)
        turns = (
            [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            if square
            else [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 64, endpoint=False)]
        )
        columns += [n + mu * (u * p + v * q) for u, v in turns]
    forces = np.array(columns).T
    lo, hi = 0.0, 20.0
    for _ in range(30):
        side = (lo + hi) / 2
        held = linprog(np.zeros(len(columns)), A_eq=forces, b_eq=-(side * d - [0, 0, 1]), bounds=(0, None)).status == 0
        lo, hi = (side, hi) if held else (lo, side)
    return lo


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant", action="append", choices=list(VARIANTS), help="a named Physics (repeatable)")
    parser.add_argument("--seeds", type=int, default=96, help="seeds 0 .. N-1 (default 96; the test takes 0-5)")
    parser.add_argument("--amplitude", type=float, help="mm: shake this far instead of the hard shake's 3.5 (22 Hz)")
    parser.add_argument(
        "--jitter", type=int, help="nudge every die by this jitter seed (Physics.jitter) in every variant"
    )
    parser.add_argument("--seat", action="store_true", help="measure the dice at rest instead of the shake")
    parser.add_argument("--bounce", action="store_true", help="measure the effective restitution of drops instead")
    parser.add_argument("--hold", action="store_true", help="measure the steady sideways push that frees a seated die")
    parser.add_argument("--kick", action="store_true", help="measure the least speed (45 deg up) that kicks a die out")
    parser.add_argument("--list", action="store_true", help="list the variants and their Physics settings")
    args = parser.parse_args()
    if args.list:
        for name, settings in VARIANTS.items():
            print(f"{name:22} {settings}")
        return
    for name in args.variant or ["box", "hull"]:
        physics, start = physics_of(name, args.jitter), time.process_time()
        if args.bounce:
            cells = []
            for surface in ("table", "plate"):
                for height in (0.12, 0.02):
                    es = [bounce(physics, kind, height, surface == "plate") for kind in TURNS]
                    cells.append(f"{surface} {100 * height:2.0f} cm " + " ".join(f"{e:.2f}" for e in es))
            print(f"{name:22} " + "   ".join(cells), flush=True)
        elif args.hold:
            freed = [hold(physics, az) for az in range(0, 360, 30)]
            print(
                f"{name:22} freed at sideways g: mean {np.mean(freed):.2f}, least {np.min(freed):.2f},"
                f" most {np.max(freed):.2f}; by azimuth " + " ".join(f"{np.mean(f):.2f}" for f in freed),
                flush=True,
            )
            for label, square in (("Coulomb", False), ("Bullet's square", True)):
                limits = [
                    coulomb(physics.friction_die * physics.friction_plate, az, square) for az in range(0, 360, 30)
                ]
                print(
                    f"{'  ' + label:22} holds up to sideways g: mean {np.mean(limits):.2f}, least {min(limits):.2f},"
                    f" most {max(limits):.2f}; by azimuth " + " ".join(f"{x:.2f}" for x in limits)
                )
        elif args.kick:
            least = [kick(physics, az, np.arange(0.30, 1.001, 0.02)) for az in range(0, 360, 30)]
            print(
                f"{name:22} least speed out (m/s): mean {np.nanmean(least):.2f}; by azimuth "
                + " ".join(f"{x:.2f}" for x in least),
                flush=True,
            )
        elif args.seat:
            f = seat(physics)
            print(
                f"{name:22} centre {f['height']:+7.1f} um  contacts {f['points']:4.1f}  force {f['force']:5.2f} weights"
                f"  rim: slide {f['slide']:5.2f} mm, lift {f['lift']:5.2f} mm (least {f['lift_min']:5.2f})",
                flush=True,
            )
        else:
            rows = shake(physics, range(args.seeds), args.amplitude and args.amplitude / 1000)
            n = sum(r["dice"] for r in rows)
            print(
                f"{name:22} seeds 0-5: {total(rows[:6])}   0-7: {total(rows[:8])}   0-{len(rows) - 1}: {total(rows)}"
                f"   highest {1e3 * sum(r['rise'] for r in rows) / n:5.2f} mm, farthest"
                f" {1e3 * sum(r['reach'] for r in rows) / n:5.2f} mm, over a rim {sum(r['crossed'] for r in rows)}"
                f"  ({time.process_time() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
