"""The bench's speed rows: the hand's actions, the plate's, the Gymnasium environments and whole games, each
with local and with whole physics side by side and against the speed it should reach (``pyramid bench``).

A row's cases are seeded and the same for both physics; only the wall clock differs from run to run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from pyramid.agents.seats import default_seats
from pyramid.lab.locality import TOP_FOUR, Case, full_state, make_case, plate_action, run_case
from pyramid.lab.soak import make_environment, make_vector_environment
from pyramid.physics.actions import Lift
from pyramid.physics.bullet import engine_time
from pyramid.physics.settings import Physics
from pyramid.play import play_game
from pyramid.registry import find_game


@dataclass(frozen=True)
class Speed:
    """One measured speed row: simulated seconds a wall second, steps a second, or wall seconds a game."""

    what: str
    realtime: float | None = None  # simulated seconds a wall second
    steps: float | None = None  # environment steps a wall second
    wall: float | None = None  # wall seconds an action, or a game
    target: float | None = None  # the least ``realtime`` or ``steps`` that is fast enough (None: no target)
    note: str = ""
    cpu: float | None = None  # ``realtime`` or ``steps`` a processor second: what the code costs on a busy machine
    engine: float | None = None  # ``realtime`` or ``steps`` a second of the engine's steps alone (``engine_time``)

    @property
    def reachable(self) -> bool | None:
        """Whether the engine's steps alone are fast enough for the target: if not, no change to the code around
        the engine can meet it (None: no target, or the engine not timed)."""
        if self.target is None or self.engine is None:
            return None
        return self.engine >= self.target

    @property
    def met(self) -> bool | None:
        """Whether the row reaches its target (None: it has none)."""
        if self.target is None:
            return None
        value = self.realtime if self.realtime is not None else self.steps
        return value is not None and value >= self.target


ACTION_TARGET = 20.0  # x real time: a local action of the hand (lift, place, throw, pull, pour)
PLATE_TARGET = 2.0  # x real time: a plate action, every die on the plate simulated
ENV_TARGETS = {"Faraday": 20.0, "Coulomb": 20.0, "DiceMikado": 50.0}  # steps a second, random actions
ENVIRONMENTS = ("Faraday", "Coulomb", "DiceMikado", "Flickers", "Dune")
# An environment run as ``gymnasium.make_vec`` async copies, one process each: how it scales. A vector steps its
# copies in lockstep, each step waiting for the slowest copy; with twice as many copies as cores a core that is
# done takes up another copy's step (docs/research.md). 2 and 4 copies: this project's 2-core machines; 1 copy, run
# alike, is what they scale from (the copies' episodes end and reset, unlike the environment's own row's).
VECTOR = ("Faraday", (1, 2, 4))
VECTOR_STEPS = 40  # random steps each copy
GAMES = (("El Dado", 1), ("Dice Mikado", 1), ("Faraday", 1))  # whole physical games: title, seeds

# The hand's actions on the settled full pyramid (``pyramid.lab.locality``'s kinds).
HAND_ROWS = (
    ("lift", "lift a free die (the top four in turn)"),
    ("mikado", "Dice Mikado lift, 4+ layers down"),
    ("place", "place a die into an open funnel"),
    ("throw", "throw a die at the pyramid"),
    ("pull", "pull a die 8 mm out (Mount(a)ing)"),
    ("pour", "ladle pour of 6 dice onto the pyramid"),
)
TARGETED = ("lift", "place", "throw", "pull", "pour")  # the local actions with ACTION_TARGET
PLATE_ROWS = (
    ("tilt", "plate: tilt 5 to 20 deg"),
    ("shake", "plate: shake 3 mm at 8 Hz"),
    ("line", "plate: two-handed tilt about a line"),
    ("stroke", "plate: the tilt hand's stroke (a jolt)"),
)


def hand_cases(kind: str, seeds: int) -> list[Case]:
    """The cases a hand row times: the top four lifted in turn (one with ``seeds`` 1), or seeds 0.. of ``kind``."""
    if kind == "lift":
        return [Case("lift", 0, full_state(), tuple(Lift(s) for s in TOP_FOUR[: 4 if seeds > 1 else 1]))]
    return [make_case(kind, seed) for seed in range(seeds)]


def plate_case(kind: str, seed: int, quick: bool = False) -> Case:
    """A seeded plate action on the full pyramid: ``tilt``, ``shake``, ``line`` (two hands) or ``stroke``.

    The locality study's case of that kind (``pyramid.lab.locality``); ``quick`` shortens it (a test of the
    rows, not of the speed).
    """
    if kind not in PLATE_KINDS:
        raise ValueError(f"unknown plate action {kind!r}; the plate actions are {', '.join(PLATE_KINDS)}")
    if not quick:
        return make_case(kind, seed)
    return Case(kind, seed, full_state(), (plate_action(kind, seed, quick=True),))


PLATE_KINDS = tuple(kind for kind, _ in PLATE_ROWS)


def case_speeds(label: str, cases: list[Case], physics: Physics, target: float | None) -> list[Speed]:
    """Two rows for one set of cases: local physics (against ``target``), then the whole pyramid solved."""
    out = []
    for local in (True, False):
        results = [run_case(case, replace(physics, local=local)) for case in cases]
        actions = sum(len(r.case.actions) for r in results)
        simulated = sum(r.simulated for r in results)
        wall = sum(r.wall for r in results)
        cpu = sum(r.cpu for r in results)
        engine = sum(r.engine for r in results)
        stepped = np.mean([r.dice_stepped for r in results])
        note = f"{simulated / actions:.2f} s simulated an action; {stepped:.0f} dice a step"
        out.append(
            Speed(
                f"{label}: {'local' if local else 'whole'}",
                realtime=simulated / wall,
                wall=wall / actions,
                target=target if local else None,
                note=note,
                cpu=simulated / cpu if cpu > 0 else None,
                engine=simulated / engine if engine > 0 else None,
            )
        )
    return out


def environment_speeds(name: str, steps: int, physics: Physics, seed: int = 0) -> list[Speed]:
    """Two rows for a Gymnasium environment: ``steps`` random actions (seeded), local physics, then whole.

    An episode that ends is reset (with the next seed); the time of the resets is counted as well.
    """
    out = []
    for local in (True, False):
        env = make_environment(name, {"physics": replace(physics, local=local)})
        try:
            tick, clock = time.perf_counter(), time.process_time()
            with engine_time() as engine:
                env.reset(seed=seed)
                env.action_space.seed(seed)
                episodes = 1
                for _ in range(steps):
                    _, _, terminated, truncated, _ = env.step(env.action_space.sample())
                    if terminated or truncated:
                        env.reset(seed=seed + episodes)
                        episodes += 1
            wall, cpu = time.perf_counter() - tick, time.process_time() - clock
        finally:
            env.close()
        target = ENV_TARGETS.get(name) if local else None
        mode = "local" if local else "whole"
        note = f"{steps} random steps, {episodes} episodes"
        speed = Speed(
            f"{name} environment: {mode}",
            steps=steps / wall,
            target=target,
            note=note,
            cpu=steps / cpu,
            engine=steps / engine.seconds if engine.seconds > 0 else None,
        )
        out.append(speed)
    return out


def vector_speeds(name: str, copies: int, steps: int, physics: Physics, seed: int = 0) -> list[Speed]:
    """One row: ``copies`` of environment ``name`` in ``gymnasium.make_vec``'s async mode (a process each), each
    taking ``steps`` random actions (seeded), local physics; steps a wall second of them all together.

    Its processor seconds are the child processes', which this process does not see: the row has none.
    """
    envs = make_vector_environment(name, copies, {"physics": physics})
    try:
        envs.reset(seed=seed)
        envs.action_space.seed(seed)
        tick = time.perf_counter()
        for _ in range(steps):
            envs.step(envs.action_space.sample())
        wall = time.perf_counter() - tick
    finally:
        envs.close()
    note = f"{copies} x {steps} random steps, a process each, episodes reset as they end (cores: {os.cpu_count()})"
    return [Speed(f"{name} environment, {copies} async", steps=copies * steps / wall, note=note)]


def game_speeds(title: str, seeds: int, physics: Physics) -> list[Speed]:
    """Two rows for a whole physical game (default players, seeds 0..): local physics, then whole."""
    game_cls = find_game(title)
    out = []
    for local in (True, False):
        tick, clock = time.perf_counter(), time.process_time()
        with engine_time() as engine:
            for seed in range(seeds):
                play_game(game_cls, default_seats(game_cls), seed, physics=replace(physics, local=local))
        wall, cpu = time.perf_counter() - tick, time.process_time() - clock
        mode = "local" if local else "whole"
        per_game = f"{cpu / seeds:.3f} processor s a game, {engine.seconds / seeds:.3f} in the engine"
        note = f"seeds 0 to {seeds - 1}; {per_game}"
        out.append(Speed(f"{title}, a physical game: {mode}", wall=wall / seeds, note=note))
    return out


def speed_steps(physics: Physics, quick: bool = False) -> list[tuple[str, Callable[[], list[Speed]]]]:
    """Every speed row's measurement, named, in the bench's order; ``quick``: one short case each (a test)."""
    seeds = 1 if quick else 3
    steps: list[tuple[str, Callable[[], list[Speed]]]] = []
    for kind, label in HAND_ROWS:
        target = ACTION_TARGET if kind in TARGETED else None
        steps.append(
            (f"{kind}, local and whole", partial(case_speeds, label, hand_cases(kind, seeds), physics, target))
        )
    for kind, label in PLATE_ROWS:
        cases = [plate_case(kind, seed, quick) for seed in range(1 if quick else 2)]
        steps.append((f"{kind}, local and whole", partial(case_speeds, label, cases, physics, PLATE_TARGET)))
    for name in ENVIRONMENTS:
        steps.append((f"{name} environment", partial(environment_speeds, name, 2 if quick else 20, physics)))
    name, counts = VECTOR
    for copies in counts[:1] if quick else counts:
        steps.append(
            (
                f"{name} environment, {copies} async",
                partial(vector_speeds, name, copies, 2 if quick else VECTOR_STEPS, physics),
            )
        )
    for title, game_seeds in GAMES:
        steps.append((f"{title}, a game", partial(game_speeds, title, game_seeds, physics)))
    return steps


def speed_table(rows: list[Speed]) -> str:
    """The speed rows as a table: speed, wall time, target and whether it is met, then what local physics gains."""
    lines = ["", f"{'':<52}{'x realtime':>10}{'steps/s':>9}{'by cpu':>8}{'engine':>8}{'wall s':>9}{'target':>9}  note"]
    for s in rows:
        target = "" if s.target is None else f"{s.target:g}{'x' if s.realtime is not None else '/s'}"
        mark = {None: "", True: " met", False: " NOT met"}[s.met]
        lines.append(
            f"{s.what:<52}{_number(s.realtime, 10)}{_number(s.steps, 9)}{_number(s.cpu, 8)}{_number(s.engine, 8)}"
            f"{_number(s.wall, 9, '.3f')}{target:>9}{mark:<8}  {s.note}"
        )
    by = {s.what: s for s in rows}
    lines.append("")
    for s in rows:
        if s.met is False and s.engine is not None and s.target is not None:
            unit = "x real time" if s.realtime is not None else "steps a second"
            lines.append(f"{s.what}: the engine's steps alone run at {s.engine:.2f} {unit}, " + _verdict(s))
    for s in rows:
        name, _, copies = s.what.partition(" environment, ")
        if not copies.endswith(" async") or copies == "1 async" or not s.steps:
            continue
        # Against one copy run alike, if measured; else against the environment's own row.
        alike = by.get(f"{name} environment, 1 async")
        one = by.get(f"{name} environment: local")
        if alike is not None and alike.steps:
            lines.append(f"{s.what}: {s.steps / alike.steps:.2f} x the steps a second of 1 async copy")
        elif one is not None and one.steps:
            lines.append(f"{s.what}: {s.steps / one.steps:.2f} x the steps a second of one")
    for s in rows:
        whole = by.get(s.what[: -len("local")] + "whole") if s.what.endswith(": local") else None
        if whole is None:
            continue
        gain = _gain(s, whole)
        if gain is not None:
            lines.append(f"{s.what[: -len(': local')]}: local {gain:.1f} x faster than whole")
    return "\n".join(lines)


def _verdict(row: Speed) -> str:
    """What a row that misses its target needs, by what its engine's steps alone reach (``Speed.reachable``)."""
    assert row.target is not None
    if row.reachable:
        return "above the target: the code around the engine is what is too slow"
    return f"below the target ({row.target:g}): only fewer or cheaper engine steps can meet it"


def _gain(local: Speed, whole: Speed) -> float | None:
    if local.steps and whole.steps:
        return local.steps / whole.steps
    if local.wall and whole.wall:
        return whole.wall / local.wall
    return None


def _number(value: float | None, width: int, spec: str = ".2f") -> str:
    return "-".rjust(width) if value is None else format(value, f">{width}{spec}")
