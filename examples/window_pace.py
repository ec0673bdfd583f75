"""How fast the window runs while a person lifts and places dice on the full pyramid: local against whole physics.

Opens the window on the settled 165-die pyramid, lifts the top four dice one after another by the
window's own hands (as a click does) and puts four dice back into the emptied funnels (as P does),
shown live, and prints the window's real-time factor (the x... figure of its status line) while
the dice move. Needs a screen: on a machine without one, run it under Xvfb:

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python examples/window_pace.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pyramid.lab.locality import TOP_FOUR, full_state
from pyramid.physics.settings import Physics
from pyramid.physics.world import World


def pace(local: bool) -> tuple[float, float, int]:
    """Simulated seconds per wall second while the hands worked, the slowest 2 s figure, and pictures drawn."""
    from pyramid.ui.player import open_view
    from pyramid.ui.viewer import watching

    world = World(Physics(local=local))
    world.build(full_state())
    world.settle()
    viewer, hands = open_view(world, "window pace", np.random.default_rng(0))
    viewer.set_size(1280, 800)
    for _ in range(5):
        viewer.frame(0.0)
    slot_die = world.readout().slot_die
    factors: list[float] = []
    viewer.on_frame.append(lambda _: factors.append(viewer.real_time_factor))
    start, tick, frames = world.time, time.perf_counter(), viewer.frames
    try:
        with watching(world, viewer):
            for slot in TOP_FOUR:
                hands.lift(slot_die[slot])
                viewer.live(0.6)
            for slot in reversed(TOP_FOUR):
                hands.place(slot)
                viewer.live(0.4)
        wall = time.perf_counter() - tick
        simulated = world.time - start
        seen = [f for f in factors[len(factors) // 8 :] if f > 0]
        return simulated / wall, min(seen) if seen else 0.0, viewer.frames - frames
    finally:
        viewer.close()
        world.close()


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    for local in (True, False):
        overall, slowest, frames = pace(local)
        mode = "local physics" if local else "whole pyramid"
        print(
            f"{mode:<14}: x{overall:.2f} real time over the lifts and placements (slowest 2 s: x{slowest:.2f}), "
            f"{frames} pictures"
        )


if __name__ == "__main__":
    main()
