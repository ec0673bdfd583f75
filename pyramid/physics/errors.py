"""The world's errors, importable without PyBullet (the command line names them without loading the physics)."""

from __future__ import annotations


class NotAtRestError(RuntimeError):
    """Raised when a read-out is asked of a world whose dice have not come to rest."""


class OccupiedError(ValueError):
    """A die was to be placed or set down where a die in play already sits; the message names the cell and that die."""

    def __init__(self, cell: tuple[int, int, int], die: int, gap: float, kind: str = "cell") -> None:
        super().__init__(f"{kind} {tuple(cell)} is taken: die {die} sits there ({gap:.2f} edges from its centre)")
        self.cell, self.die, self.gap = tuple(cell), die, gap


class ImpossibleStateError(RuntimeError):
    """The world reached a state that cannot be: a pose that is not a number, a die inside the table or
    the floor, a speed no action can give. The message names the die, the simulated time and the cause."""

    def __init__(self, die: int, time: float, cause: str) -> None:
        super().__init__(f"die {die} at {time:.3f} s simulated: {cause}")
        self.die, self.time, self.cause = die, time, cause
