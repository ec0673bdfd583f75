"""Cui Bono?: the pyramid taken apart from below, the dice above sliding down into each gap.

Rules layer only (no physics); the face-to-face helpers are in ``contacts``.
"""

from __future__ import annotations

from typing import ClassVar

from pyramid import geometry
from pyramid.dice import Colour
from pyramid.games.contacts import AXES, free_faces, shift
from pyramid.geometry import Slot
from pyramid.rules import (
    Action,
    Game,
    GameInfo,
    Pass,
    Place,
    Remove,
    Seat,
    Termination,
    open_slots,
)
from pyramid.rules.options import Options, YesNo
from pyramid.state import Cell, PyramidState


def slide(state: PyramidState, vacated: Slot) -> tuple[PyramidState, list[tuple[Slot, Slot]]]:
    """The state after the dice above ``vacated`` slide down into it, and the moves (from, to) made.

    The die resting on the gap along the axis of the previous slide drops first (a column slides as
    one); otherwise the die on the lowest-numbered axis. It leaves a gap of its own, and so on.
    """
    cells = dict(state.cells)
    moves: list[tuple[Slot, Slot]] = []
    axis = 0
    while True:
        above = [a for a in (axis, 0, 1, 2) if shift(vacated, AXES[a], -1) in cells]
        if not above:
            return PyramidState(cells), moves
        axis = above[0]
        source = shift(vacated, AXES[axis], -1)
        cells[vacated] = cells.pop(source)
        moves.append((source, vacated))
        vacated = source


CUI_BONO_PENALTY: dict[Colour, int] = {"green": 1, "black": 2, "red": 3}


class CuiBono(Game):
    """Cui Bono? (no. 44), by Jens-Peter Steuck.

    Setup: the complete pyramid of 55 red, 55 green and 55 black dice, thoroughly mixed. Penalty
    points: green 1, black 2, red 3.
    Turn: take one die of the bottom layer that shows at least two free faces (at first only the three
    corner dice); the dice above it slide down into the gap. Then place that die again, or keep it.
    Legal actions: remove a base die with two or more uncovered faces; then place it in an allowed funnel
    (Place) or keep it (Pass). A die that cannot be placed must be kept (this happens by itself).
    Scoring: the penalty points of the dice you kept.
    End: when the plate is empty; fewest penalty points wins.
    Interpretation: "shows two faces" = two of its three upward faces uncovered. A gap is filled by the
    die resting on it (the one along the sliding column first), whose own gap is filled in turn, so a
    corner pull makes the edge above it slide one step down. The "funnel in the bottom layer" of the
    anti-loop rule is a funnel formed by base dice (an edge of two counts too), not an empty funnel
    of the plate: there no dice lie below, so the rule could not stop a corner die from going straight
    back where it came from, the endless repetition it is there to forestall. The book's rule alone
    does not end the game: players who always place again (greedy) reached the 3000-action turn limit
    in 10 of 10 games (3 players, seeds 0 to 9), random players took 986 actions instead of 435.
    Hence the house rule that a die placed again is kept the next time it is taken (option
    ``once=no`` drops it). Re-placed dice are tracked by slot as they slide.
    """

    info = GameInfo(44, "Cui Bono?", "D/T", (2, 3, 4, 5, 6), "55 red, 55 green, 55 black", ("cui bono",), 447)
    option_specs: ClassVar[Options] = {
        "once": YesNo("no: a die may be placed again every time it is taken (default yes: once, then it is kept)")
    }
    house_rules = (
        "Placement (lost in the seed): the die may go into any funnel resting on three dice (not onto the "
        "plate), but never so that it and the dice straight below it along a cube axis form a line of one "
        "colour down to the plate (the anti-loop rule as read). So that the game ends, a die may be placed "
        "again only once: a die that was placed again is kept when it is taken the next time (option once=no drops "
        "this; then greedy players never finish)."
    )

    def setup(self) -> None:
        pool = [c for c in ("red", "green", "black") for _ in range(55)]
        order = self.rng.permutation(len(pool))
        self.state = PyramidState({s: Cell(pool[n], (1, 2, 3)) for s, n in zip(geometry.SLOTS, order, strict=True)})
        self.kept: list[list[Colour]] = [[] for _ in range(self.players)]
        self.holding: Colour | None = None
        self.replaced: frozenset[Slot] = frozenset()  # where the dice that were placed again sit
        self.veteran = False
        self.once = self.option("once", True)

    def allowed(self, slot: Slot, colour: Colour) -> bool:
        """Whether a die of ``colour`` may be placed again in the open slot ``slot``."""
        for e in AXES:
            line = [shift(slot, e, n) for n in range(1, geometry.LAYERS) if geometry.is_slot(shift(slot, e, n))]
            if all(self.state[t].colour == colour for t in line):
                return False
        return True

    def takeable(self) -> list[Slot]:
        """Base dice showing at least two free faces."""
        occ = set(self.state)
        return [s for s in geometry.BASE_SLOTS if s in occ and free_faces(occ, s) >= 2]

    def legal(self) -> list[Action]:
        if self.holding is None:
            return [Remove(s) for s in self.takeable()]
        if self.veteran:
            return [Pass()]
        slots = [s for s in open_slots(self.state) if geometry.layer(s) < geometry.BASE_LAYER]
        actions: list[Action] = [Place(s, self.holding) for s in slots if self.allowed(s, self.holding)]
        return [*actions, Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.holding = before[action.slot].colour
            self.veteran = self.once and action.slot in self.replaced
            replaced = set(self.replaced) - {action.slot}
            if not geometry.is_stable(self.state):
                self.state, moves = slide(self.state, action.slot)
                for source, target in moves:
                    if source in replaced:
                        replaced = (replaced - {source}) | {target}
            self.replaced = frozenset(replaced)
            if self.state and len(self.legal()) > 1:
                return
            action = Pass()
        if isinstance(action, Place):
            self.replaced = self.replaced | {action.slot}
        if isinstance(action, Pass) and self.holding is not None:
            self.kept[player] = self.kept[player] + [self.holding]
            self.events.append(f"player {player} keeps a {self.holding} die")
        self.holding = None
        self.to_move = self.next_player()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(sum(CUI_BONO_PENALTY[c] for c in kept)) for kept in self.kept)

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        best = min(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def advantage(self, player: Seat) -> float:
        s = self.scores()
        return min((v for p, v in enumerate(s) if p != player), default=0.0) - s[player]

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_CLEARED if not self.state else None

    def heuristic(self, action: Action) -> float | None:
        if isinstance(action, Pass):
            return 0.0
        if isinstance(action, Place):
            return float(CUI_BONO_PENALTY[action.colour])
        return None
