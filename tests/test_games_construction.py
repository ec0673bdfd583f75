"""Scoring and end of the construction games on hand-made states."""

from __future__ import annotations

import numpy as np

from pyramid import geometry
from pyramid.games.construction import FireAndWater, ForbiddenNumber, MostSimpleGame, Mucho, Rasanto, SummitStorm
from pyramid.rules import Place, Remove, Termination
from pyramid.state import Cell, PyramidState


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_most_simple_game_counts_outer_faces_from_the_notation() -> None:
    game = MostSimpleGame(3, rng=rng())
    # Apex red (3 faces), (0,0,1) green and (0,1,0) black (2 each, the third covered), (1,0,0) black.
    game.observe(PyramidState.from_notation("R/GK,K"))
    assert game.scores() == (3.0, 2.0, 4.0)


def test_most_simple_game_ends_on_the_complete_pyramid() -> None:
    game = MostSimpleGame(3, rng=rng())
    full = PyramidState.full("green").without((0, 0, 0))
    game.observe(full)
    game.left = 1
    game.apply(Place((0, 0, 0), "red"))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.PYRAMID_COMPLETE
    assert game.outcome.scores == (3.0, 132.0, 0.0)
    assert game.outcome.winners == (1,)


def test_most_simple_game_a_colour_has_ninety_dice() -> None:
    game = MostSimpleGame(3, rng=rng())
    lowest_first = sorted(geometry.SLOTS, key=geometry.layer, reverse=True)
    game.observe(PyramidState({s: Cell("red") for s in lowest_first[:89]}))
    game.to_move, game.left = 0, 3
    game.apply(Place(lowest_first[89], "red"))  # red's 90th die: the turn ends though the roll allowed 3
    assert game.to_move == 1 and game.stock("red") == 0
    game.left = 1
    game.apply(game.legal_actions()[0])  # green's turn ends
    game.left = 1
    game.apply(game.legal_actions()[0])  # black's turn ends: red, with no dice left, is passed by
    assert game.to_move == 1 and game.outcome is None


def test_forbidden_number_removes_the_free_dice_of_the_roller() -> None:
    game = ForbiddenNumber(3, rng=rng(), forbidden=4)
    assert game.forbidden == 4
    game.observe(PyramidState({(8, 0, 0): Cell("red"), (7, 1, 0): Cell("red"), (6, 2, 0): Cell("green")}))
    game.roll = lambda sides=6: 4  # type: ignore[method-assign]
    game._start_turn(0)
    assert sorted(game.legal_actions(), key=str) == [Remove((7, 1, 0)), Remove((8, 0, 0))]
    game.apply(Remove((8, 0, 0)))
    assert game.legal_actions() == [Remove((7, 1, 0))]


def test_summit_storm_fillers() -> None:
    game = SummitStorm(3, rng=rng())
    assert game.filler(["red", "red", "green"]) == 0
    assert game.filler(["black", "green", "black"]) == 2
    assert game.filler(["green", "green", "green"]) == 2  # left of green's player
    assert game.filler(["black"] * 3) == 0
    assert game.filler(["red", "green", "black"]) in (0, 1, 2)
    assert "roll-off" in game.events[-1]


def test_summit_storm_fills_the_new_funnel_then_passes_the_turn() -> None:
    game = SummitStorm(3, rng=rng())
    game.observe(PyramidState({(8, 0, 0): Cell("red"), (7, 1, 0): Cell("red")}))
    game.apply(Place((7, 0, 1), "red"))
    assert game.to_move == 1
    assert game.legal_actions() == [Place((7, 0, 0), "green")]
    game.apply(Place((7, 0, 0), "green"))
    assert game.to_move == 1 and game.filling is None
    assert all(geometry.layer(a.slot) == 8 for a in game.legal_actions() if isinstance(a, Place))


def test_rasanto_three_of_a_colour_goes_to_the_opponent() -> None:
    game = Rasanto(2, rng=rng())
    assert game.filler(["red"] * 3) == 1
    assert game.filler(["green", "red", "green"]) == 1
    assert "House rule" in (Rasanto.__doc__ or "") and Rasanto.house_rules


def test_rasanto_places_next_to_your_own_dice_and_the_variant_anywhere() -> None:
    start = PyramidState({(8, 0, 0): Cell("red"), (4, 2, 2): Cell("green")})
    game = Rasanto(2, rng=rng())
    game.observe(start)
    assert {a.slot for a in game.legal_actions() if isinstance(a, Place)} == {(7, 1, 0), (7, 0, 1)}
    game.to_move = 1
    game.observe(start.without((4, 2, 2)))  # no green die yet: the first one goes anywhere on the base
    assert len(game.legal_actions()) == len(geometry.BASE_SLOTS) - 1
    variant = Rasanto(2, rng=rng(), variant="yes")
    variant.observe(PyramidState({(8, 0, 0): Cell("red"), (7, 1, 0): Cell("red")}))
    assert len(variant.legal_actions()) == len(geometry.BASE_SLOTS) - 2
    variant.apply(Place((7, 0, 1), "red"))  # a funnel of three red dice: not filled while the base has room
    assert variant.filling is None and variant.to_move == 1 and (7, 0, 0) not in variant.state
    full = PyramidState({s: Cell("red" if s[0] >= 7 else "green") for s in geometry.BASE_SLOTS if s != (0, 8, 0)})
    variant.observe(full)
    variant.apply(Place((0, 8, 0), "green"))  # the base is full: the fills begin, lowest layer first
    assert variant.filling is not None and geometry.layer(variant.filling[0]) == 7


def test_rasanto_scores_the_complete_pyramid() -> None:
    game = Rasanto(2, rng=rng())
    game.observe(PyramidState.full("red").with_cell((0, 0, 0), Cell("green")))
    assert game.scores() == (132.0, 3.0)
    assert game.termination() is Termination.PYRAMID_COMPLETE


def test_mucho_scores_the_pips_on_the_visible_sides() -> None:
    game = Mucho(3, rng=rng())
    region = sorted(game.regions[0])
    game.observe(PyramidState({s: Cell("red", (1, 2, 3)) for s in region}))
    # Each of the three sides of a 20-die pyramid shows 10 faces, one per axis: 10 * (1 + 2 + 3).
    assert game.scores() == (60.0, 0.0, 0.0)


def test_mucho_greedy_hint_prefers_high_faces_outward() -> None:
    game = Mucho(3, rng=rng())
    corner = (8, 0, 0)  # the corner die of the small pyramid shows two faces: along +j and +k
    assert sorted(game.final_axes[corner]) == [1, 2]
    high = game.heuristic(Place(corner, "red", (1, 5, 3)))
    low = game.heuristic(Place(corner, "red", (6, 2, 4)))
    assert high is not None and low is not None and high > low


def test_mucho_ends_after_twenty_rounds() -> None:
    game = Mucho(3, rng=rng())
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    assert game.outcome is not None and game.outcome.termination is Termination.ROUNDS_PLAYED
    assert len(game.state) == 60


def test_fire_and_water_red_may_not_touch_green() -> None:
    game = FireAndWater(2, rng=rng())
    game.observe(PyramidState({(8, 0, 0): Cell("green")}))
    legal = game.legal_actions()
    assert Place((7, 1, 0), "green") in legal
    assert Place((7, 1, 0), "red") not in legal  # edge contact in the base layer
    assert Place((6, 2, 0), "red") in legal


def test_fire_and_water_forces_black_and_ends_when_all_placed() -> None:
    game = FireAndWater(2, rng=rng())
    game.left[0] = {"red": 0, "green": 1}
    game.observe(PyramidState({(8, 0, 0): Cell("red")}))
    assert Place((6, 2, 0), "green") in game.legal_actions()
    game.apply(Place((6, 2, 0), "green"))
    assert game.outcome is not None and game.outcome.termination is Termination.ALL_PLACED
    assert game.outcome.winners == (0,)
    blocked = FireAndWater(2, rng=rng())
    blocked.left[0] = {"red": 0, "green": 3}
    blocked.observe(PyramidState({s: Cell("red") for s in geometry.BASE_SLOTS if s != (8, 0, 0)}))
    legal = blocked.legal_actions()
    assert Place((8, 0, 0), "black") in legal
    assert all(isinstance(a, Place) and a.colour == "black" for a in legal)
