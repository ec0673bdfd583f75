"""Triangle (rule book 53): rows moved as one piece, the triangles that win, and play read back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gameplay import physical_moves, play

from pyramid import geometry
from pyramid.agents.players import Player
from pyramid.games.rows import TRIANGLES, Triangle, own_rows
from pyramid.rules import Move, Pass, Termination, check_game
from pyramid.state import Cell, PyramidState


def triangle_with(cells: dict[geometry.Slot, Cell], to_move: int = 0) -> Triangle:
    """A Triangle on ``cells`` with ``to_move`` to play."""
    game = Triangle(rng=np.random.default_rng(0))
    game.observe(PyramidState(cells))
    game.to_move = to_move
    return game


def test_triangle_starts_with_the_colours_in_cyclic_order_in_the_corners() -> None:
    game = Triangle(rng=np.random.default_rng(0))
    assert len(game.state) == 18
    for corner in range(3):
        by_depth = [{game.state[s].colour for s in geometry.BASE_SLOTS if s[corner] == 8 - d} for d in range(3)]
        assert all(len(c) == 1 for c in by_depth) and len(set.union(*by_depth)) == 3
    assert [game.state[s].colour for s in ((8, 0, 0), (0, 8, 0), (0, 0, 8))] == ["red", "green", "black"]
    assert all(len(game.own(p)) == 6 for p in range(3)) and game.scores() == (3.0, 3.0, 3.0)


def test_triangle_the_triangles_are_43_sets_of_six_funnels_pointing_either_way() -> None:
    assert len(TRIANGLES) == 43 == len(set(TRIANGLES))  # 28 like the plate, 15 the other way
    corner = frozenset(s for s in geometry.BASE_SLOTS if s[0] >= 6)
    upside_down = frozenset({(4, 2, 2), (3, 3, 2), (3, 2, 3), (2, 4, 2), (2, 3, 3), (2, 2, 4)})
    assert corner in TRIANGLES and upside_down in TRIANGLES
    for t in TRIANGLES:  # three rows of 3, 2 and 1: each die touches 2 to 4 of the others
        assert sorted(sum(n in t for n in geometry.neighbours(s)) for s in t) == [2, 2, 2, 4, 4, 4]


def test_triangle_rows_are_longest_runs_and_a_lone_die_is_a_row() -> None:
    mine = {(4, 2, 2), (4, 3, 1), (4, 4, 0), (2, 2, 4)}
    rows = own_rows(mine)
    assert ((4, 2, 2), (4, 3, 1), (4, 4, 0)) in rows and ((2, 2, 4),) in rows
    assert ((4, 2, 2), (4, 3, 1)) not in rows  # part of a longer run


def test_triangle_a_row_shifts_as_one_piece_into_empty_funnels() -> None:
    row = [(4, 2, 2), (4, 3, 1), (4, 4, 0)]
    game = triangle_with({s: Cell("red") for s in row} | {(3, 3, 2): Cell("green"), (0, 0, 8): Cell("black")})
    shifts = [a for a in game.legal_actions() if isinstance(a, Move)]
    whole = [a for a in shifts if len(a.steps) == 3]
    # the row slides along itself to (4, 1, 3) and sideways to i = 5; not to i = 3, where green stands in the way
    targets = {frozenset(t for _, t in a.steps) for a in whole}
    assert frozenset({(4, 1, 3), (4, 2, 2), (4, 3, 1)}) in targets
    assert frozenset({(5, 1, 2), (5, 2, 1), (5, 3, 0)}) in targets
    assert not any(t[0] == 3 for a in whole for _, t in a.steps)
    assert all(len(a.steps) in (1, 3) for a in shifts)  # the row moves whole, or one die alone across it
    names = {a.name for a in whole}
    assert "shift (4, 2, 2)..(4, 4, 0) towards corner a, away from b" in names  # to i = 5: towards a
    game.apply(whole[0])
    assert sorted(game.own(0)) == sorted(t for _, t in whole[0].steps) and game.to_move == 1


def test_triangle_the_first_to_form_a_triangle_wins() -> None:
    five = [(8, 0, 0), (7, 1, 0), (7, 0, 1), (6, 2, 0), (6, 1, 1)]
    game = triangle_with({s: Cell("red") for s in five} | {(5, 0, 3): Cell("red"), (4, 4, 0): Cell("green")})
    win = Move((((5, 0, 3), (6, 0, 2)),))
    assert win in game.legal_actions()
    assert game.heuristic(win) == max(game.heuristic(a) or 0 for a in game.legal_actions())
    game.apply(win)
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.termination is Termination.GOAL_REACHED and game.outcome.scores[0] == 6


def test_triangle_greedy_blocks_a_triangle_it_can_reach() -> None:
    # green would complete the corner triangle at (6, 0, 2); red's lone die next door can step into it
    five = [(8, 0, 0), (7, 1, 0), (7, 0, 1), (6, 2, 0), (6, 1, 1)]
    cells = {s: Cell("green") for s in five} | {(5, 0, 3): Cell("green"), (5, 1, 2): Cell("red")}
    game = triangle_with(cells | {(0, 0, 8): Cell("black")})
    best = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    assert isinstance(best, Move) and best.steps == (((5, 1, 2), (6, 0, 2)),)


def test_triangle_passes_the_checker() -> None:
    report = check_game(Triangle, range(3))
    assert report.ok, report.problems


def test_triangle_greedy_beats_random() -> None:
    wins = 0
    for seed in range(3):
        seat = seed % 3
        kinds = ["random"] * 3
        kinds[seat] = "greedy"
        game = play(Triangle(rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (seat,)
    assert wins == 3


def test_triangle_a_player_with_no_shift_passes() -> None:
    # red's lone die in corner a, its two neighbours taken by green
    game = triangle_with({(8, 0, 0): Cell("red"), (7, 1, 0): Cell("green"), (7, 0, 1): Cell("green")})
    assert game.legal_actions() == [Pass()]


class LongestShift(Player[Any]):
    """Shifts the longest row it can (three dice lifted and set down together)."""

    name = "longest"

    def choose(self, game: Any, legal: Sequence[Any]) -> Any:
        """The legal shift of the most dice."""
        return max(legal, key=lambda a: len(a.steps) if isinstance(a, Move) else 0)


def test_triangle_physical_row_shifts_are_read_back() -> None:
    game = Triangle(rng=np.random.default_rng(3))
    physical_moves(game, 3, seed=3, players=[LongestShift()] * 3)
    assert all(isinstance(a, Move) and len(a.steps) == 3 for _, a in game.history)
