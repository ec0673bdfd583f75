"""The die's collision shape in the engine, chosen by ``Physics.die_shape``, and the set's spread of sizes.

``stage`` makes the shape every die shares; with a size spread (``Physics.size_spread``) the world asks here
for each die's own, scaled. docs/studies/real-dice.md compares the shapes.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from pyramid.dice import DICE
from pyramid.physics.assets import rounded_box_volume, rounded_hull_file
from pyramid.physics.bullet import BulletClient, pb
from pyramid.physics.settings import Physics

# Bullet's convex hulls meet other hulls by polyhedral clipping, which ignores the collision margin (with hull
# dice the stage is made of hulls too: ``stage.polyhedral``), but meet every other shape (the hands' spheres
# and boxes) by GJK, which adds the margin around the hull: PyBullet's 1 mm made a die stand 1 mm off a box;
# with none, one falling tilted onto a box touched it at one point a step and spun on it for ever.
HULL_MARGIN = 1e-4  # m
SIZE_CLIP = 3.0  # standard deviations: the largest departure of a die's edge from the nominal


def die_scales(ph: Physics) -> np.ndarray:
    """Each die's size relative to ``ph.edge`` (len(DICE),): 1 without a spread, else seeded by ``ph.size_seed``."""
    if not ph.size_spread:
        return np.ones(len(DICE))
    draws = np.random.default_rng(ph.size_seed).standard_normal(len(DICE))
    return 1.0 + ph.size_spread / ph.edge * np.clip(draws, -SIZE_CLIP, SIZE_CLIP)


def make_die_shape(c: BulletClient, ph: Physics, scale: float = 1.0) -> int:
    """The collision shape of a die of ``ph.edge * scale`` (and ``ph.proportions``) as ``ph.die_shape`` says."""
    half = np.asarray(ph.proportions, dtype=float) * ph.edge * scale / 2
    radius = ph.edge_radius * scale
    if ph.die_shape in ("box", "margin"):
        return c.createCollisionShape(pb.GEOM_BOX, halfExtents=half.tolist())
    if ph.die_shape == "hull":
        path = rounded_hull_file(half, radius, ph.hull_segments)
        return c.createCollisionShape(pb.GEOM_MESH, fileName=str(path), flags=pb.URDF_INITIALIZE_SAT_FEATURES)
    return _compound(c, half, radius)


def shape_margin(ph: Physics, scale: float = 1.0) -> float | None:
    """The collision margin (m) a die's shape is given after its body is made; None: PyBullet's own."""
    if ph.die_shape == "hull":
        return HULL_MARGIN
    if ph.die_shape == "margin":
        return ph.edge_radius * scale
    return None


def die_volume(ph: Physics, scale: float = 1.0) -> float:
    """The volume (m^3) of a die of the shape: the box's, or the rounded die's for the rounded shapes."""
    half = np.asarray(ph.proportions, dtype=float) * ph.edge * scale / 2
    if ph.die_shape == "box":
        return float(np.prod(2 * half))
    return rounded_box_volume(half, ph.edge_radius * scale)


def _compound(c: BulletClient, half: np.ndarray, radius: float) -> int:
    """Three boxes, each full length along one axis and short of the edges by ``radius`` along the others, and
    twelve capsules of ``radius`` along the edges: exactly the rounded die (15 children, PyBullet keeps 16)."""
    core = half - radius
    kinds, extents, radii, lengths, places, turns = [], [], [], [], [], []
    for axis in range(3):
        box = core.copy()
        box[axis] = half[axis]
        kinds.append(pb.GEOM_BOX)
        extents.append(box.tolist())
        radii.append(0.0)
        lengths.append(0.0)
        places.append([0.0, 0.0, 0.0])
        turns.append([0.0, 0.0, 0.0, 1.0])
    # A PyBullet capsule runs along its own z: turn it onto each axis of the die.
    onto = {0: pb.getQuaternionFromEuler([0, math.pi / 2, 0]), 1: pb.getQuaternionFromEuler([math.pi / 2, 0, 0])}
    for axis in range(3):
        b, d = (axis + 1) % 3, (axis + 2) % 3
        for sb, sd in itertools.product((-1, 1), repeat=2):
            place = [0.0, 0.0, 0.0]
            place[b], place[d] = sb * float(core[b]), sd * float(core[d])
            kinds.append(pb.GEOM_CAPSULE)
            extents.append([0.0, 0.0, 0.0])
            radii.append(radius)
            lengths.append(2 * float(core[axis]))
            places.append(place)
            turns.append(list(onto.get(axis, (0.0, 0.0, 0.0, 1.0))))
    return c.createCollisionShapeArray(
        kinds,
        halfExtents=extents,
        radii=radii,
        lengths=lengths,
        collisionFramePositions=places,
        collisionFrameOrientations=turns,
    )
