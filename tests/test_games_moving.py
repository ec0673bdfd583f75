"""The tactics games that move dice on the lattice: Masquerade, Flea Chase, Finish, The Fire-Red Devil.

Hand-made positions with known legal moves and outcomes, the conformance checker, greedy against
random, and a few moves of physical play read back from the world.
"""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer, RandomPlayer
from pyramid.games.edges import Masquerade, corner_edges
from pyramid.rules import Game, IllegalAction, Move, Termination, check_game
from pyramid.state import Cell, PyramidState


def play(game: Game, kinds: list[str], seed: int) -> Game:
    """``game`` played to its end in fast mode by greedy and random players."""
    seats = [
        (GreedyPlayer if kind == "greedy" else RandomPlayer)(np.random.default_rng([seed, n]))
        for n, kind in enumerate(kinds)
    ]
    while not game.is_over:
        game.apply(seats[game.to_move].choose(game, game.legal_actions()))
    return game


def physical_moves(game: Game, moves: int, seed: int) -> None:
    """``moves`` moves of ``game`` carried out by a hand in the world; each time the read-back is the game's state."""
    from pyramid.physics.world import World
    from pyramid.play import Match

    world = World()
    try:
        match = Match(game, [RandomPlayer(np.random.default_rng([seed, n])) for n in range(game.players)], world=world)
        for _ in range(moves):
            action = match.step()
            assert isinstance(action, Move)
            assert game.state == world.readout(require_rest=False).pyramid
            assert all(t in game.state for _, t in action.steps)
    finally:
        world.close()


# --- Masquerade -------------------------------------------------------------------------------


def masquerade_with(edges: dict[int, list[str]], top: str = "black", **options: bool) -> Masquerade:
    """A two-player Masquerade whose player 0 edges read ``edges[axis]`` bottom first."""
    game = Masquerade(2, rng=np.random.default_rng(0), **options)
    cells = dict(game.state.cells)
    for axis, edge in enumerate(corner_edges(game.apexes[0])):
        for slot, colour in zip(edge[:3], edges[axis], strict=True):
            cells[slot] = Cell(colour, cells[slot].up)  # type: ignore[arg-type]
    cells[game.apexes[0]] = Cell(top, cells[game.apexes[0]].up)  # type: ignore[arg-type]
    game.observe(PyramidState(cells))
    return game


def test_masquerade_starts_with_every_colour_on_every_edge_and_level() -> None:
    game = Masquerade(3, rng=np.random.default_rng(4))
    assert len(game.state) == 60 and geometry.is_stable(game.state)
    for apex in game.apexes:
        edges = corner_edges(apex)
        assert game.state[apex].colour == "black"
        assert all(sorted(game.state[s].colour for s in e[:3]) == ["blue", "green", "red"] for e in edges)
        assert all(sorted(game.state[e[n]].colour for e in edges) == ["blue", "green", "red"] for n in range(3))
    assert game.scores() == (4.0, 4.0, 4.0)
    assert len(game.legal_actions()) == 3


def test_masquerade_slide_takes_the_bottom_die_to_the_top() -> None:
    game = masquerade_with({0: ["red", "green", "blue"], 1: ["red", "green", "blue"], 2: ["green", "red", "blue"]})
    slide = next(a for a in game.legal_actions() if isinstance(a, Move) and a.steps[0][0] == (8, 0, 0))
    game.apply(slide)
    assert [game.state[s].colour for s in corner_edges((5, 0, 0))[0]] == ["green", "blue", "black", "red"]
    assert game.to_move == 1 and not game.is_over
    with pytest.raises(IllegalAction):
        game.apply(slide)  # player 1 may not slide player 0's edges


def test_masquerade_main_game_is_won_by_the_same_sequence_on_every_edge() -> None:
    # each level has two dice of one colour, the top is black: 2 + 2 + 2 + 1 in place
    game = masquerade_with({0: ["blue", "red", "green"], 1: ["red", "green", "blue"], 2: ["red", "green", "blue"]})
    assert game.scores()[0] == 7
    # edge 0 reads black, red, green, blue (top): one slide makes it red, green, blue, black like the others
    game = masquerade_with(
        {0: ["black", "red", "green"], 1: ["red", "green", "blue"], 2: ["red", "green", "blue"]}, "blue"
    )
    win = next(a for a in game.legal_actions() if isinstance(a, Move) and a.steps[0][0] == (8, 0, 0))
    assert game.heuristic(win) == max(game.heuristic(a) or 0 for a in game.legal_actions())
    game.apply(win)
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,) and game.outcome.scores[0] == 10


def test_masquerade_training_game_sorts_one_colour_per_edge() -> None:
    one_each = {0: ["red"] * 3, 1: ["green"] * 3, 2: ["blue"] * 3}
    assert masquerade_with(one_each, training=True).termination() is Termination.GOAL_REACHED
    assert masquerade_with(one_each).termination() is None  # the main game wants one colour per level
    levels = {0: ["red", "green", "blue"], 1: ["red", "green", "blue"], 2: ["red", "green", "blue"]}
    assert masquerade_with(levels).termination() is Termination.GOAL_REACHED
    assert masquerade_with(levels, training=True).termination() is None
    assert masquerade_with(levels, top="red").termination() is None  # black belongs on top


@pytest.mark.parametrize("players", [2, 3])
def test_masquerade_passes_the_checker(players: int) -> None:
    report = check_game(Masquerade, range(4), players)
    assert report.ok, report.problems


def test_masquerade_greedy_sorts_its_pyramid_and_beats_random() -> None:
    wins = 0
    for seed in range(6):
        game = play(Masquerade(2, rng=np.random.default_rng([seed, 1])), ["greedy", "random"], seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (0,)
    assert wins >= 5


def test_masquerade_physical_slides_are_read_back() -> None:
    physical_moves(Masquerade(2, rng=np.random.default_rng(3)), 3, seed=3)
