"""The blowing hand of Dune: a feedback blower, one short puff per control step at one die, read back after."""

from __future__ import annotations

import math

import numpy as np

from pyramid import geometry
from pyramid.agents.controller import Controller
from pyramid.agents.plate_aim import STEPS, azimuth_to, base_funnel, funnel_steps
from pyramid.dice import EDGE
from pyramid.geometry import Slot
from pyramid.perception import Readout
from pyramid.physics import hands
from pyramid.physics.actions import Blow, PhysicalAction, Wait
from pyramid.skillgames.plate import TimedPlateGame, funnel_point


class BlowHand(Controller[TimedPlateGame]):
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
    plays = (TimedPlateGame,)

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

    def act(self, game: TimedPlateGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """One puff at one die."""
        dice = [d for d in game.dice if d in readout.dice]
        funnels = {d: base_funnel(readout.dice[d].position) for d in dice}
        seated = {d: s for d in dice if (s := readout.dice[d].slot) is not None}
        self._learn(funnels, seated)
        wanted_slots: dict[int, Slot] = game.goal_slots(readout)
        if not wanted_slots:
            return Wait(0.2)
        wanted = {d: funnel_point(cell) for d, cell in wanted_slots.items()}
        points = {d: np.array(readout.dice[d].position) for d in dice}
        occupied = set(funnels.values())
        options: list[tuple[int, int, float, Slot, bool]] = []  # distance, die, azimuth, aim, climbing
        for die, top in wanted_slots.items():
            here = funnels[die]
            p = wanted[die]
            if geometry.layer(top) < geometry.BASE_LAYER:
                supports = geometry.supports(top)
                if all(s in occupied for s in supports) and min(funnel_steps(here, s) for s in supports) <= 1:
                    if self.climbs < self.tries:
                        options.append((0, die, azimuth_to(points[die], p), top, True))
                    continue
                goal = min(supports, key=lambda s: funnel_steps(s, here))
            else:
                goal = top
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
