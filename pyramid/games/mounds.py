"""Pyramids carried die by die to the next corner: Mound Mover (by jumps) and Diebylon (by rolled lengths).

Rules layer only (no physics). The jumps are ``pyramid.moves.jump_targets`` and the move length
``pyramid.moves.move_length`` (``reach``); each move is one ``Move``, carried out by a hand in the world.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pyramid import geometry
from pyramid.games.jumps import LONG, JumpGame
from pyramid.geometry import Slot
from pyramid.moves import is_free, is_open_for, move_length, reach
from pyramid.rules import PLAYER_COLOURS, Action, GameInfo, Move, Pass, Seat, Termination
from pyramid.rules.options import Options, YesNo
from pyramid.state import Cell, PyramidState

CORNERS = "abc"


def clockwise(corner: int) -> int:
    """The next corner clockwise seen from above: a (0) to c (2) to b (1) to a."""
    return (corner + 2) % 3


def seat_corner(player: Seat) -> int:
    """The corner of ``player``'s pyramid: the players sit round the plate clockwise in turn order (0 at a,
    1 at c, 2 at b), so that each one's target, the corner next clockwise, is the next player's."""
    return clockwise(0) * player % 3


def corner_pyramid(dice: int, corner: int) -> list[Slot]:
    """The slots of the ``dice``-die pyramid standing in corner ``corner`` (0 a, 1 b, 2 c), base first."""
    apex = geometry.small_pyramid_apexes(dice)[CORNERS[corner]]
    return sorted(geometry.small_pyramid(dice, apex), key=lambda s: -geometry.layer(s))


class CornerGame(JumpGame):
    """What the two games share: a pyramid of each player's colour per corner, and its target corner."""

    size: ClassVar[int] = 20
    colours = PLAYER_COLOURS

    def build(self) -> None:
        """Each player's pyramid in their corner; their target the corner next clockwise, the next player's."""
        self.targets = [corner_pyramid(self.size, clockwise(seat_corner(p))) for p in range(3)]
        self.state = PyramidState(
            {
                s: Cell(self.colours[p], self.draw_orientation())
                for p in range(3)
                for s in corner_pyramid(self.size, seat_corner(p))
            }
        )

    def milestones(self) -> tuple[float, ...]:
        return tuple(self.progress(self.state.cells, p) for p in range(3))

    def arrived(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """How many slots of ``player``'s target pyramid hold their dice."""
        state = self.state if cells is None else cells
        colour = self.colours[player]
        return sum(1 for s in self.targets[player] if s in state and state[s].colour == colour)

    def distance(self, player: Seat, slot: Slot) -> int:
        """How many layers of the corner's coordinate ``slot`` lies short of ``player``'s target pyramid."""
        corner = clockwise(seat_corner(player))
        return max(0, self.targets[player][-1][corner] - slot[corner])

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player``'s dice in ``cells`` have come: dice in the target, the lower the better, and nearness;
        less for each die of theirs that holds down another player's die in their target (it must leave first)."""
        mine = self.own(player, cells)
        target = set(self.targets[player])
        colour = self.colours[player]
        inside = [s for s in mine if s in target]
        holding = sum(
            1 for s in mine for t in geometry.supports(s) if t in target and t in cells and cells[t].colour != colour
        )
        near = sum(self.distance(player, s) for s in mine)
        return 10.0 * len(inside) + 0.1 * sum(geometry.layer(s) for s in inside) - near - 12.0 * holding

    def heuristic(self, action: Action) -> float | None:
        me, cells = self.to_move, self.after_state(action)
        return self.progress(cells, me) - max(self.progress(cells, p) for p in range(3) if p != me) / 2

    def standing(self, player: Seat) -> float:
        return self.race_standing(player)


class MoundMover(CornerGame):
    """Mound Mover (no. 37), by Reto Walt and Gilberto Zappatini.

    Setup: each player's 20 dice stand as a pyramid in their corner, the players round the plate
    clockwise in turn order (player 0 red at corner a, 1 green at c, 2 black at b); each moves it
    into the corner next clockwise (a to c, c to b, b to a), where the next player's pyramid stands at
    the start.
    Turn: jump one of your dice along a right angle in a plane parallel to a face of the pyramid, as
    in Flea Chase (``pyramid.moves``: arms of 1 and 1 in the layer, 2 and 1 one layer up or down,
    the long jump 3 and 1), or the steep jump, arms of 4 and 1, three layers up or down. A die
    under another die, of any colour, cannot jump: each jump into a funnel blocks the dice below
    it, and the blockade stays as long as its die does.
    Legal actions: the jumps of your dice; when your dice fill the 19 slots of the target below its
    top, the crowning move: your last die, if free, is carried onto the top. Pass when you can do
    neither.
    Scoring: your dice in your target pyramid (20: moved).
    End: at the end of the round (after player 2's turn) in which a pyramid was moved: whoever moved
    theirs wins, two or three share it (the seed's draw). All three passing in a row end the game
    as blocked. House rule: after 45 turns in a row in which no player came nearer their target than
    ever before (``progress``: dice in it, and the nearness of the rest; a player who keeps their dice
    in another's target may never leave it), the game ends: most dice in the target win.
    Interpretation: "the figures of game no. 49" are Flea Chase's (no. 55), lost; the jumps are
    read as there. The top of a 20-die corner pyramid stands three layers above the plate and every
    die below it is blocked, so with Flea Chase's jumps nobody could move: the steep jump, the long
    jump made one step longer, takes it down to the plate. The top of the target rests on the three
    dice that rest on all the others, so no die of the target can jump into it; the crowning move
    replaces that last jump. The variants are lost.
    """

    info = GameInfo(37, "Mound Mover", "T", (3,), "20 red, 20 green, 20 black dice", (), 390)
    option_specs: ClassVar[Options] = {"long": LONG}
    house_rules = (
        "Jumps (figures lost) as in Flea Chase, with its long jump, and the steep jump (arms of 4 and 1): the "
        "only jump off the top of a 20-die corner pyramid. The players sit clockwise in turn order (0 at a, 1 at c, "
        "2 at b); the target is the corner next clockwise, the next player's. When "
        "your dice fill the target below its top, your last die, if free, may be carried onto the top (no jump "
        "can reach it). The game ends at the end of a round in which a pyramid was moved; all three passing in a "
        "row end it too, and 45 turns in which nobody came nearer their target than ever before: most dice in it win."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 45

    steep = True

    def setup(self) -> None:
        self.long = self.option("long", True)
        self.build()
        self.passes = 0  # passes in a row
        self.moved = False  # a pyramid stood in its target at the end of a turn this round

    def crowning(self, player: Seat) -> list[Move]:
        """The move of ``player``'s last die onto the top of their target, once the 19 slots below it are theirs."""
        top, *below = reversed(self.targets[player])
        if top in self.state or self.arrived(player) != len(below):
            return []
        occupied = set(self.state)
        return [
            Move(((s, top),), name=f"crown the pyramid: {s} to {top}")
            for s in self.own(player)
            if s not in below and is_free(occupied, s)
        ]

    def legal(self) -> list[Action]:
        me = self.to_move
        moves = self.jumps(me)
        moves += [m for m in self.crowning(me) if m not in moves]
        return list(moves) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.passes = self.passes + 1 if isinstance(action, Pass) else 0
        self.moved = self.moved or self.arrived(player) == self.size
        self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.arrived(p)) for p in range(3))

    def termination(self) -> Termination | None:
        if self.moved and self.to_move == 0:
            return Termination.GOAL_REACHED
        return Termination.BLOCKED if self.passes >= 3 else None


class Diebylon(CornerGame):
    """Diebylon (no. 38), by Jürgen Wagner.

    Setup: each player's 10 dice stand as a pyramid in their corner, the players round the plate
    clockwise in turn order (player 0 red at corner a, 1 green at c, 2 black at b); each re-erects it
    in the corner next clockwise (a to c, c to b, b to a), the next player's. Player 0 rolls first.
    Turn: the rolled number is used fully: one of your free dice moves to an open slot whose move
    length |di| + |dj| + |dk| is the number (``pyramid.moves.reach``). So a die moves within its
    layer only with an even number, one layer up or down with 3 or 5, two layers with 4 or 6, and a
    start is possible only with a 4 or 6. A 1 moves nothing, but a blocked die of yours (exactly one
    die rests on it, another player's, itself free) swaps places with its blocker (one ``Move``).
    Then the next player rolls.
    Legal actions: the moves of the rolled length, or with a 1 the swaps; Pass when there is none.
    Scoring: your dice in your target pyramid (10: re-erected).
    End: the first player whose 10 dice fill their target pyramid wins (option ``faster``: whose die
    is on top of their target pyramid, all 10 slots filled with dice of any colour). House rule: after
    45 turns in a row in which no player came nearer their target than ever before (dice in it, and
    the nearness of the rest), the game ends: most dice in the target win.
    Interpretation: "another corner" is the corner next clockwise, which the next player's pyramid
    leaves (turns go clockwise, as in the book's other games for three); a move is a single die
    lifted and set down at the length rolled, not a path.
    """

    info = GameInfo(38, "Diebylon", "C/Ch", (3,), "10 red, 10 green, 10 black dice; a die to roll", (), 396)
    option_specs: ClassVar[Options] = {
        "faster": YesNo("yes: your die on top of your target, all its slots filled with any dice, wins (default no)")
    }
    house_rules = (
        "The players sit clockwise in turn order (0 at a, 1 at c, 2 at b); the target is the corner next clockwise, "
        "the next player's. A move is one die carried to an open slot at exactly the rolled "
        "length |di| + |dj| + |dk|; a 1 swaps a blocked die of yours (under one other player's free die only) with "
        "its blocker; no move: pass. After 45 turns in which nobody came nearer their target than ever before the "
        "game ends: most dice in the target win."
    )
    size: ClassVar[int] = 10
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 45
    FILL_WEIGHT: ClassVar[float] = 5.0  # the search's worth of a sure fill next turn (a die's arrival is 10)
    prior_temperature: ClassVar[float | None] = 1.0  # one number more that fills next turn: e ** (5/6) in the prior

    def setup(self) -> None:
        self.faster = self.option("faster", False)
        self.build()
        self.rolled = self.roll()

    def swaps(self, player: Seat) -> list[Move]:
        """``player``'s blocked dice swapping with their blockers: one other player's free die resting on them."""
        occupied, colour = set(self.state), self.colours[player]
        out = []
        for s in self.own(player):
            above = [t for t in geometry.resting_on(s) if t in occupied]
            if len(above) == 1 and self.state[above[0]].colour != colour and is_free(occupied, above[0]):
                out.append(Move(((above[0], s), (s, above[0])), name=f"swap {s} with its blocker {above[0]}"))
        return out

    def legal(self) -> list[Action]:
        me = self.to_move
        if self.rolled == 1:
            return list(self.swaps(me)) or [Pass()]
        occupied = set(self.state)
        moves = [
            Move(((s, t),), name=f"move {s} to {t} ({self.rolled} steps)")
            for s in self.own(me)
            for t in reach(occupied, s, self.rolled)
        ]
        return list(moves) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.to_move = self.next_player()
        self.rolled = self.roll()

    def erected(self, player: Seat) -> bool:
        """Whether ``player`` has re-erected their pyramid in the target corner."""
        if not self.faster:
            return self.arrived(player) == self.size
        top = self.targets[player][-1]
        filled = all(s in self.state for s in self.targets[player])
        return filled and self.state[top].colour == self.colours[player]

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.size if self.erected(p) else self.arrived(p)) for p in range(3))

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if any(self.erected(p) for p in range(3)) else None

    def fill_chance(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> float:
        """The chance that ``player``'s next roll can fill a slot of their target: the share of the six numbers
        at whose length one of their free dice outside the target reaches an open slot of it."""
        state = self.state if cells is None else cells
        occupied, target = set(state), self.targets[player]
        lengths = set()
        for source in self.own(player, state):
            if source in target or not is_free(occupied, source):
                continue
            rest = occupied - {source}
            for slot in target:
                length = move_length(source, slot)
                if 2 <= length <= 6 and is_open_for(rest, slot):
                    lengths.add(length)
        return len(lengths) / 6

    def standing(self, player: Seat) -> float:
        """The search's standing: ``player``'s own progress, plus ``FILL_WEIGHT`` times the chance their next
        roll fills a slot of the target (README: Diebylon's end game)."""
        return self.race_standing(player) + self.FILL_WEIGHT * self.fill_chance(player)

    def foresight(self, action: Action) -> float | None:
        """The search's prior: greedy's value of ``action``, plus ``FILL_WEIGHT`` times the chance the mover's
        next roll fills a slot after it.

        Greedy takes the move that gains most now, and at the end it often leaves its dice where few numbers
        fill a slot: over 17 end games from 7 dice in the target, played alone with the others' dice standing
        still, it needed 29.4 turns to the last die, and 23.9 when it also counted this chance (weight 10).
        In whole games the search starts from this value, sharply (``prior_temperature``), and its standing
        counts the same chance: over 1800 seeds it won 666 games to greedy's 587 in the same seats (README).
        """
        value = self.heuristic(action)
        if value is None or not isinstance(action, Move):
            return value
        return value + self.FILL_WEIGHT * self.fill_chance(self.to_move, self.after_state(action))

    def heuristic(self, action: Action) -> float | None:
        value = super().heuristic(action)
        if isinstance(action, Move) and len(action.steps) == 2:
            # a swap also frees the die, and puts the blocker under it
            return None if value is None else value + 1.0
        return value
