"""Scripted dice and answers for the table games' tests: a part of a game's script is run on prepared throws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from pyramid.physics.roller import RollRecord
from pyramid.rules import Roll
from pyramid.tablegames.base import Answer, Decision, Steps

T = TypeVar("T")
G = TypeVar("G")


@dataclass
class ScriptedRoller:
    """Hands out prepared throws."""

    throws: list[list[int]]
    records: list[RollRecord] = field(default_factory=list)

    def roll(self, n: int) -> list[int]:
        faces = self.throws.pop(0)
        assert len(faces) == n, (faces, n)
        return faces


class Rolling(Protocol):
    """Hands out faces: prepared throws, or a FastRoller's draws."""

    def roll(self, n: int) -> list[int]: ...


class Answering(Protocol):
    """A scripted seat: answers a decision with an option's index."""

    def answer(self, decision: Decision) -> int: ...


def drive(steps: Steps[T], roller: Rolling, seats: Sequence[Answering]) -> T:
    """Run ``steps`` (a game's script or a part of it) to its end: rolls from ``roller``, decisions by ``seats``."""
    answer: Answer | None = None
    while True:
        try:
            request = steps.send(answer)
        except StopIteration as stop:
            return stop.value
        if isinstance(request, Roll):
            answer = tuple(roller.roll(request.dice))
        else:
            answer = seats[request.seat].answer(request)


@dataclass
class Table(Generic[G]):
    """A game with scripted seats and dice; ``run`` plays a part of its script on them."""

    game: G
    seats: Sequence[Answering]
    roller: ScriptedRoller

    def run(self, steps: Steps[T]) -> T:
        """Run ``steps`` to its end on the prepared throws and answers; what it returns."""
        return drive(steps, self.roller, self.seats)
