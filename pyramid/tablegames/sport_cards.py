"""Sport is murder: the sport decks, the house rules, each athlete's display and dice, the final score,
and the strong player's reckoning of what a die, a card or a doping pill is worth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Card = str  # "+1" (a training unit), "U2", "U4" or "U6"
TRAINING: Card = "+1"
LEVELS: dict[Card, int] = {"U2": 2, "U4": 4, "U6": 6}  # an accident's probability of occurrence
CARD_ORDER: tuple[Card, ...] = (TRAINING, "U2", "U4", "U6")
DECK: tuple[Card, ...] = (TRAINING,) * 9 + ("U2", "U4", "U6")
SPORTS = ("Bowling", "Tennis", "Billiards", "Football", "Cycling", "Skiing", "Boxing", "Riding")
DICE = 10
PILLS = 12
MAX_ROUNDS = 100
# The strong player's weights: an accident's cost, a die's cost (it misses the next roll), a kept pill.
ACCIDENT_COST: dict[Card, float] = {"U2": 0.8, "U4": 1.6, "U6": 2.5}
DIE_COST = 0.2
PILL_WORTH = 0.6
BUILD_BONUS = 0.5  # any card counts a little beyond its immediate change of the score


@dataclass(frozen=True)
class HouseRules:
    """Where the rule book is silent: the choices, each an option of ``pyramid play``."""

    sports: tuple[str, ...] = SPORTS  # the decks clockwise round the circle; evaluation starts at the first
    doping: str = "free"  # "free": any value, higher than an own die lying there; "capped": only own die + 1 (or 1)
    pills_per_round: int = 1  # the doping cap: pills one player may use in one round
    chain: str = "training"  # "training": only training units count; "all": accident cards too
    decay: str = "each"  # "each": one card per neglected sport in phase 7; "none": no reduction
    contest: str = "needed"  # "needed": no contest when everybody must get the same card; "always"
    max_rounds: int = MAX_ROUNDS  # safety stop; the rule book has no limit


def rules_from_options(options: Mapping[str, Any]) -> HouseRules:
    """House rules from the game's options as read (``SportIsMurder.option_specs``): ``sports``, ``doping``,
    ``pills-per-round``, ``chain``, ``decay``, ``contest``, ``max-rounds``; the defaults where not given."""
    return HouseRules(**{key.replace("-", "_"): value for key, value in options.items()})


def make_deck(order: Sequence[int]) -> list[Card]:
    """The 12 cards of one sport in ``order`` (a shuffle of 0 to 11); the top card first."""
    return [DECK[k] for k in order]


@dataclass
class Athlete:
    """One player's dice, display and pills."""

    supply: int = DICE  # free dice
    hand: list[int] = field(default_factory=list)  # the training roll, phases 2 to 4
    new: dict[str, int] = field(default_factory=dict)  # sport -> die laid out this round
    old: dict[str, int] = field(default_factory=dict)  # sport -> die laid out in the round before
    doped: set[str] = field(default_factory=set)  # sports whose new die lies on a doping pill
    committed: dict[str, int] = field(default_factory=dict)  # doped dice waiting to be laid out: sport -> value
    injured: list[tuple[str, int]] = field(default_factory=list)  # dice on U2/U4 cards: (sport, value shown)
    dead: list[str] = field(default_factory=list)  # sports whose closed deck carries this player's die
    training: dict[str, int] = field(default_factory=dict)  # training units per sport
    accidents: list[tuple[str, Card]] = field(default_factory=list)  # U2 and U4 cards in the display
    pills: int = 1

    def cards(self, sport: str, chain: str = "training") -> int:
        """Cards of ``sport`` in the display; with ``chain="all"`` accident cards count too."""
        extra = sum(1 for s, _ in self.accidents if s == sport) if chain == "all" else 0
        return self.training.get(sport, 0) + extra

    def counts(self, chain: str = "training") -> dict[str, int]:
        """Cards per sport in the display."""
        sports = set(self.training) | {s for s, _ in self.accidents}
        return {s: self.cards(s, chain) for s in sports if self.cards(s, chain)}

    def score(self, chain: str = "training") -> int:
        """Number of sports in the display times the longest chain."""
        return score_of(self.counts(chain))

    def toughness(self) -> int:
        """Accident cards, the deadly ones (the player's die on a closed deck) included: the tie-break."""
        return len(self.accidents) + len(self.dead)

    def dice_out(self) -> int:
        """Dice not in the supply: laid out, injured or dead."""
        return len(self.new) + len(self.old) + len(self.injured) + len(self.dead)


def score_of(counts: Mapping[str, int]) -> int:
    """Sports with cards times the longest chain."""
    held = [c for c in counts.values() if c > 0]
    return len(held) * max(held, default=0)


def may_place(athlete: Athlete, sport: str, value: int) -> bool:
    """The rule of phase 4: 1 at a sport without an own die, otherwise at most one higher than it."""
    if sport in athlete.new:
        return False
    if sport not in athlete.old:
        return value == 1
    return value <= athlete.old[sport] + 1


def doped_values(athlete: Athlete, sport: str, rules: HouseRules) -> list[int]:
    """The values a doped die may show at ``sport``."""
    if sport in athlete.new:
        return []
    below = athlete.old.get(sport)
    if rules.doping == "capped":
        return [1] if below is None else [below + 1] if below < 6 else []
    return list(range(1, 7)) if below is None else list(range(below + 1, 7))


def display(
    names: Sequence[str],
    athletes: Sequence[Athlete],
    sports: Sequence[str],
    decks: Mapping[str, Sequence[Card]],
    closed: Sequence[str],
) -> list[str]:
    """The circle as a table: per sport its deck and each player's cards (``+`` a training unit)."""
    rows = []
    for s in sports:
        cells = []
        for a in athletes:
            cell = TRAINING[0] * a.training.get(s, 0) + "".join(f" {c}" for t, c in a.accidents if t == s)
            cells.append((cell + (" U6" if s in a.dead else "")).strip() or "-")
        rows.append([s, f"{len(decks[s])} {'closed' if s in closed else 'open'}"] + cells)
    header = ["sport", "deck"] + list(names)
    widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
    return ["  ".join(f"{c:{w}s}" for c, w in zip(r, widths, strict=True)).rstrip() for r in [header] + rows]


# -- the strong player's reckoning ----------------------------------------------------------------


def card_gain(athlete: Athlete, sport: str, chain: str) -> float:
    """What one more training unit at ``sport`` is worth."""
    counts = athlete.counts(chain)
    after = dict(counts)
    after[sport] = after.get(sport, 0) + 1
    return score_of(after) - score_of(counts) + BUILD_BONUS


def card_loss(athlete: Athlete, sport: str, chain: str) -> float:
    """What losing a training unit at ``sport`` costs (phase 7)."""
    if athlete.training.get(sport, 0) == 0:
        return 0.0
    counts = athlete.counts(chain)
    after = dict(counts)
    after[sport] -= 1
    return score_of(counts) - score_of(after) + BUILD_BONUS


def draw_value(
    athlete: Athlete, sport: str, strength: int, deck: Sequence[Card], dice: int, rules: HouseRules
) -> float:
    """Expected worth of one card of ``deck`` for a player of training success ``strength``; ``dice`` cards
    are turned up, so all of them when the deck has no more."""
    if not deck:
        return 0.0
    forced = dice >= len(deck)
    value = 0.0
    if strength > athlete.training.get(sport, 0):
        value += deck.count(TRAINING) / len(deck) * card_gain(athlete, sport, rules.chain)
    for card, level in LEVELS.items():
        if card in deck and (forced or strength >= level):
            value -= ACCIDENT_COST[card] / len(deck)
    return value


def placement_value(
    athlete: Athlete, sport: str, value: int, doped: bool, others: int, deck: Sequence[Card], rules: HouseRules
) -> float:
    """Worth of laying out a die of ``value`` at ``sport`` where ``others`` dice of other players lie."""
    strength = value + int(doped) + others
    draws = 2 if doped else 1
    worth = draws * draw_value(athlete, sport, strength, deck, others + 1, rules)
    if rules.decay == "each":
        worth += card_loss(athlete, sport, rules.chain)
    return worth + 0.08 * value - DIE_COST


def plan(
    athlete: Athlete,
    hand: Iterable[int],
    open_sports: Sequence[str],
    others: Mapping[str, int],
    decks: Mapping[str, Sequence[Card]],
    rules: HouseRules,
) -> tuple[float, list[tuple[int, str]]]:
    """A greedy layout of ``hand``: its worth and the (value, sport) placements, best first."""
    values = sorted(set(hand), reverse=True)
    candidates = [
        (placement_value(athlete, s, v, False, others.get(s, 0), decks[s], rules), v, s)
        for s in open_sports
        for v in values
        if may_place(athlete, s, v)
    ]
    candidates.sort(key=lambda c: -c[0])
    left = list(hand)
    used: set[str] = set()
    total, chosen = 0.0, list[tuple[int, str]]()
    for worth, v, s in candidates:
        if worth <= 0:
            break
        if s in used or v not in left:
            continue
        left.remove(v)
        used.add(s)
        total += worth
        chosen.append((v, s))
    return total, chosen


def card_choice_value(athlete: Athlete, sport: str, card: Card, strength: int, forced: bool, chain: str) -> float:
    """Worth of taking ``card`` in a contest, for a player of training success (and accident risk) ``strength``."""
    if card == TRAINING:
        return card_gain(athlete, sport, chain) if strength > athlete.training.get(sport, 0) else 0.05
    if forced or strength >= LEVELS[card]:
        return -ACCIDENT_COST[card]
    return 0.0


def dope_worths(
    athlete: Athlete,
    hand: list[int],
    dopes: Sequence[tuple[int, str, int]],
    open_sports: Sequence[str],
    others: Mapping[str, int],
    decks: Mapping[str, Sequence[Card]],
    rules: HouseRules,
) -> list[float]:
    """Worth of the whole layout after each doping move (die given up, sport, doped value)."""
    worths = []
    for u, s, v in dopes:
        rest = list(hand)
        rest.remove(u)
        doped = placement_value(athlete, s, v, True, others.get(s, 0), decks[s], rules)
        sports = [t for t in open_sports if t != s]
        worths.append(doped + plan(athlete, rest, sports, others, decks, rules)[0])
    return worths


def mark_values(marked: list[int], values: list[int], wanted: list[int]) -> list[float]:
    """Throw (0.5) once every wanted die is marked; mark (1) a face still wanted."""
    return [0.5] + [1.0 if marked.count(v) < wanted.count(v) else 0.0 for v in values]


def reroll_values(
    i: int,
    hands: dict[int, list[int]],
    moves: list[tuple[int, int]],
    worth: Callable[[int, list[int]], float],
) -> list[float]:
    """Re-rolling one die: the expected gain for player ``i``'s own hand, 0.7 of the loss for a rival's."""
    out = [0.0]
    for j, v in moves:
        hand = hands[j]
        now = worth(j, hand)
        rest = list(hand)
        rest.remove(v)
        after = sum(worth(j, rest + [o]) for o in range(1, 7)) / 6
        out.append(after - now if j == i else 0.7 * (now - after))
    return out
