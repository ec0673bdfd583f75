"""What every table game shares: decisions put to players, the players, and the game metadata.

A game asks its players through ``Decision``s; the dice come from a ``Roller`` (physical or drawn).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, TextIO

import numpy as np

from pyramid.rules import name_key

Faces = tuple[int, ...]


@dataclass
class Decision:
    """A choice put to a player: a prompt, numbered options and, for strong players, their values."""

    player: str
    prompt: str
    options: list[str]
    values: Callable[[], list[float]] | None = None  # expected final score after each option
    context: dict[str, object] = field(default_factory=dict)


class Player(Protocol):
    """Anyone who answers decisions."""

    name: str

    def choose(self, decision: Decision) -> int:
        """The index of the chosen option."""
        ...


@dataclass
class RandomPlayer:
    """Chooses uniformly among the options."""

    name: str
    rng: np.random.Generator

    def choose(self, decision: Decision) -> int:
        """A uniformly random option."""
        return int(self.rng.integers(len(decision.options)))


@dataclass
class ValuePlayer:
    """Chooses the option of highest value (the decision's own value function); ties go to the first."""

    name: str

    def choose(self, decision: Decision) -> int:
        """The option of highest expected value."""
        if decision.values is None:
            return 0
        values = decision.values()
        return int(np.argmax(values))


@dataclass
class HumanPlayer:
    """A person at the terminal: numbered choices, asked again after bad input."""

    name: str
    read: Callable[[str], str] | None = None  # None: the built-in input(), looked up when asked
    out: TextIO | None = None

    def choose(self, decision: Decision) -> int:
        """Ask until a valid option number is typed."""
        if len(decision.options) == 1:
            return 0
        lines = [f"{self.name}: {decision.prompt}"]
        lines += [f"  {i + 1}) {text}" for i, text in enumerate(decision.options)]
        print("\n".join(lines), file=self.out)
        while True:
            read = self.read or input
            answer = read(f"choice 1-{len(decision.options)}: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return int(answer) - 1
            print(f"please type a number from 1 to {len(decision.options)}", file=self.out)


@dataclass(frozen=True)
class TableGameInfo:
    """The metadata block of a table game."""

    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    description: str
    strong_player: str  # the name of the strong player, e.g. "optimal"
    number: None = None  # not a game of the rule book (seed 004)

    @property
    def key(self) -> str:
        """How the command line names the game."""
        return self.name

    @property
    def title(self) -> str:
        """The game's title."""
        return self.description.split(":")[0]

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts supported."""
        return tuple(range(self.min_players, self.max_players + 1))

    def names(self) -> set[str]:
        """Every name the game answers to, as ``pyramid.rules.name_key`` gives them."""
        return {name_key(n) for n in (self.name, *self.aliases)}


@cache
def outcomes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """All distinct throws of ``k`` dice: probabilities (m,) and faces sorted high to low (m, k) int."""
    faces = list(itertools.combinations_with_replacement(range(6, 0, -1), k))
    probs = []
    for combo in faces:
        counts = [combo.count(v) for v in set(combo)]
        probs.append(math.factorial(k) / math.prod(math.factorial(c) for c in counts) / 6**k)
    return np.array(probs), np.array(faces, dtype=int).reshape(len(faces), k)


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings to a dict; raises ValueError on a malformed one."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"option {pair!r} is not KEY=VALUE")
        out[key.strip().lower()] = value.strip()
    return out
