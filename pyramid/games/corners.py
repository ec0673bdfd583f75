"""Golden Centre: each player builds a pyramid of 20 in their own corner, as the dice of each round decide.

Rules layer only (no physics).
"""

from __future__ import annotations

from typing import ClassVar

from pyramid import geometry
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
    free_slots,
    open_slots,
)
from pyramid.state import PyramidState


class GoldenCentre(Game):
    """Golden Centre (no. 22), by Gabriele Lagemann.

    Setup: each player owns 20 dice of one colour and the 10 base funnels of one corner, where they
    build a pyramid of 20 dice (as in Mucho).
    Turn: a round: all players roll a die. The one who rolled the middle number adds a die to their
    pyramid. With doubles, the player outside the doubles adds a die. With triples, every player
    removes that many dice from their pyramid.
    Legal actions: the builder places their colour in an open slot of their corner; while removing, a
    player takes a free die of their own pyramid.
    Scoring: the dice in your pyramid.
    End: the first to complete their pyramid of 20 wins.
    Interpretation: dice are removed from the top (free dice), and a player with fewer dice than the
    triple removes all of them.
    Strategy: none; the game is pure chance. The rolls alone decide who adds or removes a die, and
    where in your corner you place or which free die you remove changes no count, so every choice
    leads to the same outcome: a greedy and a random player play the same game for the same seed.
    """

    info = GameInfo(
        22, "Golden Centre", "C/Ch", (3,), "20 dice each of red, green, black; 3 dice", ("goldene mitte",), 249
    )
    house_rules = (
        "Material (the seed says '2 dice' each): 20 dice each, a 10-funnel pyramid of 4 layers in each corner."
    )
    CORNERS: ClassVar[tuple[str, ...]] = ("a", "b", "c")

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        apexes = geometry.small_pyramid_apexes(20)
        self.regions = [frozenset(geometry.small_pyramid(20, apexes[c])) for c in self.CORNERS[: self.players]]
        self.removing: dict[Seat, int] = {}
        self._round()

    def built(self, player: Seat) -> list[Slot]:
        """The slots of ``player``'s pyramid that hold a die."""
        return [s for s in self.regions[player] if s in self.state]

    def roll_all(self) -> list[int]:
        """One die rolled by each player, noted in ``events``."""
        rolls = [int(v) for v in self.rng.integers(1, 7, self.players)]
        self.events.append("rolls " + ", ".join(f"player {p} {v}" for p, v in enumerate(rolls)))
        return rolls

    def _round(self) -> None:
        for _ in range(1000):
            rolls = self.roll_all()
            if len(set(rolls)) == 1:
                self.removing = {p: min(rolls[0], len(self.built(p))) for p in range(self.players)}
                self.removing = {p: n for p, n in self.removing.items() if n}
                if self.removing:
                    self.to_move = min(self.removing)
                    return
                continue
            if len(set(rolls)) == 3:
                self.to_move = sorted(range(self.players), key=lambda p: rolls[p])[1]
            else:
                self.to_move = next(p for p in range(self.players) if rolls.count(rolls[p]) == 1)
            return

    def legal(self) -> list[Action]:
        if self.removing:
            return [Remove(s) for s in free_slots(self.state) if s in self.regions[self.to_move]]
        region = self.regions[self.to_move]
        return [Place(s, self.colours[self.to_move]) for s in open_slots(self.state) if s in region]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.removing[player] -= 1
            if not self.removing[player] or not self.built(player):
                del self.removing[player]
            if self.removing:
                self.to_move = min(self.removing)
                return
        if len(self.built(player)) < 20:
            self._round()

    def scores(self) -> tuple[float, ...]:
        return tuple(float(len(self.built(p))) for p in range(self.players))

    def dice_left(self) -> tuple[int, ...] | None:
        """Each player's dice still to add to their pyramid of 20 (a triple gives removed dice back)."""
        return tuple(20 - len(self.built(p)) for p in range(self.players))

    def termination(self) -> Termination | None:
        return Termination.ALL_PLACED if max(self.scores()) >= 20 else None
