"""Knights / Knatsch cards and dice results (the odds the strong player reckons with are in ``knights_dp``).

A result is ``(count, number, kicker)``: the largest group of equal dice (sixes never count), its number,
and the highest other die; results and card combinations compare as tuples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Result = tuple[int, int, int]
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
CASTLES_PER_COLOUR = (3, 3, 3, 3, 2, 2)  # 16 castles
# Trio number and kicker of the 16 castles, in colour order (the printed cards are not in the texts).
CASTLE_COMBOS = (
    (1, 4), (3, 2), (5, 1),
    (2, 3), (4, 1), (1, 5),
    (3, 4), (2, 5), (4, 2),
    (5, 2), (1, 3), (3, 5),
    (4, 3), (2, 4),
    (5, 3), (4, 5),
)  # fmt: skip
SPECIAL_KINDS = {
    "catapult": 3,
    "tournament champion": 1,
    "stack": 3,
    "castle guard": 3,
    "special card guard": 3,
    "betrayal": 1,
    "protection": 1,
}
DIE_CARDS = (1, 2, 3, 4, 5, 2, 3, 4)  # the values of the 8 die cards (their split is not in the texts)
SPECIAL_COMBOS = ((1, 5), (2, 4), (3, 3), (4, 2), (5, 1), (2, 2), (3, 1), (4, 4), (1, 2), (3, 5), (5, 4))
TOURNAMENTS = 9
KING: Result = (4, 5, 1)
BETRAYAL: Result = (3, 2, 4)
NOTHING: Result = (0, 0, 0)


@dataclass(frozen=True)
class Card:
    """One card: ``kind`` is "castle", "tournament", a special kind, or "die"; ``label`` the colour or die value."""

    kind: str
    label: str
    combo: Result | None  # (3, trio number, kicker); None for tournaments
    number: int  # serial number, keeps equal-looking cards apart

    @property
    def special(self) -> bool:
        """Whether this is a special card."""
        return self.kind not in ("castle", "tournament")

    def same_as(self, other: Card) -> bool:
        """Whether owning ``other`` forbids taking this card (tournaments are never alike)."""
        return self.kind != "tournament" and (self.kind, self.label) == (other.kind, other.label)

    def __str__(self) -> str:
        name = {"castle": f"{self.label} castle", "die": f"die card {self.label}", "tournament": "tournament"}
        text = name.get(self.kind, self.kind)
        if self.combo is None:
            return text
        return f"{text} [{combo_text(self.combo)}]"


def combo_text(result: Result) -> str:
    """``(3, 4, 2)`` as ``4-4-4+2``."""
    count, number, kicker = result
    if count == 0:
        return "nothing"
    return "-".join([str(number)] * count) + (f"+{kicker}" if kicker else "")


def make_deck(die_cards: Sequence[int] = DIE_CARDS) -> list[Card]:
    """The 48 playing cards: 16 castles, 9 tournaments, 23 special cards (blanks and goal cards left out)."""
    cards: list[Card] = []
    combos = iter(CASTLE_COMBOS)
    for colour, n in zip(COLOURS, CASTLES_PER_COLOUR, strict=True):
        for _ in range(n):
            trio, kicker = next(combos)
            cards.append(Card("castle", colour, (3, trio, kicker), len(cards)))
    cards += [Card("tournament", "", None, len(cards) + k) for k in range(TOURNAMENTS)]
    specials = [("die", str(v)) for v in die_cards] + [(k, "") for k, n in SPECIAL_KINDS.items() for _ in range(n)]
    for k, (kind, label) in enumerate(specials):
        trio, kicker = SPECIAL_COMBOS[k % len(SPECIAL_COMBOS)]
        cards.append(Card(kind, label, (3, trio, kicker), len(cards)))
    return cards


def best_result(dice: Sequence[int], extra: Sequence[int] = ()) -> Result:
    """The best result of ``dice`` with die cards ``extra`` as further dice; sixes count for nothing."""
    live = [d for d in dice if d != 6] + list(extra)
    if not live:
        return NOTHING
    count, number = max((live.count(v), v) for v in set(live))
    rest = [d for d in live if d != number]
    return (count, number, max(rest, default=0))
