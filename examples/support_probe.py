"""What holds a die whose supports are taken: the friction figures behind the README's physics section.

Three probes, each run with Bullet's implicit friction cone on (the default here) and off:
  groove  a die corner-down on two of its three supports (two fixed dice) rests in the groove of
          their faces; Coulomb's law holds it when die-on-die friction is at least 0.5
          (tan 35.3 deg / sqrt 2). Printed: how far it slid in 2 s, per friction.
  slope   a die lying on the table under gravity tilted by an angle; Coulomb's law holds it up to
          the friction angle, atan 0.405 = 22.0 deg. Printed: how far it slid in 1 s, per angle.
  cases   the apexes of four small pyramids (10 and 20 dice), with one, then two of their supports
          pulled out by the hand (12 cases each). Printed: in how many the apex still reads in its slot.
Run (about a minute):
    .venv/bin/python examples/support_probe.py
    .venv/bin/python examples/support_probe.py --probe groove --cone off
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace

import numpy as np

from pyramid import geometry
from pyramid.physics.bullet import pb
from pyramid.physics.world import Physics, World
from pyramid.state import Cell, PyramidState

APEXES = ((6, 0, 0), (2, 2, 2), (3, 0, 2), (1, 2, 2))
CONE = {"on": True}


def cone(world: World) -> None:
    """Switch Bullet's implicit friction cone as the probe asks (the world itself leaves it on)."""
    world.client.setPhysicsEngineParameter(enableConeFriction=int(CONE["on"]))


def groove(physics: Physics, frictions: list[float]) -> str:
    """Slide (edges, 2 s) of a die resting corner-down on the faces of two fixed dice, per friction.

    The two dice are fixed boxes (made through the world's PyBullet client: the world itself has no
    fixed dice), in the slots (2, 3, 2) and (2, 2, 3) of the lattice, away from the plate; the die
    is let go at rest in slot (2, 2, 2), its third support missing.
    """
    out = []
    a = physics.edge
    top = np.array((2, 2, 2))
    orientation = geometry.matrix_to_quat(geometry.CUBE_TO_PLATE).tolist()
    away = np.array([0.3, 0.0, 0.0])  # beside the plate, clear of it
    for mu in frictions:
        world = World(replace(physics, friction_die=math.sqrt(mu), sleep_after_settle=False))
        cone(world)
        c = world.client
        shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=[a / 2] * 3)
        for step in ((0, 1, 0), (0, 0, 1)):
            centre = geometry.cube_to_plate(-a * (top + step)[None].astype(float))[0] + away
            body = c.createMultiBody(0, shape, -1, basePosition=centre.tolist(), baseOrientation=orientation)
            c.changeDynamics(body, -1, lateralFriction=math.sqrt(mu))
        start = geometry.cube_to_plate(-a * top[None].astype(float))[0] + away
        world.throw(0, start, orientation=orientation)
        world.step(2.0)
        after = np.array(world.readout(require_rest=False).dice[0].position)
        out.append(f"{mu:.2f}: {np.linalg.norm(after - start) / a:.3f}")
        world.close()
    return "die-on-die friction: slid edges in 2 s   " + "   ".join(out)


def slope(physics: Physics, angles: list[float]) -> str:
    """Slide (edges, 1 s) of a die lying on the table under gravity tilted by each angle (degrees)."""
    out = []
    for deg in angles:
        world = World(replace(physics, sleep_after_settle=False), plate=False)
        cone(world)
        world.throw(0, (0.0, 0.0, physics.edge / 2))  # let go lying flat on the table, at rest
        world.step(0.2)
        t, az = math.radians(deg), math.radians(30)
        g = physics.gravity
        world.set_gravity((g * math.sin(t) * math.cos(az), g * math.sin(t) * math.sin(az), -g * math.cos(t)))
        before = np.array(world.readout(require_rest=False).dice[0].position)
        world.step(1.0)
        after = np.array(world.readout(require_rest=False).dice[0].position)
        out.append(f"{deg:g}: {np.linalg.norm(after - before) / physics.edge:.3f}")
        world.close()
    return "slope (deg): slid edges in 1 s   " + "   ".join(out)


def cases(physics: Physics) -> str:
    """In how many of 12 cases the apex stays in its slot after one, then two, supports are pulled out."""
    parts = []
    for lost in (1, 2):
        held = 0
        groups = [(0,), (1,), (2,)] if lost == 1 else [(0, 1), (1, 2), (0, 2)]
        for apex in APEXES:
            layers = 9 - sum(apex)
            slots = geometry.small_pyramid(layers * (layers + 1) * (layers + 2) // 6, apex)
            for group in groups:
                world = World(physics)
                cone(world)
                state = PyramidState({s: Cell("green" if n % 2 else "red", (1, 2, 3)) for n, s in enumerate(slots)})
                slot_die = world.build(state)
                world.settle()
                supports = geometry.supports(apex)
                for n in group:
                    world.remove(slot_die[supports[n]])
                world.settle(raise_on_timeout=False)
                held += world.readout(require_rest=False).dice[slot_die[apex]].slot == apex
                world.close()
        parts.append(f"{lost} support{'s' if lost > 1 else ''} pulled out: apex held in {held} of 12")
    return "; ".join(parts)


def main() -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        description=doc.splitlines()[0],
        epilog=doc.split("\n", 1)[1],
        formatter_class=argparse.RawTextHelpFormatter,
    )
    parser.add_argument("--probe", choices=["groove", "slope", "cases", "all"], default="all", help="the probe to run")
    parser.add_argument(
        "--cone", choices=["off", "on", "both"], default="both", help="Bullet's friction cone (the world's default: on)"
    )
    args = parser.parse_args()
    cones = {"off": [False], "on": [True], "both": [True, False]}[args.cone]
    for on in cones:
        CONE["on"] = on
        physics = Physics()
        print(f"friction cone {'on' if on else 'off'}:")
        if args.probe in ("groove", "all"):
            print("  groove  ", groove(physics, [0.40, 0.45, 0.48, 0.50, 0.55, 0.60, 0.66, 0.72]), flush=True)
        if args.probe in ("slope", "all"):
            print("  slope   ", slope(physics, [18, 20, 21, 22, 23, 24, 26]), flush=True)
        if args.probe in ("cases", "all"):
            print("  cases   ", cases(physics), flush=True)


if __name__ == "__main__":
    main()
