"""The plate hands: a tilt hand (Faraday, Coulomb), a blower (Dune) and Captain Flint's press-tilt-shake."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pyramid import geometry, hands
from pyramid.actions import Blow, PhysicalAction, Shake, Tilt, Wait
from pyramid.controllers.base import EDGE, Controller
from pyramid.geometry import Slot
from pyramid.perception import Readout

EXITS = tuple(math.degrees(math.atan2(float(v[1]), float(v[0]))) for v in (geometry.CUBE_TO_PLATE @ np.eye(3)).T)


# Azimuths (degrees, plate at rest) of the six steps from a funnel to its neighbours: a tilt-and-shake
# moves a seated die along these (measured: tilting towards a corner, between two steps, moves nothing).
STEPS = tuple(
    math.degrees(math.atan2(float(v[1]), float(v[0])))
    for v in (geometry.CUBE_TO_PLATE @ -np.array(geometry.NEIGHBOUR_STEPS, dtype=float).T).T
)


def nearest_exit(azimuth: float) -> float:
    """The funnel exit azimuth (degrees) closest to ``azimuth``."""
    return min(EXITS, key=lambda e: abs((e - azimuth + 180) % 360 - 180))


def nearest_step(azimuth: float) -> float:
    """The azimuth (degrees) of the step to a neighbouring funnel closest to ``azimuth``."""
    return min(STEPS, key=lambda e: abs((e - azimuth + 180) % 360 - 180))


def safe_step(azimuth: float, readout: Readout) -> float:
    """The step azimuth closest to ``azimuth`` that moves no seated base die over the plate's edge.

    A step that would take a die in an edge funnel to a coordinate below 0 would shake it off the plate.
    """
    seated = [r.slot for r in readout.dice.values() if r.slot is not None and geometry.layer(r.slot) == 8]
    order = sorted(range(len(STEPS)), key=lambda n: abs((STEPS[n] - azimuth + 180) % 360 - 180))
    for n in order:
        step = geometry.NEIGHBOUR_STEPS[n]
        if all(min(a + b for a, b in zip(s, step, strict=True)) >= 0 for s in seated):
            return STEPS[n]
    return STEPS[order[0]]


def azimuth_to(start: np.ndarray, goal: np.ndarray) -> float:
    """Azimuth (degrees) from ``start`` to ``goal`` (world points, metres)."""
    return math.degrees(math.atan2(goal[1] - start[1], goal[0] - start[0]))


BASE: tuple[Slot, ...] = geometry.layer_slots(geometry.BASE_LAYER)
BASE_XY = np.array([geometry.slot_centre(s)[:2] * EDGE for s in BASE])


def base_funnel(position: tuple[float, float, float] | np.ndarray) -> Slot:
    """The base funnel whose centre lies nearest (horizontally) to a point on the plate at rest."""
    xy = np.asarray(position, dtype=float)[:2]
    return BASE[int(np.argmin(np.linalg.norm(BASE_XY - xy, axis=1)))]


def funnel_steps(a: Slot, b: Slot) -> int:
    """Funnel-to-funnel steps between two base funnels."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def pivot_distance(point: np.ndarray, azimuth: float) -> float:
    """How far (metres) ``point`` lies uphill of the edge a plate tilted towards ``azimuth`` turns about."""
    d = hands.unit(azimuth)
    return hands.support_distance(d, EDGE) - float(np.asarray(point)[:2] @ d[:2])


class TiltHand(Controller):
    """A feedback tilt controller: one short jolt of the plate per control step, sized for one die, read back after.

    A jolt raises the plate's uphill side by ``angle`` degrees (A radians) in a ramp of T s and
    lowers it at once, the low edge staying on the table (``Tilt`` with no hold). Where the plate
    stops rising it decelerates at 6 A / T^2 rad/s^2, so a die ``d`` m uphill of the edge the plate
    turns about is thrown up at 6 d A / T^2: measured on the plate, a seated die stays below about
    2 g, hops one funnel downhill between 2 and 3.5 g and several (or off the plate) above 4 g. So
    the hand sizes T for the chosen die (T^2 = 6 d A / (k g) for a kick of k g), and every die
    nearer the low edge than it is thrown up less or not at all. Each control step the hand reads
    every die's funnel from its pose and:

    - seats dice left leaning or lying with gentle shakes first (1.5 to 2.5 mm at 8 Hz, four at
      most; a die still leaning after them rests on something and counts as held if nothing else
      can be done);
    - picks the die and the funnel-to-funnel step (one of six) that brings a die nearer its goal
      (``game.goals``), counting the other dice the jolt throws up at least ``stir`` times as hard
      as the chosen one: a die carried towards its own goal is a bonus, a die already in place
      that would be moved a penalty, and a jolt that would throw a die in a corner funnel outward
      more than ``edge_risk`` times as hard, a die in another edge funnel outward more than 0.8
      ``edge_risk`` times, a die not held by a funnel more than ``loose_risk`` times, or any die more
      than 1.4 times (it would hop several funnels), is never taken (the brake before the edge). A
      die not held by a funnel is not jolted;
      A goal above the base (the top of Coulomb's small pyramid) is climbed onto by a harder,
      steeper jolt straight at it once its three supports are filled and the die stands next to
      them, ``tries`` times at most;
    - sizes the jolt for the chosen die's kick (``kick`` g to start with; ``climb`` g, ``climb_angle``
      degrees to climb); a step that needs a ramp under ``quickest`` s (a die close to the low
      edge) is not taken;
    - learns, die by die: after a jolt that did not move the chosen die its kick grows by 10 % (up
      to ``strongest`` g), after one that moved it past the aimed funnel, or moved another die, it
      shrinks by 15 % (down to ``weakest`` g).

    It helps one die at a time, the one nearest its goal that a safe step helps, so that it does not
    dither between dice. With no safe step that helps, it shakes the plate 3 mm to unjam the dice. The game supplies
    ``goals(readout) -> {die: point}`` for the dice not yet where they belong, and ``dice``.
    """

    name = "tilt"

    def __init__(
        self,
        rng: np.random.Generator,
        kick: float = 1.5,
        angle: float = 12.0,
        climb: float = 2.0,
        climb_angle: float = 14.0,
        weakest: float = 1.2,
        strongest: float = 2.8,
        stir: float = 0.8,
        edge_risk: float = 0.9,
        loose_risk: float = 0.6,
        quickest: float = 0.04,
        tries: int = 3,
    ) -> None:
        self.rng = rng
        self.start_kick = kick
        self.angle = angle
        self.climb = climb
        self.climb_angle = climb_angle
        self.weakest = weakest
        self.strongest = strongest
        self.stir = stir
        self.edge_risk = edge_risk
        self.loose_risk = loose_risk
        self.quickest = quickest
        self.kicks: dict[int, float] = {}
        self.climbs = 0  # failed climbs so far
        self.tries = tries
        self._last: tuple[int, Slot, bool, dict[int, Slot]] | None = None
        self._settles = 0

    def _learn(self, funnels: dict[int, Slot], seated: dict[int, Slot]) -> None:
        """Adjust the last die's kick after its jolt, from where the dice are now."""
        if self._last is None:
            return
        die, aim, climbing, before = self._last
        self._last = None
        others = any(funnels.get(d) != s for d, s in before.items() if d != die)
        if climbing:
            if seated.get(die) != aim:
                self.climbs += 1
                self.climb = float(np.clip(self.climb * (0.85 if others else 1.1), self.weakest, self.strongest))
            return
        kick = self.kicks.get(die, self.start_kick)
        moved = funnel_steps(before[die], funnels[die])
        if moved == 0:
            self.kicks[die] = min(kick * 1.1, self.strongest)
        elif moved > 1 or others or funnels[die] != aim:
            self.kicks[die] = max(kick * 0.85, self.weakest)

    def jolt(self, azimuth: float, reach: float, kick: float, angle: float) -> Tilt | None:
        """A jolt towards ``azimuth`` kicking one die ``reach`` m uphill of the low edge at ``kick`` g, or None."""
        ramp = math.sqrt(6 * math.radians(angle) * max(reach, 0.0) / (kick * 9.81))
        if ramp < self.quickest:
            return None
        return Tilt(azimuth, angle, ramp=round(min(ramp, 0.3), 4), hold=0.0)

    def _score(
        self,
        die: int,
        azimuth: float,
        step: Slot | None,
        kick: float,
        angle: float,
        funnels: dict[int, Slot],
        goals: dict[int, Slot],
        points: dict[int, np.ndarray],
        loose: set[int],
    ) -> float | None:
        """How good a jolt towards ``azimuth`` for ``die`` is for the other dice; None if it is unsafe."""
        reach = pivot_distance(points[die], azimuth)
        if self.jolt(azimuth, reach, kick, angle) is None:
            return None  # too near the low edge: the jolt would have to be quicker than a hand
        score = 0.0
        for other, point in points.items():
            if other == die:
                continue
            ratio = pivot_distance(point, azimuth) / reach
            o_here = funnels[other]
            move = step or geometry.NEIGHBOUR_STEPS[STEPS.index(nearest_step(azimuth))]
            o_there = (o_here[0] + move[0], o_here[1] + move[1], o_here[2] + move[2])
            # A die in a corner funnel has two walls to climb on its way out, one along an edge.
            risk = self.edge_risk if sorted(o_here)[1] == 0 else self.edge_risk * 0.8
            if (min(o_there) < 0 and ratio > risk) or (other in loose and ratio > self.loose_risk) or ratio > 1.4:
                return None  # thrown hard towards the plate's edge, or a die not held by a funnel: it could fly off
            if ratio < self.stir:
                continue  # thrown up less than ``stir`` times as hard: it stays in its funnel
            if min(o_there) < 0:
                score -= 1.0  # an edge funnel's outer walls hold a die kicked less hard than the chosen one
                continue
            if other in goals and funnel_steps(o_there, goals[other]) < funnel_steps(o_here, goals[other]):
                score += 0.5  # carried towards its own goal too
            else:
                score -= 2.0 if other not in goals else 0.6
        return score

    def _options(
        self,
        funnels: dict[int, Slot],
        goals: dict[int, Slot],
        tops: dict[int, Slot],
        wanted: dict[int, np.ndarray],
        points: dict[int, np.ndarray],
        loose: set[int],
    ) -> list[tuple[float, int, float, Slot, bool]]:
        """Every safe jolt that helps a die: (score, die, azimuth, aimed slot, climbing)."""
        occupied = set(funnels.values())
        options: list[tuple[float, int, float, Slot, bool]] = []
        for die, goal in goals.items():
            here = funnels[die]
            if die in loose:
                continue  # not held by a funnel: a jolt would throw it anywhere
            if die in tops:
                supports = geometry.supports(tops[die])
                if all(s in occupied for s in supports) and min(funnel_steps(here, s) for s in supports) <= 1:
                    if self.climbs >= self.tries:
                        continue  # it will not climb: stop before the jolts throw the others about
                    azimuth = azimuth_to(points[die], wanted[die])
                    score = self._score(die, azimuth, None, self.climb, self.climb_angle, funnels, goals, points, loose)
                    if score is not None:
                        options.append((score + 3.0, die, azimuth, tops[die], True))
                    continue
            for n, step in enumerate(geometry.NEIGHBOUR_STEPS):
                there = (here[0] + step[0], here[1] + step[1], here[2] + step[2])
                if min(there) < 0 or there in occupied or funnel_steps(there, goal) >= funnel_steps(here, goal):
                    continue
                kick = self.kicks.get(die, self.start_kick)
                score = self._score(die, STEPS[n], step, kick, self.angle, funnels, goals, points, loose)
                if score is not None:
                    options.append((score + 1.0 + 0.1 * funnel_steps(here, goal), die, STEPS[n], there, False))
        return options

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """One settling shake or one jolt towards the goals."""
        dice = [d for d in game.dice if d in readout.dice]
        loose = [d for d in dice if readout.dice[d].slot is None and readout.dice[d].on_plate]
        if loose and self._settles < 4:
            self._settles += 1
            return Shake(0.001 + 0.0005 * min(self._settles, 3), 8.0, 0.3, float(self.rng.uniform(0, 360)))
        if not loose:
            self._settles = 0
        funnels = {d: base_funnel(readout.dice[d].position) for d in dice}
        seated = {d: s for d in dice if (s := readout.dice[d].slot) is not None}
        self._learn(funnels, seated)
        wanted: dict[int, np.ndarray] = game.goals(readout)
        if not wanted:
            return Wait(0.2)
        # A goal above the base (the top of a small pyramid) is climbed onto from next to its supports.
        goals: dict[int, Slot] = {}
        tops: dict[int, Slot] = {}
        for d, p in wanted.items():
            cell = next((s for s in geometry.SLOTS if np.allclose(geometry.slot_centre(s) * EDGE, p, atol=1e-6)), None)
            if cell is not None and geometry.layer(cell) < geometry.BASE_LAYER:
                tops[d] = cell
                cell = min(geometry.supports(cell), key=lambda s: funnel_steps(s, funnels[d]))
            goals[d] = cell if cell is not None else base_funnel(p)
        points = {d: np.array(readout.dice[d].position) for d in dice}
        options = self._options(funnels, goals, tops, wanted, points, set(loose))
        if not options and loose:
            # Leaning where four shakes left them, they rest on something: go on as if they were held.
            options = self._options(funnels, goals, tops, wanted, points, set())
        if not options:
            if self.climbs >= self.tries:
                return Wait(1.0)  # the top will not climb: keep the pyramid's base as it stands
            # Nothing safe brings a die nearer: a shake may unjam the dice.
            return Shake(0.003, 8.0, 0.3, float(self.rng.uniform(0, 360)))
        # One die at a time: the one nearest its goal that can be helped, so the hand does not dither.
        focus = min({o[1] for o in options}, key=lambda d: (funnel_steps(funnels[d], goals[d]), d))
        options = [o for o in options if o[1] == focus]
        top = max(o[0] for o in options)
        best = [o for o in options if o[0] == top]
        _, die, azimuth, aim, climbing = best[int(self.rng.integers(len(best)))]
        self._last = (die, aim, climbing, dict(funnels))
        reach = pivot_distance(points[die], azimuth)
        if climbing:
            jolt = self.jolt(azimuth, reach, self.climb, self.climb_angle)
        else:
            jolt = self.jolt(azimuth, reach, self.kicks.get(die, self.start_kick), self.angle)
        assert jolt is not None  # options hold only jolts that are not too steep
        return jolt


class FlintHand(Controller):
    """Captain Flint: a finger presses the top with ``press`` N while the plate is tilted steeply and jiggled."""

    name = "flint"

    def __init__(self, rng: np.random.Generator, angle: float = 50.0, press: float = 5.0, shake: float = 0.003) -> None:
        self.rng = rng
        self.angle = angle
        self.press = press
        self.shake = shake

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """One press-tilt-shake towards a random side."""
        direction = float(self.rng.uniform(0, 360))
        return Tilt(direction, self.angle, ramp=0.6, hold=1.5, shake=self.shake, frequency=8.0, press=self.press)


# --- breath and fingers -----------------------------------------------------------------------------


class BlowHand(Controller):
    """A feedback blower: one short puff per control step at one die, sized for one funnel, read back after.

    Each control step the mouth reads every die's funnel from its pose and picks the die nearest its
    goal (``game.goals``) that one funnel-to-funnel step brings nearer, along a step whose way is
    clear: no other die lies on the jet's line between the mouth and the chosen die (it would take
    the jet) or just in front of it (it would be pushed too). The mouth sits ``distance`` m behind the die, ``lift`` m
    above its centre, and puffs for ``duration`` s at the die's learned speed: the air speed that
    just tips a seated die out of its funnel (measured: 25 to 30 m/s from 5 cm for 0.1 s; 40 m/s
    blows it off the plate). A die lying loose is blown at half that speed. The speed learns die by
    die: up 5 % after a puff that did not move the die, down 10 % after one that moved it past the
    aimed funnel or moved another die (between ``weakest`` and ``strongest`` m/s). A goal above the
    base (the top of the small pyramid) is reached by blowing the die from below its centre
    (``climb_lift``) straight at it once its three supports are filled and the die stands next to
    them, ``tries`` times at most. With no clear puff, it blows the farthest die towards its goal anyway,
    give or take 10 degrees, or waits once the climbs have failed.
    """

    name = "blow"

    def __init__(
        self,
        rng: np.random.Generator,
        speed: float = 26.0,
        distance: float = 0.05,
        duration: float = 0.1,
        lift: float = 0.003,
        climb_lift: float = -0.006,
        weakest: float = 20.0,
        strongest: float = 32.0,
        tries: int = 3,
    ) -> None:
        self.rng = rng
        self.start_speed = speed
        self.distance = distance
        self.duration = duration
        self.lift = lift
        self.climb_lift = climb_lift
        self.weakest = weakest
        self.strongest = strongest
        self.speeds: dict[int, float] = {}
        self.tries = tries
        self.climbs = 0  # failed climbs so far
        self._last: tuple[int, Slot, bool, dict[int, Slot]] | None = None

    def _learn(self, funnels: dict[int, Slot], seated: dict[int, Slot]) -> None:
        if self._last is None:
            return
        die, aim, climbing, before = self._last
        self._last = None
        speed = self.speeds.get(die, self.start_speed)
        others = any(funnels.get(d) != s for d, s in before.items() if d != die)
        moved = funnel_steps(before[die], funnels[die])
        reached = seated.get(die) == aim if climbing else funnels[die] == aim
        self.climbs += int(climbing and not reached)
        if moved == 0 and not reached:
            self.speeds[die] = min(speed * 1.05, self.strongest)
        elif others or (not reached and moved > 1):
            self.speeds[die] = max(speed * 0.9, self.weakest)

    def _clear(self, die: int, azimuth: float, points: dict[int, np.ndarray]) -> bool:
        """Whether a jet along ``azimuth`` at ``die`` reaches it first and pushes no die lying just in front of it."""
        d = hands.unit(azimuth)[:2]
        for other, p in points.items():
            if other == die:
                continue
            rel = (p - points[die])[:2]
            along = float(rel @ d)
            across = abs(float(rel[0] * d[1] - rel[1] * d[0]))
            if -self.distance < along < 1.5 * EDGE and across < EDGE:
                return False
        return True

    def _puff(self, die: int, azimuth: float, point: np.ndarray, speed: float, lift: float) -> Blow:
        back = -self.distance * hands.unit(azimuth)
        origin = (float(point[0] + back[0]), float(point[1] + back[1]), float(point[2] + lift))
        elevation = -math.degrees(math.atan2(lift, self.distance))
        return Blow(origin, azimuth, elevation=elevation, speed=round(speed, 3), duration=self.duration, gust=0.05)

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """One puff at one die."""
        dice = [d for d in game.dice if d in readout.dice]
        funnels = {d: base_funnel(readout.dice[d].position) for d in dice}
        seated = {d: s for d in dice if (s := readout.dice[d].slot) is not None}
        self._learn(funnels, seated)
        wanted: dict[int, np.ndarray] = game.goals(readout)
        if not wanted:
            return Wait(0.2)
        points = {d: np.array(readout.dice[d].position) for d in dice}
        occupied = set(funnels.values())
        options: list[tuple[int, int, float, Slot, bool]] = []  # distance, die, azimuth, aim, climbing
        for die, p in wanted.items():
            here = funnels[die]
            top = next((s for s in geometry.SLOTS if np.allclose(geometry.slot_centre(s) * EDGE, p, atol=1e-6)), None)
            if top is not None and geometry.layer(top) < geometry.BASE_LAYER:
                supports = geometry.supports(top)
                if all(s in occupied for s in supports) and min(funnel_steps(here, s) for s in supports) <= 1:
                    if self.climbs < self.tries:
                        options.append((0, die, azimuth_to(points[die], p), top, True))
                    continue
                goal = min(supports, key=lambda s: funnel_steps(s, here))
            else:
                goal = base_funnel(p)
            for n, step in enumerate(geometry.NEIGHBOUR_STEPS):
                there = (here[0] + step[0], here[1] + step[1], here[2] + step[2])
                if min(there) < 0 or there in occupied or funnel_steps(there, goal) >= funnel_steps(here, goal):
                    continue
                if self._clear(die, STEPS[n], points):
                    options.append((funnel_steps(here, goal), die, STEPS[n], there, False))
        if not options:
            if self.climbs >= self.tries:
                return Wait(1.0)  # the top will not climb: keep the pyramid's base as it stands
            die = max(wanted, key=lambda d: float(np.linalg.norm(points[d] - wanted[d])))
            azimuth = azimuth_to(points[die], wanted[die]) + float(self.rng.normal(0, 10))
            return self._puff(die, azimuth, points[die], self.speeds.get(die, self.start_speed), self.lift)
        nearest = min(o[0] for o in options)
        best = [o for o in options if o[0] == nearest]
        _, die, azimuth, aim, climbing = best[int(self.rng.integers(len(best)))]
        self._last = (die, aim, climbing, dict(funnels))
        speed = self.speeds.get(die, self.start_speed)
        if readout.dice[die].slot is None and not climbing:
            speed /= 2  # a loose die slides away at a breath
        return self._puff(die, azimuth, points[die], speed, self.climb_lift if climbing else self.lift)
