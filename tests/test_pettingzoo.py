"""PettingZoo's own API test over the multi-player games; the action mask holds exactly the legal actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed: pip install -e '.[pettingzoo]'")

from pettingzoo.test import api_test  # noqa: E402

from pyramid.pettingzoo import TURN_BASED, env, game_class, raw_env  # noqa: E402

MULTI = sorted(g.info.key for g in TURN_BASED if max(g.info.players[:8]) > 1)


@pytest.mark.parametrize("name", ["pyramid_27"])
def test_api(name: str) -> None:
    api_test(env(name), num_cycles=200)


@pytest.mark.slow
@pytest.mark.parametrize("name", MULTI)
def test_api_every_multiplayer_game(name: str) -> None:
    api_test(env(name), num_cycles=300)


def test_mask_is_the_legal_actions_and_play_ends_with_shared_win() -> None:
    game = raw_env("pyramid_27")
    game.reset(seed=3)
    rng = np.random.default_rng(0)
    while not all(game.terminations.values()):
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        others = [a for a in game.agents if a != agent]
        assert mask.sum() == len(game.game.legal_actions())
        assert all(game.observe(a)["action_mask"].sum() == 0 for a in others)
        game.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(game.rewards.values()) == pytest.approx(1.0)


def test_reset_with_a_seed_repeats_the_game() -> None:
    first, second = raw_env("decathlon"), raw_env("decathlon")
    first.reset(seed=5)
    second.reset(seed=5)
    assert (first.observe("player_0")["observation"] == second.observe("player_0")["observation"]).all()
    assert first.game.answers == second.game.answers  # type: ignore[attr-defined]


def test_physical_games_are_refused() -> None:
    with pytest.raises(LookupError, match="physically"):
        game_class("pyramid_6")
