"""The race games on hand-made states: who is fastest, what may be grabbed or placed, and the end."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer, Player, RandomPlayer
from pyramid.games.races import GreedyGrabber, Lookout, Reflexes, SpottedCow
from pyramid.play import Match
from pyramid.rules import Game, Pass, Place, Remove, Termination
from pyramid.state import Cell, PyramidState


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def greedy_share(game_cls: type[Game], seeds: int, **options: str) -> float:
    """Share of wins (split on ties) of one greedy player in seat 0 against random players."""
    wins = 0.0
    for seed in range(seeds):
        game = game_cls(None, rng=np.random.default_rng([seed, 1]), **options)
        seats: list[Player] = [GreedyPlayer(np.random.default_rng([seed, 2]))]
        seats += [RandomPlayer(np.random.default_rng([seed, 3, n])) for n in range(game.players - 1)]
        outcome = Match(game, seats).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    return wins / seeds


def test_reflexes_from_options_and_drawn() -> None:
    game = GreedyGrabber(3, rng=rng(), speeds="0.2,0.4,0.6", spread="0.1")
    assert game.reflexes == Reflexes((0.2, 0.4, 0.6), 0.1)
    drawn = GreedyGrabber(3, rng=rng()).reflexes
    assert all(0.35 <= m <= 0.75 for m in drawn.means) and drawn == GreedyGrabber(3, rng=rng()).reflexes
    with pytest.raises(ValueError, match="speeds"):
        GreedyGrabber(3, rng=rng(), speeds="0.2,0.4")
    fast = Reflexes((0.1, 5.0), 0.01)
    assert {fast.fastest(rng(), [0, 1])[0] for _ in range(20)} == {0}


# --- Greedy Grabber (43) -------------------------------------------------------------------------


def test_greedy_grabber_the_fastest_grabs_what_shows_on_their_side_until_the_pyramid_is_gone() -> None:
    game = GreedyGrabber(3, rng=rng(), speeds="5,0.1,5", spread="0.01")
    # A 4-die pyramid, every die showing 1, 2, 3 along +i, +j, +k: a 2 faces player 1.
    game.observe(PyramidState.from_notation("K123/R123R123,G123"))
    game.number, game.roller = 2, 0
    assert game.grabbable(1) == [(0, 0, 0)] and game.grabbable(0) == [] and game.grabbable(2) == []
    assert game._race() and game.to_move == 1
    assert game.legal_actions() == [Remove((0, 0, 0))]
    game.apply(Remove((0, 0, 0)))
    assert game.to_move == 1 and len(game.legal_actions()) == 3  # the three dice below are free now
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.PYRAMID_CLEARED
    assert game.outcome.scores == (0.0, 4.0, 0.0) and game.outcome.winners == (1,)


def test_greedy_grabber_a_fast_roller_calls_stop() -> None:
    game = GreedyGrabber(3, rng=rng(), speeds="0.1,5,5", spread="0.01")
    game.observe(PyramidState.from_notation("K123/R123R123,G123"))
    game.number, game.roller, game.to_move = 3, 0, 0
    assert game._race() and game.to_move == 0
    assert game.legal_actions() == [Pass()]  # nothing shows a 3 on player 0's side: only "Stop!"
    game.apply(Pass())
    stop = game.events.index("player 0 calls Stop!")
    assert game.events[stop + 1] == "player 1 rolls 5"  # the die passes on (5 shows nowhere: on to player 2)


def test_greedy_grabber_greedy_beats_random_at_equal_speed() -> None:
    assert greedy_share(GreedyGrabber, 10, speeds="0.5,0.5,0.5") >= 0.7


def test_greedy_grabber_greedy_beats_random_with_drawn_speeds() -> None:
    # A random seat wins 1/3; the drawn speeds still decide most games.
    assert greedy_share(GreedyGrabber, 60) >= 0.44


def test_greedy_grabber_greedy_roller_grabs_rather_than_stops() -> None:
    game = GreedyGrabber(3, rng=rng(), speeds="0.1,5,5", spread="0.01")
    game.observe(PyramidState.from_notation("K123/R123R123,G123"))
    game.number, game.roller, game.to_move = 1, 0, 0
    game._race()
    legal = game.legal_actions()
    assert legal == [Remove((0, 0, 0)), Pass()]
    assert GreedyPlayer(rng()).choose(game, legal) == Remove((0, 0, 0))


# --- Lookout (33) --------------------------------------------------------------------------------


def test_lookout_buildable_dice() -> None:
    game = Lookout(3, rng=rng())
    thrown = [4, 4, 2, 6, 6, 1]
    assert game.buildable(thrown, target=4, golden=6, left=55) == 4  # not holding the golden die
    assert game.buildable(thrown, target=4, golden=None, left=55) == 2  # the holder: own number only
    assert game.buildable(thrown, target=4, golden=6, left=1) == 1


def test_lookout_placements_come_in_time_order_and_stop_with_the_holder() -> None:
    game = Lookout(3, rng=rng(), speeds="0.3,5,5", spread="0.01")
    times = [t for t, _ in game.queue]
    assert times == sorted(times) and game.to_move == game.queue[0][1]
    stop = next(e for e in reversed(game.events) if "calls Stop!" in e)
    assert all(t <= float(stop.split(" at ")[1].split()[0]) + 1e-9 for t in times)
    if game.holder == 0:  # the fast holder is done before the slow players have built anything
        assert {p for _, p in game.queue} == {0}


def test_lookout_the_fastest_player_wins() -> None:
    wins = 0
    for seed in range(4):
        game = Lookout(3, rng=np.random.default_rng(seed), speeds="0.3,0.6,0.6")
        outcome = Match(game, [RandomPlayer(np.random.default_rng([seed, n])) for n in range(3)]).run()
        wins += outcome.winners == (0,)
    assert wins >= 3


@pytest.mark.parametrize("players", [2, 3])
def test_lookout_placement_changes_nothing_greedy_and_random_play_the_same_game(players: int) -> None:
    for seed in range(3):
        outcomes = []
        for kind in (GreedyPlayer, RandomPlayer):
            game = Lookout(players, rng=np.random.default_rng([seed, 1]))
            seats = [kind(np.random.default_rng([seed, 2]))]
            seats += [RandomPlayer(np.random.default_rng([seed, 3, n])) for n in range(players - 1)]
            outcomes.append((Match(game, seats).run(), len(game.history)))
        assert outcomes[0] == outcomes[1]
    assert "Strategy: none" in (Lookout.__doc__ or "")


def test_lookout_ends_when_a_player_has_placed_all() -> None:
    game = Lookout(2, rng=rng())
    player = game.to_move
    game.left[player] = 1
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.ALL_PLACED
    assert game.outcome.winners == (player,)


# --- Spotted Cow (18) ----------------------------------------------------------------------------


def showing(axis: int, value: int) -> tuple[int, int, int]:
    """The first orientation that shows ``value`` along cube axis ``axis``."""
    return next(u for u in geometry.ALL_UP_FACES if u[axis] == value)


def cow(total: int) -> SpottedCow:
    """Two players, player 0 fastest; the only funnel, (7,0,0), shows 6 + 2 + 1 = 9; the master rolled ``total``."""
    game = SpottedCow(2, rng=rng())
    game.to_move, game.total = 0, total
    slots = [(8, 0, 0), (7, 1, 0), (7, 0, 1)]
    game.observe(
        PyramidState({s: Cell("black", showing(a, v)) for a, (s, v) in enumerate(zip(slots, (6, 2, 1), strict=True))})
    )
    return game


def test_spotted_cow_starts_on_a_full_base_and_places_in_a_fitting_funnel() -> None:
    assert len(SpottedCow(3, rng=rng()).state) == 45
    game = cow(9)
    assert game.fitting() == [(7, 0, 0)]
    assert game.legal_actions() == [Place((7, 0, 0), "red"), Pass()]
    game.apply(Place((7, 0, 0), "red"))
    assert game.left == [59, 60] and "the master rolls" in game.events[-1]


def test_spotted_cow_a_right_blank_places_anywhere() -> None:
    game = cow(10)
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.blank and game.to_move == 0 and len(game.legal_actions()) == 43  # 42 base funnels + (7,0,0)
    game.apply(Place((0, 0, 8), "red"))
    assert game.left == [59, 60] and not game.blank


def test_spotted_cow_a_wrong_blank_costs_a_die_from_each_other_player() -> None:
    game = cow(9)
    game.apply(Pass())
    assert game.left == [61, 59] and game.scores() == (-1.0, 1.0) and "wrong" in game.events[-2]


def test_spotted_cow_greedy_beats_random_at_equal_speed() -> None:
    assert greedy_share(SpottedCow, 6, speeds="0.5,0.5") >= 0.8
