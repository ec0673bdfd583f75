"""Ctrl+Z and Ctrl+Y in a match: the game and the table as they were before each of a person's actions.

A ``Moment`` is the game's attributes (copied deep) and the world's ``Table``; ``TakeBack`` keeps the
moments before the person's actions of the turn going on (a skill game) or before each of their moves
(a board game, the other players' moves after it undone with it). The window's waiting loops
(``pyramid.ui.skill.WindowHand``, ``pyramid.ui.player.WindowPlayer``) answer the keys between frames.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyramid.rules import GameBase

if TYPE_CHECKING:
    from pyramid.physics.tables import Table
    from pyramid.physics.world import World

DEPTH = 50  # moments kept: a person's last 50 actions


@dataclass(frozen=True, eq=False)
class Moment:
    """A game's attributes (a deep copy) and the world's table (None in exact play) at one moment."""

    game: dict[str, Any]
    table: Table | None

    @classmethod
    def of(cls, game: GameBase, world: World | None) -> Moment:
        """The moment now."""
        return cls(copy.deepcopy(vars(game)), world.snapshot() if world is not None else None)

    def restore(self, game: GameBase, world: World | None) -> None:
        """Put ``game`` (the same object: the match holds it) and ``world`` back as they were at this moment."""
        attributes = copy.deepcopy(self.game)
        vars(game).clear()
        vars(game).update(attributes)
        if world is not None and self.table is not None:
            world.restore(self.table)


class TakeBack:
    """The moments before a person's actions, newest last (``undo``), and those undone, to do again (``redo``)."""

    def __init__(self) -> None:
        self.undo: list[Moment] = []
        self.redo: list[Moment] = []

    def keep(self, moment: Moment) -> None:
        """A person acted from ``moment``: it can be gone back to; what was undone before is forgotten."""
        self.undo = [*self.undo, moment][-DEPTH:]
        self.redo = []

    def back(self, game: GameBase, world: World | None) -> bool:
        """Go back to before the person's last action (False: there is none to undo)."""
        return _move(self.undo, self.redo, game, world)

    def forth(self, game: GameBase, world: World | None) -> bool:
        """Do again what the last undo took back (False: nothing was undone since the person last acted)."""
        return _move(self.redo, self.undo, game, world)

    def clear(self) -> None:
        """Forget every moment (a new turn, in a new world)."""
        self.undo, self.redo = [], []

    def counts(self) -> str:
        """How many actions can be undone and redone, for a line of the log."""
        return f"{len(self.undo)} more to undo, {len(self.redo)} to redo"


def _move(source: list[Moment], target: list[Moment], game: GameBase, world: World | None) -> bool:
    """Restore the last moment of ``source``, keeping the present on ``target`` (False: ``source`` is empty)."""
    if not source:
        return False
    target.append(Moment.of(game, world))
    source.pop().restore(game, world)
    return True
