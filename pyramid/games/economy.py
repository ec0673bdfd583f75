"""Games where dice are a currency to spend, earn or use up: Acquire, Ruins, Up and Down, the Green Amoeba.

Rules layer only (no physics): each class is one game of the rule book, its docstring the rules card.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.games.construction import outer_planes
from pyramid.geometry import Slot
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Pass,
    Place,
    Remove,
    Seat,
    Termination,
    colour_scores,
    free_slots,
    open_slots,
)
from pyramid.rules.options import Options, Whole, YesNo
from pyramid.state import Cell, PyramidState

Transfer = tuple[Seat, Seat, int]  # (debtor, creditor, dice)
# The in-layer neighbours of every slot, computed once: the amoeba asks thousands of times per game.
NEIGHBOURS: dict[Slot, tuple[Slot, ...]] = {s: tuple(geometry.neighbours(s)) for s in geometry.SLOTS}


def lowest_open_layer(state: PyramidState) -> list[Slot]:
    """The open slots of the lowest layer that is not complete (building layer by layer)."""
    slots = open_slots(state)
    if not slots:
        return []
    bottom = max(geometry.layer(s) for s in slots)
    return [s for s in slots if geometry.layer(s) == bottom]


def acquire_transfers(
    funnel: list[Colour], placer: Seat, owner: dict[Colour, Seat], others: list[Seat]
) -> list[Transfer]:
    """Who pays whom for a die placed by ``placer`` in a funnel of these colours (table a-f of Acquire)."""
    me = next(c for c, p in owner.items() if p == placer)
    mine = funnel.count(me)
    counts = Counter(c for c in funnel if c != me).most_common()
    if mine == 3:  # a
        return [(placer, p, 4) for p in others]
    if mine == 2:  # b
        return [(placer, owner[counts[0][0]], 4)]
    if mine == 1 and len(counts) == 2:  # c
        return [(placer, owner[c], 1) for c, _ in counts]
    if mine == 1:  # d
        return [(placer, owner[counts[0][0]], 2)]
    if len(counts) == 1:  # e
        return [(owner[counts[0][0]], placer, 8)]
    return [(owner[counts[0][0]], placer, 4), (owner[counts[1][0]], placer, 2)]  # f


class Acquire(Game):
    """Acquire (no. 21), by Martin Callis, Jürgen Wagner and Reinhold Wittig.

    Setup: an empty plate; each player holds 55 dice of one colour (red, green, black; option ``dice``
    gives the variant's 60 or more).
    Turn: place one die of your colour. Placed in a funnel of three dice, it settles accounts by the
    colours of those dice: (a) three of yours: pay 4 to each other player; (b) two of yours and one
    other: pay 4 to that player; (c) one of yours and two others of different colours: pay 1 to each;
    (d) one of yours and two of one other colour: pay 2 to that player; (e) three of one other colour:
    get 8 from that player; (f) three others, 2:1: get 4 from the player with two and 2 from the other.
    Legal actions: place a die from your hand in an open slot of the lowest unfinished layer (a layer
    is begun only once the one below is complete).
    Scoring: the dice in your hand; a player who went broke scores -1.
    End: a player who has to pay more dice than they hold, or holds none at their turn, goes broke and
    quits; the last player left wins. At the latest when the pyramid is complete, the most dice in hand
    wins (the variant's rule).
    Interpretation: paid dice go from hand to hand; a player short of dice pays what they have, to
    their creditors in turn order, and then goes broke; nothing is paid to or by a player who has quit
    (their dice in the pyramid still count as another colour in a funnel).
    """

    info = GameInfo(21, "Acquire", "C", (3,), "55 dice each of red, green, black", (), 235)
    option_specs: ClassVar[Options] = {
        "dice": Whole("dice in each hand at the start (55; the variant 60 or more)", 1, COUNTS["red"])
    }

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.owner = {c: p for p, c in enumerate(self.colours)}
        self.hand = [self.option("dice", 55)] * self.players
        self.broke: list[bool] = [False] * self.players

    def active(self) -> list[Seat]:
        """The players still in the game."""
        return [p for p in range(self.players) if not self.broke[p]]

    def legal(self) -> list[Action]:
        if self.hand[self.to_move] <= 0 or self.broke[self.to_move]:
            return []
        return [Place(s, self.colours[self.to_move]) for s in lowest_open_layer(self.state)]

    def transfers(self, slot: Slot, player: Seat) -> list[Transfer]:
        """The payments a die of ``player`` in ``slot`` would settle, among players still in the game."""
        if geometry.layer(slot) == geometry.BASE_LAYER:
            return []
        funnel = [self.state[t].colour for t in geometry.supports(slot) if t in self.state]
        if len(funnel) < 3 or any(c not in self.owner for c in funnel):
            return []
        others = [p for p in self.active() if p != player]
        moves = acquire_transfers(funnel, player, self.owner, others)
        return [(a, b, n) for a, b, n in moves if not self.broke[a] and not self.broke[b]]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if not isinstance(action, Place):
            return
        self.hand[player] -= 1
        for debtor, creditor, n in self.transfers(action.slot, player):
            paid = min(n, self.hand[debtor])
            self.hand[debtor] -= paid
            self.hand[creditor] += paid
            self.events.append(f"player {debtor} pays {paid} dice to player {creditor}")
            if paid < n:
                self._go_broke(debtor)
        for _ in range(self.players):
            self.to_move = self.next_player()
            if not self.broke[self.to_move] and self.hand[self.to_move] > 0:
                return
            self._go_broke(self.to_move)

    def _go_broke(self, player: Seat) -> None:
        if not self.broke[player]:
            self.broke[player] = True
            self.events.append(f"player {player} is broke and quits")

    def scores(self) -> tuple[float, ...]:
        return tuple(-1.0 if self.broke[p] else float(self.hand[p]) for p in range(self.players))

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.hand)

    def termination(self) -> Termination | None:
        if len(self.active()) <= 1:
            return Termination.PLAYERS_OUT
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place):
            return 0.0
        me = self.to_move
        gain = Counter[Seat]()
        for debtor, creditor, n in self.transfers(action.slot, me):
            gain[debtor] -= n
            gain[creditor] += n
        rival = max((gain[p] for p in self.active() if p != me), default=0)
        return gain[me] - rival


class Ruins(Game):
    """Ruins (no. 25), by Karin Wittig, Alexandra Leitz and Kati Wittig.

    Setup: an empty plate; each player holds 55 dice of one colour (red, green, black).
    Turn: place one die on the base plate next to a die already there (the first die anywhere). Every
    funnel of three dice that appears is dealt with at once (house rule): two dice of one colour ->
    that colour's player fills it; three colours -> the player whose die completed the funnel fills
    it; three of one colour -> the funnel becomes a ruin and stays empty for good (so does everything
    above it). Funnels made by filling dice are dealt with too before the next player's turn.
    Legal actions: place your colour in an empty base funnel that touches (shares an edge with) an
    occupied base funnel; while a funnel waits, its filler's only action is to fill it.
    Scoring: the dice you have used (placed or filled).
    End: as soon as a player has used all 55 dice, or when no die can be placed any more (the base is
    full and no funnel waits); whoever used the most dice wins.
    House rule: the seed lost the fill rules and the end trigger; the ruins rule makes the game end
    before the pyramid is complete, as the seed says it will. Waiting funnels are dealt with lowest
    layer first, then in slot order.
    """

    info = GameInfo(25, "Ruins", "C", (3,), "55 dice each of red, green, black", (), 275)
    house_rules = (
        "Fill rule and end (lost in the seed): two dice of one colour in a funnel -> that colour's player "
        "fills it; three colours -> the player who completed the funnel fills it; three of one colour -> "
        "the funnel is a ruin and stays empty. The game ends when a player has used all 55 dice or no die "
        "can be placed; most dice used wins."
    )
    STOCK: ClassVar[int] = 55

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.owner = {c: p for p, c in enumerate(self.colours)}
        self.used = [0] * self.players
        self.ruins: set[Slot] = set()
        self.turn_player: Seat = 0
        self.filling: Slot | None = None

    def legal(self) -> list[Action]:
        if self.filling is not None:
            return [Place(self.filling, self.colours[self.to_move])]
        base = [s for s in open_slots(self.state) if geometry.layer(s) == geometry.BASE_LAYER]
        if self.state:
            base = [s for s in base if any(n in self.state for n in NEIGHBOURS[s])]
        return [Place(s, self.colours[self.to_move]) for s in base]

    def filler(self, colours: list[Colour], completer: Seat) -> Seat | None:
        """Who fills a funnel of these colours completed by ``completer``; None for a ruin."""
        (top, n), *_ = Counter(colours).most_common()
        if n == 3:
            return None
        return self.owner.get(top, completer) if n == 2 else completer

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Place):
            self.used[player] += 1
        self.filling = None
        for slot in sorted(open_slots(self.state), key=geometry.layer, reverse=True):
            if geometry.layer(slot) == geometry.BASE_LAYER or slot in self.ruins:
                continue
            who = self.filler([self.state[t].colour for t in geometry.supports(slot)], player)
            if who is None:
                self.ruins.add(slot)
                self.events.append(f"the funnel {slot} is a ruin")
                continue
            self.filling, self.to_move = slot, who
            return
        self.turn_player = self.next_player(self.turn_player)
        self.to_move = self.turn_player

    def scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.used)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.STOCK - n for n in self.used)

    def termination(self) -> Termination | None:
        return Termination.ALL_PLACED if max(self.used) >= self.STOCK else None


def amoeba_connected(cells: set[Slot]) -> bool:
    """Whether the dice in ``cells`` (base funnels) form one group of edge-sharing neighbours."""
    return _connected(frozenset(cells))


@lru_cache(maxsize=1 << 16)
def _connected(cells: frozenset[Slot]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


class GreenAmoeba(Game):
    """The Green Amoeba (no. 11).

    Setup: 6 green dice (the amoeba, shared by all) in the 6 central base funnels; each player has a
    home corner funnel (player 0 corner a, 1 corner b, 2 corner c) and a black die.
    Turn: roll the black die; make that many steps, one at a time: lift an amoeba die and put it into
    an empty base funnel next to the one it left, so that the amoeba stays connected.
    Legal actions: lift an amoeba die that has such a step; then put it into one of its steps.
    Scoring: how near the amoeba is to your corner: the largest of your corner's coordinate over the
    amoeba dice (0 on the far edge, 8 in your corner).
    End: when an amoeba die arrives in a home corner funnel, that corner's player wins, whoever moved
    it there. House rule (the book says a game may run endlessly): after 30 turns in a row in which
    the amoeba came no nearer any corner than ever before, the game ends: the amoeba's nearest corner
    wins (shared when equal).
    Interpretation: the figure is lost; the 6 central funnels are the slots with all three coordinates
    at least 2, a triangle of side 3 as far from every corner. A step goes to a neighbouring funnel
    (no jumps); the amoeba is connected when its dice form one group of funnels sharing edges. All
    rolled steps must be made while any is possible: the book's "may move that number" is read as
    the freedom to share the roll out among the dice, since its example lists only ways of spending
    all of it ("one die by two funnels, or two dice one funnel each"). Option ``upto``: the roll is
    the most steps, and the player may stop before any step (``Pass``).
    """

    info = GameInfo(11, "The Green Amoeba", "Ch/T", (3,), "6 green dice; a black die per player", ("amoeba",), 167)
    option_specs: ClassVar[Options] = {"upto": YesNo("yes: the roll is the most steps; a player may stop (default no)")}
    START: ClassVar[tuple[Slot, ...]] = ((2, 2, 4), (2, 4, 2), (4, 2, 2), (2, 3, 3), (3, 2, 3), (3, 3, 2))
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 30

    def setup(self) -> None:
        self.state = PyramidState({s: Cell("green", self.draw_orientation()) for s in self.START})
        self.lifted: Slot | None = None
        self.upto = self.option("upto", False)
        self.steps = self.roll()

    def amoeba(self) -> set[Slot]:
        """The base funnels holding amoeba dice, the lifted die counted in its old funnel."""
        cells = {s for s, c in self.state.items() if c.colour == "green"}
        return cells | ({self.lifted} if self.lifted is not None else set())

    def steps_from(self, slot: Slot, cells: set[Slot] | None = None) -> list[Slot]:
        """The funnels the amoeba die in ``slot`` may step to (``cells``: the amoeba, if known)."""
        rest = (self.amoeba() if cells is None else cells) - {slot}
        return [t for t in NEIGHBOURS[slot] if t not in rest and t != slot and amoeba_connected(rest | {t})]

    def legal(self) -> list[Action]:
        if self.lifted is not None:
            return [Place(t, "green") for t in self.steps_from(self.lifted)]
        cells = self.amoeba()
        lifts: list[Action] = [Remove(s) for s in sorted(cells) if self.steps_from(s, cells)]
        return lifts + [Pass()] if self.upto else lifts

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.lifted = action.slot
            return
        self.lifted = None
        self.steps = 0 if isinstance(action, Pass) else self.steps - 1
        for _ in range(self.players + 1):
            if self.steps > 0 and any(isinstance(a, Remove) for a in self.legal()):
                return
            self.to_move = self.next_player()
            self.steps = self.roll()

    def progress(self, cells: set[Slot], player: Seat) -> int:
        """How far the amoeba in ``cells`` has come towards ``player``'s corner (8: arrived)."""
        return max((s[player] for s in cells), default=0)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.progress(self.amoeba(), p)) for p in range(self.players))

    def milestones(self) -> tuple[float, ...]:
        return self.scores()

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if max(self.scores()) >= geometry.BASE_LAYER else None

    def value(self, cells: set[Slot]) -> float:
        """How good the amoeba in ``cells`` is for the player to move."""
        me = self.to_move

        def pull(p: Seat) -> float:
            near = self.progress(cells, p)
            return 100.0 * (near >= geometry.BASE_LAYER) + near + 0.1 * sum(s[p] for s in cells)

        return pull(me) - max(pull(p) for p in range(self.players) if p != me)

    def heuristic(self, action: Action) -> float | None:
        cells = self.amoeba()
        if isinstance(action, Remove):
            return max(self.value(cells - {action.slot} | {t}) for t in self.steps_from(action.slot, cells))
        if isinstance(action, Place) and self.lifted is not None:
            return self.value(cells - {self.lifted} | {action.slot})
        return self.value(cells)  # stop here (option upto)


class UpAndDown(Game):
    """Up and Down (no. 13), by Jürgen Wagner: a HOUSE RULE game, the seed kept only its title line.

    Setup: an empty plate; each of 3 players (or teams) owns the 90 dice of one colour (red, green,
    black).
    Turn: roll a die. 1 to 4 (up): place that many dice of your colour, one at a time. 5 or 6 (down):
    take away 1 or 2 free dice of the other colours, one at a time; each scores you a point and goes
    back to its owner's supply.
    Legal actions: up: place your colour in an open slot; down: remove a free die not of your colour.
    Scoring: outer faces of your colour on the pyramid (edges double, apex triple) plus one point per
    die you took away.
    End: when the pyramid is complete.
    House rule: the whole text is lost. The game builds like The Forbidden Number (no. 12) and tears
    down like El Dado (no. 39). A roll larger than the open slots or the free dice is used as far as
    it goes; a down roll with nothing to take, or an up roll with no dice left, passes the turn; a
    turn limit (3000 actions) scores the pyramid as it stands.
    """

    info = GameInfo(13, "Up and Down", "C/D", (3,), "90 each of red, green, black; one die", ("up down",), 178)
    house_rules = (
        "The rules are lost: roll 1-4 -> place that many dice of your colour; roll 5 or 6 -> take 1 or 2 "
        "free dice of other colours (they go back to their owner). Score: outer faces of your colour on "
        "the complete pyramid plus 1 per die taken."
    )

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.taken = [0] * self.players
        self._start_turn(0)

    def _start_turn(self, player: Seat) -> None:
        for _ in range(100 * self.players):
            self.to_move = player
            if len(self.state) == len(geometry.SLOTS):
                return
            value = self.roll()
            self.up, self.left = value <= 4, value if value <= 4 else value - 4
            if self.legal():
                return
            player = self.next_player(player)

    def stock(self, colour: Colour) -> int:
        """Dice of ``colour`` not in the pyramid."""
        return COUNTS[colour] - sum(1 for c in self.state.values() if c.colour == colour)

    def legal(self) -> list[Action]:
        mine = self.colours[self.to_move]
        if self.up:
            return [Place(s, mine) for s in open_slots(self.state)] if self.stock(mine) > 0 else []
        return [Remove(s) for s in free_slots(self.state) if self.state[s].colour != mine]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.taken[player] += 1
        self.left -= 1
        if self.left <= 0 or not self.legal():
            self._start_turn(self.next_player())

    def scores(self) -> tuple[float, ...]:
        faces = colour_scores(self.state, self.colours)
        return tuple(f + n for f, n in zip(faces, self.taken, strict=True))

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.stock(c) for c in self.colours)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, Place):
            return float(outer_planes(action.slot))
        if isinstance(action, Remove):
            owner = self.colours.index(self.state[action.slot].colour)
            lead = 0.5 if self.scores()[owner] == max(self.scores()) else 0.0
            return 1.0 + outer_planes(action.slot) + lead
        return 0.0
