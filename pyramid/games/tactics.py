"""Tactical games of shapes joined face to face: Triops (a Triangel or a Triops a turn) and Squeezing.

Rules layer only (no physics); the face-to-face helpers are in ``contacts``, the other tactical games in
``sliding``, ``domino`` and ``corners``. A turn of several dice is a run of single ``Place`` actions.
"""

from __future__ import annotations

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.games.construction import outer_planes
from pyramid.games.contacts import (
    COLUMNS2,
    COLUMNS3,
    CORNERS,
    TRIOPS_SET,
    component,
    face_groups,
    face_neighbours,
    is_column,
)
from pyramid.games.corners import GoldenCentre as GoldenCentre  # re-exported: the registry imports it from here
from pyramid.games.domino import DoRa as DoRa  # re-exported: the registry imports it from here
from pyramid.games.sliding import CuiBono as CuiBono  # re-exported: the registry imports it from here
from pyramid.geometry import Slot
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Place,
    Seat,
    Termination,
    colour_scores,
    open_slots,
)
from pyramid.state import PyramidState


class Triops(Game):
    """Triops (no. 32).

    Setup: an empty plate; each player (or team) owns one colour (red, green, black).
    Turn: the first player opens with a single die in any base funnel. From then on a turn places three
    dice, one at a time: a Triangel (an L: three dice bent at a right angle) or a Triops (three dice in a
    straight column). After a Triops the player places one bonus die anywhere.
    Legal actions: place your colour in an open slot that keeps the turn's shape possible. The shape
    must touch the main structure face to face; if no shape of three fits, a column of two; if that
    fails, a single die touching the structure; if even that fails, a single die in any open slot.
    Scoring: outer faces of your colour on the completed pyramid (edges double, apex triple; 135 in all).
    End: when the pyramid is complete; most faces wins.
    Interpretation: in the lattice two dice touch face to face when they differ by one step along a cube
    axis (a die and the three it rests on, or the three resting on it); a column is three such steps in
    one direction (as in Asparagus), an L two steps along different axes. The "main structure" is every
    die joined to the start die by face contacts, so an isolated bonus die counts once it is joined. A
    die that misses its slot (physical play) is lost and the turn goes on with what still fits. A colour
    whose 90 dice run out (two players) continues with black dice, which score for nobody.
    """

    info = GameInfo(32, "Triops", "C/T", (2, 3), "dice by colour: red, green (black)", (), 347)

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.start: Slot | None = None
        self.placed: list[Slot] = []
        self.bonus = False
        self.candidates: list[frozenset[Slot]] = [frozenset([s]) for s in geometry.BASE_SLOTS]

    def colour(self, player: Seat) -> Colour:
        """The colour ``player`` places now: their own, or black once their 90 dice are used."""
        own = self.colours[player]
        used = sum(1 for c in self.state.values() if c.colour == own)
        return own if used < COUNTS[own] or "black" in self.colours else "black"

    def fitting(self) -> list[frozenset[Slot]]:
        """The shapes the player to move may build now, largest size that fits first."""
        occ = set(self.state)
        main = component(occ, self.start) if self.start is not None else set()
        touching = {t for s in main for t in face_neighbours(s)} - occ

        def fits(shape: frozenset[Slot]) -> bool:
            if shape & occ or not shape & touching:
                return False
            return all(t in occ or t in shape for s in shape for t in geometry.supports(s))

        for family in (COLUMNS3 + CORNERS, COLUMNS2, [frozenset([s]) for s in geometry.SLOTS]):
            found = [f for f in family if fits(f)]
            if found:
                return found
        return [frozenset([s]) for s in open_slots(occ)]

    def legal(self) -> list[Action]:
        colour = self.colour(self.to_move)
        if self.bonus:
            return [Place(s, colour) for s in open_slots(self.state)]
        done = set(self.placed)
        nxt = {s for f in self.candidates for s in f - done}
        return [Place(s, colour) for s in open_slots(self.state) if s in nxt]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if not isinstance(action, Place):
            return
        if self.bonus:
            self._next_turn()
            return
        self.start = self.start or action.slot
        self.placed.append(action.slot)
        done = set(self.placed)
        self.candidates = [f for f in self.candidates if done <= f and not (f - done) & set(self.state)]
        size = len(self.candidates[0]) if self.candidates else 0
        if len(self.placed) < size and self.legal():
            return
        if frozenset(self.placed) in TRIOPS_SET and done <= set(self.state) and open_slots(self.state):
            self.bonus = True
            self.events.append(f"player {player} built a Triops: one bonus die")
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.bonus = False
        self.placed = []
        self.to_move = self.next_player()
        self.candidates = self.fitting()

    def scores(self) -> tuple[float, ...]:
        return colour_scores(self.state, self.colours)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(COUNTS[c] - sum(1 for d in self.state.values() if d.colour == c) for c in self.colours)

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place):
            return 0.0
        done = {*self.placed, action.slot}
        column = any(f in TRIOPS_SET and done <= f for f in self.candidates)
        return outer_planes(action.slot) + (0.5 if column and not self.bonus else 0.0)


SQUEEZE_BONUS: dict[int, int] = {4: 1, 5: 2, 6: 3}


class Squeezing(Game):
    """Squeezing (no. 31).

    Setup: an empty plate; each player owns 55 dice of one colour. Players roll in turn; the first to
    roll a 4 starts by building a small pyramid of 4 dice.
    Turn: roll a die and add that many dice: all of them joined face to face, at least one touching one
    of your dice already there. A group that is a straight column of 4, 5 or 6 earns 1, 2 or 3 bonus
    dice, each placed anywhere touching the pyramid.
    Legal actions: place your colour, one die at a time, in an open slot that keeps a legal group of the
    rolled size possible; bonus dice in any open slot resting on dice.
    Scoring: the dice you have placed (fewest left wins).
    End: when a player has placed all their dice, or when the player to move is grown over (no die of
    theirs has a free upward face left to build on; the others may still build), or when nobody could
    add a group of any size: then the fewest dice left wins.
    Interpretation: face to face = one step along a cube axis (so on the empty plate only a pyramid of
    4 is a legal group, as the seed says); in a player's first turn the group must touch any die, which
    gives the seed's "3, 5 or 6" for the second player; a roll that no legal group fits is lost and
    the next player rolls; a roll of at least the dice you have left places them all if it can; until
    the start player has built once more nobody else may cover the top of the start pyramid (the
    seed's "free space").
    Strategy (the greedy baseline): choose the whole group, not die by die: prefer column bonuses, keep
    room on top of your own dice (a lost roll is lost dice), cover the room on the others' dice, and
    grow a player over (ending the game on their turn) only when you would then lead.
    """

    info = GameInfo(31, "Squeezing", "C", (3,), "55 each of red, green, black; one die", ("abquetschen",), 337)
    house_rules = (
        "End (lost in the seed; from the 2004 edition 'Abquetschen'): the game ends when the player to "
        "move can no longer build (all their dice grown over) or has placed all their dice; fewest dice left wins."
    )

    def setup(self) -> None:
        self.colours = PLAYER_COLOURS[: self.players]
        self.left = [55] * self.players
        self.starter: Seat | None = None
        self.start_top: Slot | None = None
        self.built = [0] * self.players  # turns in which each player has built
        self.placed: list[Slot] = []
        self.bonus = 0
        self.candidates: list[frozenset[Slot]] = []
        self.stuck: Termination | None = None  # why nobody builds any more, once so
        for _ in range(1000):
            if self.roll() == 4:
                break
            self.to_move = self.next_player()
        self.starter = self.to_move
        self.candidates = face_groups(set(), 4, None, set())
        self._plan_state: PyramidState | None = None  # the greedy player's group values, for this state
        self._plan_rooms: list[set[Slot]] = []
        self._plan: dict[frozenset[Slot], float] = {}

    def grown_over(self, player: Seat) -> bool:
        """Whether none of ``player``'s dice (if any) leaves room for a die to rest on it."""
        own = [s for s, c in self.state.items() if c.colour == self.colours[player]]
        return bool(own) and all(r in self.state for s in own for r in geometry.resting_on(s))

    def groups(self, player: Seat, size: int) -> list[frozenset[Slot]]:
        """The groups of ``size`` dice ``player`` may add now."""
        own = {s for s, c in self.state.items() if c.colour == self.colours[player]}
        contact = {t for s in (own or set(self.state)) for t in face_neighbours(s)} - set(self.state)
        barred = set()
        if self.start_top is not None and player != self.starter and self.built[self.starter or 0] < 2:
            barred = set(geometry.resting_on(self.start_top))
        return face_groups(self.state, size, contact, barred)

    def _start_turn(self, player: Seat) -> None:
        fits: dict[tuple[Seat, int], list[frozenset[Slot]]] = {}  # (player, size) -> groups, as the state stands

        def groups(p: Seat, size: int) -> list[frozenset[Slot]]:
            if (p, size) not in fits:
                fits[p, size] = self.groups(p, size)
            return fits[p, size]

        # While anyone can add a group, a roll that fits comes 1 time in 6 or more: 1000 lost rolls do not happen.
        for _ in range(1000):
            self.to_move, self.placed, self.bonus = player, [], 0
            if len(self.state) == len(geometry.SLOTS):
                self.candidates = []
                return
            if self.grown_over(player):
                self.candidates, self.stuck = [], Termination.GROWN_OVER
                return
            size = min(self.roll(), self.left[player])
            self.candidates = groups(player, size)
            if self.candidates:
                return
            self.events.append(f"player {player} cannot place {size} dice")
            if not any(groups(p, n) for p in range(self.players) for n in range(1, min(6, self.left[p]) + 1)):
                break
            player = self.next_player(player)
        self.candidates, self.stuck = [], Termination.BLOCKED

    def legal(self) -> list[Action]:
        colour = self.colours[self.to_move]
        if self.bonus:
            return [Place(s, colour) for s in open_slots(self.state) if geometry.supports(s)]
        done = set(self.placed)
        nxt = {s for f in self.candidates for s in f - done}
        return [Place(s, colour) for s in open_slots(self.state) if s in nxt]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if not isinstance(action, Place):
            return
        self.left[player] -= 1
        if self.bonus:
            self.bonus -= 1
        else:
            self.placed.append(action.slot)
            done = set(self.placed)
            self.candidates = [f for f in self.candidates if done <= f and not (f - done) & set(self.state)]
            if self.candidates and len(self.placed) < len(self.candidates[0]) and self.legal():
                return
            self.built[player] += 1
            if self.start_top is None:
                self.start_top = min(self.placed, key=geometry.layer)
            if is_column(self.placed):
                self.bonus = min(SQUEEZE_BONUS.get(len(self.placed), 0), self.left[player])
                self.events.append(f"player {player} built a column of {len(self.placed)}: {self.bonus} bonus dice")
        if self.bonus and self.left[player] > 0 and self.legal():
            return
        if self.left[player] > 0:
            self._start_turn(self.next_player(player))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(55 - n) for n in self.left)

    def ending(self, reason: Termination) -> str:
        if reason is Termination.GROWN_OVER:
            return f"player {self.to_move} is grown over and cannot build: fewest dice left wins"
        return super().ending(reason)

    def dice_left(self) -> tuple[int, ...] | None:
        return tuple(self.left)

    def termination(self) -> Termination | None:
        if min(self.left) <= 0:
            return Termination.ALL_PLACED
        if len(self.state) == len(geometry.SLOTS):
            return Termination.PYRAMID_COMPLETE
        if self.start_top is not None and not self.candidates and not self.bonus:
            return self.stuck
        return None

    def rooms(self) -> list[set[Slot]]:
        """For each player, the empty slots resting on their dice: where they can still build on."""
        owner = {c: p for p, c in enumerate(self.colours)}
        out: list[set[Slot]] = [set() for _ in range(self.players)]
        for s, cell in self.state.items():
            if cell.colour in owner:
                out[owner[cell.colour]].update(r for r in geometry.resting_on(s) if r not in self.state)
        return out

    def group_value(self, group: frozenset[Slot], rooms: list[set[Slot]], bonus: bool = True) -> float:
        """How good completing ``group`` looks to the player to move (``rooms`` as from ``rooms()``)."""
        # Column bonus dice count 3 each; a slot left to build on counts 0.3 for you and -1 for an
        # opponent (squeeze the others, keep your own growth); growing a player over, which ends the game
        # on their turn, counts +50 if you would then lead and -50 if not (-50 when it is you).
        me, occ = self.to_move, set(self.state)
        new = group - occ
        extra = (
            min(SQUEEZE_BONUS.get(len(group), 0), self.left[me] - len(new)) if bonus and is_column(list(group)) else 0
        )
        placed = [55.0 - n for n in self.left]
        placed[me] += len(new) + extra
        room = [r - new for r in rooms]
        room[me] |= {r for s in new for r in geometry.resting_on(s) if r not in occ and r not in new}
        value = 3.0 * extra + 0.3 * len(room[me])
        for step in range(1, self.players):
            them = (me + step) % self.players
            value -= len(room[them])
            if room[them] or placed[them] == 0:
                continue
            # grown over: the game ends on their turn, after the players between have moved (~3.5 dice each)
            lead = placed[me] - max(
                placed[p] + 3.5 * (0 < (p - me) % self.players < step) for p in range(self.players) if p != me
            )
            value += 50.0 if lead > 0 else -50.0
        if not room[me]:
            value -= 50.0
        return value

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place):
            return 0.0
        # Plan whole groups: a die is worth the best group it can still complete (values cached per state).
        if self._plan_state is not self.state:
            self._plan_state, self._plan_rooms, self._plan = self.state, self.rooms(), {}
        if self.bonus:
            return self.group_value(frozenset([action.slot]), self._plan_rooms, bonus=False)
        done = {*self.placed, action.slot}
        best = -1e9
        for group in self.candidates:
            if done <= group:
                if group not in self._plan:
                    self._plan[group] = self.group_value(group, self._plan_rooms)
                best = max(best, self._plan[group])
        return best
