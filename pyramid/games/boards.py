"""Board games on the plate (rule book 45, 46, 48): dice stand in the 45 base funnels and move between them.

Rules layer only (no physics). Neighbours and rows are ``pyramid.geometry``'s; a move is a ``Move``
(a hand lifts the die and sets it down, faces kept) and a capture a ``Remove`` by the capturing
player right after it, so physical play carries out and reads back every step. ``PlateGame`` is the
base of the games across the plate too (``pyramid.games.crossings``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.drawing import slot_label
from pyramid.geometry import Slot
from pyramid.rules import PLAYER_COLOURS, Action, Declare, Game, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.rules.options import OneOf, Options
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


# Per base funnel: (a, b) for each row direction, a the neighbour one way and b the funnel on the plate the other way.
_FLANKS: dict[Slot, tuple[tuple[Slot, Slot], ...]] = {
    s: tuple((step(s, d), step(s, d, -1)) for d in geometry.NEIGHBOUR_STEPS if on_plate(step(s, d, -1)))
    for s in geometry.BASE_SLOTS
}


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
        colour = self.colours[player]
        return [s for s in geometry.BASE_SLOTS if (cell := state.get(s)) is not None and cell.colour == colour]

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
    End: when a player is down to one die: most dice win. Everyone passing in a row ends it too. House
    rule: after 60 turns in a row without a die placed or captured, the game ends: most dice win
    (equal, they share).
    Interpretation: adjacent means the six neighbouring funnels, straight means along one of the
    three rows through the funnel; a die is sandwiched only between two dice of one colour (with
    three players two dice of two opponents do not catch); captures work in the placing phase too.
    """

    info = GameInfo(45, "Sandwich", "T", (2, 3), "6 dice each (5 each with three players)", (), 456)
    house_rules = (
        "Adjacent: the six neighbouring funnels; straight: along one of the three rows. Sandwiched: between two "
        "dice of one other colour. The mover's captures first, then the moved die if it stands in a sandwich. "
        "Third phase: two moves a turn, the second may be a pass. After 60 turns without a die placed or captured "
        "the game ends: most dice win."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 60

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

    def milestones(self) -> tuple[float, ...]:
        """Dice placed and dice lost, each player's: neither comes back."""
        start = 6 if self.players == 2 else 5
        lost = (float(start - self.dice(p)) for p in range(self.players))
        return (*(float(start - n) for n in self.hand), *lost)

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
        enemies = set(self.colours) - {self.colours[player]}
        count = 0
        for s in self.own(player, cells):
            for a, b in _FLANKS[s]:
                cell = cells.get(a)
                count += cell is not None and cell.colour in enemies and b not in cells
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

    target: Slot = field(default=(0, 0, 0), compare=False)  # one of its landings: the die is kept either way

    def __str__(self) -> str:
        return f"jump {self.slot} to {self.target} and keep it"


@dataclass(frozen=True)
class Reroll(Declare):
    """Roll the die in ``slot``: it is lifted (a ``Remove``) and set back into its funnel as it lands (a ``Place``)."""

    slot: Slot

    def __str__(self) -> str:
        return f"roll {slot_label(self.slot)} {self.slot} and set it back"


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
    of your choice, roll it and set it back in its funnel as it lands (a ``Reroll``, its ``Remove`` and a
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
        self.rolling: Slot | None = None  # a die to lift and roll
        self.returning: tuple[Slot, Colour] | None = None  # a rolled die to set back: its funnel and colour
        self.done = 0  # actions made this turn
        self.endgame = False  # this turn is up to three actions

    def jumps(self) -> list[Action]:
        """Every die that can jump now, with its first target (where it lands does not matter: it is kept)."""
        cells = self.state.cells
        found = ((s, row_jumps(cells, s)) for s in geometry.BASE_SLOTS if s in cells)
        return [Jump(s, targets[0]) for s, targets in found if targets]

    def legal(self) -> list[Action]:
        if self.rolling is not None:
            return [Remove(self.rolling)]
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
            self.rolling = action.slot
            return
        if self.rolling is not None and isinstance(action, Remove):
            self.returning, self.rolling = (action.slot, before[action.slot].colour), None
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
        busy = self.rolling is not None or self.returning is not None
        return Termination.PYRAMID_CLEARED if len(self.state) <= 1 and not busy else None

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


# --- Witches' Dance ---------------------------------------------------------------------------


PAIRS = ((4, 2, 2), (5, 1, 2), (3, 1, 4), (4, 0, 4), (6, 2, 0))  # Witches' Dance: black dice mirrored i <-> j


class WitchesDance(PlateGame):
    """Witches' Dance (no. 48), by Heike Kaufmann.

    Setup: 13 black dice drawn at random among the base funnels (none in or next to a start corner;
    drawn again until each moving die can reach the other's corner), or with ``--option
    pattern=mirror`` the mirror-symmetric ``PATTERN``; player 0's red moving die in the corner funnel
    a (8, 0, 0), player 1's green one in corner b (0, 8, 0). Player 0 starts.
    Turn: your moving die steps into a neighbouring empty funnel, or jumps straight over one
    neighbouring die (any colour) into the empty funnel beyond; then a filler die of your colour is
    set into the funnel it left (a ``Place``, forced). Only the moving dice ever move.
    Legal actions: those steps and jumps, then the filler; a pass when your moving die is stuck.
    Scoring: your filler dice on the plate.
    End: when neither moving die can move; most fillers win.
    Interpretation: the figure of the 13 black dice is lost. A mirror-symmetric figure (``PATTERN``:
    three dice on the mirror line between the start corners and five mirrored pairs) hands the
    game to player 1, who can answer every move with its mirror image: greedy in seat 1 won all 200
    games against greedy and against the search. So each game draws its own figure.
    The end is not in the text: a stuck player passes and the other
    goes on alone, which is what makes walling the other in (the text's tactic) pay; ending at the
    first stuck player would give the starting player the win or a tie in every game.
    """

    info = GameInfo(48, "Witches' Dance", "T", (2,), "13 black dice, red and green movers and fillers", (), 495)
    option_specs: ClassVar[Options] = {
        "pattern": OneOf(
            "drawn: the 13 black dice at random, each game its own (default); mirror: one symmetric figure",
            ("drawn", "mirror"),
        )
    }
    house_rules = (
        "The 13 black dice (figure lost) are drawn at random among the base funnels not in or next to a start corner, "
        "again until each moving die can reach the other's corner (a mirror-symmetric figure lets player 1 copy "
        "every move; --option pattern=mirror plays one: (1,1,6), (2,2,4), (3,3,2) on the mirror line and the pairs "
        "(4,2,2), (5,1,2), (3,1,4), (4,0,4), (6,2,0) with i and j swapped). A stuck player passes, the other goes "
        "on; the game ends when neither can move."
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
        pattern = self.option("pattern", "drawn")
        self.movers = list(self.STARTS)
        self.fillers = [0, 0]
        self.vacated: Slot | None = None
        black = self.PATTERN if pattern == "mirror" else self.draw_pattern()
        cells = {s: Cell("black", self.draw_orientation()) for s in black}
        for p, s in enumerate(self.STARTS):
            cells[s] = Cell(self.colours[p], self.draw_orientation())
        self.state = PyramidState(cells)

    def draw_pattern(self) -> tuple[Slot, ...]:
        """13 base funnels at random, none in or next to a start corner, through which each moving die
        reaches the other's corner (drawn again until so)."""
        near = set(self.STARTS) | {n for s in self.STARTS for n in geometry.neighbours(s)}
        pool = [s for s in geometry.BASE_SLOTS if s not in near]
        while True:
            black = tuple(pool[i] for i in sorted(self.rng.choice(len(pool), size=len(self.PATTERN), replace=False)))
            cells = {s: Cell("black") for s in black} | {s: Cell(self.colours[p]) for p, s in enumerate(self.STARTS)}
            if all(self.STARTS[1 - p] in self.distances(cells, p, through=True) for p in (0, 1)):
                return black

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

    def standing(self, player: Seat) -> float:
        """The filler lead plus the territory: the funnels a moving die reaches first are fillers to come."""
        return self.advantage(player) + self.territory(self.state.cells, player)

    def termination(self) -> Termination | None:
        if self.vacated is None and not any(self.mover_moves(p) for p in (0, 1)):
            return Termination.BLOCKED
        return None

    def distances(self, cells: Mapping[Slot, Cell], player: Seat, through: bool = False) -> dict[Slot, int]:
        """Moves ``player``'s moving die needs to each empty funnel it can reach among ``cells`` (with
        ``through``, the other moving die's funnel counts as empty: the drawing of a figure asks it)."""
        found = {self.movers[player]: 0}
        frontier = [self.movers[player]]
        if through:
            cells = {s: c for s, c in cells.items() if s != self.movers[1 - player]}
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
