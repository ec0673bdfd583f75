"""Tabula Rasa and Quadrula Rasa: chunks in the lattice, the block's rules, a whole turn and the end."""

from __future__ import annotations

import numpy as np

from pyramid.agents.players import GreedyPlayer, RandomPlayer
from pyramid.games.chunks import BreakOff, Build, QuadrulaRasa, TabulaRasa, box_placements, grid_connected
from pyramid.play import Match
from pyramid.rules import Place, Termination
from pyramid.state import PyramidState


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def full_without(*slots: tuple[int, int, int]) -> PyramidState:
    state = PyramidState.full("black")
    for s in slots:
        state = state.without(s)
    return state


# The complete pyramid with a 2 x 3 gap in its face i = 0 at the top, written in the notation.
GAP = full_without(*[(0, j, k) for j in range(2) for k in range(3)])


# One die in the funnel of corner a, the rest of the plate empty.
CORNER = "/".join(
    [",".join("." * (n - i + 1) for i in range(n + 1)) for n in range(8)]
    + [",".join("." * (9 - i) for i in range(8)) + ",K123"]
)


def test_the_notation_of_the_gap() -> None:
    text = GAP.to_notation()
    assert text.startswith("./..,K123/..K123,K123K123,K123/K123.K123K123,")  # the gap: (0, j, k), j < 2, k < 3
    assert PyramidState.from_notation(text) == GAP


def test_box_placements_find_the_gap_and_build_lowest_first() -> None:
    column = full_without((0, 0, 0), (1, 0, 0), (2, 0, 0))
    assert box_placements(column, (3, 1, 1)) == [((2, 0, 0), (1, 0, 0), (0, 0, 0))]
    assert box_placements(column, (1, 3, 1)) == []
    assert box_placements(GAP, (1, 2, 3)) == [((0, 1, 2), (0, 0, 2), (0, 1, 1), (0, 0, 1), (0, 1, 0), (0, 0, 0))]
    assert box_placements(PyramidState(), (1, 1, 3)) == []  # base funnels never share a face


def test_grid_connected() -> None:
    assert grid_connected(0b0111, 1, 4)
    assert not grid_connected(0b1011, 1, 4)
    assert not grid_connected(0b1001, 2, 2)  # diagonal cells
    assert grid_connected(0b0011_0110, 2, 4)


def test_tabula_rasa_starts_with_single_dice_only() -> None:
    game = TabulaRasa(3, rng=rng())
    legal = game.legal_actions()
    assert legal and all(isinstance(a, BreakOff) and len(a.cells) == 1 for a in legal)
    assert len(legal) == 55


def test_tabula_rasa_block_must_stay_in_one_piece() -> None:
    game = TabulaRasa(3, rng=rng())
    game.blocks[0] -= {(r, 5) for r in range(4)}  # column 5 is gone but for the bottom die
    cells = {p.cells for p in game.pieces(0)}
    assert ((4, 5),) not in cells and ((4, 0),) in cells
    assert ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)) in cells


def test_tabula_rasa_a_row_of_six_is_a_six_chunk_too() -> None:
    game = TabulaRasa(3, rng=rng())
    row = BreakOff(tuple((0, c) for c in range(6)), (1, 1, 6))
    assert row in game.pieces(0)
    column = full_without(*[(n, 0, 0) for n in range(6)])  # the edge from the top down six dice
    game.observe(column)
    assert row in game.legal_actions()
    game.apply(row)
    assert game.legal_actions() == [Build(tuple((n, 0, 0) for n in range(5, -1, -1)))]


def test_tabula_rasa_a_six_chunk_turn() -> None:
    game = TabulaRasa(3, rng=rng())
    game.observe(GAP)
    six = BreakOff(((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)), (1, 2, 3))
    game.apply(six)
    build = game.legal_actions()
    assert build == [Build(box_placements(GAP, (1, 2, 3))[0])]
    assert isinstance(build[0], Build)
    game.apply(build[0])
    assert game.left(0) == 49 and game.to_move == 0
    for slot in build[0].slots:
        assert game.legal_actions() == [Place(slot, "red")]
        game.apply(Place(slot, "red"))
    assert game.scores() == (6.0, 0.0, 0.0) and game.to_move == 1
    assert game.outcome is not None and game.outcome.termination is Termination.PYRAMID_COMPLETE


def test_tabula_rasa_first_to_use_up_the_block_wins() -> None:
    game = TabulaRasa(3, rng=rng())
    game.blocks[0] = {(2, 2)}
    game.placed[0] = 54
    game.apply(BreakOff(((2, 2),), (1, 1, 1)))
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.ALL_PLACED
    assert game.outcome.winners == (0,)


def test_tabula_rasa_greedy_players_build_chunks_of_three_and_six() -> None:
    game = TabulaRasa(3, rng=np.random.default_rng([0, 1]))
    players = [GreedyPlayer(np.random.default_rng([0, 2, n])) for n in range(3)]
    Match(game, players).run()
    sizes = {len(a.cells) for _, a in game.history if isinstance(a, BreakOff)}
    assert sizes == {1, 3, 6}


def test_quadrula_rasa_takes_boxes_off_the_top_and_touches() -> None:
    game = QuadrulaRasa(2, rng=rng())
    assert game.left(0) == 64
    column = BreakOff(((0, 0, 2), (0, 0, 3)), (1, 1, 2))
    assert column in game.pieces(0)
    game.take(0, column)
    assert game.heights[0][0, 0] == 2 and game.left(0) == 62
    assert not any((0, 0, 1) in p.cells and (1, 0, 3) in p.cells for p in game.pieces(0))  # tops differ
    assert game.allowed(((0, 0, 8),))  # the first chunk of the game goes anywhere
    game.observe(PyramidState.from_notation(CORNER))
    assert game.allowed(((7, 1, 0),)) and not game.allowed(((0, 0, 8),))


def test_quadrula_rasa_big_cube_option() -> None:
    assert QuadrulaRasa(3, rng=rng(), cube=5).left(2) == 125


def test_greedy_beats_random_at_quadrula_rasa() -> None:
    wins = 0.0
    for seed in range(6):
        game = QuadrulaRasa(2, rng=np.random.default_rng([seed, 1]))
        players = [GreedyPlayer(np.random.default_rng([seed, 2])), RandomPlayer(np.random.default_rng([seed, 3]))]
        outcome = Match(game, players).run()
        wins += (0 in outcome.winners) / len(outcome.winners)
    assert wins / 6 >= 0.8  # a random seat wins half
