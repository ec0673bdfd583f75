"""Who answers the table games' decisions: the strong player (the decision's own values), random, a person.

They choose by the contract, ``choose(game, legal) -> Choice``, reading the pending ``Decision`` of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np

from pyramid.agents.players import Player, RandomPlayer
from pyramid.rules import Choice
from pyramid.tablegames.base import Decision, TableGame

TABLE_PLAYER_KINDS = ("optimal", "strong", "random", "human")


class OptimalPlayer(Player[TableGame]):
    """Chooses the option of highest value (the decision's own value function); ties go to the first."""

    name = "optimal"

    def __init__(self, name: str = "optimal") -> None:
        self.name = name

    def choose(self, game: TableGame, legal: Sequence[Choice]) -> Choice:
        """The option of highest expected value."""
        return legal[self.answer(game.decision())]

    def answer(self, decision: Decision) -> int:
        """The index of the option of highest value (the first without values)."""
        return 0 if decision.values is None else int(np.argmax(decision.values()))


class TableHumanPlayer(Player[TableGame]):
    """A person at the terminal: prompt and numbered options, asked again after bad input; a lone option is taken."""

    name = "human"

    def __init__(
        self, name: str = "human", read: Callable[[str], str] | None = None, out: TextIO | None = None
    ) -> None:
        self.name = name
        self.read = read  # None: the built-in input(), looked up when asked
        self.out = out

    def choose(self, game: TableGame, legal: Sequence[Choice]) -> Choice:
        """Ask until a valid option number is typed."""
        if len(legal) == 1:
            return legal[0]
        lines = [f"{self.name}: {game.decision().prompt}"]
        lines += [f"  {c.index + 1}) {c.text}" for c in legal]
        print("\n".join(lines), file=self.out)
        while True:
            read = self.read or input
            answer = read(f"choice 1-{len(legal)}: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            print(f"please type a number from 1 to {len(legal)}", file=self.out)


def table_player(kind: str, name: str, rng: np.random.Generator) -> Player[TableGame]:
    """A player of ``kind`` (``optimal`` or ``strong``, ``random``, ``human``) called ``name``."""
    if kind in ("optimal", "strong"):
        return OptimalPlayer(name)
    if kind == "random":
        player = RandomPlayer(rng)
        player.name = name
        return player
    if kind == "human":
        return TableHumanPlayer(name)
    raise ValueError(f"unknown player {kind!r}; choose from {', '.join(TABLE_PLAYER_KINDS)}")


def table_players(kinds: Sequence[str], rng: np.random.Generator) -> list[Player[TableGame]]:
    """One player per kind, named by kind and seat (``optimal1``, ``random2``, ...); random ones draw from ``rng``."""
    if not all(kind.strip() for kind in kinds):
        raise ValueError(f"the players {','.join(kinds)!r} have an empty player name")
    kinds = [kind.strip().lower() for kind in kinds]
    return [table_player(kind, f"{kind}{n}", rng) for n, kind in enumerate(kinds, start=1)]
