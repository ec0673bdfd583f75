"""The soak: seeded runs of the physical scenes, counting every state that cannot be and every run that never rests.

The world checks each step (``World.check``): a non-finite pose or speed, a die inside the table, the
floor or the plate, a speed no action gives. The soak runs the scenes whose actions move dice hardest
(tilt and shake, blow, throw, pour, flick, pull) seed after seed and counts what it finds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyramid.lab.runner import run_scene
from pyramid.lab.scene import Scene, load_scene
from pyramid.physics.errors import ImpossibleStateError

# The physical scenes: tilt and shake, blow, a throw at the pyramid, a ladle's pour, flicks, pulls.
SOAK_SCENES = ("tilt", "blow", "throw_at_pyramid", "ladle", "flick", "balcony")
CAUSES = ("not a number", "inside the table", "inside the floor", "inside the plate", "energy from nowhere")


@dataclass
class SceneTally:
    """What the soak found for one scene."""

    runs: int = 0
    at_rest: int = 0
    impossible: Counter[str] = field(default_factory=Counter)  # cause -> runs
    restless: list[str] = field(default_factory=list)  # "seed S: dice ..." of runs that never rested
    examples: list[str] = field(default_factory=list)  # the first few errors in full


@dataclass
class SoakResult:
    """Tallies per scene name, in the order run, and the seeds used."""

    tallies: dict[str, SceneTally]
    first_seed: int
    runs: int

    @property
    def impossible(self) -> int:
        return sum(sum(t.impossible.values()) for t in self.tallies.values())

    @property
    def restless(self) -> int:
        return sum(len(t.restless) for t in self.tallies.values())


def soak_scenes(folder: str | Path = "scenes") -> list[Scene]:
    """The physical scenes from ``folder``; FileNotFoundError naming the folder if one is missing."""
    paths = [Path(folder) / f"{name}.toml" for name in SOAK_SCENES]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(
            f"the soak's scenes are not in {folder}: {', '.join(missing)} (run from the project folder)"
        )
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
    for n in range(runs):
        scene = scenes[n % len(scenes)]
        seed = first_seed + n // len(scenes)
        tally = tallies[scene.name]
        tally.runs += 1
        try:
            report = run_scene(scene, seed)
        except ImpossibleStateError as err:
            cause = next((c for c in CAUSES if c in err.cause), err.cause)
            tally.impossible[cause] += 1
            if len(tally.examples) < 5:
                tally.examples.append(f"seed {seed}: {err}")
        else:
            if report["at_rest"]:
                tally.at_rest += 1
            else:
                tally.restless.append(f"seed {seed}: {report['events'][-1] if report['events'] else 'no events'}")
        if progress is not None:
            progress(n + 1, runs)
    return SoakResult(tallies, first_seed, runs)


def soak_text(result: SoakResult) -> str:
    """The soak's table: runs, runs at rest, impossible states by cause and runs that never rested, per scene."""
    head = f"{'scene':<18}{'runs':>6}{'at rest':>9}{'impossible':>12}{'restless':>10}  causes"
    lines = [f"soak: {result.runs} runs from seed {result.first_seed}", head]
    for name, t in result.tallies.items():
        causes = ", ".join(f"{c}: {k}" for c, k in t.impossible.most_common()) or "-"
        found = sum(t.impossible.values())
        lines.append(f"{name:<18}{t.runs:>6}{t.at_rest:>9}{found:>12}{len(t.restless):>10}  {causes}")
    total = sum(t.runs for t in result.tallies.values())
    rested = sum(t.at_rest for t in result.tallies.values())
    lines.append(f"{'all':<18}{total:>6}{rested:>9}{result.impossible:>12}{result.restless:>10}")
    for name, t in result.tallies.items():
        for line in t.examples + t.restless[:5]:
            lines.append(f"  {name} {line}")
    return "\n".join(lines)
