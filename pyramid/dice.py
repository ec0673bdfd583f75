"""The 281 dice of the set: their colours, numbering and size.

Pure data. Every die shares one pip layout (see ``geometry.FACE_NORMALS``); dice are told apart
by their number 0..280 and their colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

DieId: TypeAlias = int
Colour: TypeAlias = str

EDGE = 0.016  # metres: the edge of a die of the set
DENSITY = 1180.0  # kg/m^3, acrylic-like

# Colour name -> (one-letter code used in the text notation, RGBA for pictures).
COLOURS: dict[Colour, tuple[str, tuple[float, float, float, float]]] = {
    "red": ("R", (0.80, 0.10, 0.10, 1.0)),
    "green": ("G", (0.10, 0.55, 0.20, 1.0)),
    "black": ("K", (0.08, 0.08, 0.08, 1.0)),
    "blue": ("B", (0.10, 0.25, 0.80, 1.0)),
    "gold": ("Y", (0.90, 0.70, 0.15, 1.0)),
}
CODE_TO_COLOUR: dict[str, Colour] = {code: name for name, (code, _) in COLOURS.items()}
COUNTS: dict[Colour, int] = {"red": 90, "green": 90, "black": 90, "blue": 10, "gold": 1}
PIP_COLOUR: dict[Colour, tuple[float, float, float, float]] = {
    "red": (1.0, 1.0, 1.0, 1.0),
    "green": (1.0, 1.0, 1.0, 1.0),
    "black": (1.0, 1.0, 1.0, 1.0),
    "blue": (1.0, 1.0, 1.0, 1.0),
    "gold": (0.1, 0.1, 0.1, 1.0),
}


@dataclass(frozen=True)
class Die:
    """One die of the set."""

    id: DieId
    colour: Colour

    @property
    def code(self) -> str:
        """One-letter colour code: R, G, K (black), B (blue), Y (gold)."""
        return COLOURS[self.colour][0]


def _make_set() -> tuple[Die, ...]:
    dice: list[Die] = []
    for colour, count in COUNTS.items():
        first = len(dice)
        dice.extend(Die(first + n, colour) for n in range(count))
    return tuple(dice)


DICE: tuple[Die, ...] = _make_set()


def dice_of(colour: Colour) -> list[DieId]:
    """The numbers of all dice of one colour."""
    if colour not in COUNTS:
        raise ValueError(f"unknown colour {colour!r}; the set has {', '.join(COUNTS)}")
    return [d.id for d in DICE if d.colour == colour]


def die_mass(edge: float = EDGE) -> float:
    """Mass in kg of a solid die of the given edge."""
    return DENSITY * edge**3
