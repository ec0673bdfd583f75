"""Tolerances: how far from ideal a die may be and still count as seated, lying, at rest, unmoved or in place.

One frozen ``Tolerances`` and its default ``TOL``, in the core beside the geometry they measure against:
the read-out (``perception``), the world's settle test, the scene reports, the window and the skill
games' referees all judge with these. Lengths are in die edges, angles in degrees.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerances:
    """The bounds every judgement of a die's pose uses; ``TOL`` holds the values in force."""

    seat: float = 0.25
    """Edges: farthest a die's centre may be from its slot's centre to read as seated there.

    Neighbouring lattice cells are one edge apart, so a quarter edge (half the way to the midpoint)
    leaves no doubt which slot; a die seated in its funnel sits within a few hundredths of an edge.
    """

    align: float = 15.0
    """Degrees: largest turn away from the nearest lattice orientation for a seated (or corner-down) die.

    Lattice orientations are at least 90 degrees apart (45 would be the ambiguous middle); a die in a
    three-face funnel leans a few degrees at most, one lying across a funnel far more.
    """

    cock: float = 10.0
    """Degrees: a die not seated whose best face is further than this from straight up is cocked.

    A die resting flat tilts well under a degree; one propped on another die or a funnel wall tilts
    far more. Within 10 degrees a player names its top face; beyond, it has no value, as the rules say.
    """

    rest_shift: float = 0.005
    """Edges: most a die may move over a settle window (``World.settle``) and still be at rest.

    The target set for the standing pyramid's sag (it creeps 0.003 edges in 10 s awake); a die still
    sliding or rocking moves far more than 0.08 mm in a quarter second.
    """

    rest_turn: float = 1.0
    """Degrees: most a die may turn over a settle window and still be at rest; a rocking die turns more."""

    moved_shift: float = 0.25
    """Edges: a die whose centre moved farther than this during a scene has moved (its report's ``moved``).

    The same bound as ``seat``: a seated die that moved less still reads in its slot.
    """

    moved_turn: float = 15.0
    """Degrees: or one that turned more than this; the same bound as ``align``, for the same reason."""

    occupied: float = 0.5
    """Edges: a die whose centre lies within this of a place holds it (nothing more can be put there).

    Two resting dice are at least an edge apart, centre to centre: half of it names one die.
    """

    mount: float = 0.3
    """Edges: farthest a die's centre may be from a lattice cell outside the pyramid to count as mounted on it.

    A little more room than ``seat``: a mounted die rests on the outer faces of the dice below it, with
    no funnel walls to centre it; still well short of the half edge between cells.
    """

    on_plate_height: float = 0.9
    """Edges: a die centred higher than this above the table, over the plate's outline, lies on the plate.

    A die lying on the table is centred 0.5 edges up, one lying on the plate's slab about 1.18.
    """

    sunk: float = 0.25
    """Edges: deepest a die's centre may lie below its lowest resting height over the table top.

    A die at rest on the table is centred at least half its shortest side up, whichever way it lies;
    contacts are solved with a little overlap (well under a tenth of an edge). A quarter edge deeper,
    the die is inside the table: a state that cannot be.
    """

    max_speed: float = 50.0
    """m/s: fastest a die may move. The hardest throw a scene allows is 20 m/s and a fall from 5 m
    adds 10: a die faster than this was given energy by no action (a solver fault).
    """

    spin_drift: float = 0.1
    """Edges: farthest a die spinning flat may slide over the roller's spin window and still be read.

    A die spinning in place with its face up drifts little; one still rolling or sliding moves more.
    """


TOL = Tolerances()
