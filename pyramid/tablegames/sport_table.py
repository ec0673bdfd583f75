"""The table of Sport is murder as set up (athletes, decks, coaches, pills), its reads, throws, re-rolls and contests.

``sport`` plays the nine phases of each round on this table; its docstring is the rules card.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pyramid.rules import Seat
from pyramid.tablegames import sport_cards as sc
from pyramid.tablegames.base import Steps, TableGame, ask, roll
from pyramid.tablegames.sport_cards import Athlete, Card

ROLL_GROUP = 5  # dice thrown together on the physical table


class SportTable(TableGame):
    """The state of a game of Sport is murder and the steps its phases share; ``SportIsMurder`` plays it."""

    def setup(self) -> None:
        self.rules = sc.rules_from_options(self.options)
        self.athletes = [Athlete() for _ in range(self.players)]
        self.decks: dict[str, list[Card]] = {s: sc.make_deck(self.permutation(len(sc.DECK))) for s in self.rules.sports}
        self.closed: list[str] = []
        self.pill_supply = sc.PILLS - self.players
        self.coach: int | None = None  # the 1A-coach
        self.best: int | None = None  # "The best coach available!"
        self.round = 0

    def scores(self) -> tuple[float, ...]:
        return tuple(a.score(self.rules.chain) for a in self.athletes)

    def measures(self) -> dict[str, list[float]]:
        """The scores and the tie-break: accident cards, the deadly ones included."""
        return {"score": list(self.scores()), "accidents": [a.toughness() for a in self.athletes]}

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        """The highest score; ties go to the most accidents; then shared."""
        key = [(a.score(self.rules.chain), a.toughness()) for a in self.athletes]
        return tuple(i for i, k in enumerate(key) if k == max(key))

    # -- reading the table ----------------------------------------------------------------------

    def order(self) -> list[int]:
        """The seats in playing order, starting with the 1A-coach."""
        first = self.coach or 0
        return [(first + k) % self.players for k in range(self.players)]

    def open_sports(self) -> list[str]:
        """The sports not closed, in circle order."""
        return [s for s in self.rules.sports if s not in self.closed]

    def others_at(self, i: int) -> dict[str, int]:
        """Per sport, the new dice of the other players lying there."""
        return {s: sum(1 for j, a in enumerate(self.athletes) if j != i and s in a.new) for s in self.rules.sports}

    def strength(self, i: int, sport: str) -> int:
        """Training success (and accident risk) of player ``i`` at ``sport``."""
        athlete = self.athletes[i]
        return athlete.new[sport] + int(sport in athlete.doped) + self.others_at(i)[sport]

    def _plan(self, i: int, hand: list[int]) -> float:
        athlete = self.athletes[i]
        return sc.plan(athlete, hand, self.open_sports(), self.others_at(i), self.decks, self.rules)[0]

    def _standing(self, i: int) -> float:
        """A rough measure of how well player ``i`` is doing (the strong player's view)."""
        athlete = self.athletes[i]
        return athlete.score(self.rules.chain) + 0.5 * sum(athlete.training.values()) + athlete.pills

    def _status(self, i: int) -> str:
        athlete = self.athletes[i]
        parts = []
        for s in self.open_sports():
            bits = [f"{athlete.training[s]} cards"] if athlete.training.get(s) else []
            bits += [f"die {athlete.old[s]}"] if s in athlete.old else []
            bits += [f"new {athlete.new[s]}{'*' if s in athlete.doped else ''}"] if s in athlete.new else []
            if bits:
                parts.append(f"{s} ({', '.join(bits)})")
        return f"dice {athlete.hand}, pills {athlete.pills}; " + ("; ".join(parts) or "no training yet")

    def free_dice(self, i: int) -> int:
        """Player ``i``'s dice not laid out at a sport (nor injured or lost): the supply and, until the dice
        are laid out, the training roll (a contest throws as many dice and leaves the roll as it lies)."""
        return self.athletes[i].supply + len(self.athletes[i].hand)

    def finished(self) -> bool:
        """All sports closed, or the round limit reached."""
        return not self.open_sports() or self.round >= self.rules.max_rounds

    # -- throws, gifts, re-rolls and contests ---------------------------------------------------

    def _name(self, i: int) -> str:
        return self.names[i]

    def _roll(self, n: int) -> Steps[list[int]]:
        """``n`` dice, thrown in small groups."""
        faces: list[int] = []
        while len(faces) < n:
            faces += yield from roll(min(ROLL_GROUP, n - len(faces)))
        return faces

    def _give_away(self, i: int, what: str) -> Steps[int]:
        """Player ``i`` picks another player to receive ``what``; the strong player picks the weakest."""
        others = [j for j in range(self.players) if j != i]
        choice = yield from ask(i, f"give {what} to", [self._name(j) for j in others], partial(self._weakness, others))
        return others[choice]

    def _weakness(self, players: list[int]) -> list[float]:
        return [-self._standing(j) for j in players]

    def _reroll_own(self, i: int, dice: list[int], prompt: str, wanted: list[int]) -> Steps[list[int]]:
        """Player ``i`` marks any of ``dice`` to throw again (in place; the strong player marks ``wanted``);
        the faces re-rolled."""
        marked: list[int] = []
        while True:
            left = list(dice)
            for v in marked:
                left.remove(v)
            values = sorted(set(left), reverse=True)
            options = [f"throw the marked dice {marked}" if marked else "throw none"] + [f"mark a {v}" for v in values]
            values_now = partial(sc.mark_values, list(marked), values, wanted)
            choice = yield from ask(i, f"{prompt} dice {dice}", options, values_now)
            if choice == 0:
                break
            marked.append(values[choice - 1])
        for v in marked:
            dice.remove(v)
        dice += yield from self._roll(len(marked))
        dice.sort(reverse=True)
        return marked

    def _best_coach_reroll(
        self, i: int, hands: list[tuple[int, list[int]]], prompt: str, worth: Callable[[int, list[int]], float]
    ) -> Steps[None]:
        """The best coach's holder re-rolls one die of any hand in ``hands`` (or none)."""
        moves = [(j, v) for j, hand in hands for v in sorted(set(hand), reverse=True)]
        options = ["re-roll no die"] + [f"re-roll {self._name(j)}'s {v}" for j, v in moves]
        choice = yield from ask(i, prompt, options, partial(sc.reroll_values, i, dict(hands), moves, worth))
        if choice == 0:
            return
        j, v = moves[choice - 1]
        hand = dict(hands)[j]
        hand.remove(v)
        face = (yield from self._roll(1))[0]
        hand.append(face)
        hand.sort(reverse=True)
        self.say(f"  {self._name(i)} re-rolls {self._name(j)}'s {v}: {face}")

    def contest(self, group: list[int], what: str) -> Steps[list[int]]:
        """The players of ``group`` ranked by a contest of their free dice, best first; ties contest again."""
        if len(group) <= 1:
            return list(group)
        throws: dict[int, list[int]] = {}
        for i in group:
            throws[i] = sorted((yield from self._roll(self.free_dice(i))), reverse=True)
        if self.best in group:
            hands = [(i, throws[i]) for i in group]
            prompt = f"contest {what}: re-roll one die?"
            yield from self._best_coach_reroll(self.best, hands, prompt, self._contest_worth)
        if self.coach in group:
            low = [v for v in throws[self.coach] if v <= 3]
            yield from self._reroll_own(self.coach, throws[self.coach], f"contest {what}: re-roll which?", low)
        self.say(f"  contest {what}: " + "; ".join(f"{self._name(i)} {sum(throws[i])}" for i in group))
        ranking: list[int] = []
        for total in sorted({sum(t) for t in throws.values()}, reverse=True):
            tied = [i for i in group if sum(throws[i]) == total]
            ranking += (yield from self.contest(tied, what)) if len(tied) > 1 and total > 0 else tied
        return ranking

    def _contest_worth(self, i: int, dice: list[int]) -> float:
        """Re-rolling in a contest: the strong player counts the pips."""
        return float(sum(dice))
