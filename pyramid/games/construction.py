"""Games of building the pyramid: dice are placed, funnels filled, outer faces or pips counted.

Rules layer only (no physics): each class is one game of the rule book, its docstring the rules card.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.geometry import Slot
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Place,
    Remove,
    Seat,
    Termination,
    colour_scores,
    free_slots,
    open_slots,
)
from pyramid.rules.options import Options, Whole, YesNo
from pyramid.state import PyramidState


def outer_planes(slot: Slot) -> int:
    """How many faces of a die in ``slot`` lie on the pyramid's outer planes (0 inside, 3 at the apex)."""
    return sum(1 for c in slot if c == 0)


class MostSimpleGame(Game):
    """The Most Simple Game (no. 10), by Jürgen Wagner.

    Setup: an empty plate; each player owns the dice of one colour (red, green, black).
    Turn: roll a die; place that many dice of your colour, one at a time, then the next player rolls.
    Legal actions: place one die of your colour in an open slot (an empty base funnel, or a funnel of
    three dice).
    Scoring: outer faces of your colour on the completed pyramid (edges double, the apex triple; 135 in all).
    End: when the pyramid is complete (165 dice).
    Interpretation: a roll larger than the open slots left is used as far as it goes; a colour has
    90 dice, so a player whose last die is placed ends the turn there and is passed by from then on;
    the faces the dice show are irrelevant; groups of players play as one player.
    """

    info = GameInfo(10, "The Most Simple Game", "Ch/C", (3,), "90 each of red, green, black; one die", ("simple",), 161)

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.left = self.roll()

    def stock(self, colour: Colour) -> int:
        """Dice of ``colour`` not in the pyramid."""
        return COUNTS[colour] - sum(1 for c in self.state.values() if c.colour == colour)

    def legal(self) -> list[Action]:
        return [Place(s, self.colours[self.to_move]) for s in open_slots(self.state)]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.left -= 1
        if len(self.state) == len(geometry.SLOTS) or (self.left > 0 and self.stock(self.colours[player]) > 0):
            return
        for _ in range(self.players):  # the next player with dice left rolls
            self.to_move = self.next_player()
            if self.stock(self.colours[self.to_move]) > 0:
                break
        self.left = self.roll()

    def scores(self) -> tuple[float, ...]:
        return colour_scores(self.state, self.colours)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.stock(c) for c in self.colours)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        return float(outer_planes(action.slot)) if isinstance(action, Place) else 0.0


class ForbiddenNumber(MostSimpleGame):
    """The Forbidden Number (no. 12), by Jürgen Wagner.

    Setup: an empty plate; each player owns one colour; a forbidden number 1..6 is fixed (option
    ``forbidden``; by default rolled before play).
    Turn: roll a die. Not the forbidden number: place that many dice of your colour, one at a time.
    The forbidden number: remove every die of your colour that is free at that moment, one at a time.
    Legal actions: place your colour in an open slot; after a forbidden roll, remove one of those dice.
    Scoring: outer faces of your colour on the completed pyramid (edges double, apex triple).
    End: when the pyramid is complete.
    Interpretation: "all free dice" are those free when the number is rolled (dice freed by the
    removals stay); a roll larger than the open slots is used as far as it goes; a forbidden roll with
    no free die of your colour passes the turn; a colour's 90 dice cap what can be placed; a turn limit
    (3000 actions) scores the pyramid as it stands.
    """

    info = GameInfo(12, "The Forbidden Number", "C/Ch", (3,), "90 each of red, green, black; one die", (), 173)
    option_specs: ClassVar[Options] = {"forbidden": Whole("the forbidden number (default: rolled)", 1, 6)}

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.forbidden = self.option("forbidden", 0) or self.roll()
        self.events.append(f"the forbidden number is {self.forbidden}")
        self.to_remove: list[Slot] = []
        self._start_turn(self.to_move)

    def _start_turn(self, player: Seat) -> None:
        for _ in range(100 * self.players):
            self.to_move = player
            if len(self.state) == len(geometry.SLOTS):
                return
            value = self.roll()
            colour = self.colours[player]
            if value == self.forbidden:
                free = set(free_slots(self.state))
                self.to_remove = [s for s in self.state if s in free and self.state[s].colour == colour]
                self.left = 0
                if self.to_remove:
                    return
            else:
                self.left = min(value, self.stock(colour))
                if self.left > 0:
                    return
            player = self.next_player(player)

    def legal(self) -> list[Action]:
        if self.to_remove:
            return [Remove(s) for s in self.to_remove]
        return super().legal()

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.to_remove = [s for s in self.to_remove if s != action.slot and s in self.state]
            if not self.to_remove:
                self._start_turn(self.next_player())
            return
        self.left -= 1
        if self.left <= 0 or not open_slots(self.state):
            self._start_turn(self.next_player())


class Mucho(Game):
    """Mucho (no. 27).

    Setup: each player owns one colour and the 10 base funnels of one corner, where they build a
    pyramid of 20 dice (4 layers).
    Turn: roll a die and place it, unturned, in an open slot of your own pyramid.
    Legal actions: place the rolled die (its faces fixed by the roll) in an open slot of your corner.
    Scoring: the pips on the faces of your pyramid that show (its three visible sides).
    End: after 20 rounds, when all three pyramids are complete.
    Interpretation: "unturned" means the roll fixes all three upward faces: the roll is one of the 24
    orientations, drawn uniformly. The domino variant is not implemented.
    """

    info = GameInfo(27, "Mucho", "C/Ch", (3,), "20 dice each of red, green, black", (), 294)
    CORNERS: ClassVar[tuple[str, ...]] = ("a", "b", "c")

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        apexes = geometry.small_pyramid_apexes(20)
        self.regions = [frozenset(geometry.small_pyramid(20, apexes[c])) for c in self.CORNERS[: self.players]]
        everything = set().union(*self.regions)
        self.final_axes: dict[Slot, list[int]] = {}
        for s, axis in geometry.exposed_faces(everything):
            self.final_axes.setdefault(s, []).append(axis)
        self._draw()

    def _draw(self) -> None:
        self.up = self.draw_orientation()
        self.events.append(f"player {self.to_move} rolls {''.join(map(str, self.up))}")

    def legal(self) -> list[Action]:
        region = self.regions[self.to_move]
        return [Place(s, self.colours[self.to_move], self.up) for s in open_slots(self.state) if s in region]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.to_move = self.next_player()
        if len(self.history) < 20 * self.players:
            self._draw()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.state.pip_sum(region & set(self.state), outer_only=False)) for region in self.regions)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(len(region - set(self.state)) for region in self.regions)

    def termination(self) -> Termination | None:
        return Termination.ROUNDS_PLAYED if len(self.history) >= 20 * self.players else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place) or action.up is None:
            return 0.0
        return sum(action.up[a] - 3.5 for a in self.final_axes.get(action.slot, []))


class SummitStorm(Game):
    """Summit Storm (no. 24), by Peter Pallat and Reinhold Wittig.

    Setup: an empty plate; each player owns the dice of one colour.
    Turn: place one die of your colour in an empty base funnel. Every funnel of three dice that
    appears is filled at once with a bonus die: two dice of one colour -> that colour's player fills;
    three of one colour -> the player to the left (next in turn order) of that colour's player; three
    colours -> everybody rolls and the highest fills (ties roll again). Funnels made by bonus dice are
    filled too before the next player's turn.
    Legal actions: place your colour in an empty base funnel; while a funnel waits, its filler's only
    action is to fill it.
    Scoring: outer faces of your colour on the completed pyramid (edges double, apex triple).
    End: when the pyramid is complete (the bonus dice finish it once the base is full).
    Interpretation: several waiting funnels are filled lowest layer first, then in slot order.
    """

    info = GameInfo(24, "Summit Storm", "C", (3,), "dice by colour: red, green, black", ("summit",), 261)

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.owner = {c: p for p, c in enumerate(self.colours)}
        self.turn_player: Seat = 0
        self.filling: tuple[Slot, Seat] | None = None

    def filler(self, colours: list[Colour]) -> Seat:
        """Who fills a funnel whose three dice have these colours."""
        (top, n), *_ = Counter(colours).most_common()
        if n == 3:
            return self.next_player(self.owner.get(top, 0))
        if n == 2:
            return self.owner.get(top, 0)
        contenders = list(range(self.players))
        while len(contenders) > 1:
            rolls = {p: int(self.rng.integers(1, 7)) for p in contenders}
            self.events.append("roll-off: " + ", ".join(f"player {p} {r}" for p, r in rolls.items()))
            best = max(rolls.values())
            contenders = [p for p in contenders if rolls[p] == best]
        return contenders[0]

    def legal(self) -> list[Action]:
        if self.filling is not None:
            return [Place(self.filling[0], self.colours[self.filling[1]])]
        return [Place(s, self.colours[self.to_move]) for s in open_slots(self.state) if geometry.layer(s) == 8]

    def filling_started(self) -> bool:
        """Whether new funnels are filled now (always here; Rasanto's variant waits for a full base)."""
        return True

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        funnels = sorted((s for s in open_slots(self.state) if geometry.layer(s) < 8), key=geometry.layer, reverse=True)
        if funnels and self.filling_started():
            slot = funnels[0]
            self.filling = (slot, self.filler([self.state[t].colour for t in geometry.supports(slot)]))
            self.to_move = self.filling[1]
            return
        self.filling = None
        self.turn_player = self.next_player(self.turn_player)
        self.to_move = self.turn_player

    def scores(self) -> tuple[float, ...]:
        return colour_scores(self.state, self.colours)

    def dice_left(self) -> tuple[int, ...] | None:
        """Each player's dice of their colour not yet in the pyramid (bonus dice come from them too)."""
        return tuple(COUNTS[c] - sum(1 for cell in self.state.values() if cell.colour == c) for c in self.colours)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None


class Rasanto(SummitStorm):
    """Rasanto (no. 23).

    Setup: an empty plate; two players (or teams), each owning one colour (red, green).
    Turn: place one die of your colour in an empty base funnel next to a die of yours; every funnel of
    three dice that appears is filled at once, and funnels made by those fillers too, before the next
    turn.
    Legal actions: place your colour in an empty base funnel whose die would touch one of your dice (a
    neighbouring base funnel); your first die, or a die when no such funnel is left, goes into any
    empty base funnel; while a funnel waits, its filler fills it.
    Scoring: outer faces of your colour on the completed pyramid (edges double, apex triple).
    End: when the pyramid is complete.
    Interpretation: the main game asks for dice "adjacent to existing own dice", as the book's variant
    says by waiving it; adjacent is touching face or edge, which in the base layer means neighbouring
    funnels; where the book is silent (the second player's first die, no free funnel next to your
    dice) any empty base funnel will do. Option ``variant``: the book's variant: dice go into any
    empty base funnel and no funnel is filled until all 45 base funnels are, then the fills run as
    above.
    House rule: the seed lost the fill rules. By analogy with Summit Storm (no. 24) and DoRa's
    exception: two dice of one colour -> that colour's player fills; three of one colour -> the
    opponent fills. Waiting funnels are filled lowest layer first, then in slot order.
    """

    info = GameInfo(23, "Rasanto", "C/T", (2,), "dice by colour: red, green", (), 255)
    house_rules = (
        "Fill rule (lost in the seed): two dice of one colour in a funnel -> that colour's player fills it; "
        "three of one colour -> the opponent fills it."
    )
    option_specs: ClassVar[Options] = {
        "variant": YesNo("yes: the book's variant: any empty base funnel, fills once the base is full (default no)")
    }

    def setup(self) -> None:
        super().setup()
        self.variant = self.option("variant", False)

    def legal(self) -> list[Action]:
        if self.filling is not None or self.variant:
            return super().legal()
        colour = self.colours[self.to_move]
        base = [s for s in open_slots(self.state) if geometry.layer(s) == geometry.BASE_LAYER]
        own = {s for s, c in self.state.items() if c.colour == colour}
        near = [s for s in base if any(t in own for t in touching(s))]
        return [Place(s, colour) for s in near or base]

    def filling_started(self) -> bool:
        return not self.variant or all(s in self.state for s in geometry.BASE_SLOTS)


# Offsets of the dice that touch a die face to face (6) or along an edge (12) in the lattice.
TOUCHING: tuple[Slot, ...] = tuple(
    (a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if 1 <= abs(a) + abs(b) + abs(c) <= 2
)


def touching(slot: Slot) -> list[Slot]:
    """The slots whose dice would touch a die in ``slot`` by a face or an edge."""
    out = []
    for d in TOUCHING:
        t = (slot[0] + d[0], slot[1] + d[1], slot[2] + d[2])
        if geometry.is_slot(t):
            out.append(t)
    return out


class FireAndWater(Game):
    """Fire and Water (no. 30), after an idea of Georg Thimme.

    Setup: an empty plate; each player gets red and green dice (2 players 24 + 24, 3: 15 + 15,
    4: 12 + 12, 5: 9 + 9, 6: 8 + 8); the black dice are shared.
    Turn: add one die to the pyramid.
    Legal actions: place one of your red or green dice in an open slot where it touches no die of the
    other of those two colours (face or edge); only if no such placement exists, place a black die.
    Scoring: red and green dice placed (so fewest left ahead).
    End: the first player to have placed all their red and green dice wins.
    Interpretation: "touch" is a shared face or a shared edge in the lattice (18 neighbours); if the
    pyramid is complete before anyone finishes, the player with the fewest red and green dice left
    wins; a die that falls off the pyramid in physical play still counts as used.
    """

    info = GameInfo(30, "Fire and Water", "C/T", (2, 3, 4, 5, 6), "red and green per player, black shared", (), 321)
    STOCK: ClassVar[dict[int, int]] = {2: 24, 3: 15, 4: 12, 5: 9, 6: 8}
    OPPOSITE: ClassVar[dict[Colour, Colour]] = {"red": "green", "green": "red"}

    def setup(self) -> None:
        n = self.STOCK[self.players]
        self.left = [{"red": n, "green": n} for _ in range(self.players)]

    def allowed(self, slot: Slot, colour: Colour) -> bool:
        """Whether a ``colour`` die in ``slot`` would touch no die of the opposite colour."""
        other = self.OPPOSITE[colour]
        return not any(self.state.get(t) is not None and self.state[t].colour == other for t in touching(slot))

    def legal(self) -> list[Action]:
        slots = open_slots(self.state)
        mine = self.left[self.to_move]
        out: list[Action] = [Place(s, c) for c in ("red", "green") if mine[c] > 0 for s in slots if self.allowed(s, c)]
        return out or [Place(s, "black") for s in slots]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Place) and action.colour in self.OPPOSITE:
            self.left[player] = {**self.left[player], action.colour: self.left[player][action.colour] - 1}
        self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        n = 2 * self.STOCK[self.players]
        return tuple(float(n - sum(left.values())) for left in self.left)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(sum(left.values()) for left in self.left)

    def termination(self) -> Termination | None:
        if any(sum(left.values()) == 0 for left in self.left):
            return Termination.ALL_PLACED
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place) or action.colour not in self.OPPOSITE:
            return -1.0
        # Prefer the colour with more dice left, in a slot whose neighbours are already of that colour.
        same = sum(
            1 for t in touching(action.slot) if self.state.get(t) is not None and self.state[t].colour == action.colour
        )
        return self.left[self.to_move][action.colour] + 0.1 * same
