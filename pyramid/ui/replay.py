"""Recorded matches played back: a seat's actions again, in order, as the window's Enter replays a match.

Sits beside the players (``pyramid.agents``): a replay is a player like any other, so the same match
loop (``pyramid.play``) runs it. No window needed: a script can record and replay a match too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pyramid.agents import Controller
from pyramid.agents.players import Player
from pyramid.perception import Readout
from pyramid.physics import actions
from pyramid.physics.actions import PhysicalAction
from pyramid.rules import Action, Game
from pyramid.skillgames.base import DiceInHand, SkillGame
from pyramid.skillgames.throwing import Trulla


class ReplayPlayer(Player):
    """Plays back the actions one seat made in a recorded match, in order."""

    name = "replay"

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        """The next recorded action (it must be legal: the replay is of the same seeded match)."""
        action = self.actions.pop(0)
        if action not in legal:
            raise ValueError(f"the replay diverged: {action} is not legal now")
        return action


@dataclass(frozen=True)
class Move:
    """One recorded action of a seat, and whether with it the player declared the turn over (``game.stop()``)."""

    action: actions.PhysicalAction
    stops: bool = False


class Recorder(Controller):
    """Passes on another controller's actions and keeps them, in order, for a replay.

    A player may also end a turn by word (Mount(a)ing's E, or the programmed hand stopping): the game's
    ``stopped`` turning true during an action is kept with it.
    """

    def __init__(self, player: Controller) -> None:
        self.player = player
        self.name = player.name
        self.moves: list[Move] = []

    @property
    def actions(self) -> list[PhysicalAction]:
        """The recorded actions, in order."""
        return [m.action for m in self.moves]

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """The wrapped controller's action, recorded."""
        before = isinstance(game, DiceInHand) and game.stopped
        action = self.player.act(game, readout, elapsed)
        self.moves.append(Move(action, isinstance(game, DiceInHand) and game.stopped and not before))
        return action


def from_hand(game: SkillGame, action: actions.PhysicalAction) -> PhysicalAction:
    """``action`` with the dice it sets down taken from the game's hand again, as the player's hands took them.

    A recorded ``Attach`` (Mount(a)ing) or ``Pour`` (Trulla) names dice that the game handed out when it
    was first played; a replay runs a fresh game whose hand still holds them. The dice are asked of the
    game by the same calls (``next_die``, ``ladleful``), so its hand empties as it did, and the action
    sets down the dice it hands out now (the same ones while the replay runs as the match ran). With the
    hand empty, the hands wait.
    """
    if isinstance(action, actions.Attach) and isinstance(game, DiceInHand):
        if not game.hand:
            return actions.Wait(0.1)
        return replace(action, die=game.next_die())
    if isinstance(action, actions.Pour) and isinstance(game, Trulla):
        dice = tuple(game.ladleful(len(action.dice)))
        return replace(action, dice=dice) if dice else actions.Wait(0.1)
    return action


class ReplayHand(Controller):
    """Plays back one seat's recorded moves; waits once they run out (the judge then ends the turn)."""

    name = "replay"

    def __init__(self, recorded: Sequence[Move]) -> None:
        self.recorded = list(recorded)

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """The next recorded action, its dice taken from the game's hand; the player stops where they stopped."""
        if not self.recorded:
            return actions.Wait(0.5)
        move = self.recorded.pop(0)
        if move.stops and isinstance(game, DiceInHand):
            game.stop()
        return from_hand(game, move.action)
