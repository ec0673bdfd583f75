"""Actions as intents: what a player asks for (place, remove, pick an option) and what chance asks of the
world (a roll). The world carries them out; the rules read back what happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from pyramid.dice import Colour
from pyramid.geometry import Slot, UpFaces
from pyramid.moves import Step, carry
from pyramid.state import Cell, PyramidState


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Place:
    """Put a die of ``colour`` into ``slot``; ``up`` fixes its faces (None: as it happens to land)."""

    slot: Slot
    colour: Colour
    up: UpFaces | None = None

    def __str__(self) -> str:
        faces = "" if self.up is None else " showing " + "".join(map(str, self.up))
        return f"place {self.colour} at {self.slot}{faces}"


@dataclass(frozen=True)
class Remove:
    """Take the die in ``slot`` out of the pyramid."""

    slot: Slot

    def __str__(self) -> str:
        return f"remove {self.slot}"


@dataclass(frozen=True)
class RemoveColumn:
    """Take a column of dice out, top first: ``slots`` in the order they are lifted."""

    slots: tuple[Slot, ...]

    def __str__(self) -> str:
        return "remove column " + " ".join(map(str, self.slots))


@dataclass(frozen=True)
class Move:
    """Carry dice by hand from slot to slot, keeping their faces: every ``(source, target)`` of ``steps``
    together (all lifted, then set down). ``name`` says what the move is, for people (not compared).
    """

    steps: tuple[Step, ...]
    name: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.name or "move " + ", ".join(f"{s} to {t}" for s, t in self.steps)


@dataclass(frozen=True)
class Pass:
    """Do nothing this turn (only where the rules allow it)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Declare:
    """A decision that moves no die (an answer, a choice, a plan); games subclass it to carry their data."""

    def __str__(self) -> str:
        return "declare"


@dataclass(frozen=True)
class Choice:
    """One of the numbered options a table game puts to a player (``index`` counts from 0)."""

    index: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Roll:
    """A chance step: ``dice`` dice to be rolled by the world (thrown on the table, or drawn)."""

    dice: int

    def __str__(self) -> str:
        return f"roll {self.dice} {'die' if self.dice == 1 else 'dice'}"


@dataclass(frozen=True)
class Rolled:
    """The world's answer to a ``Roll``: the faces the dice show, in the order they were read."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "rolled " + " ".join(map(str, self.faces))


Action: TypeAlias = Place | Remove | RemoveColumn | Move | Pass | Declare


def exact_result(state: PyramidState, action: Action, up: UpFaces = (1, 2, 3)) -> PyramidState:
    """The state after ``action`` performed exactly; a Place without faces shows ``up``."""
    if isinstance(action, Place):
        return state.with_cell(action.slot, Cell(action.colour, action.up or up))
    if isinstance(action, Remove):
        return state.without(action.slot)
    if isinstance(action, RemoveColumn):
        for s in action.slots:
            state = state.without(s)
        return state
    if isinstance(action, Move):
        return PyramidState(carry(state.cells, action.steps))
    return state
