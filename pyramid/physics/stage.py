"""The stage a world is built on: the engine set from ``Physics``, the table, the floor, the plate, the die's shapes.

Called once by ``World`` as it starts, in this order (PyBullet numbers bodies as they are made).
"""

from __future__ import annotations

import numpy as np

from pyramid import geometry
from pyramid.dice import COLOURS, Colour
from pyramid.physics.assets import cached_assets
from pyramid.physics.bullet import BulletClient, pb
from pyramid.physics.settings import Physics

FLOOR_DEPTH = 0.75  # metres from the table top down to the floor
PLATE_MASS = 1000.0  # kg: what the contact solver weighs the hand-held plate at (a die is 4.8 g)
TABLE_HALF_WIDTH = 1.0  # metres: the table is 2 m square, its top at z = 0


def configure(c: BulletClient, ph: Physics) -> None:
    """Reset the engine and set its parameters from ``ph`` (PyBullet's own with ``engine_defaults``)."""
    c.resetSimulation()
    c.setGravity(0, 0, -ph.gravity)
    c.setPhysicsEngineParameter(fixedTimeStep=ph.time_step, deterministicOverlappingPairs=1)
    if ph.engine_defaults:
        return
    c.setPhysicsEngineParameter(
        numSubSteps=0,
        numSolverIterations=ph.solver_iterations,
        contactERP=ph.contact_erp,
        warmStartingFactor=ph.warm_starting,
        contactBreakingThreshold=ph.contact_breaking_threshold,
        useSplitImpulse=int(ph.split_impulse),
        splitImpulsePenetrationThreshold=ph.split_impulse_threshold,
        contactSlop=ph.contact_slop,
        restitutionVelocityThreshold=ph.restitution_threshold,
        enableConeFriction=int(ph.cone_friction),
    )


def make_table(c: BulletClient, ph: Physics) -> tuple[int, int]:
    """The table (2 m square, its top at z = 0) and the floor under it: their body ids."""
    shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=[TABLE_HALF_WIDTH, TABLE_HALF_WIDTH, 0.02])
    visual = c.createVisualShape(
        pb.GEOM_BOX, halfExtents=[TABLE_HALF_WIDTH, TABLE_HALF_WIDTH, 0.02], rgbaColor=[0.55, 0.40, 0.25, 1]
    )
    # Table, floor and plate are rigid bodies whatever the dice are: Bullet's contacts with a fixed
    # multibody ignore split impulse and turn every overlap into speed (a die dropped on the table
    # rebounded with restitution 0.5 where its materials say 0.36; see the README).
    table = c.createMultiBody(0, shape, visual, basePosition=[0, 0, -0.02], useMaximalCoordinates=True)
    c.changeDynamics(table, -1, lateralFriction=ph.friction_table, restitution=ph.restitution_table)
    # The floor under the table: a die that leaves the table comes to rest there. A box, not a plane:
    # a die on Bullet's plane touches it at one point a step and spins on it for ever.
    floor_shape = c.createCollisionShape(pb.GEOM_BOX, halfExtents=[5.0, 5.0, 0.05])
    floor = c.createMultiBody(0, floor_shape, basePosition=[0, 0, -FLOOR_DEPTH - 0.05], useMaximalCoordinates=True)
    c.changeDynamics(floor, -1, lateralFriction=ph.friction_table, restitution=ph.restitution_table)
    return table, floor


def make_plate(c: BulletClient, ph: Physics) -> list[int]:
    """The plate: a triangular slab and the 55 cubes of the virtual 10th layer forming the funnels; its body ids."""
    a = ph.edge
    grey = [0.72, 0.74, 0.76, 1]
    vertices, tris = geometry.slab_prism()
    verts = (vertices * a).tolist()
    slab = c.createCollisionShape(pb.GEOM_MESH, vertices=verts)
    slab_vis = c.createVisualShape(pb.GEOM_MESH, vertices=verts, indices=tris.ravel().tolist(), rgbaColor=grey)
    bodies = [c.createMultiBody(0, slab, slab_vis, useMaximalCoordinates=True)]
    orn = geometry.matrix_to_quat(geometry.CUBE_TO_PLATE).tolist()
    centres = geometry.PLATE_CUBE_CENTRES * a
    # PyBullet's compound shapes keep only their first 16 children: chunk the 55 cubes.
    for start in range(0, len(centres), 16):
        chunk = centres[start : start + 16]
        n = len(chunk)
        shape = c.createCollisionShapeArray(
            [pb.GEOM_BOX] * n,
            halfExtents=[[a / 2] * 3] * n,
            collisionFramePositions=chunk.tolist(),
            collisionFrameOrientations=[orn] * n,
        )
        visual = c.createVisualShapeArray(
            [pb.GEOM_BOX] * n,
            halfExtents=[[a / 2] * 3] * n,
            visualFramePositions=chunk.tolist(),
            visualFrameOrientations=[orn] * n,
            rgbaColors=[grey] * n,
        )
        bodies.append(c.createMultiBody(0, shape, visual, useMaximalCoordinates=True))
    for b in bodies:
        c.changeDynamics(b, -1, lateralFriction=ph.friction_plate, restitution=ph.restitution_plate)
        # Made static: never integrated, never touching the table. The contact solver treats a
        # static body as at rest whatever velocity it is given, so while a hand moves the plate the
        # world gives it a mass (PLATE_MASS) and sets its pose and velocity every step.
    return bodies


def make_die_shape(c: BulletClient, ph: Physics) -> int:
    """The die's collision shape: a box of the die's edge (and proportions)."""
    half = np.array(ph.proportions) * ph.edge / 2
    return c.createCollisionShape(pb.GEOM_BOX, halfExtents=half.tolist())


def make_die_visuals(c: BulletClient, ph: Physics) -> tuple[int, dict[Colour, int]]:
    """The die's visual shape (its mesh) and a texture per colour of the set."""
    folder = cached_assets(ph.edge)
    visual = c.createVisualShape(pb.GEOM_MESH, fileName=str(folder / "die.obj"), meshScale=list(ph.proportions))
    return visual, {colour: c.loadTexture(str(folder / f"die_{colour}.png")) for colour in COLOURS}
