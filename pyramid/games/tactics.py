"""Tactical games of building and taking apart: shapes of several dice, domino fills, squeezing, cui bono.

Rules layer only (no physics): each class is one game of the rule book, its docstring the rules card.
A turn of several dice is a run of single ``Place`` actions by the same player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from pyramid import geometry
from pyramid.dice import COUNTS, Colour
from pyramid.games.construction import outer_planes
from pyramid.geometry import Slot, UpFaces
from pyramid.rules import (
    PLAYER_COLOURS,
    Action,
    Game,
    GameInfo,
    Pass,
    Place,
    Remove,
    Seat,
    Termination,
    colour_scores,
    free_slots,
    funnel_faces,
    open_slots,
)
from pyramid.state import Cell, PyramidState

AXES: tuple[Slot, Slot, Slot] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
# The six directions in which two dice touch face to face: along the cube axes, both ways.
FACE_STEPS: tuple[Slot, ...] = AXES + tuple((-a, -b, -c) for a, b, c in AXES)


def shift(slot: Slot, step: Slot, times: int = 1) -> Slot:
    """``slot`` moved ``times`` steps along ``step`` (may leave the lattice)."""
    return (slot[0] + times * step[0], slot[1] + times * step[1], slot[2] + times * step[2])


def face_neighbours(slot: Slot) -> list[Slot]:
    """The up to six slots whose dice touch a die in ``slot`` face to face (three below, three above)."""
    return [t for t in (shift(slot, d) for d in FACE_STEPS) if geometry.is_slot(t)]


def _lines(length: int) -> list[frozenset[Slot]]:
    out = []
    for s in geometry.SLOTS:
        for e in AXES:
            line = [shift(s, e, n) for n in range(length)]
            if all(geometry.is_slot(t) for t in line):
                out.append(frozenset(line))
    return out


def _corners() -> list[frozenset[Slot]]:
    out = set()
    for c in geometry.SLOTS:
        for a in FACE_STEPS:
            for b in FACE_STEPS:
                arms = (shift(c, a), shift(c, b))
                # the two arms must run along different cube axes
                if any(x and y for x, y in zip(a, b, strict=True)) or not all(geometry.is_slot(t) for t in arms):
                    continue
                out.add(frozenset((c, *arms)))
    return sorted(out, key=lambda f: sorted(f))


COLUMNS3: list[frozenset[Slot]] = _lines(3)  # Triops: three dice in a straight line along a cube axis
COLUMNS2: list[frozenset[Slot]] = _lines(2)
CORNERS: list[frozenset[Slot]] = _corners()  # Triangel: three dice bent at a right angle
TRIOPS_SET: frozenset[frozenset[Slot]] = frozenset(COLUMNS3)


def component(state: Iterable[Slot], start: Slot) -> set[Slot]:
    """The dice joined to ``start`` by a chain of face-to-face contacts."""
    occ = set(state)
    seen = {start} if start in occ else set()
    todo = list(seen)
    while todo:
        for t in face_neighbours(todo.pop()):
            if t in occ and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


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

    def termination(self) -> Termination | None:
        return Termination.PYRAMID_COMPLETE if len(self.state) == len(geometry.SLOTS) else None

    def heuristic(self, action: Action) -> float | None:
        if not isinstance(action, Place):
            return 0.0
        done = {*self.placed, action.slot}
        column = any(f in TRIOPS_SET and done <= f for f in self.candidates)
        return outer_planes(action.slot) + (0.5 if column and not self.bonus else 0.0)


def free_faces(state: Iterable[Slot], slot: Slot) -> int:
    """How many of the three upward faces of the die in ``slot`` no die covers."""
    occ = set(state)
    return sum(1 for e in AXES if shift(slot, e, -1) not in occ)


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
    anti-loop rule is a funnel formed by base dice. Re-placed dice are tracked by slot as they slide.
    """

    info = GameInfo(44, "Cui Bono?", "D/T", (2, 3, 4, 5, 6), "55 red, 55 green, 55 black", ("cui bono",), 447)
    house_rules = (
        "Placement (lost in the seed): the die may go into any funnel resting on three dice (not onto the "
        "plate), but never so that it and the dice straight below it along a cube axis form a line of one "
        "colour down to the plate (the anti-loop rule as read). So that the game ends, a die may be placed "
        "again only once: a die that was placed again is kept when it is taken the next time."
    )

    def setup(self) -> None:
        pool = [c for c in ("red", "green", "black") for _ in range(55)]
        order = self.rng.permutation(len(pool))
        self.state = PyramidState({s: Cell(pool[n], (1, 2, 3)) for s, n in zip(geometry.SLOTS, order, strict=True)})
        self.kept: list[list[Colour]] = [[] for _ in range(self.players)]
        self.holding: Colour | None = None
        self.replaced: frozenset[Slot] = frozenset()  # where the dice that were placed again sit
        self.veteran = False

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
            self.veteran = action.slot in self.replaced
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


def _closures(occ: set[Slot], limit: int) -> dict[Slot, frozenset[Slot]]:
    """For each empty slot, the empty slots that must be filled to seat a die there (itself included),
    if at most ``limit``."""
    out: dict[Slot, frozenset[Slot]] = {}
    for s in reversed(geometry.SLOTS):  # base layer first, so supports come before what rests on them
        if s in occ:
            continue
        need = {s}
        for t in geometry.supports(s):
            if t not in occ:
                if t not in out:
                    break
                need |= out[t]
        else:
            if len(need) <= limit:
                out[s] = frozenset(need)
    return out


def face_groups(
    state: Iterable[Slot], size: int, contact: set[Slot] | None, barred: set[Slot]
) -> list[frozenset[Slot]]:
    """Every set of ``size`` empty slots, joined face to face, that can be filled (in some order) on
    ``state``, avoids ``barred`` and, unless ``contact`` is None, contains a slot of ``contact``."""
    occ = set(state)
    nodes = {s for s in _closures(occ, size) if s not in barred}
    if contact is not None:
        # keep only slots within size - 1 face steps of a contact slot
        near = nodes & contact
        frontier = set(near)
        for _ in range(size - 1):
            frontier = {t for s in frontier for t in face_neighbours(s) if t in nodes and t not in near}
            near |= frontier
        nodes = near
    adj = {s: [t for t in face_neighbours(s) if t in nodes] for s in nodes}
    rank = {s: n for n, s in enumerate(sorted(nodes))}
    found: list[frozenset[Slot]] = []

    def extend(group: set[Slot], border: set[Slot], extension: list[Slot], root: Slot) -> None:
        if len(group) == size:
            chosen = frozenset(group)
            stable = all(t in occ or t in chosen for s in chosen for t in geometry.supports(s))
            if stable and (contact is None or chosen & contact):
                found.append(chosen)
            return
        extension = list(extension)
        while extension:
            w = extension.pop()
            fresh = [u for u in adj[w] if rank[u] > rank[root] and u not in group and u not in border]
            extend(group | {w}, border | set(fresh) | {w}, extension + fresh, root)

    for v in sorted(nodes):
        start = [u for u in adj[v] if rank[u] > rank[v]]
        extend({v}, {v, *start}, start, v)
    return found


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
    theirs has a free upward face left to build on): then the fewest dice left wins.
    Interpretation: face to face = one step along a cube axis (so on the empty plate only a pyramid of
    4 is a legal group, as the seed says); in a player's first turn the group must touch any die, which
    gives the seed's "3, 5 or 6" for the second player; a roll that no legal group fits is lost; a roll
    of at least the dice you have left places them all if it can; until the start player has built
    once more nobody else may cover the top of the start pyramid (the seed's "free space").
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

    def _start_turn(self, player: Seat) -> None:
        for _ in range(10 * self.players):
            self.to_move, self.placed, self.bonus = player, [], 0
            if self.grown_over(player) or len(self.state) == len(geometry.SLOTS):
                self.candidates = []
                return
            size = min(self.roll(), self.left[player])
            own = {s for s, c in self.state.items() if c.colour == self.colours[player]}
            contact = {t for s in (own or set(self.state)) for t in face_neighbours(s)} - set(self.state)
            barred = set()
            if self.start_top is not None and player != self.starter and self.built[self.starter or 0] < 2:
                barred = set(geometry.resting_on(self.start_top))
            self.candidates = face_groups(self.state, size, contact, barred)
            if self.candidates:
                return
            self.events.append(f"player {player} cannot place {size} dice")
            player = self.next_player(player)
        self.candidates = []

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

    def termination(self) -> Termination | None:
        if min(self.left) <= 0:
            return Termination.ALL_PLACED
        if len(self.state) == len(geometry.SLOTS):
            return Termination.PYRAMID_COMPLETE
        if self.start_top is not None and not self.candidates and not self.bonus:
            return Termination.BLOCKED
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


def is_column(slots: list[Slot]) -> bool:
    """Whether ``slots`` (two or more) lie in one straight line of face-to-face steps."""
    if len(slots) < 2:
        return False
    for a in range(3):
        rest = {tuple(s[b] for b in range(3) if b != a) for s in slots}
        values = sorted(s[a] for s in slots)
        if len(rest) == 1 and values == list(range(values[0], values[0] + len(slots))):
            return True
    return False


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

    def termination(self) -> Termination | None:
        return Termination.ALL_PLACED if max(self.scores()) >= 20 else None
