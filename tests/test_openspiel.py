"""OpenSpiel's own random simulation test over the registered games; chance nodes carry the true distribution."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed: pip install -e '.[openspiel]'")

from pyramid.encoding import action_ids  # noqa: E402
from pyramid.openspiel import GAMES, ChanceScript, DrawNeeded, short_name  # noqa: E402
from pyramid.registry import find_game  # noqa: E402
from pyramid.rules import Game, Place  # noqa: E402

QUICK = ["pyramid_27", "pyramid_decathlon"]  # quick ones; every game under slow


@pytest.mark.parametrize("name", QUICK)
def test_random_simulation(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_simulation_every_game(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=False, verbose=False)


def test_names_and_players() -> None:
    assert {"pyramid_30", "pyramid_decathlon", "pyramid_knights", "pyramid_sport_is_murder"} <= set(GAMES)
    assert short_name(find_game("sport is murder")) == "pyramid_sport_is_murder"
    assert pyspiel.load_game("pyramid_30", {"players": 4}).num_players() == 4
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("pyramid_23", {"players": 3})


def test_a_placed_die_lands_in_one_of_24_ways() -> None:
    # Mucho's first roll is the orientation of the die to place: 24 outcomes, 1/24 each.
    state = pyspiel.load_game("pyramid_27").new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(outcomes[5][0])
    assert state.current_player() == 0
    assert all(a.up is not None for a in state.base.legal_actions())


def test_a_table_roll_is_one_chance_node_a_die() -> None:
    state = pyspiel.load_game("pyramid_decathlon").new_initial_state()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.chance_outcomes() == [(f, pytest.approx(1 / 6)) for f in range(6)]
    dice = state.base.chance().dice
    for _ in range(dice):
        assert state.is_chance_node()
        state.apply_action(5)
    assert state.base.answers[-1] == (6,) * dice


def test_chance_script_hands_out_chosen_outcomes_then_asks() -> None:
    script = ChanceScript([2, 0])
    assert script.integers(1, 7) == 3 and list(script.permutation(2)) == [0, 1]
    script = ChanceScript([4])
    assert script.integers(1, 7) == 5
    with pytest.raises(DrawNeeded) as need:
        script.random()
    assert len(need.value.values) == 16 and sum(need.value.probabilities) == pytest.approx(1.0)


def test_place_numbers_are_the_same_in_every_state() -> None:
    game = find_game(30, Game)(2, rng=np.random.default_rng(0))
    first = dict(zip(game.legal_actions(), action_ids(game, game.legal_actions()), strict=True))
    game.apply(game.legal_actions()[0])
    later = dict(zip(game.legal_actions(), action_ids(game, game.legal_actions()), strict=True))
    shared = [a for a in later if isinstance(a, Place) and a in first]
    assert shared and all(first[a] == later[a] for a in shared)
    assert len(set(later.values())) == len(later)


def test_returns_share_the_win() -> None:
    state = pyspiel.load_game("pyramid_27").new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.information_state_string(0).startswith("player 0")
    assert len(state.observation_tensor(0)) == pyspiel.load_game("pyramid_27").observation_tensor_size()


def test_copies_of_a_table_state_stay_apart() -> None:
    # Copies share one table game until one moves on; the other then replays its own record.
    state = pyspiel.load_game("pyramid_decathlon").new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(40):
        outcomes = state.chance_outcomes() if state.is_chance_node() else [(a, 1) for a in state.legal_actions()]
        state.apply_action(int(outcomes[rng.integers(len(outcomes))][0]))
    while state.is_chance_node():
        state.apply_action(0)
    copy, before = state.clone(), str(state)
    first, last = state.legal_actions()[0], state.legal_actions()[-1]
    state.apply_action(first)
    assert str(copy) == before and copy.history() == state.history()[:-1]
    copy.apply_action(last)
    assert copy.base.answers[-1] == last and state.base.answers[-1] == first
    assert copy.information_state_string(0) != state.information_state_string(0)


def dealt(name: str, seed: int) -> Any:
    """A new state of game ``name`` past its set-up's draws, each drawn with the generator from ``seed``."""
    state = pyspiel.load_game(name).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
    return state


def test_slipped_information_states_tell_each_player_only_its_own_slip() -> None:
    from pyramid.games.slides import OBJECTIVES

    state = dealt("pyramid_36", 3)
    game = state.base
    assert game is not None
    for player in (0, 1):
        known = state.information_state_string(player)
        assert f"your slip: {game.objectives[player].text}" in known
        others = [o.text for o in OBJECTIVES if o != game.objectives[player]]
        assert not any(text in known for text in others)  # neither the other slip, nor the deal's draws
        assert "chance" not in known


def test_wolf_information_states_keep_the_chosen_wolf_from_the_shepherd() -> None:
    state = dealt("pyramid_47", 0)
    assert state.current_player() == 1  # the hider chooses first
    hide = next(a for a in state.legal_actions() if "i33" in state.action_to_string(1, a))
    state.apply_action(hide)
    shepherd, hider = state.information_state_string(0), state.information_state_string(1)
    assert "hide the wolf (chosen in secret)" in shepherd and "i33" not in shepherd and "(4, 2, 2)" not in shepherd
    assert "the wolf is i33 (4, 2, 2)" in hider
