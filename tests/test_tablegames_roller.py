"""The table-game rollers: drawn faces and faces thrown in the physics world agree in distribution."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from pyramid.physics.roller import FastRoller, PhysicalRoller
from pyramid.physics.world import World


def test_fast_roller_is_seeded_and_recorded() -> None:
    a = FastRoller(np.random.default_rng(5))
    b = FastRoller(np.random.default_rng(5))
    assert a.roll(8) == b.roll(8)
    assert len(a.records) == 1 and all(1 <= f <= 6 for f in a.records[0].faces)


def test_physical_roller_reads_faces_and_cleans_up() -> None:
    world = World(plate=False)
    roller = PhysicalRoller(world, np.random.default_rng(2))
    for n in (1, 3, 5):
        faces = roller.roll(n)
        assert len(faces) == n and all(1 <= f <= 6 for f in faces)
        assert world.dice == []
    assert [len(r.faces) for r in roller.records] == [1, 3, 5]
    world.close()


def test_physical_roller_is_reproducible() -> None:
    results = []
    for _ in range(2):
        world = World(plate=False)
        results.append(PhysicalRoller(world, np.random.default_rng(9)).roll(3))
        world.close()
    assert results[0] == results[1]


def _counts(faces: list[int]) -> np.ndarray:
    return np.bincount(faces, minlength=7)[1:]


def test_physical_and_fast_agree_in_distribution() -> None:
    world = World(plate=False)
    physical = PhysicalRoller(world, np.random.default_rng(11))
    phys = [physical.roll(1)[0] for _ in range(300)]
    fast = FastRoller(np.random.default_rng(11)).roll(3000)
    world.close()
    assert chisquare(_counts(phys)).pvalue > 0.001
    assert chi2_contingency(np.stack([_counts(phys), _counts(fast)])).pvalue > 0.001


@pytest.mark.slow
def test_physical_multi_dice_rolls_are_fair() -> None:
    world = World(plate=False)
    physical = PhysicalRoller(world, np.random.default_rng(12))
    faces = [f for _ in range(300) for f in physical.roll(5)]
    world.close()
    assert chisquare(_counts(faces)).pvalue > 0.001
