"""Who acts in the skill games: programmed controllers that really perform physical actions, and a person.

A controller sees the game and a read-out of the world and returns one ``pyramid.physics.actions`` action;
``pyramid.play.Match`` performs it. Controllers never touch the world, and draw every random
choice from the Generator they were given.
"""

from __future__ import annotations

import abc
from typing import ClassVar, Generic, TypeVar

from pyramid import geometry
from pyramid.geometry import Slot
from pyramid.perception import Readout
from pyramid.physics.actions import PhysicalAction
from pyramid.skillgames.base import SkillGame
from pyramid.state import PyramidState

G = TypeVar("G", bound=SkillGame, contravariant=True)  # the skill game (or family of them) a hand plays


class Controller(abc.ABC, Generic[G]):
    """Chooses the next physical action of a skill game's turn, in a game of kind ``G``.

    ``plays`` names the game classes the hand reads (their goals, hands of dice, next throws):
    ``agents.seats`` refuses to seat it at any other game. With ``person`` an action the world refuses
    (``ValueError``: a die not in play, an angle too steep) is told and asked again; a programmed hand's is
    an error.
    """

    name: str = "controller"
    plays: ClassVar[tuple[type[SkillGame], ...]] = (SkillGame,)
    person: ClassVar[bool] = False  # a person: an action the hands cannot do is refused and asked again

    @abc.abstractmethod
    def act(self, game: G, readout: Readout, elapsed: float) -> PhysicalAction:
        """The next action, given the game, the world's read-out and the turn's simulated seconds so far."""


# --- the pyramid: lifting dice out (Dice Mikado) ---------------------------------------------------


def reachable(state: PyramidState, keep: Slot | None = None) -> list[Slot]:
    """Slots whose die shows at least one uncovered face (a hand can grip it), except ``keep``."""
    faces = {s for s, _ in geometry.exposed_faces(state)}
    return [s for s in geometry.SLOTS if s in faces and s != keep]


def weakened(state: PyramidState, slot: Slot) -> int:
    """How many dice would keep fewer than two of their three supports if ``slot`` were emptied."""
    after = set(state) - {slot}
    return sum(1 for s in geometry.resting_on(slot) if s in after and sum(t in after for t in geometry.supports(s)) < 2)
