"""The blowing hand of Dune: a feedback blower, one short puff per control step at one die, read back after."""

from __future__ import annotations

import math
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Mouth:
    """Where a puff comes from and how hard it blows: ``distance`` m behind the die's centre, ``lift`` m above
    it, through a mouth ``nozzle`` m wide; first at ``speed`` m/s, then as learned between ``weakest`` and
    ``strongest``."""

    distance: float
    lift: float
    nozzle: float
    speed: float
    weakest: float
    strongest: float


# A step to the next funnel: a 4 mm jet from 2.4 cm, the end of its core. Beyond the core the air slows as 1/x,
# so a die that breaks free is pushed ever less (a quarter as hard one funnel on) and stops in the next funnel.
# One puff of 0.1 s moves the die of tests/test_games_skill.py exactly one funnel in 6 of 6 nudged starts from 48
# to 56 m/s on the box and from 52 to 56 on the rounded hull, in 4 of 6 at 44 and 60 (box) and 60 and 65 (hull);
# none leaves the plate below 70 (docs/studies/real-dice.md, "The blowing hand on the hull").
STEP = Mouth(distance=0.024, lift=0.0015, nozzle=0.004, speed=50.0, weakest=40.0, strongest=62.0)
# The hand's first mouth, tuned on the box: a 15 mm jet from 5 cm, still in its core one funnel on. It moves a
# die one funnel only from 32 to 34 m/s on the box and about 36 on the hull, beyond which it rolls on or off.
# ``BlowHand(rng, step=WIDE)`` is that hand again (but for its climbs, which learned the steps' speed).
WIDE = Mouth(distance=0.05, lift=0.003, nozzle=0.015, speed=26.0, weakest=20.0, strongest=32.0)
# A climb onto three dice: the wide mouth from below the die's centre, so the jet lifts it.
CLIMB = Mouth(distance=0.05, lift=-0.006, nozzle=0.015, speed=26.0, weakest=20.0, strongest=32.0)


class BlowHand(Controller[TimedPlateGame]):
    """A feedback blower: one short puff per control step at one die, sized for one funnel, read back after.

    Each control step the mouth reads every die's funnel from its pose and picks the die nearest its
    goal (``game.goals``) that one funnel-to-funnel step brings nearer, along a step whose way is
    clear: no other die lies on the jet's line between the mouth and the chosen die (it would take
    the jet) or just in front of it (it would be pushed too). It puffs for ``duration`` s from the
    ``step`` mouth (``STEP``: a narrow jet close behind, which slackens as the die leaves) at the die's
    learned speed: the air speed that tips a seated die out of its funnel and no further. A die lying
    loose is blown at half that speed. The speed learns die by die: up 5 % after a puff that did not
    move the die, down 10 % after one that moved it past the aimed funnel or moved another die. A goal
    above the base (the top of the small pyramid) is reached by blowing the die from the ``climb``
    mouth, below its centre, straight at it once its three supports are filled and the die stands next
    to them, ``tries`` times at most; climbs learn their own speed. With no clear puff, it blows the
    farthest die towards its goal anyway, give or take 10 degrees, or waits once the climbs have failed.
    """

    name = "blow"
    plays = (TimedPlateGame,)

    def __init__(
        self,
        rng: np.random.Generator,
        step: Mouth = STEP,
        climb: Mouth = CLIMB,
        duration: float = 0.1,
        tries: int = 3,
    ) -> None:
        self.rng = rng
        self.step = step
        self.climb = climb
        self.duration = duration
        self.speeds: dict[tuple[int, bool], float] = {}  # (die, climbing): the learned air speed, m/s
        self.tries = tries
        self.climbs = 0  # failed climbs so far
        self._last: tuple[int, Slot, bool, dict[int, Slot]] | None = None

    def _mouth(self, climbing: bool) -> Mouth:
        return self.climb if climbing else self.step

    def _speed(self, die: int, climbing: bool) -> float:
        return self.speeds.get((die, climbing), self._mouth(climbing).speed)

    def _learn(self, funnels: dict[int, Slot], seated: dict[int, Slot]) -> None:
        if self._last is None:
            return
        die, aim, climbing, before = self._last
        self._last = None
        mouth, speed = self._mouth(climbing), self._speed(die, climbing)
        others = any(funnels.get(d) != s for d, s in before.items() if d != die)
        moved = funnel_steps(before[die], funnels[die])
        reached = seated.get(die) == aim if climbing else funnels[die] == aim
        self.climbs += int(climbing and not reached)
        if moved == 0 and not reached:
            self.speeds[die, climbing] = min(speed * 1.05, mouth.strongest)
        elif others or (not reached and moved > 1):
            self.speeds[die, climbing] = max(speed * 0.9, mouth.weakest)

    def _clear(self, die: int, azimuth: float, points: dict[int, np.ndarray]) -> bool:
        """Whether a jet along ``azimuth`` at ``die`` reaches it first and pushes no die lying just in front of it."""
        d = hands.unit(azimuth)[:2]
        for other, p in points.items():
            if other == die:
                continue
            rel = (p - points[die])[:2]
            along = float(rel @ d)
            across = abs(float(rel[0] * d[1] - rel[1] * d[0]))
            if -self.step.distance < along < 1.5 * EDGE and across < EDGE:
                return False
        return True

    def _puff(self, azimuth: float, point: np.ndarray, speed: float, mouth: Mouth) -> Blow:
        back = -mouth.distance * hands.unit(azimuth)
        origin = (float(point[0] + back[0]), float(point[1] + back[1]), float(point[2] + mouth.lift))
        elevation = -math.degrees(math.atan2(mouth.lift, mouth.distance))
        return Blow(
            origin, azimuth, elevation, speed=round(speed, 3), duration=self.duration, nozzle=mouth.nozzle, gust=0.05
        )

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
            return self._puff(azimuth, points[die], self._speed(die, False), self.step)
        nearest = min(o[0] for o in options)
        best = [o for o in options if o[0] == nearest]
        _, die, azimuth, aim, climbing = best[int(self.rng.integers(len(best)))]
        self._last = (die, aim, climbing, dict(funnels))
        speed = self._speed(die, climbing)
        if readout.dice[die].slot is None and not climbing:
            speed /= 2  # a loose die slides away at a breath
        return self._puff(azimuth, points[die], speed, self._mouth(climbing))
