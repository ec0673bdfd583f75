"""Races and chases of dice that jump along a right angle: Race, Flea Chase, Finish, The Fire-Red Devil.

Rules layer only (no physics). A jump is ``pyramid.moves.jump_targets``, carried out as one ``Move``
(in the world a hand lifts the die and sets it down, faces kept). A die under another cannot jump:
that is the blockade.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot
from pyramid.moves import carry, jump_targets, move_length, rests_on
from pyramid.rules import PLAYER_COLOURS, Action, Game, GameInfo, Move, Pass, Place, Seat, Termination
from pyramid.rules.options import Options, Whole, YesNo
from pyramid.state import Cell, PyramidState

LONG = YesNo("no: no long jumps (arms of 3 and 1), only jumps with arms of 1 and 1 or 2 and 1 (default yes)")


def corner_triangle(corner: int, side: int) -> list[Slot]:
    """The base funnels of the corner triangle of ``side`` funnels a side at corner ``corner`` (0 a, 1 b, 2 c)."""
    return [s for s in geometry.BASE_SLOTS if s[corner] >= geometry.BASE_LAYER - side + 1]


class JumpGame(Game):
    """What the jumping games share: dice owned by colour, their jumps, and who rests on whom."""

    colours: tuple[Colour, ...] = ()
    long: bool = True
    steep: bool = False

    def jump(self, source: Slot, target: Slot) -> Move:
        """The jump of the die in ``source`` to ``target`` as a move."""
        return Move(((source, target),), name=f"jump {source} to {target}")

    def own(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> list[Slot]:
        """The slots of ``player``'s dice (in ``cells``, by default the state), in slot order."""
        state = self.state if cells is None else cells
        colour = self.colours[player]
        return sorted((s for s, c in state.items() if c.colour == colour), key=geometry.SLOT_INDEX.__getitem__)

    def jumps(self, player: Seat, sources: Iterable[Slot] | None = None) -> list[Move]:
        """Every jump ``player`` can make now (of the dice in ``sources``, by default all theirs)."""
        occupied = set(self.state)
        return [
            self.jump(s, t)
            for s in (self.own(player) if sources is None else sources)
            for t in jump_targets(occupied, s, self.long, self.steep)
        ]

    def blockers(self, player: Seat, victims: Iterable[Slot]) -> list[Slot]:
        """``player``'s dice that rest on a die in ``victims``."""
        victims = set(victims)
        return [s for s in self.own(player) if any(rests_on(s, v) for v in victims)]

    def after_state(self, action: Action) -> dict[Slot, Cell]:
        """The cells after ``action`` done exactly."""
        return carry(self.state.cells, action.steps) if isinstance(action, Move) else dict(self.state.cells)

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player`` has come in ``cells``: the races say how; 0 in a game that is no race."""
        return 0.0

    def race_standing(self, player: Seat) -> float:
        """``player``'s own progress now: the standing of a race of three or four (Race, Mound Mover, Diebylon,
        Finish), whose score moves little before the goal, so that a few moves ahead already tell a better
        position from a worse one.

        Not the lead over the best other player: a move that sets the leader back helps the third player as
        much as the mover, and a search that counted the lead (or, in Race, the score lead) spent its moves on
        that: behind greedy in Mound Mover and Diebylon, no margin in Finish and Race. Counting its own progress
        it beats greedy in the other three; Diebylon adds the chance the next roll fills a slot (README).
        """
        return self.progress(self.state.cells, player)


class Race(JumpGame):
    """Race (no. 52), by Martin Callis.

    Setup: the plate is empty; each player holds 5 dice of their colour (4 each with 4 players):
    player 0 red, 1 green, 2 black, 3 blue. The start line is the base edge k = 0; the finish area
    the triangle of 15 base funnels at the opposite corner c (k >= 4), whose 12 outer funnels score.
    Turn: enter a die from your hand into an empty funnel of the start line (it is rolled in: its
    faces fall as they land), or jump one of your dice along a right angle as in Flea Chase (with
    its long jump; a die another rests on cannot jump). A die in the finish area jumps only within it.
    Legal actions: those; Pass only when you have none.
    Scoring: each of your dice in an outer funnel of the finish area scores the faces it turns
    outwards (away from the area; a corner funnel of the area turns two), where they show, times
    the funnel's row seen from the start line: x1 in the area's first row (k = 4), x2 in the next
    two (k = 5, 6), x3 in the last two (k = 7, 8).
    End: when all 12 outer funnels of the finish area hold a die; the highest total wins. Every
    player passing in a row ends it as blocked. House rule: after 30 turns in a row in which no
    player entered a die, brought one into the area or scored more than ever before, the game ends:
    the highest total wins.
    Interpretation: the moves ("Game Play") and the multipliers (a figure "seen from the start
    line") are lost: a turn is one jump of game 56 or an entry at the start line, and the five rows
    of the area are worth x1, x2, x3 going away from the start. Dice enter rolled, so the faces a
    die can score are its own from the start; the tactics are where each die ends and who is in
    whose way.
    """

    info = GameInfo(52, "Race", "T", (3, 4), "5 dice per player (4 each with 4 players)", (), 527)
    option_specs: ClassVar[Options] = {"long": LONG}
    house_rules = (
        "The moves are lost: a turn enters a die from the hand onto an empty funnel of the start line (k = 0), rolled "
        "in, or makes one jump of game 56; a die in the finish area (k >= 4) stays in it. The multipliers are lost: "
        "x1 for the area's first row, x2 for the next two, x3 for the last two; a die scores the faces it turns out of "
        "the area. After 30 turns without a die entered, a die into the area or a new best score, the game ends."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 30
    colours = ("red", "green", "black", "blue")
    AREA: ClassVar[frozenset[Slot]] = frozenset(s for s in geometry.BASE_SLOTS if s[2] >= 4)
    START: ClassVar[tuple[Slot, ...]] = tuple(s for s in geometry.BASE_SLOTS if s[2] == 0)

    @staticmethod
    def outward(slot: Slot) -> tuple[int, ...]:
        """The axes of the faces a die in the finish area's funnel ``slot`` turns outwards (none inside it).

        The face along +axis looks towards the side where that coordinate is smaller: +i and +j over
        the plate's edges i = 0 and j = 0, +k back at the start line from the area's first row.
        """
        if slot not in Race.AREA:
            return ()
        return tuple(axis for axis, edge in ((0, 0), (1, 0), (2, 4)) if slot[axis] == edge)

    @staticmethod
    def multiplier(slot: Slot) -> int:
        """What a face in the finish area's funnel ``slot`` is worth per pip: its row seen from the start line."""
        return 1 if slot[2] == 4 else 2 if slot[2] <= 6 else 3

    def setup(self) -> None:
        self.long = self.option("long", True)
        self.hand = [5 if self.players == 3 else 4] * self.players
        self.state = PyramidState()
        self.passed = [False] * self.players

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.hand)

    def legal(self) -> list[Action]:
        me = self.to_move
        moves: list[Action] = []
        if self.hand[me]:
            moves += [Place(s, self.colours[me]) for s in self.START if s not in self.state]
        moves += [m for m in self.jumps(me) if m.steps[0][0] not in self.AREA or m.steps[0][1] in self.AREA]
        return moves or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Place):
            self.hand[player] -= 1
        self.passed[player] = isinstance(action, Pass)
        self.to_move = self.next_player(player)

    def points(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """``player``'s score in ``cells`` (by default the state): outward faces showing, times their rows."""
        state = self.state if cells is None else cells
        mine = set(self.own(player, state))
        total = 0
        for slot, axis in geometry.exposed_faces(state):
            up = state[slot].up
            if slot in mine and axis in self.outward(slot) and up is not None:
                total += up[axis] * self.multiplier(slot)
        return total

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.points(p)) for p in range(self.players))

    def milestones(self) -> tuple[float, ...]:
        """Dice entered, dice in the area (neither comes back) and points, each player's."""
        start = 5 if self.players == 3 else 4
        area = [float(sum(s in self.AREA for s in self.own(p))) for p in range(self.players)]
        return (*(float(start - n) for n in self.hand), *area, *self.scores())

    def termination(self) -> Termination | None:
        if all(s in self.state for s in self.AREA if self.outward(s)):
            return Termination.FINISH_FILLED
        if all(self.passed):
            return Termination.BLOCKED
        return None

    @staticmethod
    def nearness(slot: Slot) -> float:
        """How far towards the finish corner ``slot`` lies: its k as seen on the plate (8 at the corner)."""
        return slot[2] + (geometry.BASE_LAYER - geometry.layer(slot)) / 3

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player`` has come in ``cells``: points, dice in the area, nearness of the rest, the hand."""
        mine = self.own(player, cells)
        near = sum(min(self.nearness(s), 4.0) for s in mine)
        return self.points(player, cells) + 6.0 * sum(s in self.AREA for s in mine) + 2.0 * near

    def heuristic(self, action: Action) -> float | None:
        me = self.to_move
        if isinstance(action, Place):
            cells = dict(self.state.cells) | {action.slot: Cell(action.colour, (1, 2, 3))}
        else:
            cells = self.after_state(action)
        return self.progress(cells, me) - max(self.progress(cells, p) for p in range(self.players) if p != me) / 2

    def standing(self, player: Seat) -> float:
        return self.race_standing(player)


class FleaChase(JumpGame):
    """Flea Chase (no. 55), by Karin and Reinhold Wittig.

    Setup: player 0's 10 red dice fill the corner triangle of 10 base funnels at corner a, player 1's
    10 green dice the one at corner b. The target is the 20-die pyramid of corner c (its slots have
    k >= 5).
    Turn: jump one of your dice along a right angle in a plane parallel to a face of the pyramid
    (``pyramid.moves``: arms of 1 and 1 in the layer, 2 and 1 one layer up or down; the rare long
    jump, arms of 3 and 1, two layers). A die that another die rests on cannot jump: it is blocked.
    Legal actions: the jumps of your dice; a die in the target pyramid jumps only within it. Pass
    only when no jump is left. A player whose dice are all in the target pyramid has finished and
    passes from then on.
    Blockade: a blockade may stay as long as the blocked player has a free die outside the target to
    jump (dice in the target, which may jump to and fro in it, do not count). If at your turn no die
    of yours outside the target can jump, you move a die inside the target or pass: the blocking
    player has had their free turn and must, on their next turn, jump a die that rests on one of
    yours outside the target, if such a jump exists.
    Scoring: the faces of your colour showing on the outside of the completed target pyramid (30 in
    all); the second player to finish subtracts the turns they needed after the first had finished,
    a player who started second (player 1) not counting their first.
    End: when the target pyramid is complete; most points win. Both players passing in a row end it
    as blocked. House rules where the book gives no end: a position that comes about the third time
    (the same dice, the same player to move) ends the game as a draw; and once the second player has
    needed more extra turns than the target shows faces (30), the first to finish has won whatever
    comes (the second's faces less their extra turns cannot reach 0), and the game ends.
    Interpretation: the five jump figures and the start figure are lost; the jumps are read as the
    L-shaped moves on the square grid that the dice form in each plane parallel to a face. The top of
    the target rests on the three dice that rest on all the others, so it is the last slot to fill,
    and no die of the target is free then; a jump into it must start from dice standing outside the
    target, which 20 dice do not have. The pyramid is complete with its 19 dice below the top; the
    second player's last die stays out and counts as arrived.
    """

    info = GameInfo(55, "Flea Chase", "T", (2,), "10 red and 10 green dice", ("fleas",), 552)
    option_specs: ClassVar[Options] = {"long": LONG}
    house_rules = (
        "Start (figure lost): each player's 10 dice fill the 10-funnel triangle of their corner (a and b); the "
        "target is the 20-die pyramid of corner c. Jumps (figures lost): L-shaped moves in a plane parallel to a "
        "face; a die in the target stays in it; a finished player passes. A blockade stays while the blocked "
        "player has a free die outside the target to jump; at a turn with none (moving in the target or passing) "
        "the blocker has had their free turn and lifts it on their next. A position come about the third time is a "
        "draw; more than 30 extra turns of the second player decide the game for the first."
    )
    max_moves: ClassVar[int] = 1000
    repetitions: ClassVar[int] = 3
    FACES: ClassVar[int] = 30  # the faces the completed target shows, both players' together
    colours = ("red", "green")

    def setup(self) -> None:
        self.long = self.option("long", True)
        self.top: Slot = (0, 0, 5)
        self.target = frozenset(geometry.small_pyramid(20, self.top))
        cells = {s: Cell(self.colours[p], self.draw_orientation()) for p in (0, 1) for s in corner_triangle(p, 4)}
        self.state = PyramidState(cells)
        self.finished_first: Seat | None = None
        self.extra = [0, 0]  # turns needed after the other player finished
        self.passed = [False, False]  # passed at their last turn (blocked or finished)
        self.stranded = [False, False]  # at their last turn no die of theirs outside the target could jump
        self.free_move = False

    def outside(self, player: Seat) -> list[Slot]:
        """``player``'s dice not yet in the target pyramid (the last die counts as in once the pyramid is complete)."""
        out = [s for s in self.own(player) if s not in self.target]
        return [] if self.termination() is Termination.PYRAMID_COMPLETE else out

    def legal(self) -> list[Action]:
        me, other = self.to_move, 1 - self.to_move
        if not self.outside(me):
            return [Pass()]
        moves = [m for m in self.jumps(me) if m.steps[0][0] not in self.target or m.steps[0][1] in self.target]
        if self.stranded[other] and self.outside(other):
            lifting = set(self.blockers(me, self.outside(other)))
            release = [m for m in moves if m.steps[0][0] in lifting]
            moves = release or moves
        return list(moves) if moves else [Pass()]

    def free_outside(self, player: Seat, cells: Mapping[Slot, Cell]) -> bool:
        """Whether a die of ``player``'s outside the target can jump in ``cells``: a free die, in the book's words."""
        occupied = set(cells)
        return any(
            jump_targets(occupied, s, self.long, self.steep) for s in self.own(player, cells) if s not in self.target
        )

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.passed[player] = isinstance(action, Pass)
        self.stranded[player] = not self.free_outside(player, before.cells)
        other = 1 - player
        if self.finished_first == other:
            if self.free_move:
                self.free_move = False
            else:
                self.extra[player] += 1
        if self.finished_first is None and not self.outside(player):
            self.finished_first = player
            self.free_move = player == 0  # player 1 started second: their first turn after is not counted
            self.events.append(f"player {player} has all dice in the target pyramid")
        self.to_move = other

    def faces(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """The faces of ``player``'s colour showing on the target pyramid."""
        state = self.state if cells is None else cells
        mine = set(self.own(player, state))
        return sum(1 for s, _ in geometry.exposed_faces(state) if s in self.target and s in mine)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.faces(p) - self.extra[p]) for p in (0, 1))

    def termination(self) -> Termination | None:
        if all(s in self.state for s in self.target - {self.top}):
            return Termination.PYRAMID_COMPLETE
        if all(self.passed):
            return Termination.BLOCKED
        if self.finished_first is not None and self.extra[1 - self.finished_first] > self.FACES:
            return Termination.DECIDED
        return None

    def position(self) -> Hashable:
        return (super().position(), tuple(self.passed), tuple(self.stranded), self.finished_first, tuple(self.extra))

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player``'s dice in ``cells`` have come: dice in the target, faces there, nearness."""
        mine = self.own(player, cells)
        inside = [s for s in mine if s in self.target]
        distance = sum(max(0, 5 - s[2]) for s in mine if s not in self.target)
        return 10.0 * len(inside) - distance + 0.3 * self.faces(player, cells)

    def heuristic(self, action: Action) -> float | None:
        me, cells = self.to_move, self.after_state(action)
        return self.progress(cells, me) - self.progress(cells, 1 - me)


class Finish(JumpGame):
    """Finish (no. 56).

    Setup: each player's 7 dice stand in their corner (player 0 red at corner a, 1 green at b, 2
    black at c): the 6 base funnels of the corner triangle of side 3 and one die on top of the three
    at the corner.
    Turn: jump one of your dice along a right angle, as in Flea Chase (with its long jump).
    Legal actions: the jumps of your dice; Pass only when no jump is left.
    Blockade: a player who at their turn has no useful jump (every jump would take a die back towards
    their corner or move a die along the finish line) is stuck; every player with a die resting on a
    die of a stuck player must, at their next turn, jump such a die if they can.
    Scoring: your dice on the finish line: the base funnels of the edge opposite your corner.
    End: the first player with all 7 dice on the finish line wins. The turn limit (600 actions) ends
    an endless game: most dice on the finish line win.
    Interpretation: the start figure is lost; a useful jump is one that does not raise the die's
    distance from the finish line (its coordinate of the player's corner) and starts off the line.
    """

    info = GameInfo(56, "Finish", "T", (3,), "7 red, 7 green, 7 black dice", (), 567)
    option_specs: ClassVar[Options] = {"long": LONG}
    house_rules = (
        "Start (figure lost): the 6 funnels of the corner triangle of side 3 and one die on top of the corner's "
        "three. The finish line is the base edge opposite the corner. A blockade is lifted by the next turn of "
        "each blocker once the blocked player has no useful jump."
    )
    max_moves: ClassVar[int] = 600
    colours = PLAYER_COLOURS

    def setup(self) -> None:
        self.long = self.option("long", True)
        cells: dict[Slot, Cell] = {}
        for p in range(3):
            top = tuple(7 if a == p else 0 for a in range(3))
            for s in [*corner_triangle(p, 3), (top[0], top[1], top[2])]:
                cells[s] = Cell(self.colours[p], self.draw_orientation())
        self.state = PyramidState(cells)
        self.stuck = [False, False, False]

    def useful(self, move: Move, player: Seat) -> bool:
        """Whether ``move`` brings a die of ``player``'s no further from the finish line and starts off it."""
        (source, target), *_ = move.steps
        return not self.on_line(source, player) and target[player] <= source[player]

    @staticmethod
    def on_line(slot: Slot, player: Seat) -> bool:
        """Whether ``slot`` is on ``player``'s finish line: a base funnel of the edge opposite their corner."""
        return slot[player] == 0 and geometry.layer(slot) == geometry.BASE_LAYER

    def legal(self) -> list[Action]:
        me = self.to_move
        moves = self.jumps(me)
        victims = [s for p in range(3) if p != me and self.stuck[p] for s in self.own(p)]
        lifting = set(self.blockers(me, victims))
        release = [m for m in moves if m.steps[0][0] in lifting]
        moves = release or moves
        return list(moves) if moves else [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.to_move = self.next_player()
        self.stuck = [self.is_stuck(p) for p in range(3)]

    def is_stuck(self, player: Seat) -> bool:
        """Whether ``player`` has no useful jump while some die of theirs is under another player's die."""
        colour = self.colours[player]
        above = [t for s in self.own(player) for t in geometry.resting_on(s) if t in self.state]
        covered = any(self.state[t].colour != colour for t in above)
        return covered and not any(self.useful(m, player) for m in self.jumps(player))

    def finished(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """How many of ``player``'s dice stand on their finish line."""
        return sum(1 for s in self.own(player, cells) if self.on_line(s, player))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.finished(p)) for p in range(3))

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if max(self.scores()) == 7 else None

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player``'s dice in ``cells`` have come: dice on the line, nearness of the others."""
        mine = self.own(player, cells)
        return 10.0 * sum(self.on_line(s, player) for s in mine) - sum(s[player] for s in mine)

    def heuristic(self, action: Action) -> float | None:
        me, cells = self.to_move, self.after_state(action)
        return self.progress(cells, me) - max(self.progress(cells, p) for p in range(3) if p != me) / 2

    def standing(self, player: Seat) -> float:
        return self.race_standing(player)


class FireRedDevil(JumpGame):
    """The Fire-Red Devil (no. 57), by Oliver Stuhr.

    Setup: three small pyramids of 4 black dice at the middles of the plate's edges; the golden angel
    (player 0) and the red devil (player 1) each in a base funnel drawn at random (they are rolled
    onto the plate); each player holds 45 green dice (option ``greens``).
    Turn: jump your die along a right angle (as in Flea Chase, with its long jump), then set one of
    your green dice into the funnel it left (a second action, forced). The angel moves first.
    Legal actions: the jumps of your die; Pass only when it has none: then one of your green dice is
    set aside unused (the green dice are the game's clock, for a player who cannot jump too).
    Scoring: 1 to the winner.
    End: the devil catches the angel when he comes to rest on her (she is one of the three dice under
    him): the devil wins; option ``stuck``: also when she cannot jump at her turn. The angel wins when
    the last green die is used (the devil's 45th turn: she escaped until the last green die was
    placed), or when neither can jump.
    Interpretation: the figures of the start and of the catch are lost; the small pyramids stand
    with two base dice on the edge, and "caught" is read as above. An angel who cannot jump is not
    caught by default: the plate fills with green dice whoever plays, and with that rule the devil won
    18 of 20 games even when he jumped at random against the greedy angel (greedy against greedy 17
    of 20); without it greedy beats random on either side (angel 19 of 20, devil 15 of 20) and greedy
    against greedy is 12 to 8 for the angel.
    """

    info = GameInfo(57, "The Fire-Red Devil", "T", (2,), "1 red, 1 gold, 12 black, 90 green", ("devil",), 574)
    option_specs: ClassVar[Options] = {
        "long": LONG,
        "greens": Whole("green dice each player holds (default 45)", 1, 45),
        "stuck": YesNo("yes: an angel who cannot jump at her turn is caught (default no: she passes)"),
    }
    house_rules = (
        "Start (figure lost): the three 4-die pyramids have their tops at (4, 3, 0), (0, 4, 3) and (3, 0, 4), two "
        "base dice on an edge of the plate; angel and devil are drawn into empty base funnels. Caught (figure "
        "lost): the devil rests on the angel; an angel who cannot jump passes (option stuck=yes: she is caught). A "
        "player who passes sets a green die aside: the green dice run out for a player who cannot jump too."
    )
    colours = ("gold", "red")
    PYRAMIDS: ClassVar[tuple[Slot, ...]] = ((4, 3, 0), (0, 4, 3), (3, 0, 4))

    def setup(self) -> None:
        self.long = self.option("long", True)
        self.greens = [self.option("greens", 45)] * 2
        self.stuck_is_caught = self.option("stuck", False)
        cells = {s: Cell("black", self.draw_orientation()) for a in self.PYRAMIDS for s in geometry.small_pyramid(4, a)}
        empty = [s for s in geometry.BASE_SLOTS if s not in cells]
        angel, devil = (empty[int(n)] for n in self.rng.choice(len(empty), 2, replace=False))
        cells[angel] = Cell("gold", self.draw_orientation())
        cells[devil] = Cell("red", self.draw_orientation())
        self.state = PyramidState(cells)
        self.vacated: Slot | None = None
        self.passed = [False, False]

    def die(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> Slot | None:
        """Where ``player``'s die stands."""
        found = self.own(player, cells)
        return found[0] if found else None

    def legal(self) -> list[Action]:
        if self.vacated is not None:
            return [Place(self.vacated, "green")]
        return list(self.jumps(self.to_move)) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Move) and self.greens[player] > 0:
            self.vacated = action.steps[0][0]
            return
        if isinstance(action, Place) or isinstance(action, Pass) and self.greens[player] > 0:
            self.greens[player] -= 1  # set into the funnel left, or set aside by a player who cannot jump
        self.vacated = None
        self.passed[player] = isinstance(action, Pass)
        self.to_move = self.next_player()

    def caught(self) -> bool:
        """Whether the devil has caught the angel: he rests on her, or she cannot jump at her turn."""
        angel, devil = self.die(0), self.die(1)
        if angel is None or devil is None:
            return False
        if rests_on(devil, angel):
            return True
        return self.stuck_is_caught and self.to_move == 0 and self.vacated is None and not self.jumps(0)

    def scores(self) -> tuple[float, ...]:
        if self.caught():
            return (0.0, 1.0)
        return (1.0, 0.0) if self.used_up() or all(self.passed) else (0.0, 0.0)

    def used_up(self) -> bool:
        """Whether every green die is used: the devil's last one too (he moves second)."""
        return sum(self.greens) == 0 and self.vacated is None

    def ending(self, reason: Termination) -> str:
        if reason is Termination.ALL_PLACED:
            return "the last green die is used: the angel has escaped"
        if reason is Termination.GOAL_REACHED:
            return "the devil has caught the angel"
        return super().ending(reason)

    def termination(self) -> Termination | None:
        if self.caught():
            return Termination.GOAL_REACHED
        if self.used_up():
            return Termination.ALL_PLACED
        if all(self.passed):
            return Termination.BLOCKED
        return None

    def room(self, cells: set[Slot], angel: Slot) -> int:
        """How many jumps the angel in ``angel`` has among the dice in ``cells``."""
        return len(jump_targets(cells, angel, self.long))

    def reply(self, cells: set[Slot], angel: Slot, devil: Slot) -> float:
        """The angel's outlook after the devil's best jump from ``devil``: her room, or -1000 if caught."""
        worst = float(self.room(cells, angel)) or -1000.0
        for target in jump_targets(cells, devil, self.long):
            if rests_on(target, angel):
                return -1000.0
            after = cells - {devil} | {target, devil}  # the green die fills the funnel he left
            room = self.room(after, angel)
            worst = min(worst, -1000.0 if room == 0 else room + 0.2 * move_length(angel, target))
        return worst

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return 0.0
        (source, target), *_ = action.steps
        angel, devil = self.die(0), self.die(1)
        assert angel is not None and devil is not None
        cells = set(self.state) - {source} | {target, source}  # with the green die in the funnel left
        if self.to_move == 0:
            return self.reply(cells, target, devil)
        if rests_on(target, angel):
            return 1000.0
        room = self.room(cells, angel)
        return 1000.0 if room == 0 else -room - 0.3 * move_length(angel, target)
