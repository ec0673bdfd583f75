"""The stage a world is built on: the engine set from ``Physics``, the table, the floor, the plate, the die's shapes.

Called once by ``World`` as it starts, in this order (PyBullet numbers bodies as they are made).
"""

from __future__ import annotations

from pyramid import geometry
from pyramid.dice import COLOURS, Colour
from pyramid.physics import die_shape
from pyramid.physics.assets import cached_assets, convex_obj_file, unit_cube_file
from pyramid.physics.bullet import BulletClient, pb
from pyramid.physics.settings import Physics

FLOOR_DEPTH = 0.75  # metres from the table top down to the floor
FLOOR_HALF_WIDTH = 50.0  # metres: the floor is 100 m square, further than any die goes (see ``floor_boxes``)
FLOOR_THICKNESS = 0.1  # metres
TABLE_TOP = 0.04  # metres: the thickness of the table's top
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
        numSolverIterations=ph.iterations(),
        contactERP=ph.contact_erp,
        warmStartingFactor=ph.warm_starting,
        contactBreakingThreshold=ph.contact_breaking_threshold,
        useSplitImpulse=int(ph.split_impulse),
        splitImpulsePenetrationThreshold=ph.split_impulse_threshold,
        contactSlop=ph.engine_slop(),
        restitutionVelocityThreshold=ph.restitution_threshold,
        enableConeFriction=int(ph.cone_friction),
        frictionERP=ph.friction_erp,
    )
    if ph.die_shape == "hull":
        # Rounded hulls meet each other by polyhedral clipping: a full contact patch in one step. The normal to
        # clip along comes from the separating-axis test ("sat") or, far cheaper, from GJK ("gjk": Bullet's
        # convex-convex algorithm does so for shapes with polyhedral features when the test is off).
        c.setPhysicsEngineParameter(enableSAT=int(ph.hull_axis == "sat"))


def make_table(c: BulletClient, ph: Physics) -> tuple[int, int]:
    """The table (2 m square, its top at z = 0) and the floor with the table's base (``floor_boxes``): their ids."""
    half = [TABLE_HALF_WIDTH, TABLE_HALF_WIDTH, TABLE_TOP / 2]
    shape = box_shapes(c, ph, [half])
    visual = c.createVisualShape(pb.GEOM_BOX, halfExtents=half, rgbaColor=TABLE_RGBA)
    # Table, floor and plate are rigid bodies whatever the dice are: Bullet's contacts with a fixed
    # multibody ignore split impulse and turn every overlap into speed (a die dropped on the table
    # rebounded with restitution 0.5 where its materials say 0.36; see the README).
    table = c.createMultiBody(0, shape, visual, basePosition=[0, 0, -TABLE_TOP / 2], useMaximalCoordinates=True)
    boxes = floor_boxes()
    floor_shape = box_shapes(c, ph, [list(h) for _, h in boxes], [list(p) for p, _ in boxes])
    floor_visual = c.createVisualShapeArray(
        [pb.GEOM_BOX] * len(boxes),
        halfExtents=[list(h) for _, h in boxes],
        visualFramePositions=[list(p) for p, _ in boxes],
        rgbaColors=[FLOOR_RGBA, TABLE_RGBA],
    )
    floor = c.createMultiBody(0, floor_shape, floor_visual, useMaximalCoordinates=True)
    rolling, spinning = ph.table_torques()
    for body in (table, floor):  # both of the table's wood
        c.changeDynamics(
            body,
            -1,
            lateralFriction=ph.friction_table,
            restitution=ph.restitution_table,
            rollingFriction=rolling,
            spinningFriction=spinning,
        )
    return table, floor


TABLE_RGBA = [0.55, 0.40, 0.25, 1]
FLOOR_RGBA = [1.0, 1.0, 1.0, 1]


def floor_boxes() -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """The floor's two boxes as (centre, half extents), metres: the floor itself and the table's base on it.

    One static body, made second as the floor always was: no body after it changes its number, and a run
    that never reaches the floor is the same to the last bit as on the floor before (a 10 m square).
    The floor is a box, not a plane: a die on Bullet's plane touches it at one point a step and spins on it
    for ever. It is 100 m square: a die flicked off the table hops across the floor spinning, and 21 of the
    500 falls of examples/floor_probe.py went past the edge of a 10 m floor and fell below it (which the
    world's check saw as a die inside the floor; the farthest at rest lay 8.7 m from the table's centre).
    The table stands on a closed base down to the floor, flush with its top's edges: nothing lies under
    the top (the check counts a die there as inside the table; 41 of those falls rolled under an open
    table). See docs/soak.md.
    """
    half, t, depth = FLOOR_HALF_WIDTH, FLOOR_THICKNESS, FLOOR_DEPTH
    base = (depth - TABLE_TOP) / 2
    return [
        ((0.0, 0.0, -depth - t / 2), (half, half, t / 2)),
        ((0.0, 0.0, -TABLE_TOP - base), (TABLE_HALF_WIDTH, TABLE_HALF_WIDTH, base)),
    ]


def make_plate(c: BulletClient, ph: Physics) -> list[int]:
    """The plate: a triangular slab and the 55 cubes of the virtual 10th layer forming the funnels; its body ids."""
    a = ph.edge
    grey = [0.72, 0.74, 0.76, 1]
    vertices, tris = geometry.slab_prism()
    verts = (vertices * a).tolist()
    if polyhedral(ph):
        corners = tuple(tuple(v) for v in verts)
        slab = c.createCollisionShape(pb.GEOM_MESH, fileName=str(convex_obj_file("slab", corners)), flags=SAT)
    else:
        slab = c.createCollisionShape(pb.GEOM_MESH, vertices=verts)
    slab_vis = c.createVisualShape(pb.GEOM_MESH, vertices=verts, indices=tris.ravel().tolist(), rgbaColor=grey)
    bodies = [c.createMultiBody(0, slab, slab_vis, useMaximalCoordinates=True)]
    orn = geometry.matrix_to_quat(geometry.CUBE_TO_PLATE).tolist()
    centres = geometry.PLATE_CUBE_CENTRES * a
    # PyBullet's compound shapes keep only their first 16 children: chunk the 55 cubes.
    for start in range(0, len(centres), 16):
        chunk = centres[start : start + 16]
        n = len(chunk)
        shape = box_shapes(c, ph, [[a / 2] * 3] * n, chunk.tolist(), [orn] * n)
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


SAT = pb.URDF_INITIALIZE_SAT_FEATURES  # a shape with polyhedral features: clipped contacts against rounded hulls


def polyhedral(ph: Physics) -> bool:
    """Whether the stage's boxes are convex meshes with polyhedral features (for dice that are rounded hulls).

    A hull meets Bullet's box shape by GJK, one contact point a step: a die lying on the table touched it
    at one point and one falling tilted spun on it for ever. Hull against hull is clipped: four at once.
    """
    return ph.die_shape == "hull"


def box_shapes(
    c: BulletClient,
    ph: Physics,
    halves: list[list[float]],
    places: list[list[float]] | None = None,
    turns: list[list[float]] | None = None,
) -> int:
    """One box of half extents ``halves[0]`` at the origin, or a compound of boxes at ``places`` turned by ``turns``.

    Bullet's boxes; for rounded hull dice (``polyhedral``) convex meshes of the same boxes.
    """
    if places is None:
        if not polyhedral(ph):
            return c.createCollisionShape(pb.GEOM_BOX, halfExtents=halves[0])
        scale = [2 * h for h in halves[0]]
        return c.createCollisionShape(pb.GEOM_MESH, fileName=str(unit_cube_file()), meshScale=scale, flags=SAT)
    n = len(halves)
    frames: dict[str, list[list[float]]] = {"collisionFramePositions": places}
    if turns is not None:
        frames["collisionFrameOrientations"] = turns
    if not polyhedral(ph):
        return c.createCollisionShapeArray([pb.GEOM_BOX] * n, halfExtents=halves, **frames)
    return c.createCollisionShapeArray(
        [pb.GEOM_MESH] * n,
        fileNames=[str(unit_cube_file())] * n,
        meshScales=[[2 * h for h in half] for half in halves],
        flags=[SAT] * n,
        **frames,
    )


def make_die_shape(c: BulletClient, ph: Physics) -> int:
    """The die's collision shape (``Physics.die_shape``): by default a box of the die's edge (and proportions)."""
    return die_shape.make_die_shape(c, ph)


def make_die_visual(c: BulletClient, ph: Physics) -> int:
    """The die's visual shape (its mesh)."""
    folder = cached_assets(ph.edge)
    return int(c.createVisualShape(pb.GEOM_MESH, fileName=str(folder / "die.obj"), meshScale=list(ph.proportions)))


def load_die_textures(c: BulletClient, ph: Physics) -> dict[Colour, int]:
    """A texture per colour of the set, for PyBullet's own pictures (``render``, its window): 22 ms a world, which a
    world no one draws so does not pay."""
    folder = cached_assets(ph.edge)
    return {colour: c.loadTexture(str(folder / f"die_{colour}.png")) for colour in COLOURS}
