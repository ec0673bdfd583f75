"""``env.step`` never raises on an action inside the action space: a world that reaches a state that cannot be
ends the episode, truncated, with the cause in ``info["impossible"]`` (pyramid.gymnasium)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install -e '.[gymnasium]')")

from pyramid.dice import DICE  # noqa: E402
from pyramid.gymnasium import ENVIRONMENTS, DuneEnv, FlickersEnv, SkillEnv, TiltEnv, env_id  # noqa: E402
from pyramid.lab.soak import episode  # noqa: E402
from pyramid.physics.errors import NotAtRestError  # noqa: E402

SMALL: dict[str, dict[str, Any]] = {"DiceMikado": {"layers": 3}, "Flickers": {"rounds": 1}}
# An action of each environment that moves the world (a random one may be refused: then nothing steps).
MOVES: dict[str, Any] = {
    "Faraday": TiltEnv.action(direction=0, line_x=0, line_y=0, angle=10, preset=0, ramp=0.8, shake=0),
    "Coulomb": TiltEnv.action(direction=0, line_x=0, line_y=0, angle=10, preset=0, ramp=0.8, shake=0),
    "Dune": DuneEnv.action(x=-0.1, y=0, z=0.02, azimuth=0, elevation=0, speed=5, duration=0.1),
    "Flickers": FlickersEnv.action(azimuth=0, impulse=0.003, elevation=0, height=0),
}


def make(name: str) -> Any:
    return gymnasium.make(env_id(name), **SMALL.get(name, {}))


def move(name: str, info: dict[str, Any]) -> Any:
    """An action that steps the world: for Dice Mikado the first die a hand can grip."""
    return int(np.flatnonzero(info["action_mask"])[0]) if name == "DiceMikado" else MOVES[name]


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_a_die_inside_the_table_ends_the_episode_truncated_with_its_cause(name: str) -> None:
    env = make(name)
    try:
        _, first = env.reset(seed=0)
        world = env.unwrapped.world
        die = next(d.id for d in DICE if d.id not in world.dice)
        world.throw(die, (0.5, 0.5, -0.02))  # its centre 2 cm down in the table's top, through the world's API
        observation, reward, terminated, truncated, info = env.step(move(name, first))
        assert truncated and not terminated and reward == 0.0
        assert info["impossible"].startswith(f"ImpossibleStateError: die {die} at ")
        assert "inside the table" in info["impossible"]
        assert env.observation_space.contains(observation)  # the last observation before the action
        if name == "DiceMikado":
            assert not info["action_mask"].any()  # nothing to grip in a world cut short
        with pytest.raises(RuntimeError, match=r"cut short .* call reset\(\)"):
            env.step(move(name, first))
        _, info = env.reset(seed=0)  # a new episode, a new world
        assert "impossible" not in env.step(move(name, info))[4]
    finally:
        env.close()


def test_dice_that_never_rest_end_the_episode_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def restless(self: Any, world: Any, action: Any) -> None:
        raise NotAtRestError("3 dice still moving after 10 s: [0, 1, 2]")

    monkeypatch.setattr(SkillEnv, "perform", restless)
    env = make("Dune")
    try:
        env.reset(seed=0)
        _, reward, terminated, truncated, info = env.step(MOVES["Dune"])
    finally:
        env.close()
    assert truncated and not terminated and reward == 0.0
    assert info["impossible"] == "NotAtRestError: 3 dice still moving after 10 s: [0, 1, 2]"


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_random_actions_never_raise(name: str) -> None:
    # Seeded random actions, a few per episode: no exception, no world cut short, every observation in its space.
    for seed in (0, 1):
        assert episode(name, seed, 4, SMALL.get(name, {})) == ""
