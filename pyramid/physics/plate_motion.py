"""The plate in the hands: a tilt and a shake, and where the plate is moment by moment while one runs.

Small frozen data and pure kinematics (no world, no PyBullet); ``actions`` performs them in the world.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from pyramid import geometry
from pyramid.physics import hands
from pyramid.units import rounded as r

HOME = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])  # the plate lying on the table


@dataclass(frozen=True)
class Tilt:
    """Raise the plate's uphill side so that it slopes down towards ``direction`` (azimuth, degrees) by ``angle``.

    The hand needs ``ramp`` s to reach the angle, holds it ``hold`` s, and lowers it in ``ramp`` s;
    the low edge stays on the table. While held it may jiggle the plate to and fro along the slope by
    ``shake`` m at ``frequency`` Hz (peak acceleration shake * (2 pi f)^2; measured on Faraday's start
    with the level plate, 3 mm at 14 Hz (2.4 g) moved no seated die out of its funnel, 3.5 mm at 22 Hz
    (6.8 g, the window's S) threw most out: a die leaves only when the plate moves far enough under it),
    and press ``press`` N on the topmost die along the plate's normal (a finger on the apex, as Captain
    Flint does).

    Held in two hands, the plate can turn about any horizontal line instead of its low edge: with
    ``pivot`` (a point (x, y, z), metres, in the frame of the plate lying on the table) the plate
    turns about the horizontal line through that point square to ``direction``, the side towards
    ``direction`` going down. A die on that line only turns with the plate; one ``d`` m from it
    moves ``d`` times the angle. So that no part of the plate goes through the table, the hands
    first lift it (in ``lift_time`` s, smoothly) by just what the full angle needs (nothing when the
    line lies on the table under the plate's edge), turn it, and set it down again after.
    ``accelerate`` shapes the turn: 0 is the smooth rise of the one-handed tilt (peak angular
    acceleration 6 A / T^2 at both ends, for angle A radians and ramp T s); a share s between 0
    and 1 turns at a constant angular acceleration 2 A / (s T^2) for the first s T s and slows at
    a constant 2 A / ((1 - s) T^2) after: a small s is a jerk at the start (the plate's lowered
    side drops away from its dice, its raised side only presses them), a large s a sudden stop at
    the top (the raised side's dice fly on, the lowered side's are pressed down). ``fall`` is the
    time the hand takes to turn the plate back (0: ``ramp``), smoothly. ``preset`` (degrees, with a
    pivot) is where the hands turn the plate first, slowly, while lifting it: a jolt from a preset
    steeper than ``angle`` raises the lowered side and stops it short, so that dice there fly on,
    away from the line, while the dice across the line are pressed down; a negative preset first
    turns the plate the other way, for a longer swing.
    """

    direction: float
    angle: float = 15.0
    ramp: float = 0.3
    hold: float = 0.5
    shake: float = 0.0
    frequency: float = 10.0
    press: float = 0.0
    pivot: tuple[float, float, float] | None = None
    accelerate: float = 0.0
    fall: float = 0.0
    lift_time: float = 0.2
    preset: float = 0.0

    @classmethod
    def jolt(
        cls,
        direction: float,
        angle: float,
        pivot: tuple[float, float, float],
        preset: float,
        ramp: float,
        shake: float = 0.0,
    ) -> Tilt:
        """Two hands jolt the plate about the line through ``pivot`` from ``angle + preset`` degrees, stopped short.

        The quick stroke of the tilting games' hands (and the Tilt environments' action): held 0.3 s, turned
        at a constant angular acceleration for 0.9 of ``ramp`` and stopped in the rest, turned back in 0.4 s.
        """
        return cls(
            direction,
            angle,
            ramp=ramp,
            hold=0.3,
            shake=shake,
            accelerate=0.9,
            fall=0.4,
            pivot=pivot,
            preset=angle + preset,
            lift_time=0.45,
        )

    def __str__(self) -> str:
        extra = f", shaking {r(1000 * self.shake)} mm at {r(self.frequency)} Hz" if self.shake else ""
        extra += f", pressing {r(self.press)} N on the top" if self.press else ""
        if self.pivot is not None:
            x, y, z = (100 * c for c in self.pivot)
            extra += f", about a line through ({x:.1f}, {y:.1f}, {z:.1f}) cm"
        if self.preset:
            extra += f", from {r(self.preset)} deg"
        if self.accelerate:
            extra += f", {'jerked off' if self.accelerate < 0.5 else 'stopped short'} in a {r(self.ramp)} s turn"
        return f"tilt {r(self.angle)} deg towards {r(self.direction)} deg for {r(self.hold)} s{extra}"


@dataclass(frozen=True)
class Shake:
    """Shake the level plate to and fro along ``azimuth`` (degrees) by ``amplitude`` m at ``frequency`` Hz.

    ``vertical`` m adds an up-and-down shake (the plate only ever rises off the table). The shake
    fades in and out over a quarter of ``duration``.
    """

    amplitude: float = 0.003
    frequency: float = 8.0
    duration: float = 0.5
    azimuth: float = 0.0
    vertical: float = 0.0

    def __str__(self) -> str:
        return f"shake {r(1000 * self.amplitude)} mm at {r(self.frequency)} Hz for {r(self.duration)} s"


def plate_pose_at(action: Tilt | Shake, t: float, edge: float) -> np.ndarray:
    """The plate's pose (7,) ``t`` seconds into a tilt or shake."""
    return track(action, edge).frame(t)[0].copy()


@functools.lru_cache(maxsize=8)
def track(action: Tilt | Shake, edge: float) -> PlateTrack:
    """The plate's track through ``action``: one per action (and edge), the last few kept."""
    return PlateTrack(action, edge)


class PlateTrack:
    """Where the plate is moment by moment during one tilt or shake, each moment reckoned once.

    A plate action's poses are asked for again and again: by ``check_hand`` and ``carrying_steps`` at every
    step before it runs, then by each step for its sub-steps (``parts``) and its motion (``motion``). The same
    moment gives the same pose, so each one's pose (7,), turn (3, 3) and slab corners in the world (6, 3) are
    kept, read only, by time (a 30-degree stroke of 2 s: 400 steps).
    """

    def __init__(self, action: Tilt | Shake, edge: float) -> None:
        self.action, self.edge = action, edge
        self._frames: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        # Reckoned ahead (``prefetch_steps``, ``prefetch_motion``): by moment and step, the step's parts and motion.
        self._parts: dict[tuple[float, float], int] = {}
        self._motions: dict[tuple[float, float], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._by_frequency = STEPS_PER_PERIOD * shake_frequency(action)
        # What every moment of a tilt shares: its lift, the way down and the line's point (``_compute_pose``).
        self._lift, self._pivot = 0.0, None
        if isinstance(action, Tilt):
            self._lift, self._downhill = tilt_lift(action, edge), hands.unit(action.direction)
            if action.pivot is not None:
                self._pivot = np.asarray(action.pivot, dtype=float)
        else:
            self._downhill = hands.unit(action.azimuth)

    def frame(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The plate's pose (7,), its turn (3, 3) and its slab's corners in the world (6, 3), ``t`` s in: read only."""
        frame = self._frames.get(t)
        if frame is None:
            pose = _compute_pose(self.action, t, self.edge, self._lift, self._downhill, self._pivot)
            turn = geometry.quat_to_matrix(pose[3:])[0]
            corners = hands.slab_vertices(self.edge) @ turn.T + pose[:3]
            for array in (pose, turn, corners):
                array.flags.writeable = False
            frame = self._frames[t] = (pose, turn, corners)
        return frame

    def prefetch(self, times: list[float]) -> None:
        """Reckon the moments ``times`` (seconds in) not yet reckoned, all at once: each as ``frame`` would, bit for
        bit, in a fraction of the time (a stroke's 400 steps, or a shaken step's sub-steps)."""
        frames = self._frames
        new = [t for t in dict.fromkeys(times) if t not in frames]
        if len(new) < PREFETCH_LEAST:
            return
        frames.update(zip(new, zip(*self.reckon(new), strict=True), strict=True))

    def reckon(self, times: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The plate's poses (n, 7), turns (n, 3, 3) and slab corners (n, 6, 3) at ``times`` (n moments, in order),
        all at once, each as ``frame`` would give it (bit for bit; a zero's sign in a turn aside), kept nowhere: read
        only."""
        poses = _compute_poses(self.action, np.array(times), self.edge, self._lift, self._downhill, self._pivot)
        turns = geometry.quat_to_matrix(poses[:, 3:])
        corners = hands.slab_vertices(self.edge) @ turns.transpose(0, 2, 1) + poses[:, None, :3]
        for array in (poses, turns, corners):
            array.flags.writeable = False
        return poses, turns, corners

    def prefetch_motion(self, times: list[float], h: float) -> None:
        """Reckon the plate's ``motion`` from each of ``times`` over the next ``h`` s, and the moments it needs, all at
        once: bit for bit as ``motion`` would, moment by moment."""
        motions = self._motions
        new = [t for t in dict.fromkeys(times) if (t, h) not in motions]
        if len(new) < PREFETCH_LEAST:
            return
        ends = [t + h for t in new]
        self.prefetch(new + ends)
        now, then = [self.frame(t) for t in new], [self.frame(t) for t in ends]
        before, after = np.array([f[0] for f in now]), np.array([f[0] for f in then])
        before.flags.writeable = False
        turns, next_turns = np.array([f[1] for f in now]), np.array([f[1] for f in then])
        linear, angular = _pose_velocities(before, after, h, turns, next_turns)
        motions.update(zip(((t, h) for t in new), zip(before, linear, angular, strict=True), strict=True))

    def prefetch_steps(self, steps: int, dt: float) -> None:
        """Reckon, all at once, what the world asks of the plate at each of ``steps`` time steps of ``dt`` s (a step
        split in parts asks for more: ``prefetch_motion``): its moments, its ``parts`` and its ``motion``."""
        starts = [n * dt for n in range(steps)]
        ends = [t + dt for t in starts]
        if steps < PREFETCH_LEAST:
            self.prefetch(starts + ends)
            return
        # Every moment at once, in arrays (each as ``frame`` has it), kept for the steps to look up too.
        poses, turns, corners = self.reckon(starts + ends)
        self._frames.update(zip(starts + ends, zip(poses, turns, corners, strict=True), strict=True))
        gaps = corners[steps:] - corners[:steps]
        parts = self._splits(np.sqrt(np.add.reduce(gaps * gaps, axis=2)).max(axis=1), dt)
        split = parts.tolist()
        self._parts.update(zip(((t, dt) for t in starts), split, strict=True))
        # The motion of each step not split (``prefetch_motion``), from the same arrays.
        whole = np.flatnonzero(parts == 1)
        before, after = poses[whole], poses[whole + steps]
        before.flags.writeable = False
        linear, angular = _pose_velocities(before, after, dt, turns[whole], turns[whole + steps])
        keys = ((starts[n], dt) for n in whole.tolist())
        self._motions.update(zip(keys, zip(before, linear, angular, strict=True), strict=True))

    def motion(self, t: float, h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The plate's pose (7,) ``t`` s in, and its velocity (3,) and turning (3,) over the next ``h`` s
        (``hands.pose_velocity``): read only."""
        known = self._motions.get((t, h))
        if known is not None:
            return known
        now, turn, _ = self.frame(t)
        then, next_turn, _ = self.frame(t + h)
        return (now, *hands.pose_velocity(now, then, h, (turn, next_turn)))

    def parts(self, t: float, dt: float) -> int:
        """Into how many sub-steps the world splits the time step from ``t`` (``parts_needed``)."""
        known = self._parts.get((t, dt))
        if known is not None:
            return known
        a, b = self.frame(t)[2], self.frame(t + dt)[2]
        return self._split(float(geometry.lengths(b - a).max()), dt)

    def _split(self, farthest: float, dt: float) -> int:
        """Into how many sub-steps a time step of ``dt`` s splits in which a corner of the plate goes ``farthest`` m."""
        return int(self._splits(np.array([farthest]), dt)[0])

    def _splits(self, farthest: np.ndarray, dt: float) -> np.ndarray:
        """``_split`` of each of many steps (int (n,)), in whose steps a corner goes ``farthest`` (n,) m."""
        by_frequency = math.ceil(self._by_frequency * dt - 1e-9)
        return np.maximum(np.ceil(farthest / (PLATE_STEP * self.edge) - 1e-9), max(1, by_frequency)).astype(int)


def _compute_pose(
    action: Tilt | Shake, t: float, edge: float, lift: float, downhill: np.ndarray, pivot: np.ndarray | None
) -> np.ndarray:
    """The plate's pose (7,) ``t`` s into ``action``, given what its moments share (``PlateTrack``): the tilt's
    ``lift`` (``tilt_lift``), ``downhill`` (``hands.unit`` of its direction, or of a shake's azimuth) and its
    ``pivot`` (3,) as an array (None without one)."""
    if isinstance(action, Tilt):
        a = action
        angle, up, held = _tilt_state(a, t, edge, downhill, lift, pivot)
        # The shake runs while the angle is held, faded in and out over a quarter period.
        quarter = 4 * a.frequency
        fade = min(hands.smooth_step(held * quarter), hands.smooth_step((a.hold - held) * quarter))
        offset = a.shake * fade * math.sin(2 * math.pi * a.frequency * held) * downhill
        if pivot is None:
            return hands.tilted_plate_pose(downhill, angle, edge, offset=offset)
        return hands.turned_plate_pose(downhill, angle, pivot, lift=up, offset=offset)
    quarter = action.duration / 4
    fade = min(hands.smooth_step(t / quarter), hands.smooth_step((action.duration - t) / quarter)) if quarter else 0.0
    phase = 2 * math.pi * action.frequency * t
    offset = fade * action.amplitude * math.sin(phase) * downhill
    offset[2] = fade * action.vertical * (1 - math.cos(phase)) / 2
    return np.concatenate([offset, HOME[3:]])


def _tilt_state(
    a: Tilt, t: float, edge: float, downhill: np.ndarray, lift: float, pivot: np.ndarray | None
) -> tuple[float, float, float]:
    """Angle (radians), lift (metres) and time since the angle was reached (s), ``t`` seconds into a tilt down
    ``downhill`` (``hands.unit`` of its direction) about ``pivot`` whose hands lift it ``lift`` (``tilt_lift``).

    The phases: lift and turn to ``preset`` (``lift_time``, only with a lift or a preset), the turn
    to ``angle`` (``ramp``), the hold, the turn back to level (``fall``), setting down (``lift_time``).
    """
    lifting = _lifting(a, lift)
    total = 2 * lifting + a.ramp + a.hold + (a.fall or a.ramp)  # tilt_duration
    fall = a.fall or a.ramp
    preset, target = math.radians(a.preset), math.radians(a.angle)
    t_turn = t - lifting
    if t_turn < 0:
        angle = preset * hands.smooth_step(t / lifting)
    elif t_turn < a.ramp:
        angle = preset + (target - preset) * hands.rise_profile(t_turn / a.ramp, a.accelerate)
    else:
        back = total - lifting - t
        angle = target * (hands.smooth_step(back / fall) if fall > 0 else float(back >= 0))
    up = 0.0
    if pivot is not None and lifting:
        up = lift * min(hands.smooth_step(t / lifting), hands.smooth_step((total - t) / lifting))
        # While the preset is turned in, the hands lift at least what the angle of the moment needs.
        lowest = hands.lowest_point(downhill, angle, pivot, edge)
        up = max(up, -lowest)
    return angle, up, t_turn - a.ramp


def _lifting(a: Tilt, lift: float) -> float:
    return a.lift_time if lift > 0 or a.preset else 0.0


@functools.cache  # a tilt's lift is fixed for the whole tilt; its pose is asked for twice a step
def tilt_lift(a: Tilt, edge: float) -> float:
    """How high (metres) the hands lift the plate for a tilt about ``a.pivot``: none of it may go below the table."""
    if a.pivot is None:
        return 0.0
    pivot = np.asarray(a.pivot, dtype=float)
    down = hands.unit(a.direction)
    lowest = min(hands.lowest_point(down, math.radians(x), pivot, edge) for x in (a.angle, a.preset))
    return max(0.0, -lowest) + (0.001 if lowest < -1e-6 else 0.0)


def tilt_duration(a: Tilt, edge: float) -> float:
    """Seconds a tilt takes, from the first lift to the plate lying on the table again."""
    return 2 * _lifting(a, tilt_lift(a, edge)) + a.ramp + a.hold + (a.fall or a.ramp)


HAND_SPEED = 4.0  # m/s: fastest any point of a hand-held plate moves (a quick flick of the wrist)
HAND_ACCELERATION = 500.0  # m/s^2: hardest the plate starts or stops (about 50 g: a jolt stopped short)
PREFETCH_LEAST = 4  # moments: fewer are reckoned one by one (``PlateTrack.prefetch``), as cheaply
STEPS_PER_PERIOD = 10  # a shake is followed with at least this many steps per period, not sampled
PLATE_STEP = 0.25  # edges: farthest any point of the plate moves in one (sub-)step
MOST_PARTS = 64  # most sub-steps a time step is split into for the plate


def shake_frequency(action: Tilt | Shake) -> float:
    """The frequency (Hz) the hand shakes at during ``action``; 0 for a tilt without a shake."""
    if isinstance(action, Shake):
        return action.frequency
    return action.frequency if action.shake > 0 else 0.0


def duration(action: Tilt | Shake, edge: float) -> float:
    """Seconds ``action`` keeps the plate moving."""
    return tilt_duration(action, edge) if isinstance(action, Tilt) else action.duration


def parts_needed(action: Tilt | Shake, t: float, dt: float, edge: float) -> int:
    """Into how many sub-steps the world splits the time step from ``t``: the plate is followed, never teleported.

    Enough that a shake gets ``STEPS_PER_PERIOD`` steps a period and no point of the plate moves
    more than ``PLATE_STEP`` edges in one: a die the plate meets is met, not jumped into.
    """
    return track(action, edge).parts(t, dt)


def peak_motion(action: Tilt | Shake, edge: float, dt: float) -> tuple[float, float]:
    """Fastest speed (m/s) and hardest acceleration (m/s^2) of any corner of the plate during ``action``.

    Sampled at the time step ``dt``, or finer for a fast shake (``STEPS_PER_PERIOD`` a period),
    from the plate lying on the table and back to it.
    """
    f = shake_frequency(action)
    h = min(dt, 1 / (STEPS_PER_PERIOD * f)) if f > 0 else dt
    _, velocity, hardest = _corner_track(action, edge, h, max(1, round(duration(action, edge) / h)))
    return float(np.linalg.norm(velocity, axis=2).max()), float(hardest.max())


@functools.lru_cache(maxsize=4)  # ``check_hand`` and ``carrying_steps`` sample a tilt alike: once for both
def _corner_track(action: Tilt | Shake, edge: float, h: float, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The plate's turn (n + 1, 3, 3) at each sample k * h, k = 0 .. ``n``; its corners' velocities between samples,
    (n + 2, 6, 3), from the plate lying on the table and back to it (a motion that starts or ends elsewhere
    jumps); and the hardest corner's acceleration at each sample (n + 1,). Shared: read only."""
    home = hands.slab_vertices(edge) + HOME[:3]
    _, turns, corners = track(action, edge).reckon([k * h for k in range(n + 1)])
    points = np.concatenate([home[None], corners, home[None]])
    velocity = np.diff(points, axis=0) / h
    hardest = np.linalg.norm(np.diff(velocity, axis=0) / h, axis=2).max(axis=1)
    for array in (velocity, hardest):
        array.flags.writeable = False
    return turns, velocity, hardest


def check_hand(action: Tilt | Shake, edge: float, dt: float) -> float:
    """ValueError, naming the limit, unless a hand can move the plate so and the world can follow it.

    Returns the hardest acceleration (m/s^2) of any corner of the plate (``peak_motion``).
    """
    f = shake_frequency(action)
    if f * dt * STEPS_PER_PERIOD > MOST_PARTS:
        raise ValueError(
            f"a shake at {f:g} Hz would need more than {MOST_PARTS} sub-steps per time step of {dt:g} s "
            f"({STEPS_PER_PERIOD} a period): at most {MOST_PARTS / (STEPS_PER_PERIOD * dt):g} Hz"
        )
    speed, acceleration = peak_motion(action, edge, dt)
    if speed > HAND_SPEED:
        raise ValueError(
            f"{action} moves the plate at up to {speed:.2f} m/s; a hand moves it at most {HAND_SPEED:g} m/s "
            "(make it slower: a longer ramp or fall, a smaller angle, shake or frequency)"
        )
    if acceleration > HAND_ACCELERATION:
        raise ValueError(
            f"{action} jolts the plate at up to {acceleration:.0f} m/s^2; a hand manages at most "
            f"{HAND_ACCELERATION:g} m/s^2 (make it smoother: a longer ramp, a smaller shake or frequency)"
        )
    return acceleration


# How hard and how steep a hand may move the plate and still carry the held dice seated on it (local physics,
# ``World.move_plate``); beyond either, every die is simulated while it moves. A seated die's supports hold
# it against about 1 g sideways, or a lean of 45 to 65 degrees (``riding.slips``); beyond, dice hop or slide,
# and a die that rode the plate frozen until its supports gave way hops and slides more than in whole physics
# (one run each: the 2.6 g jiggle of scenes/tilt.toml, nudged starts 0 to 16, 4.2 base dice fell off against
# 1.5; a 20-die pyramid tilted 60 degrees towards 180, 15 dice moved against 9).
CARRY_ACCELERATION = 9.81  # m/s^2, at any corner of the plate
CARRY_TILT = 30.0  # degrees
# Seconds: a step this close to one that moves the plate harder carries nothing (``carrying_steps``).
CARRY_AHEAD = 0.1


def carries(action: Tilt | Shake, acceleration: float) -> bool:
    """Whether ``action``, whose plate accelerates at most ``acceleration`` m/s^2, carries the dice seated on it."""
    steepest = max(action.angle, abs(action.preset)) if isinstance(action, Tilt) else 0.0
    return acceleration <= CARRY_ACCELERATION and steepest <= CARRY_TILT


def carrying_steps(action: Tilt | Shake, edge: float, dt: float) -> np.ndarray:
    """For each time step of ``action`` (bool (n,), n its duration in steps of ``dt``): whether the plate may carry
    the dice seated on it then.

    A step carries when, from ``CARRY_AHEAD`` seconds before it to as long after, no corner of the plate
    accelerates harder than ``CARRY_ACCELERATION`` and the plate tilts no more than ``CARRY_TILT``, and
    no step before it is too hard: after a stroke's stop the dice at rest against the plate ride it again,
    but before it nothing rides. A die that rode the plate frozen and was let go into the jolt hops more
    than in whole physics even when let go 0.1 s ahead: the jiggled tilt of ``scenes/tilt.toml``, nudged
    starts 10 to 25, threw 2.62 base dice out of their funnels, whole physics 1.38, every die simulated
    until the jiggle ended 1.19. A motion gentle throughout carries at every step (``carries``). Sampled
    as ``peak_motion`` samples, from the plate lying on the table and back to it.
    """
    steps = max(1, round(duration(action, edge) / dt))
    f = shake_frequency(action)
    parts = max(1, math.ceil(STEPS_PER_PERIOD * f * dt - 1e-9)) if f > 0 else 1
    turns, _, hardest = _corner_track(action, edge, dt / parts, steps * parts)
    tilt = np.degrees(np.arccos(np.clip(turns[:, 2, 2], -1.0, 1.0)))
    gentle = (hardest <= CARRY_ACCELERATION) & (tilt <= CARRY_TILT)
    ahead = round(CARRY_AHEAD / dt)
    # Step n carries if no sample from (n - ahead) parts to (n + 1 + ahead) parts is hard: hard samples counted.
    hard = np.concatenate([[0], np.cumsum(~gentle)])
    n = np.arange(steps)
    lo, hi = np.maximum(0, (n - ahead) * parts), np.minimum(len(gentle), (n + 1 + ahead) * parts + 1)
    out = hard[np.maximum(hi, lo)] - hard[lo] == 0
    if not out.all():
        out[: int(np.argmin(out))] = False
    return out


# --- many moments at once -----------------------------------------------------------------------
# The same poses as ``_compute_pose``, bit for bit, for an array of moments: each elementwise product, sum and
# quotient is the one Python's floats make (IEEE's, alike), the sines and cosines are Python's (``math``), the
# choices of ``min`` and ``max`` are made as Python makes them, and the products of matrices are numpy's on each
# moment's matrix (a stack of them is the same calls).


def _first_max(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """``max(a, b)`` of Python, elementwise: ``a`` unless ``b`` is greater."""
    return np.where(np.greater(b, a), b, a)


def _first_min(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """``min(a, b)`` of Python, elementwise: ``a`` unless ``b`` is less."""
    return np.where(np.less(b, a), b, a)


def _smooth_steps(x: np.ndarray) -> np.ndarray:
    """``hands.smooth_step`` of each of ``x``."""
    t = _first_min(_first_max(x, 0.0), 1.0)
    return t * t * (3 - 2 * t)


def _rise_profiles(u: np.ndarray, accelerate: float) -> np.ndarray:
    """``hands.rise_profile`` of each of ``u``."""
    u = _first_min(_first_max(u, 0.0), 1.0)
    if accelerate <= 0:
        return _smooth_steps(u)
    return np.where(u < accelerate, u * u / accelerate, 1 - (1 - u) ** 2 / (1 - accelerate))


def _line_rotations(downhill: np.ndarray, angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``hands.line_rotation`` of each of ``angles`` (n,): quaternions (n, 4) and matrices (n, 3, 3)."""
    dx, dy = hands.line_direction(float(downhill[0]), float(downhill[1]))
    axis = hands.line_axis(dx, dy)
    halves = (angles / 2).tolist()
    sine = np.array([math.sin(a) for a in halves])
    quats = np.empty((len(angles), 4))
    for k in range(3):
        quats[:, k] = axis[k] * sine
    quats[:, 3] = [math.cos(a) for a in halves]
    return quats, geometry.quat_to_matrix(quats)


def _turned_poses(
    downhill: np.ndarray, angles: np.ndarray, pivot: np.ndarray, lift: np.ndarray, offset: np.ndarray
) -> np.ndarray:
    """``hands.turned_plate_pose`` at each of ``angles`` (n,), ``lift`` (n,) and ``offset`` (n, 3): poses (n, 7)."""
    quats, rotations = _line_rotations(downhill, angles)
    turned = rotations @ pivot
    out = np.empty((len(angles), 7))
    out[:, :3] = pivot - turned
    out[:, :2] += 0.0
    out[:, 2] += lift
    out[:, :3] += offset
    out[:, 3:] = quats
    return out


def _lowest_points(downhill: np.ndarray, angles: np.ndarray, pivot: np.ndarray, edge: float) -> np.ndarray:
    """``hands.lowest_point`` at each of ``angles`` (n,)."""
    _, rotations = _line_rotations(downhill, angles)
    heights = ((hands.slab_vertices(edge) - pivot) @ rotations.transpose(0, 2, 1))[:, :, 2] + pivot[2]
    return heights.min(axis=1)


def _compute_poses(
    action: Tilt | Shake, times: np.ndarray, edge: float, lift: float, downhill: np.ndarray, pivot: np.ndarray | None
) -> np.ndarray:
    """``_compute_pose`` at each of ``times`` (n,): poses (n, 7)."""
    if isinstance(action, Shake):
        quarter = action.duration / 4
        if quarter:
            fade = _first_min(_smooth_steps(times / quarter), _smooth_steps((action.duration - times) / quarter))
        else:
            fade = np.zeros(len(times))
        phases = (2 * math.pi * action.frequency * times).tolist()
        along = fade * action.amplitude * np.array([math.sin(p) for p in phases])
        out = np.empty((len(times), 7))
        out[:, :3] = along[:, None] * downhill
        out[:, 2] = fade * action.vertical * (1 - np.array([math.cos(p) for p in phases])) / 2
        out[:, 3:] = HOME[3:]
        return out
    a = action
    angles, up, held = _tilt_states(a, times, edge, downhill, lift, pivot)
    quarter = 4 * a.frequency
    fade = _first_min(_smooth_steps(held * quarter), _smooth_steps((a.hold - held) * quarter))
    phases = (2 * math.pi * a.frequency * held).tolist()
    offset = (a.shake * fade * np.array([math.sin(p) for p in phases]))[:, None] * downhill
    if pivot is None:
        line, point = hands.tilt_line(downhill, edge)
        return _turned_poses(line, angles, point, np.zeros(len(times)), offset)
    return _turned_poses(downhill, angles, pivot, up, offset)


def _tilt_states(
    a: Tilt, t: np.ndarray, edge: float, downhill: np.ndarray, lift: float, pivot: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_tilt_state`` at each of the moments ``t`` (n,): angles, lifts and times since the angle was reached."""
    lifting = _lifting(a, lift)
    total = 2 * lifting + a.ramp + a.hold + (a.fall or a.ramp)
    fall = a.fall or a.ramp
    preset, target = math.radians(a.preset), math.radians(a.angle)
    t_turn = t - lifting
    angle = np.empty(len(t))
    rising = t_turn < 0
    if rising.any():
        angle[rising] = preset * _smooth_steps(t[rising] / lifting)
    turning = ~rising & (t_turn < a.ramp)
    if turning.any():
        angle[turning] = preset + (target - preset) * _rise_profiles(t_turn[turning] / a.ramp, a.accelerate)
    after = ~rising & ~turning
    if after.any():
        back = total - lifting - t[after]
        angle[after] = target * (_smooth_steps(back / fall) if fall > 0 else (back >= 0).astype(float))
    up = np.zeros(len(t))
    if pivot is not None and lifting:
        up = lift * _first_min(_smooth_steps(t / lifting), _smooth_steps((total - t) / lifting))
        up = _first_max(up, -_lowest_points(downhill, angle, pivot, edge))
    return angle, up, t_turn - a.ramp


def _pose_velocities(
    before: np.ndarray, after: np.ndarray, h: float, turns: np.ndarray, next_turns: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``hands.pose_velocity`` from each of the poses ``before`` (n, 7) to each of ``after`` over ``h`` s, their turns
    (n, 3, 3) given: velocities (n, 3) and turnings (n, 3), read only. A rotation vector's length is numpy's norm
    (a product of matrices on each row gives its bits), the angle Python's ``atan2``."""
    linear = (after[:, :3] - before[:, :3]) / h
    d = next_turns @ turns.transpose(0, 2, 1)
    w = np.stack([(d[:, 2, 1] - d[:, 1, 2]) / 2, (d[:, 0, 2] - d[:, 2, 0]) / 2, (d[:, 1, 0] - d[:, 0, 1]) / 2], axis=1)
    s = np.sqrt((w[:, None, :] @ w[:, :, None])[:, 0, 0])
    cosines = ((d[:, 0, 0] + d[:, 1, 1] + d[:, 2, 2] - 1) / 2).tolist()
    angles = np.array([math.atan2(a, b) for a, b in zip(s.tolist(), cosines, strict=True)])
    turning = s > 1e-12
    angular = np.zeros(w.shape)
    angular[turning] = w[turning] / s[turning, None] * angles[turning, None] / h
    for array in (linear, angular):
        array.flags.writeable = False
    return linear, angular
