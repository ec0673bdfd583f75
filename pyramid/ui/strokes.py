"""What a drag does in a skill game: a two-handed stroke of the plate about a line the person draws, and a
flick aimed along the drag; each as the action it becomes and the aim and strength shown while dragging.

Pure geometry (no pyglet, no world): ``pyramid.ui.hands`` feeds it the points under the mouse.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from pyramid.agents.plate_hands import UNJAM
from pyramid.dice import DieId
from pyramid.physics import plate_motion
from pyramid.physics.actions import Flick, Shake, Tilt
from pyramid.physics.hands import unit

# The stroke is the tilting games' programmed one (``pyramid.agents.plate_hands.TiltHand``): the plate is
# held at HELD degrees after a turn through SWEEP degrees, stopped short.
HELD = 15.0  # degrees the plate slopes while held after the stroke
SWEEP = 20.0  # degrees the stroke turns the plate through
STROKE_HOLD, STROKE_FALL, STROKE_LIFT = 0.3, 0.4, 0.45  # seconds: held, turned back, lifted and set down
# A die REFERENCE m from the line hops off at the speed the mouse crossed the plate: a quick stroke of
# 0.5 to 0.8 m/s (about 1000 to 2000 pixels a second over a plate 20 cm across) hops a die one funnel.
REFERENCE = 0.05
SLOWEST, FASTEST = 2.0, 17.0  # rad/s: the turn's peak angular speed (FASTEST: a 0.04 s turn, the quickest hand)
SPEED_SPAN = 0.15  # seconds: the drag's speed is read over its last SPEED_SPAN s
# Measured by the programmed hand (15 degrees held, a 20-degree stroke): a die launched slower than
# STAYS m/s stays in its funnel, up to ONE FUNNEL m/s it hops one funnel, faster it may hop two or off.
STAYS, ONE_FUNNEL = 0.5, 0.9
FLICK_PER_PIXEL = 4e-5  # N s of flick per pixel dragged
FLICK_LEAST, FLICK_MOST = 0.0005, 0.012  # N s: a touch, a hard flick (a 4.8 g die leaves at 2.5 m/s)
# S: a hard shake, 3.5 mm at 22 Hz (6.8 g): on Faraday's start it threw 19 of 24 seated dice out of
# their funnels and none off the plate (8 azimuths), where 3 mm at 14 or 20 Hz (2.4 g, 4.8 g) moved
# none of 18 and 12: a die leaves its funnel only when the plate moves far enough under it, 3.5 to 4 mm.
# shift-S a gentle one, 1.5 mm at 8 Hz (0.39 g), that seats some dice left leaning without waking the pyramid:
# it stays under 1 g, so the plate carries the dice seated on it (local physics) and the window keeps its pace.
HARD_SHAKE = Shake(amplitude=0.0035, frequency=22.0, duration=0.6)
GENTLE_SHAKE = Shake(amplitude=0.0015, frequency=8.0, duration=0.3)
# J: a firm shake, 3 mm at 14 Hz (2.4 g), the tilt hand's unjamming shake: it frees a die wedged turned in its
# funnel, which neither S (it throws the seated dice out too) nor shift-S frees, and seats leaning dice. Measured
# on Coulomb's tables with dice left leaning (seeds 100 to 109, 93 tables): it seated 95 of 106 leaning dice
# where shift-S seated 27, moved none of the 266 seated ones, and moved 1 die of the full pyramid in 4 shakes.
FIRM_SHAKE = UNJAM
FLICK_ELEVATION = 20.0  # degrees: a finger flicks from a little below the die's middle, lifting it over a rim


def drag_speed(samples: list[tuple[float, np.ndarray]]) -> float:
    """Speed (m/s) of the mouse's point over the plate in the last ``SPEED_SPAN`` s of ``samples`` (time, (3,))."""
    if len(samples) < 2:
        return 0.0
    end_time, end = samples[-1]
    start_time, start = next(((t, p) for t, p in samples if end_time - t <= SPEED_SPAN), samples[-2])
    if end_time - start_time < 1e-3:
        start_time, start = samples[0]
    span = end_time - start_time
    return float(np.linalg.norm(end[:2] - start[:2])) / span if span > 1e-3 else 0.0


@dataclass(frozen=True)
class Stroke:
    """A stroke drawn from ``start`` to ``end`` (points (3,) on the drawing plane) at ``speed`` m/s.

    The dice hop along the drag. A push (``pull`` False) turns about the line through ``start``
    square to the drag: the dice beyond it (on the drag's side) hop on, away from the line; a pull
    turns about the line through ``end``: the dice before it hop towards it. The dice across the line
    are pressed into their funnels; the farther a die lies from the line, the faster it hops.
    """

    start: np.ndarray
    end: np.ndarray
    speed: float
    pull: bool = False

    @property
    def azimuth(self) -> float:
        """The way the dice hop (degrees)."""
        d = self.end - self.start
        return math.degrees(math.atan2(float(d[1]), float(d[0])))

    @property
    def line_point(self) -> np.ndarray:
        """A point (3,) of the line the plate turns about."""
        return self.end if self.pull else self.start

    @property
    def turn_speed(self) -> float:
        """The turn's peak angular speed (rad/s): the mouse's speed over ``REFERENCE``, within the hand's range."""
        return float(np.clip(self.speed / REFERENCE, SLOWEST, FASTEST))

    @property
    def strength(self) -> float:
        """The turn's speed as a share of the range a hand has, 0 to 1 (the bar drawn while dragging)."""
        return (self.turn_speed - SLOWEST) / (FASTEST - SLOWEST)

    def tilt(self, turn_speed: float | None = None) -> Tilt:
        """The ``Tilt`` the stroke makes (at ``turn_speed`` rad/s instead of its own, when given)."""
        w = self.turn_speed if turn_speed is None else turn_speed
        # Constant angular acceleration for 9/10 of the turn and a stop in the rest: peak speed 2 sweep / ramp.
        ramp = 2 * math.radians(SWEEP) / w
        pivot = tuple(round(float(c), 5) for c in self.line_point)
        return Tilt(
            self.azimuth,
            HELD,
            ramp=round(ramp, 4),
            hold=STROKE_HOLD,
            accelerate=0.9,
            fall=STROKE_FALL,
            pivot=pivot,  # type: ignore[arg-type]
            preset=HELD - SWEEP if self.pull else HELD + SWEEP,
            lift_time=STROKE_LIFT,
        )

    def doable_tilt(self, edge: float, dt: float) -> Tilt:
        """The stroke's ``Tilt``, slowed by steps of 10 % until a hand can make it (``plate_motion.check_hand``)."""
        w = self.turn_speed
        while True:
            tilt = self.tilt(w)
            try:
                plate_motion.check_hand(tilt, edge, dt)
            except ValueError:
                if w <= SLOWEST:
                    raise
                w = max(SLOWEST, 0.9 * w)
                continue
            return tilt

    def hops(self, points: Mapping[DieId, np.ndarray], turn_speed: float | None = None) -> dict[DieId, float]:
        """The speed (m/s) each die of ``points`` (die -> (3,)) is launched at; the dice pressed down are left out."""
        w = self.turn_speed if turn_speed is None else turn_speed
        d = unit(self.azimuth)[:2]
        sign = -1.0 if self.pull else 1.0
        out = {}
        for die, p in points.items():
            r = sign * float((np.asarray(p)[:2] - self.line_point[:2]) @ d)
            if r > 0:
                out[die] = w * r
        return out


def hop_word(speed: float) -> str:
    """What a die launched at ``speed`` m/s does, as the programmed hand measured it."""
    if speed < STAYS:
        return "stays"
    return "hops one funnel" if speed < ONE_FUNNEL else "may hop two or off"


def describe(stroke: Stroke, hops: Mapping[DieId, float]) -> str:
    """One line for the window while the stroke is drawn: its strength and what each die it throws does."""
    kind = "pull: the dice before the line hop towards it" if stroke.pull else "push: the dice beyond the line hop on"
    dice = ", ".join(f"die {d} {v:.2f} m/s ({hop_word(v)})" for d, v in sorted(hops.items(), key=lambda x: -x[1]))
    return f"stroke {stroke.turn_speed:.1f} rad/s, {kind}: {dice or 'no die'}"


def flick_impulse(pixels: float) -> float:
    """The impulse (N s) of a flick dragged ``pixels`` long."""
    return float(np.clip(pixels * FLICK_PER_PIXEL, FLICK_LEAST, FLICK_MOST))


def flick_strength(impulse: float) -> float:
    """A flick's impulse as a share of the hardest flick, 0 to 1."""
    return (impulse - FLICK_LEAST) / (FLICK_MOST - FLICK_LEAST)


def flick(die: DieId, start: np.ndarray, end: np.ndarray, pixels: float) -> Flick:
    """The flick of ``die`` along a drag from ``start`` to ``end`` (points (3,) on the table), ``pixels`` long."""
    d = np.asarray(end) - np.asarray(start)
    azimuth = math.degrees(math.atan2(float(d[1]), float(d[0])))
    return Flick(die, round(azimuth, 3), impulse=round(flick_impulse(pixels), 6), elevation=FLICK_ELEVATION)


def aim_points(origin: np.ndarray, azimuth: float, length: float) -> np.ndarray:
    """The aim line drawn from ``origin`` (3,) along ``azimuth``: points (2, 3)."""
    o = np.asarray(origin, dtype=float)
    return np.stack([o, o + length * unit(azimuth)])


def line_points(stroke: Stroke, half: float = 0.12) -> np.ndarray:
    """The line a stroke turns about, ``half`` m either side of its point: points (2, 3)."""
    across = unit(stroke.azimuth + 90.0)
    p = stroke.line_point
    return np.stack([p - half * across, p + half * across])
