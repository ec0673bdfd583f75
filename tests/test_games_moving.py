"""The tactics games that move dice on the lattice: Masquerade, Race, Flea Chase, Finish, The Fire-Red Devil.

Hand-made positions with known legal moves and outcomes, the conformance checker, greedy against
random, and a few moves of physical play read back from the world.
"""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import physical_moves, play

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer
from pyramid.games.edges import Masquerade, corner_edges, slides_to_sort
from pyramid.games.jumps import Finish, FireRedDevil, FleaChase, Race
from pyramid.moves import carry, jump_targets
from pyramid.rules import Game, IllegalAction, Move, Pass, Place, Termination, check_game
from pyramid.state import Cell, PyramidState

# --- Masquerade -------------------------------------------------------------------------------


def masquerade_with(edges: dict[int, list[str]], top: str = "black", **options: bool) -> Masquerade:
    """A two-player Masquerade whose player 0 edges read ``edges[axis]`` bottom first."""
    game = Masquerade(2, rng=np.random.default_rng(0), **{"others": False, **options})
    cells = dict(game.state.cells)
    for axis, edge in enumerate(corner_edges(game.apexes[0])):
        for slot, colour in zip(edge[:3], edges[axis], strict=True):
            cells[slot] = Cell(colour, cells[slot].up)  # type: ignore[arg-type]
    cells[game.apexes[0]] = Cell(top, cells[game.apexes[0]].up)  # type: ignore[arg-type]
    game.observe(PyramidState(cells))
    return game


@pytest.mark.parametrize("training", [False, True])
def test_masquerade_slides_to_sort_is_exact(training: bool) -> None:
    table = slides_to_sort(training)
    assert len(table) == 16800 and sum(n == 0 for n in table.values()) == 6
    game = Masquerade(2, rng=np.random.default_rng(4), training=training)
    for _ in range(table[game.arrangement(game.state, 0)]):  # follow the table down: one slide nearer each time
        left = game.slides_left(0)
        nearer = [m for m in game.slides(0) if slides_to_sort(training)[slid(game, m)] == left - 1]
        others = [slides_to_sort(training)[slid(game, m)] for m in game.slides(0)]
        assert nearer and all(left - 1 <= n <= left + 3 for n in others)  # three more slides of an edge undo one
        game.apply(nearer[0])
        if game.outcome is None:
            game.apply(game.slides(1)[0])
    assert game.in_place(game.state, 0) == 10 and game.outcome is not None and game.outcome.winners == (0,)


def slid(game: Masquerade, move: Move) -> tuple[str, ...]:
    """Player 0's arrangement after ``move``."""
    trial = game.clone()
    trial.apply(move)
    return trial.arrangement(trial.state, 0)


def test_masquerade_every_start_is_seven_slides_from_sorted_so_seat_0_wins_with_exact_play() -> None:
    for seed in range(20):
        game = Masquerade(3, rng=np.random.default_rng(seed))
        assert [game.slides_left(p) for p in range(3)] == [7, 7, 7]
        assert game.standing(0) == 0.0
    game.apply(next(m for m in game.slides(0) if slides_to_sort(False)[slid(game, m)] == 6))
    assert game.standing(0) == 1.0 and game.standing(1) == -1.0


def test_masquerade_starts_with_every_colour_on_every_edge_and_level() -> None:
    game = Masquerade(3, rng=np.random.default_rng(4))
    assert len(game.state) == 60 and geometry.is_stable(game.state)
    for apex in game.apexes:
        edges = corner_edges(apex)
        assert game.state[apex].colour == "black"
        assert all(sorted(game.state[s].colour for s in e[:3]) == ["blue", "green", "red"] for e in edges)
        assert all(sorted(game.state[e[n]].colour for e in edges) == ["blue", "green", "red"] for n in range(3))
    assert game.scores() == (4.0, 4.0, 4.0)
    assert len(game.legal_actions()) == 9  # three edges of each of the three pyramids


def test_masquerade_slide_takes_the_bottom_die_to_the_top() -> None:
    game = masquerade_with({0: ["red", "green", "blue"], 1: ["red", "green", "blue"], 2: ["green", "red", "blue"]})
    slide = next(a for a in game.legal_actions() if isinstance(a, Move) and a.steps[0][0] == (8, 0, 0))
    game.apply(slide)
    assert [game.state[s].colour for s in corner_edges((5, 0, 0))[0]] == ["green", "blue", "black", "red"]
    assert game.to_move == 1 and not game.is_over
    with pytest.raises(IllegalAction):
        game.apply(slide)  # player 1 may not slide player 0's edges


def test_masquerade_with_others_a_player_sets_back_the_other_one_slide_from_sorted() -> None:
    # player 0 one slide from sorted (edge 0 reads black, red, green with blue on top), player 1 at its start
    game = masquerade_with(
        {0: ["black", "red", "green"], 1: ["red", "green", "blue"], 2: ["red", "green", "blue"]}, "blue", others=True
    )
    game.to_move = 1
    assert game.slides_left(0) == 1 and game.slides_left(1) == 7
    legal = [a for a in game.legal_actions() if isinstance(a, Move)]
    theirs = [a for a in legal if a.steps[0][0] in {e[0] for e in corner_edges(game.apexes[0])}]
    assert len(legal) == 6 and len(theirs) == 3, "player 1 may slide player 0's edges too"
    best = max(legal, key=lambda a: game.heuristic(a) or 0.0)
    assert best in theirs, "greedy spoils the other's last slide rather than take its own first"
    game.apply(best)
    assert game.slides_left(0) > 1 and game.outcome is None
    assert len(masquerade_with({0: ["red"] * 3, 1: ["green"] * 3, 2: ["blue"] * 3}).legal_actions()) == 3
    assert len(Masquerade(3, rng=np.random.default_rng(0)).legal_actions()) == 9, "the main game: any pyramid"
    assert len(Masquerade(3, rng=np.random.default_rng(0), training=True).legal_actions()) == 3


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


class MasqueradeOwn(Masquerade):
    """Masquerade with ``--option others=no`` (the checker builds games without options)."""

    def setup(self) -> None:
        self.options = {**self.options, "others": False}
        super().setup()


def test_masquerade_sliding_your_own_pyramid_only_passes_the_checker() -> None:
    report = check_game(MasqueradeOwn, range(4), 3)
    assert report.ok, report.problems


def test_masquerade_greedy_beats_random() -> None:
    wins = 0
    for seed in range(6):
        game = play(Masquerade(2, rng=np.random.default_rng([seed, 1])), ["greedy", "random"], seed)
        assert game.outcome is not None and 0 in game.outcome.winners  # random spoils it at times, never wins
        wins += game.outcome.winners == (0,)
    assert wins >= 4


def test_masquerade_greedy_never_leaves_another_pyramid_one_slide_from_sorted() -> None:
    table = slides_to_sort(False)
    game = Masquerade(2, rng=np.random.default_rng(0))
    greedy = [GreedyPlayer(np.random.default_rng(p)) for p in range(2)]
    while game.outcome is None:
        me = game.to_move
        game.apply(greedy[me].choose(game, game.legal_actions()))
        if game.outcome is None:
            assert table[game.arrangement(game.state, 1 - me)] >= 2
    # so neither finishes: the spoiling goes on until 30 turns bring no pyramid nearer sorted than ever before
    assert game.outcome.termination is Termination.NO_PROGRESS and game.quiet == 30


def test_masquerade_a_pyramid_one_slide_from_sorted_can_always_be_put_four_back() -> None:
    table = slides_to_sort(False)
    game = Masquerade(2, rng=np.random.default_rng(0))
    for arrangement in (a for a, left in table.items() if left == 1):
        cells = dict(game.state.cells)
        places = [s for edge in corner_edges(game.apexes[0]) for s in edge[:3]] + [game.apexes[0]]
        for slot, colour in zip(places, arrangement, strict=True):
            cells[slot] = Cell(colour, cells[slot].up)
        game.observe(PyramidState(cells))
        game.to_move = 1
        after = [table[game.arrangement(carry(game.state.cells, m.steps), 0)] for m in game.slides(0)]
        assert max(after) == 4


def test_masquerade_physical_slides_are_read_back() -> None:
    physical_moves(Masquerade(2, rng=np.random.default_rng(3)), 3, seed=3)


# --- Flea Chase -------------------------------------------------------------------------------


def test_flea_chase_starts_in_two_corner_triangles_and_jumps_along_the_plate() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    red = game.own(0)
    assert red == sorted(s for s in geometry.BASE_SLOTS if s[0] >= 5) and len(game.own(1)) == 10
    assert len(game.target) == 20 and all(s[2] >= 5 for s in game.target)
    jumps = [a.steps[0] for a in game.legal_actions() if isinstance(a, Move)]
    # on the plate only the dice of the triangle's inner side find an empty funnel next to them ...
    assert {s for s, t in jumps if geometry.layer(t) == 8} == {s for s in red if s[0] == 5}
    # ... and the corner die climbs one layer (an L of 2 and 1) onto a funnel of its own triangle
    corner = {t for s, t in jumps if s == (8, 0, 0)}
    assert corner and all(geometry.layer(t) == 7 and all(u in red for u in geometry.supports(t)) for t in corner)


def test_flea_chase_a_die_in_the_target_stays_in_it() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    cells = {(0, 2, 6): Cell("red"), (0, 3, 5): Cell("red"), (8, 0, 0): Cell("red"), (4, 4, 0): Cell("green")}
    game.observe(PyramidState(cells))
    jumps = [a.steps[0] for a in game.legal_actions() if isinstance(a, Move)]
    inside = [(s, t) for s, t in jumps if s in game.target]
    assert inside and all(t in game.target for s, t in inside)
    assert (0, 4, 4) in jump_targets(set(cells), (0, 3, 5))  # on the plate it could leave the target


def test_flea_chase_a_blocked_player_passes_and_the_blocker_must_lift() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    # green's three dice in corner a are all under the red die in (7, 0, 0)
    cells = {(8, 0, 0): Cell("green"), (7, 1, 0): Cell("green"), (7, 0, 1): Cell("green")}
    cells |= {(7, 0, 0): Cell("red"), (4, 4, 0): Cell("red")}
    game.observe(PyramidState(cells))
    game.to_move = 1
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    sources = {a.steps[0][0] for a in game.legal_actions() if isinstance(a, Move)}
    assert sources == {(7, 0, 0)}  # red's free turn is over: the blockade is lifted
    game.apply(game.legal_actions()[0])
    assert game.outcome is None and len(game.legal_actions()) > 1


def test_flea_chase_a_blocked_player_who_moves_in_the_target_still_gets_the_blockade_lifted() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    # green's three dice in corner a are under the red die in (7, 0, 0); green has a die in the target that can
    # jump to and fro there, which does not count as free: the blocker must lift after one turn all the same
    cells = {(8, 0, 0): Cell("green"), (7, 1, 0): Cell("green"), (7, 0, 1): Cell("green")}
    cells |= {(7, 0, 0): Cell("red"), (4, 4, 0): Cell("red"), (0, 2, 6): Cell("green")}
    game.observe(PyramidState(cells))
    game.to_move = 1
    inside = [a for a in game.legal_actions() if isinstance(a, Move)]
    assert inside and all(a.steps[0][0] == (0, 2, 6) for a in inside)
    game.apply(inside[0])
    assert {a.steps[0][0] for a in game.legal_actions() if isinstance(a, Move)} == {(7, 0, 0)}
    # with a free die outside the target the blockade may stay
    game = FleaChase(2, rng=np.random.default_rng(0))
    game.observe(PyramidState(cells | {(4, 0, 4): Cell("green")}))
    game.to_move = 1
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Move) and a.steps[0][0] == (4, 0, 4)))
    assert {a.steps[0][0] for a in game.legal_actions() if isinstance(a, Move)} == {(7, 0, 0), (4, 4, 0)}


def back_and_forth(game: Game) -> tuple[Move, Move]:
    """A jump of the player to move whose way back is a jump too."""
    for action in game.legal_actions():
        if isinstance(action, Move):
            (source, target), *_ = action.steps
            cells = set(game.state) - {source} | {target}
            if source in jump_targets(cells, target, long=True):
                return action, Move(((target, source),))
    raise AssertionError("no jump with a way back")


def test_flea_chase_a_position_come_about_the_third_time_is_a_draw() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    red, red_back = back_and_forth(game)
    game.apply(red)
    green, green_back = back_and_forth(game)
    for _ in range(2):
        assert game.outcome is None
        game.apply(green)
        game.apply(red_back)
        game.apply(green_back)
        if game.outcome is None:
            game.apply(red)
    assert game.outcome is not None and game.outcome.termination is Termination.REPETITION
    assert len(game.history) == 8 and game.outcome.winners == (0, 1)


def test_flea_chase_is_decided_once_the_second_player_has_needed_more_extra_turns_than_the_target_has_faces() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    target = sorted(game.target - {game.top}, key=geometry.SLOT_INDEX.__getitem__)
    cells = {s: Cell("red", (1, 2, 3)) for s in target[:10]} | {(4, 4, 0): Cell("green"), (4, 0, 4): Cell("green")}
    game.observe(PyramidState(cells))
    game.finished_first, game.extra, game.to_move = 0, [0, 29], 1
    game.apply(game.legal_actions()[0])
    assert game.outcome is None and game.extra == [0, 30]  # 30 - 30 could still tie with a first who shows none
    game.apply(Pass())
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.DECIDED
    assert game.outcome.winners == (0,) and game.extra == [0, 31]


def test_flea_chase_ends_with_nineteen_dice_and_counts_faces_and_extra_turns() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    target = sorted(game.target - {game.top}, key=geometry.SLOT_INDEX.__getitem__)
    # red holds ten target slots, green nine below the top but one: green's last die jumps in
    cells = {s: Cell("red" if n % 2 else "green", (1, 2, 3)) for n, s in enumerate(target)}
    last = next(s for s in reversed(target) if geometry.layer(s) == 8 and cells[s].colour == "green")
    del cells[last]
    outside = next(
        s
        for s in geometry.BASE_SLOTS
        if s not in game.target and (last[0] - s[0], last[1] - s[1], last[2] - s[2]) in geometry.NEIGHBOUR_STEPS
    )
    cells[outside] = Cell("green", (1, 2, 3))
    game.observe(PyramidState(cells))
    game.finished_first, game.extra, game.to_move = 0, [0, 3], 1
    game.apply(Move(((outside, last),)))
    assert game.outcome is not None and game.outcome.termination is Termination.PYRAMID_COMPLETE
    red_faces = sum(1 for s, _ in geometry.exposed_faces(game.state) if game.state[s].colour == "red")
    green_faces = sum(1 for s, _ in geometry.exposed_faces(game.state) if game.state[s].colour == "green")
    assert game.outcome.scores == (red_faces, green_faces - 4)


def test_flea_chase_the_top_of_the_target_can_never_be_reached() -> None:
    game = FleaChase(2, rng=np.random.default_rng(0))
    below = set(game.target - {game.top})
    outside_base = [s for s in geometry.BASE_SLOTS if s not in game.target]
    assert not any(game.top in jump_targets(below | {s}, s, long=True) for s in outside_base)
    assert not any(game.top in jump_targets(below, s, long=True) for s in below)


# --- Race -------------------------------------------------------------------------------------


def race_with(cells: dict[geometry.Slot, Cell], to_move: int = 0, players: int = 3) -> Race:
    """A Race on ``cells`` with ``to_move`` to play."""
    game = Race(players, rng=np.random.default_rng(0))
    game.observe(PyramidState(cells))
    game.to_move = to_move
    return game


def test_race_starts_with_dice_in_hand_entered_rolled_at_the_start_line() -> None:
    game = Race(3, rng=np.random.default_rng(0))
    assert len(game.state) == 0 and game.dice_left() == (5, 5, 5)
    assert Race(4, rng=np.random.default_rng(0)).dice_left() == (4, 4, 4, 4)
    entries = game.legal_actions()
    assert {a.slot for a in entries if isinstance(a, Place)} == {s for s in geometry.BASE_SLOTS if s[2] == 0}
    assert all(isinstance(a, Place) and a.up is None for a in entries)  # rolled in: faces as they fall
    first = entries[0]
    assert isinstance(first, Place)
    game.apply(first)
    assert game.dice_left() == (4, 5, 5) and game.state[first.slot].colour == "red" and game.to_move == 1


def test_race_the_finish_area_scores_outward_faces_by_row() -> None:
    area = [s for s in geometry.BASE_SLOTS if s[2] >= 4]
    outer = [s for s in area if Race.outward(s)]
    assert len(area) == 15 and len(outer) == 12
    assert sorted(set(area) - set(outer)) == [(1, 1, 6), (1, 2, 5), (2, 1, 5)]
    assert Race.outward((0, 0, 8)) == (0, 1) and Race.outward((4, 0, 4)) == (1, 2) and Race.outward((2, 2, 4)) == (2,)
    assert [Race.multiplier(s) for s in ((2, 2, 4), (0, 3, 5), (0, 2, 6), (1, 0, 7), (0, 0, 8))] == [1, 2, 2, 3, 3]
    # red in the far corner shows 5 along +i and 4 along +j: (5 + 4) x 3; green at (2, 2, 4) 6 along +k: x1
    game = race_with({(0, 0, 8): Cell("red", (5, 4, 1)), (2, 2, 4): Cell("green", (3, 2, 6)), (1, 1, 6): Cell("black")})
    assert game.scores() == (27.0, 6.0, 0.0)  # black's die inside the area scores nothing
    # a die resting on green's (on (2, 2, 4) and two more) covers its +k face
    cover = {(3, 2, 3): Cell("black"), (2, 3, 3): Cell("black"), (2, 2, 3): Cell("black")}
    assert race_with({(2, 2, 4): Cell("green", (3, 2, 6))} | cover).points(1) == 0


def test_race_a_die_in_the_finish_area_jumps_only_within_it() -> None:
    game = race_with({(0, 4, 4): Cell("red"), (3, 5, 0): Cell("red")})
    jumps = [a for a in game.legal_actions() if isinstance(a, Move)]
    from_area = [a.steps[0][1] for a in jumps if a.steps[0][0] == (0, 4, 4)]
    assert from_area and all(t[2] >= 4 and geometry.layer(t) == geometry.BASE_LAYER for t in from_area)
    assert set(from_area) == {t for t in jump_targets(set(game.state), (0, 4, 4), True) if t[2] >= 4}
    assert any(a.steps[0][0] == (3, 5, 0) for a in jumps)


def test_race_ends_when_the_twelve_outer_funnels_are_taken() -> None:
    outer = [s for s in geometry.BASE_SLOTS if Race.outward(s)]
    cells = {s: Cell(("red", "green", "black")[n % 3], (4, 5, 6)) for n, s in enumerate(outer[:-1])}
    last = outer[-1]
    source = next(s for s in geometry.BASE_SLOTS if s[2] < 4 and last in jump_targets({s}, s, True))
    game = race_with(cells | {source: Cell("red", (1, 2, 3))})
    game.apply(Move(((source, last),)))
    assert game.outcome is not None and game.outcome.termination is Termination.FINISH_FILLED
    assert game.outcome.scores == tuple(float(game.points(p)) for p in range(3))
    assert game.outcome.winners == (int(np.argmax(game.outcome.scores)),)


# --- Finish -----------------------------------------------------------------------------------


def test_finish_starts_with_six_dice_in_each_corner_and_one_on_top() -> None:
    game = Finish(3, rng=np.random.default_rng(0))
    assert len(game.state) == 21 and geometry.is_stable(game.state)
    assert game.state[(7, 0, 0)].colour == "red" and game.state[(0, 7, 0)].colour == "green"
    assert game.scores() == (0.0, 0.0, 0.0)
    assert Finish.on_line((0, 4, 4), 0) and not Finish.on_line((0, 4, 3), 0) and not Finish.on_line((1, 4, 3), 0)


def test_finish_first_with_seven_dice_on_the_far_edge_wins() -> None:
    game = Finish(3, rng=np.random.default_rng(0))
    line = [(0, j, 8 - j) for j in range(1, 7)]
    cells = {s: Cell("red") for s in line} | {
        (1, 0, 7): Cell("red"),
        (4, 4, 0): Cell("green"),
        (4, 0, 4): Cell("black"),
    }
    game.observe(PyramidState(cells))
    win = Move((((1, 0, 7), (0, 0, 8)),))
    assert win in game.legal_actions() and game.heuristic(win) == max(
        game.heuristic(a) or 0 for a in game.legal_actions()
    )
    game.apply(win)
    assert game.outcome is not None and game.outcome.winners == (0,) and game.outcome.scores[0] == 7


def test_finish_a_stuck_player_makes_the_blocker_lift() -> None:
    game = Finish(3, rng=np.random.default_rng(0))
    # green's only die sits on the finish line under... red rests on green's die and a black die at its side
    cells = {(0, 4, 4): Cell("green"), (1, 3, 4): Cell("black"), (0, 3, 5): Cell("black"), (0, 3, 4): Cell("red")}
    cells |= {(6, 1, 1): Cell("red"), (4, 0, 4): Cell("black")}
    game.observe(PyramidState(cells))
    assert game.is_stuck(1) and not game.is_stuck(0)
    game.stuck = [False, True, False]
    lifts = {a.steps[0][0] for a in game.legal_actions() if isinstance(a, Move)}
    assert lifts == {(0, 3, 4)}  # red must jump the die that rests on green's


# --- The Fire-Red Devil -----------------------------------------------------------------------


def devil_game(angel: tuple[int, int, int], devil: tuple[int, int, int], **options: object) -> FireRedDevil:
    game = FireRedDevil(2, rng=np.random.default_rng(0), **options)
    cells = {s: c for s, c in game.state.items() if c.colour == "black"}
    cells[angel], cells[devil] = Cell("gold"), Cell("red")
    game.observe(PyramidState(cells))
    return game


def test_devil_each_jump_leaves_a_green_die_behind() -> None:
    game = devil_game((8, 0, 0), (0, 0, 8))
    assert game.to_move == 0
    jump = game.legal_actions()[0]
    assert isinstance(jump, Move)
    game.apply(jump)
    assert game.legal_actions() == [Place((8, 0, 0), "green")] and game.to_move == 0
    game.apply(Place((8, 0, 0), "green"))
    assert game.greens == [44, 45] and game.to_move == 1 and game.state[(8, 0, 0)].colour == "green"


def test_devil_catches_the_angel_by_coming_to_rest_on_her() -> None:
    # the angel in (8, 0, 0) with green dice beside her; the devil jumps into the funnel above her
    game = devil_game((8, 0, 0), (6, 2, 0))
    cells = dict(game.state.cells) | {(7, 1, 0): Cell("green"), (7, 0, 1): Cell("green")}
    game.observe(PyramidState(cells))
    game.to_move = 1
    catch = Move((((6, 2, 0), (7, 0, 0)),))
    assert catch in game.legal_actions() and game.heuristic(catch) == 1000.0
    game.apply(catch)
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert game.outcome.termination is Termination.GOAL_REACHED


@pytest.mark.parametrize(("stuck", "caught"), [(False, False), (True, True)])
def test_devil_an_angel_who_cannot_jump(stuck: bool, caught: bool) -> None:
    # the angel in corner a is hemmed in: her two neighbours are taken and the funnel above them needs (7, 0, 1)'s
    game = devil_game((8, 0, 0), (4, 4, 0), stuck=stuck)
    cells = dict(game.state.cells) | {(7, 1, 0): Cell("green"), (7, 0, 1): Cell("green"), (6, 2, 0): Cell("green")}
    cells |= {(6, 1, 1): Cell("green"), (6, 0, 2): Cell("green"), (7, 0, 0): Cell("green")}
    game.observe(PyramidState(cells))
    assert game.jumps(0) == [] and game.caught() is caught


def test_devil_the_angel_escapes_when_the_last_green_die_is_used_the_devils() -> None:
    game = devil_game((8, 0, 0), (0, 0, 8), greens=1)
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert game.greens == [0, 1] and game.outcome is None and game.to_move == 1  # the devil's last die is to come
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.termination is Termination.ALL_PLACED
    assert game.outcome.result() == "player 0 wins (the last green die is used: the angel has escaped)"


def test_devil_a_player_who_cannot_jump_passes_and_sets_a_green_die_aside() -> None:
    game = devil_game((8, 0, 0), (4, 4, 0))
    cells = dict(game.state.cells) | {(7, 1, 0): Cell("green"), (7, 0, 1): Cell("green"), (6, 2, 0): Cell("green")}
    cells |= {(6, 1, 1): Cell("green"), (6, 0, 2): Cell("green"), (7, 0, 0): Cell("green")}
    game.observe(PyramidState(cells))
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.greens == [44, 45] and game.to_move == 1 and len(game.state) == len(cells)


# --- every jumping game -----------------------------------------------------------------------


@pytest.mark.parametrize("game_cls", [Race, FleaChase, Finish, FireRedDevil])
def test_jumping_games_pass_the_checker(game_cls: type[Game]) -> None:
    report = check_game(game_cls, range(3))
    assert report.ok, report.problems


@pytest.mark.parametrize(("game_cls", "players"), [(Race, 3), (FleaChase, 2), (Finish, 3), (FireRedDevil, 2)])
def test_jumping_games_greedy_beats_random(game_cls: type[Game], players: int) -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy"] + ["random"] * (players - 1)
        game = play(game_cls(players, rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (0,)
    assert wins >= 4


@pytest.mark.parametrize(("game_cls", "players"), [(Race, 3), (FleaChase, 2), (FireRedDevil, 2)])
def test_jumping_games_physical_jumps_are_read_back(game_cls: type[Game], players: int) -> None:
    physical_moves(game_cls(players, rng=np.random.default_rng(5)), 4, seed=5)
