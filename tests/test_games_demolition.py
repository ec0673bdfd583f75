"""Scoring and end of the demolition games on hand-made states."""

from __future__ import annotations

import numpy as np

from pyramid import geometry
from pyramid.games.demolition import Asparagus, Doubles, ElDado, Favourite
from pyramid.rules import Pass, Remove, RemoveColumn, Termination
from pyramid.state import Cell, PyramidState


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_el_dado_starts_complete_and_scores_colours() -> None:
    game = ElDado(2, rng=rng())
    assert len(game.state) == 165 and game.legal_actions() == [Remove((0, 0, 0))]
    game.observe(PyramidState.full("red").with_cell((0, 0, 0), Cell("gold", (1, 2, 3))))
    game.apply(Remove((0, 0, 0)))
    assert game.scores() == (10.0, 0.0) and game.to_move == 1
    game.apply(Remove((1, 0, 0)))
    assert game.scores() == (10.0, 1.0)


def test_el_dado_ends_when_the_pyramid_is_gone() -> None:
    game = ElDado(3, rng=rng())
    game.observe(PyramidState.from_notation("./..,Y"))
    game.apply(Remove((1, 0, 0)))
    assert game.outcome is not None and game.outcome.termination is Termination.PYRAMID_CLEARED
    assert game.outcome.winners == (0,) and game.outcome.scores == (10.0, 0.0, 0.0)


def test_asparagus_columns_follow_a_cube_axis_in_one_colour() -> None:
    game = Asparagus(2, rng=rng())
    game.observe(PyramidState.full("green").with_cell((3, 0, 0), Cell("red")))
    columns = [a for a in game.legal_actions() if isinstance(a, RemoveColumn)]
    along_i = [c for c in columns if c.slots[-1][0] > 0 and c.slots[-1][1:] == (0, 0)]
    assert max(len(c.slots) for c in along_i) == 3  # (0,0,0), (1,0,0), (2,0,0): the red die stops it
    longest_k = RemoveColumn(tuple((0, 0, k) for k in range(9)))
    assert longest_k in columns
    game.apply(longest_k)
    assert game.scores() == (27.0, 0.0)


def test_doubles_funnel_gives_extra_dice() -> None:
    game = Doubles(2, rng=rng())
    fives = [u for u in geometry.ALL_UP_FACES if u[0] == 5]
    jfives = [u for u in geometry.ALL_UP_FACES if u[1] == 5]
    ktwos = [u for u in geometry.ALL_UP_FACES if u[2] == 2]
    state = PyramidState.full("black", (1, 2, 3))
    state = state.with_cell((1, 0, 0), Cell("red", fives[0]))
    state = state.with_cell((0, 1, 0), Cell("red", jfives[0]))
    state = state.with_cell((0, 0, 1), Cell("red", ktwos[0]))
    game.observe(state)
    game.apply(Remove((0, 0, 0)))
    assert game.bonus == 1 and game.to_move == 0
    assert Pass() in game.legal_actions()
    game.apply(Pass())
    assert game.to_move == 1 and game.scores() == (1.0, 0.0)


def test_favourite_forces_green_then_black_then_red() -> None:
    game = Favourite(3, rng=rng())
    game.observe(PyramidState.from_notation("./RK,G"))
    assert game.legal_actions() == [Remove((1, 0, 0))]
    game.observe(PyramidState.from_notation("./RK,."))
    assert game.legal_actions() == [Remove((0, 1, 0))]


def test_favourite_winner_sits_left_of_the_top_scorer() -> None:
    game = Favourite(3, rng=rng())
    game.observe(PyramidState.from_notation("./..,G"))
    game.apply(Remove((1, 0, 0)))
    assert game.outcome is not None
    assert game.outcome.scores == (3.0, 0.0, 0.0)
    assert game.outcome.winners == (1,)
