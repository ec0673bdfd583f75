"""Local against whole physics: seeded cases of each action kind on the settled full pyramid, timed and compared.

A case builds the full pyramid (less a few dice where the action needs room), settles it, carries
out one action and settles again; ``run_case`` returns what the read-out saw and what it cost. The
bench's per-action rows and the agreement study (``agreement``) both run these cases, once with
local physics (``Physics(local=True)``, the default) and once solving the whole pyramid.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import stats

from pyramid import geometry
from pyramid.dice import DICE, EDGE, DieId
from pyramid.geometry import Slot
from pyramid.perception import Readout, Status
from pyramid.physics.actions import Attach, Lift, PhysicalAction, Pour, Pull, Throw, perform
from pyramid.physics.bullet import engine_time
from pyramid.physics.plate_motion import Shake, Tilt
from pyramid.physics.region import shift_and_turn
from pyramid.physics.settings import Physics
from pyramid.physics.world import World
from pyramid.play import play_game
from pyramid.registry import find_game
from pyramid.state import Cell, PyramidState
from pyramid.tolerances import TOL
from pyramid.units import PLACE_DROP

KINDS = ("lift", "mikado", "place", "throw", "pull", "pour", "tilt", "shake", "line", "stroke")
PLATE_KINDS = ("tilt", "shake", "line", "stroke")  # the kinds in which a hand moves the plate (``plate_action``)
PLATE_MOTIONS = {
    "tilt": "a tilt of the pyramid",
    "shake": "a shake of the pyramid",
    "line": "a two-handed tilt about a line",
    "stroke": "the tilt hand's stroke",
}
TOP_FOUR: tuple[Slot, ...] = tuple(sorted(geometry.SLOTS, key=geometry.layer)[:4])  # the apex, then layer 2

DISTURBED = 0.02  # edges (0.3 mm): a die of the pyramid moved this far was disturbed by the action

Signature = tuple[tuple[tuple[DieId, Slot, tuple[int, int, int]], ...], tuple[DieId, ...]]


def full_state() -> PyramidState:
    """The full 165-die pyramid, 90 black dice then 75 red, every die showing 1, 2, 3."""
    return PyramidState({s: Cell("black" if n < 90 else "red", (1, 2, 3)) for n, s in enumerate(geometry.SLOTS)})


def pyramid_centre() -> tuple[float, float]:
    """The point (x, y) of the table under the apex, metres."""
    x, y, _ = geometry.slot_centre(TOP_FOUR[0]) * EDGE
    return float(x), float(y)


@dataclass(frozen=True)
class Case:
    """One seeded case: the state built first, then the actions, each followed by a settle."""

    kind: str
    seed: int
    state: PyramidState
    actions: tuple[PhysicalAction, ...]

    def __str__(self) -> str:
        return f"{self.kind} seed {self.seed}: " + "; ".join(str(a) for a in self.actions)


@dataclass(frozen=True)
class Result:
    """What one case left and what it cost, with local or whole physics."""

    case: Case
    local: bool
    signature: Signature  # seated dice (die, slot, up faces) and the dice off the plate
    moved: int  # dice of the pyramid that moved past TOL.moved_shift (a quarter edge): out of their slots
    disturbed: int  # dice of the pyramid that moved more than DISTURBED edges or turned more than 1 degree
    simulated: float  # simulated seconds of the action and its settle
    wall: float  # wall-clock seconds of the same
    dice_stepped: float  # mean dice simulated per step (all of them with whole physics)
    restless: tuple[DieId, ...] = ()  # dice still moving when a settle timed out (a case that never rested)
    cpu: float = 0.0  # processor seconds of the action and its settle (this process's: what another job cannot slow)
    engine: float = 0.0  # wall seconds of the same inside the engine's steps (``engine_time``)


def _spare(n: int) -> list[DieId]:
    """``n`` dice of the set that ``World.build`` leaves free (it takes the lowest numbers): the highest."""
    return [d.id for d in DICE[::-1]][:n]


def make_case(kind: str, seed: int) -> Case:
    """The case of ``kind`` drawn from ``seed`` (every choice from ``default_rng([seed, kind's index])``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown action kind {kind!r}; the kinds are {', '.join(KINDS)}")
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    state = full_state()
    cx, cy = pyramid_centre()
    action: PhysicalAction
    if kind == "lift":
        # A free die after none to three of the top four were taken.
        for slot in TOP_FOUR[: int(rng.integers(0, 4))]:
            state = state.without(slot)
        free = geometry.free_slots(state)
        action = Lift(free[int(rng.integers(len(free)))])
    elif kind == "mikado":
        # A die on the pyramid's surface, four or more layers down: the hand drags what rests on it.
        deep = sorted({s for s, _ in geometry.exposed_faces(state) if geometry.layer(s) >= 4})
        action = Lift(deep[int(rng.integers(len(deep)))])
    elif kind == "place":
        # One to three free dice taken, then a die set into one of the open funnels.
        for _ in range(int(rng.integers(1, 4))):
            free = geometry.free_slots(state)
            state = state.without(free[int(rng.integers(len(free)))])
        holes = geometry.open_slots(state)
        hole = holes[int(rng.integers(len(holes)))]
        up = geometry.ALL_UP_FACES[int(rng.integers(24))]
        action = Attach(_spare(1)[0], hole, up, drop=PLACE_DROP)
    elif kind == "throw":
        aim = (cx + float(rng.normal(0, 0.03)), cy + float(rng.normal(0, 0.03)))
        action = Throw(
            _spare(1)[0],
            aim,
            height=float(rng.uniform(0.12, 0.25)),
            distance=float(rng.uniform(0.05, 0.8)),  # up to 3.5 m/s: the hardest knock dice out
            azimuth=float(rng.uniform(0, 360)),
        )
    elif kind == "pull":
        # Mount(a)ing: a surface die pulled 8 mm out along one of its uncovered faces.
        faces = [(s, axis) for s, axis in geometry.exposed_faces(state) if geometry.layer(s) >= 2]
        slot, axis = faces[int(rng.integers(len(faces)))]
        action = Pull(slot, 0.008, axis)
    elif kind == "pour":
        aim = (cx + float(rng.normal(0, 0.02)), cy + float(rng.normal(0, 0.02)))
        action = Pour(tuple(_spare(6)), aim, height=0.2, azimuth=float(rng.uniform(0, 360)))
    elif kind == "tilt":
        action = Tilt(float(rng.uniform(0, 360)), angle=float(rng.uniform(5, 20)), ramp=0.3, hold=0.3)
    else:
        action = plate_action(kind, seed)
    return Case(kind, seed, state, (action,))


def plate_action(kind: str, seed: int, quick: bool = False) -> Tilt | Shake:
    """The seeded plate action of ``kind`` on the full pyramid: ``tilt`` (quick, or not a case's own: see
    ``make_case``), ``shake`` (3 mm at 8 Hz), ``line`` (two hands, about a line under the pyramid's middle)
    or ``stroke`` (the tilt hand's jolt). ``quick`` shortens it (a test of the bench's rows, not of speed)."""
    if kind not in PLATE_KINDS:
        raise ValueError(f"unknown plate action {kind!r}; the plate actions are {', '.join(PLATE_KINDS)}")
    rng = np.random.default_rng([seed, 7, PLATE_KINDS.index(kind)])
    cx, cy = pyramid_centre()
    azimuth = float(rng.uniform(0, 360))
    hold = 0.05 if quick else 0.3
    if kind == "tilt":
        return Tilt(azimuth, angle=float(rng.uniform(5, 20)), ramp=0.1, hold=hold)
    if kind == "shake":
        return Shake(0.003, 8.0, 0.1 if quick else 0.5, azimuth=azimuth)
    if kind == "line":
        # About a line under the pyramid's middle, up to 3 cm off it.
        point = (cx + float(rng.normal(0, 0.015)), cy + float(rng.normal(0, 0.015)), 0.0)
        return Tilt(azimuth, angle=float(rng.uniform(5, 15)), ramp=0.1 if quick else 0.3, hold=hold, pivot=point)
    # The programmed tilt hand's quick stroke: a jolt about a line 4 to 8 cm from the apex.
    side = 0.04 + 0.04 * float(rng.uniform())
    heading = math.radians(azimuth)
    point = (cx - side * math.cos(heading), cy - side * math.sin(heading), 0.0)
    return Tilt.jolt(azimuth, 15.0, point, preset=10.0, ramp=0.1)


def signature(readout: Readout) -> Signature:
    """What agreement compares: each seated die with its slot and faces, and the dice off the plate."""
    seated = tuple(
        sorted((d, r.slot, r.up) for d, r in readout.dice.items() if r.status is Status.SEATED and r.slot and r.up)
    )
    return seated, tuple(sorted(readout.off_plate()))


def run_case(case: Case, physics: Physics, settle_timeout: float = 10.0) -> Result:
    """Build, settle, act and settle again in a fresh world; the read-out's signature and the cost of the action."""
    world = World(physics)
    try:
        world.build(case.state)
        world.settle(timeout=settle_timeout)
        dice, before = world.poses()
        rng = np.random.default_rng([case.seed, 99])
        start, tick, clock = world.time, time.perf_counter(), time.process_time()
        world.count_steps()
        restless: tuple[DieId, ...] = ()
        with engine_time() as engine:
            for action in case.actions:
                perform(world, action, rng)
                report = world.settle(timeout=settle_timeout, raise_on_timeout=False)
                restless = restless or report.moving
        wall, cpu = time.perf_counter() - tick, time.process_time() - clock
        simulated = world.time - start
        stepped = world.count_steps()
        readout = world.readout(require_rest=False)
        # The dice of the pyramid still in play, before and after: how far each moved and turned.
        stayed = [n for n, d in enumerate(dice) if d in readout.dice]
        after = world.poses()[1][[world.dice.index(dice[n]) for n in stayed]]
        shift, turn = shift_and_turn(before[stayed], after, physics.edge)
        moved = int((shift > TOL.moved_shift).sum())
        disturbed = int(((shift > DISTURBED) | (turn > 1.0)).sum())
        return Result(
            case,
            physics.local,
            signature(readout),
            moved,
            disturbed,
            simulated,
            wall,
            stepped,
            restless,
            cpu,
            engine.seconds,
        )
    finally:
        world.close()


@dataclass(frozen=True)
class Agreement:
    """How often local and whole physics left the same read-out, per action kind."""

    kind: str
    cases: int
    same: int
    local: list[Result]
    whole: list[Result]
    floor: int | None = None  # cases in which whole physics agreed with itself, every spawn nudged (None: not run)

    @property
    def share(self) -> float:
        return self.same / self.cases if self.cases else math.nan

    @property
    def holds(self) -> bool:
        """Whether local physics reads as whole physics does: in ``AGREEMENT`` of the cases, or, where a
        nudge of 1e-9 m already changes whole physics' read-out that often (a throw's bounces are chaotic),
        in no fewer cases than whole physics agrees with itself nudged, beyond chance (Fisher's exact
        test, one-sided, 5%)."""
        if self.share >= AGREEMENT:
            return True
        if self.floor is None:
            return False
        table = [[self.cases - self.same, self.same], [self.cases - self.floor, self.floor]]
        return bool(stats.fisher_exact(table, alternative="greater").pvalue >= 0.05)


def agreement(
    kinds: Sequence[str],
    seeds: Sequence[int],
    physics: Physics | None = None,
    progress: Callable[[str], None] | None = None,
    floor: Sequence[str] = (),
) -> list[Agreement]:
    """Run every case of ``kinds`` x ``seeds`` with local and with whole physics and compare the read-outs.

    For the kinds in ``floor`` whole physics also runs with every spawn nudged (``Physics.jitter`` 1):
    how often it agrees with itself is the most any physics can agree with it (``Agreement.holds``).
    """
    base = physics or Physics()
    say = progress or (lambda text: None)
    out = []
    for kind in kinds:
        local, whole, same, itself = [], [], 0, 0
        for n, seed in enumerate(seeds, 1):
            case = make_case(kind, seed)
            a = run_case(case, replace(base, local=True))
            b = run_case(case, replace(base, local=False))
            local.append(a)
            whole.append(b)
            same += a.signature == b.signature and not a.restless and not b.restless
            if kind in floor:
                c = run_case(case, replace(base, local=False, jitter=1))
                itself += c.signature == b.signature and not c.restless and not b.restless
            say(f"{kind}: {n}/{len(seeds)} cases, {same} agree" + (f", whole nudged {itself}" if kind in floor else ""))
        out.append(Agreement(kind, len(seeds), same, local, whole, itself if kind in floor else None))
    return out


# The skill studies' figures that local physics must reproduce: (name, game number, players, options, reader).
def _first_turn(game: Any) -> float:
    """The value the first turn ended with (Mikado: dice taken; Mount(a)ing: dice mounted)."""
    return float(game.records[0].end.value)


def _seated(game: Any) -> float:
    return float(game.records[-1].end.note.split()[0])


def _turn_time(game: Any) -> float:
    """Simulated seconds the first turn took: to solve the game, or the time limit (or the fall) if it failed."""
    return float(game.records[0].time)


def _skeleton_kept(game: Any) -> float:
    """Captain Flint: the skeleton dice still seated ("N of the 25 skeleton dice and M other dice stayed ...")."""
    return float(game.records[0].end.note.split()[0])


StudyFigure = tuple[str, int, tuple[str, ...], dict[str, str], Callable[[Any], float]]
STATISTICS: tuple[StudyFigure, ...] = (
    ("Dice Mikado (5 layers, careful): dice taken", 6, ("careful",), {"layers": "5"}, _first_turn),
    ("Mount(a)ing (5 layers, 8 mm pulls): dice mounted", 8, ("mount",), {"layers": "5"}, _first_turn),
    ("Trulla (two ladles, 12 dice each): dice seated", 16, ("ladle", "ladle"), {"dice": "12"}, _seated),
    # The games of the moving plate (and Dune's blows near it): what carrying the plate's dice must not change.
    ("Faraday (the tilt hand): seconds to solve, or to the turn's end", 3, ("tilt",), {}, _turn_time),
    ("Coulomb (the tilt hand): seconds to solve, or to the turn's end", 4, ("tilt",), {}, _turn_time),
    ("Dune (the blower): seconds to solve, or to the turn's end", 2, ("blow",), {}, _turn_time),
    ("Captain Flint (5 layers): skeleton dice kept", 1, ("flint",), {"layers": "5"}, _skeleton_kept),
)


def figures_named(words: Sequence[str]) -> list[StudyFigure]:
    """The entries of STATISTICS whose name holds one of ``words`` (any case); all of them for no words."""
    return [f for f in STATISTICS if not words or any(word.lower() in f[0].lower() for word in words)]


@dataclass(frozen=True)
class Statistic:
    """One study figure from local and from whole physics over the same seeds."""

    name: str
    local: list[float]
    whole: list[float]

    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean of ``whole`` (Student's t)."""
        return _mean_interval(self.whole)

    def local_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean of ``local`` (Student's t)."""
        return _mean_interval(self.local)

    def difference(self) -> tuple[float, float]:
        """The 95% confidence interval of local's mean less whole's (Welch's t: the spreads may differ)."""
        a, b = np.array(self.local, dtype=float), np.array(self.whole, dtype=float)
        if min(len(a), len(b)) < 2 or (a.std() == 0 and b.std() == 0):
            gap = float(a.mean() - b.mean())
            return gap, gap
        ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
        return float(ci.low), float(ci.high)

    @property
    def inside(self) -> bool:
        """Whether local and whole physics agree: the 95% interval of the difference of their means holds 0.

        (Asking that local's mean fall inside whole's own interval would fail one time in six for two
        samples of one and the same distribution: both means carry noise.)
        """
        low, high = self.difference()
        return low - 1e-9 <= 0.0 <= high + 1e-9


def _mean_interval(values: Sequence[float]) -> tuple[float, float]:
    x = np.array(values, dtype=float)
    if len(x) < 2 or x.std() == 0:
        return float(x.mean()), float(x.mean())
    low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    return float(low), float(high)


def statistics(
    seeds: Sequence[int],
    physics: Physics | None = None,
    throws: Sequence[Agreement] = (),
    progress: Callable[[str], None] | None = None,
    only: Sequence[str] = (),
) -> list[Statistic]:
    """The studies' figures with local and whole physics; with ``throws``, also the dice a throw moved.

    ``only``: just the figures whose name holds one of these words (``Faraday``, ``Mikado``).
    """
    base = physics or Physics()
    say = progress or (lambda text: None)
    out = []
    for name, number, players, options, read in figures_named(only) if len(seeds) else ():
        values: dict[bool, list[float]] = {True: [], False: []}
        for local in (True, False):
            for n, seed in enumerate(seeds, 1):
                game = play_game(find_game(number), players, seed, options, physics=replace(base, local=local))
                values[local].append(read(game))
                say(f"{name}, {'local' if local else 'whole'}: {n}/{len(seeds)}")
        out.append(Statistic(name, values[True], values[False]))
    for a in throws:
        if a.kind == "throw":
            moved_local = [float(r.disturbed) for r in a.local]
            moved_whole = [float(r.disturbed) for r in a.whole]
            out.append(Statistic("a die thrown at the pyramid: dice moved 0.3 mm or more", moved_local, moved_whole))
        if a.kind in PLATE_MOTIONS:
            out_local = [float(r.moved) for r in a.local]
            out_whole = [float(r.moved) for r in a.whole]
            out.append(Statistic(f"{PLATE_MOTIONS[a.kind]}: dice moved out of their slots", out_local, out_whole))
    return out


AGREEMENT = 0.95  # the share of cases whose read-outs must agree, per action kind


def locality_text(results: Sequence[Agreement], figures: Sequence[Statistic] = ()) -> str:
    """The comparison as a table: agreement and cost per action kind, differing cases, then the study figures."""
    header = f"{'action':<8}{'agree':>12}{'local s':>10}{'whole s':>10}{'faster':>8}{'simulated s':>13}"
    lines = [f"{header}{'dice a step':>13}{'nudged':>9}"] if results else []
    for a in results:
        local_wall = sum(r.wall for r in a.local) / a.cases
        whole_wall = sum(r.wall for r in a.whole) / a.cases
        simulated = sum(r.simulated for r in a.local) / a.cases
        stepped = float(np.mean([r.dice_stepped for r in a.local]))
        mark = "" if a.share >= AGREEMENT else "  < 95%, as nudged" if a.holds else "  < 95%"
        nudged = "-" if a.floor is None else f"{a.floor}/{a.cases}"
        lines.append(
            f"{a.kind:<8}{f'{a.same}/{a.cases}':>12}{local_wall:>10.3f}{whole_wall:>10.3f}"
            f"{whole_wall / local_wall:>7.1f}x{simulated:>13.2f}{stepped:>13.1f}{nudged:>9}{mark}"
        )
    for a in results:
        for lo, wh in zip(a.local, a.whole, strict=True):
            for r, how in ((lo, "local"), (wh, "whole")):
                if r.restless:
                    lines.append(f"  never at rest ({how} physics): {r.case}; still moving: {list(r.restless)[:10]}")
            if lo.signature != wh.signature:
                seated_l, off_l = lo.signature
                seated_w, off_w = wh.signature
                moved = sorted({d for d, _, _ in set(seated_l) ^ set(seated_w)} | (set(off_l) ^ set(off_w)))
                lines.append(f"  differ: {lo.case}; dice read differently: {moved}")
    for s in figures:
        (ll, lh), (wl, wu), (dl, dh) = s.local_interval(), s.interval(), s.difference()
        verdict = "agree" if s.inside else "DIFFER"
        lines.append(
            f"{s.name}: local {np.mean(s.local):.2f} ({ll:.2f} to {lh:.2f}), whole {np.mean(s.whole):.2f} "
            f"({wl:.2f} to {wu:.2f}), local - whole {dl:+.2f} to {dh:+.2f} (95%, n = {len(s.whole)}): {verdict}"
        )
    return "\n".join(lines)
