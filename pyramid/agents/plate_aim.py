"""Aiming on the plate, for the plate hands: the funnel-to-funnel steps as azimuths, the azimuths and
reaches a stroke may take, the plate's rims, and the plate games' funnel helpers under the hands' names.
"""

from __future__ import annotations

import math

import numpy as np

from pyramid import geometry
from pyramid.geometry import Slot
from pyramid.skillgames.plate import nearest_funnel, steps

# Azimuths (degrees, plate at rest) of the six steps from a funnel to its neighbours: a tilt-and-shake
# moves a seated die along these (measured: tilting towards a corner, between two steps, moves nothing).
STEPS = tuple(
    math.degrees(math.atan2(float(v[1]), float(v[0])))
    for v in (geometry.CUBE_TO_PLATE @ -np.array(geometry.NEIGHBOUR_STEPS, dtype=float).T).T
)


def azimuth_to(start: np.ndarray, goal: np.ndarray) -> float:
    """Azimuth (degrees) from ``start`` to ``goal`` (world points, metres)."""
    return math.degrees(math.atan2(goal[1] - start[1], goal[0] - start[0]))


# The base funnels, and the funnel and step count helpers, are the plate games' own.
base_funnel = nearest_funnel


funnel_steps = steps


# Azimuths (degrees) a stroke may send a die: every 15 degrees. Along a step it lands in that
# neighbour, between two steps in either (measured: mostly the nearer).
AZIMUTHS = tuple(sorted({round((a + d) % 360, 6) for a in STEPS for d in (-15.0, 0.0, 15.0, 30.0)}))


REACHES = tuple(round(0.025 * 1.15**n, 4) for n in range(13))  # 2.5 to 13 cm: where the line may lie


def landing_steps(azimuth: float) -> list[Slot]:
    """The funnel-to-funnel steps a die hopping along ``azimuth`` may take: the one or two nearest to it."""
    off = [abs((a - azimuth + 180) % 360 - 180) for a in STEPS]
    return [geometry.NEIGHBOUR_STEPS[n] for n, o in enumerate(off) if o <= min(off) + 1.0 or o < 40.0]


def apart(a: Slot, b: Slot) -> float:
    """Distance between two base funnels, in funnel-to-funnel steps along a straight line."""
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / 2)


# Azimuths (degrees) pointing off the plate across its three edges, where i, j or k is 0.
RIMS = tuple(math.degrees(math.atan2(float(v[1]), float(v[0]))) for v in (geometry.CUBE_TO_PLATE @ np.eye(3)).T)


def outward_of(slot: Slot, azimuth: float) -> bool:
    """Whether ``azimuth`` heads within 25 degrees of straight across an edge that the base funnel ``slot`` is on.

    Every hop into an edge funnel heads outward somewhat (it comes from inside); one straight at the
    rim would carry a die thrown a little too hard over it.
    """
    return any(c == 0 and math.cos(math.radians(azimuth - rim)) > 0.9 for c, rim in zip(slot, RIMS, strict=True))


def plus(a: Slot, b: Slot) -> Slot:
    """The sum of two lattice vectors."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def on_plate(slot: Slot) -> bool:
    """Whether a base funnel (i + j + k = 8) exists at ``slot``: no coordinate below 0."""
    return min(slot) >= 0
