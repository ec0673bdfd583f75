"""What every game states about itself and how it ends: ``GameInfo``, ``Termination``, ``Outcome``.

Shared by the board, skill and table games; pure data.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TypeAlias

Seat: TypeAlias = int  # a player's place at the table, 0 to players - 1


def name_key(text: str) -> str:
    """A name as the lookups compare it: lower case, every run of other characters one space."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@dataclass(frozen=True)
class GameInfo:
    """One game's metadata block: where the rule book has it, what it is called, who plays it.

    ``number`` is the game's number in the rule book (seed 004), None for a game from another
    seed (the table games), which is known by ``name``. ``category`` uses the rule book's letters:
    S skill, C construction, D demolition, T tactics, Ch chance, O observation.
    """

    number: int | None
    title: str
    category: str
    players: tuple[int, ...]  # the player counts supported
    material: str = ""
    aliases: tuple[str, ...] = ()
    seed_line: int = 0  # line of seeds/004_*.txt where the rule body starts
    name: str = ""  # the key of a game without a number, e.g. "decathlon"
    description: str = ""  # one line for `pyramid games`
    tags: tuple[str, ...] = ()  # e.g. "skill", "table", "board"

    @property
    def key(self) -> str:
        """How the command line names the game: its number, else its name."""
        return str(self.number) if self.number is not None else self.name

    def names(self) -> set[str]:
        """Every name the game answers to (number, name, title, aliases), as ``name_key`` gives them."""
        found = {name_key(n) for n in (self.key, self.name, self.title, *self.aliases) if n}
        # "The Clever Mole" answers to "clever mole", and "Dune" to "the dune"
        found |= {n[4:] for n in found if n.startswith("the ")} | {f"the {n}" for n in found}
        return found


class Termination(enum.Enum):
    """Why a game ended."""

    PYRAMID_COMPLETE = "the pyramid is complete"
    PYRAMID_CLEARED = "the pyramid has been taken apart"
    ALL_PLACED = "a player has placed all their dice"
    ROUNDS_PLAYED = "all rounds have been played"
    BLOCKED = "nobody can make a legal move"
    GROWN_OVER = "the player to move is grown over and cannot build"
    TURN_LIMIT = "the turn limit was reached"
    GOAL_REACHED = "a player has reached the goal"
    PLAYERS_OUT = "all other players are out"
    ALL_TAKEN = "every die at stake has been taken"
    FINISH_FILLED = "every scoring funnel of the finish area is taken"
    REPETITION = "the same position came about for the third time: a draw"
    NO_PROGRESS = "nobody came nearer their goal for many turns"
    DECIDED = "the winner is certain: no turn to come can change it"


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: why it ended, each player's score and the winners; ``said``: the reason in
    the game's own words where they tell more than the termination's (who is grown over), else empty."""

    termination: Termination
    scores: tuple[float, ...]
    winners: tuple[Seat, ...]
    said: str = ""

    def result(self) -> str:
        """A one-line summary, e.g. ``player 1 wins (the pyramid is complete)``."""
        who = " and ".join(f"player {p}" for p in self.winners)
        verb = "wins" if len(self.winners) == 1 else "share the win"
        return f"{who} {verb} ({self.said or self.termination.value})"
