"""Who acts in the skill games: programmed controllers that really perform physical actions, and a person.

A controller sees the game and a read-out of the world and returns one ``pyramid.physics.actions`` action;
``pyramid.play.Match`` performs it. Controllers never touch the world, and draw every random
choice from the Generator they were given.

``base`` holds the interface, ``plate`` the hands that move the plate or the air (tilt, blow, Captain
Flint), ``hands`` the others (Mikado, flick, throw, ladle, fowl, stacker, mount, a person).
"""

from pyramid.agents.controller import Controller, reachable, weakened
from pyramid.agents.dice_hands import (
    FlickHand,
    FowlHand,
    HumanHand,
    LadleHand,
    MaliceHand,
    MikadoHand,
    MountHand,
    StackHand,
    ThrowHand,
    set_down,
)
from pyramid.agents.plate_hands import BlowHand, FlintHand, TiltHand
from pyramid.agents.typed_hands import parse_action
from pyramid.dice import EDGE

__all__ = [
    "EDGE",
    "BlowHand",
    "Controller",
    "FlickHand",
    "FlintHand",
    "FowlHand",
    "HumanHand",
    "LadleHand",
    "MaliceHand",
    "MikadoHand",
    "MountHand",
    "StackHand",
    "ThrowHand",
    "TiltHand",
    "parse_action",
    "reachable",
    "set_down",
    "weakened",
]
