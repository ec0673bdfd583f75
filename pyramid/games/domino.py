"""DoRa (Domino Rasanto): dice placed unturned, every new funnel filled domino-style with a matching face.

Rules layer only (no physics).
"""

from __future__ import annotations

from typing import ClassVar

from pyramid import geometry
from pyramid.geometry import Slot, UpFaces
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Place,
    Seat,
    Termination,
    funnel_faces,
    open_slots,
)
from pyramid.state import Cell, PyramidState


class DoRa(Game):
    """DoRa, Domino Rasanto (no. 26), by Nicolai Wittig.

    Setup: an empty plate; each player owns one colour, 55 dice each (83 each for two players).
    Turn: roll a die and place it, unturned, in an empty base funnel next to a die already on the plate
    (the first die anywhere). Every funnel of three dice that appears is filled at once, domino-style:
    the filler's face that touches the matched die shows the same number.
    Legal actions: place the rolled die (its faces fixed by the roll) in an empty base funnel beside a
    die on the plate; while funnels wait, their filler places their own die in one of them, in any of
    the four orientations whose face against the matched die repeats its number.
    Scoring: the dice you have placed.
    End: the first to place all their dice wins; if the pyramid is complete first, most dice placed wins.
    Interpretation: "unturned" = the roll fixes all three upward faces (one of 24, as in Mucho); "next
    to" = a neighbouring base funnel. Who fills (scwiki "DominoRasanto"): three different numbers -> the
    owner of the highest, matching it; a pair -> the owner of the odd one, matching it; three equal ->
    whoever completed the funnel, matching any; three dice of one colour -> the next player after their
    owner, matching the highest (choosing if it is there twice). The turn player fills all their
    funnels first, then each next player in turn order, round again until none waits.
    """

    info = GameInfo(
        26, "DoRa (Domino Rasanto)", "C", (2, 3), "55 each of red, green, black (83 for two)", ("dora",), 280
    )
    STOCK: ClassVar[dict[int, int]] = {2: 83, 3: 55}

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.owner = {c: p for p, c in enumerate(self.colours)}
        self.left = [self.STOCK[self.players]] * self.players
        self.pending: dict[Slot, tuple[Seat, tuple[int, ...]]] = {}  # funnel -> (filler, axes to match)
        self._roll_for(0)

    def _roll_for(self, player: Seat) -> None:
        self.turn_player = self.to_move = player
        self.up = self.draw_orientation()
        self.events.append(f"player {player} rolls {''.join(map(str, self.up))}")

    def fill_rule(self, state: PyramidState, slot: Slot, completer: Seat) -> tuple[Seat, tuple[int, ...]]:
        """Who fills the funnel ``slot`` of ``state``, and along which axes the filler may match."""
        faces = funnel_faces(state, slot) or (0, 0, 0)
        owners = [self.owner.get(state[t].colour, completer) for t in geometry.supports(slot)]
        if len(set(owners)) == 1 and all(state[t].colour in self.owner for t in geometry.supports(slot)):
            return self.next_player(owners[0]), tuple(a for a in range(3) if faces[a] == max(faces))
        if len(set(faces)) == 3:
            top = faces.index(max(faces))
            return owners[top], (top,)
        if len(set(faces)) == 2:
            odd = next(a for a in range(3) if faces.count(faces[a]) == 1)
            return owners[odd], (odd,)
        return completer, (0, 1, 2)

    def fill_faces(self, slot: Slot) -> list[UpFaces]:
        """The orientations a filler may give the die in the waiting funnel ``slot``."""
        faces = funnel_faces(self.state, slot) or (0, 0, 0)
        axes = self.pending[slot][1]
        return [u for u in geometry.ALL_UP_FACES if any(7 - u[a] == faces[a] for a in axes)]

    def legal(self) -> list[Action]:
        colour = self.colours[self.to_move]
        if self.pending:
            mine = sorted(s for s, (p, _) in self.pending.items() if p == self.to_move)
            return [Place(s, colour, up) for s in mine for up in self.fill_faces(s)]
        base = [s for s in geometry.BASE_SLOTS if s in self.state]
        slots = [s for s in geometry.BASE_SLOTS if s not in self.state]
        if base:
            slots = [s for s in slots if any(t in self.state for t in geometry.neighbours(s))]
        return [Place(s, colour, self.up) for s in slots]

    def new_funnels(self, state: PyramidState, player: Seat) -> dict[Slot, tuple[Seat, tuple[int, ...]]]:
        """The waiting funnels of ``state`` not yet known, with their fillers; ``player`` completed them."""
        return {
            s: self.fill_rule(state, s, player)
            for s in open_slots(state)
            if geometry.layer(s) < geometry.BASE_LAYER and s not in self.pending
        }

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if not isinstance(action, Place):
            return
        if action.slot in self.state:
            self.left[player] -= 1
            self.pending.pop(action.slot, None)
        self.pending.update(self.new_funnels(self.state, player))
        for step in range(self.players):
            filler = (player + step) % self.players
            if any(p == filler for p, _ in self.pending.values()):
                self.to_move = filler
                return
        self._roll_for(self.next_player(self.turn_player))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.STOCK[self.players] - n) for n in self.left)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.left)

    def termination(self) -> Termination | None:
        if min(self.left) <= 0:
            return Termination.ALL_PLACED
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place) or action.up is None:
            return 0.0
        me = self.to_move
        funnels = self.new_funnels(self.state.with_cell(action.slot, Cell(action.colour, action.up)), me)
        return sum(1.0 if filler == me else -1.0 / (self.players - 1) for filler, _ in funnels.values())
