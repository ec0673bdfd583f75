"""Puzzles of edges that slide: Masquerade (a corner pyramid's edges sorted by colour).

Rules layer only (no physics); the edge slide is ``pyramid.moves.edge_slide``, carried out as one
``Move`` (in the world a hand lifts the edge top first and sets it down lowest first).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import permutations
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.geometry import Slot
from pyramid.moves import carry, edge_column, edge_slide
from pyramid.rules import Action, Game, GameInfo, Move, Seat, Termination
from pyramid.rules.options import Options, YesNo
from pyramid.state import Cell, PyramidState

EDGE_COLOURS: tuple[Colour, ...] = ("red", "green", "blue")
CORNERS = "abc"


def corner_edges(apex: Slot) -> list[list[Slot]]:
    """The three edges of the 20-die corner pyramid with its top at ``apex``: per cube axis, bottom first, top last."""
    return [
        [(apex[0] + n * (a == 0), apex[1] + n * (a == 1), apex[2] + n * (a == 2)) for n in (3, 2, 1, 0)]
        for a in range(3)
    ]


def _slide_order(edge: int) -> tuple[int, ...]:
    """Where each place of an arrangement (``Masquerade.arrangement``) takes its colour from after ``edge`` slides."""
    order = list(range(10))
    bottom, middle, upper = 3 * edge, 3 * edge + 1, 3 * edge + 2
    order[bottom], order[middle], order[upper], order[9] = middle, upper, 9, bottom
    return tuple(order)


@cache
def slides_to_sort(training: bool) -> dict[tuple[Colour, ...], int]:
    """The fewest slides from each arrangement of a pyramid's top and edges to a sorted one (all 16,800 of them).

    Sorted: each level one colour (``training``: each edge one colour), black on top. Found breadth first
    backwards from the six sorted arrangements; a slide is undone by sliding the same edge three more times.
    """
    goals = [
        tuple(order[e] if training else order[level] for e in range(3) for level in range(3)) + ("black",)
        for order in permutations(EDGE_COLOURS)
    ]
    found = dict.fromkeys(goals, 0)
    frontier = list(goals)
    undo = [_slide_order(edge) for edge in range(3)]
    while frontier:
        later = []
        for after in frontier:
            for order in undo:
                before: list[Colour] = list(after)
                for place, source in enumerate(order):
                    before[source] = after[place]
                key = tuple(before)
                if key not in found:
                    found[key] = found[after] + 1
                    later.append(key)
        frontier = later
    return found


class Masquerade(Game):
    """Masquerade (no. 34).

    Setup: a pyramid of 20 dice in a corner per player (player 0 corner a, 1 corner b, 2 corner c),
    black inside; its top die is black and its three edges below the top hold 3 red, 3 green and 3
    blue dice.
    Turn: take the bottom corner die of one of the three edges of any pyramid out (the training
    game: of your own); the edge slides down one slot and the die goes on the vacant top (one
    ``Move`` of four dice).
    Legal actions: the edge slides of every pyramid, your own first (training game, or option
    ``others=no``: the three of your own).
    Scoring: dice in place: for each level of the edges (bottom, middle, upper) the most dice of one
    colour on it, plus 1 for a black top (10 when sorted). Option ``training``: for each edge the
    most dice of one colour on it, plus 1 for a black top.
    End: the first player whose edges show the same sequence of colours on every edge (each level
    one colour, black on top) wins; option ``training``: one edge all red, one all green, one all
    blue, black on top. House rule: after 30 turns in a row in which no pyramid came nearer sorted
    than ever before (``slides_to_sort``), the game ends: most dice in place win. Where a turn may
    slide any pyramid, a player one slide from sorted can always be put 4 slides back by the next,
    so players who watch each other never finish.
    Interpretation: "the most colourful sequence possible" is each edge reading red, green, blue from
    the bottom, turned by one colour from edge to edge (every edge and every level shows all three
    colours); which edge starts with which is drawn. Each player owns one pyramid, so with 2
    players the third corner stays empty. The training game says a player moves their own pyramid;
    the main game does not say it again, and read so it would be two puzzles side by side: every
    start is 7 slides from sorted (``slides_to_sort``), so the first player wins whenever it plays
    exactly, and nothing a player does touches the other. So in the main game a player may slide
    any pyramid's edge, and spoil another's that is nearer sorted than their own.
    """

    info = GameInfo(34, "Masquerade", "T", (2, 3), "20 dice per player: 11 black, 3 red, 3 green, 3 blue", (), 371)
    option_specs: ClassVar[Options] = {
        "training": YesNo("yes: the training game (each edge one colour) instead of the same sequence on every edge"),
        "others": YesNo("yes: a turn may slide an edge of any pyramid (default in the main game); no: your own only"),
    }
    house_rules = (
        "The start (lost in the seed): every edge reads red, green, blue from the bottom, turned by one colour from "
        "edge to edge. In the main game a turn may slide an edge of any pyramid, another player's too (the training "
        "game: your own; --option others=no: your own in the main game too). After 30 turns in which no pyramid came "
        "nearer sorted than ever before, the game ends: most dice in place win."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 30

    def setup(self) -> None:
        self.training = self.option("training", False)
        self.others = self.option("others", not self.training)
        apexes = geometry.small_pyramid_apexes(20)
        self.apexes = [apexes[CORNERS[p]] for p in range(self.players)]
        cells: dict[Slot, Cell] = {}
        for apex in self.apexes:
            for slot in geometry.small_pyramid(20, apex):
                cells[slot] = Cell("black", self.draw_orientation())
            turns = self.rng.permutation(3)
            for edge, turn in zip(corner_edges(apex), turns, strict=True):
                for level, slot in enumerate(edge[:3]):
                    cells[slot] = Cell(EDGE_COLOURS[(level + int(turn)) % 3], self.draw_orientation())
        self.state = PyramidState(cells)
        self.visits: dict[tuple[Seat, tuple[Colour, ...]], int] = {}  # how often each player's arrangement came about

    def slides(self, player: Seat) -> list[Move]:
        """The three edge slides of ``player``'s pyramid."""
        out = []
        for axis, edge in enumerate(corner_edges(self.apexes[player])):
            column = edge_column(self.state, edge[0], axis)
            if len(column) == 4:
                whose = f"player {player}'s pyramid at corner {CORNERS[player]}"
                name = f"slide the edge from {edge[0]} of {whose}: its bottom die on top"
                out.append(Move(edge_slide(column), name=name))
        return out

    def legal(self) -> list[Action]:
        me = self.to_move
        pyramids = [me, *(p for p in range(self.players) if p != me)] if self.others else [me]
        return [m for p in pyramids for m in self.slides(p)]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        seen = (player, self.arrangement(self.state, player))
        self.visits[seen] = self.visits.get(seen, 0) + 1
        self.to_move = self.next_player()

    def in_place(self, cells: PyramidState | dict[Slot, Cell], player: Seat) -> int:
        """How many of ``player``'s ten top and edge dice are in place in ``cells`` (10: sorted)."""
        edges = corner_edges(self.apexes[player])
        if self.training:
            groups = [[cells[s].colour for s in edge[:3] if s in cells] for edge in edges]
        else:
            groups = [[cells[edge[level]].colour for edge in edges if edge[level] in cells] for level in range(3)]
        top = self.apexes[player]
        black_top = int(top in cells and cells[top].colour == "black")
        return black_top + sum(Counter(g).most_common(1)[0][1] for g in groups if g)

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.in_place(self.state, p)) for p in range(self.players))

    def milestones(self) -> tuple[float, ...]:
        """Each pyramid's nearness to sorted: the fewest slides left, less."""
        return tuple(-float(self.slides_left(p)) for p in range(self.players))

    def termination(self) -> Termination | None:
        return Termination.GOAL_REACHED if max(self.scores()) == 10 else None

    def arrangement(self, cells: PyramidState | dict[Slot, Cell], player: Seat) -> tuple[Colour, ...]:
        """The colours of ``player``'s top and edges in ``cells``, edge by edge."""
        return tuple(cells[s].colour for edge in corner_edges(self.apexes[player]) for s in edge[:3]) + (
            cells[self.apexes[player]].colour,
        )

    def slides_left(self, player: Seat) -> int:
        """The fewest slides that sort ``player``'s pyramid from where it stands."""
        return slides_to_sort(self.training)[self.arrangement(self.state, player)]

    def standing(self, player: Seat) -> float:
        """How many slides sooner than the nearest other player ``player`` can be sorted: exact for each
        pyramid alone (where others' pyramids may be slid, a player can still be set back)."""
        left = [self.slides_left(p) for p in range(self.players)]
        return min(n for p, n in enumerate(left) if p != player) - left[player]

    def outlook(self, cells: dict[Slot, Cell], player: Seat, depth: int) -> float:
        """The most dice in place ``player`` can reach from ``cells`` within ``depth`` more slides, sooner better."""
        now = float(self.in_place(cells, player))
        if depth == 0 or now == 10:
            return now + depth
        trial = self.clone()
        trial.state = PyramidState(cells)
        return max(now, *(0.9 * self.outlook(carry(cells, m.steps), player, depth - 1) for m in trial.slides(player)))

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Move):
            return 0.0
        me = self.to_move
        after = carry(self.state.cells, action.steps)
        # look three slides ahead; an arrangement already seen is worth less, so the player does not go round in circles
        value = self.outlook(after, me, 2) - self.visits.get((me, self.arrangement(after, me)), 0)
        if self.others and self.in_place(after, me) < 10:
            # where others' pyramids may be slid: never leave another one slide from sorted (they would win at
            # their turn; a slide of that pyramid by another player can always put it 4 away), else keep the
            # nearest other from its goal
            table = slides_to_sort(self.training)
            near = [table[self.arrangement(after, p)] for p in range(self.players) if p != me]
            value -= 100.0 * sum(n <= 1 for n in near) - min(near) / 2
            # the game ends, when no pyramid comes nearer sorted, by the dice in place: weigh them as it nears
            lead = self.in_place(after, me) - max(self.in_place(after, p) for p in range(self.players) if p != me)
            value += lead * self.quiet / self.quiet_turns
        return value
