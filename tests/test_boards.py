"""The board games on the plate (rule book 45 to 54) and the notions they share: rows and pointing faces.

Hand-made positions with known legal moves and outcomes, the conformance checker, greedy against
random, and a few moves of physical play read back from the world.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from gameplay import physical_moves, play

from pyramid import geometry
from pyramid.agents.players import Player
from pyramid.encoding import action_ids
from pyramid.games.boards import Jump, Reducto, Reroll, Sandwich, WitchesDance, on_edge, row_jumps
from pyramid.games.crossings import (
    ATTACK_STEPS,
    ESCAPE_STEPS,
    Breach,
    Capture,
    FallingRocks,
    Smuggling,
    StepsToTheThrone,
)
from pyramid.rules import Game, IllegalAction, Move, Pass, Place, Remove, Termination, check_game
from pyramid.state import Cell, PyramidState


class Scripted(Player[Any]):
    """Plays the given actions in order."""

    name = "script"

    def __init__(self, actions: list[Any]) -> None:
        self.actions = list(actions)

    def choose(self, game: Any, legal: Sequence[Any]) -> Any:
        """The next scripted action."""
        return self.actions.pop(0)


def cells(**dice: list[geometry.Slot]) -> PyramidState:
    """A plate with dice of each colour (keyword) in the given funnels."""
    return PyramidState({s: Cell(colour, (1, 2, 3)) for colour, slots in dice.items() for s in slots})


# --- rows and pointing faces ------------------------------------------------------------------


def test_ray_runs_along_a_row_to_the_edge_of_the_plate() -> None:
    assert geometry.ray((4, 4, 0), (1, -1, 0)) == [(5, 3, 0), (6, 2, 0), (7, 1, 0), (8, 0, 0)]
    assert geometry.ray((8, 0, 0), (1, 0, -1)) == []
    assert geometry.ray((2, 3, 3), (0, 1, -1)) == [(2, 4, 2), (2, 5, 1), (2, 6, 0)]
    with pytest.raises(ValueError):
        geometry.ray((2, 3, 3), (1, 1, -2))


def test_each_row_direction_keeps_one_coordinate() -> None:
    for d in geometry.NEIGHBOUR_STEPS:
        axis = geometry.row_axis(d)
        assert all(s[axis] == (4, 2, 2)[axis] for s in geometry.ray((4, 2, 2), d))


@pytest.mark.parametrize("up", geometry.ALL_UP_FACES)
def test_the_pointing_face_lies_along_the_row_in_the_die_pose(up: geometry.UpFaces) -> None:
    rotation = geometry.seated_rotation(up)  # body frame to plate frame
    for d in geometry.NEIGHBOUR_STEPS:
        # the row direction in the plate frame (slot (i, j, k) sits at -(i, j, k) in the cube frame)
        along = geometry.CUBE_TO_PLATE @ -np.array(d, dtype=float)
        along /= np.linalg.norm(along)
        upward = [v for v in up if (rotation @ geometry.FACE_NORMALS[v])[2] > 0]
        # the pointing face is the up face whose normal is square to the row: its horizontal diagonal runs along it
        square = [v for v in upward if abs(float(rotation @ geometry.FACE_NORMALS[v] @ along)) < 1e-9]
        assert square == [geometry.pointing_face(up, d)]
        assert geometry.pointing_face(up, d) == geometry.pointing_face(up, (-d[0], -d[1], -d[2]))


# --- Sandwich -----------------------------------------------------------------------------------


def sandwich(state: PyramidState, players: int = 2, hand: int = 0) -> Sandwich:
    """A Sandwich game in the moving phase (no dice in hand) on ``state``."""
    game = Sandwich(players, rng=np.random.default_rng(0))
    game.hand = [hand] * players
    game.observe(state)
    return game


def test_sandwich_places_first_then_steps_or_jumps_straight() -> None:
    game = Sandwich(2, rng=np.random.default_rng(0))
    assert len(game.legal_actions()) == 45 and all(isinstance(a, Place) for a in game.legal_actions())
    game = sandwich(cells(red=[(4, 2, 2)], green=[(4, 3, 1), (1, 1, 6)]))
    targets = {a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move) and a.steps[0][0] == (4, 2, 2)}
    assert targets == (set(geometry.neighbours((4, 2, 2))) - {(4, 3, 1)}) | {(4, 4, 0)}
    with pytest.raises(IllegalAction):  # two funnels away, but nothing to jump over
        game.apply(Move((((4, 2, 2), (2, 4, 2)),)))


def test_sandwich_placing_captures_and_the_mover_takes_the_die_off() -> None:
    game = sandwich(cells(red=[(4, 2, 2), (1, 1, 6), (1, 6, 1)], green=[(4, 3, 1), (6, 1, 1), (1, 2, 5)]))
    game.hand = [1, 0]
    game.apply(Place((4, 4, 0), "red"))  # green (4, 3, 1) between red (4, 2, 2) and (4, 4, 0)
    assert game.to_move == 0 and game.legal_actions() == [Remove((4, 3, 1))]
    game.apply(Remove((4, 3, 1)))
    assert (4, 3, 1) not in game.state and game.to_move == 1 and game.scores() == (4.0, 2.0)


def test_sandwich_moving_into_a_sandwich_is_captured() -> None:
    game = sandwich(cells(red=[(2, 3, 3), (2, 5, 1), (7, 1, 0)], green=[(3, 4, 1), (6, 1, 1), (8, 0, 0)]))
    game.to_move = 1
    game.apply(Move((((3, 4, 1), (2, 4, 2)),)))  # between red (2, 3, 3) and (2, 5, 1)
    assert game.to_move == 1 and game.legal_actions() == [Remove((2, 4, 2))]
    game.apply(Remove((2, 4, 2)))
    assert game.scores() == (3.0, 2.0) and game.to_move == 0


def test_sandwich_the_movers_captures_come_first_and_can_free_it() -> None:
    # green steps into (4, 2, 2) between red (3, 3, 2) and (5, 1, 2), and captures (5, 1, 2) with green (6, 0, 2)
    game = sandwich(cells(red=[(3, 3, 2), (5, 1, 2), (1, 1, 6)], green=[(4, 3, 1), (6, 0, 2), (0, 8, 0)]))
    game.to_move = 1
    game.apply(Move((((4, 3, 1), (4, 2, 2)),)))
    assert game.captures == [(5, 1, 2)]


def test_sandwich_one_move_can_make_a_double_sandwich() -> None:
    game = sandwich(cells(red=[(4, 3, 1), (5, 2, 1), (1, 1, 6)], green=[(4, 4, 0), (6, 2, 0), (3, 3, 2), (0, 8, 0)]))
    game.to_move = 1
    game.apply(Move((((3, 3, 2), (4, 2, 2)),)))
    assert game.captures == [(4, 3, 1), (5, 2, 1)]
    game.apply(Remove((4, 3, 1)))
    game.apply(Remove((5, 2, 1)))
    assert game.to_move == 0 and game.scores() == (1.0, 4.0)
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert game.outcome.termination is Termination.PLAYERS_OUT


def test_sandwich_down_to_two_dice_one_more_move_each_then_two_a_turn() -> None:
    game = sandwich(cells(red=[(4, 2, 2), (1, 1, 6), (1, 6, 1)], green=[(4, 3, 1), (6, 1, 1), (0, 0, 8)]))
    game.apply(Move((((4, 2, 2), (3, 3, 2)),)))  # no capture
    game.apply(Move((((6, 1, 1), (6, 2, 0)),)))
    game.apply(Move((((3, 3, 2), (4, 2, 2)),)))
    game.apply(Move((((6, 2, 0), (7, 1, 0)),)))
    assert game.singles_left is None
    game = sandwich(cells(red=[(4, 2, 2), (1, 1, 6), (1, 6, 1)], green=[(4, 3, 1), (6, 1, 1), (0, 0, 8)]))
    game.hand = [1, 0]
    game.apply(Place((4, 4, 0), "red"))
    game.apply(Remove((4, 3, 1)))  # green is down to two: one more move each
    assert game.singles_left == 2 and game.to_move == 1
    game.apply(Move((((6, 1, 1), (6, 2, 0)),)))
    assert game.to_move == 0
    game.apply(Move((((1, 1, 6), (2, 1, 5)),)))
    assert game.to_move == 1 and game.singles_left == 0
    game.apply(Move((((6, 2, 0), (7, 1, 0)),)))
    assert game.to_move == 1 and Pass() in game.legal_actions()  # the second move of the turn
    game.apply(Pass())
    assert game.to_move == 0


@pytest.mark.parametrize("players", [2, 3])
def test_sandwich_passes_the_checker(players: int) -> None:
    report = check_game(Sandwich, range(2), players=players)
    assert report.ok, report.problems


def test_sandwich_greedy_beats_random() -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = play(Sandwich(2, rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (seed % 2,)
    assert wins >= 5


def test_sandwich_physical_placings_are_read_back() -> None:
    physical_moves(Sandwich(2, rng=np.random.default_rng(5)), 3, seed=5)


def test_sandwich_physical_move_and_captures_are_read_back() -> None:
    game = sandwich(cells(red=[(4, 3, 1), (5, 2, 1), (1, 1, 6)], green=[(4, 4, 0), (6, 2, 0), (3, 3, 2), (0, 8, 0)]))
    game.to_move = 1
    script = [Move((((3, 3, 2), (4, 2, 2)),)), Remove((4, 3, 1)), Remove((5, 2, 1))]
    physical_moves(game, 3, seed=0, players=[Scripted([]), Scripted(script)])
    assert game.outcome is not None and game.outcome.winners == (1,)


# --- Reducto ------------------------------------------------------------------------------------


def reducto(state: PyramidState, endgame: bool = False) -> Reducto:
    """A two-player Reducto on ``state``."""
    game = Reducto(2, rng=np.random.default_rng(0))
    game.observe(state)
    game.endgame = endgame
    return game


def test_reducto_starts_with_44_dice_of_three_colours() -> None:
    game = Reducto(3, rng=np.random.default_rng(1))
    assert len(game.state) == 44 and set(game.state) <= set(geometry.BASE_SLOTS)
    colours = [c.colour for c in game.state.values()]
    assert sorted(colours.count(c) for c in ("green", "red", "black")) == [14, 15, 15]


def test_reducto_a_die_jumps_by_the_face_pointing_along_the_row_over_a_die() -> None:
    # faces 1, 2, 3 along +i, +j, +k: the 1 points along rows of constant i (no jump), the 2 along rows of
    # constant j, the 3 along rows of constant k
    state = cells(green=[(5, 2, 1), (3, 3, 2), (8, 0, 0)]).with_cell((4, 2, 2), Cell("red", (1, 2, 3)))
    assert sorted(row_jumps(state.cells, (4, 2, 2))) == [(1, 5, 2), (6, 2, 0)]
    game = reducto(state)
    game.apply(Jump((4, 2, 2), (6, 2, 0)))
    assert (4, 2, 2) not in game.state and (6, 2, 0) not in game.state
    assert game.scores() == (2.0, 0.0) and game.to_move == 1


def test_reducto_who_cannot_jump_rolls_a_die_back_into_its_funnel() -> None:
    state = cells(black=[(8, 0, 0), (0, 8, 0)], green=[(0, 0, 8)])
    game = reducto(state)
    legal = game.legal_actions()
    assert Reroll((0, 0, 8)) in legal and Remove((0, 0, 8)) in legal  # 15 dice or fewer: may take one
    assert not any(isinstance(a, Jump) for a in legal)
    game.apply(Reroll((0, 0, 8)))
    assert game.to_move == 0 and game.legal_actions() == [Remove((0, 0, 8))]
    game.apply(Remove((0, 0, 8)))
    assert game.to_move == 0 and game.legal_actions() == [Place((0, 0, 8), "green")] and game.scores() == (0, 0)
    game.apply(Place((0, 0, 8), "green"))
    assert game.state[(0, 0, 8)].colour == "green" and game.to_move == 1 and game.scores() == (0.0, 0.0)
    game.apply(Remove((8, 0, 0)))  # player 1 takes a die and keeps it
    assert game.scores() == (0.0, 1.0) and game.to_move == 0


def test_reducto_with_more_than_15_dice_the_roll_is_forced() -> None:
    game = reducto(cells(black=list(geometry.BASE_SLOTS)))  # no empty funnel: nobody can jump
    legal = game.legal_actions()
    assert len(legal) == 45 and all(isinstance(a, Reroll) for a in legal)


def test_reducto_endgame_turns_are_up_to_three_jumps() -> None:
    state = PyramidState(
        {
            (4, 2, 2): Cell("green", (1, 2, 3)),
            (5, 2, 1): Cell("red", (1, 2, 3)),
            (2, 2, 4): Cell("black", (1, 2, 3)),
            (3, 2, 3): Cell("black", (1, 2, 3)),
        }
    )
    game = reducto(state, endgame=True)
    assert Reroll((4, 2, 2)) in game.legal_actions()  # a roll may come first
    game.apply(Jump((4, 2, 2), (6, 2, 0)))
    assert game.to_move == 0 and Pass() in game.legal_actions()
    assert not any(isinstance(a, Reroll) for a in game.legal_actions())
    game.apply(Pass())
    assert game.to_move == 1 and game.scores() == (3.0, 0.0)


def test_reducto_ends_when_one_die_is_left() -> None:
    state = cells(green=[(5, 2, 1)]).with_cell((4, 2, 2), Cell("red", (1, 2, 3)))
    game = reducto(state, endgame=True)
    game.apply(Jump((4, 2, 2), (6, 2, 0)))
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.termination is Termination.PYRAMID_CLEARED


@pytest.mark.parametrize("players", [2, 3])
def test_reducto_passes_the_checker(players: int) -> None:
    report = check_game(Reducto, range(3), players=players)
    assert report.ok, report.problems


def test_reducto_greedy_beats_random() -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = play(Reducto(2, rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (seed % 2,)
    assert wins >= 5


def test_reducto_physical_jump_and_roll_are_read_back() -> None:
    state = cells(black=[(8, 0, 0), (0, 8, 0)], green=[(0, 0, 8), (5, 2, 1)])
    game = reducto(state.with_cell((4, 2, 2), Cell("red", (1, 2, 3))))
    script = [Reroll((0, 0, 8)), Remove((0, 0, 8)), Place((0, 0, 8), "green")]
    physical_moves(game, 4, seed=0, players=[Scripted([Jump((4, 2, 2), (6, 2, 0))]), Scripted(script)])
    assert (4, 2, 2) not in game.state and (0, 0, 8) in game.state and game.scores() == (2.0, 0.0)


# --- Smuggling ----------------------------------------------------------------------------------

BORDER = [(0, j, 8 - j) for j in range(1, 8)]


def smuggling(state: PyramidState, to_move: int = 0) -> Smuggling:
    """A Smuggling game on ``state`` (the border's green dice added), ``to_move`` to play."""
    game = Smuggling(rng=np.random.default_rng(0))
    game.observe(PyramidState({**cells(green=BORDER).cells, **state.cells}))
    game.to_move = to_move
    return game


def test_smuggling_setup_border_customs_and_a_triangle_of_smugglers() -> None:
    game = Smuggling(rng=np.random.default_rng(0))
    colours = {c: sorted(s for s in game.state if game.state[s].colour == c) for c in ("green", "red", "black")}
    assert colours["green"] == sorted(BORDER) and colours["red"] == [(1, 2, 5), (1, 5, 2)]
    assert len(colours["black"]) == 10 and not any(on_edge(s) for s in colours["black"])
    ring = {n for s in colours["black"] for n in geometry.neighbours(s)} - set(colours["black"])
    assert not ring & set(game.state)  # the triangle is surrounded by empty funnels
    assert game.to_move == 0 and all(isinstance(a, Move) for a in game.legal_actions())


def test_smuggling_smugglers_keep_off_the_edges_and_break_through_at_a_green_die() -> None:
    game = smuggling(cells(black=[(1, 3, 4), (2, 0, 6)], red=[(5, 2, 1)]))
    legal = game.legal_actions()
    assert Breach((0, 3, 5)) in legal and Breach((0, 4, 4)) in legal
    targets = {a.steps[0][1] for a in legal if isinstance(a, Move)}
    # (2, 0, 6) lies on an edge: it only steps off it, never along it
    assert targets == {(1, 4, 3), (1, 2, 5), (2, 2, 4), (2, 3, 3), (1, 1, 6), (2, 1, 5)}
    game.apply(Breach((0, 3, 5)))
    assert game.to_move == 0 and game.legal_actions() == [Move((((1, 3, 4), (0, 3, 5)),))]
    game.apply(Move((((1, 3, 4), (0, 3, 5)),)))
    assert game.state[(0, 3, 5)].colour == "black" and game.scores() == (1.0, 0.0) and game.to_move == 1


def test_smuggling_customs_capture_by_jumping_and_may_jump_on() -> None:
    game = smuggling(cells(black=[(2, 2, 4), (4, 2, 2), (6, 1, 1)], red=[(1, 2, 5)]), to_move=1)
    first = Move((((1, 2, 5), (3, 2, 3)),))
    assert first in game.legal_actions()
    game.apply(first)
    assert game.legal_actions() == [Remove((2, 2, 4))]
    game.apply(Remove((2, 2, 4)))
    assert game.to_move == 1 and set(game.legal_actions()) == {Move((((3, 2, 3), (5, 2, 1)),)), Pass()}
    game.apply(Pass())
    assert game.to_move == 0 and game.scores() == (0.0, 1.0)


def test_smuggling_four_through_win_and_seven_captured_lose() -> None:
    game = smuggling(cells(black=[(1, 3, 4), (4, 2, 2)], red=[(5, 2, 1)]))
    game.through = 3
    game.apply(Breach((0, 4, 4)))
    game.apply(Move((((1, 3, 4), (0, 4, 4)),)))
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.termination is Termination.GOAL_REACHED
    game = smuggling(cells(black=[(2, 2, 4), (5, 2, 1)], red=[(1, 2, 5)]), to_move=1)
    game.captured = 6
    game.apply(Move((((1, 2, 5), (3, 2, 3)),)))
    game.apply(Remove((2, 2, 4)))
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert game.outcome.result() == "player 1 wins (7 smugglers are captured)"


def test_smuggling_says_its_two_scores_each_against_its_own_goal() -> None:
    # 3 through and 5 captured: the customs lead, though 3 < 5 says nothing of it; each is told with its goal
    game = smuggling(cells(black=[(4, 2, 2)], red=[(5, 2, 1)]))
    game.through, game.captured = 3, 5
    line = game.score_line(game.scores())
    assert line == "player 0's smugglers through 3 (4 win), player 1's smugglers captured 5 (7 win)"


def test_smuggling_passes_the_checker() -> None:
    report = check_game(Smuggling, range(4))
    assert report.ok, report.problems


@pytest.mark.parametrize("greedy", [0, 1])
def test_smuggling_greedy_beats_random_on_either_side(greedy: int) -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy", "random"] if greedy == 0 else ["random", "greedy"]
        game = play(Smuggling(rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (greedy,)
    assert wins >= 5


def test_smuggling_physical_breach_and_capture_are_read_back() -> None:
    game = smuggling(cells(black=[(1, 3, 4), (2, 2, 4)], red=[(1, 2, 5)]))
    smugglers = [Breach((0, 3, 5)), Move((((1, 3, 4), (0, 3, 5)),))]
    customs = [Move((((1, 2, 5), (3, 2, 3)),)), Remove((2, 2, 4))]
    physical_moves(game, 4, seed=0, players=[Scripted(smugglers), Scripted(customs)])
    assert game.scores() == (1.0, 1.0) and game.to_move == 0


# --- Falling Rocks ------------------------------------------------------------------------------


def rocks(state: PyramidState, to_move: int = 0) -> FallingRocks:
    """A Falling Rocks game on ``state``, ``to_move`` to play."""
    game = FallingRocks(rng=np.random.default_rng(0))
    game.observe(state)
    game.to_move = to_move
    return game


def test_falling_rocks_starts_in_the_corners() -> None:
    game = FallingRocks(rng=np.random.default_rng(0))
    for p, colour in enumerate(("red", "green", "black")):
        assert sorted(s for s in game.state if game.state[s].colour == colour) == sorted(game.start[p])
        assert len(game.start[p]) == 6 and all(s[p] >= 6 for s in game.start[p])


def test_falling_rocks_attacks_and_escapes_alternate_around_a_funnel() -> None:
    game = rocks(cells(red=[(4, 2, 2)], green=[(0, 8, 0)], black=[(0, 0, 8)]))
    moves = {a.steps[0][1]: a.name.split()[0] for a in game.legal_actions() if isinstance(a, Move)}
    assert moves == {step_to(d): "attack" for d in ATTACK_STEPS} | {step_to(d): "escape" for d in ESCAPE_STEPS}
    # going round the six neighbours by angle, attack and escape alternate
    ring = sorted(geometry.NEIGHBOUR_STEPS, key=lambda d: float(np.arctan2(*(geometry.CUBE_TO_PLATE @ d)[1::-1])))
    kinds = [d in ATTACK_STEPS for d in ring]
    assert all(kinds[n] != kinds[n - 1] for n in range(6))


def step_to(d: geometry.Slot) -> geometry.Slot:
    """The neighbour of (4, 2, 2) along ``d``."""
    return (4 + d[0], 2 + d[1], 2 + d[2])


def test_falling_rocks_an_attack_captures_into_a_start_funnel_of_the_attackers_choice() -> None:
    green_start = [s for s in geometry.BASE_SLOTS if s[1] >= 6]
    game = rocks(cells(red=[(4, 2, 2)], green=[(5, 1, 2), (3, 3, 2), *green_start[:4]], black=[(0, 0, 8)]))
    captures = [a for a in game.legal_actions() if isinstance(a, Move) and len(a.steps) == 2]
    assert {a.steps[1][1] for a in captures} == set(green_start[4:])  # the empty green start funnels
    assert all(a.steps[0] == ((4, 2, 2), (5, 1, 2)) for a in captures)  # (3, 3, 2) lies in an escape direction
    game.apply(captures[0])
    assert game.state[(5, 1, 2)].colour == "red" and game.state[captures[0].steps[1][1]].colour == "green"
    assert game.to_move == 1


def test_falling_rocks_standing_is_the_own_progress_and_a_capture_costs_the_steps_made() -> None:
    green_start = [s for s in geometry.BASE_SLOTS if s[1] >= 6]
    game = rocks(cells(red=[(4, 2, 2)], green=[(5, 1, 2), *green_start[:4]], black=[(0, 0, 8)]))
    red, green, black = (game.standing(p) for p in range(3))
    capture = next(a for a in game.legal_actions() if isinstance(a, Move) and len(a.steps) == 2)
    game.apply(capture)  # red steps back from its line (i = 0) and sends green's die back to its corner
    assert game.standing(0) == red - 1  # one step farther: no credit for the harm done
    assert game.standing(1) == green - (8 - 1) + (8 - capture.steps[1][1][1])  # green's die lost its steps
    assert game.standing(2) == black
    assert game.scores() == (0.0, 0.0, 0.0)  # nobody's score has moved


def test_falling_rocks_dice_home_are_safe_and_move_only_along_the_line() -> None:
    game = rocks(cells(red=[(0, 4, 4)], green=[(1, 4, 3)], black=[(0, 0, 8)]), to_move=1)
    assert not any(a.steps[0][1] == (0, 4, 4) for a in game.legal_actions() if isinstance(a, Move))
    game = rocks(cells(red=[(0, 4, 4)], green=[(1, 4, 3)], black=[(0, 0, 8)]), to_move=0)
    assert {a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move)} == {(0, 3, 5), (0, 5, 3)}


def test_falling_rocks_first_with_six_home_wins() -> None:
    home = [(0, j, 8 - j) for j in range(1, 6)]
    game = rocks(cells(red=[*home, (1, 6, 1)], green=[(8, 0, 0)], black=[(0, 0, 8)]))
    game.apply(Move((((1, 6, 1), (0, 6, 2)),)))
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.termination is Termination.GOAL_REACHED


def test_falling_rocks_passes_the_checker() -> None:
    report = check_game(FallingRocks, range(2))
    assert report.ok, report.problems


def test_falling_rocks_greedy_beats_random() -> None:
    wins = 0
    for seed in range(3):
        game = play(FallingRocks(rng=np.random.default_rng([seed, 1])), ["greedy", "random", "random"], seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (0,)
    assert wins == 3


def test_falling_rocks_physical_capture_is_read_back() -> None:
    game = rocks(cells(red=[(4, 2, 2)], green=[(5, 1, 2)], black=[(0, 0, 8)]))
    capture = Move((((4, 2, 2), (5, 1, 2)), ((5, 1, 2), (2, 6, 0))))
    physical_moves(game, 1, seed=0, players=[Scripted([capture]), Scripted([]), Scripted([])])
    assert game.state[(5, 1, 2)].colour == "red" and game.state[(2, 6, 0)].colour == "green"


# --- Witches' Dance -----------------------------------------------------------------------------


def dance(red: geometry.Slot, green: geometry.Slot, black: list[geometry.Slot], to_move: int = 0) -> WitchesDance:
    """A Witches' Dance with the moving dice in ``red`` and ``green`` and black dice in ``black``."""
    game = WitchesDance(rng=np.random.default_rng(0))
    game.movers = [red, green]
    game.observe(cells(red=[red], green=[green], black=black))
    game.to_move = to_move
    return game


def test_witches_dance_mirror_pattern_is_the_fixed_symmetric_13() -> None:
    game = WitchesDance(rng=np.random.default_rng(0), pattern="mirror")
    black = {s for s in game.state if game.state[s].colour == "black"}
    assert black == set(WitchesDance.PATTERN)
    assert len(black) == 13 and {(j, i, k) for i, j, k in black} == black
    assert game.state[(8, 0, 0)].colour == "red" and game.state[(0, 8, 0)].colour == "green"


def test_witches_dance_draws_its_own_13_away_from_the_corners_with_a_way_through() -> None:
    figures = set()
    for seed in range(30):
        game = WitchesDance(rng=np.random.default_rng(seed))
        black = frozenset(s for s in game.state if game.state[s].colour == "black")
        near = {(8, 0, 0), (0, 8, 0), *geometry.neighbours((8, 0, 0)), *geometry.neighbours((0, 8, 0))}
        assert len(black) == 13 and black.isdisjoint(near) and black <= set(geometry.BASE_SLOTS)
        # each moving die can reach the other's corner (its own funnel counted empty)
        for p in (0, 1):
            assert WitchesDance.STARTS[1 - p] in game.distances(game.state, p, through=True)
        figures.add(black)
        again = WitchesDance(rng=np.random.default_rng(seed))
        assert again.state == game.state  # the seed fixes the figure
    assert len(figures) == 30


def test_witches_dance_refuses_an_unknown_pattern() -> None:
    with pytest.raises(ValueError, match="option pattern of Witches' Dance: expected drawn or mirror, got 'spiral'"):
        WitchesDance(rng=np.random.default_rng(0), pattern="spiral")


def test_witches_dance_standing_counts_the_territory_ahead() -> None:
    # red boxed into its corner's three funnels, green free on the rest: green stands far better
    wall = [(6, 2, 0), (6, 1, 1), (6, 0, 2), (7, 0, 1), (7, 1, 0)]
    game = dance((8, 0, 0), (0, 8, 0), wall)
    assert game.advantage(1) == 0.0 and game.standing(1) > 20 and game.standing(0) < -20


def test_witches_dance_the_mover_steps_or_jumps_and_leaves_a_filler() -> None:
    game = dance((4, 2, 2), (0, 8, 0), [(4, 3, 1)])
    targets = {a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move)}
    assert targets == (set(geometry.neighbours((4, 2, 2))) - {(4, 3, 1)}) | {(4, 4, 0)}
    game.apply(Move((((4, 2, 2), (4, 4, 0)),)))
    assert game.to_move == 0 and game.legal_actions() == [Place((4, 2, 2), "red")]
    game.apply(Place((4, 2, 2), "red"))
    assert game.state[(4, 2, 2)].colour == "red" and game.movers[0] == (4, 4, 0)
    assert game.scores() == (1.0, 0.0) and game.to_move == 1


def test_witches_dance_a_stuck_player_passes_and_the_other_goes_on_to_the_end() -> None:
    wall = [(1, 7, 0), (0, 7, 1), (2, 6, 0), (0, 6, 2)]  # around green's corner, two dice deep
    game = dance((4, 2, 2), (0, 8, 0), wall, to_move=1)
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.outcome is None and game.to_move == 0
    # red boxed in too: both stuck, the game is over and the fillers decide
    box = [n for n in geometry.neighbours((8, 0, 0))] + [(6, 2, 0), (6, 0, 2)]
    game = dance((8, 0, 0), (0, 8, 0), wall + box, to_move=1)
    game.fillers = [3, 2]
    game.observe(game.state)
    game.apply(Pass())
    assert game.outcome is not None and game.outcome.termination is Termination.BLOCKED
    assert game.outcome.winners == (0,)


def test_witches_dance_passes_the_checker() -> None:
    report = check_game(WitchesDance, range(4))
    assert report.ok, report.problems


@pytest.mark.parametrize("greedy", [0, 1])
def test_witches_dance_greedy_beats_random_in_either_seat(greedy: int) -> None:
    alone = lost = 0
    for seed in range(20):
        kinds = ["greedy", "random"] if greedy == 0 else ["random", "greedy"]
        game = play(WitchesDance(rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        alone += game.outcome.winners == (greedy,)
        lost += greedy not in game.outcome.winners
    assert alone >= 15 and lost <= 1  # over 100 seeds each: greedy alone 94 and 84, shared 3 and 6


def test_witches_dance_physical_move_and_filler_are_read_back() -> None:
    game = WitchesDance(rng=np.random.default_rng(3))
    physical_moves(game, 3, seed=3)
    assert game.fillers == [1, 0] and game.vacated == (0, 8, 0) and game.state[(8, 0, 0)].colour == "red"


# --- Steps to the Throne --------------------------------------------------------------------------

RED = [(8, 0, 0), (7, 1, 0), (7, 0, 1)]


def throne(
    runner: geometry.Slot, black: list[geometry.Slot], blue: geometry.UpFaces, legs: int = 2
) -> StepsToTheThrone:
    """The runner to move from ``runner`` with the blue die showing ``blue``."""
    game = StepsToTheThrone(rng=np.random.default_rng(0), legs=legs)
    game.runner, game.blue = runner, blue
    game.observe(cells(red=RED, green=[runner], black=black))
    return game


def test_throne_setup() -> None:
    game = StepsToTheThrone(rng=np.random.default_rng(0))
    assert sorted(s for s in game.state if game.state[s].colour == "red") == sorted(RED)
    assert game.state[(0, 4, 4)].colour == "green" and game.blacks == 41 and game.blue in geometry.ALL_UP_FACES


def test_throne_the_green_die_moves_by_the_blue_faces_pointing_along_the_rows() -> None:
    # blue 1, 2, 3: one funnel along rows of constant i, two along constant j, three along constant k
    game = throne((2, 3, 3), [(3, 3, 2), (5, 0, 3)], (1, 2, 3))
    legal = game.legal_actions()
    moves = {a.steps[0][1] for a in legal if isinstance(a, Move)}
    assert moves == {(2, 4, 2), (2, 2, 4), (0, 3, 5)}  # (4, 3, 1) lies beyond the black die at (3, 3, 2)
    assert Capture((5, 0, 3)) in legal
    game.apply(Capture((5, 0, 3)))
    assert game.legal_actions() == [Move((((2, 3, 3), (5, 0, 3)),))]
    game.apply(Move((((2, 3, 3), (5, 0, 3)),)))
    assert game.to_move == 1 and (5, 0, 3) in game.state and game.state[(5, 0, 3)].colour == "green"
    assert set(game.legal_actions()) == {Place(s, "black") for s in geometry.neighbours((5, 0, 3))}


@pytest.mark.parametrize(("runner", "parity"), [((6, 1, 1), 1), ((6, 2, 0), 0), ((6, 0, 2), 0)])
def test_throne_entering_the_goal_needs_the_right_parity(runner: geometry.Slot, parity: int) -> None:
    for up in geometry.ALL_UP_FACES:
        game = throne(runner, [], up)
        enter = Move(((runner, (7, 0, 0)),))
        assert (enter in game.legal_actions()) == (up[0] % 2 == parity)
    up = next(u for u in geometry.ALL_UP_FACES if u[0] % 2 == parity)
    game = throne(runner, [], up, legs=1)
    game.apply(Move(((runner, (7, 0, 0)),)))
    assert game.outcome is not None and game.outcome.winners == (0,)


def turns_then_enter(game: StepsToTheThrone, turns: int) -> None:
    """The runner plays ``turns - 1`` turns anywhere but the goal (the blocker placing a die after each),
    then stands one row from the goal and enters it on its turn ``turns``."""
    for _ in range(turns - 1):
        runs = [a for a in game.legal_actions() if not (isinstance(a, Move) and a.steps[0][1] == (7, 0, 0))]
        game.apply(runs[0])
        if game.to_move == game.runner_seat:  # a capture: the move in follows
            game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])
    cells = {s: c for s, c in game.state.items() if c.colour != "green" and s != (6, 1, 1)}
    game.observe(PyramidState({**cells, (6, 1, 1): game.state[game.runner]}))
    game.runner = (6, 1, 1)
    game.blue = next(u for u in geometry.ALL_UP_FACES if u[0] % 2 == 1)
    game.apply(Move((((6, 1, 1), (7, 0, 0)),)))


@pytest.mark.parametrize(("second", "captures", "winners"), [(2, 0, (1,)), (4, 0, (0,)), (3, 0, (0, 1)), (3, 1, (1,))])
def test_throne_two_legs_the_faster_runner_wins(second: int, captures: int, winners: tuple[int, ...]) -> None:
    game = StepsToTheThrone(rng=np.random.default_rng(3))
    assert (game.legs, game.runner_seat, game.to_move) == (2, 0, 0)
    turns_then_enter(game, 3)
    assert game.times == [3, None] and game.outcome is None and game.to_move == 1
    assert game.scores() == (3.0, 0.0), "the second runner has no turns yet while the plate is cleared"
    # player 1, the new runner, clears the plate: the black dice off, then the green die back to its start
    blacks = {s for s, c in game.state.items() if c.colour == "black"}
    assert len(blacks) == 2 - game.captures[0]
    for _ in blacks:
        (remove,) = game.legal_actions()
        assert isinstance(remove, Remove) and remove.slot in blacks and game.to_move == 1
        game.apply(remove)
    assert game.legal_actions() == [Move((((7, 0, 0), (0, 4, 4)),))]
    game.apply(Move((((7, 0, 0), (0, 4, 4)),)))
    assert set(game.state) == set(RED) | {(0, 4, 4)} and game.runner == (0, 4, 4)
    assert (game.runner_seat, game.to_move, game.blacks, game.turns) == (1, 1, 41, 0)
    game.captures = [0, captures]
    turns_then_enter(game, second)
    assert game.outcome is not None and game.times == [3, second] and game.outcome.winners == winners


def test_throne_a_runner_who_never_arrives_counts_and_shows_the_same_151_turns() -> None:
    game = StepsToTheThrone(rng=np.random.default_rng(3))
    turns_then_enter(game, 3)
    while game.clearing:
        game.apply(game.legal_actions()[0])
    game.turns = 149  # the second runner's last turn of the leg, far from the goal
    runs = [a for a in game.legal_actions() if not (isinstance(a, Move) and a.steps[0][1] == (7, 0, 0))]
    game.apply(runs[0])
    if game.outcome is None:  # a capture: the move in follows
        game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.times == [3, 151] and game.outcome.winners == (0,)
    assert game.outcome.scores == (3.0, 151.0)
    assert game.score_line(game.outcome.scores) == (
        "turns to the throne: player 0 3, player 1 151 (did not arrive) (fewer wins)"
    )


def test_throne_legs_option_is_checked() -> None:
    with pytest.raises(ValueError, match="option legs of Steps to the Throne: expected 1 or 2, got '3'"):
        StepsToTheThrone(rng=np.random.default_rng(0), legs=3)


def test_throne_a_stuck_green_die_gives_the_blocker_a_die_back() -> None:
    ring = geometry.neighbours((4, 2, 2))
    no_one = next(u for u in geometry.ALL_UP_FACES if 1 not in u)  # every move is 2 or more: over the ring
    game = throne((4, 2, 2), ring, no_one)
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.blacks == 42 and game.to_move == 0


def test_throne_passes_the_checker() -> None:
    report = check_game(StepsToTheThrone, range(4))
    assert report.ok, report.problems


@pytest.mark.parametrize("greedy", [0, 1])
def test_throne_greedy_beats_random_on_either_side(greedy: int) -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy", "random"] if greedy == 0 else ["random", "greedy"]
        game = play(StepsToTheThrone(rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (greedy,)
    assert wins >= 4


def test_throne_physical_climb_into_the_goal_is_read_back() -> None:
    up = next(u for u in geometry.ALL_UP_FACES if u[0] % 2 == 1)
    game = throne((6, 1, 1), [], up)
    carry_back = Move((((7, 0, 0), (0, 4, 4)),))
    physical_moves(game, 2, seed=0, players=[Scripted([Move((((6, 1, 1), (7, 0, 0)),))]), Scripted([carry_back])])
    # the first leg over in one turn; the second runner carried the green die back to its start
    assert game.times == [1, None] and game.runner_seat == 1 and game.state[(0, 4, 4)].colour == "green"
    assert (7, 0, 0) not in game.state and game.outcome is None


@pytest.mark.parametrize("game_cls", [Sandwich, Reducto, WitchesDance, Smuggling, StepsToTheThrone, FallingRocks])
def test_board_games_on_the_plate_number_their_actions_distinctly(game_cls: type[Game]) -> None:
    for seed in range(2):
        game = game_cls(rng=np.random.default_rng(seed))
        rng = np.random.default_rng(seed)
        while not game.is_over and len(game.history) < 150:
            legal = game.legal_actions()
            assert len(set(action_ids(game, legal))) == len(legal)
            game.apply(legal[int(rng.integers(len(legal)))])
