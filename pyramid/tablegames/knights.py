"""Knights / Knatsch by Michael Schacht (seed 001): roll for castles, tournaments and special cards.

Setup:
    2 to 6 players, 6 dice. Each player draws one of 6 castles of different colours; the other castles,
    9 tournaments and 23 special cards are shuffled into two face-up stacks (blanks and goal cards out).
Turn:
    If you have three castles you may instead try to topple the king. Otherwise put at most one top card
    under its stack (two with a Stack card), then announce a card: a stack's top card, an opponent's
    castle (not if they have only one; with two players only if they have three or more; not if guarded)
    or an opponent's special card (not if guarded); never a card like one you own (tournaments excepted).
    Roll the 6 dice up to three times; sixes are set aside for good; after each roll keep any dice and
    roll the others (dice kept before may be rolled again).
    Capturing a special card from a stack earns another announcement in the same turn.
Legal actions:
    Announce a card, put a top card under; after a roll, stop or keep any part of the dice (every
    multiset of their numbers is offered) and roll the others; attempt the king or not; choose the
    castles a Castle guard and the card a Special card guard protect; choose the castle lost to the
    king's revenge and the stack it goes under.
Scoring:
    A roll's result is its largest group of equal dice (sixes never count), then the group's number,
    then the highest other die (the kicker). A card is captured by beating its three red dice: more
    dice, or as many of a higher number, or the same and a strictly higher kicker than the yellow die.
    An attacked castle's owner rolls to beat the attacker's result and keeps it if he does; special
    cards have no defence. A tournament from a stack: the organiser rolls up to four times, then each
    other player in turn must beat the best result so far; the best takes the card. The king needs
    better than 5-5-5-5+1; failing costs a castle (put under a stack) unless you hold Protection.
End:
    The first player with four castles, or three castles and the king, or two castles and three
    tournaments wins at once.
Interpretation:
    The printed dice of the cards and the split of the 8 die cards are not in the texts: castles and
    special cards use the lists in ``knights_cards`` (``CASTLE_COMBOS``, ``SPECIAL_COMBOS``, option
    ``die-cards=1,2,3,4,5,2,3,4``), 3 castles of four colours and 2 of the other two. Betrayal makes stack
    castles 2-2-2+4 (the Dutch text). Each die card the player owns is an extra die in all his results.
    A Stack card allows two put-unders per turn instead of one. The Catapult gives four rolls against an
    opponent's castle, the Tournament Champion four in tournaments. Guards are placed at the start of
    the owner's turn and again at its end. The king's attempt is the whole turn. With no card to
    announce, stack tops go under until one can be announced (at most once round both stacks);
    otherwise the turn passes. The texts have no other end: after
    ``max-rounds`` rounds (default 200) the most castles, then tournaments, win (ties shared).
    The strong player keeps the dice that give the best chance to beat the target, and weighs each card
    by its use for the goals and its exact chance of capture under such keeps (``knights_dp``). Keeping
    two numbers can beat any one-number keep: against 3-3-3+2, holding 1,2,3,3,5,5 with two rolls to
    go, keeping 3,3,5,5 wins 251/324 = 0.775, keeping 5,5 (the best one number) 0.749.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import ClassVar

from pyramid.rules import GameInfo, Seat, Termination
from pyramid.rules.options import ListOf, Options, Whole
from pyramid.tablegames import knights_cards as kc
from pyramid.tablegames import knights_dp as kd
from pyramid.tablegames.base import Steps, TableGame, ask, roll
from pyramid.tablegames.knights_cards import Card, Result

INFO = GameInfo(
    number=None,
    title="Knights",
    category="Ch",
    players=(2, 3, 4, 5, 6),
    material="6 dice, 48 cards",
    aliases=("knatsch", "ritter", "schacht-knights"),
    name="knights",
    description="Michael Schacht's Knights / Knatsch: dice for castles, tournaments and special cards",
    tags=("table",),
)
DICE = 6
ROLLS = 3
MAX_ROUNDS = 200
WIN = 100.0  # a strong player's value of winning at once
SPECIAL_WORTH = {"die": 5.0, "catapult": 3.0, "castle guard": 5.0, "betrayal": 5.0, "protection": 3.0}


@dataclass
class Knight:
    """One player's display: cards owned and what the guards protect."""

    cards: list[Card] = field(default_factory=list)
    guarded_castles: list[Card] = field(default_factory=list)
    guarded_special: Card | None = None

    def castles(self) -> list[Card]:
        """The castles owned."""
        return [c for c in self.cards if c.kind == "castle"]

    def tournaments(self) -> int:
        """The number of tournament cards."""
        return sum(1 for c in self.cards if c.kind == "tournament")

    def has(self, kind: str) -> bool:
        """Whether a special card of ``kind`` is owned."""
        return any(c.kind == kind for c in self.cards)

    def die_cards(self) -> tuple[int, ...]:
        """The values of the die cards owned."""
        return tuple(sorted(int(c.label) for c in self.cards if c.kind == "die"))

    def wins(self) -> bool:
        """Four castles, or two castles and three tournaments."""
        return len(self.castles()) >= 4 or (len(self.castles()) >= 2 and self.tournaments() >= 3)


def _constant(values: list[float]) -> list[float]:
    return values


def _live(faces: Sequence[int]) -> kd.Hand:
    """The dice still in play, sorted: sixes are set aside for good."""
    return tuple(sorted(f for f in faces if f != 6))


def _keep_text(kept: kd.Hand, rolled: int) -> str:
    dice = "die" if rolled == 1 else "dice"
    if not kept:
        return f"roll all {rolled} {dice}"
    return f"keep {','.join(map(str, kept))} and roll {rolled} {dice}"


@cache
def _ranked_keeps(hand: kd.Hand) -> tuple[tuple[kd.Hand, ...], tuple[str, ...]]:
    """``hand``'s keeps, most dice and highest first, and their options' texts (a hand recurs often)."""
    kept = tuple(sorted(kd.keeps(hand), key=lambda k: (len(k), k[::-1]), reverse=True))
    return kept, tuple(_keep_text(k, len(hand) - len(k)) for k in kept)


def _keep_values(hand: kd.Hand, kept: list[kd.Hand], target: Result, left: int, extra: tuple[int, ...]) -> list[float]:
    """The chance to beat ``target`` after stopping with ``hand``, then after each keep (optimal keeps later)."""
    stop = kd.hand_chance(hand, target, 0, extra)
    return [stop] + [kd.keep_chance(k, len(hand) - len(k), target, left, extra) for k in kept]


class Knights(TableGame):
    """One game of Knights: turns round the table until somebody reaches a goal (or the round limit)."""

    info: ClassVar[GameInfo] = INFO
    default_player: ClassVar[str] = "strong"
    option_specs: ClassVar[Options] = {
        "die-cards": ListOf("the values of the 8 die cards (default 1,2,3,4,5,2,3,4)", Whole("", 1, 5), count=8),
        "max-rounds": Whole(
            f"rounds before the game is stopped and the most castles, then tournaments, win ({MAX_ROUNDS})",
            1,
            10 * MAX_ROUNDS,
        ),
    }

    def setup(self) -> None:
        die_cards: tuple[int, ...] = self.option("die-cards", tuple(kc.DIE_CARDS))
        self.max_rounds: int = self.option("max-rounds", MAX_ROUNDS)
        self.knights = [Knight() for _ in range(self.players)]
        deck = kc.make_deck(die_cards)
        firsts = [next(c for c in deck if c.kind == "castle" and c.label == colour) for colour in kc.COLOURS]
        order = self.permutation(len(firsts))
        for knight, k in zip(self.knights, order, strict=False):
            knight.cards.append(firsts[k])
        dealt = {id(k.cards[0]) for k in self.knights}
        rest = [c for c in deck if id(c) not in dealt]
        rest = [rest[k] for k in self.permutation(len(rest))]
        half = (len(rest) + 1) // 2
        self.stacks: list[list[Card]] = [rest[:half], rest[half:]]
        self.winning: list[Seat] = []  # the winners, once decided
        self.rounds = 0
        self.limited = False  # stopped by the round limit

    def scores(self) -> tuple[float, ...]:
        """Each player's castles."""
        return tuple(len(k.castles()) for k in self.knights)

    def measures(self) -> dict[str, list[float]]:
        """Knights has no score (a goal wins): each player's castles and tournaments."""
        return {
            "castles": [len(k.castles()) for k in self.knights],
            "tournaments": [k.tournaments() for k in self.knights],
        }

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        """Who reached a goal (or led at the round limit)."""
        return tuple(self.winning)

    def termination(self) -> Termination:
        return Termination.TURN_LIMIT if self.limited else Termination.GOAL_REACHED

    def _ask(self, i: int, prompt: str, options: list[str], values: list[float]) -> Steps[int]:
        return (yield from ask(i, prompt, options, partial(_constant, values)))

    # -- the game ------------------------------------------------------------------------------------

    def script(self) -> Steps[None]:
        while not self.winning and self.rounds < self.max_rounds:
            self.checkpoint()
            self.rounds += 1
            for i in range(self.players):
                yield from self.turn(i)
                if self.winning:
                    break
        if not self.winning:
            self.limited = True
            key = [(len(k.castles()), k.tournaments()) for k in self.knights]
            self.winning = [i for i, v in enumerate(key) if v == max(key)]
            self.say(f"round limit reached: {', '.join(self.names[i] for i in self.winning)} lead")

    def turn(self, i: int) -> Steps[None]:
        """One player's turn."""
        knight = self.knights[i]
        yield from self._place_guards(i)
        if len(knight.castles()) >= 3 and (yield from self._wants_king(i)):
            yield from self._king(i)
            return
        put_unders = 2 if knight.has("stack") else 1
        while not self.winning:
            targets = self.targets(i)
            if not targets:
                if not self._forced_put_under(i):
                    self.say(f"{self.names[i]} can announce no card")
                    return
                continue
            options = [self._describe(t) for t in targets]
            unders = [s for s in range(2) if put_unders and self.stacks[s]]
            options += [f"put the top card of stack {s + 1} ({self.stacks[s][0]}) under it" for s in unders]
            # Valued only when asked (a clone replaying the game never asks).
            values = partial(self._announce_values, i, targets, unders)
            choice = yield from ask(i, f"{self.names[i]}'s turn: announce a card", options, values)
            if choice >= len(targets):
                self._put_under(unders[choice - len(targets)])
                put_unders -= 1
                continue
            if not (yield from self._capture(i, targets[choice])):
                break
        yield from self._place_guards(i)

    # -- cards on offer ---------------------------------------------------------------------------

    def targets(self, i: int) -> list[tuple[int, Card]]:
        """Cards ``i`` may announce: (-1 - stack, card) for a stack's top card, (owner, card) otherwise."""
        own = self.knights[i].cards
        found: list[tuple[int, Card]] = []
        for s, stack in enumerate(self.stacks):
            if stack and not any(stack[0].same_as(c) for c in own):
                found.append((-1 - s, stack[0]))
        least = 3 if self.players == 2 else 2
        for j, other in enumerate(self.knights):
            if j == i:
                continue
            for card in other.cards:
                if any(card.same_as(c) for c in own) or card.kind == "tournament":
                    continue
                if card.kind == "castle" and (len(other.castles()) < least or card in other.guarded_castles):
                    continue
                if card.special and card is other.guarded_special:
                    continue
                found.append((j, card))
        return found

    def requirement(self, i: int, owner: int, card: Card) -> Result:
        """The combination ``i`` must beat for ``card``; Betrayal lowers the castles on the stacks."""
        assert card.combo is not None
        if card.kind == "castle" and owner < 0 and self.knights[i].has("betrayal"):
            return kc.BETRAYAL
        return card.combo

    def _describe(self, target: tuple[int, Card]) -> str:
        owner, card = target
        where = f"stack {-owner}" if owner < 0 else self.names[owner]
        return f"{card} from {where}"

    def _put_under(self, s: int) -> None:
        card = self.stacks[s].pop(0)
        self.stacks[s].append(card)

    def _forced_put_under(self, i: int) -> bool:
        """The special case: put tops under until a card can be announced; False if none ever can."""
        for _ in range(sum(len(s) for s in self.stacks)):
            for s in range(2):
                if self.stacks[s]:
                    self._put_under(s)
                    if self.targets(i):
                        return True
        return False

    # -- capturing ------------------------------------------------------------------------------

    def _capture(self, i: int, target: tuple[int, Card]) -> Steps[bool]:
        """Roll for ``target``; True if the turn goes on (a special card taken from a stack)."""
        owner, card = target
        name = self.names[i]
        self.say(f"{name} announces {self._describe(target)}")
        if card.kind == "tournament":
            self.stacks[-1 - owner].pop(0)
            yield from self._tournament(i, card)
            return False
        rolls = 4 if card.kind == "castle" and owner >= 0 and self.knights[i].has("catapult") else ROLLS
        need = self.requirement(i, owner, card)
        result = yield from self.roll_for(i, need, rolls, f"for {card}")
        if result <= need:
            self.say(f"  {name} fails with {kc.combo_text(result)}")
            if owner < 0:
                self._put_under(-1 - owner)
            return False
        if owner >= 0 and card.kind == "castle":
            defence = yield from self.roll_for(owner, result, ROLLS, f"defending {card}")
            if defence > result:
                self.say(f"  {self.names[owner]} defends with {kc.combo_text(defence)}")
                return False
        self.say(f"  {name} captures {card} with {kc.combo_text(result)}")
        if owner < 0:
            self.stacks[-1 - owner].pop(0)
        else:
            self._lose(owner, card)
        self._gain(i, card)
        return owner < 0 and card.special and not self.winning

    def _gain(self, i: int, card: Card) -> None:
        self.knights[i].cards.append(card)
        if self.knights[i].wins() and not self.winning:
            self.winning = [i]
            self.say(f"{self.names[i]} wins")

    def _lose(self, i: int, card: Card) -> None:
        knight = self.knights[i]
        knight.cards.remove(card)
        if card in knight.guarded_castles:
            knight.guarded_castles.remove(card)
        if card is knight.guarded_special:
            knight.guarded_special = None
        if card.kind == "castle guard":
            knight.guarded_castles = []
        if card.kind == "special card guard":
            knight.guarded_special = None

    def _tournament(self, organiser: int, card: Card) -> Steps[None]:
        n = self.players
        best, leader = kc.NOTHING, organiser
        for k in range(n):
            j = (organiser + k) % n
            rolls = 4 if j == organiser or self.knights[j].has("tournament champion") else ROLLS
            target = best if k else (3, 4, 5)  # the organiser aims high; the others must beat the best so far
            result = yield from self.roll_for(j, target, rolls, "in the tournament")
            self.say(f"  {self.names[j]} rolls {kc.combo_text(result)} in the tournament")
            if k == 0 or result > best:
                best, leader = result, j
        self.say(f"  {self.names[leader]} wins the tournament")
        self._gain(leader, card)

    def roll_for(self, i: int, target: Result, rolls: int, what: str) -> Steps[Result]:
        """Roll the six dice up to ``rolls`` times trying to beat ``target``; the final result."""
        extra = self.knights[i].die_cards()
        hand = _live((yield from roll(DICE)))
        for r in range(1, rolls + 1):
            result = kc.best_result(hand, extra)
            if r == rolls or not hand:
                return result
            kept, texts = _ranked_keeps(hand)
            options = [f"stop with {kc.combo_text(result)}", *texts]
            values = partial(_keep_values, hand, list(kept), target, rolls - r, extra)
            prompt = f"rolling {what} (beat {kc.combo_text(target)}): {list(hand)} + sixes set aside {DICE - len(hand)}"
            choice = yield from ask(i, prompt, options, values)
            if choice == 0:
                return result
            keep = kept[choice - 1]
            hand = _live(keep + tuple((yield from roll(len(hand) - len(keep)))))
        return kc.best_result(hand, extra)

    # -- the king and the guards --------------------------------------------------------------

    def _wants_king(self, i: int) -> Steps[bool]:
        knight = self.knights[i]
        chance = kd.fresh_chance(kc.KING, ROLLS, knight.die_cards())
        attempt = chance * WIN - (0 if knight.has("protection") else (1 - chance) * 15)
        normal = max([self._target_value(i, t) for t in self.targets(i)], default=0.0)
        options = ["try to topple the king", "play a card"]
        choice = yield from self._ask(i, f"{self.names[i]} has three castles", options, [attempt, normal])
        return choice == 0

    def _king(self, i: int) -> Steps[None]:
        name = self.names[i]
        result = yield from self.roll_for(i, kc.KING, ROLLS, "the king")
        if result > kc.KING:
            self.say(f"{name} topples the king with {kc.combo_text(result)} and wins")
            self.winning = [i]
            return
        knight = self.knights[i]
        if knight.has("protection"):
            self.say(f"{name} fails at the king ({kc.combo_text(result)}) but is protected")
            return
        castles = knight.castles()
        prompt = "the king's revenge: give up a castle"
        c = yield from self._ask(i, prompt, [str(c) for c in castles], [0.0] * len(castles))
        s = yield from self._ask(i, "put it under which stack?", ["stack 1", "stack 2"], [0.0, 0.0])
        self._lose(i, castles[c])
        self.stacks[s].append(castles[c])
        self.say(f"{name} fails at the king ({kc.combo_text(result)}) and loses {castles[c]}")

    def _place_guards(self, i: int) -> Steps[None]:
        knight = self.knights[i]
        castles = knight.castles()
        if knight.has("castle guard"):
            if len(castles) <= 2:
                knight.guarded_castles = list(castles)
            else:
                pairs = list(itertools.combinations(castles, 2))
                c = yield from self._ask(
                    i,
                    "castle guard: protect which two castles?",
                    [f"{a} and {b}" for a, b in pairs],
                    [0.0] * len(pairs),
                )
                knight.guarded_castles = list(pairs[c])
        if knight.has("special card guard"):
            cards = [c for c in knight.cards if c.special and c.kind != "special card guard"]
            if len(cards) <= 1:
                knight.guarded_special = cards[0] if cards else None
            else:
                values = [self._worth(i, c) for c in cards]
                prompt = "special card guard: protect which card?"
                c = yield from self._ask(i, prompt, [str(c) for c in cards], values)
                knight.guarded_special = cards[c]

    # -- the strong player's reckoning -----------------------------------------------------------

    def _worth(self, i: int, card: Card) -> float:
        """How much ``card`` is worth to player ``i``."""
        knight = self.knights[i]
        castles, tournaments = len(knight.castles()), knight.tournaments()
        if card.kind == "castle":
            if castles >= 3 or (castles >= 1 and tournaments >= 3):
                return WIN
            return 12.0 + 4 * castles
        if card.kind == "tournament":
            return WIN if castles >= 2 and tournaments >= 2 else 6.0 + 2 * tournaments
        return SPECIAL_WORTH.get(card.kind, 2.5)

    def _target_value(self, i: int, target: tuple[int, Card]) -> float:
        owner, card = target
        extra = self.knights[i].die_cards()
        if card.kind == "tournament":
            return self._worth(i, card) * 1.5 / self.players
        rolls = 4 if card.kind == "castle" and owner >= 0 and self.knights[i].has("catapult") else ROLLS
        chance = kd.fresh_chance(self.requirement(i, owner, card), rolls, extra)
        value = self._worth(i, card) * chance
        if owner >= 0:
            value *= 0.6 if card.kind == "castle" else 1.0  # the defence
            value += 0.5 * self._worth(owner, card) * chance  # the loss to the owner
        elif card.special:
            value += 2.0 * chance  # another announcement
        return value

    def _announce_values(self, i: int, targets: list[tuple[int, Card]], unders: list[int]) -> list[float]:
        """The strong player's values of announcing each of ``targets``, then of each put-under."""
        return [self._target_value(i, t) for t in targets] + [self._put_under_value(i, s) for s in unders]

    def _put_under_value(self, i: int, s: int) -> float:
        return 3.0

    # -- the score sheet ------------------------------------------------------------------------

    def score_sheet(self) -> str:
        """Each player's display, guards marked, and the goals reached."""
        lines = [f"Knights / Knatsch - after {self.rounds} rounds", "-" * 60]
        for i, knight in enumerate(self.knights):
            mark = " (winner)" if i in self.winning else ""
            lines.append(f"{self.names[i]}{mark}: {len(knight.castles())} castles, {knight.tournaments()} tournaments")
            for card in knight.cards:
                guard = " (guarded)" if card in knight.guarded_castles or card is knight.guarded_special else ""
                lines.append(f"    {card}{guard}")
        lines.append("-" * 60)
        lines.append(
            f"stacks: {len(self.stacks[0])} and {len(self.stacks[1])} cards; top: "
            + ", ".join(str(s[0]) if s else "empty" for s in self.stacks)
        )
        return "\n".join(lines)
