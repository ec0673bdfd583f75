"""The skill games: rules cards, verdicts read from the world, seeded matches played to their end, the CLI."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.actions import Lift, Tilt, Wait
from pyramid.controllers import MikadoHand, parse_action, reachable, weakened
from pyramid.games import SKILL_GAMES, find_skill_game, is_skill_game
from pyramid.games.skill_plate import CORNERS, Dune, Faraday
from pyramid.games.skill_pyramid import SKELETON, DiceMikado
from pyramid.play import SkillMatch
from pyramid.skill_cli import make_controller, play_skill, run_skill_game
from pyramid.state import Cell, PyramidState
from pyramid.world import World


def test_every_skill_game_has_a_rules_card_and_a_programmed_player() -> None:
    numbers = [game.info.number for game in SKILL_GAMES]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for game in SKILL_GAMES:
        doc = game.__doc__ or ""
        for heading in ("Setup:", "Turn:", "Legal actions:", "Scoring:", "End:", "Interpretation"):
            assert heading in doc, f"{game.info.title} lacks {heading}"
        make_controller(game.default_player, np.random.default_rng(0))
    assert find_skill_game("mikado") is DiceMikado and is_skill_game(3) and not is_skill_game(39)


def test_the_skeleton_is_the_three_edges_and_the_apex() -> None:
    assert len(SKELETON) == 25 and g.APEX in SKELETON and (8, 0, 0) in SKELETON and (7, 1, 0) not in SKELETON


def test_mikado_players_grip_only_dice_that_show_a_face() -> None:
    full = PyramidState.full()
    grip = set(reachable(full, keep=g.APEX))
    assert g.APEX not in grip and (4, 2, 2) not in grip and (8, 0, 0) in grip and len(grip) == 108
    # Emptying a base die leaves the dice on it with two supports each.
    assert weakened(full, (0, 4, 4)) == 0
    assert weakened(full.without((0, 5, 3)), (0, 4, 4)) == 1


def test_faraday_is_done_when_the_corners_hold_the_dice_and_fails_when_one_falls_off() -> None:
    game = Faraday(1, rng=np.random.default_rng(0))
    world = World()
    game.prepare(world)
    world.settle()
    assert game.judge(world.readout(), 0.0) is None
    assert set(game.goals(world.readout())) == set(game.dice)
    for die in game.dice:
        world.remove(die, pull=False)
    for die, corner in zip(game.dice, CORNERS, strict=True):
        world.place(die, corner)
    world.settle()
    end = game.judge(world.readout(), 12.5)
    assert end is not None and end.success and end.value == 12.5 and game.goals(world.readout()) == {}
    world.remove(game.dice[0], pull=False)
    world.throw(game.dice[0], (0.3, 0.0, 0.01))
    world.settle()
    end = game.judge(world.readout(), 13.0)
    assert end is not None and not end.success
    world.close()


def test_dune_is_done_when_four_dice_stand_as_a_pyramid() -> None:
    game = Dune(1, rng=np.random.default_rng(0))
    world = World()
    game.prepare(world)
    world.settle()
    assert game.judge(world.readout(), 1.0) is None
    for die in game.dice:
        world.remove(die, pull=False)
    world.build(PyramidState({s: Cell("red") for s in game.target}), dict(zip(game.target, game.dice, strict=True)))
    world.settle()
    end = game.judge(world.readout(), 2.0)
    assert end is not None and end.success
    world.close()


def test_a_mikado_turn_ends_when_the_top_falls_and_counts_the_dice_taken_before() -> None:
    game = DiceMikado(1, rng=np.random.default_rng(0), layers=4)
    match = SkillMatch(game, [MikadoHand(np.random.default_rng(1), "bottom")], World, np.random.default_rng(2))
    outcome = match.run()
    record = game.records[0]
    assert match.world is not None
    readout = match.world.readout(require_rest=False)
    lifted = 20 - len(readout.dice)
    assert record.actions == lifted >= 1
    top = readout.dice[game.top_die]
    if record.end.success:
        assert record.end.value == lifted
    else:  # the top left its slot, or a die left the plate: the last die lifted does not count
        assert top.slot != game.top_slot or readout.off_plate()
        assert record.end.value == lifted - 1
    assert outcome.scores == (record.end.value,)
    match.world.close()


@pytest.mark.parametrize(
    ("number", "players", "options"),
    [
        (6, "careful,random", {"layers": "3"}),
        (7, "flick,flick", {"rounds": "2"}),
        (9, "throw,throw", {"dice": "2"}),
        (1, "flint", {"layers": "3"}),
        (16, "ladle,ladle", {"dice": "6"}),
        (19, "throw,throw,throw", {"dice": "2", "throws": "3"}),
    ],
)
def test_the_same_seed_plays_the_same_skill_game(number: int, players: str, options: dict[str, str]) -> None:
    runs = [run_skill_game(find_skill_game(number), players.split(","), 5, options) for _ in range(2)]
    first, second = ([(r.player, r.end, round(r.time, 6)) for r in game.records] for game in runs)
    assert first == second and runs[0].outcome == runs[1].outcome and runs[0].outcome is not None


def test_play_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(game="mikado", players="careful", seed=0, fast=False, picture=None, option=["layers=3"])
    assert play_skill(args) == 0
    out = capsys.readouterr().out
    assert "lift" in out and "scores: player 0" in out and "wins" in out
    args.fast = True
    assert play_skill(args) == 2


def test_typed_actions_are_parsed_and_bad_ones_refused() -> None:
    assert parse_action("tilt 180 12") == Tilt(180.0, 12.0)
    assert parse_action("lift 8 0 0") == Lift((8, 0, 0))
    assert parse_action("wait 1") == Wait(1.0)
    for bad in ("", "jump 1", "tilt 1", "lift 1 2"):
        with pytest.raises(ValueError):
            parse_action(bad)


def test_dishing_up_numbers_name_the_next_player() -> None:
    game = find_skill_game(19)(3, rng=np.random.default_rng(0))
    assert [game.owner_of(n) for n in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    game = find_skill_game(19)(5, rng=np.random.default_rng(0))
    assert [game.owner_of(n) for n in range(1, 7)] == [0, 1, 2, 3, 4, None]


def test_bad_game_set_ups_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        DiceMikado(9, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown option"):
        DiceMikado(1, rng=np.random.default_rng(0), colour="red")
    with pytest.raises(ValueError, match="layers"):
        DiceMikado(1, rng=np.random.default_rng(0), layers=12).prepare(World())
    with pytest.raises(ValueError, match="unknown skill player"):
        make_controller("juggler", np.random.default_rng(0))
