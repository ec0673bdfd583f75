"""One scene and seed, one world: ``pyramid run``, a film of it and the window's cadence give the same read-out.

The window draws a picture every 3 engine steps (``pyramid.ui.viewer.watching``), a film every 8
(``Film.attach``); both watch the world's clock (``World.observe``) and cannot change its steps.
The window itself is tested the same way under a virtual screen (tests/test_viewer.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pyramid.lab.runner import run_scene
from pyramid.lab.scene import load_scene
from pyramid.physics.world import World
from pyramid.ui.film import BulletRenderer, film_scene, runner_worlds

SCENES = Path(__file__).resolve().parent.parent / "scenes"


def _headless(name: str, seed: int) -> tuple[dict[str, Any], bytes]:
    seen: list[bytes] = []
    report = run_scene(load_scene(SCENES / f"{name}.toml"), seed, inspect=lambda w: seen.append(w.poses()[1].tobytes()))
    return report, seen[0]


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("measures", "events", "simulated_seconds", "at_rest"):
        assert a[key] == b[key], key


@pytest.mark.parametrize("name", ["tilt", "flick"])
def test_the_windows_cadence_and_a_film_leave_the_world_pyramid_run_leaves(name: str, tmp_path: Path) -> None:
    scene = load_scene(SCENES / f"{name}.toml")
    plain, plain_poses = _headless(name, 5)

    pictures: list[float] = []
    watched_poses: list[bytes] = []

    def on_new(world: World) -> None:
        world.observe(3 * world.physics.time_step, lambda: pictures.append(world.time))  # as ``watching`` does

    def on_close(world: World) -> None:
        watched_poses.append(world.poses()[1].tobytes())

    with runner_worlds(on_new, on_close):
        watched = run_scene(scene, 5)
    assert len(pictures) > 100
    _same(plain, watched)
    assert watched_poses == [plain_poses]

    filmed = film_scene(scene, 5, video=tmp_path / "run.gif", renderer=BulletRenderer(40, 30))
    assert Path(filmed["video"]).stat().st_size > 0
    _same(plain, filmed)
