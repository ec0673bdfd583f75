"""Who answers the table games' decisions: the strong player (the decision's own values), random, a person.

They choose by the contract, ``choose(game, legal) -> Choice``, reading the pending ``Decision`` of the game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np

from pyramid.agents.players import Player, RandomPlayer
from pyramid.agents.terminal import TypedMoveError, option_help, read_option, table_status
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
    """A person at the terminal: the counts of every seat, the prompt and numbered options, an option typed back.

    An option is typed by its number, by the dice to keep (``3355``) or by its words (``stop``); bad input
    is asked again with what was wrong; a lone option is taken. ``?``, ``help``, ``rules`` and ``sheet``
    show the options, the rules card (``card``, else the game module's docstring) and the score sheet.
    """

    name = "human"

    def __init__(
        self,
        name: str = "human",
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        card: str = "",
    ) -> None:
        self.name = name
        self.read = read  # None: the built-in input(), looked up when asked
        self.out = out
        self.card = card
        self._status = ""  # the counts last shown: shown again only when they change

    def choose(self, game: TableGame, legal: Sequence[Choice]) -> Choice:
        """Ask until the answer names one option."""
        if len(legal) == 1:
            return legal[0]
        options = [c.text for c in legal]
        status = table_status(game)
        lines = [status] if status != self._status else []
        self._status = status
        lines.append(f"{self.name}: {game.decision().prompt}")
        lines += [f"  {c.index + 1}) {c.text}" for c in legal]
        self._say("\n".join(lines))
        while True:
            read = self.read or input
            answer = read(f"choice 1-{len(legal)} (? for help): ").strip()
            command = answer.lower()
            if command in ("?", "help"):
                self._say(option_help(options))
                if command == "help":
                    self._say(self._card(game))
                self._say("\n".join(f"  {c.index + 1}) {c.text}" for c in legal))
            elif command == "rules":
                self._say(self._card(game))
            elif command == "sheet":
                self._say(game.score_sheet())
            else:
                try:
                    index, note = read_option(answer, options)
                except TypedMoveError as err:
                    self._say(str(err))
                    continue
                if note:
                    self._say(note)
                return legal[index]

    def _say(self, text: str) -> None:
        print(text, file=self.out)

    def _card(self, game: TableGame) -> str:
        return self.card or inspect.getdoc(inspect.getmodule(type(game))) or ""


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
