"""The engine's clock: the bench's "engine" column counts the engine's steps, only inside its blocks."""

from __future__ import annotations

import time

from pyramid.physics.bullet import engine_time
from pyramid.physics.settings import Physics
from pyramid.physics.world import World


def test_a_block_counts_each_engine_step_of_every_world_made_while_it_is_open() -> None:
    first, second = World(Physics(local=False)), World(Physics(local=False), plate=False)
    try:
        first.client.stepSimulation()  # before any block: counted by none
        tick = time.perf_counter()
        with engine_time() as outer:
            for _ in range(3):
                first.client.stepSimulation()
            with engine_time() as inner:
                second.client.stepSimulation()
            first.client.stepSimulation()
        wall = time.perf_counter() - tick
        first.client.stepSimulation()  # after: counted by none
    finally:
        first.close()
        second.close()
    assert (outer.steps, inner.steps) == (5, 1)
    assert 0 < inner.seconds < outer.seconds <= wall


def test_a_world_steps_the_same_timed_or_not() -> None:
    def poses(timed: bool) -> list[float]:
        world = World(Physics(local=False))
        try:
            world.throw(0, (0.01, 0.0, 0.1), velocity=(0.2, 0.1, 0.0))
            if timed:
                with engine_time() as clock:
                    world.step(0.3)
                assert clock.steps == round(0.3 / world.physics.time_step)
            else:
                world.step(0.3)
            return world.poses()[1].ravel().tolist()
        finally:
            world.close()

    assert poses(True) == poses(False)
