"""Wolf in a Sheep's Coat (47) and The Pharaoh's Curse (50): hand-made positions, the checker, the players,
and a move or two carried out by a hand in the world and read back.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

import numpy as np
import pytest
from gameplay import play
from test_boards import Scripted, physical_moves

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer, MctsPlayer
from pyramid.agents.search import UctSearch, leads
from pyramid.agents.terminal import read_move
from pyramid.encoding import action_ids, observation_text
from pyramid.games.boards import Reroll
from pyramid.games.hunts import (
    ROLLED,
    WALL,
    Accuse,
    Hide,
    PharaohsCurse,
    WolfInASheepsCoat,
    dog_rays,
    maze_turns,
    search_cost,
    sight,
)
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

STARTS = list(PharaohsCurse.STARTS)
LOW = (1, 2, 3)  # a door along every row
HIGH = next(u for u in geometry.ALL_UP_FACES if min(u) >= 4)  # a wall along every row


def pharaoh(high: Set[geometry.Slot] = frozenset(), explorers: Sequence[geometry.Slot] = STARTS) -> PharaohsCurse:
    """A Pharaoh's Curse with the base full, the green dice low (doors) but in ``high`` (walls)."""
    game = PharaohsCurse(rng=np.random.default_rng(0))
    dice = {s: Cell("green", HIGH if s in high else LOW) for s in geometry.BASE_SLOTS if s not in explorers}
    dice |= {s: Cell(c, LOW) for s, c in zip(explorers, game.colours, strict=True)}
    game.observe(PyramidState(dice))
    game.explorers = list(explorers)
    return game


def walks(game: PharaohsCurse) -> set[geometry.Slot]:
    """Where the player to move can walk."""
    return {a.steps[0][1] for a in game.legal_actions() if isinstance(a, Move)}


def test_pharaoh_puts_the_42_green_dice_on_the_base_plate_as_the_book_says() -> None:
    faces = set()
    for seed in range(4):
        game = PharaohsCurse(rng=np.random.default_rng(seed))
        greens = {s for s, c in game.state.items() if c.colour == "green"}
        assert len(greens) == 42 and greens == set(geometry.BASE_SLOTS) - set(STARTS)
        assert [game.state[s].colour for s in STARTS] == ["red", "blue", "black"]
        assert all(game.state[e].colour == "green" for e in PharaohsCurse.EXITS)
        faces.add(tuple(game.state[s].up for s in sorted(greens)))
    assert len(faces) == 4  # rolled: each game its own maze


def test_pharaoh_an_explorer_walks_through_the_low_numbers_changing_places_with_the_green_die() -> None:
    # red in (0, 4, 4): its neighbours (1, 3, 4) and (0, 5, 3) are walls, the others doors
    game = pharaoh(high={(1, 3, 4), (0, 5, 3)})
    assert walks(game) == {(1, 4, 3), (0, 3, 5)}
    assert {a.slot for a in game.legal_actions() if isinstance(a, Reroll)} == set(geometry.neighbours((0, 4, 4)))
    green = game.state[(1, 4, 3)]
    game.apply(Move((((0, 4, 4), (1, 4, 3)), ((1, 4, 3), (0, 4, 4)))))
    assert game.explorers[0] == (1, 4, 3) and game.state[(1, 4, 3)].colour == "red"
    assert game.state[(0, 4, 4)] == green and game.to_move == 1
    # the door is the number pointing along the row between the funnels: a die low along one row only
    up = next(u for u in geometry.ALL_UP_FACES if u[0] <= 3 and min(u[1:]) >= 4)
    game = pharaoh()
    game.observe(game.state.with_cell((1, 3, 4), Cell("green", up)).with_cell((0, 5, 3), Cell("green", up)))
    assert (1, 3, 4) not in walks(game) and (0, 5, 3) in walks(game)  # rows of constant j, of constant i


def test_pharaoh_a_roll_lifts_a_green_die_and_sets_it_back_as_it_lands() -> None:
    game = pharaoh(high=set(geometry.neighbours((0, 4, 4))))
    assert walks(game) == set()
    game.apply(Reroll((1, 3, 4)))
    assert game.legal_actions() == [Remove((1, 3, 4))] and game.to_move == 0
    game.apply(Remove((1, 3, 4)))
    assert game.legal_actions() == [Place((1, 3, 4), "green")]
    game.apply(Place((1, 3, 4), "green"))
    assert game.state[(1, 3, 4)].colour == "green" and game.to_move == 1 and game.explorers[0] == (0, 4, 4)


def test_pharaoh_walking_into_the_exit_wins() -> None:
    game = pharaoh(explorers=[(7, 1, 0), (4, 0, 4), (4, 4, 0)])
    walk = Move((((7, 1, 0), (8, 0, 0)), ((8, 0, 0), (7, 1, 0))))
    assert walk in game.legal_actions() and game.heuristic(walk) == 100.0
    game.apply(walk)
    assert game.outcome is not None and game.outcome.termination is Termination.GOAL_REACHED
    assert game.outcome.winners == (0,) and game.outcome.scores == (1.0, 0.0, 0.0)


def test_pharaoh_an_explorer_boxed_in_by_the_others_passes_and_three_passes_end_the_game() -> None:
    game = pharaoh(explorers=[(8, 0, 0), (7, 1, 0), (7, 0, 1)])
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.passes == 1 and game.to_move == 1
    game.passes, game.to_move = 2, 0
    game.observe(game.state)
    game.apply(Pass())
    assert game.outcome is not None and game.outcome.termination is Termination.BLOCKED
    assert game.outcome.winners == (0, 1, 2)


def test_pharaoh_maze_turns_count_a_door_one_turn_and_a_wall_three() -> None:
    game = pharaoh()
    assert game.turns_left(0) == 8  # eight doors from the middle of edge i = 0 to corner a
    assert game.turns_left(0, start=(7, 1, 0)) == 1
    walls = pharaoh(high={s for s in geometry.BASE_SLOTS if s[0] >= 1})  # every funnel off red's edge a wall
    assert walls.turns_left(0) == 8 * WALL
    rolled = maze_turns(walls.state, (7, 1, 0), (8, 0, 0), rolled=(8, 0, 0))
    assert {rolled[p] for p in rolled} == {1.0, WALL}  # from (7, 1, 0) the exit's door lies along rows of constant k
    assert sum(chance for _, chance in ROLLED) == pytest.approx(1.0)


def test_pharaoh_greedy_walks_through_a_door_on_its_best_way_and_rolls_a_wall_in_it() -> None:
    greedy = GreedyPlayer(np.random.default_rng(0))
    game = pharaoh()
    choice = greedy.choose(game, game.legal_actions())
    assert isinstance(choice, Move) and game.turns_left(0, start=choice.steps[0][1]) == 7
    # walled in on every side but the way back along the edge: a roll of the wall towards the exit
    game = pharaoh(high=set(geometry.neighbours((0, 4, 4))) | {s for s in geometry.BASE_SLOTS if s[0] == 2})
    choice = greedy.choose(game, game.legal_actions())
    assert choice == Reroll((1, 3, 4)) or choice == Reroll((1, 4, 3))


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


def test_pharaoh_a_search_rollout_follows_the_best_ways_to_the_exit() -> None:
    """The search's rollouts here (``greedy_rollouts``) play every explorer by its best way to the end;
    a hunt for the wolf keeps the search's two decisions."""
    game = PharaohsCurse(rng=np.random.default_rng(4))
    search = UctSearch(np.random.default_rng(0), 1)
    search.base = leads(game)
    sim = game.clone()
    reward = search.rollout(sim)
    replay = game.clone()
    for _, action in sim.history[len(game.history) :]:  # each move the best by the heuristic: greedy's
        best = max(replay.heuristic(a) or 0.0 for a in replay.legal_actions())
        assert replay.heuristic(action) == best
        replay.apply(action)
    if sim.outcome is not None:
        (winner,) = sim.outcome.winners
        assert reward[winner] == 1.0 and reward.sum() == 1.0
    wolf = WolfInASheepsCoat(rng=np.random.default_rng(0))
    hunt = wolf.clone()
    search.base = leads(wolf)
    search.rollout(hunt)
    assert len(hunt.history) == search.rollout_depth and hunt.outcome is None


def test_pharaoh_physical_walk_is_read_back() -> None:
    game = pharaoh()
    walk = Move((((0, 4, 4), (1, 4, 3)), ((1, 4, 3), (0, 4, 4))))
    physical_moves(game, 1, seed=0, players=[Scripted([walk]), Scripted([]), Scripted([])])
    assert game.state[(1, 4, 3)].colour == "red" and game.state[(0, 4, 4)].colour == "green"
    assert game.explorers[0] == (1, 4, 3)


@pytest.mark.parametrize("game_cls", [WolfInASheepsCoat, PharaohsCurse])
def test_hunts_number_their_actions_distinctly(game_cls: type[Game]) -> None:
    game = game_cls(rng=np.random.default_rng(0))
    rng = np.random.default_rng(0)
    while not game.is_over and len(game.history) < 100:
        legal = game.legal_actions()
        assert len(set(action_ids(game, legal))) == len(legal)
        game.apply(legal[int(rng.integers(len(legal)))])
