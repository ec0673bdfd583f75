"""One seed, one world, in the Gymnasium environments: rendering or not, and the window's pace, change nothing.

``human`` mode shows each action live in the window (``pyramid.ui.viewer.watching``), which draws a
picture every few engine steps; ``rgb_array`` draws on request. Neither may change the world.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install -e '.[gymnasium]')")

from pyramid.gymnasium import env_id  # noqa: E402

DISPLAY = bool(os.environ.get("DISPLAY"))


def _episode(name: str, render_mode: str | None, steps: int = 3) -> list[dict[str, Any]]:
    env = gymnasium.make(env_id(name), render_mode=render_mode)
    env.action_space.seed(11)
    try:
        observations = [env.reset(seed=5)[0]]
        for _ in range(steps):
            obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if render_mode is not None:
                env.render()
            observations.append(obs)
            if terminated or truncated:
                break
    finally:
        env.close()
    return observations


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.keys() == y.keys()
        for key in x:
            np.testing.assert_array_equal(x[key], y[key], err_msg=key)


@pytest.mark.parametrize("name", ["Flickers", "DiceMikado"])
def test_rendering_pictures_leaves_the_world_as_it_is(name: str) -> None:
    _same(_episode(name, None), _episode(name, "rgb_array"))


@pytest.mark.skipif(not DISPLAY, reason="no display: the human render mode opens a window")
def test_the_window_leaves_the_world_as_it_is() -> None:
    pytest.importorskip("pyglet", reason="the window needs the view extra")
    _same(_episode("Flickers", None, steps=2), _episode("Flickers", "human", steps=2))
