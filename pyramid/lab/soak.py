"""The soak: seeded runs, counting every state that cannot be, every run that never rests and every error.

The world checks each step (``World.check``): a non-finite pose or speed, a die inside the table, the
floor or the plate, a speed no action gives. Three kinds of run, each seed after seed:

- scenes (``soak``): the scenes whose actions move dice hardest (tilt and shake, blow, throw, pour,
  flick, pull);
- games (``soak_games``): every skill game set out as its first turn starts, then random legal actions
  of a hand (``pyramid.lab.random_hands``: flicks, throws, pours, pulls, lifts where the game lets dice
  leave, tilts, shakes, blows), each parameter drawn from a seeded Generator, the world settling after
  each as in a match;
- environments (``soak_envs``): random-action episodes of every Gymnasium environment
  (``pyramid.gymnasium``, the gymnasium extra), the action space seeded; an episode the world cuts short
  (``info["impossible"]``) is a failure, and so is an exception from ``step`` or an observation outside
  the observation space.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pyramid.lab.random_hands import random_action
from pyramid.lab.runner import run_scene
from pyramid.lab.scene import Scene, load_scene
from pyramid.lab.shipped_scenes import SCENES
from pyramid.physics import actions
from pyramid.physics.errors import ImpossibleStateError, NotAtRestError
from pyramid.physics.settings import Physics
from pyramid.registry import SKILL_GAMES, find_game
from pyramid.skillgames.base import SkillGame

if TYPE_CHECKING:
    from pyramid.physics.world import World

# The physical scenes: tilt and shake, blow, a throw at the pyramid, a ladle's pour, flicks, pulls.
SOAK_SCENES = ("tilt", "blow", "throw_at_pyramid", "ladle", "flick", "balcony")
CAUSES = ("not a number", "inside the table", "inside the floor", "inside the plate", "energy from nowhere")
GAME_ACTIONS = 4  # random actions per game run (``soak_games``)
SETTLE_TIMEOUT = 3.0  # simulated seconds the world may take to rest after an action, as in a match
FINAL_SETTLE = 10.0  # simulated seconds the world has to come to rest at the end of a game run
EPISODE_STEPS = 500  # actions per environment episode at most (the environments' own limit)
Progress = Callable[[int, int], None]


@dataclass
class SceneTally:
    """What the soak found for one scene (one game, one environment)."""

    runs: int = 0
    at_rest: int = 0  # runs that ended well: at rest (an environment's episode: ended by the game or its limit)
    impossible: Counter[str] = field(default_factory=Counter)  # cause -> runs
    restless: list[str] = field(default_factory=list)  # "seed S: dice ..." of runs that never rested
    examples: list[str] = field(default_factory=list)  # the first few errors in full
    errors: Counter[str] = field(default_factory=Counter)  # any other error -> runs (its type and first words)

    def failed(self, seed: int, cause: str, text: str, error: bool = False) -> None:
        """Count a run that ended on ``cause`` (an impossible state's, or with ``error`` any other error's)."""
        (self.errors if error else self.impossible)[cause] += 1
        if len(self.examples) < 5:
            self.examples.append(f"seed {seed}: {text}")


@dataclass
class SoakResult:
    """Tallies per scene name (game, environment), in the order run, and the seeds used."""

    tallies: dict[str, SceneTally]
    first_seed: int
    runs: int  # runs done
    kind: str = "scene"  # what a tally is of: scene, game or environment
    asked: int | None = None  # runs asked for, when an interruption (Ctrl-C, SIGINT) stopped the soak before

    @property
    def interrupted(self) -> bool:
        return self.asked is not None and self.runs < self.asked

    @property
    def impossible(self) -> int:
        return sum(sum(t.impossible.values()) for t in self.tallies.values())

    @property
    def restless(self) -> int:
        return sum(len(t.restless) for t in self.tallies.values())

    @property
    def errors(self) -> int:
        return sum(sum(t.errors.values()) for t in self.tallies.values())

    @property
    def failures(self) -> int:
        """Runs that found a state that cannot be, never rested or ended in an error."""
        return self.impossible + self.restless + self.errors


OUTSIDE = "observation outside its space"  # an environment's failure that is no state of the world
NEVER_AT_REST = "never at rest"  # an environment's episode cut short by NotAtRestError


def cause_of(text: str) -> str:
    """The cause an impossible state's message names (one of ``CAUSES``), or the message itself."""
    if NotAtRestError.__name__ in text:
        return NEVER_AT_REST
    return next((c for c in CAUSES if c in text), text)


def error_name(err: BaseException) -> str:
    """An error as the soak counts it: its type and its message's first words."""
    words = str(err).split()
    head = " ".join(words[:8]) + (" ..." if len(words) > 8 else "")
    return f"{type(err).__name__}: {head}"


def soak_scenes(folder: str | Path = SCENES) -> list[Scene]:
    """The physical scenes from ``folder`` (the shipped ones); FileNotFoundError naming the folder if one is missing."""
    paths = [Path(folder) / f"{name}.toml" for name in SOAK_SCENES]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"the soak's scenes are not in {folder}: {', '.join(missing)}")
    return [load_scene(p) for p in paths]


def soak(
    scenes: Sequence[Scene],
    runs: int,
    first_seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SoakResult:
    """Run ``runs`` runs in turn over ``scenes`` (run n: scene n mod len, seed first_seed + n // len)."""
    if runs < 1:
        raise ValueError(f"--runs must be at least 1, got {runs}")
    if not scenes:
        raise ValueError("the soak needs at least one scene")
    tallies = {scene.name: SceneTally() for scene in scenes}

    def one(n: int) -> None:
        scene = scenes[n % len(scenes)]
        seed = first_seed + n // len(scenes)
        tally = tallies[scene.name]
        try:
            report = run_scene(scene, seed)
        except ImpossibleStateError as err:
            tally.failed(seed, cause_of(err.cause), str(err))
        else:
            if report["at_rest"]:
                tally.at_rest += 1
            else:
                tally.restless.append(f"seed {seed}: {report['events'][-1] if report['events'] else 'no events'}")
        tally.runs += 1

    return _drive("scene", tallies, first_seed, runs, one, progress)


def _drive(
    kind: str,
    tallies: dict[str, SceneTally],
    first_seed: int,
    runs: int,
    one: Callable[[int], None],
    progress: Progress | None,
) -> SoakResult:
    """Run ``one(n)`` for n = 0 .. runs - 1, reporting progress; the tallies as a result.

    An interruption (Ctrl-C, SIGINT: ``timeout -s INT``) ends the soak early, quietly: the run it cut off
    is not counted (a tally counts a run once it has ended), and the result says how many were asked for.
    """
    for n in range(runs):
        try:
            one(n)
        except KeyboardInterrupt:
            done = sum(t.runs for t in tallies.values())
            return SoakResult(tallies, first_seed, done, kind, asked=runs)
        if progress is not None:
            progress(n + 1, runs)
    return SoakResult(tallies, first_seed, runs, kind)


def skill_games(names: Sequence[str] = ()) -> list[type[SkillGame]]:
    """The skill games called ``names`` (numbers, titles, names; LookupError naming the choices), or all of them."""
    if not names:
        return list(SKILL_GAMES)
    return [find_game(name, SkillGame) for name in names]


def soak_games(
    games: Sequence[type[SkillGame]],
    runs: int,
    first_seed: int = 0,
    actions_per_run: int = GAME_ACTIONS,
    progress: Progress | None = None,
    physics: Physics | None = None,
) -> SoakResult:
    """Run ``runs`` runs in turn over ``games`` (run n: game n mod len, seed first_seed + n // len), each world in
    ``physics`` (default: the defaults).

    A run: the game (its fewest players) sets out its dice in a fresh world for the first turn, which
    settles; then ``actions_per_run`` random legal actions (``random_action``), the world settling after
    each (``SETTLE_TIMEOUT``, as in a match); at the end it must come to rest within ``FINAL_SETTLE`` s.
    Counted: impossible states by cause, runs that never rested, and any other error (a drawn action the
    hand refuses is one: the draws are meant to be legal).
    """
    if runs < 1:
        raise ValueError(f"--runs must be at least 1, got {runs}")
    if actions_per_run < 0:
        raise ValueError(f"--actions must be at least 0, got {actions_per_run}")
    if not games:
        raise ValueError("the soak needs at least one game")
    tallies = {game.info.title: SceneTally() for game in games}

    def one(n: int) -> None:
        game_cls = games[n % len(games)]
        seed = first_seed + n // len(games)
        tally = tallies[game_cls.info.title]
        done: list[str] = []
        try:
            still = game_run(game_cls, seed, actions_per_run, done, physics=physics)
        except ImpossibleStateError as err:
            tally.failed(seed, cause_of(err.cause), f"{err} (after {'; '.join(done) or 'the set-out'})")
        except Exception as err:  # noqa: BLE001 - every other error is counted, named, never hidden
            tally.failed(seed, error_name(err), f"{error_name(err)} (after {'; '.join(done) or 'the set-out'})", True)
        else:
            if still:
                tally.restless.append(f"seed {seed}: dice {list(still)[:10]} still moving after {'; '.join(done)}")
            else:
                tally.at_rest += 1
        tally.runs += 1

    return _drive("game", tallies, first_seed, runs, one, progress)


def game_run(
    game_cls: type[SkillGame],
    seed: int,
    actions_per_run: int,
    done: list[str] | None = None,
    physics: Physics | None = None,
    end: Callable[[World], None] | None = None,
) -> list[int]:
    """One game run of ``soak_games``; the dice still moving at the end ([] at rest). ``done`` collects the actions.

    The game, the hand's draws and the world's own (a hand's scatter, a gust) each draw from a stream of ``seed``.
    ``physics``: the world's (default: the defaults); ``end`` is shown the world at the end, before it closes.
    """
    from pyramid.physics.world import World  # the physics only where it runs

    game_rng, hand_rng, world_rng = np.random.default_rng(seed).spawn(3)
    game = game_cls(game_cls.info.players[0], rng=game_rng)
    world = World(physics if physics is not None else Physics())
    done = done if done is not None else []
    try:
        game.prepare(world)
        world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
        game.begin_turn(world)
        world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
        for _ in range(actions_per_run):
            action = random_action(world, hand_rng, lifts=game_cls.lifts_dice_out)
            done.append(str(action))
            actions.perform(world, action, world_rng)
            world.settle(timeout=SETTLE_TIMEOUT, raise_on_timeout=False)
        report = world.settle(timeout=FINAL_SETTLE, raise_on_timeout=False)
        if end is not None:
            end(world)
        return list(report.moving)
    finally:
        world.close()


def environments(names: Sequence[str] = ()) -> list[str]:
    """The Gymnasium environments called ``names`` (Faraday, pyramid/Dune-v0, any case), or all of them.

    LookupError naming the extra without gymnasium, or naming the environments for an unknown name.
    """
    from pyramid.gymnasium import ENVIRONMENTS, env_id  # LookupError naming the extra without gymnasium

    if not names:
        return list(ENVIRONMENTS)
    keys = {key.lower(): key for key in ENVIRONMENTS} | {env_id(key).lower(): key for key in ENVIRONMENTS}
    unknown = [name for name in names if name.lower() not in keys]
    if unknown:
        raise LookupError(f"no environment {unknown[0]!r}; the environments are: {', '.join(ENVIRONMENTS)}")
    return [keys[name.lower()] for name in names]


def soak_envs(
    names: Sequence[str],
    runs: int,
    first_seed: int = 0,
    steps: int = EPISODE_STEPS,
    progress: Progress | None = None,
    options: dict[str, dict[str, Any]] | None = None,
) -> SoakResult:
    """Run ``runs`` random-action episodes in turn over the environments ``names`` (run n: name n mod len, seed
    first_seed + n // len), each at most ``steps`` actions; ``options`` (per name) go to ``gymnasium.make``.

    Counted as failures: an episode cut short by the world (``info["impossible"]``, by cause), an exception
    from ``reset`` or ``step`` (by type), an observation outside the observation space.
    """
    if runs < 1:
        raise ValueError(f"--runs must be at least 1, got {runs}")
    if steps < 1:
        raise ValueError(f"--steps must be at least 1, got {steps}")
    if not names:
        raise ValueError("the soak needs at least one environment")
    tallies = {name: SceneTally() for name in names}

    def one(n: int) -> None:
        name = names[n % len(names)]
        seed = first_seed + n // len(names)
        tally = tallies[name]
        try:
            cut = episode(name, seed, steps, (options or {}).get(name, {}))
        except Exception as err:  # noqa: BLE001 - every error is counted, named, never hidden
            tally.failed(seed, error_name(err), error_name(err), True)
        else:
            if cut:
                cause = OUTSIDE if OUTSIDE in cut else cause_of(cut)
                tally.failed(seed, cause, cut, error=cause == OUTSIDE)
            else:
                tally.at_rest += 1
        tally.runs += 1

    return _drive("environment", tallies, first_seed, runs, one, progress)


def episode(name: str, seed: int, steps: int, options: dict[str, Any] | None = None) -> str:
    """One random-action episode of environment ``name`` (``soak_envs``): "" if it ended well, else why not.

    Why not: the world's ``info["impossible"]`` (step ... : its text), or an observation outside its space.
    """
    env = make_environment(name, options)
    try:
        observation, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        for step in range(1, steps + 1):
            if not env.observation_space.contains(observation):
                return f"step {step - 1}: the {OUTSIDE}: {_outside(env.observation_space, observation)}"
            observation, _, terminated, truncated, info = env.step(env.action_space.sample())
            if "impossible" in info:
                return f"step {step}: {info['impossible']}"
            if terminated or truncated:
                break
        if not env.observation_space.contains(observation):
            return f"step {step}: the {OUTSIDE}: {_outside(env.observation_space, observation)}"
        return ""
    finally:
        env.close()


def make_environment(name: str, options: dict[str, Any] | None = None) -> Any:
    """``gymnasium.make`` of environment ``name`` (``Faraday``) with ``options``: the soak's, and the bench's."""
    import gymnasium

    from pyramid.gymnasium import env_id

    return gymnasium.make(env_id(name), **(options or {}))


def make_vector_environment(name: str, copies: int, options: dict[str, Any] | None = None) -> Any:
    """``gymnasium.make_vec`` of ``copies`` of environment ``name`` in async mode (a process each), with
    ``options``: the bench's row of how the environments scale with the cores."""
    import gymnasium

    from pyramid.gymnasium import env_id

    return gymnasium.make_vec(env_id(name), num_envs=copies, vectorization_mode="async", **(options or {}))


def _outside(space: Any, observation: dict[str, Any]) -> str:
    """The entries of a Dict observation outside their spaces, named."""
    names = [key for key, sub in space.spaces.items() if not sub.contains(observation.get(key))]
    return ", ".join(names) or "its keys"


def soak_text(result: SoakResult) -> str:
    """The soak's table: runs, runs at rest, impossible states by cause, runs that never rested and errors, per
    scene (game, environment); then the first failures in full."""
    ended = "ended" if result.kind == "environment" else "at rest"
    w = max([18, *(len(name) + 2 for name in result.tallies)])
    head = f"{result.kind:<{w}}{'runs':>6}{ended:>9}{'impossible':>12}{'restless':>10}{'errors':>8}  causes"
    stopped = f" (interrupted: {result.runs} of the {result.asked} asked for)" if result.interrupted else ""
    lines = [f"soak: {result.runs} runs from seed {result.first_seed}{stopped}", head]
    for name, t in result.tallies.items():
        counted = t.impossible + t.errors
        causes = ", ".join(f"{c}: {k}" for c, k in counted.most_common()) or "-"
        found, errors = sum(t.impossible.values()), sum(t.errors.values())
        lines.append(f"{name:<{w}}{t.runs:>6}{t.at_rest:>9}{found:>12}{len(t.restless):>10}{errors:>8}  {causes}")
    total = sum(t.runs for t in result.tallies.values())
    rested = sum(t.at_rest for t in result.tallies.values())
    lines.append(f"{'all':<{w}}{total:>6}{rested:>9}{result.impossible:>12}{result.restless:>10}{result.errors:>8}")
    for name, t in result.tallies.items():
        for line in t.examples + t.restless[:5]:
            lines.append(f"  {name} {line}")
    return "\n".join(lines)
