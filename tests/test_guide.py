"""What the window tells a person about a skill game (no display): the goal, the controls, the dice to touch."""

from __future__ import annotations

import numpy as np

from pyramid.perception import DieReading, Readout
from pyramid.registry import find_game
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.throwing import Flickers
from pyramid.ui import guide


def _game(number: int, players: int = 2) -> SkillGame:
    return find_game(number, SkillGame)(players, rng=np.random.default_rng(0))


def test_the_help_lists_only_what_the_rules_allow() -> None:
    faraday = guide.skill_help(_game(3, 1))
    assert "ctrl-drag" in faraday and "S: a hard shake" in faraday
    assert "click a die" not in faraday and "hold B" not in faraday and "drag one of your dice" not in faraday
    flickers = guide.skill_help(_game(7))
    assert "drag one of your dice" in flickers and "ctrl-drag" not in flickers and "W: wait" not in flickers
    assert guide.controls(_game(6, 1)) == ("lift", "wait")
    assert "E: end the turn" in guide.skill_help(find_game("Mount(a)ing", SkillGame)(2, rng=np.random.default_rng(0)))
    assert guide.refusal(_game(6, 1), "shake") == "Dice Mikado allows no shake: your hands may lift (H: help)"


def test_the_goal_is_the_first_line_of_the_rules_card() -> None:
    assert guide.goal_line(_game(3, 1)).startswith("goal: Faraday: tilt and shake the plate until the three dice")
    assert "\n" not in guide.goal_line(_game(7))


def test_in_flickers_only_the_movers_dice_off_the_plate_may_be_flicked() -> None:
    game = _game(7)
    assert isinstance(game, Flickers)

    mine, theirs = game.own[0], game.own[1]
    # Every die lies on the table 30 cm out, but the mover's first, which lies on the plate.
    readout = _readout({d: 0.3 for d in mine + theirs} | {mine[0]: 0.0})
    assert guide.touchable(game, readout) == set(mine[1:]), "not the opponent's, not one on the plate"
    assert guide.own_dice(game, 1, readout) == set(theirs)


def _readout(where: dict[int, float]) -> Readout:
    """Dice lying ``x`` m from the plate's middle (on the plate at 0), each read as the world would."""
    from pyramid.dice import DICE
    from pyramid.perception import Status
    from pyramid.state import PyramidState

    dice = {
        d: DieReading(d, DICE[d].colour, Status.LYING, (x, 0.0, 0.02 if x == 0 else 0.008), x == 0, top=1)
        for d, x in where.items()
    }
    return Readout(dice, PyramidState(), {})
