"""The tactics games of slides and jumps by whole pyramids: Slide, Slipped, Mound Mover, Diebylon.

Hand-made positions with known legal moves and outcomes, the conformance checker, greedy against
random, and a few moves of physical play read back from the world.
"""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import physical_moves, play

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer
from pyramid.agents.search import UctSearch
from pyramid.encoding import observation_tensor, observation_text
from pyramid.games.mounds import Diebylon, MoundMover, clockwise, corner_pyramid
from pyramid.games.slides import APEX, OBJECTIVES, Slide, Slipped, spar
from pyramid.geometry import Slot, UpFaces
from pyramid.moves import carry, edge_slide, jump_targets, move_length
from pyramid.rules import Game, IllegalAction, Move, Pass, Place, Remove, Termination, check_game
from pyramid.state import Cell, PyramidState


def showing(axis: int, value: int, other: int | None = None) -> UpFaces:
    """A way to sit that shows ``value`` along cube axis ``axis`` (and ``other`` along the next axis, if given)."""
    return next(
        up for up in geometry.ALL_UP_FACES if up[axis] == value and (other is None or up[(axis + 1) % 3] == other)
    )


def slide_slots(move: Move) -> tuple[Slot, Slot]:
    """The die a slide takes out and where it goes."""
    return move.steps[0]


# --- Slide ------------------------------------------------------------------------------------


def test_slide_starts_with_a_green_roof_on_a_black_pyramid() -> None:
    game = Slide(3, rng=np.random.default_rng(0))
    greens = {s for s, c in game.state.items() if c.colour == "green"}
    assert len(game.state) == 165 and len(greens) == 25
    assert greens == {s for s in geometry.SLOTS if sorted(s)[:2] == [0, 0]}
    game.apply(Pass())  # the top die left as it lies
    slides = [a for a in game.legal_actions() if isinstance(a, Move)]
    # player 0 looks at the plane i = 0: its spars run along j and k, 8 dice below the top each
    assert len(slides) == 16 and {slide_slots(m)[1] for m in slides} == {APEX}
    assert {slide_slots(m)[0] for m in slides} == {s for s in greens if s[0] == 0 and s != APEX}


def test_slide_turns_the_top_then_slides_it_into_the_spar() -> None:
    game = Slide(3, rng=np.random.default_rng(1))
    assert game.legal_actions() == [Pass(), Remove(APEX)]  # first the top die: leave it or turn it
    game.apply(Remove(APEX))
    places = game.legal_actions()
    assert len(places) == 24 and all(isinstance(p, Place) and p.slot == APEX for p in places)
    game.apply(Place(APEX, "green", showing(0, 6, 5)))
    before = dict(game.state.cells)
    assert game.to_move == 0 and before[APEX] == Cell("green", showing(0, 6, 5))
    slide = next(a for a in game.legal_actions() if isinstance(a, Move) and slide_slots(a)[0] == (0, 5, 0))
    game.apply(slide)
    # the die from (0, 5, 0) is on top as it lay; the dice above it, the turned top the last, moved one slot down
    assert game.state[APEX] == before[(0, 5, 0)]
    assert [game.state[(0, n, 0)] for n in range(1, 6)] == [before[(0, n, 0)] for n in range(0, 5)]
    assert game.state[(0, 1, 0)] == Cell("green", showing(0, 6, 5))
    assert all(game.state[(0, n, 0)] == before[(0, n, 0)] for n in range(6, 9))
    assert game.to_move == 1 and game.legal_actions() == [Pass(), Remove(APEX)]
    with pytest.raises(IllegalAction):
        game.apply(Move(((((0, 8, 0), APEX)),)))  # not a top turned or left: a slide comes after


def test_slide_turn_last_turns_the_die_slid_out() -> None:
    game = Slide(3, rng=np.random.default_rng(1), turn="last")
    before = dict(game.state.cells)
    slide = next(a for a in game.legal_actions() if isinstance(a, Move) and slide_slots(a)[0] == (0, 5, 0))
    game.apply(slide)
    assert game.state[APEX] == before[(0, 5, 0)]
    assert game.to_move == 0 and game.legal_actions() == [Pass(), Remove(APEX)]
    game.apply(Remove(APEX))
    game.apply(Place(APEX, "green", showing(0, 6, 5)))
    assert game.state[APEX] == Cell("green", showing(0, 6, 5)) and game.to_move == 1
    assert all(isinstance(a, Move) for a in game.legal_actions())


@pytest.mark.parametrize(("option", "value"), [("goal", "edge"), ("turn", "never")])
def test_slide_refuses_an_unknown_option_value(option: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"option {option} of Slide: expected .* got '{value}'"):
        Slide(3, rng=np.random.default_rng(0), **{option: value})


def test_slide_is_won_when_a_spar_on_your_side_shows_one_number() -> None:
    game = Slide(3, rng=np.random.default_rng(2))
    cells = dict(game.state.cells)
    for s in spar(1)[:-1]:  # spar j, below the top: a 6 on player 0's side
        cells[s] = Cell("green", showing(0, 6))
    cells[APEX] = Cell("green", showing(0, 2))
    cells[(0, 0, 3)] = Cell("green", showing(0, 6, 3))  # the one die of spar k showing 6 to player 0
    for s in spar(2)[:-1]:
        if s != (0, 0, 3):
            cells[s] = Cell("green", showing(0, 1, 3))
    game.observe(PyramidState(cells))
    assert game.scores()[0] == 8
    # the top goes into the spar slid: leave it, and take the 6 out of spar k, so spar j keeps its eight 6s
    best = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    assert best == Pass()
    game.apply(best)
    slide = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    assert isinstance(slide, Move) and slide_slots(slide)[0] == (0, 0, 3)
    game.apply(slide)
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,) and game.outcome.scores[0] == 9


def test_slide_roof_goal_is_won_when_the_roof_on_your_side_shows_one_number() -> None:
    game = Slide(3, rng=np.random.default_rng(2), goal="roof", turn="last")
    cells = dict(game.state.cells)
    roof = {s for axis in (1, 2) for s in spar(axis)}
    for s in roof:
        cells[s] = Cell("green", showing(0, 6))
    cells[(0, 0, 8)] = Cell("green", showing(0, 2))  # one die of spar k shows 2 on player 0's side
    game.observe(PyramidState(cells))
    assert game.scores()[0] == 16
    best = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    assert isinstance(best, Move) and slide_slots(best)[0] == (0, 0, 8)
    game.apply(best)
    assert game.outcome is None and game.scores()[0] == 16  # the 2 is on top now, still to be turned
    game.apply(Remove(APEX))
    turn = max(game.legal_actions(), key=lambda a: game.heuristic(a) or 0.0)
    assert isinstance(turn, Place) and turn.up is not None and turn.up[0] == 6
    game.apply(turn)
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,) and game.outcome.scores[0] == 17


# --- Slipped ----------------------------------------------------------------------------------


def test_slipped_objectives_count_the_dice_of_the_best_edge() -> None:
    odd = next(o for o in OBJECTIVES if o.text == "an edge all odd")
    sixes = next(o for o in OBJECTIVES if o.text == "an edge with a 6 on every die")
    game = Slipped(3, rng=np.random.default_rng(0))
    cells = dict(game.state.cells)
    # spar i shows faces along j and k: 1 and 3 on every die but the bottom one, which shows 2 along j
    for s in spar(0):
        cells[s] = Cell("green", showing(1, 1, 3))
    cells[(8, 0, 0)] = Cell("green", showing(1, 2, 3))
    assert odd.progress(cells) == 8 and sixes.progress(cells) <= 9
    cells[(8, 0, 0)] = Cell("green", showing(1, 5, 3))
    assert odd.progress(cells) == 9
    for s in spar(2):  # spar k shows faces along i and j: a 6 along i on every die
        cells[s] = Cell("green", showing(0, 6))
    cells[APEX] = Cell("green", showing(0, 6, 3))  # the top shows 6 to spar k's side i and 3 to spar i's side j
    assert sixes.progress(cells) == 9


@pytest.mark.parametrize("option", [{"goal": "roof"}, {"turn": "first"}, {"goal": "nonsense"}])
def test_slipped_refuses_slides_options_which_it_would_ignore(option: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="unknown option"):
        Slipped(3, rng=np.random.default_rng(0), **option)
    assert Slide(3, rng=np.random.default_rng(0), goal="roof").goal == "roof"


def test_slipped_ends_when_no_objective_of_the_deck_comes_nearer_whatever_the_slips() -> None:
    game = Slipped(2, rng=np.random.default_rng(0))
    other = game.clone()
    other.objectives = list(reversed(OBJECTIVES[:2]))  # other slips, the same dice: the same public count
    assert game.milestones() == other.milestones() and len(game.milestones()) == len(OBJECTIVES)
    # every objective already at its best: the 60th quiet turn ends the game
    game.best, game.quiet = (9.0,) * len(OBJECTIVES), Slipped.quiet_turns - 1
    while game.to_move == 0 and game.outcome is None:
        game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.NO_PROGRESS


def test_slipped_standing_counts_the_lead_in_dice_of_the_best_edge() -> None:
    game = Slipped(2, rng=np.random.default_rng(0))
    game.objectives = [next(o for o in OBJECTIVES if o.text == t) for t in ("an edge all odd", "an edge all even")]
    cells = dict(game.state.cells)
    for s in spar(0):
        cells[s] = Cell("green", showing(1, 1, 3))  # odd to both sides of spar i, but the bottom die
    cells[(8, 0, 0)] = Cell("green", showing(1, 2, 3))
    game.observe(PyramidState(cells))
    odd, even = (o.progress(game.state) for o in game.objectives)
    assert (odd, even) == (8, even) and even < 8
    assert game.scores()[0] - game.scores()[1] == pytest.approx((8 - even) / 9)
    assert game.standing(0) == pytest.approx(8 - even) and game.standing(1) == pytest.approx(even - 8)


def test_slipped_slides_any_spar_and_its_objective_wins() -> None:
    game = Slipped(3, rng=np.random.default_rng(3))
    assert len([a for a in game.legal_actions() if isinstance(a, Move)]) == 24
    game.objectives[1] = next(o for o in OBJECTIVES if o.text == "an edge with a 6 on every die")
    cells = dict(game.state.cells)
    for s in spar(2):
        cells[s] = Cell("green", showing(0, 6))
    cells[(0, 0, 4)] = Cell("green", showing(0, 1, 3))  # shows no 6 along i or j
    game.observe(PyramidState(cells))
    game.to_move = 1
    assert game.scores()[1] == pytest.approx(8 / 9)
    take = next(a for a in game.legal_actions() if isinstance(a, Move) and slide_slots(a)[0] == (0, 0, 4))
    game.apply(take)
    game.apply(Remove(APEX))
    game.apply(Place(APEX, "green", showing(0, 6)))
    assert game.outcome is not None and game.outcome.winners == (1,)


# --- Mound Mover -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_cls", [MoundMover, Diebylon])
def test_corner_games_turns_go_clockwise_so_each_target_is_the_next_players_corner(
    game_cls: type[MoundMover | Diebylon],
) -> None:
    game = game_cls(3, rng=np.random.default_rng(0))
    starts = [sorted(s for s, c in game.state.items() if c.colour == colour) for colour in game.colours]
    corners = [next(n for n in range(3) if starts[p] == sorted(corner_pyramid(game.size, n))) for p in range(3)]
    for p in range(3):
        # the next player in turn sits at the corner next clockwise: its pyramid stands in p's target
        assert corners[game.next_player(p)] == clockwise(corners[p])
        assert sorted(game.targets[p]) == starts[game.next_player(p)]


def mound_with(cells: dict[Slot, str]) -> MoundMover:
    """A Mound Mover whose dice stand in ``cells`` (slot -> colour)."""
    game = MoundMover(3, rng=np.random.default_rng(0))
    game.observe(PyramidState({s: Cell(c, (1, 2, 3)) for s, c in cells.items()}))  # type: ignore[arg-type]
    return game


def test_mound_mover_starts_with_only_the_steep_jump_of_the_top() -> None:
    game = MoundMover(3, rng=np.random.default_rng(0))
    assert len(game.state) == 60 and geometry.is_stable(game.state)
    assert game.targets[0] == corner_pyramid(20, 2) and game.targets[2] == corner_pyramid(20, 0)
    # every die is under the top, and the top stands three layers above the plate: Flea Chase's jumps fail
    assert jump_targets(set(game.state), (5, 0, 0), long=True) == []
    moves = {a.steps[0] for a in game.legal_actions() if isinstance(a, Move)}
    assert moves == {((5, 0, 0), (4, 4, 0)), ((5, 0, 0), (4, 0, 4))}


def test_mound_mover_a_jump_into_a_funnel_blocks_the_dice_below() -> None:
    cells = {(4, 4, 0): "green", (3, 5, 0): "green", (3, 4, 1): "black", (5, 3, 0): "red"}
    game = mound_with(cells)
    game.to_move, game._legal_cache = 1, None
    assert {a.steps[0][0] for a in game.legal_actions() if isinstance(a, Move)} == {(4, 4, 0), (3, 5, 0)}
    game.to_move, game._legal_cache = 0, None
    block = Move((((5, 3, 0), (3, 4, 0)),))  # the L of 2 and 1 up a layer, onto both green dice
    assert block in game.legal_actions()
    game.apply(block)
    assert game.to_move == 1 and game.legal_actions() == [Pass()]  # green is blocked for as long as red stays


def test_mound_mover_is_won_at_the_end_of_the_round_and_shared_by_two_in_it() -> None:
    red_below = corner_pyramid(20, 2)[:-1]  # player 0's target, corner c, without its top
    green_below = corner_pyramid(20, 1)[:-1]  # player 1's target, corner b
    cells = {s: "red" for s in red_below} | {s: "green" for s in green_below}
    cells |= {(4, 4, 0): "red", (0, 4, 4): "green", (3, 3, 2): "black"}
    game = mound_with(cells)
    crown = Move((((4, 4, 0), (0, 0, 5)),))
    assert crown in game.legal_actions()
    game.apply(crown)
    assert game.outcome is None and game.scores()[0] == 20  # the round goes on
    game.apply(Move((((0, 4, 4), (0, 5, 0)),)))  # green crowns too, in the same round
    game.apply(game.legal_actions()[0])
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0, 1)


# --- Diebylon ---------------------------------------------------------------------------------


def diebylon_with(cells: dict[Slot, str], rolled: int, **options: bool) -> Diebylon:
    """A Diebylon whose dice stand in ``cells`` (slot -> colour), player 0 to move with ``rolled``."""
    game = Diebylon(3, rng=np.random.default_rng(0), **options)
    game.observe(PyramidState({s: Cell(c, (1, 2, 3)) for s, c in cells.items()}))  # type: ignore[arg-type]
    game.rolled = rolled
    return game


@pytest.mark.parametrize("rolled", [1, 2, 3, 4, 5, 6])
def test_diebylon_starts_only_with_a_4_or_a_6(rolled: int) -> None:
    game = Diebylon(3, rng=np.random.default_rng(0))
    game.rolled, game._legal_cache = rolled, None
    moves = [a.steps[0] for a in game.legal_actions() if isinstance(a, Move)]
    if rolled in (4, 6):
        assert moves and all(s == (6, 0, 0) and move_length(s, t) == rolled for s, t in moves)
        assert all(geometry.layer(t) == 8 for _, t in moves)
    else:
        assert game.legal_actions() == [Pass()]


def test_diebylon_moves_in_a_layer_only_with_even_numbers() -> None:
    for rolled in range(2, 7):
        game = diebylon_with({(4, 2, 2): "red", (2, 2, 4): "green"}, rolled)
        targets = [a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move)]
        assert bool(targets) == (rolled % 2 == 0)
        assert all(geometry.layer(t) == 8 and move_length((4, 2, 2), t) == rolled for t in targets)


def test_diebylon_a_1_swaps_a_blocked_die_with_its_blocker() -> None:
    cells = {(4, 4, 0): "red", (3, 5, 0): "black", (3, 4, 1): "black", (3, 4, 0): "green", (6, 1, 1): "red"}
    game = diebylon_with(cells, 1)
    swap = Move((((3, 4, 0), (4, 4, 0)), ((4, 4, 0), (3, 4, 0))))
    assert game.legal_actions() == [swap]
    game.apply(swap)
    assert game.state[(3, 4, 0)].colour == "red" and game.state[(4, 4, 0)].colour == "green"
    assert game.to_move == 1
    game.rolled, game._legal_cache = 1, None
    assert game.legal_actions() == [Move((((3, 4, 0), (4, 4, 0)), ((4, 4, 0), (3, 4, 0))))]  # green's turn to swap
    assert diebylon_with({(4, 2, 2): "red", (2, 2, 4): "green"}, 1).legal_actions() == [Pass()]  # nothing blocked


@pytest.mark.parametrize("faster", [False, True])
def test_diebylon_is_won_by_the_pyramid_in_the_next_corner(faster: bool) -> None:
    target = corner_pyramid(10, 2)  # player 0's: corner c, its top (0, 0, 6) last
    assert target[-1] == (0, 0, 6)
    below = {s: "red" for s in target[:-1]}
    game = diebylon_with(below | {(2, 1, 5): "red"}, 4, faster=faster)
    game.apply(Move((((2, 1, 5), (0, 0, 6)),)))
    assert game.outcome is not None and game.outcome.winners == (0,) and game.outcome.scores[0] == 10
    # the faster variant: the top is enough, on any dice
    game = diebylon_with({s: "black" for s in target[:-1]} | {(2, 1, 5): "red"}, 4, faster=faster)
    game.apply(Move((((2, 1, 5), (0, 0, 6)),)))
    assert (game.outcome is not None) == faster


def test_diebylon_fill_chance_counts_the_numbers_that_carry_a_free_die_into_the_target() -> None:
    # red's target is corner c; from (2, 2, 4) its open base slots lie at lengths 4, 6 and 8
    game = diebylon_with({(2, 2, 4): "red"}, 4)
    assert sorted({move_length((2, 2, 4), s) for s in game.targets[0] if geometry.layer(s) == 8}) == [4, 6, 8]
    assert game.fill_chance(0) == pytest.approx(2 / 6)
    assert game.standing(0) == pytest.approx(game.progress(game.state.cells, 0) + Diebylon.FILL_WEIGHT * 2 / 6)
    # a die another rests on cannot be lifted: no number fills
    above = geometry.resting_on((2, 2, 4))[0]
    beside = {s: "green" for s in geometry.supports(above) if s != (2, 2, 4)}
    under = diebylon_with({(2, 2, 4): "red", above: "green"} | beside, 4)
    assert under.fill_chance(0) == 0.0


def test_diebylon_fill_chance_agrees_with_the_legal_moves_of_each_number() -> None:
    game = Diebylon(3, rng=np.random.default_rng(3))
    greedy = [GreedyPlayer(np.random.default_rng(p)) for p in range(3)]
    checked = 0
    while game.outcome is None:
        me = game.to_move
        if game.arrived(me) >= 4:
            filling = 0
            for rolled in range(2, 7):
                trial = game.clone()
                trial.rolled, trial._legal_cache = rolled, None
                arrived = trial.arrived(me)
                filling += any(trial.arrived(me, trial.after_state(a)) > arrived for a in trial.legal_actions())
            assert game.fill_chance(me) == pytest.approx(filling / 6)
            checked += 1
        game.apply(greedy[me].choose(game, game.legal_actions()))
    assert checked > 30


def test_corner_race_standing_is_the_own_progress_whatever_the_others_do() -> None:
    game = diebylon_with({(4, 2, 2): "red", (2, 2, 4): "green", (2, 4, 2): "black"}, 4)
    before, green = game.standing(0), game.progress(game.state.cells, 1)
    assert game.fill_chance(0) == 0.0 and before == game.progress(game.state.cells, 0)  # no number reaches corner c
    # green carries its die into its target (the 10 slots of corner b): red's standing does not move
    cells = dict(game.state.cells)
    cells[(1, 6, 1)] = cells.pop((2, 2, 4))
    game.observe(PyramidState(cells))
    assert (1, 6, 1) in game.targets[1] and game.progress(game.state.cells, 1) >= green + 10
    assert game.standing(0) == before
    # red carries its die into its target (corner c): its standing grows by at least a die's 10
    assert (1, 1, 6) in game.targets[0]
    cells = dict(game.state.cells)
    cells[(1, 1, 6)] = cells.pop((4, 2, 2))
    game.observe(PyramidState(cells))
    assert game.standing(0) >= before + 10


# --- every game of this file ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_cls", "players"), [(Slide, 3), (Slide, 2), (Slipped, 4), (MoundMover, 3), (Diebylon, 3)]
)
def test_sliding_games_pass_the_checker(game_cls: type[Game], players: int) -> None:
    report = check_game(game_cls, range(2), players)
    assert report.ok, report.problems


@pytest.mark.parametrize(
    ("game_cls", "players", "seeds"), [(Slide, 2, 3), (Slipped, 3, 6), (MoundMover, 3, 4), (Diebylon, 3, 4)]
)
def test_sliding_games_greedy_beats_random(game_cls: type[Game], players: int, seeds: int) -> None:
    wins = 0
    for seed in range(seeds):
        kinds = ["greedy"] + ["random"] * (players - 1)
        game = play(game_cls(players, rng=np.random.default_rng([seed, 1])), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (0,)
    assert wins >= seeds - 1


def test_slide_physical_slide_and_turn_are_read_back() -> None:
    physical_moves(Slide(3, rng=np.random.default_rng(5)), 3, seed=5)


@pytest.mark.parametrize("game_cls", [MoundMover, Diebylon])
def test_corner_games_physical_moves_are_read_back(game_cls: type[Game]) -> None:
    physical_moves(game_cls(3, rng=np.random.default_rng(4)), 4, seed=4)


def test_slipped_a_player_planning_ahead_sees_its_own_slip_and_never_the_others() -> None:
    game = Slipped(3, rng=np.random.default_rng(5))
    search = UctSearch(iterations=1, rng=np.random.default_rng(0))
    own, hidden = game.objectives[game.to_move], [o for p, o in enumerate(game.objectives) if p != game.to_move]
    believed = []
    for _ in range(60):
        copy = search.fork(game)
        assert isinstance(copy, Slipped) and copy.objectives[game.to_move] == own
        others = [o for p, o in enumerate(copy.objectives) if p != game.to_move]
        assert own not in others and len(set(map(id, others))) == len(others)
        believed.append(tuple(o.text for o in others))
    assert len(set(believed)) > 20  # drawn afresh: the copies guess, they do not know
    assert sum(b == tuple(o.text for o in hidden) for b in believed) < 10
    assert game.objectives[game.to_move] == own and [o for o in game.objectives if o != own] == hidden  # untouched


def test_slipped_clues_count_what_each_turn_did_to_every_objective_for_its_player_only() -> None:
    game = Slipped(2, rng=np.random.default_rng(3))
    index = {o: n for n, o in enumerate(OBJECTIVES)}
    sixes = next(o for o in OBJECTIVES if o.text == "an edge with a 6 on every die")
    cells = dict(game.state.cells)
    for s in spar(2):
        cells[s] = Cell("green", showing(0, 6))
    cells[(0, 0, 4)] = Cell("green", showing(0, 1, 3))  # no 6 along i or j: spar k has 8 sixes
    game.observe(PyramidState(cells))
    game.to_move = 1
    before = [o.progress(game.state) for o in OBJECTIVES]
    take = next(a for a in game.legal_actions() if isinstance(a, Move) and slide_slots(a)[0] == (0, 0, 4))
    game.apply(take)
    assert game.clues[1] == (0,) * len(OBJECTIVES)  # the turn is not over: the top may still be turned
    game.apply(Remove(APEX))
    game.apply(Place(APEX, "green", showing(0, 6)))
    gained = [o.progress(game.state) - b for o, b in zip(OBJECTIVES, before, strict=True)]
    assert game.clues[1] == tuple(gained) and game.clues[1][index[sixes]] == 1
    assert game.clues[0] == (0,) * len(OBJECTIVES)


def test_slipped_a_searching_player_guesses_the_slip_a_greedy_player_works_towards() -> None:
    """After about eight turns of each greedy player, player 0's copies draw player 1's true slip most often
    (a guess from the turns alone: at the start every slip but its own is as likely)."""
    right = 0
    for seed in range(6):
        game = Slipped(2, rng=np.random.default_rng(seed))
        deck = [o for o in OBJECTIVES if o != game.objectives[0]]
        assert np.allclose(game.belief(1, deck), 1 / len(deck))
        greedy = GreedyPlayer(np.random.default_rng(seed))
        while game.outcome is None and len(game.history) < 40:  # about eight turns each
            game.apply(greedy.choose(game, game.legal_actions()))
        belief = game.belief(1, deck)
        right += int(np.argmax(belief)) == deck.index(game.objectives[1])
        search = UctSearch(iterations=1, rng=np.random.default_rng(seed))
        copies = [search.fork(game) for _ in range(200)]
        guesses = [c.objectives[1] for c in copies if isinstance(c, Slipped)]
        assert len(guesses) == 200
        assert guesses.count(game.objectives[1]) > 200 / len(deck) * 2  # far above a blind guess
    assert right >= 5


def test_slipped_a_player_sees_only_its_own_progress_until_the_end() -> None:
    game = Slipped(2, rng=np.random.default_rng(2))
    own_view = observation_tensor(game, 0), observation_text(game, 0)
    assert game.scores_seen_by(0)[1] is None and "?" in own_view[1]
    # Another slip for player 1, one that changes its progress: player 0 sees no difference.
    other = next(o for o in OBJECTIVES if o not in game.objectives and o.progress(game.state) != game.scores()[1] * 9)
    before = game.scores()
    game.objectives[1] = other
    assert game.scores() != before
    assert np.array_equal(observation_tensor(game, 0), own_view[0]) and observation_text(game, 0) == own_view[1]
    assert game.scores_seen_by(1)[1] == game.scores()[1]


@pytest.mark.parametrize("goal", ["spar", "roof"])
@pytest.mark.parametrize("turn", ["first", "last"])
@pytest.mark.parametrize("players", [2, 3])
def test_slide_heuristic_is_the_best_value_over_every_way_to_go_on(players: int, turn: str, goal: str) -> None:
    """The tallies give what the spelled-out search gives: turned last, the best of the 24 ways to set the
    top down after a slide; turned first, the best slide after the top is left or set down."""
    game = Slide(players, rng=np.random.default_rng(5), goal=goal, turn=turn)
    rng = np.random.default_rng(6)
    checked = 0
    for _ in range(40):
        me, cells = game.to_move, game.state.cells
        for action in game.legal_actions():
            if turn == "last" and isinstance(action, Move):
                after = carry(cells, action.steps)
                spelled_out = max(game.value(c, me) for c in game.top_choices(after))
            elif turn == "first" and isinstance(action, Pass | Place):
                top = {**cells, APEX: Cell("green", action.up)} if isinstance(action, Place) else cells
                slides = [edge_slide(spar(axis)[n:]) for axis in game.spars_of(me) for n in range(8)]
                spelled_out = max(game.value(carry(top, steps), me) for steps in slides)
            else:
                continue
            assert game.heuristic(action) == pytest.approx(spelled_out)
            checked += 1
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
        if game.outcome is not None:
            break
    assert checked > 100
