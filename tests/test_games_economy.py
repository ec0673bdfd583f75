"""Acquire, Ruins, the Green Amoeba and Up and Down: their rules on hand-made states, and greedy's margin."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid.agents.players import GreedyPlayer, Player, RandomPlayer
from pyramid.games.economy import Acquire, GreenAmoeba, Ruins, UpAndDown, acquire_transfers, amoeba_connected
from pyramid.play import Match
from pyramid.rules import Pass, Place, Remove, Termination
from pyramid.state import PyramidState

OWNER = {"red": 0, "green": 1, "black": 2}


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def lower(layer7: str, layer8: str) -> PyramidState:
    """A state in the notation with only the two bottom layers given (rows of constant i, i = 0 first)."""
    upper = [",".join("." * (n - i + 1) for i in range(n + 1)) for n in range(7)]
    return PyramidState.from_notation("/".join([*upper, layer7, layer8]))


EMPTY7 = ",".join("." * (8 - i) for i in range(8))
# The corner of plate corner a: row i = 7 holds (7,0,1) and (7,1,0), row i = 8 holds (8,0,0).
CORNER_A = ",".join("." * (9 - i) for i in range(7)) + ",{},{}"


@pytest.mark.parametrize(
    ("funnel", "expected"),
    [
        (["red"] * 3, [(0, 1, 4), (0, 2, 4)]),  # a
        (["red", "green", "red"], [(0, 1, 4)]),  # b
        (["red", "green", "black"], [(0, 1, 1), (0, 2, 1)]),  # c
        (["black", "red", "black"], [(0, 2, 2)]),  # d
        (["green"] * 3, [(1, 0, 8)]),  # e
        (["black", "green", "black"], [(2, 0, 4), (1, 0, 2)]),  # f
    ],
)
def test_acquire_table(funnel: list[str], expected: list[tuple[int, int, int]]) -> None:
    assert acquire_transfers(funnel, 0, OWNER, [1, 2]) == expected


def test_acquire_builds_layer_by_layer_and_cashes_in() -> None:
    game = Acquire(3, rng=rng())
    game.observe(lower(EMPTY7, CORNER_A.format("KK", "K")))
    assert all(a.slot[0] + a.slot[1] + a.slot[2] == 8 for a in game.legal_actions() if isinstance(a, Place))
    full_base = ",".join("K" * (9 - i) for i in range(9))
    game.observe(lower(EMPTY7, full_base))
    game.apply(Place((7, 0, 0), "red"))  # three black dice: (e) get 8 from black
    assert game.hand == [62, 55, 47]
    assert game.scores() == (62.0, 55.0, 47.0)


def test_acquire_short_payer_goes_broke_and_the_last_player_wins() -> None:
    game = Acquire(3, rng=rng())
    game.observe(lower(EMPTY7, ",".join("R" * (9 - i) for i in range(9))))
    game.hand = [3, 1, 2]
    game.apply(Place((7, 0, 0), "red"))  # (a): pay 4 to each other player with 2 dice left
    assert game.broke == [True, False, False] and game.hand == [0, 3, 2]
    assert game.to_move == 1 and not game.is_over
    game.hand[2] = 0
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.PLAYERS_OUT
    assert game.outcome.winners == (1,) and game.outcome.scores[0] == -1.0


def test_ruins_fill_rules() -> None:
    game = Ruins(3, rng=rng())
    assert game.filler(["red", "green", "red"], 2) == 0
    assert game.filler(["red", "green", "black"], 2) == 2
    assert game.filler(["black"] * 3, 1) is None
    assert "House rule" in (Ruins.__doc__ or "") and Ruins.house_rules


def test_ruins_adjacent_placement_fill_and_ruin() -> None:
    game = Ruins(3, rng=rng())
    game.observe(lower(EMPTY7, CORNER_A.format("RG", ".")))
    legal = game.legal_actions()
    assert Place((8, 0, 0), "red") in legal and Place((0, 0, 8), "red") not in legal
    game.apply(Place((8, 0, 0), "red"))  # funnel (7,0,0) sees red, green, red: red fills
    assert game.filling == (7, 0, 0) and game.legal_actions() == [Place((7, 0, 0), "red")]
    game.apply(Place((7, 0, 0), "red"))
    assert game.to_move == 1 and game.used == [2, 0, 0]
    ruin = Ruins(3, rng=rng())
    ruin.observe(lower(EMPTY7, CORNER_A.format("RR", ".")))
    ruin.apply(Place((8, 0, 0), "red"))  # three red dice: a ruin, nobody fills
    assert ruin.filling is None and ruin.to_move == 1
    assert (7, 0, 0) in ruin.ruins and (7, 0, 0) not in ruin.state


def test_ruins_ends_when_a_player_has_used_all_dice() -> None:
    game = Ruins(3, rng=rng())
    game.used = [54, 3, 3]
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.ALL_PLACED
    assert game.outcome.winners == (0,)


def test_amoeba_starts_central_and_stays_connected() -> None:
    game = GreenAmoeba(3, rng=rng())
    assert game.scores() == (4.0, 4.0, 4.0)
    assert 1 <= game.steps <= 6
    lift = game.legal_actions()[0]
    assert isinstance(lift, Remove)
    game.apply(lift)
    for put in game.legal_actions():
        assert isinstance(put, Place) and amoeba_connected(game.amoeba() - {lift.slot} | {put.slot})


def test_amoeba_every_rolled_step_is_made_unless_the_option_upto_lets_a_player_stop() -> None:
    forced = GreenAmoeba(3, rng=rng())
    assert Pass() not in forced.legal_actions()
    game = GreenAmoeba(3, rng=rng(), upto="yes")
    game.steps = 3
    lift = next(a for a in game.legal_actions() if isinstance(a, Remove))
    game.apply(lift)
    assert Pass() not in game.legal_actions()  # a lifted die must be put down
    game.apply(game.legal_actions()[0])
    assert game.to_move == 0 and game.steps == 2 and Pass() in game.legal_actions()
    game.apply(Pass())  # two steps left unused
    assert game.to_move == 1 and game.lifted is None and game.outcome is None


def test_amoeba_arriving_in_a_corner_wins_for_its_owner() -> None:
    game = GreenAmoeba(3, rng=rng())
    # Six dice next to corner a: (7,0,1) (7,1,0) in row 7, (6,0,2) (6,1,1) (6,2,0) in row 6, (5,2,1) in row 5.
    rows = ["." * (9 - i) for i in range(9)]
    rows[5], rows[6], rows[7] = "..G.", "GGG", "GG"
    game.observe(lower(EMPTY7, ",".join(rows)))
    game.to_move = 1  # player 1 moves it there, player 0 wins
    assert game.scores()[0] == 7.0
    game.apply(Remove((7, 1, 0)))
    assert Place((8, 0, 0), "green") in game.legal_actions()
    game.apply(Place((8, 0, 0), "green"))
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,)


def test_up_and_down_scores_faces_plus_dice_taken() -> None:
    game = UpAndDown(3, rng=rng())
    game.observe(PyramidState.from_notation("R/GK,K"))
    game.taken = [0, 2, 1]
    assert game.scores() == (3.0, 4.0, 5.0)
    assert UpAndDown.house_rules and "HOUSE RULE" in (UpAndDown.__doc__ or "")


def test_up_and_down_down_roll_takes_other_colours() -> None:
    game = UpAndDown(3, rng=rng())
    game.observe(lower(EMPTY7, CORNER_A.format("RG", "K")))
    game.up, game.left, game.to_move = False, 2, 0
    assert sorted(game.legal_actions(), key=str) == [Remove((7, 1, 0)), Remove((8, 0, 0))]
    game.apply(Remove((8, 0, 0)))
    assert game.taken == [1, 0, 0] and game.stock("black") == 90


def greedy_share(cls: type, seeds: int) -> float:
    wins = 0.0
    for seed in range(seeds):
        game = cls(None, rng=np.random.default_rng([seed, 1]))
        players: list[Player] = [GreedyPlayer(np.random.default_rng([seed, 2]))]
        players += [RandomPlayer(np.random.default_rng([seed, 3, n])) for n in range(game.players - 1)]
        outcome = Match(game, players).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    return wins / seeds


@pytest.mark.parametrize(("cls", "seeds", "at_least"), [(Acquire, 20, 0.8), (GreenAmoeba, 10, 0.7), (Ruins, 6, 0.6)])
def test_greedy_beats_random(cls: type, seeds: int, at_least: float) -> None:
    # A random seat wins a third of the games.
    assert greedy_share(cls, seeds) >= at_least


def test_amoeba_steps_in_the_physical_world() -> None:
    from pyramid.physics.world import World

    world = World()
    game = GreenAmoeba(3, rng=np.random.default_rng(2))
    players = [RandomPlayer(np.random.default_rng(n)) for n in range(3)]
    match = Match(game, players, world=world, rng=np.random.default_rng(9))
    for _ in range(4):  # two steps: lift, put, lift, put
        match.step()
    assert game.state == world.readout(require_rest=False).pyramid
    assert len(game.history) == 4 and all(c.colour == "green" for c in game.state.values())
    world.close()
