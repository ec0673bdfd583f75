"""Wolf in a Sheep's Coat (47) and The Pharaoh's Curse (50): hand-made positions, the checker, the players,
and a move or two carried out by a hand in the world and read back.
"""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import play
from test_boards import Scripted, cells, physical_moves

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer, MctsPlayer
from pyramid.agents.search import UctSearch, leads
from pyramid.agents.terminal import read_move
from pyramid.encoding import action_ids, observation_text
from pyramid.games.hunts import (
    Accuse,
    Hide,
    PharaohsCurse,
    WolfInASheepsCoat,
    dog_rays,
    maze_distances,
    search_cost,
    sight,
)
from pyramid.moves import jump_targets
from pyramid.play import Match
from pyramid.rules import Game, IllegalAction, Move, Pass, Place, Remove, Termination, check_game
from pyramid.state import Cell, PyramidState

FLOCK = {s: Cell("black", (1, 2, 3)) for s in geometry.BASE_SLOTS}
DOG = (3, 2, 2)  # rests on (4, 2, 2), (3, 3, 2), (3, 2, 3)


def base_row(axis: int, value: int) -> set[geometry.Slot]:
    """The base funnels of the row where coordinate ``axis`` is ``value``."""
    return {s for s in geometry.BASE_SLOTS if s[axis] == value}


# --- Wolf in a Sheep's Coat ---------------------------------------------------------------------


def test_a_dog_looks_both_ways_along_the_three_rows_its_funnel_lies_between() -> None:
    rays = dog_rays(DOG)
    assert len(rays) == 6 and {r[0] for r in rays} == set(geometry.supports(DOG))
    rows = base_row(2, 2) | base_row(1, 2) | base_row(0, 3)  # k = 2, j = 2, i = 3
    assert {s for r in rays for s in r} == rows and len(rows) == 17
    assert sight(FLOCK, DOG) == rows


def test_no_dog_looks_through_another_dog_or_over_a_bush() -> None:
    flock = dict(FLOCK)
    flock[(5, 0, 2)] = Cell("red", (1, 2, 3))  # a dog on (6, 0, 2), (5, 1, 2), (5, 0, 3)
    flock[(1, 2, 5)] = Cell("green", (1, 2, 3))  # a bush in the row j = 2
    seen = sight(flock, DOG)
    assert (4, 2, 2) in seen and (5, 1, 2) not in seen and (6, 0, 2) not in seen  # row k = 2 stops at the dog
    assert (2, 2, 4) in seen and (1, 2, 5) not in seen and (0, 2, 6) not in seen  # row j = 2 stops at the bush
    assert {(5, 2, 1), (6, 2, 0), (0, 6, 2), (3, 0, 5)} <= seen
    flock[(3, 3, 2)] = Cell("green", (1, 2, 3))  # a bush under the dog hides the row beyond it
    assert not {(3, 3, 2), (2, 4, 2), (3, 4, 1)} & sight(flock, DOG)


def wolf(players: int = 2, seed: int = 0, mode: str = "drawn") -> WolfInASheepsCoat:
    """A new game of Wolf in a Sheep's Coat: the wolf drawn at random (``mode`` chosen: by the hider)."""
    return WolfInASheepsCoat(players, rng=np.random.default_rng(seed), wolf=mode)


def test_wolf_the_shepherd_places_dogs_on_the_flock_or_asks_about_a_die() -> None:
    game = wolf()
    legal = game.legal_actions()
    assert len(legal) == 36 + 45
    assert {a.slot for a in legal if isinstance(a, Place)} == set(geometry.layer_slots(7))
    game.apply(Place(DOG, "red"))
    assert Place(DOG, "red") not in game.legal_actions() and game.to_move == 0 and game.dogs == [1, 0]
    seen = sight(game.state.cells, DOG)
    yes = game.events[-1].endswith("sees the wolf")
    assert game.candidates == (seen if yes else {s for s in geometry.BASE_SLOTS if s not in seen})
    with pytest.raises(IllegalAction):  # dogs stand on the flock, not on dogs
        game.apply(Place((2, 2, 2), "red"))


def test_wolf_each_answer_is_drawn_afresh_in_a_copy_so_no_copy_knows_the_wolf() -> None:
    answers = set()
    for seed in range(20):
        trial = wolf().clone()
        trial.rng = np.random.default_rng(seed)
        trial.apply(Place(DOG, "red"))
        answers.add(trial.events[-1].endswith("sees the wolf"))
    assert answers == {True, False}
    one, two = wolf(seed=3), wolf(seed=3)
    for game in (one, two):
        game.apply(Place(DOG, "red"))
        game.apply(Place((0, 1, 6), "red"))
    assert one.candidates == two.candidates  # the same seed gives the same answers


def test_wolf_found_wolves_are_spread_over_the_flock() -> None:
    where = set()
    for seed in range(40):
        game = wolf(seed=seed)
        while game.rounds == 0:
            game.apply(GreedyPlayer(np.random.default_rng(seed)).choose(game, game.legal_actions()))
        where.add(next(a.slot for _, a in reversed(game.history) if isinstance(a, Accuse)))
    assert len(where) >= 25


def test_wolf_a_question_costs_a_dog_and_the_found_wolf_ends_the_round() -> None:
    game = wolf()
    game.apply(Place(DOG, "red"))
    game.candidates = {(4, 2, 2)}
    game.apply(Accuse((3, 3, 2)))
    assert game.dogs == [2, 0] and game.events[-1] == "(3, 3, 2) is not the wolf" and game.candidates == {(4, 2, 2)}
    assert Accuse((3, 3, 2)) not in game.legal_actions()
    game.apply(Accuse((4, 2, 2)))
    assert game.dogs == [3, 0] and game.to_move == 0 and game.legal_actions() == [Remove(DOG)]
    game.apply(Remove(DOG))
    assert game.to_move == 1 and len(game.candidates) == 45 and not game.asked and DOG not in game.state
    game.candidates = {(0, 0, 8)}
    game.apply(Accuse((0, 0, 8)))
    assert game.outcome is not None and game.outcome.termination is Termination.ROUNDS_PLAYED
    assert game.outcome.scores == (3.0, 1.0) and game.outcome.winners == (1,)


def test_wolf_greedy_halves_the_candidates_with_a_dog_then_asks() -> None:
    game = wolf()
    greedy = GreedyPlayer(np.random.default_rng(0))
    first = greedy.choose(game, game.legal_actions())
    assert isinstance(first, Place)
    assert 12 <= len(sight(game.state.cells, first.slot)) <= 33
    game.candidates = {(4, 2, 2), (6, 1, 1)}
    assert greedy.choose(game, game.legal_actions()) in (Accuse((4, 2, 2)), Accuse((6, 1, 1)))


def test_wolf_the_lead_counts_the_dogs_still_to_come() -> None:
    game = wolf()
    assert game.advantage(0) == 0.0  # both rounds still ahead, alike
    game.apply(Place(DOG, "red"))
    game.candidates = {(4, 2, 2), (6, 1, 1)}
    assert game.projected(0) == 1 + search_cost(2) and game.projected(1) == search_cost(45)
    game.candidates = {(4, 2, 2)}
    game.apply(Accuse((4, 2, 2)))  # found with 2 dogs: the round is over, player 1's to come
    assert game.projected(0) == 2.0 and game.advantage(0) == search_cost(45) - 2.0


def test_wolf_bushes_replace_black_dice_and_cannot_be_asked_about() -> None:
    game = WolfInASheepsCoat(3, rng=np.random.default_rng(1), bushes=6)
    bushes = [s for s in geometry.BASE_SLOTS if game.state[s].colour == "green"]
    assert len(bushes) == 6 and len(game.candidates) == 39
    assert not {a.slot for a in game.legal_actions() if isinstance(a, Accuse)} & set(bushes)
    play(game, ["greedy", "random", "greedy"], 1)
    assert game.outcome is not None and game.outcome.termination is Termination.ROUNDS_PLAYED
    with pytest.raises(ValueError, match="bushes"):
        WolfInASheepsCoat(2, rng=np.random.default_rng(1), bushes=45)


@pytest.mark.parametrize("players", [2, 3])
def test_wolf_passes_the_checker(players: int) -> None:
    report = check_game(WolfInASheepsCoat, range(3), players=players)
    assert report.ok, report.problems


def test_wolf_greedy_needs_fewer_dogs_than_random() -> None:
    wins = 0
    for seed in range(6):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = play(wolf(seed=seed, mode="chosen"), kinds, seed)
        assert game.outcome is not None
        wins += game.outcome.winners == (seed % 2,)
    assert wins >= 5


def test_wolf_the_search_finds_the_wolf_with_few_dogs() -> None:
    game = wolf(seed=4, mode="chosen")
    seats = [MctsPlayer(np.random.default_rng(4), 10), GreedyPlayer(np.random.default_rng(5))]
    while not game.is_over:
        game.apply(seats[game.to_move].choose(game, game.legal_actions()))
    assert game.dogs[0] <= 9  # a random shepherd needs about 30


def test_wolf_questions_are_typed_at_the_terminal_by_words() -> None:
    legal = wolf().legal_actions()
    assert read_move("ask i33", legal) == Accuse((4, 2, 2))
    assert read_move("3 2 2", legal) == Place(DOG, "red")


def test_wolf_physical_dog_and_question_are_read_back() -> None:
    game = wolf(seed=2)
    physical_moves(game, 2, seed=0, players=[Scripted([Place(DOG, "red"), Accuse((0, 0, 8))]), Scripted([])])
    assert game.state[DOG].colour == "red" and game.dogs == [2, 0]


def hidden(players: int = 2, seed: int = 0, **options: int) -> WolfInASheepsCoat:
    """A game whose wolf the hider chooses (the book's rule, the default)."""
    return WolfInASheepsCoat(players, rng=np.random.default_rng(seed), **options)


def test_wolf_the_player_after_the_shepherd_chooses_the_wolf_and_the_answers_follow_it() -> None:
    game = hidden(3)
    assert game.to_move == 1 and {type(a) for a in game.legal_actions()} == {Hide}
    assert len(game.legal_actions()) == 45 and game.dogs == [0, 0, 0]
    game.apply(Hide((8, 0, 0)))  # a corner die, seen along two rows only
    assert game.to_move == 0 and game.dogs == [0, 0, 0] and game.wolf == (8, 0, 0)
    for dog in ((3, 2, 2), (6, 1, 0), (0, 3, 4)):
        game.apply(Place(dog, "red"))
        seen = (8, 0, 0) in sight(game.state.cells, dog)
        assert game.events[-1].endswith("sees the wolf" if seen else "does not see the wolf")
        assert (8, 0, 0) in game.candidates
    assert game.dogs == [3, 0, 0] and game.candidates != set(geometry.BASE_SLOTS)
    game.apply(Accuse((8, 0, 0)))
    while game.clearing:
        game.apply(game.legal_actions()[0])
    assert game.shepherd() == 1 and game.to_move == 2 and game.wolf is None  # round 2: player 2 hides for 1
    with pytest.raises(ValueError, match="option wolf .* chosen or drawn, got 'hidden'"):
        WolfInASheepsCoat(2, rng=np.random.default_rng(0), wolf="hidden")


def test_wolf_the_chosen_wolf_is_kept_from_the_shepherd_alone() -> None:
    game = hidden(3)
    game.apply(Hide((4, 2, 2)))
    assert game.secret(0) == "" and game.secret(1) == game.secret(2) == "the wolf is i33 (4, 2, 2)"
    assert "i33" not in observation_text(game, 0) and "i33" in observation_text(game, 2)
    lines: list[str] = []
    match = Match(hidden(2), [Scripted([Accuse((4, 2, 2))]), Scripted([Hide((4, 2, 2))])], log=lines.append)
    match.step()  # the hider chooses: the log every player reads tells only that it was chosen
    assert "hide the wolf" in lines[-2] and "i33" not in lines[-2] and "4, 2, 2" not in " ".join(lines)
    assert read_move("hide i33", hidden().legal_actions()) == Hide((4, 2, 2))  # typed at the terminal


def test_wolf_a_shepherd_believes_the_wolf_hides_where_few_dogs_see_it() -> None:
    game = hidden()
    inner = {s for s in geometry.BASE_SLOTS if min(s) >= 1}  # seen by 13 funnels' dogs; the rim by 14 or 15
    assert {s for s, n in game.cover.items() if n == 13} == inner and set(game.cover.values()) == {13, 14, 15}
    greedy = GreedyPlayer(np.random.default_rng(0))
    choice = greedy.choose(game, game.legal_actions())
    assert isinstance(choice, Hide) and choice.slot in inner  # the greedy hider: where fewest dogs see it
    game.apply(Hide((0, 0, 8)))
    before = game.wolf
    game.redeal(1, np.random.default_rng(0))  # the hider knows the wolf: nothing to redraw
    assert game.wolf == before
    drawn = []
    for seed in range(400):
        copy = game.clone()
        copy.redeal(0, np.random.default_rng(seed))
        drawn.append(copy.wolf)
    share = sum(s in inner for s in drawn) / len(drawn)
    assert 0.6 < share < 0.85 and len(set(drawn)) > 30  # e**-13 against e**-14 a die: 0.72 of the belief inside
    game.apply(Place((0, 0, 7), "red"))  # under it (0, 0, 8), (1, 0, 7), (0, 1, 7): the wolf is seen
    assert game.candidates <= sight(game.state.cells, (0, 0, 7))
    copy = game.clone()
    copy.redeal(0, np.random.default_rng(1))
    assert copy.wolf in game.candidates  # drawn again only among the dice that fit the answers
    assert game.hidden_among(game.candidates) < len(game.candidates)  # a belief knows more than a count


def test_wolf_bushes_make_a_hiding_place_the_greedy_hider_finds() -> None:
    game = hidden(2, seed=1, bushes=10)
    greedy = GreedyPlayer(np.random.default_rng(0))
    hide = greedy.choose(game, game.legal_actions())
    assert isinstance(hide, Hide) and game.cover[hide.slot] == min(game.cover.values()) < 13


# --- The Pharaoh's Curse ------------------------------------------------------------------------


def pharaoh(state: PyramidState, explorers: list[geometry.Slot]) -> PharaohsCurse:
    """A Pharaoh's Curse on ``state``, its explorers in ``explorers``."""
    game = PharaohsCurse(rng=np.random.default_rng(0))
    game.observe(state)
    game.explorers = list(explorers)
    return game


def targets(game: PharaohsCurse, player: int = 0) -> set[geometry.Slot]:
    """Where ``player``'s explorer can move."""
    return {a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move)}


STARTS = list(PharaohsCurse.STARTS)


def test_pharaoh_starts_in_a_random_heap_every_explorer_can_leave() -> None:
    heaps = set()
    for seed in range(4):
        game = PharaohsCurse(rng=np.random.default_rng(seed))
        greens = frozenset(s for s, c in game.state.items() if c.colour == "green")
        assert len(greens) == 42 and geometry.is_stable(game.state) and min(sum(s) for s in greens) < 8
        assert [game.state[s].colour for s in STARTS] == ["red", "blue", "black"]
        assert not set(PharaohsCurse.EXITS) & set(game.state)
        assert all(s in maze_distances(greens, e) for s, e in zip(STARTS, PharaohsCurse.EXITS, strict=True))
        heaps.add(greens)
    assert len(heaps) == 4


def test_pharaoh_an_explorer_steps_to_an_empty_funnel_or_climbs_green_dice() -> None:
    state = cells(green=[(2, 2, 4), (1, 3, 4), (1, 2, 5)], red=[(0, 4, 4)], blue=[(4, 0, 4)], black=[(4, 4, 0)])
    game = pharaoh(state, STARTS)
    assert targets(game) == {(1, 4, 3), (0, 5, 3), (0, 3, 5), (1, 2, 4)}  # three steps, a climb
    game.apply(Move((((0, 4, 4), (1, 2, 4)),)))
    assert game.explorers[0] == (1, 2, 4) and game.to_move == 1
    game.to_move = 0
    game.observe(game.state)  # forget player 1's legal moves
    # from the top of three dice: only down, an L of arms 2 and 1 into an empty base funnel
    assert targets(game) == {(3, 1, 4), (3, 2, 3), (0, 4, 4), (1, 4, 3), (0, 2, 6), (1, 1, 6)}


def test_pharaoh_an_explorer_never_stands_on_another() -> None:
    state = cells(green=[(1, 3, 4), (1, 2, 5)], red=[(0, 4, 4)], blue=[(2, 2, 4)], black=[(4, 4, 0)])
    game = pharaoh(state, [(0, 4, 4), (2, 2, 4), (4, 4, 0)])
    assert (1, 2, 4) not in targets(game)  # it would rest on the blue explorer


def test_pharaoh_climbing_down_into_the_opposite_corner_wins() -> None:
    state = cells(green=[(7, 1, 0), (6, 2, 0), (6, 1, 1)], red=[(6, 1, 0)], blue=[(4, 0, 4)], black=[(4, 4, 0)])
    game = pharaoh(state, [(6, 1, 0), (4, 0, 4), (4, 4, 0)])
    assert (8, 0, 0) in targets(game)
    game.apply(Move((((6, 1, 0), (8, 0, 0)),)))
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,) and game.outcome.scores == (1.0, 0.0, 0.0)


def test_pharaoh_a_boxed_in_explorer_passes_and_three_passes_end_the_game() -> None:
    state = cells(green=[(1, 3, 4), (1, 4, 3), (0, 5, 3), (0, 3, 5)], red=[(0, 4, 4)], blue=[(4, 0, 4)])
    game = pharaoh(state, [(0, 4, 4), (4, 0, 4), (4, 4, 0)])
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.passes == 1 and game.to_move == 1
    game.passes = 2
    game.to_move = 0
    game.observe(game.state)
    game.apply(Pass())
    assert game.outcome is not None and game.outcome.termination is Termination.BLOCKED
    assert game.outcome.winners == (0, 1, 2)


def test_pharaoh_maze_distances_count_single_moves_both_ways() -> None:
    assert maze_distances(frozenset(), (8, 0, 0))[(0, 4, 4)] == 8  # eight steps across the empty plate
    game = PharaohsCurse(rng=np.random.default_rng(7))
    greens = frozenset(s for s, c in game.state.items() if c.colour == "green")
    far = maze_distances(greens, (8, 0, 0))
    for here, d in far.items():
        for there in jump_targets(greens | {here}, here):
            if there in far:
                assert abs(far[there] - d) <= 1


def test_pharaoh_greedy_takes_the_shortest_way() -> None:
    game = PharaohsCurse(rng=np.random.default_rng(3))
    before = game.way_left(0)
    choice = GreedyPlayer(np.random.default_rng(0)).choose(game, game.legal_actions())
    assert isinstance(choice, Move) and game.way_left(0, choice.steps[0][1]) == before - 1


def test_pharaoh_standing_counts_an_explorer_in_the_way() -> None:
    # an explorer in the funnel every shortest way of red's takes next: red's way around it is longer
    for seed in range(40):
        game = PharaohsCurse(rng=np.random.default_rng(seed))
        left = game.way_left(0)
        nexts = [t for t in targets(game) if game.way_left(0, t) == left - 1]
        if len(nexts) == 1 and nexts[0] not in game.explorers and game.way_around(0) == left:
            break
    else:
        raise AssertionError("no heap with a single next step for red in 40 seeds")
    assert game.standing(1) == min(game.way_around(p) for p in (0, 2)) - game.way_around(1)
    cells = dict(game.state.cells)
    cells[nexts[0]] = cells.pop(game.explorers[1])  # the blue explorer steps into red's way
    game.explorers[1] = nexts[0]
    game.observe(PyramidState(cells))
    assert game.way_left(0) == left, "the maze alone has not changed"
    assert game.way_around(0) > left
    assert game.standing(0) == min(game.way_around(p) for p in (1, 2)) - game.way_around(0)


def test_pharaoh_passes_the_checker() -> None:
    report = check_game(PharaohsCurse, range(3))
    assert report.ok, report.problems


@pytest.mark.parametrize("greedy", [1, 2])
def test_pharaoh_greedy_beats_random_from_a_later_seat(greedy: int) -> None:
    wins = 0
    for seed in range(5):
        kinds = ["random"] * 3
        kinds[greedy] = "greedy"
        game = play(PharaohsCurse(rng=np.random.default_rng([seed, 1])), kinds, seed)
        wins += game.outcome is not None and game.outcome.winners == (greedy,)
    assert wins >= 4


def test_pharaoh_the_search_plays_to_the_exit() -> None:
    game = PharaohsCurse(rng=np.random.default_rng(2))
    seats = [MctsPlayer(np.random.default_rng(2), 10), GreedyPlayer(np.random.default_rng(3))]
    while not game.is_over:
        game.apply(seats[min(game.to_move, 1)].choose(game, game.legal_actions()))
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED


def test_pharaoh_a_search_rollout_follows_the_shortest_ways_to_the_exit() -> None:
    """The search's rollouts here (``greedy_rollouts``) play every explorer by its shortest way to the end;
    a hunt for the wolf keeps the search's two decisions."""
    game = PharaohsCurse(rng=np.random.default_rng(4))
    search = UctSearch(np.random.default_rng(0), 1)
    search.base = leads(game)
    sim = game.clone()
    reward = search.rollout(sim)
    assert sim.outcome is not None and sim.outcome.termination is Termination.GOAL_REACHED
    (winner,) = sim.outcome.winners
    assert reward[winner] == 1.0 and reward.sum() == 1.0
    replay = game.clone()
    for _, action in sim.history[len(game.history) :]:  # each move the best by the heuristic: greedy's
        best = max(replay.heuristic(a) or 0.0 for a in replay.legal_actions())
        assert replay.heuristic(action) == best
        replay.apply(action)
    wolf = WolfInASheepsCoat(rng=np.random.default_rng(0))
    hunt = wolf.clone()
    search.base = leads(wolf)
    search.rollout(hunt)
    assert len(hunt.history) == search.rollout_depth and hunt.outcome is None


def test_pharaoh_physical_climb_is_read_back() -> None:
    state = cells(green=[(2, 2, 4), (1, 3, 4), (1, 2, 5)], red=[(0, 4, 4)], blue=[(4, 0, 4)], black=[(4, 4, 0)])
    game = pharaoh(state, STARTS)
    physical_moves(game, 1, seed=0, players=[Scripted([Move((((0, 4, 4), (1, 2, 4)),))]), Scripted([]), Scripted([])])
    assert game.state[(1, 2, 4)].colour == "red" and game.explorers[0] == (1, 2, 4)


@pytest.mark.parametrize("game_cls", [WolfInASheepsCoat, PharaohsCurse])
def test_hunts_number_their_actions_distinctly(game_cls: type[Game]) -> None:
    game = game_cls(rng=np.random.default_rng(0))
    rng = np.random.default_rng(0)
    while not game.is_over and len(game.history) < 100:
        legal = game.legal_actions()
        assert len(set(action_ids(game, legal))) == len(legal)
        game.apply(legal[int(rng.integers(len(legal)))])
