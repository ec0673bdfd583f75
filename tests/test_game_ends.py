"""How the tactics games end: by their own rules, or by a house rule their card states, never by the safety net
of ``max_moves`` (the turn limit)."""

from __future__ import annotations

import pytest

from pyramid.play import play_game
from pyramid.registry import BOARD_GAMES, find_game
from pyramid.rules import Game, Termination

TACTICS = (34, 35, 36, 37, 38, 44, 45, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57)


def seats(game_cls: type[Game], random_seat: int | None = None) -> list[str]:
    """Greedy in every seat of the game's first player count (three where it takes three), one seat random."""
    count = 3 if 3 in game_cls.info.players else game_cls.info.players[0]
    kinds = ["greedy"] * count
    if random_seat is not None:
        kinds[random_seat % count] = "random"
    return kinds


def test_every_game_that_ends_by_a_house_rule_says_so_on_its_card() -> None:
    for game in BOARD_GAMES:
        if game.quiet_turns or game.repetitions:
            end = " ".join((game.__doc__ or "").split("End:", 1)[1].split())
            assert "House rule" in end or "house rules" in end, game.info.title
            assert game.quiet_turns == 0 or f"{game.quiet_turns} turns" in end, game.info.title


# Seeds where these games ran to the turn limit before they had an end for what the book leaves out.
@pytest.mark.parametrize(
    ("number", "random_seat", "seed"),
    [
        (35, None, 1),
        (45, None, 0),
        (53, None, 2),
        (52, 0, 1),
        (37, 0, 0),
        (54, 0, 5),
        (55, None, 1),
        (55, 1, 1),
        (11, None, 0),
    ],
)
def test_a_game_that_ran_to_the_turn_limit_ends_by_its_rules(number: int, random_seat: int | None, seed: int) -> None:
    game_cls = find_game(number, Game)
    game = play_game(game_cls, seats(game_cls, random_seat), seed, fast=True)
    assert game.outcome is not None and game.outcome.termination is not Termination.TURN_LIMIT
    assert len(game.history) < game_cls.max_moves


@pytest.mark.slow
@pytest.mark.parametrize("number", TACTICS)
def test_tactics_games_end_by_their_rules_in_99_of_100_greedy_games_and_95_with_a_random_seat(number: int) -> None:
    game_cls = find_game(number, Game)
    for random_seat, needed in ((None, 99), (0, 95)):
        ends = [play_game(game_cls, seats(game_cls, random_seat), seed, fast=True).outcome for seed in range(100)]
        by_rules = sum(o is not None and o.termination is not Termination.TURN_LIMIT for o in ends)
        assert by_rules >= needed, (game_cls.info.title, random_seat, by_rules)
