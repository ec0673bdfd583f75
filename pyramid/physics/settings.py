"""The physics settings: engine, solver and material values of a world, readable without PyBullet.

Scene files and experiments carry a ``Physics``; ``pyramid.physics.world`` builds its world from one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from pyramid.dice import DENSITY, EDGE
from pyramid.units import GRAVITY

DIE_SHAPES = ("box", "hull", "compound", "margin")  # the die's collision shapes (``Physics.die_shape``)
EDGE_RADIUS = 0.001  # m: the rounding of a 16 mm die's edges and corners (an assumption: docs/studies/real-dice.md)
MAX_HULL_SEGMENTS = 8  # steps per quarter circle of the hull's rounding, at most (8: 584 vertices)
HULL_AXES = ("sat", "gjk")  # how two rounded hulls find the normal they are clipped along (``Physics.hull_axis``)
GJK_SLOP = 1e-6  # m: the contact slop at least, with hull_axis "gjk": resting dice stay touching, so stay clipped
HULL_TABLE_ROLLING = 1e-4  # m: the table's rolling friction under rounded hull dice (``table_torques``)
HULL_TABLE_SPINNING = 1e-3  # m: and its spinning friction: with the dice's 0.81, 0.8 mm of torque arm
BOX_SOLVER_ITERATIONS = 24  # per step, with every shape but the rounded hull (``Physics.iterations``)
# With the rounded hull 24 do not converge on the pyramid: an edge column whose foot is lifted out crept down and
# fell with the whole pyramid solved, and stood with 40 or more, as with local physics' smaller islands at 24
# (Dice Mikado's soak, seed 17: 157 dice seated at 24, 157 to 163 at 32, 164 at 40 and 50, 163 to 164 at 100, three
# starts each); a collapsed pile crept on for up to 10 s at 24 and rested within 3 s at 40 (seed 71).
# docs/studies/real-dice.md, "The hull's creep was its solver".
HULL_SOLVER_ITERATIONS = 40
MAX_SIZE_SPREAD = 0.02  # the largest size_spread, relative to the die: 3 deviations stay within 6% of its side


class RoundedDie(TypedDict, total=False):
    """The settings of a die's shape, to spread into ``Physics(...)`` or ``dataclasses.replace``."""

    die_shape: str
    hull_segments: int
    hull_axis: str


# The rounded die, the candidate default (docs/studies/real-dice.md): ``Physics(**ROUNDED_DIE)``.
ROUNDED_DIE = RoundedDie(die_shape="hull", hull_segments=2, hull_axis="gjk")
# The dice compared side by side, each named whatever the default: ``Physics(**COMPARED_DICE["hull"])``.
COMPARED_DICE: dict[str, RoundedDie] = {"box": RoundedDie(die_shape="box"), "hull": ROUNDED_DIE}


@dataclass(frozen=True)
class Physics:
    """Engine and material settings. Lengths in metres, times in seconds.

    PyBullet's own defaults are sized for bodies of about a metre: with them a pyramid of 16 mm dice
    sinks and creeps apart (0.24 edges in 3 s). What holds it (measured, see the README):
    split impulse on for every penetration (threshold 0; Bullet's -0.04 m never triggers), no
    contact slop (PyBullet's 1 mm is 0.06 edges), a breaking threshold of 0.002 (a factor: Bullet multiplies
    it by a shape's bounding radius, so a die's contact point is dropped 28 micrometres from where it
    was made; docs/studies/real-dice.md, the tower), warm starting 1 and
    24 solver iterations. Dice are sharp boxes by default: Bullet's box-box contacts give a full
    contact patch in one step. Rounded dice are options (``die_shape``): a rounded convex hull gets
    one point a step from Bullet's boxes and spins on a table for ever, so with hull dice the table
    and plate are convex meshes too and every pair is clipped polyhedron against polyhedron (four
    points at once, 0.94x the box's speed; docs/studies/real-dice.md).

    Settings (each can be set in a scene file's ``[physics]`` table, or swept in an experiment):
      edge, proportions   the die's edge (m) and its box relative to it (a die is a cube: 1, 1, 1)
      density             kg/m^3 (acrylic 1180: a 16 mm die weighs 4.8 g)
      time_step           s per physics step; solver_iterations per step (None: HULL_SOLVER_ITERATIONS, 40,
                          with the rounded hull, BOX_SOLVER_ITERATIONS, 24, with the other shapes)
      contact_erp, warm_starting, contact_breaking_threshold (times a shape's radius), split_impulse,
      split_impulse_threshold (m), contact_slop (m)   Bullet's contact solver, tuned as above
      restitution_threshold   m/s below which an impact does not bounce
      cone_friction       Bullet's implicit friction cone for multibody contacts (on). Dice, table
                          and plate are rigid bodies by default, whose contacts turn their first
                          friction direction along the slide (the same in every direction either
                          way): it only matters with maximal_coordinates off
      maximal_coordinates rigid bodies (True) rather than multibodies; engine_defaults: PyBullet's own
                          solver settings, for comparison; gravity in m/s^2
      friction_die, friction_plate, friction_table   coefficients per body: Bullet multiplies the
                          two in contact, so friction_die also changes die on plate and die on table
      restitution_die, restitution_plate, restitution_table   bounciness per body, multiplied too
      friction_anchor     Bullet's friction anchors on the dice: a contact that sticks keeps its point
                          and friction pulls it back there, so static friction holds. Off, friction is
                          only a velocity constraint and a loaded die creeps: the full pyramid with
                          (4, 0, 0) taken never came to rest (4 dice slid out of their slots in 10 s,
                          though 0.66 > 0.5 holds them by Coulomb's law); on, it rests in 0.25 s
      friction_erp        how hard an anchored contact is pulled back to its anchor each step. Bullet's
                          0.2 held a die seated in a funnel of a plate tilted 72 deg (Coulomb lets it
                          slide from 62 deg), and a 2.6 g jiggle freed no die; 0.05 frees it from about
                          60 deg (no anchors: from 52, as the dice creep). Known limit: slippery dice
                          need more solver iterations to come to rest: the full pyramid at 200 Hz
                          rests at 24 iterations with die-on-die friction 0.25 and up, at 36 with
                          0.16 (scenes/slippery.toml); at 150 Hz it needs 0.49 (docs/physics.md)
      rolling_friction, spinning_friction   per die, 0: a die's resistance is its corners and edges
      rolling_friction_table, spinning_friction_table   m, the table's and the floor's (the wood gives
                          under a die; Bullet adds each body's times the other's friction, and applies
                          the spinning one only where the rolling one is above 0). None: HULL_TABLE_ROLLING
                          and HULL_TABLE_SPINNING with the rounded hull, 0 with the other shapes. A rounded
                          die that lands spinning on a corner otherwise spins on it like a top for ever:
                          5 of 40 dice flicked off the table still spun on one after 10 s, none with them
                          (tests/test_floor.py). Only a die on the table or the floor pays for them
      sleep_after_settle  put every die to sleep once settle() finds them at rest (it then costs nothing)
      local               simulate only the dice that something can move; hold the others still
                          until motion reaches them (``pyramid.physics.region``). False: the whole
                          pyramid is solved at every step, as a comparison (the README's bench)
      die_shape           the die's collision shape (``DIE_SHAPES``; docs/studies/real-dice.md compares them):
                          "box" (the default: Bullet's box, sharp edges, a full contact patch from its
                          box-box contacts; the suite's figures were measured with it), "hull" (the
                          convex hull of the die rounded by ``edge_radius``, with Bullet's polyhedral
                          contact clipping between dice), "compound" (three boxes and twelve capsules of
                          that radius, an exact rounded die), "margin" (the box with a collision margin
                          of ``edge_radius``: Bullet rounds it only against convex meshes, the plate's
                          slab; box-box contacts keep it sharp)
      edge_radius         m: the rounding of the dice's edges and corners for the rounded shapes (no
                          published measure of 16 mm game dice was found: 1 mm is chosen, see the study)
      hull_segments       flat steps per quarter circle of the hull's rounded edges (1 to 8). 1 bevels
                          them: as fast as the box, but a die can rest on a 45-degree bevel or a corner
                          triangle, whose centre lies right under the die's (3 of 300 throws ended so,
                          cocked); 2 has no such facet and costs 4 times as much
      hull_axis           how two hulls (and a hull and the table or plate) find the normal along which
                          Bullet clips one against the other, four points at once: "sat", its separating-axis
                          test over every pair of faces and edges (exact, but it costs about the square of the
                          hull's edges: two steps run at 0.26x the box's speed), or "gjk", the direction of
                          GJK's closest points (0.85x the box's speed with two steps). Bullet clips along
                          GJK's direction only once the two overlap, so with "gjk" the contact slop is at
                          least GJK_SLOP (1 micrometre): a resting die stays that deep and keeps its four
                          points (with no slop it rests exactly touching, on one point)
      size_spread, size_seed   m: the standard deviation of the edge length among the set's dice
                          (0: every die is exactly ``edge``), drawn once per die from ``size_seed``
                          (clipped to 3 deviations), so die 17 has the same size in every world of a seed
      jitter              None (off): dice start exactly where they are put. A seed: every die put
                          into the world is nudged by a seeded ~1e-9 m and ~1e-9 rad, as another
                          machine's rounding would; what a figure claims must survive it. The
                          environment variable PYRAMID_JITTER=S turns it on for every world whose
                          settings leave it off (the test suite's ``--jitter S``)
    """

    edge: float = EDGE
    proportions: tuple[float, float, float] = (1.0, 1.0, 1.0)  # die box relative to the edge
    density: float = DENSITY
    time_step: float = 1 / 200
    solver_iterations: int | None = None  # None: by the die's shape (``iterations``)
    contact_erp: float = 0.6
    warm_starting: float = 1.0
    contact_breaking_threshold: float = 0.002
    split_impulse: bool = True
    split_impulse_threshold: float = 0.0  # metres of penetration beyond which split impulse is used
    contact_slop: float = 0.0  # metres of penetration left uncorrected
    restitution_threshold: float = 0.5  # m/s: slower impacts do not bounce (a 1 cm drop hits at 0.44)
    # Bullet's implicit friction cone, for multibody contacts only (dice with maximal_coordinates
    # off). Rigid-body contacts, the default for dice, table and plate, align their first friction
    # direction with the slide: a die on the table creeps from about a degree under its friction
    # angle and slides in every direction alike. examples/support_probe.py prints the figures.
    cone_friction: bool = True
    maximal_coordinates: bool = True
    engine_defaults: bool = False  # True: leave PyBullet's own solver settings (for comparison)
    gravity: float = GRAVITY
    # Bullet multiplies the two bodies' coefficients: die on die 0.81^2 = 0.66 (acrylic),
    # die on plate 0.81 * 0.45 = 0.36 (aluminium), die on table 0.81 * 0.5 = 0.40 (dry wood).
    friction_die: float = 0.81
    friction_plate: float = 0.45
    friction_table: float = 0.5
    restitution_die: float = 0.6
    restitution_plate: float = 0.5
    restitution_table: float = 0.6
    friction_anchor: bool = True
    friction_erp: float = 0.05
    rolling_friction: float = 0.0
    spinning_friction: float = 0.0
    rolling_friction_table: float | None = None
    spinning_friction_table: float | None = None
    sleep_after_settle: bool = True
    local: bool = True
    jitter: int | None = None
    die_shape: str = "box"
    edge_radius: float = EDGE_RADIUS
    hull_segments: int = 1
    hull_axis: str = "sat"
    size_spread: float = 0.0
    size_seed: int = 0

    def __post_init__(self) -> None:
        if self.die_shape not in DIE_SHAPES:
            raise ValueError(f"Physics.die_shape must be one of {', '.join(DIE_SHAPES)}, got {self.die_shape!r}")
        if not 1 <= self.hull_segments <= MAX_HULL_SEGMENTS:
            raise ValueError(f"Physics.hull_segments must be from 1 to {MAX_HULL_SEGMENTS}, got {self.hull_segments!r}")
        if self.solver_iterations is not None and (
            isinstance(self.solver_iterations, bool)
            or not isinstance(self.solver_iterations, int)
            or self.solver_iterations < 1
        ):
            raise ValueError(
                f"Physics.solver_iterations must be a whole number >= 1 or None, got {self.solver_iterations!r}"
            )
        if self.hull_axis not in HULL_AXES:
            raise ValueError(f"Physics.hull_axis must be one of {', '.join(HULL_AXES)}, got {self.hull_axis!r}")
        shortest = self.edge * min(self.proportions)
        # The box is sharp whatever the radius: only a rounded shape needs it to fit the die.
        if not 0.0 < self.edge_radius or (self.die_shape != "box" and self.edge_radius >= shortest / 2):
            raise ValueError(
                f"Physics.edge_radius must be above 0 and, for a rounded die_shape, below half the die's "
                f"shortest side ({shortest / 2:g} m), got {self.edge_radius!r}"
            )
        if not 0.0 <= self.size_spread <= shortest * MAX_SIZE_SPREAD:
            raise ValueError(
                f"Physics.size_spread must be from 0 to {MAX_SIZE_SPREAD:g} of the die's shortest side "
                f"({shortest * MAX_SIZE_SPREAD:g} m), got {self.size_spread!r}"
            )

    def iterations(self) -> int:
        """The solver's iterations a step: as set, else by the die's shape (the rounded hull needs more)."""
        if self.solver_iterations is not None:
            return self.solver_iterations
        return HULL_SOLVER_ITERATIONS if self.die_shape == "hull" else BOX_SOLVER_ITERATIONS

    def table_torques(self) -> tuple[float, float]:
        """The table's and the floor's rolling and spinning friction (m): as set, else by the die's shape."""
        rolling, spinning = (HULL_TABLE_ROLLING, HULL_TABLE_SPINNING) if self.die_shape == "hull" else (0.0, 0.0)
        return (
            rolling if self.rolling_friction_table is None else self.rolling_friction_table,
            spinning if self.spinning_friction_table is None else self.spinning_friction_table,
        )

    def engine_slop(self) -> float:
        """The contact slop (m) the engine is given: ``contact_slop``, and at least ``GJK_SLOP`` for hulls clipped
        along GJK's direction."""
        if self.die_shape == "hull" and self.hull_axis == "gjk":
            return max(self.contact_slop, GJK_SLOP)
        return self.contact_slop

    @classmethod
    def pybullet_defaults(cls) -> Physics:
        """PyBullet's own settings (240 Hz, its solver defaults, multibody dice, every die solved): the baseline."""
        return cls(time_step=1 / 240, engine_defaults=True, maximal_coordinates=False, local=False)
