"""Sport is murder / Sport ist Mord by Henning Poehl (seed 003): train with dice, collect sport cards, risk accidents.

Setup:
    3 to 6 players, 10 dice and 1 doping pill each; the other pills lie on the doping card. The 8 sports
    each have a shuffled face-down deck of 12 cards (9 training units "+1", accidents U2, U4 and U6), laid
    out in a circle. The 1A-coach and the card "The best coach available!" are at hand.
Turn:
    A round has nine phases, each done by all players, starting with the holder of the 1A-coach and going
    clockwise. 1 coaches: the 1A-coach moves one seat to the left (in round 1 it goes, after the roll, to
    the highest roll) and its holder gives the best coach to another player. 2 everybody rolls all free
    dice. 3 the 1A-coach re-rolls any of its holder's dice; the best coach takes two pills from the supply,
    keeps one and gives one away, and re-rolls one die of any player; then pills may be used: re-roll all
    free dice (the pill goes back), or turn one die to any number and lay the pill under it. 4 dice are
    laid out at open sports, at most one new die per sport and player: a 1 where the player has no die,
    otherwise at most one more than the own die lying there; a doped die must be laid out and be higher
    than that die. 5 the dice of the round before return to the supply. 6 dice on U2/U4 cards count one
    down; a die showing 1 returns. 7 a card goes back under the deck of every open sport where a player
    holds cards but laid out no die. 8 from Bowling clockwise, a sport turns up one card per die lying at
    it; contests decide the order in which the players there choose; then each card is evaluated.
    9 each doped die draws one more card for its owner alone (a contest orders several at one sport).
Legal actions:
    Give the best coach and the second pill to another player; choose dice to re-roll; use a pill or not;
    lay out dice; choose a card (or none, if enough players after you can take the rest).
Scoring:
    Training success = accident risk = the own die at the sport, +1 on a pill, +1 per other player's die
    there. A training unit is kept only if the success exceeds the units of that sport already held. An
    accident happens if the risk reaches its number, or always when the deck was emptied: U2/U4 lie in
    the display with the die on them showing 2/4; U6 closes the sport for good with the die on its deck.
    Cards not kept go back under their deck. Contests: everybody involved rolls his free dice, the best
    coach may re-roll one die of any of them, then the 1A-coach any of his own; highest sum chooses first,
    ties contest again. Final score: the sports in the display times the longest chain of one sport.
End:
    When all sports are closed. Highest score wins; ties go to the most accident cards (deadly ones
    counted by the dice on closed decks); then the winners share.
Interpretation:
    Only Bowling, Tennis, Billiards and Football are named in the texts; the other four (Cycling, Skiing,
    Boxing, Riding) and the order of the circle are our choice: option ``sports=Bowling,Tennis,...`` sets
    names, number and clockwise order, and evaluation starts at the first. The 1A-coach moves to the next
    seat (left = clockwise). Doping (option ``doping``): by default a doped die may show any number,
    higher than an own die lying at that sport (the doping replaces the +1 cap, and may open a sport with
    any number); ``doping=capped`` allows only the normal highest value (own die + 1, or 1). The sport of
    a doped die is named when it is doped. One pill per player and round (option ``pills-per-round``
    allows that many, each re-rolling or doping; doped dice of one player go to different sports);
    the best coach takes what the supply still has. Score (option ``chain``): by default only training
    units count, in the number of sports and in the chain; ``chain=all`` counts accident cards too.
    Phase 7 (option ``decay``): one card per neglected open sport (``each``, default) or ``none``.
    Contests (option ``contest``): the players never agree, except that no contest is held when every
    player at the sport must get a card of the same kind (``contest=always`` holds it anyway); the best
    coach's re-roll comes before the 1A-coach's; when everybody tied has no free die the seat order
    from the 1A-coach decides. Success and risk in phase 8 are reckoned from the dice as they lay when the
    cards were turned up; in phase 9 from the dice then lying; a doped die moved away by an accident
    draws no card and its pill goes back. The first 1A-coach goes to the highest roll; a tie is rolled
    off as a contest with each player's free dice (all ten in round 1; the training roll stays as it lies).
    The rule book has no round limit; ``max-rounds`` (default 100) stops a game that would not end.
    The strong player lays out the dice of greatest expected gain, takes the best card, re-rolls unused
    dice, dopes when it pays, and gives coaches and pills to the weakest rival.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from pyramid.rules import GameInfo, Termination
from pyramid.rules.options import ListOf, Name, OneOf, Options, Whole
from pyramid.tablegames import sport_cards as sc
from pyramid.tablegames.base import Steps, ask
from pyramid.tablegames.sport_cards import TRAINING, Card
from pyramid.tablegames.sport_table import SportTable

INFO = GameInfo(
    number=None,
    title="Sport is murder",
    category="Ch",
    players=(3, 4, 5, 6),
    material="10 dice per player, 12 doping pills, 8 decks of 12 sport cards",
    aliases=("sport-ist-mord", "sportistmord", "sportismurder", "poehl"),
    name="sport-is-murder",
    description="Henning Poehl's Sport is murder: train in 8 sports with dice, doping and deadly accidents",
    tags=("table",),
)


class SportIsMurder(SportTable):
    """One game of Sport is murder: rounds of nine phases until every sport is closed."""

    info: ClassVar[GameInfo] = INFO
    default_player: ClassVar[str] = "strong"
    option_specs: ClassVar[Options] = {
        "sports": ListOf(
            "the decks clockwise round the circle (default " + ",".join(sc.SPORTS) + ")",
            Name(""),
            distinct=True,
        ),
        "doping": OneOf(
            "free (default: a doped die may show any higher number) or capped (own die + 1, or 1)", ("free", "capped")
        ),
        "pills-per-round": Whole(
            "pills one player may use in one round, each re-rolling or doping (default 1)", 0, sc.PILLS
        ),
        "chain": OneOf(
            "training (default: only training units count) or all (accident cards too)", ("training", "all")
        ),
        "decay": OneOf("each (default: one card per neglected open sport in phase 7) or none", ("each", "none")),
        "contest": OneOf(
            "needed (default: none when everybody must get the same card) or always", ("needed", "always")
        ),
        "max-rounds": Whole(
            f"rounds before a game that would not end is stopped (default {sc.MAX_ROUNDS})", 1, 10 * sc.MAX_ROUNDS
        ),
    }

    def termination(self) -> Termination:
        return Termination.TURN_LIMIT if self.open_sports() else Termination.ROUNDS_PLAYED

    # -- the game -------------------------------------------------------------------------------

    def script(self) -> Steps[None]:
        while not self.finished():
            self.checkpoint()
            yield from self.play_round()
        if self.open_sports():
            self.say(f"round limit {self.rules.max_rounds} reached with {len(self.open_sports())} sports open")

    def play_round(self) -> Steps[None]:
        """The nine phases of one round."""
        self.round += 1
        side = "outside" if self.round % 2 else "inside"
        self.say(f"== round {self.round} (new dice {side}) ==")
        if self.coach is not None:
            self.coach = (self.coach + 1) % self.players
            yield from self._give_best_coach()
        for i in self.order():
            athlete = self.athletes[i]
            athlete.hand = sorted((yield from self._roll(athlete.supply)), reverse=True)
            athlete.supply = 0
        self.say("  rolls: " + "; ".join(f"{self._name(i)} {self.athletes[i].hand}" for i in self.order()))
        if self.coach is None:
            sums = [sum(a.hand) for a in self.athletes]
            tied = [i for i, s in enumerate(sums) if s == max(sums)]
            self.coach = (yield from self.contest(tied, "for the 1A-coach"))[0]
            yield from self._give_best_coach()
        yield from self._coach_effects()
        for i in self.order():
            yield from self._dope(i)
        for i in self.order():
            yield from self._lay_out(i)
        for athlete in self.athletes:  # phase 5
            athlete.supply += len(athlete.hand) + len(athlete.old)
            athlete.hand, athlete.old = [], {}
        self._heal()
        self._reduce()
        for sport in self.rules.sports:
            yield from self.evaluate(sport)
        for sport in self.rules.sports:
            yield from self.doping_draws(sport)
        for athlete in self.athletes:
            athlete.old, athlete.new = athlete.new, {}
        self.say(
            "  scores: "
            + ", ".join(f"{self._name(i)} {a.score(self.rules.chain)}" for i, a in enumerate(self.athletes))
            + (f"; closed: {', '.join(self.closed)}" if self.closed else "")
        )

    # -- phases 1 to 3: coaches and doping ------------------------------------------------------

    def _give_best_coach(self) -> Steps[None]:
        assert self.coach is not None
        self.best = yield from self._give_away(self.coach, '"The best coach available!"')
        self.say(f"  {self._name(self.coach)} has the 1A-coach and gives the best coach to {self._name(self.best)}")

    def _unused(self, i: int, hand: list[int]) -> list[int]:
        """The dice of ``hand`` that the strong player's layout would not use."""
        unused = list(hand)
        for v, _ in sc.plan(self.athletes[i], hand, self.open_sports(), self.others_at(i), self.decks, self.rules)[1]:
            unused.remove(v)
        return unused

    def _coach_effects(self) -> Steps[None]:
        assert self.coach is not None and self.best is not None
        coach = self.athletes[self.coach]
        wanted = self._unused(self.coach, coach.hand)
        prompt = "1A-coach: re-roll which of your dice?"
        rolled = yield from self._reroll_own(self.coach, coach.hand, prompt, wanted)
        if rolled:
            self.say(f"  {self._name(self.coach)} re-rolls {rolled} with the 1A-coach: {coach.hand}")
        best = self.athletes[self.best]
        pills = min(2, self.pill_supply)
        self.pill_supply -= pills
        if pills:
            best.pills += 1
        if pills == 2:
            j = yield from self._give_away(self.best, "the second doping pill")
            self.athletes[j].pills += 1
            self.say(f"  {self._name(self.best)} takes two pills and gives one to {self._name(j)}")
        hands = [(j, a.hand) for j, a in enumerate(self.athletes)]
        yield from self._best_coach_reroll(self.best, hands, "best coach: re-roll one die?", self._plan)

    def _dope(self, i: int) -> Steps[None]:
        athlete = self.athletes[i]
        for _ in range(self.rules.pills_per_round):
            if not athlete.pills or not athlete.hand:
                return
            dopes = self._dope_moves(i)
            options = ["keep the pill", f"re-roll all {len(athlete.hand)} dice (the pill goes back)"]
            options += ["dope a die"] if dopes else []
            choice = yield from ask(i, f"doping: {self._status(i)}", options, partial(self._dope_values, i, dopes))
            if choice == 0:
                return
            athlete.pills -= 1
            if choice == 1:
                self.pill_supply += 1
                athlete.hand = sorted((yield from self._roll(len(athlete.hand))), reverse=True)
                self.say(f"  {self._name(i)} re-rolls with a pill: {athlete.hand}")
                continue
            faces = sorted({u for u, _, _ in dopes}, reverse=True)
            by_face = [[d for d in dopes if d[0] == u] for u in faces]
            pick = yield from ask(
                i, "dope which die?", [f"the {u}" for u in faces], partial(self._best_dopes, i, by_face)
            )
            targets = by_face[pick]
            prompt = f"turn the {faces[pick]} to which number, for which sport?"
            options = [f"{v} at {s}" for _, s, v in targets]
            u, s, v = targets[(yield from ask(i, prompt, options, partial(self._dope_worths, i, targets)))]
            athlete.hand.remove(u)
            athlete.committed[s] = v
            self.say(f"  {self._name(i)} dopes a {u} to {v} for {s}")

    def _dope_moves(self, i: int) -> list[tuple[int, str, int]]:
        """(die given up, sport, doped value) that are legal for player ``i``."""
        athlete = self.athletes[i]
        targets = [(s, v) for s in self._free_sports(i) for v in sc.doped_values(athlete, s, self.rules)]
        return [(u, s, v) for u in sorted(set(athlete.hand), reverse=True) for s, v in targets]

    def _dope_worths(self, i: int, dopes: list[tuple[int, str, int]]) -> list[float]:
        """The worth of the whole layout after each doping move."""
        athlete = self.athletes[i]
        return sc.dope_worths(
            athlete, athlete.hand, dopes, self._free_sports(i), self.others_at(i), self.decks, self.rules
        )

    def _best_dopes(self, i: int, by_face: list[list[tuple[int, str, int]]]) -> list[float]:
        return [max(self._dope_worths(i, moves)) for moves in by_face]

    def _free_sports(self, i: int) -> list[str]:
        """The open sports where player ``i`` has no doped die waiting."""
        return [s for s in self.open_sports() if s not in self.athletes[i].committed]

    def _dope_values(self, i: int, dopes: list[tuple[int, str, int]]) -> list[float]:
        athlete = self.athletes[i]
        now = sc.plan(athlete, athlete.hand, self._free_sports(i), self.others_at(i), self.decks, self.rules)[0]
        values = [0.0, max(0.0, 1.0 - now) - sc.PILL_WORTH]
        if dopes:
            values.append(max(self._dope_worths(i, dopes)) - now - sc.PILL_WORTH)
        return values

    # -- phases 4 to 7: laying out, collecting, healing, reduction ------------------------------

    def _lay_out(self, i: int) -> Steps[None]:
        athlete = self.athletes[i]
        for s, v in athlete.committed.items():
            athlete.new[s] = v
            athlete.doped.add(s)
        athlete.committed = {}
        while athlete.hand:
            moves = [
                (v, s)
                for v in sorted(set(athlete.hand), reverse=True)
                for s in self.open_sports()
                if sc.may_place(athlete, s, v)
            ]
            if not moves:
                break
            options = ["done"] + [f"lay a {v} at {s}" for v, s in moves]
            values = partial(self._layout_values, i, moves)
            choice = yield from ask(i, f"lay out dice: {self._status(i)}", options, values)
            if choice == 0:
                break
            v, s = moves[choice - 1]
            athlete.hand.remove(v)
            athlete.new[s] = v
        if athlete.new:
            laid = ", ".join(f"{v}{'*' if s in athlete.doped else ''} at {s}" for s, v in athlete.new.items())
            self.say(f"  {self._name(i)} lays out {laid}")

    def _layout_values(self, i: int, moves: list[tuple[int, str]]) -> list[float]:
        athlete, others = self.athletes[i], self.others_at(i)
        worth = [sc.placement_value(athlete, s, v, False, others[s], self.decks[s], self.rules) for v, s in moves]
        return [0.0] + worth

    def _heal(self) -> None:
        for athlete in self.athletes:
            healed = [(s, v) for s, v in athlete.injured if v == 1]
            athlete.injured = [(s, v - 1) for s, v in athlete.injured if v > 1]
            athlete.supply += len(healed)

    def _reduce(self) -> None:
        if self.rules.decay == "none":
            return
        for i, athlete in enumerate(self.athletes):
            for s in self.open_sports():
                if athlete.training.get(s, 0) and s not in athlete.new:
                    athlete.training[s] -= 1
                    self.decks[s].append(TRAINING)
                    self.say(f"  {self._name(i)} neglects {s} and gives back a card")

    # -- phases 8 and 9: cards, accidents -------------------------------------------------------

    def evaluate(self, sport: str) -> Steps[None]:
        """Phase 8 for one sport: turn up cards, hold the contest, share out and evaluate the cards."""
        present = [i for i in self.order() if sport in self.athletes[i].new]
        deck = self.decks[sport]
        if not present or sport in self.closed:
            return
        cards, self.decks[sport] = deck[: len(present)], deck[len(present) :]
        forced = not self.decks[sport]
        strengths = {i: self.strength(i, sport) for i in present}
        self.say(f"  {sport}: {len(present)} dice, cards {' '.join(cards)}" + (" (the last)" if forced else ""))
        alike = len(set(cards)) == 1 and len(cards) == len(present)
        needed = len(present) > 1 and (self.rules.contest == "always" or not alike)
        ranking = (yield from self.contest(present, f"at {sport}")) if needed else present
        shares = yield from self._share_out(sport, ranking, cards, strengths, forced)
        for i, card in shares:
            self.resolve(i, sport, card, strengths[i], forced)

    def _share_out(
        self, sport: str, ranking: list[int], cards: list[Card], strengths: dict[int, int], forced: bool
    ) -> Steps[list[tuple[int, Card]]]:
        left = list(cards)
        shares: list[tuple[int, Card]] = []
        for pos, i in enumerate(ranking):
            if not left:
                break
            kinds = [c for c in sc.CARD_ORDER if c in left]
            may_pass = len(ranking) - pos - 1 >= len(left)
            options = [f"take {c}" for c in kinds] + (["take no card"] if may_pass else [])
            prompt = f"{sport}: choose a card of {' '.join(left)} (your success {strengths[i]})"
            values = partial(self._card_values, i, sport, kinds, strengths[i], forced, may_pass)
            choice = yield from ask(i, prompt, options, values)
            if choice < len(kinds):
                left.remove(kinds[choice])
                shares.append((i, kinds[choice]))
        return shares

    def _card_values(
        self, i: int, sport: str, kinds: list[Card], strength: int, forced: bool, may_pass: bool
    ) -> list[float]:
        athlete, chain = self.athletes[i], self.rules.chain
        worth = [sc.card_choice_value(athlete, sport, c, strength, forced, chain) for c in kinds]
        return worth + ([0.0] if may_pass else [])

    def resolve(self, i: int, sport: str, card: Card, strength: int, forced: bool) -> None:
        """Evaluate ``card`` for player ``i`` of training success / accident risk ``strength``."""
        athlete = self.athletes[i]
        name = self._name(i)
        if card == TRAINING:
            if strength > athlete.training.get(sport, 0):
                athlete.training[sport] = athlete.training.get(sport, 0) + 1
                self.say(f"    {name} trains {sport} ({strength}): {athlete.training[sport]} cards")
            else:
                self.decks[sport].append(card)
                self.say(f"    {name} gains nothing at {sport} ({strength}); the card goes back")
            return
        if not forced and strength < sc.LEVELS[card]:
            self.decks[sport].append(card)
            self.say(f"    {name} escapes {card} at {sport} ({strength})")
            return
        value = athlete.new.pop(sport)
        if sport in athlete.doped:
            athlete.doped.discard(sport)
            self.pill_supply += 1
        if card == "U6":
            athlete.dead.append(sport)
            if sport not in self.closed:
                self.closed.append(sport)
            self.say(f"    {name} suffers a deadly accident at {sport}: the sport is closed, the {value} is lost")
        else:
            athlete.accidents.append((sport, card))
            athlete.injured.append((sport, sc.LEVELS[card]))
            self.say(f"    {name} suffers an accident {card} at {sport}")

    def doping_draws(self, sport: str) -> Steps[None]:
        """Phase 9 for one sport: every doped die there draws a card for its owner alone."""
        doped = [i for i in self.order() if sport in self.athletes[i].doped]
        if not doped:
            return
        if sport not in self.closed:
            doped = (yield from self.contest(doped, f"doping at {sport}")) if len(doped) > 1 else doped
        for i in doped:
            if sport in self.closed:
                self.say(f"    {self._name(i)} draws no doping card: {sport} is closed")
            else:
                card = self.decks[sport].pop(0)
                self.say(f"    {self._name(i)} draws {card} for doping at {sport}")
                self.resolve(i, sport, card, self.strength(i, sport), not self.decks[sport])
            if sport in self.athletes[i].doped:  # not yet given back by an accident
                self.athletes[i].doped.discard(sport)
                self.pill_supply += 1

    # -- the end --------------------------------------------------------------------------------

    def score_sheet(self) -> str:
        """The circle of decks with each player's display, then the final evaluation."""
        chain = self.rules.chain
        names = self.names
        lines = [f"Sport is murder - after {self.round} rounds"]
        lines += sc.display(names, self.athletes, self.rules.sports, self.decks, self.closed)
        lines.append("-" * max(len(line) for line in lines))
        for i, a in enumerate(self.athletes):
            counts = a.counts(chain)
            mark = " (winner)" if i in self.winners(self.scores()) else ""
            lines.append(
                f"{self._name(i)}{mark}: {len(counts)} sports x longest chain {max(counts.values(), default=0)}"
                f" = {a.score(chain)} points, {a.toughness()} accidents"
            )
        return "\n".join(lines)
