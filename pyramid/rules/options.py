"""What a game's options may be: each declared beside the game's ``info`` with its type and range.

Every value (typed as ``--option KEY=VALUE``, swept by ``experiment --vary``, or passed in Python) is
read and checked here before a game is built: a value out of range, not finite or of the wrong type
is refused naming the option, the value and what is allowed. The card and ``--help`` show the same.
"""

from __future__ import annotations

import abc
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, TypeAlias

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")  # ASCII digits only: int() would read "²", "١٢" and 5,000 digits
_NUMBER = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,4})?")
MAX_TEXT = 1000  # characters of one option's value


class OptionError(ValueError):
    """A value a game's option does not take; the message names the option, the game, the value and what is allowed."""

    def __init__(self, key: str, game: str, allowed: str, value: Any) -> None:
        shown = value if isinstance(value, str) else str(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        super().__init__(f"option {key} of {game}: expected {allowed}, got {shown!r}")
        self.key, self.game, self.allowed = key, game, allowed


class _Refused(ValueError):
    """Raised inside a reader; ``Option.read`` turns it into an OptionError naming the option."""


def _grouped(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


@dataclass(frozen=True)
class Option(abc.ABC):
    """One option of a game: what it means (``help``, its default in words) and the values it takes."""

    help: str

    @abc.abstractmethod
    def allowed(self, players: int | None = None) -> str:
        """What the option takes, in words (``a whole number from 1 to 1,000``)."""

    @abc.abstractmethod
    def parse(self, value: Any, players: int) -> Any:
        """``value`` as the option's type, checked; _Refused if it is not one the option takes."""

    def read(self, key: str, game: str, value: Any, players: int) -> Any:
        """``value`` (text or a Python value) as the option's type; OptionError naming ``key`` and ``game`` if not."""
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise OptionError(key, game, f"{self.allowed(players)} (at most {MAX_TEXT:,} characters)", value)
        try:
            return self.parse(value, players)
        except _Refused:
            raise OptionError(key, game, self.allowed(players), value) from None

    def card(self) -> str:
        """The option on the rules card: its meaning, then what it takes."""
        return f"{self.help} [{self.allowed()}]"


@dataclass(frozen=True)
class Whole(Option):
    """A whole number from ``low`` to ``high``; with ``among``, one of those numbers only."""

    low: int = 0
    high: int = 0
    among: tuple[int, ...] = ()

    def allowed(self, players: int | None = None) -> str:
        if self.among:
            return ", ".join(map(str, self.among[:-1])) + f" or {self.among[-1]}"
        return f"a whole number from {_grouped(self.low)} to {_grouped(self.high)}"

    def parse(self, value: Any, players: int) -> int:
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            number = int(value.strip())
        elif isinstance(value, Integral) and not isinstance(value, bool):
            number = int(value)
        else:
            raise _Refused
        if not self.low <= number <= self.high or (self.among and number not in self.among):
            raise _Refused
        return number


@dataclass(frozen=True)
class Number(Option):
    """A finite number from ``low`` to ``high`` (above ``low`` when ``above``)."""

    low: float = 0.0
    high: float = 0.0
    above: bool = False

    def allowed(self, players: int | None = None) -> str:
        if self.above:
            return f"a number above {_grouped(self.low)} and at most {_grouped(self.high)}"
        return f"a number from {_grouped(self.low)} to {_grouped(self.high)}"

    def parse(self, value: Any, players: int) -> float:
        if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
            number = float(value.strip())
        elif isinstance(value, Real) and not isinstance(value, bool):
            number = float(value)
        else:
            raise _Refused
        if not math.isfinite(number) or not self.low <= number <= self.high or (self.above and number == self.low):
            raise _Refused
        return number


@dataclass(frozen=True)
class YesNo(Option):
    """Yes or no (also true/false, on/off, 1/0)."""

    def allowed(self, players: int | None = None) -> str:
        return "yes or no (true/false, 1/0)"

    def parse(self, value: Any, players: int) -> bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower() if isinstance(value, str | int) else ""
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise _Refused


@dataclass(frozen=True)
class OneOf(Option):
    """One of the words ``choices`` (any case), read as written there."""

    choices: tuple[str, ...] = ()

    def allowed(self, players: int | None = None) -> str:
        return ", ".join(self.choices[:-1]) + f" or {self.choices[-1]}"

    def parse(self, value: Any, players: int) -> str:
        text = value.strip().lower() if isinstance(value, str) else None
        found = [c for c in self.choices if c.lower() == text]
        if not found:
            raise _Refused
        return found[0]


@dataclass(frozen=True)
class Name(Option):
    """A name of letters, digits, spaces, hyphens and apostrophes, 1 to ``longest`` characters (``Bowling``)."""

    longest: int = 30

    def allowed(self, players: int | None = None) -> str:
        return f"a name of 1 to {self.longest} letters, digits, spaces or hyphens"

    def parse(self, value: Any, players: int) -> str:
        text = value.strip() if isinstance(value, str) else ""
        if not 1 <= len(text) <= self.longest or not re.fullmatch(r"[A-Za-z0-9' -]+", text):
            raise _Refused
        return text


Item: TypeAlias = Whole | Number | OneOf | Name


@dataclass(frozen=True)
class PerPlayer(Option):
    """One value for every player, or one per player, comma-separated (``3,5``); read as one per player."""

    item: Item = Number("", 0.0, 1.0)

    def allowed(self, players: int | None = None) -> str:
        count = f"{players} of them" if players is not None else "one for each"
        return f"{self.item.allowed()} for every player, or {count}, comma-separated"

    def parse(self, value: Any, players: int) -> tuple[Any, ...]:
        values = _items(value)
        if len(values) not in (1, players):
            raise _Refused
        read = tuple(self.item.parse(v, players) for v in values)
        return read * players if len(read) == 1 else read


@dataclass(frozen=True)
class ListOf(Option):
    """Several values, comma-separated: ``count`` of them (any number from 1 with 0), distinct with ``distinct``."""

    item: Item = Whole("", 0, 0)
    count: int = 0
    distinct: bool = False

    def allowed(self, players: int | None = None) -> str:
        count = f"{self.count}" if self.count else "one or more"
        apart = ", none twice" if self.distinct else ""
        return f"{count} comma-separated values, each {self.item.allowed()}{apart}"

    def parse(self, value: Any, players: int) -> tuple[Any, ...]:
        values = _items(value)
        if not values or (self.count and len(values) != self.count):
            raise _Refused
        read = tuple(self.item.parse(v, players) for v in values)
        if self.distinct and len(set(read)) != len(read):
            raise _Refused
        return read


def _items(value: Any) -> list[Any]:
    """The values of a comma-separated text, or of a list or tuple; _Refused for anything else."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",")]
    if isinstance(value, list | tuple):
        return list(value)
    raise _Refused


Options: TypeAlias = Mapping[str, Option]


def read_options(given: Mapping[str, Any], declared: Options, players: int, game: str) -> dict[str, Any]:
    """Every option in ``given`` read by its declaration in ``declared``: unknown keys and bad values refused."""
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise ValueError(f"unknown option(s) {', '.join(unknown)} for {game}; known: {known}")
    return {key: declared[key].read(key, game, value, players) for key, value in given.items()}


def card_lines(declared: Options) -> Sequence[str]:
    """Each option as the rules card shows it: ``key: meaning [what it takes]``."""
    return [f"{key}: {option.card()}" for key, option in declared.items()]
