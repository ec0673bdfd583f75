"""One registry: a game added later is one class and one registry entry, and every command finds it."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from pyramid import geometry, registry
from pyramid.cli.games import list_games, show_rules
from pyramid.cli.play import play
from pyramid.play import start_match
from pyramid.registry import NOT_YET, find_game
from pyramid.rules import Action, Game, GameInfo, Place, Seat, Termination, colour_scores, open_slots
from pyramid.skillgames.base import SkillGame
from pyramid.state import PyramidState
from pyramid.tablegames.base import TableGame


class ThreeHigh(Game):
    """Three High (a game made up for this test).

    Setup: an empty plate. Turn: place one die of your colour in an open slot.
    Scoring: outer faces of your colour. End: after six dice.
    """

    info = GameInfo(99, "Three High", "C", (2,), "dice of two colours", ("three-high",), 1)

    def setup(self) -> None:
        self.colours = ("red", "green")

    def legal(self) -> list[Action]:
        return [Place(s, self.colours[self.to_move]) for s in open_slots(self.state)]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return colour_scores(self.state, self.colours)

    def termination(self) -> Termination | None:
        return Termination.ROUNDS_PLAYED if len(self.state) >= 6 else None


@pytest.fixture
def with_three_high(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, ThreeHigh))


def test_a_game_added_to_the_registry_is_found_listed_explained_and_played(
    with_three_high: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert find_game("three high") is ThreeHigh and find_game(99, Game) is ThreeHigh
    with pytest.raises(LookupError, match="Three High is a board game, not a skill game"):
        find_game(99, SkillGame)
    list_games()
    assert " 99  Three High" in capsys.readouterr().out
    show_rules("99")
    assert "Three High (a game made up" in capsys.readouterr().out
    match = start_match(ThreeHigh, ["greedy", "random"], seed=3, fast=True)
    outcome = match.run()
    game = match.game
    assert isinstance(game, ThreeHigh)
    assert len(game.state) == 6 and outcome.termination is Termination.ROUNDS_PLAYED
    assert all(s in geometry.SLOTS for s in game.state)
    args = argparse.Namespace(game="99", players="random,random", seed=3, fast=True, picture=None, option=[])
    assert play(args) == 0
    assert "99. Three High: player 0 random, player 1 random" in capsys.readouterr().out


def test_one_lookup_answers_the_same_way_for_every_kind() -> None:
    assert find_game("6") is find_game("dice mikado", SkillGame) is find_game("The Dice Mikado")
    assert find_game("DECATHLON", TableGame) is find_game("zehnkampf")
    for name in ("chess", "0", ""):
        with pytest.raises(LookupError, match="the games are: 1 "):
            find_game(name)
    for number in sorted(NOT_YET)[:1]:  # a game of the book not played yet, while there is one
        with pytest.raises(LookupError, match="in the rule book but not played here yet"):
            find_game(str(number))
    with pytest.raises(LookupError, match="is a table game, not a skill game"):
        find_game("decathlon", SkillGame)


def test_every_kind_of_game_plays_in_the_one_match_from_a_seed() -> None:
    for name, kinds in (("30", ["greedy", "random", "random"]), ("decathlon", ["optimal", "random"])):
        scores = []
        for _ in range(2):
            match = start_match(find_game(name), kinds, seed=5, fast=True)
            scores.append(match.run().scores)
            match.close()
        assert scores[0] == scores[1], name
    assert np.isfinite(scores[0]).all()


def test_the_list_of_skill_games_keeps_its_columns(capsys: pytest.CaptureFixture[str]) -> None:
    list_games()
    lines = capsys.readouterr().out.split("Skill games")[1].split("Table dice games")[0].strip().splitlines()[1:]
    header, rows = lines[0], [line for line in lines[1:] if line.strip()]
    column = header.index("programmed player")
    assert len(rows) == 13 and all(row[column - 2 : column] == "  " and row[column] != " " for row in rows)
