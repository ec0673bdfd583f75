"""The plate hands: a tilt hand (Faraday, Coulomb) and Captain Flint's press-tilt-shake.

Dune's blower is in ``blow_hand``; the aiming helpers both use are in ``plate_aim``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from pyramid import geometry
from pyramid.agents.blow_hand import BlowHand as BlowHand  # re-exported: pyramid.agents lists it from here
from pyramid.agents.controller import Controller
from pyramid.agents.plate_aim import (
    AZIMUTHS,
    REACHES,
    apart,
    azimuth_to,
    base_funnel,
    funnel_steps,
    landing_steps,
    on_plate,
    outward_of,
    plus,
)
from pyramid.dice import EDGE
from pyramid.geometry import Slot
from pyramid.perception import Readout
from pyramid.physics import hands, plate_motion
from pyramid.physics.actions import PhysicalAction, Shake, Tilt, Wait
from pyramid.physics.settings import Physics
from pyramid.skillgames.plate import TimedPlateGame, funnel_point, ramp_funnels
from pyramid.skillgames.standing import CaptainFlint
from pyramid.units import GRAVITY

# When no safe stroke helps, the hand shakes the plate to and fro: 3 mm at 14 Hz (2.4 g), which moves no
# seated die out of its funnel (``Tilt``'s docstring) but frees a die wedged turned in a funnel. Measured on
# rounded dice stuck so in Faraday's last corner (seeds 5, 8 and 9, 8 azimuths each): 3 mm at 8 Hz (0.77 g)
# seated 0 of 24, vertical shakes of 0.5 to 2 mm at 12 to 30 Hz and slow tilts up to 40 degrees none either,
# 3 mm at 14 Hz 18 of 24 with the other two dice still in their corners; the window's hard shake (3.5 mm at
# 22 Hz) emptied one of those corners or both every time.
UNJAM = Shake(amplitude=0.003, frequency=14.0, duration=0.3)  # each time along a random azimuth
# Dice left leaning are seated by up to four shakes of 1.5, 2, 2.5 and 2.5 mm at 8 Hz (0.4 to 0.6 g). At 14 Hz
# (1.2 to 2 g) they seat more (of 106 leaning dice in Coulomb's shakes, seeds 100 to 109: 71 against 26, the same
# in local and whole physics), and over seeds 0 to 29 the hand solved Faraday 30 and 29 times (box, two-step
# hull; at 8 Hz 30 and 26), Coulomb 30 and 28 (28 and 27); but Coulomb's time to solve then differs between
# local and whole physics (seeds 100 to 139: 47.1 s against 49.4, 140 to 179: 48.0 against 50.6, each 95%
# interval of the difference short of 0; at 8 Hz 50.7 against 51.4), so 8 Hz stays until that is understood.
SETTLE_HZ = 8.0


@dataclass(frozen=True)
class Stroke:
    """A planned stroke: which die it sends where, about which line, how hard."""

    die: int
    azimuth: float
    family: str  # "return": the die on the lowered side, thrown away from the line; "rise": on the raised side
    reach: float  # metres from the line to the die
    risk: float  # the largest throw of another die, as a share of the chosen die's
    aims: tuple[Slot, ...]  # the funnels it should land in
    score: float
    climbing: bool = False


class TiltHand(Controller[TimedPlateGame]):
    """A feedback controller for Faraday and Coulomb: the plate held in two hands, turned about a chosen line.

    One stroke per control step, read back after. A stroke (``Tilt`` with a ``pivot``) turns the
    plate about a horizontal line square to the chosen direction ``D``, through the plate at the
    height of the dice's centres, and stops short: every die on the side of the line that was rising
    when the hands stopped flies on, normal to the plate, at ``w r`` (``w`` the turn's angular speed,
    ``r`` its distance from the line), and drifts downhill, along ``D``, while the plate is held at
    ``angle``; the dice across the line are pressed into their funnels, and a die on the line only
    turns. Measured on the plate (15 degrees held, a 15-degree stroke): a seated die thrown at 0.45
    m/s stays, at 0.6 to 0.8 m/s it hops one funnel, at 1 m/s it may hop two or off the plate, over
    a wide range of distances (3 to 12 cm) from the line. So a stroke can move one die and leave the
    others: the line goes between them, and the others are pressed or thrown at most ``risk`` times
    as fast. Two ways to stop short, both with the plate lifted just clear of the table:

    - "rise": the line lies ahead of the die (along ``D``); the plate turns by ``sweep`` degrees
      from ``angle - sweep`` to ``angle``, raising the die's side, and stops: the die hops towards
      the line. Dice beyond the line stay.
    - "return": the line lies behind the die; the hands first turn the plate slowly to ``angle +
      sweep``, lowering the die's side, then jolt it back to ``angle``: the die's side rises and
      stops, and the die hops on along ``D``, away from the line. Dice behind the line stay.

    When no safe stroke helps (the dice in each other's way, or a die wedged turned in its goal funnel),
    the hand shakes the plate to and fro (``UNJAM``: 3 mm at 14 Hz).

    The turn speeds up for 9/10 of its time and stops in the last 1/10; the hands lift and preset
    the plate in ``lift_time`` s and turn it back in ``fall`` s, gently enough that no die stirs.

    Each control step the hand reads every die's funnel from its pose, seats dice left leaning with
    shakes (four at most, ``SETTLE_HZ``), and for the die nearest its goal (``game.goals``) that some safe
    stroke helps, picks among 24 directions (every 15 degrees) one whose landing funnels bring the
    die nearer its goal and lie on the plate, and the line (a reach from 2.5 to 13 cm, a turn no
    quicker than ``quickest`` s) that throws the other dice least; a stroke that would throw another
    die faster than ``risk`` times the chosen one, or a die in an edge funnel or one not held by a
    funnel outward at more than ``edge_risk`` times, is never taken (when nothing else is left, a
    third more of each), nor one that drops a die across the line faster than ``press`` g (0.6
    ``press`` at the rim). It learns the throw speed die by die: up 8 % after a stroke that did not
    move the die (to ``strongest`` m/s), down 8 % after one that moved it past its aim or moved
    another die (to ``weakest``); a die aimed at an edge funnel is thrown ``edge_brake`` times as
    fast, so that it does not fly over the rim. A goal above the base (the top of Coulomb's small
    pyramid) is climbed onto, once its three supports are filled and the die stands in a funnel
    beside two of them (``ramp_funnels``), by a "rise" stroke straight at it with the line just in
    front of the die, at ``climb`` m/s, ``tries`` times at most (the speed grows by 6 % after each
    miss).
    """

    name = "tilt"
    plays = (TimedPlateGame,)

    def __init__(
        self,
        rng: np.random.Generator,
        speed: float = 0.62,
        angle: float = 15.0,
        sweep: float = 20.0,
        weakest: float = 0.42,
        strongest: float = 0.85,
        risk: float = 0.6,
        edge_risk: float = 0.3,
        edge_brake: float = 0.9,
        quickest: float = 0.04,
        press: float = 2.5,
        hold: float = 0.3,
        fall: float = 0.4,
        lift_time: float = 0.45,
        climb: float = 0.8,
        tries: int = 5,
    ) -> None:
        self.rng = rng
        self.start_speed = speed
        self.angle = angle
        self.sweep = sweep
        self.weakest = weakest
        self.strongest = strongest
        self.risk = risk
        self.edge_risk = edge_risk
        self.edge_brake = edge_brake
        self.quickest = quickest
        self.press = press
        self.hold = hold
        self.fall = fall
        self.lift_time = lift_time
        self.climb = climb
        self.tries = tries
        self.time_step = Physics.time_step  # the world's, which checks the hand's strokes (plate_motion.check_hand)
        self.speeds: dict[int, float] = {}
        self.climbs = 0  # failed climbs so far
        self._last: tuple[Stroke, dict[int, Slot]] | None = None
        self._settles = 0
        self._slack = 1.0  # how much more risk than set the hand accepts this control step

    # -- the stroke ---------------------------------------------------------------------------

    def stroke(self, point: np.ndarray, azimuth: float, reach: float, speed: float, family: str) -> Tilt:
        """A ``Tilt`` throwing the die at ``point`` (3,), ``reach`` m off the line, at ``speed`` m/s to ``azimuth``."""
        d = hands.unit(azimuth)
        sign = 1.0 if family == "return" else -1.0
        pivot = np.asarray(point, dtype=float) - sign * reach * d
        preset = self.angle + (self.sweep if family == "return" else -self.sweep)
        # Constant acceleration for 9/10 of the ramp, then a stop in 1/10: peak angular speed 2 sweep / ramp.
        ramp = 2 * math.radians(self.sweep) * reach / speed
        return Tilt(
            azimuth,
            self.angle,
            ramp=round(ramp, 4),
            hold=self.hold,
            accelerate=0.9,
            fall=self.fall,
            pivot=(round(float(pivot[0]), 5), round(float(pivot[1]), 5), round(float(pivot[2]), 5)),
            preset=preset,
            lift_time=self.lift_time,
        )

    @staticmethod
    def launch_distances(
        points: dict[int, np.ndarray], line: np.ndarray, azimuth: float, family: str
    ) -> dict[int, float]:
        """How far (metres) each die lies from the line on the side that flies (negative: pressed)."""
        d = hands.unit(azimuth)[:2]
        sign = 1.0 if family == "return" else -1.0
        return {die: sign * float((p[:2] - line[:2]) @ d) for die, p in points.items()}

    def _speed(self, die: int) -> float:
        return self.speeds.get(die, self.start_speed)

    def _plan(
        self,
        die: int,
        azimuth: float,
        aims: tuple[Slot, ...],
        funnels: dict[int, Slot],
        points: dict[int, np.ndarray],
        loose: set[int],
        climbing: bool = False,
    ) -> Stroke | None:
        """The safest line for a stroke of ``die`` along ``azimuth`` (either way of stopping short), or None."""
        d = hands.unit(azimuth)
        best: Stroke | None = None
        families = ("rise",) if climbing else ("rise", "return")
        for family in families:
            sign = 1.0 if family == "return" else -1.0
            for reach in REACHES:
                speed = self.climb if climbing else self._speed(die)
                if self.stroke(points[die], azimuth, reach, speed, family).ramp < self.quickest:
                    continue
                line = points[die] - sign * reach * d
                risk = 0.0
                unsafe = False
                # While the turn speeds up, the side across the line drops at (w^2 / (2 * 0.9 * sweep)) r.
                drop = (speed / reach) ** 2 / (2 * 0.9 * math.radians(self.sweep))
                for other, r in self.launch_distances(points, line, azimuth, family).items():
                    edge_die = min(funnels[other]) == 0 or other in loose
                    if other != die and -r * drop > self.press * self._slack * GRAVITY * (0.6 if edge_die else 1.0):
                        unsafe = True  # it would be left floating and land hard (by the rim: off the plate)
                        break
                    if other == die or r <= 0:
                        continue
                    ratio = r / reach
                    outward = any(not on_plate(plus(funnels[other], s)) for s in landing_steps(azimuth))
                    limit = self.edge_risk if outward or other in loose else self.risk
                    if ratio > limit * self._slack:
                        unsafe = True
                        break
                    risk = max(risk, ratio)
                if unsafe:
                    continue
                # Least risk first; among equals the farther line (a slower turn).
                score = -risk + 0.01 * reach
                if best is None or score > best.score:
                    best = Stroke(die, azimuth, family, reach, risk, aims, score, climbing)
        return best

    def _options(
        self,
        funnels: dict[int, Slot],
        goals: dict[int, Slot],
        tops: dict[int, Slot],
        wanted: dict[int, np.ndarray],
        points: dict[int, np.ndarray],
        loose: set[int],
    ) -> list[Stroke]:
        """Every safe stroke that helps a die towards its goal."""
        occupied = set(funnels.values())
        options: list[Stroke] = []
        for die, goal in goals.items():
            here = funnels[die]
            if die in loose:
                continue  # not held by a funnel: a stroke would throw it anywhere
            if die in tops:
                supports = geometry.supports(tops[die])
                if all(s in occupied for s in supports) and here in ramp_funnels(tops[die]):
                    if self.climbs >= self.tries:
                        continue  # it will not climb: stop before the strokes throw the others about
                    plan = self._plan(
                        die, azimuth_to(points[die], wanted[die]), (tops[die],), funnels, points, loose, climbing=True
                    )
                    if plan is not None:
                        options.append(plan)
                    continue
            for azimuth in AZIMUTHS:
                lands = [plus(here, s) for s in landing_steps(azimuth)]
                if not all(on_plate(x) for x in lands):
                    continue
                if any(outward_of(x, azimuth) for x in lands):
                    continue  # a hop that lands by the rim heading outward could carry on over it
                nearer = [x for x in lands if x not in occupied and apart(x, goal) < apart(here, goal)]
                if len(nearer) < len(lands):
                    continue  # every funnel it may land in must bring it nearer
                plan = self._plan(die, azimuth, tuple(nearer), funnels, points, loose)
                if plan is not None:
                    options.append(plan)
        return options

    def _learn(self, funnels: dict[int, Slot], seated: dict[int, Slot]) -> None:
        """Adjust the last die's throw speed after its stroke, from where the dice are now."""
        if self._last is None:
            return
        plan, before = self._last
        self._last = None
        die = plan.die
        others = any(funnels.get(d) != s for d, s in before.items() if d != die)
        if plan.climbing:
            if seated.get(die) not in plan.aims:
                self.climbs += 1
                self.climb = min(self.climb * 1.06, 1.3 * self.strongest)
            return
        speed = self._speed(die)
        moved = funnel_steps(before[die], funnels[die])
        if moved == 0:
            self.speeds[die] = min(speed * 1.08, self.strongest)
        elif moved > 1 or others or funnels[die] not in plan.aims:
            self.speeds[die] = max(speed * 0.92, self.weakest)

    def act(self, game: TimedPlateGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """One settling shake or one stroke towards the goals."""
        dice = [d for d in game.dice if d in readout.dice]
        loose = [d for d in dice if readout.dice[d].slot is None and readout.dice[d].on_plate]
        if loose and self._settles < 4:
            self._settles += 1
            return Shake(0.001 + 0.0005 * min(self._settles, 3), SETTLE_HZ, 0.3, float(self.rng.uniform(0, 360)))
        if not loose:
            self._settles = 0
        funnels = {d: base_funnel(readout.dice[d].position) for d in dice}
        seated = {d: s for d in dice if (s := readout.dice[d].slot) is not None}
        self._learn(funnels, seated)
        wanted_slots: dict[int, Slot] = game.goal_slots(readout)
        if not wanted_slots:
            return Wait(0.2)
        wanted = {d: funnel_point(cell) for d, cell in wanted_slots.items()}
        # A goal above the base (the top of a small pyramid) is climbed onto from next to its supports.
        goals: dict[int, Slot] = {}
        tops: dict[int, Slot] = {}
        for d, cell in wanted_slots.items():
            if geometry.layer(cell) < geometry.BASE_LAYER:
                tops[d] = cell
                cell = min(ramp_funnels(cell) or geometry.supports(cell), key=lambda s: funnel_steps(s, funnels[d]))
            goals[d] = cell
        points = {d: np.array(readout.dice[d].position) for d in dice}
        self._slack = 1.0
        options = self._options(funnels, goals, tops, wanted, points, set(loose))
        if not options and loose:
            # Leaning where four shakes left them, they rest on something: go on as if they were held.
            options = self._options(funnels, goals, tops, wanted, points, set())
        if not options:
            # Jammed (dice on the edges, in each other's way): accept a third more risk.
            self._slack = 1.35
            options = self._options(funnels, goals, tops, wanted, points, set())
        if options:
            # One die at a time: the one nearest its goal that can be helped, so the hand does not dither.
            focus = min({o.die for o in options}, key=lambda d: (funnel_steps(funnels[d], goals[d]), d))
            options = [o for o in options if o.die == focus]
        while options:
            top = max(o.score for o in options)
            best = [o for o in options if o.score >= top - 1e-9]
            plan = best[int(self.rng.integers(len(best)))]
            speed = self.climb if plan.climbing else self._speed(plan.die)
            if not plan.climbing and any(min(a) == 0 for a in plan.aims):
                speed *= self.edge_brake  # landing in an edge funnel: a hop too far goes over the rim
            tilt = self.stroke(points[plan.die], plan.azimuth, plan.reach, speed, plan.family)
            try:
                plate_motion.check_hand(tilt, EDGE, self.time_step)
            except ValueError:
                options.remove(plan)  # the line lies so far out that no hand jolts the plate so: the next best
                continue
            self._last = (plan, dict(funnels))
            return tilt
        if self.climbs >= self.tries:
            return Wait(1.0)  # the top will not climb: keep the pyramid's base as it stands
        # Nothing safe brings a die nearer: a shake may unjam the dice.
        return dataclasses.replace(UNJAM, azimuth=float(self.rng.uniform(0, 360)))


class FlintHand(Controller[CaptainFlint]):
    """Captain Flint: a finger presses the top with ``press`` N while the plate is tilted steeply and jiggled."""

    name = "flint"
    plays = (CaptainFlint,)

    def __init__(self, rng: np.random.Generator, angle: float = 50.0, press: float = 5.0, shake: float = 0.003) -> None:
        self.rng = rng
        self.angle = angle
        self.press = press
        self.shake = shake

    def act(self, game: CaptainFlint, readout: Readout, elapsed: float) -> PhysicalAction:
        """One press-tilt-shake towards a random side."""
        direction = float(self.rng.uniform(0, 360))
        return Tilt(direction, self.angle, ramp=0.6, hold=1.5, shake=self.shake, frequency=8.0, press=self.press)
