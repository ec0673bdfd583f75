"""The main job: build a full pyramid physically, lift its apex out, throw dice at it, read it back, score it.

``pyramid demo`` runs it, prints what it says and draws its picture as the window draws (``pyramid.ui.film``);
a script passes its own ``say`` and ``draw``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from pyramid import geometry
from pyramid.dice import DICE
from pyramid.perception import Readout, Status
from pyramid.physics.render import Draw, save_picture
from pyramid.physics.world import World
from pyramid.state import SPARE_DICE, random_pattern


def face_table(readout: Readout) -> str:
    """The face-count table per colour: the faces showing and their pips."""
    pyramid = readout.pyramid
    counts = pyramid.face_count()
    pips: dict[str, int] = {}
    for slot, axis in geometry.exposed_faces(pyramid):
        cell = pyramid[slot]
        pips[cell.colour] = pips.get(cell.colour, 0) + (cell.up[axis] if cell.up else 0)
    lines = [f"{'colour':<8}{'faces':>7}{'pips':>7}"]
    for colour in sorted(counts, key=lambda c: -counts[c]):
        lines.append(f"{colour:<8}{counts[colour]:>7}{pips.get(colour, 0):>7}")
    lines.append(f"{'total':<8}{sum(counts.values()):>7}{sum(pips.values()):>7}")
    return "\n".join(lines)


def describe(readout: Readout, die: int) -> str:
    """One line on where a die is and what it shows."""
    r = readout.dice[die]
    where = "on the plate" if r.on_plate else "off the plate"
    if r.status is Status.SEATED:
        return f"die {die} ({r.colour}) seated in slot {r.slot} showing {r.up}"
    if r.status is Status.LYING:
        return f"die {die} ({r.colour}) lying {where}, showing {r.top}"
    return f"die {die} ({r.colour}) cocked {where} ({r.tilt:.0f} degrees): no value"


def run_demo(
    seed: int = 0,
    picture: str | None = "pyramid.png",
    throws: int = 3,
    gui: bool = False,
    say: Callable[[str], None] | None = None,
    draw: Draw | None = None,
) -> int:
    """Build, settle, lift the apex, throw, settle, read, tell ``say`` and picture; returns a process exit code.

    ``draw`` draws the picture (default PyBullet's software renderer from a fixed camera).
    """
    say = say or (lambda text: None)
    if not 0 <= throws <= SPARE_DICE:
        raise ValueError(f"throws: 0 to {SPARE_DICE} dice are left to throw after building the pyramid, not {throws}")
    rng = np.random.default_rng(seed)
    world = World(gui=gui)
    state = random_pattern(geometry.SLOTS, rng, random_faces=True)
    t0 = time.perf_counter()
    slot_die = world.build(state)
    report = world.settle(timeout=10.0)
    say(
        f"seed {seed}: built the {len(slot_die)}-die pyramid; at rest after {report.time:.2f} s simulated "
        f"({time.perf_counter() - t0:.2f} s wall)"
    )
    apex = slot_die[geometry.APEX]
    world.remove(apex)
    world.settle()
    free = world.readout().free_dice()
    say(f"lifted the apex (die {apex}) out by hand; free dice now: {free}")
    spare = [d for d in range(len(DICE)) if d not in slot_die.values()]
    thrown = [int(d) for d in rng.choice(spare, size=throws, replace=False)]
    for n, die in enumerate(thrown):
        # Drop each die gently onto the plate's rim in front of one side of the pyramid.
        angle = np.radians(60 + 120 * (n % 3)) + rng.normal(0, 0.15)
        target = 0.068 * np.array([np.cos(angle), np.sin(angle)])
        world.random_throw(die, rng, height=0.05, target=target, speed=0.03, spin=8.0)
    t1 = time.perf_counter()
    report = world.settle(timeout=15.0, raise_on_timeout=False)
    if not report.at_rest:
        say(f"the dice did not come to rest within 15 s: {list(report.moving)} still moving; no read-out")
        return 1
    say(
        f"threw {throws} dice at it; all at rest after {report.time:.2f} s simulated "
        f"({time.perf_counter() - t1:.2f} s wall)"
    )
    readout = world.readout()
    for die in thrown:
        say("  " + describe(readout, die))
    moved = [d for d in slot_die.values() if d != apex and readout.dice[d].status is not Status.SEATED]
    say(f"dice of the pyramid knocked out of their slots: {len(moved)}")
    say(
        f"seated {len(readout.seated())}, free {len(readout.free_dice())}, cocked {len(readout.cocked())}, "
        f"off the plate {len(readout.off_plate())}"
    )
    say(f"pyramid: {readout.notation()}")
    say(face_table(readout))
    if picture:
        say(f"picture: {save_picture(world, picture, draw)}")
    world.close()
    return 0
