"""The rules layer: the one game contract, actions as intents, outcomes, the board games' base and the checker.

Nothing here imports PyBullet or pyglet: every game and read-out is tested on a hand-written state.
"""

from pyramid.geometry import free_slots, open_slots
from pyramid.rules.actions import (
    Action,
    Choice,
    Declare,
    IllegalAction,
    Move,
    Pass,
    Place,
    Remove,
    RemoveColumn,
    Roll,
    Rolled,
    exact_result,
)
from pyramid.rules.checker import CheckReport, check_game
from pyramid.rules.contract import ANY_NUMBER, GameBase, Phase, player_counts
from pyramid.rules.game import PLAYER_COLOURS, Game, colour_scores, funnel_faces
from pyramid.rules.outcome import GameInfo, Outcome, Seat, Termination, name_key

__all__ = [
    "ANY_NUMBER",
    "PLAYER_COLOURS",
    "Action",
    "CheckReport",
    "Choice",
    "Declare",
    "Game",
    "GameBase",
    "GameInfo",
    "IllegalAction",
    "Move",
    "Outcome",
    "Pass",
    "Phase",
    "Place",
    "Remove",
    "RemoveColumn",
    "Roll",
    "Rolled",
    "Seat",
    "Termination",
    "check_game",
    "colour_scores",
    "exact_result",
    "free_slots",
    "funnel_faces",
    "name_key",
    "open_slots",
    "player_counts",
]
