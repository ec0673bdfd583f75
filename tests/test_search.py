"""The tree-search player: legal, reproducible, blind to the game's own future draws, reachable by name."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid.agents.players import MctsPlayer, make_player
from pyramid.agents.search import UctSearch, leads, rewards
from pyramid.agents.seats import make_seat
from pyramid.games.jumps import Finish, Race
from pyramid.games.mounds import Diebylon, MoundMover
from pyramid.play import Match, play_game
from pyramid.registry import find_game
from pyramid.rules import Game, Move, Phase
from pyramid.tablegames.base import TableGame


def test_choice_is_legal_and_reproducible() -> None:
    game = find_game(39, Game)(2, rng=np.random.default_rng(0))
    legal = game.legal_actions()
    first = UctSearch(np.random.default_rng(5), 40).choose(game, legal)
    again = UctSearch(np.random.default_rng(5), 40).choose(game, legal)
    assert first in legal and first == again


def test_search_leaves_the_game_and_its_generator_alone() -> None:
    # The simulations draw from the search's generator: the game's future rolls stay unknown and unused.
    game = find_game(10, Game)(3, rng=np.random.default_rng(3))
    state, history, drawn = game.state, list(game.history), game.rng.bit_generator.state
    UctSearch(np.random.default_rng(1), 30).choose(game, game.legal_actions())
    assert game.state == state and game.history == history
    assert game.rng.bit_generator.state == drawn


def test_table_game_rolls_are_sampled_in_the_tree() -> None:
    game = find_game("decathlon", TableGame)(1, rng=np.random.default_rng(2))
    while game.phase() is Phase.CHANCE:
        game.apply(UctSearch(np.random.default_rng(0), 1).sample_roll(game))
    legal = game.legal_actions()
    assert UctSearch(np.random.default_rng(4), 20).choose(game, legal) in legal


def test_rewards_share_the_win_and_read_the_lead() -> None:
    game = play_game(find_game(27), ["greedy", "random", "random"], 0, fast=True)
    assert game.outcome is not None
    won = rewards(game, np.zeros(3), 1.0)
    assert won.sum() == pytest.approx(1.0) and all(won[p] > 0 for p in game.outcome.winners)
    fresh = find_game(27, Game)(3, rng=np.random.default_rng(0))
    level = rewards(fresh, np.array([fresh.advantage(p) for p in range(3)]), 1.0)
    assert level == pytest.approx(np.full(3, 0.5))


def test_mcts_by_name_with_a_budget() -> None:
    rng = np.random.default_rng(0)
    player = make_player("mcts:30", rng)
    assert isinstance(player, MctsPlayer) and player.search.iterations == 30
    assert make_player("mcts", rng).search.iterations == 200  # type: ignore[attr-defined]
    for bad in ("mcts:0", "mcts:x", "mcts:"):
        with pytest.raises(ValueError, match="budget"):
            make_player(bad, rng)
    seat = make_seat("mcts:7", rng, find_game("knights"))
    assert isinstance(seat, MctsPlayer) and seat.search.iterations == 7


def test_mcts_beats_random() -> None:
    # Mucho (no. 27) against two random players: a random seat wins a third of the games.
    wins = 0.0
    for seed in range(6):
        game = find_game(27, Game)(3, rng=np.random.default_rng([seed, 1]))
        players = [MctsPlayer(np.random.default_rng([seed, 2]), 12)] + [
            make_player("random", np.random.default_rng([seed, 3, n])) for n in range(2)
        ]
        outcome = Match(game, players).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    assert wins >= 4


def test_the_search_values_a_race_by_its_progress_not_only_by_dice_arrived() -> None:
    game = Finish(3, rng=np.random.default_rng(0))
    before = leads(game)
    forward = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    game.apply(forward)  # red jumps towards its line: no die has arrived, the scores are all 0
    assert game.scores() == (0.0, 0.0, 0.0) and game.advantage(0) == 0.0
    ahead = leads(game)
    assert ahead[0] > before[0], "the jump shows in the search's leads"
    assert list(ahead[1:]) == list(before[1:]), "a race of three: each counts its own progress"
    assert list(ahead) == [game.standing(p) for p in range(3)]


def test_the_search_values_race_by_the_movers_own_progress() -> None:
    game = Race(3, rng=np.random.default_rng(0))
    for _ in range(3):  # a round: each enters a die at the start line
        game.apply(max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0))
    before = [game.standing(p) for p in range(3)]
    jump = max((a for a in game.legal_actions() if isinstance(a, Move)), key=lambda a: game.heuristic(a) or 0.0)
    game.apply(jump)  # red's die jumps away from the start line, nowhere near the finish area
    assert game.scores() == (0.0, 0.0, 0.0)
    assert game.standing(0) > before[0] and [game.standing(p) for p in (1, 2)] == before[1:]
    assert list(leads(game)) == [game.standing(p) for p in range(3)]


@pytest.mark.parametrize("game_cls", [MoundMover, Diebylon])
def test_the_search_values_a_corner_race_by_its_progress(game_cls: type[MoundMover] | type[Diebylon]) -> None:
    game = game_cls(3, rng=np.random.default_rng(0))
    if isinstance(game, Diebylon):
        game.rolled = 4  # a start off the corner pyramid needs a 4 or a 6
    before = [game.standing(p) for p in range(3)]
    forward = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    game.apply(forward)
    assert game.scores()[0] == 0.0 and game.advantage(0) <= 0.0, "no die of red's has arrived"
    assert game.standing(0) > before[0], "red's die nearer its target shows in its standing"
    assert [game.standing(p) for p in (1, 2)] == before[1:]
    assert list(leads(game)) == [game.standing(p) for p in range(3)]


def test_the_search_starts_from_the_games_foresight() -> None:
    # by default the heuristic; Diebylon adds the chance the mover's next roll fills a slot after the move
    race = Race(3, rng=np.random.default_rng(1))
    search = UctSearch(np.random.default_rng(0), 10)
    legal = race.legal_actions()
    assert search.prior(race, legal) == [race.heuristic(a) for a in legal]
    game = Diebylon(3, rng=np.random.default_rng(2))
    greedy = [make_player("greedy", np.random.default_rng(p)) for p in range(3)]
    raised = 0
    for _ in range(120):
        legal = game.legal_actions()
        prior = search.prior(game, legal)
        for action, value in zip(legal, prior, strict=True):
            chance = game.fill_chance(game.to_move, game.after_state(action)) if isinstance(action, Move) else 0.0
            assert value == pytest.approx((game.heuristic(action) or 0.0) + Diebylon.FILL_WEIGHT * chance)
            raised += chance > 0
        game.apply(greedy[game.to_move].choose(game, legal))
    assert raised > 0, "some move leaves a die where a number fills a slot"


def test_a_prior_temperature_keeps_a_fine_difference_of_value_where_a_fill_gains_far_more() -> None:
    # Diebylon weighs each action by e ** (value - best): a step that leaves one more number filling a slot
    # keeps a clearly larger bias than a step that does not, though a fill outvalues both by some 10
    class Linear(Diebylon):
        prior_temperature = None

    assert Diebylon.prior_temperature == 1.0
    game = Diebylon(3, rng=np.random.default_rng(2))
    greedy = [make_player("greedy", np.random.default_rng(p)) for p in range(3)]
    search = UctSearch(np.random.default_rng(0), 10)
    found = squashed = 0
    for _ in range(400):
        legal = game.legal_actions()
        values = dict(zip(legal, search.prior(game, legal), strict=True))
        me, arrived = game.to_move, game.arrived(game.to_move)
        steps = [a for a in legal if isinstance(a, Move) and game.arrived(me, game.after_state(a)) == arrived]
        fills = [a for a in legal if isinstance(a, Move) and game.arrived(me, game.after_state(a)) > arrived]
        if fills and len({values[a] for a in steps}) > 1:
            sharp = search.root(game, legal).bias
            linear = search.root(_as(Linear, game), legal).bias
            best, worst = max(values.values()), min(values.values())
            for a in legal:
                assert sharp[a] == pytest.approx(np.exp(values[a] - best))
                assert linear[a] == pytest.approx((values[a] - worst) / (best - worst))
            better, worse = max(steps, key=values.__getitem__), min(steps, key=values.__getitem__)
            squashed += linear[better] - linear[worse] < 0.1 and sharp[better] / sharp[worse] > 2.0
            found += 1
        game.apply(greedy[me].choose(game, legal))
        if game.outcome is not None or (found >= 3 and squashed):
            break
    assert found >= 3, "decisions with a fill and steps of different worth"
    assert squashed >= 1, "the linear scaling squashes a step's clear advantage under a fill's"


def _as(cls: type[Diebylon], game: Diebylon) -> Diebylon:
    """``game`` as an instance of ``cls`` (a subclass differing in class settings only)."""
    twin = game.clone()
    twin.__class__ = cls
    return twin
