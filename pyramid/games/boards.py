"""Board games on the plate (rule book 45 to 54): dice stand in the 45 base funnels and move between them.

Rules layer only (no physics). Neighbours and rows are ``pyramid.geometry``'s; a move is a ``Move``
(a hand lifts the die and sets it down, faces kept) and a capture a ``Remove`` by the capturing
player right after it, so physical play carries out and reads back every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot
from pyramid.rules import PLAYER_COLOURS, Action, Game, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.state import Cell, PyramidState

BASE = frozenset(geometry.BASE_SLOTS)


def on_edge(slot: Slot) -> bool:
    """Whether the base funnel ``slot`` lies on an edge of the plate."""
    return min(slot) == 0


def step(slot: Slot, direction: Slot, times: int = 1) -> Slot:
    """``slot`` moved ``times`` neighbour steps along ``direction`` (may leave the plate)."""
    return (slot[0] + times * direction[0], slot[1] + times * direction[1], slot[2] + times * direction[2])


def on_plate(slot: Slot) -> bool:
    """Whether ``slot`` is one of the 45 base funnels."""
    return slot in BASE


class PlateGame(Game):
    """What the plate games share: dice owned by colour, steps and straight jumps, captures to carry out."""

    colours: tuple[Colour, ...] = ()

    def owner(self, slot: Slot, cells: Mapping[Slot, Cell] | None = None) -> Seat | None:
        """The player whose colour the die in ``slot`` has, or None."""
        cell = (self.state if cells is None else cells).get(slot)
        if cell is None or cell.colour not in self.colours:
            return None
        return self.colours.index(cell.colour)

    def own(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> list[Slot]:
        """The base funnels holding ``player``'s dice, in slot order."""
        state = self.state if cells is None else cells
        return [s for s in geometry.BASE_SLOTS if self.owner(s, state) == player]

    @staticmethod
    def move(source: Slot, target: Slot, verb: str = "move") -> Move:
        """The die in ``source`` carried to ``target``."""
        return Move(((source, target),), name=f"{verb} {source} to {target}")

    def steps_from(self, source: Slot, cells: Mapping[Slot, Cell] | None = None) -> list[Slot]:
        """The empty neighbouring funnels of ``source``."""
        state = self.state if cells is None else cells
        return [n for n in geometry.neighbours(source) if n not in state]

    def jumps_from(self, source: Slot, cells: Mapping[Slot, Cell] | None = None) -> list[tuple[Slot, Slot]]:
        """(jumped, target): the straight jumps of ``source`` over a neighbouring die into the empty funnel beyond."""
        state = self.state if cells is None else cells
        out = []
        for d in geometry.NEIGHBOUR_STEPS:
            over, target = step(source, d), step(source, d, 2)
            if over in state and on_plate(target) and target not in state:
                out.append((over, target))
        return out


def is_jump(move: Move) -> bool:
    """Whether ``move`` carries its die further than a neighbouring funnel (a jump over a die)."""
    (source, target), *_ = move.steps
    return target not in geometry.neighbours(source)


def sandwiched(cells: Mapping[Slot, Cell], slot: Slot) -> bool:
    """Whether the die in ``slot`` lies between two dice of one other colour along a row."""
    colour = cells[slot].colour
    for d in geometry.ROW_DIRECTIONS:
        a, b = cells.get(step(slot, d)), cells.get(step(slot, d, -1))
        if a is not None and b is not None and a.colour == b.colour != colour:
            return True
    return False


class Sandwich(PlateGame):
    """Sandwich (no. 45).

    Setup: each player holds 6 dice of their colour (5 with three players): red, green, black.
    Turn: while anyone holds dice, place one of yours in an empty base funnel. Then move one of your
    dice into a neighbouring empty funnel, or jump it straight over one neighbouring die (any
    colour) into the empty funnel beyond; no chains of jumps.
    Captures: a die between two dice of one other colour along a row is sandwiched. After a placing
    or a move, every die of another player that the moved die sandwiches is captured, then the
    moved die itself if it stands in a sandwich; the mover takes the captured dice off the plate
    (one ``Remove`` each, forced, before the turn passes).
    Third phase: once a player is down to two dice, every player makes one more move; from then on
    each turn is two moves (using one die or two; the second may be a pass).
    Legal actions: placings, then steps and jumps; a pass only when you cannot move.
    Scoring: your dice still in play.
    End: when a player is down to one die: most dice win. Everyone passing in a row, or the turn
    limit (600 actions), ends it too.
    Interpretation: adjacent means the six neighbouring funnels, straight means along one of the
    three rows through the funnel; a die is sandwiched only between two dice of one colour (with
    three players two dice of two opponents do not catch); captures work in the placing phase too.
    """

    info = GameInfo(45, "Sandwich", "T", (2, 3), "6 dice each (5 each with three players)", (), 456)
    house_rules = (
        "Adjacent: the six neighbouring funnels; straight: along one of the three rows. Sandwiched: between two "
        "dice of one other colour. The mover's captures first, then the moved die if it stands in a sandwich. "
        "Third phase: two moves a turn, the second may be a pass."
    )
    max_moves: ClassVar[int] = 600

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.hand = [6 if self.players == 2 else 5] * self.players
        self.captures: list[Slot] = []
        self.singles_left: int | None = None  # single moves before the third phase, once counting
        self.second = False  # the player makes the second move of a third-phase turn
        self.passes = 0

    def dice(self, player: Seat) -> int:
        """``player``'s dice in play: on the plate and in hand."""
        return len(self.own(player)) + self.hand[player]

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.hand)

    def legal(self) -> list[Action]:
        me = self.to_move
        if self.captures:
            return [Remove(self.captures[0])]
        if self.hand[me]:
            return [Place(s, self.colours[me]) for s in geometry.BASE_SLOTS if s not in self.state]
        moves: list[Action] = []
        for s in self.own(me):
            moves += [self.move(s, t) for t in self.steps_from(s)]
            moves += [self.move(s, t, "jump") for _, t in self.jumps_from(s)]
        return moves + [Pass()] if self.second or not moves else moves

    def captured_by(self, cells: Mapping[Slot, Cell], moved: Slot) -> list[Slot]:
        """The dice ``moved`` (just placed or moved) captures, then itself if it stands in a sandwich."""
        colour = cells[moved].colour
        out = []
        for d in geometry.NEIGHBOUR_STEPS:
            victim, far = step(moved, d), step(moved, d, 2)
            v, f = cells.get(victim), cells.get(far)
            if v is not None and f is not None and f.colour == colour != v.colour:
                out.append(victim)
        rest = {s: c for s, c in cells.items() if s not in out}
        if sandwiched(rest, moved):
            out.append(moved)
        return sorted(set(out), key=geometry.SLOT_INDEX.__getitem__)

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.events.append(f"{before[action.slot].colour} die at {action.slot} is captured")
            self.captures.remove(action.slot)
        elif isinstance(action, Place | Move):
            if isinstance(action, Place):
                self.hand[player] -= 1
            moved = action.slot if isinstance(action, Place) else action.steps[0][1]
            self.captures = [s for s in self.captured_by(self.state.cells, moved) if s in self.state]
            self.passes = 0
        elif not self.second:
            self.passes += 1
        if self.captures:
            return
        if self.singles_left == 0 and not self.second:
            self.second = True  # the third phase: the same player moves again
            return
        self.second = False
        if self.singles_left is not None:
            self.singles_left = max(0, self.singles_left - 1)
        elif not any(self.hand) and min(self.dice(p) for p in range(self.players)) <= 2:
            self.singles_left = self.players
            self.events.append("a player is down to two dice: one more move each, then two moves a turn")
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.dice(p)) for p in range(self.players))

    def termination(self) -> Termination | None:
        if self.captures:
            return None
        if min(self.dice(p) for p in range(self.players)) <= 1:
            return Termination.PLAYERS_OUT
        if self.passes >= self.players:
            return Termination.BLOCKED
        return None

    def threats(self, cells: Mapping[Slot, Cell], player: Seat) -> int:
        """Dice of ``player``'s with an enemy die on one side along a row and an empty funnel on the other."""
        count = 0
        for s in self.own(player, cells):
            for d in geometry.NEIGHBOUR_STEPS:
                a, b = step(s, d), step(s, d, -1)
                enemy = self.owner(a, cells)
                count += enemy is not None and enemy != player and on_plate(b) and b not in cells
        return count

    def heuristic(self, action: Action) -> float | None:
        me = self.to_move
        cells = dict(self.state.cells)
        if isinstance(action, Place):
            cells[action.slot] = Cell(action.colour, (1, 2, 3))
            moved = action.slot
        elif not isinstance(action, Move):
            return 0.0
        else:
            (source, moved), *_ = action.steps
            cells[moved] = cells.pop(source)
        lost = self.captured_by(cells, moved)
        for s in lost:
            cells.pop(s)
        mine = len(self.own(me, cells)) + self.hand[me] - (1 if isinstance(action, Place) else 0)
        theirs = max(len(self.own(p, cells)) + self.hand[p] for p in range(self.players) if p != me)
        others = sum(self.threats(cells, p) for p in range(self.players) if p != me)
        return 10.0 * (mine - theirs) + 0.5 * others - 0.7 * self.threats(cells, me)


# --- Reducto ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Jump(Remove):
    """The die in ``slot`` jumps to ``target`` (along a row, by the face pointing that way) and is kept."""

    target: Slot = (0, 0, 0)

    def __str__(self) -> str:
        return f"jump {self.slot} to {self.target} and keep it"


@dataclass(frozen=True)
class Reroll(Remove):
    """Lift the die in ``slot`` and roll it; it goes back into the same funnel as it lands (a ``Place``)."""

    def __str__(self) -> str:
        return f"roll {self.slot} and set it back"


def row_jumps(cells: Mapping[Slot, Cell], source: Slot) -> list[Slot]:
    """Where the die in ``source`` can jump: along each row by the face pointing that way (2 or more),
    over at least one die, to an empty funnel of the plate."""
    up = cells[source].up
    if up is None:
        return []
    out = []
    for d in geometry.NEIGHBOUR_STEPS:
        n = geometry.pointing_face(up, d)
        target = step(source, d, n)
        crossed = [step(source, d, m) for m in range(1, n)]
        if n >= 2 and on_plate(target) and target not in cells and any(c in cells for c in crossed):
            out.append(target)
    return out


class Reducto(Game):
    """Reducto (no. 46).

    Setup: 15 green, 15 red and 15 black dice, mixed, stand in the 45 base funnels as they happen to
    fall; one die drawn at random is taken off (nobody keeps it).
    Turn: jump one die, any colour, along a row by the number of the face pointing that way (the face
    along +a points along the rows of constant a, ``geometry.pointing_face``): a 2 lands in the
    second funnel, a 3 in the third; a 1 cannot jump. The jump crosses at least one die, ends in an
    empty funnel of the plate, and the die is then taken off and kept. If you cannot jump, lift a die
    of your choice, roll it and set it back in its funnel as it lands (a ``Reroll`` and then a
    ``Place``, forced); with 15 dice or fewer on the plate you may instead take any one die and keep it.
    With 5 dice or fewer on the plate at the start of your turn, the turn is up to three actions:
    jumps, or a roll first and then jumps; after the first you may stop (pass).
    Legal actions: as above.
    Scoring: the dice you kept: green 3, red 2, black 1.
    End: when one die is left on the plate (or none); the highest score wins. The turn limit (1500
    actions) ends a game of endless rolling.
    Interpretation: the rule for 15 dice is cut off after "each player that cannot jump immediately
    may": read as "take one die and keep it". "Up to three moves with the same die" cannot be kept
    literally, since a die that jumps is kept: read as up to three jumps in the turn.
    """

    info = GameInfo(46, "Reducto", "D", (2, 3, 4, 5, 6), "15 green, 15 red, 15 black dice", (), 468)
    house_rules = (
        "A face along +a points along the rows of constant a. 15 dice or fewer (text cut off): a player who cannot "
        "jump may take one die and keep it instead of rolling one. 5 dice or fewer: up to three actions a turn, "
        "jumps, or a roll first and then jumps."
    )
    max_moves: ClassVar[int] = 1500
    VALUES: ClassVar[dict[Colour, int]] = {"green": 3, "red": 2, "black": 1}

    def setup(self) -> None:
        colours = [c for c in ("green", "red", "black") for _ in range(15)]
        order = self.rng.permutation(45)
        cells = {geometry.BASE_SLOTS[int(n)]: Cell(colours[m], self.draw_orientation()) for m, n in enumerate(order)}
        gone = geometry.BASE_SLOTS[int(self.rng.integers(45))]
        self.events.append(f"the {cells.pop(gone).colour} die at {gone} is taken off at random")
        self.state = PyramidState(cells)
        self.kept = [0] * self.players
        self.returning: tuple[Slot, Colour] | None = None  # a rolled die to set back: its funnel and colour
        self.done = 0  # actions made this turn
        self.endgame = False  # this turn is up to three actions

    def jumps(self) -> list[Action]:
        """Every jump on the plate now."""
        cells = self.state.cells
        return [Jump(s, t) for s in geometry.BASE_SLOTS if s in cells for t in row_jumps(cells, s)]

    def legal(self) -> list[Action]:
        if self.returning is not None:
            return [Place(*self.returning)]
        jumps = self.jumps()
        if self.done:
            return [*jumps, Pass()]
        dice = [s for s in geometry.BASE_SLOTS if s in self.state]
        if jumps and not self.endgame:
            return jumps
        takes: list[Action] = [Remove(s) for s in dice] if len(dice) <= 15 and not jumps else []
        return [*jumps, *(Reroll(s) for s in dice), *takes]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Reroll):
            self.returning = (action.slot, before[action.slot].colour)
            return
        if isinstance(action, Place):
            self.returning = None
        elif isinstance(action, Remove):
            value = self.VALUES.get(before[action.slot].colour, 0)
            self.kept[player] += value
            self.events.append(f"player {player} keeps the {before[action.slot].colour} die ({value})")
        self.done += 1
        taken = type(action) is Remove  # a die taken without a jump ends the turn
        turn_over = not self.endgame or isinstance(action, Pass) or taken or self.done >= 3 or len(self.state) <= 1
        if turn_over:
            self.to_move = self.next_player(player)
            self.done = 0
            self.endgame = len(self.state) <= 5

    def scores(self) -> tuple[float, ...]:
        return tuple(float(k) for k in self.kept)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_CLEARED if len(self.state) <= 1 and self.returning is None else None

    def best_jump(self, cells: Mapping[Slot, Cell]) -> int:
        """The most a player could keep with one jump among ``cells``."""
        return max(
            (self.VALUES.get(cells[s].colour, 0) for s in geometry.BASE_SLOTS if s in cells and row_jumps(cells, s)),
            default=0,
        )

    def heuristic(self, action: Action) -> float | None:
        cells = dict(self.state.cells)
        if isinstance(action, Place | Pass):
            return 0.0
        if isinstance(action, Reroll):
            return -0.5 * self.VALUES.get(cells[action.slot].colour, 0)
        if isinstance(action, Remove):
            value = self.VALUES.get(cells.pop(action.slot).colour, 0)
            return value - 0.6 * self.best_jump(cells)
        return None


# --- Smuggling --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Breach(Remove):
    """A smuggler comes through at the green die in ``slot``: the green die is taken off (a smuggler moves in next)."""

    def __str__(self) -> str:
        return f"break through at {self.slot}: the green die is taken off"


class Smuggling(PlateGame):
    """Smuggling (no. 49), by Harald Markowski.

    Setup: 7 green dice in the funnels of the plate's edge i = 0, its corners empty (the border); 2
    red customs officers in the next row (i = 1), cutting it into three runs of two empty funnels;
    10 black smugglers in the triangle of side 4 in the middle of the rest (i from 3 to 6, j and k
    at least 1), surrounded by empty funnels. Player 0 plays the smugglers and moves first, player 1
    the customs.
    Turn: move one of your dice along a right angle into a neighbouring empty funnel. Smugglers never
    enter a funnel on the plate's edges, except by breaking through: a smuggler next to a green die
    replaces it (a ``Breach`` takes the green die off, then the smuggler moves in); a smuggler through
    stays there. Customs capture instead: a jump straight over a neighbouring smuggler into the empty
    funnel beyond, the smuggler taken off (a ``Remove``, forced); more jumps with the same officer
    may follow in the turn (or a pass).
    Legal actions: as above; a pass only when you cannot move.
    Scoring: smugglers through (player 0) and smugglers captured (player 1).
    End: the smugglers win when 4 are through; the customs when 7 are captured, when both sides pass
    in a row, or at the turn limit (400 actions): they held the border.
    Interpretation: "along a right angle" is the jump of game 55 within one layer, the step to a
    neighbouring funnel (the L of arms 1 and 1 on the cube lattice); a smuggler breaks through from
    the row next to the border. The customs' win and the first mover are not in the text.
    """

    info = GameInfo(49, "Smuggling", "T", (2,), "7 green, 2 red, 10 black dice", (), 500)
    house_rules = (
        "A move along a right angle is a step to a neighbouring funnel. Smugglers move first; a smuggler next to a "
        "green die replaces it (the green die taken off, then the smuggler moves in). Customs win with 7 smugglers "
        "captured, or when nobody can move, or at the turn limit."
    )
    max_moves: ClassVar[int] = 400
    colours = ("black", "red")
    SMUGGLERS, CUSTOMS = 0, 1

    def setup(self) -> None:
        border = [(0, j, 8 - j) for j in range(1, 8)]
        customs = [(1, 2, 5), (1, 5, 2)]
        smugglers = [s for s in geometry.BASE_SLOTS if 3 <= s[0] <= 6 and min(s[1], s[2]) >= 1]
        dice = [("green", border), ("red", customs), ("black", smugglers)]
        self.state = PyramidState({s: Cell(c, self.draw_orientation()) for c, slots in dice for s in slots})
        self.through = 0
        self.captured = 0
        self.pending: list[Action] = []  # what must follow in this turn (a smuggler moving in, a capture)
        self.chaser: Slot | None = None  # the officer that captured this turn and may jump on
        self.passes = 0

    def smuggler_steps(self, source: Slot) -> list[Slot]:
        """The empty funnels off the edges next to the smuggler in ``source`` (none once it is through)."""
        return [] if source[0] == 0 else [n for n in self.steps_from(source) if not on_edge(n)]

    def captures_from(self, source: Slot) -> list[Move]:
        """The officer in ``source``'s straight jumps over a smuggler still on its way."""
        return [
            self.move(source, target, "capture with")
            for over, target in self.jumps_from(source)
            if self.owner(over) == self.SMUGGLERS and over[0] > 0
        ]

    def legal(self) -> list[Action]:
        if self.pending:
            return list(self.pending)
        if self.chaser is not None:
            return [*self.captures_from(self.chaser), Pass()]
        moves: list[Action] = []
        if self.to_move == self.SMUGGLERS:
            for s in self.own(self.SMUGGLERS):
                moves += [self.move(s, t) for t in self.smuggler_steps(s)]
            greens = [
                s for s in geometry.BASE_SLOTS if s[0] == 0 and s in self.state and self.state[s].colour == "green"
            ]
            moves += [
                Breach(g)
                for g in greens
                if any(self.owner(n) == self.SMUGGLERS and n[0] == 1 for n in geometry.neighbours(g))
            ]
        else:
            for s in self.own(self.CUSTOMS):
                moves += [self.move(s, t) for t in self.steps_from(s)]
                moves += self.captures_from(s)
        return moves or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        self.pending = []
        if isinstance(action, Breach):
            self.pending = [
                self.move(n, action.slot, "smuggle")
                for n in geometry.neighbours(action.slot)
                if self.owner(n) == self.SMUGGLERS and n[0] == 1
            ]
            return
        if isinstance(action, Move) and player == self.CUSTOMS and is_jump(action):
            (source, target), *_ = action.steps
            over = ((source[0] + target[0]) // 2, (source[1] + target[1]) // 2, (source[2] + target[2]) // 2)
            self.pending = [Remove(over)]
            self.chaser = target
            return
        if isinstance(action, Remove):
            self.captured += 1
            self.events.append(f"the smuggler at {action.slot} is captured ({self.captured} in all)")
            if self.captures_from(self.chaser or action.slot):
                return  # the officer may jump on
        if isinstance(action, Move) and action.steps[0][1][0] == 0 and player == self.SMUGGLERS:
            self.through += 1
            self.events.append(f"a smuggler is through ({self.through} in all)")
        self.passes = self.passes + 1 if isinstance(action, Pass) and self.chaser is None else 0
        self.chaser = None
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return (float(self.through), float(self.captured))

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        return (self.SMUGGLERS,) if self.through >= 4 else (self.CUSTOMS,)

    def advantage(self, player: Seat) -> float:
        lead = self.through / 4 - self.captured / 7
        return lead if player == self.SMUGGLERS else -lead

    def termination(self) -> Termination | None:
        if self.pending:
            return None
        if self.through >= 4:
            return Termination.GOAL_REACHED
        if self.captured >= 7:
            return Termination.PLAYERS_OUT
        return Termination.BLOCKED if self.passes >= 2 else None

    def danger(self, cells: Mapping[Slot, Cell]) -> int:
        """Smugglers on their way that an officer could capture next."""
        count = 0
        for s in self.own(self.CUSTOMS, cells):
            for over, _ in self.jumps_from(s, cells):
                count += self.owner(over, cells) == self.SMUGGLERS and over[0] > 0
        return count

    def outlook(self, cells: Mapping[Slot, Cell], through: int, captured: int) -> float:
        """How well the smugglers stand in ``cells``: through, captured, danger, nearness to the border."""
        on_way = [s for s in self.own(self.SMUGGLERS, cells) if s[0] > 0]
        nearness = -sum(s[0] for s in sorted(on_way)[:4])
        return 10.0 * through - 6.0 * captured - 4.0 * self.danger(cells) + 0.5 * nearness

    def heuristic(self, action: Action) -> float | None:
        me = self.to_move
        cells = dict(self.state.cells)
        through, captured = self.through, self.captured
        if isinstance(action, Breach):
            return 100.0
        if isinstance(action, Move):
            (source, target), *_ = action.steps
            cells[target] = cells.pop(source)
            if is_jump(action):
                cells.pop(((source[0] + target[0]) // 2, (source[1] + target[1]) // 2, (source[2] + target[2]) // 2))
                captured += 1
            through += me == self.SMUGGLERS and target[0] == 0
        elif not isinstance(action, Pass):
            return 0.0
        value = self.outlook(cells, through, captured)
        return value if me == self.SMUGGLERS else -value


# --- Falling Rocks ----------------------------------------------------------------------------

# Around a funnel the six neighbours alternate: an attack move over a ridge, an escape move down one.
ATTACK_STEPS: tuple[Slot, ...] = ((1, -1, 0), (0, 1, -1), (-1, 0, 1))
ESCAPE_STEPS: tuple[Slot, ...] = ((-1, 1, 0), (0, -1, 1), (1, 0, -1))


class FallingRocks(PlateGame):
    """Falling Rocks (no. 54), by Jochen Baurmeister, Peter Pallat and Reinhold Wittig.

    Setup: each player's 6 dice stand in the 6 funnels of their corner (the corner triangle of side
    3): player 0 red at corner a, 1 green at b, 2 black at c.
    Turn: move one die to a neighbouring funnel. The six neighbours alternate around a funnel: three
    are reached by an attack move (up a ridge and down into the funnel beyond: ``ATTACK_STEPS``),
    three by an escape move (down a ridge: ``ESCAPE_STEPS``). An escape needs an empty funnel; an
    attack may end in an empty funnel or on an enemy die, which is captured and set into an empty
    start funnel of its owner, of the attacker's choice (one ``Move`` of both dice). Dice on their
    own finish line neither capture nor are captured; they only move sideways along it.
    Legal actions: those moves; a pass only when you have none.
    Scoring: your dice on your finish line: the base funnels of the edge opposite your corner.
    End: the first player with all 6 dice on the finish line wins. The turn limit (900 actions)
    ends a stuck game: most dice on the finish line win.
    Interpretation: the figure of the "A" and "F" funnels is lost; the moves alternate around the
    funnel as above (every player has one attack and one escape straight towards their finish). An
    attack is not possible where the victim's start funnels are all taken.
    """

    info = GameInfo(54, "Falling Rocks", "T", (3,), "6 red, 6 green, 6 black dice", (), 540)
    house_rules = (
        "The A/F figure is lost: the neighbours (1,-1,0), (0,1,-1), (-1,0,1) are attack moves, their opposites "
        "escape moves. A die on its own finish line moves only along it. No attack where the victim's start "
        "funnels are all taken."
    )
    max_moves: ClassVar[int] = 900
    colours = PLAYER_COLOURS

    def setup(self) -> None:
        self.start = [[s for s in geometry.BASE_SLOTS if s[p] >= 6] for p in range(3)]
        self.state = PyramidState(
            {s: Cell(self.colours[p], self.draw_orientation()) for p in range(3) for s in self.start[p]}
        )

    @staticmethod
    def home(slot: Slot, player: Seat) -> bool:
        """Whether ``slot`` is on ``player``'s finish line."""
        return slot[player] == 0

    def moves_of(self, player: Seat, source: Slot) -> list[Move]:
        """The moves of ``player``'s die in ``source``."""
        out = []
        if self.home(source, player):
            return [self.move(source, t) for t in self.steps_from(source) if self.home(t, player)]
        for d in ATTACK_STEPS + ESCAPE_STEPS:
            target = step(source, d)
            if not on_plate(target):
                continue
            victim = self.owner(target)
            if victim is None and target not in self.state:
                out.append(self.move(source, target, "attack" if d in ATTACK_STEPS else "escape to"))
            elif d in ATTACK_STEPS and victim is not None and victim != player and not self.home(target, victim):
                out += [
                    Move(((source, target), (target, back)), name=f"attack {source} to {target}, captured to {back}")
                    for back in self.start[victim]
                    if back not in self.state
                ]
        return out

    def legal(self) -> list[Action]:
        me = self.to_move
        moves: list[Action] = [m for s in self.own(me) for m in self.moves_of(me, s)]
        return moves or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Move) and len(action.steps) == 2:
            victim = action.steps[1][0]
            self.events.append(f"the {before[victim].colour} die at {victim} is captured to {action.steps[1][1]}")
        self.to_move = self.next_player(player)

    def arrived(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """How many of ``player``'s dice stand on their finish line."""
        return sum(self.home(s, player) for s in self.own(player, cells))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.arrived(p)) for p in range(3))

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if max(self.scores()) == 6 else None

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How far ``player``'s dice in ``cells`` have come: steps made towards the finish, arrivals."""
        mine = self.own(player, cells)
        return sum(8 - s[player] for s in mine) + 4.0 * sum(self.home(s, player) for s in mine)

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return 0.0
        me = self.to_move
        cells = dict(self.state.cells)
        lifted = [(t, cells.pop(s)) for s, t in action.steps]
        cells.update(lifted)
        return self.progress(cells, me) - max(self.progress(cells, p) for p in range(3) if p != me) / 2


# --- Witches' Dance ---------------------------------------------------------------------------


PAIRS = ((4, 2, 2), (5, 1, 2), (3, 1, 4), (4, 0, 4), (6, 2, 0))  # Witches' Dance: black dice mirrored i <-> j


class WitchesDance(PlateGame):
    """Witches' Dance (no. 48), by Heike Kaufmann.

    Setup: 13 black dice in the pattern ``PATTERN`` (mirror-symmetric between the two start
    corners); player 0's red moving die in the corner funnel a (8, 0, 0), player 1's green one in
    corner b (0, 8, 0). Player 0 starts.
    Turn: your moving die steps into a neighbouring empty funnel, or jumps straight over one
    neighbouring die (any colour) into the empty funnel beyond; then a filler die of your colour is
    set into the funnel it left (a ``Place``, forced). Only the moving dice ever move.
    Legal actions: those steps and jumps, then the filler; a pass when your moving die is stuck.
    Scoring: your filler dice on the plate.
    End: when neither moving die can move; most fillers win.
    Interpretation: the figure of the 13 black dice is lost: ``PATTERN`` is three dice on the mirror
    line between the start corners and five mirrored pairs, keeping the edge between the start
    corners open at its middle. The end is not in the text: a stuck player passes and the other
    goes on alone, which is what makes walling the other in (the text's tactic) pay; ending at the
    first stuck player would give the starting player the win or a tie in every game.
    """

    info = GameInfo(48, "Witches' Dance", "T", (2,), "13 black dice, red and green movers and fillers", (), 495)
    house_rules = (
        "The 13 black dice (figure lost): (1,1,6), (2,2,4), (3,3,2) on the mirror line and the pairs (4,2,2), (5,1,2), "
        "(3,1,4), (4,0,4), (6,2,0) with their mirror images (i and j swapped). A stuck player passes, the other "
        "goes on; the game ends when neither can move."
    )
    colours = ("red", "green")
    PATTERN: ClassVar[tuple[Slot, ...]] = (
        (1, 1, 6),
        (2, 2, 4),
        (3, 3, 2),
        *(
            (i, j, k)
            for a, b, k in ((4, 2, 2), (5, 1, 2), (3, 1, 4), (4, 0, 4), (6, 2, 0))
            for i, j in ((a, b), (b, a))
        ),
    )
    STARTS: ClassVar[tuple[Slot, Slot]] = ((8, 0, 0), (0, 8, 0))

    def setup(self) -> None:
        cells = {s: Cell("black", self.draw_orientation()) for s in self.PATTERN}
        for p, s in enumerate(self.STARTS):
            cells[s] = Cell(self.colours[p], self.draw_orientation())
        self.state = PyramidState(cells)
        self.movers = list(self.STARTS)
        self.fillers = [0, 0]
        self.vacated: Slot | None = None

    def mover_moves(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> list[Move]:
        """The steps and jumps of ``player``'s moving die."""
        source = self.movers[player]
        return [self.move(source, t) for t in self.steps_from(source, cells)] + [
            self.move(source, t, "jump") for _, t in self.jumps_from(source, cells)
        ]

    def legal(self) -> list[Action]:
        if self.vacated is not None:
            return [Place(self.vacated, self.colours[self.to_move])]
        return list(self.mover_moves(self.to_move)) or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Move):
            self.vacated, self.movers[player] = action.steps[0]
            return
        if isinstance(action, Place):
            self.fillers[player] += 1
        self.vacated = None
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return (float(self.fillers[0]), float(self.fillers[1]))

    def termination(self) -> Termination | None:
        if self.vacated is None and not any(self.mover_moves(p) for p in (0, 1)):
            return Termination.BLOCKED
        return None

    def distances(self, cells: Mapping[Slot, Cell], player: Seat) -> dict[Slot, int]:
        """Moves ``player``'s moving die needs to each empty funnel it can reach among ``cells``."""
        found = {self.movers[player]: 0}
        frontier = [self.movers[player]]
        while frontier:
            later = []
            for here in frontier:
                for t in [*self.steps_from(here, cells), *(t for _, t in self.jumps_from(here, cells))]:
                    if t not in found:
                        found[t] = found[here] + 1
                        later.append(t)
            frontier = later
        return found

    def territory(self, cells: Mapping[Slot, Cell], player: Seat) -> int:
        """Empty funnels ``player``'s moving die reaches sooner than the other's, minus those it reaches later."""
        mine, theirs = self.distances(cells, player), self.distances(cells, 1 - player)
        funnels = (set(mine) | set(theirs)) - set(self.movers)
        far = len(geometry.BASE_SLOTS)
        return sum((mine.get(s, far) < theirs.get(s, far)) - (theirs.get(s, far) < mine.get(s, far)) for s in funnels)

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return 0.0
        me = self.to_move
        (source, target), *_ = action.steps
        cells = dict(self.state.cells)
        cells[target] = cells[source]  # the mover moves on, a filler takes its funnel
        saved = self.movers[me]
        self.movers[me] = target
        try:
            territory = self.territory(cells, me)
            mobility = len(self.mover_moves(me, cells)) - len(self.mover_moves(1 - me, cells))
        finally:
            self.movers[me] = saved
        return territory + 0.5 * mobility


# --- Steps to the Throne ----------------------------------------------------------------------


@dataclass(frozen=True)
class Capture(Remove):
    """The black die in ``slot`` is captured: taken off, the green die moves in next."""

    def __str__(self) -> str:
        return f"capture the black die at {self.slot}"


class StepsToTheThrone(PlateGame):
    """Steps to the Throne (no. 51), by Carsten Volle.

    Setup: 3 red dice in the corner triangle of corner a ((8, 0, 0), (7, 1, 0), (7, 0, 1)): the goal
    is the funnel on top of them, (7, 0, 0). The green die (player 0, the runner) stands in the
    middle funnel of the opposite edge, (0, 4, 4); player 1 (the blocker) holds 41 black dice.
    Turn: the runner's turn starts with a roll of the blue die (drawn by the game): it shows three
    numbers, each pointing along one row family (``geometry.pointing_face``), both ways. The green die
    moves exactly that many funnels along such a row, staying on the plate and not over a black or
    red die; landing on a black die captures it (a ``Capture`` takes it off, then the green die moves
    in). From the row next to the goal (i = 6) the green die enters the goal when the number pointing
    along that row is even in an outer funnel, odd in the central one. Then the blocker sets a black
    die into a funnel next to the green die. If the green die cannot move, it passes and the blocker
    takes one black die back instead of placing one; a blocker with no black dice passes.
    Legal actions: as above.
    Scoring: 1 to the winner.
    End: the runner wins on entering the goal; the blocker when the runner has not entered within the
    turn limit (300 actions) or neither can act.
    Interpretation: the goal funnel is the one on top of the three red dice (the row next to it has
    one central and two outer funnels, as the text says); "roll an even number" is read as the
    number pointing along the row the green die stands in. The blue die is rolled by the game, not
    in the world.
    """

    info = GameInfo(51, "Steps to the Throne", "T", (2,), "3 red, 1 green, 1 blue, 41 black dice", ("throne",), 514)
    house_rules = (
        "The goal is the funnel on top of the 3 red dice; from the row next to it the green die enters when the "
        "blue die's number pointing along that row is even (outer funnels) or odd (central funnel). Without black "
        "dice the blocker passes. The blocker wins at the turn limit."
    )
    max_moves: ClassVar[int] = 300
    colours = ("green", "black")
    GOAL: ClassVar[Slot] = (7, 0, 0)
    RUNNER, BLOCKER = 0, 1

    def setup(self) -> None:
        self.red = [(8, 0, 0), (7, 1, 0), (7, 0, 1)]
        cells = {s: Cell("red", self.draw_orientation()) for s in self.red}
        cells[(0, 4, 4)] = Cell("green", self.draw_orientation())
        self.state = PyramidState(cells)
        self.runner: Slot = (0, 4, 4)
        self.blacks = 41
        self.entered = False
        self.stuck = False
        self.pending: list[Action] = []
        self.blue = self.roll_blue()

    def roll_blue(self) -> geometry.UpFaces:
        """The blue die rolled onto the plate: its three numbers, along +i, +j, +k."""
        up = self.draw_orientation()
        self.events.append(f"the blue die shows {up[0]}, {up[1]}, {up[2]}")
        return up

    def runs(self) -> list[Action]:
        """The green die's moves with the blue die as rolled: along a row, or into the goal."""
        out: list[Action] = []
        source = self.runner
        for d in geometry.NEIGHBOUR_STEPS:
            n = geometry.pointing_face(self.blue, d)
            path = [step(source, d, m) for m in range(1, n + 1)]
            target = path[-1]
            if not on_plate(target) or any(s in self.state for s in path[:-1]):
                continue
            if target not in self.state:
                out.append(self.move(source, target))
            elif self.state[target].colour == "black":
                out.append(Capture(target))
        if source[0] == 6:
            n = geometry.pointing_face(self.blue, geometry.ROW_DIRECTIONS[0])
            if n % 2 == (1 if source == (6, 1, 1) else 0):
                out.append(self.move(source, self.GOAL, "enter the goal from"))
        return out

    def legal(self) -> list[Action]:
        if self.pending:
            return list(self.pending)
        if self.to_move == self.RUNNER:
            return self.runs() or [Pass()]
        if self.stuck or not self.blacks:
            return [Pass()]
        return [Place(s, "black") for s in self.steps_from(self.runner)] or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Capture):
            self.pending = [self.move(self.runner, action.slot)]
            return
        self.pending = []
        if player == self.RUNNER:
            if isinstance(action, Move):
                self.runner = action.steps[0][1]
                self.entered = self.runner == self.GOAL
            self.stuck = isinstance(action, Pass)
        else:
            if isinstance(action, Place):
                self.blacks -= 1
            elif self.stuck:
                self.blacks += 1  # a die back for the one the blocker could not place
            self.blue = self.roll_blue()
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        return (1.0, 0.0) if self.entered else (0.0, 0.0)

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        return (self.RUNNER,) if self.entered else (self.BLOCKER,)

    def advantage(self, player: Seat) -> float:
        lead = 2.0 if self.entered else self.runner[0] / 6 - 0.5
        return lead if player == self.RUNNER else -lead

    def termination(self) -> Termination | None:
        if self.entered:
            return Termination.GOAL_REACHED
        if len(self.history) >= 2 and all(isinstance(a, Pass) for _, a in self.history[-2:]) and not self.blacks:
            return Termination.BLOCKED
        return None

    def heuristic(self, action: Action) -> float | None:
        if self.to_move == self.RUNNER:
            if isinstance(action, Capture):
                return action.slot[0] + 0.5
            if isinstance(action, Move):
                target = action.steps[0][1]
                return 100.0 if target == self.GOAL else target[0] + 0.1 * len(self.steps_from(target))
            return 0.0
        if isinstance(action, Place):
            return float(action.slot[0]) + (0.5 if action.slot[0] > self.runner[0] else 0.0)
        return 0.0
