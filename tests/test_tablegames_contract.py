"""Every table game on the one contract: random seeded play through phase, legal_actions and apply, refused
actions that change nothing, clones that end as the original, and seeds that repeat a game."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np
import pytest

from pyramid.agents.players import RandomPlayer
from pyramid.physics.roller import FastRoller
from pyramid.play import Match
from pyramid.rules import Choice, IllegalAction, Phase, Rolled, Termination
from pyramid.tablegames import TABLE_GAMES
from pyramid.tablegames.base import TableGame, ask

SEATS = {"decathlon": 2, "heptathlon": 2, "knights": 3, "sport-is-murder": 3}
ENDS = {
    "decathlon": {Termination.ROUNDS_PLAYED},
    "heptathlon": {Termination.ROUNDS_PLAYED},
    "knights": {Termination.GOAL_REACHED, Termination.TURN_LIMIT},
    "sport-is-murder": {Termination.ROUNDS_PLAYED, Termination.TURN_LIMIT},
}
GAMES = pytest.mark.parametrize("game_type", TABLE_GAMES, ids=[g.info.name for g in TABLE_GAMES])


class Seat:
    """A random seat and drawn dice on one generator, the one the game draws from too (as in the CLI)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.player = RandomPlayer(rng)
        self.roller = FastRoller(rng)

    def action(self, game: TableGame) -> Choice | Rolled:
        """What the world or the player to move answers now."""
        if game.phase() is Phase.CHANCE:
            return Rolled(tuple(self.roller.roll(game.chance().dice)))
        choice: Choice = self.player.choose(game, game.legal_actions())
        return choice


def _game(game_type: type[TableGame], seed: int) -> tuple[TableGame, Seat]:
    rng = np.random.default_rng(seed)
    seat = Seat(rng)
    n = SEATS[game_type.info.name]
    return game_type(n, rng=rng, names=[f"random{k + 1}" for k in range(n)]), seat


def _state(game: TableGame) -> tuple[Any, ...]:
    """What an action must not change when it is refused."""
    return (game.phase(), game.to_move, game.legal_actions(), list(game.events), list(game.answers), game.outcome)


def _until(game: TableGame, seat: Seat, phase: Phase, options: int = 1) -> None:
    """Play on until ``phase`` is pending (a decision with at least ``options`` options)."""
    while not (game.phase() is phase and (phase is not Phase.DECIDE or len(game.legal_actions()) >= options)):
        game.apply(seat.action(game))


@GAMES
def test_random_play_reaches_an_outcome_through_the_contract(game_type: type[TableGame]) -> None:
    game, seat = _game(game_type, 1)
    steps = 0
    while not game.is_over:
        if game.phase() is Phase.DECIDE:
            decision = game.decision()
            assert 0 <= game.to_move < game.players and decision.seat == game.to_move
            assert game.legal_actions() == [Choice(i, text) for i, text in enumerate(decision.options)]
            with pytest.raises(ValueError):
                game.chance()
        else:
            assert game.phase() is Phase.CHANCE and game.legal_actions() == [] and game.chance().dice >= 1
            with pytest.raises(ValueError):
                game.decision()
        game.apply(seat.action(game))
        steps += 1
    assert game.outcome is not None and game.phase() is Phase.OVER and game.legal_actions() == []
    assert game.outcome.termination in ENDS[game_type.info.name] and steps > 10
    assert len(game.outcome.scores) == game.players and game.outcome.scores == game.scores()
    assert game.outcome.winners and set(game.outcome.winners) <= set(range(game.players))
    assert game.score_sheet() and len(game.answers) == steps
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(Rolled((1,)))


@GAMES
def test_an_illegal_choice_is_refused_and_changes_nothing(game_type: type[TableGame]) -> None:
    game, seat = _game(game_type, 2)
    _until(game, seat, Phase.DECIDE, options=2)
    before = _state(game)
    options = game.decision().options
    for wrong in (Choice(len(options), "no such option"), Choice(0, options[1]), Choice(-1, options[-1])):
        with pytest.raises(IllegalAction, match=re.escape(repr(wrong))):
            game.apply(wrong)
        assert _state(game) == before
    with pytest.raises(IllegalAction):
        game.apply(Rolled((3,)))
    assert _state(game) == before
    game.apply(Choice(1, options[1]))
    assert game.answers == [*before[4], 1]


@GAMES
def test_a_roll_of_the_wrong_size_or_faces_is_refused(game_type: type[TableGame]) -> None:
    game, seat = _game(game_type, 3)
    _until(game, seat, Phase.CHANCE)
    before = _state(game)
    n = game.chance().dice
    for wrong in (Rolled((1,) * (n + 1)), Rolled((2,) * (n - 1)), Rolled((7,) * n), Rolled((0,) * n)):
        with pytest.raises(IllegalAction, match=f"{n} faces from 1 to 6"):
            game.apply(wrong)
        assert _state(game) == before
    with pytest.raises(IllegalAction):
        game.apply(Choice(0, "freeze"))
    assert _state(game) == before
    game.apply(Rolled((6,) * n))
    assert game.answers[-1] == (6,) * n


@GAMES
def test_a_clone_mid_game_is_independent_and_ends_as_the_original(game_type: type[TableGame]) -> None:
    game, seat = _game(game_type, 4)
    for _ in range(150):
        game.apply(seat.action(game))
    state = copy.deepcopy(game.rng.bit_generator.state)
    clone = game.clone()
    assert game.rng.bit_generator.state == state, "a clone draws nothing from the game's generator"
    assert _state(clone) == _state(game) and clone.draws == game.draws and clone.names == game.names
    assert clone.score_sheet() == game.score_sheet()
    heard = len(clone.events)
    played = []
    while not game.is_over:
        played.append(seat.action(game))
        game.apply(played[-1])
    assert len(clone.events) == heard and not clone.is_over, "the clone stays where it was"
    for action in played:
        clone.apply(action)
    assert clone.outcome == game.outcome and clone.events == game.events
    assert clone.score_sheet() == game.score_sheet()


@GAMES
def test_the_same_seed_gives_the_same_game(game_type: type[TableGame]) -> None:
    plays = []
    for _ in range(2):
        game, seat = _game(game_type, 5)
        heard: list[str] = []
        outcome = Match(game, [seat.player] * game.players, roller=seat.roller, log=heard.append).run()
        assert heard == game.events
        plays.append((outcome, game.events, game.answers, game.draws))
    assert plays[0] == plays[1]
    other, seat = _game(game_type, 6)
    Match(other, [seat.player] * other.players, roller=seat.roller).run()
    assert other.events != plays[0][1]


def test_names_and_player_counts() -> None:
    for game_type in TABLE_GAMES:
        game = game_type(rng=np.random.default_rng(0))
        assert game.players == game_type.info.players[0] and game.names[0] == "player 1"
        assert game.kind == "table" and "table" in game.info.tags and game.info.key == game.info.name
        with pytest.raises(ValueError, match="names"):
            game_type(game_type.info.players[0], rng=np.random.default_rng(0), names=["a"] * 7)
        with pytest.raises(ValueError, match="unknown option"):
            game_type(rng=np.random.default_rng(0), colour="red")
    assert [g.default_player for g in TABLE_GAMES] == ["optimal", "strong", "strong", "strong"]


class Counting(TableGame):
    """A toy: each round checkpoints, then asks one player one question; it counts the questions it puts."""

    info = TABLE_GAMES[0].info
    asked = 0

    def setup(self) -> None:
        self.round, self.total = 0, 0

    def script(self):  # type: ignore[no-untyped-def]
        while self.round < 40:
            self.checkpoint()
            self.round += 1
            Counting.asked += 1
            choice = yield from ask(self.round % 2, f"round {self.round}: add what?", ["0", "1", "2"])
            self.total += choice

    def scores(self) -> tuple[float, ...]:
        return (float(self.total), 0.0)

    def score_sheet(self) -> str:
        return f"{self.round} rounds, total {self.total}"


def test_a_clone_restarts_at_the_last_checkpoint_not_at_the_start() -> None:
    game = Counting(2, rng=np.random.default_rng(0))
    for k in range(25):
        game.apply(Choice(k % 3, str(k % 3)))
    Counting.asked = 0
    clone = game.clone()
    assert Counting.asked == 1, "the clone asks only the pending question again, not all 26"
    assert (clone.round, clone.total, clone.answers) == (game.round, game.total, game.answers)
    clone.apply(Choice(2, "2"))
    assert (game.round, game.total) == (26, sum(k % 3 for k in range(25))), "the original stays where it was"
    again = game.clone()
    assert (again.round, again.total) == (26, game.total), "a clone's moves leave the checkpoint as it was"


@pytest.mark.parametrize("name", ["knights", "sport-is-murder"])
def test_a_clone_from_a_checkpoint_is_the_clone_a_full_replay_gives(name: str) -> None:
    game_type = next(g for g in TABLE_GAMES if g.info.name == name)
    game, seat = _game(game_type, 7)
    for _ in range(150):
        game.apply(seat.action(game))
    assert game._mark is not None and 0 < game._mark[1] < len(game.answers)
    unmarked = copy.copy(game)
    unmarked._mark = None
    full, fast = unmarked.clone(), game.clone()
    machinery = TableGame._MACHINERY | {"_MACHINERY"}
    assert {k: v for k, v in vars(full).items() if k not in machinery} == {
        k: v for k, v in vars(fast).items() if k not in machinery
    }
    assert _state(full) == _state(fast) and full.draws == fast.draws
    while not full.is_over:
        action = seat.action(full)
        full.apply(action)
        fast.apply(action)
    assert fast.outcome == full.outcome and fast.events == full.events
    assert _state(game.clone()) == _state(game), "playing a clone to the end leaves the original's checkpoint whole"
