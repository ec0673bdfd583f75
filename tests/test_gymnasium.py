"""The skill games as Gymnasium environments (pyramid.gymnasium): Gymnasium's own checker, seeding, rewards
from the game's verdict, the hands' parameters, pictures. Small worlds: a few dice, a few actions each."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install -e '.[gymnasium]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.utils.passive_env_checker import env_render_passive_checker  # noqa: E402

from pyramid.dice import EDGE  # noqa: E402
from pyramid.geometry import SLAB_INRADIUS  # noqa: E402
from pyramid.gymnasium import ENVIRONMENTS, PLATE_REACH, FlickersEnv, TiltEnv, env_id  # noqa: E402
from pyramid.physics.settings import COMPARED_DICE, Physics  # noqa: E402

DISPLAY = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
# The cheapest game each environment allows: a 10-die Mikado pyramid, one round of Flickers.
SMALL: dict[str, dict[str, Any]] = {"DiceMikado": {"layers": 3}, "Flickers": {"rounds": 1}}


def make(name: str, **kwargs: Any) -> Any:
    return gymnasium.make(env_id(name), **{**SMALL.get(name, {}), **kwargs})


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_each_environment_passes_gymnasiums_checker(name: str) -> None:
    env = make(name)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # Without a display the human window cannot open: the rgb_array picture is checked below instead.
            check_env(env.unwrapped, skip_render_check=not DISPLAY)
    finally:
        env.close()
    assert [str(w.message) for w in caught] == []  # not even the checker's advice
    assert env.spec is not None and env.spec.max_episode_steps == 500


def test_the_names_the_issue_asks_for_are_registered() -> None:
    for name in ("Faraday", "Coulomb", "Dune", "DiceMikado", "Flickers"):
        assert env_id(name) in gymnasium.registry


def test_rgb_array_is_a_picture_of_the_world_without_a_display() -> None:
    env = make("Faraday", render_mode="rgb_array")
    try:
        env.reset(seed=0)
        env_render_passive_checker(env.unwrapped)
        picture = env.render()
    finally:
        env.close()
    assert picture.shape == (360, 480, 3) and picture.dtype == np.uint8
    assert picture.std() > 10  # the plate and dice on the table, not a blank frame


@pytest.mark.skipif(not DISPLAY, reason="no display: the human render mode opens a window")
def test_human_mode_opens_the_window() -> None:
    pytest.importorskip("pyglet", reason="the window needs the view extra")
    env = make("DiceMikado", render_mode="human")
    try:
        env.reset(seed=0)
        assert env.unwrapped.viewer is not None and env.unwrapped.viewer.world is env.unwrapped.world
    finally:
        env.close()


def test_reset_with_a_seed_is_reproducible_and_seeds_differ() -> None:
    env = make("Faraday")
    try:
        first, _ = env.reset(seed=3)
        again, _ = env.reset(seed=3)
        other, _ = env.reset(seed=4)
    finally:
        env.close()
    np.testing.assert_array_equal(first["dice"], again["dice"])
    # The start faces are drawn from the seed: the dice lie turned another way.
    assert not np.allclose(first["dice"][:, 3:], other["dice"][:, 3:])
    assert (first["slot"] == [(3, 3, 2), (3, 2, 3), (2, 3, 3)]).all()  # the three funnels around the centre


def test_a_tilt_costs_its_simulated_seconds_and_the_clock_shows_them() -> None:
    env = make("Faraday")
    try:
        obs, _ = env.reset(seed=1)
        assert obs["time_left"][0] == 60.0 and obs["scores"][0] == 60.0
        gentle = TiltEnv.action(direction=0.0, line_x=0.0, line_y=0.0, angle=2.0, preset=0.0, ramp=0.5, shake=0.0)
        obs, reward, terminated, truncated, info = env.step(gentle)
    finally:
        env.close()
    assert not terminated and not truncated
    assert info["elapsed"] > 1.0  # lift, turn, hold, turn back, set down and settle
    assert reward == pytest.approx(-info["elapsed"])
    assert obs["time_left"][0] == pytest.approx(60.0 - info["elapsed"])
    assert (obs["slot"] == [(3, 3, 2), (3, 2, 3), (2, 3, 3)]).all()  # two degrees move no die
    np.testing.assert_allclose(obs["plate"], [0, 0, 0, 0, 0, 0, 1])  # the plate is back on the table


def test_a_tilt_too_fast_for_a_hand_is_refused_and_nothing_happens() -> None:
    env = make("Faraday")
    try:
        before, _ = env.reset(seed=1)
        jolt = TiltEnv.action(direction=0.0, line_x=-0.15, line_y=0.0, angle=30.0, preset=-30.0, ramp=0.05, shake=0.0)
        after, reward, terminated, _, info = env.step(jolt)
    finally:
        env.close()
    assert info["action"].startswith("refused:") and "a hand moves it at most" in info["action"]
    assert reward == 0.0 and not terminated
    np.testing.assert_array_equal(before["dice"], after["dice"])


def test_parameters_map_the_box_onto_the_hands_ranges() -> None:
    params = {"direction": 90.0, "line_x": 0.01, "line_y": -0.02, "angle": 15.0, "preset": 20.0, "ramp": 0.3}
    action = TiltEnv.action(**params, shake=0.001)
    assert TiltEnv.parameters(action) == pytest.approx({**params, "shake": 0.001})
    assert TiltEnv.parameters(np.full(7, 5.0))["angle"] == 30.0  # beyond the Box: clipped to the range
    with pytest.raises(ValueError, match="every parameter"):
        TiltEnv.action(direction=0.0)


def test_mikado_rewards_are_the_games_count_of_dice_conquered() -> None:
    env = make("DiceMikado", layers=2)  # the top on three base dice
    try:
        obs, info = env.reset(seed=0)
        assert obs["grippable"].tolist() == info["action_mask"].tolist() == [0, 1, 1, 1]  # the top: not to take
        top = env.unwrapped.slots[0]
        obs, reward, terminated, _, info = env.step(0)
        assert info["action"] == f"refused: no die to grip in {top}" and reward == 0 and not terminated
        # The base dice taken one by one until the game ends. What the top does is chaotic, as a nudge of 1e-9 m
        # decides: it falls with the second or the third, or stays wedged on the funnels' cubes (whole physics too).
        rewards = []
        for slot in (1, 2, 3):
            obs, reward, terminated, _, info = env.step(slot)
            rewards.append(reward)
            assert info["action_mask"][slot] == 0 and obs["status"][slot] == 0  # that die is out of play
            if terminated:
                break
    finally:
        env.close()
    assert terminated
    if "the top fell" in info["turn"]:
        # Each die taken earns 1, but the one whose lifting made the top fall (the game's rule).
        assert len(rewards) in (2, 3) and rewards == [1.0] * (len(rewards) - 1) + [0.0]
        assert tuple(obs["slot"][0]) != top  # the top left its slot
    else:
        assert "nothing left to grip: 3 dice conquered" in info["turn"] and rewards == [1.0, 1.0, 1.0]
    assert sum(rewards) == info["scores"][0] == obs["scores"][0]


@pytest.mark.parametrize("shape", ["box", "hull"])
def test_flickers_rewards_the_dice_the_player_has_on_the_plate(shape: str) -> None:
    # Which flick lands is chaotic (the die meets the plate's rim): over 12 aims near the programmed flicker's
    # (5 to 9 mN s, 20 to 35 degrees up, a little to the right) some land and some do not, on both dice
    # (measured: the box 4 of 12, the rounded hull 3), and each earns what the world says it has on the plate.
    physics = Physics(**COMPARED_DICE[shape])
    landed = 0
    for elevation in (20.0, 25.0, 30.0, 35.0):
        for impulse in (0.005, 0.007, 0.009):
            env = make("Flickers", rounds=2, physics=physics)
            try:
                obs, _ = env.reset(seed=2)
                assert obs["dice"].shape == (10, 7) and obs["on_plate"].sum() == 0
                aim = FlickersEnv.action(azimuth=-9.0, impulse=impulse, elevation=elevation, height=0.0)
                obs, reward, terminated, _, info = env.step(aim)
                assert reward == obs["on_plate"][0] and not terminated  # 1 for seat 0's die on the plate
                assert info["scores"][0] == obs["on_plate"][:5].sum() == reward
                if reward:
                    assert info["landed"] < PLATE_REACH  # it came to rest on the plate, inside its corners' reach
                landed, total = landed + int(reward), reward
                # The next die to flick: the first of seat 0's not on the plate (the one that missed, gone back).
                die = int(np.flatnonzero(obs["on_plate"][:5] == 0)[0])
                lay = obs["dice"][die, :2].copy()
                still = FlickersEnv.action(azimuth=0.0, impulse=0.0, elevation=0, height=0)
                obs, reward, terminated, _, info = env.step(still)
                total += reward
                # Not flicked at all, the die came to rest where it lay, 4 to 5 cm beyond the plate's side.
                assert info["landed"] == pytest.approx(float(np.linalg.norm(lay)), abs=0.05 * EDGE)
                assert SLAB_INRADIUS * EDGE + 0.035 < info["landed"] < SLAB_INRADIUS * EDGE + 0.055
                assert terminated and "result" in info  # two rounds played: the game's verdict
                assert total == info["scores"][0] == obs["scores"][0] == obs["on_plate"][:5].sum()
            finally:
                env.close()
    assert 2 <= landed <= 10, landed


def test_the_default_install_names_the_extra_when_gymnasium_is_missing() -> None:
    code = "import sys; sys.modules['gymnasium'] = None; import pyramid.gymnasium"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "LookupError: gymnasium is not installed; install the gymnasium extra: pip install -e '.[gymnasium]'"
    )


def test_a_bad_game_option_is_refused_when_the_environment_is_made() -> None:
    for rounds in (-1, 0, 10**9):
        with pytest.raises(ValueError, match=r"option rounds of Flickers: expected a whole number from 1 to 100, got"):
            FlickersEnv(rounds=rounds)


@pytest.mark.slow
def test_the_training_example_learns_to_flick_dice_onto_the_plate_where_random_actions_do_not(tmp_path: Any) -> None:
    """examples/train_flickers.py: the cross-entropy method's policy, last 3 generations, against random actions."""
    out = tmp_path / "curve.png"
    args = ["--generations", "12", "--population", "8", "--out", str(out)]
    script = Path(__file__).parents[1] / "examples" / "train_flickers.py"
    run = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, check=True, timeout=1800)
    line = next(line for line in run.stdout.splitlines() if line.startswith("the last 3 generations"))
    learnt, random = (float(part.split()[0]) for part in line.split(": ")[1:])
    assert learnt >= random + 1.0, run.stdout  # at least a die more on the plate than random play, on average
    assert out.stat().st_size > 0 or "matplotlib is not installed" in run.stdout


def test_async_vector_environments_step_each_world_as_one_environment_alone_would() -> None:
    # gymnasium.make_vec in async mode: each environment in its own process, seeded seed, seed + 1, ...
    # Each must leave exactly the world one environment alone leaves with that seed and those actions
    # (same machine: bit for bit); and the two must differ, or the seeds were not passed on.
    name, seed, steps = "Dune", 5, 2
    envs = gymnasium.make_vec(env_id(name), num_envs=2, vectorization_mode="async")
    try:
        envs.action_space.seed(seed)
        actions = [envs.action_space.sample() for _ in range(steps)]
        observation, _ = envs.reset(seed=seed)
        for action in actions:
            observation, reward, terminated, truncated, _ = envs.step(action)
    finally:
        envs.close()
    for k in range(2):
        alone = make(name)
        try:
            single, _ = alone.reset(seed=seed + k)
            for action in actions:
                single, single_reward, *_ = alone.step(action[k])
        finally:
            alone.close()
        for key, value in single.items():
            np.testing.assert_array_equal(observation[key][k], value, err_msg=f"{key} of environment {k}")
        assert reward[k] == single_reward
    assert not np.array_equal(observation["dice"][0], observation["dice"][1])
