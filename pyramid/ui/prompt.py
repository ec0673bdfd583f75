"""A choice a person at the window makes among a game's legal actions: by a click (``pyramid.ui.hands`` turns it
into one of them) or by a typed number. ``pyramid.ui.player``'s window player waits on one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pyglet.window import key

from pyramid import geometry
from pyramid.dice import COLOURS, Colour
from pyramid.rules import Action, Declare, Move, Place
from pyramid.state import PyramidState

LISTED = 12  # actions a choice lists at a time
COLOUR_ORDER: tuple[Colour, ...] = tuple(COLOURS)


def named_slot(action: Action) -> geometry.Slot | None:
    """The slot a choice that moves no die names (``Declare`` with a ``slot``: hide the wolf there), else None."""
    slot = getattr(action, "slot", None) if isinstance(action, Declare) else None
    return slot if isinstance(slot, tuple) and geometry.is_slot(slot) else None


class Prompt:
    """A choice the window player waits for: the legal actions, a number typed, the action picked."""

    def __init__(self, legal: Sequence[Action], say: Callable[[str], None], state: PyramidState | None = None) -> None:
        self.legal = list(legal)
        self.say = say
        self.typed = ""
        self.choice: Action | None = None
        self.state = state if state is not None else PyramidState()  # the game's state: the dice that move
        self.source: geometry.Slot | None = None  # a die clicked to move: the next click says where

    def listed(self, limit: int = LISTED) -> list[tuple[int, Action]]:
        """The numbered actions to show, at most ``limit``: the first ones, or those whose number begins with the
        digits typed so far (so that each of 45 choices can be found by its first digit)."""
        numbered = list(enumerate(self.legal, 1))
        if self.typed:
            numbered = [(n, a) for n, a in numbered if str(n).startswith(self.typed)]
        return numbered[:limit]

    def pick(self, options: Sequence[Action], refusal: str) -> None:
        """Take the one option, or say why nothing was taken (several: their numbers, to type one)."""
        if len(options) == 1:
            self.choice = options[0]
        elif not options:
            self.say(refusal)
        else:
            numbers = ", ".join(str(self.legal.index(a) + 1) for a in options)
            self.say(f"{len(options)} actions fit: type the number of one ({numbers}) and Enter")

    def naming(self, slot: geometry.Slot) -> list[Declare]:
        """The legal choices that name the die in ``slot`` and move none (hide the wolf there, ask about it)."""
        return [a for a in self.legal if isinstance(a, Declare) and named_slot(a) == slot]

    def moves_of(self, slot: geometry.Slot) -> list[Move]:
        """The legal moves that carry the die in ``slot``."""
        return [a for a in self.legal if isinstance(a, Move) and any(s == slot for s, _ in a.steps)]

    def targets(self) -> list[geometry.Slot]:
        """Where the chosen die (``source``) can go, by the legal moves."""
        if self.source is None:
            return []
        found = {t for a in self.moves_of(self.source) for s, t in a.steps if s == self.source}
        return sorted(found, key=geometry.SLOT_INDEX.__getitem__)

    def colours(self, slot: geometry.Slot | None) -> tuple[Colour, ...]:
        """The colours a die may be placed in ``slot`` (any slot when None) in this choice."""
        found = {a.colour for a in self.legal if isinstance(a, Place) and (slot is None or a.slot == slot)}
        return tuple(c for c in COLOUR_ORDER if c in found) or COLOUR_ORDER

    def key(self, symbol: int) -> bool:
        """Digits, Backspace and Enter choose by number; True if the key was used."""
        if key._0 <= symbol <= key._9 or key.NUM_0 <= symbol <= key.NUM_9:
            self.typed += str(symbol - (key._0 if symbol <= key._9 else key.NUM_0))
        elif symbol == key.BACKSPACE:
            self.typed = self.typed[:-1]
        elif symbol in (key.ENTER, key.RETURN, key.NUM_ENTER) and self.typed:
            n = int(self.typed)
            self.typed = ""
            if 1 <= n <= len(self.legal):
                self.choice = self.legal[n - 1]
            else:
                self.say(f"choose a number from 1 to {len(self.legal)}")
        else:
            return False
        return True
