"""The physical models behind a player's actions: an air jet, a hand moving the plate, a finger, a ladle.

Pure numpy, SI units. ``pyramid.physics.actions`` turns these into forces, impulses and plate poses that the
world applies step by step; nothing here touches PyBullet.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np

from pyramid import geometry

Vector: TypeAlias = Sequence[float] | np.ndarray

AIR_DENSITY = 1.2  # kg/m^3
CUBE_DRAG = 1.05  # drag coefficient of a cube face-on
JET_DECAY = 6.0  # round free jet: centreline speed u_c = u0 * JET_DECAY * nozzle / x beyond the core
JET_SPREAD = 0.11  # the jet's half-width (where the speed halves) grows by this many metres per metre
SHADOW = 0.3  # share of the flow that passes a die standing in the way


def unit(azimuth: float, elevation: float = 0.0) -> np.ndarray:
    """Unit vector (3,) from an azimuth (degrees from +x towards +y) and an elevation (degrees above horizontal)."""
    az, el = math.radians(azimuth), math.radians(elevation)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def jet_half_width(distance: float | np.ndarray, nozzle: float = 0.015) -> float | np.ndarray:
    """The jet's half-width (m, where its speed halves) ``distance`` metres from a mouth of diameter ``nozzle``."""
    return nozzle / 2 + JET_SPREAD * np.maximum(distance, 0.0)


def jet_speed(points: np.ndarray, origin: Vector, direction: np.ndarray, speed: float, nozzle: float) -> np.ndarray:
    """Air speed (n,) of a round turbulent jet at ``points`` (n, 3), metres.

    The jet leaves a mouth of diameter ``nozzle`` at ``speed`` m/s. Within its potential core (about
    ``JET_DECAY`` nozzle diameters) the centreline keeps the exit speed; beyond it the speed falls as
    1/x. Across the jet the profile is Gaussian with a half-width growing by ``JET_SPREAD`` per metre
    (a spread half-angle of about 6 degrees to the half-speed line). Behind the mouth there is no flow.
    """
    rel = np.atleast_2d(points) - np.asarray(origin, dtype=float)
    along = rel @ direction  # (n,) distance downstream
    across = np.linalg.norm(rel - np.outer(along, direction), axis=1)
    x = np.maximum(along, 1e-9)
    centre = speed * np.minimum(1.0, JET_DECAY * nozzle / x)
    half_width = jet_half_width(x, nozzle)
    out = centre * np.exp(-math.log(2) * (across / half_width) ** 2)
    return np.where(along > 0, out, 0.0)


def jet_forces(
    positions: np.ndarray, origin: Vector, direction: np.ndarray, speed: float, nozzle: float, edge: float
) -> np.ndarray:
    """Drag forces (n, 3), newtons, of the jet on dice centred at ``positions`` (n, 3).

    Drag is 1/2 rho C_d A u^2 on a face of area edge^2, along the line from the mouth to the die.
    A die with another die closer to the mouth within one edge of its line gets only ``SHADOW`` of
    the flow: the jet hits the first dice it reaches.
    """
    positions = np.atleast_2d(positions)
    origin_v = np.asarray(origin, dtype=float)
    u = jet_speed(positions, origin_v, direction, speed, nozzle)
    rel = positions - origin_v
    dist = np.linalg.norm(rel, axis=1)
    flow = rel / np.maximum(dist, 1e-9)[:, None]
    shade = np.ones(len(positions))
    for n in range(len(positions)):
        if u[n] <= 0:
            continue
        # Another die in front: nearer the mouth, and within one edge of the line mouth -> this die.
        ahead = rel @ flow[n]
        off_line = np.linalg.norm(rel - np.outer(ahead, flow[n]), axis=1)
        blockers = (ahead > 0) & (ahead < dist[n] - 0.5 * edge) & (off_line < edge)
        if blockers.any():
            shade[n] = SHADOW
    force = 0.5 * AIR_DENSITY * CUBE_DRAG * edge**2 * (u * shade) ** 2
    return force[:, None] * flow


FINGER_REACH = 0.5  # edges: farthest a pressing finger pushes beyond where it first touched the die
FINGER_DEPTH = 0.001  # m: how far beyond where it is a pressing fingertip is aimed (it pushes up to its force)
FINGER_PAD = (0.006, 0.006, 0.002)  # m: a fingertip, as a pad of skin (half-extents; flat side on the die)
FINGER_MASS = 0.05  # kg: what of the hand moves with the fingertip when a die gives way under it
FINGER_HOLD = 50.0  # N: what the hand holding a pressing finger resists sideways (it presses with far less)
PRESS_LIMIT = 10.0  # N: the firmest press the solver resolves (20 N sinks a die 5.8 mm into the plate)
PRESS_ITERATIONS = 100  # solver iterations while a finger presses (24 let a 5 N press sink a die 3.5 mm)
FINGER_SPEED = 0.2  # m/s: fastest a pressing finger follows a die that gives way (it pushes less as it nears it)
GRIP = 2.0  # N: the most a hand carrying a die pulls it towards where it holds it (40 times its weight)
HAND_SPEED = 4.0  # m/s: fastest a hand carries a die (a brisk underarm throw lets go at 2 to 5 m/s)


def smooth_step(t: float) -> float:
    """0 before 0, 1 after 1, a smooth (zero slope at both ends) rise between: the envelope of a hand's move."""
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


def support_distance(direction: np.ndarray, edge: float) -> float:
    """How far (metres) the plate's outline reaches from its centre along a horizontal ``direction``."""
    corners = geometry.slab_corners() * edge
    return float((corners @ direction[:2]).max())


def axis_angle_quat(axis: np.ndarray, angle: float) -> np.ndarray:
    """Quaternion (x, y, z, w) of a turn by ``angle`` radians about the unit ``axis``."""
    # Not Rotation.from_rotvec(axis * angle), which scales by sin(angle / 2) / angle: the last bit
    # differs, and a tilted plate's dice fall differently. Each component times the sine in Python floats
    # (numpy's product, rounded alike, sooner: a tilt asks for this at every step).
    sine = math.sin(angle / 2)
    return np.array([*(float(c) * sine for c in axis), math.cos(angle / 2)])


def tilted_plate_pose(
    downhill: np.ndarray, angle: float, edge: float, lift: float = 0.0, offset: Vector = (0, 0, 0)
) -> np.ndarray:
    """Pose (7,) of a plate whose uphill side a hand has raised by ``angle`` radians.

    The plate turns about its lowest edge (the line of its outline furthest along ``downhill``), which
    stays on the table; then ``lift`` metres up and ``offset`` (3,) metres sideways, for shakes.
    """
    d, pivot = tilt_line(downhill, edge)
    return turned_plate_pose(d, angle, pivot, lift, offset)


def tilt_line(downhill: np.ndarray, edge: float) -> tuple[np.ndarray, np.ndarray]:
    """The way down (3,), horizontal and of unit length, and a point (3,) of the line a one-handed tilt down
    ``downhill`` turns the plate about: the plate's edge furthest along it, which stays on the table."""
    d = np.array([downhill[0], downhill[1], 0.0])
    d /= np.linalg.norm(d)
    return d, d * support_distance(d, edge)


def rise_profile(u: float, accelerate: float) -> float:
    """Share (0 to 1) of a turn done at ``u`` (0 to 1) of its time.

    ``accelerate`` 0: the smooth step. Otherwise constant acceleration for the first ``accelerate``
    of the time and constant deceleration after (peak rate 2 at ``u = accelerate``).
    """
    u = min(max(u, 0.0), 1.0)
    if accelerate <= 0:
        return smooth_step(u)
    if u < accelerate:
        return u * u / accelerate
    return 1 - (1 - u) ** 2 / (1 - accelerate)


def line_rotation(downhill: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Quaternion (4,) and matrix (3, 3) of a turn by ``angle`` radians about a horizontal line square to ``downhill``.

    A positive angle lowers the side towards ``downhill``. Read only: kept for the next call, as a tilt's pose
    asks for the same turn twice (its lowest point, then the pose).
    """
    return _line_rotation(float(downhill[0]), float(downhill[1]), float(angle))


@functools.lru_cache(maxsize=16)
def _line_rotation(x: float, y: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    quat = axis_angle_quat(np.array(line_axis(*line_direction(x, y))), angle)
    rotation = geometry.quat_to_matrix(quat)[0]
    quat.flags.writeable = False
    return quat, rotation


def line_axis(dx: float, dy: float) -> tuple[float, float, float]:
    """The axis a plate turns about to go down along the horizontal unit direction (dx, dy): the up axis turned to
    the line square to it."""
    # np.cross((0, 0, 1), d) written out, the same products and differences (np.cross takes 50 us a call,
    # and a tilt asks for this twice a step).
    return (0.0 * 0.0 - 1.0 * dy, 1.0 * dx - 0.0 * 0.0, 0.0 * dy - 0.0 * dx)


@functools.lru_cache(maxsize=16)
def line_direction(x: float, y: float) -> tuple[float, float]:
    """The horizontal unit direction of (x, y): a tilt's is the same at every step."""
    d = np.array([x, y, 0.0])
    d /= np.linalg.norm(d)
    return float(d[0]), float(d[1])


def turned_plate_pose(
    downhill: np.ndarray, angle: float, pivot: np.ndarray, lift: float = 0.0, offset: Vector = (0, 0, 0)
) -> np.ndarray:
    """Pose (7,) of a plate turned by ``angle`` radians about the horizontal line through ``pivot`` (3,), metres.

    The line is square to ``downhill``, whose side goes down; ``pivot`` is given in the frame of the
    plate lying on the table, and the plate is then raised ``lift`` metres and moved ``offset`` (3,).
    """
    quat, rot = line_rotation(downhill, angle)
    p = np.asarray(pivot, dtype=float)
    # p - rot p + (0, 0, lift) + offset, left to right, in Python floats past the product (rounded alike).
    turned = (rot @ p).tolist()
    px, py, pz = p.tolist()
    ox, oy, oz = (float(c) for c in offset)
    position = [px - turned[0] + 0.0 + ox, py - turned[1] + 0.0 + oy, pz - turned[2] + lift + oz]
    return np.array(position + quat.tolist())


def lowest_point(downhill: np.ndarray, angle: float, pivot: np.ndarray, edge: float) -> float:
    """Height (metres) of the plate's lowest point when turned by ``angle`` about the line through ``pivot``."""
    _, rot = line_rotation(downhill, angle)
    vertices = slab_vertices(edge)
    p = np.asarray(pivot, dtype=float)
    # The heights alone: each vertex turned about the pivot, then the pivot's height added back.
    return float((((vertices - p) @ rot.T)[:, 2] + p[2]).min())


@functools.cache
def slab_vertices(edge: float) -> np.ndarray:
    """The six corners (6, 3) of the plate's slab, metres, in the plate's frame (``geometry.slab_prism``): read
    only."""
    vertices = geometry.slab_prism()[0] * edge
    vertices.flags.writeable = False
    return vertices


def pose_velocity(
    before: np.ndarray, after: np.ndarray, dt: float, turns: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Linear (3,) and angular (3,) velocity of a body moving from pose ``before`` to ``after`` in ``dt``.

    ``turns``: the two poses' rotations (3, 3), where they are known (``geometry.quat_to_matrix`` of each).
    """
    linear = (after[:3] - before[:3]) / dt
    if turns is None:
        turns = geometry.quat_to_matrix(before[3:])[0], geometry.quat_to_matrix(after[3:])[0]
    rb, ra = turns
    # The small rotation ra rb^T as a rotation vector, from its skew-symmetric part (written out: the
    # plate's velocity from scipy's Rotation.as_rotvec differs in the last bits, and so would a tilt).
    # The entries in Python floats, each difference, sum and quotient rounded as numpy's (the trace left to right).
    d = (ra @ rb.T).tolist()
    w = np.array([(d[2][1] - d[1][2]) / 2, (d[0][2] - d[2][0]) / 2, (d[1][0] - d[0][1]) / 2])
    s = float(np.linalg.norm(w))
    angle = math.atan2(s, (d[0][0] + d[1][1] + d[2][2] - 1) / 2)
    angular = np.array([c / s * angle / dt for c in w.tolist()]) if s > 1e-12 else np.zeros(3)
    return linear, angular


def ladle_release(count: int, rng: np.random.Generator, bowl: float, edge: float) -> np.ndarray:
    """Offsets (count, 3), metres, of dice heaped in a ladle's bowl of radius ``bowl``, relative to its centre.

    The dice lie in layers one edge apart, spread uniformly over the bowl's disc, then jittered.
    """
    per_layer = max(1, int((bowl / edge) ** 2 * 0.7))
    out = np.zeros((count, 3))
    for n in range(count):
        r = bowl * math.sqrt(rng.uniform(0, 1)) * 0.8
        phi = rng.uniform(0, 2 * math.pi)
        out[n] = [r * math.cos(phi), r * math.sin(phi), 1.2 * edge * (n // per_layer)]
    return out
