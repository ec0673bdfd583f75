"""Games of green spars that slide down the full pyramid: Slide and Slipped.

Rules layer only (no physics). A spar slide is ``pyramid.moves.edge_slide`` of the spar from the die
taken out up to the top, carried out as one ``Move``; the die set on top may then be turned (a
``Remove`` of the top and a ``Place`` showing the faces the player chooses).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeAlias

import numpy as np

from pyramid import geometry
from pyramid.geometry import Slot, UpFaces
from pyramid.moves import AXES, carry, edge_slide, shift
from pyramid.rules import Action, Game, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.rules.options import OneOf, Options
from pyramid.state import Cell, PyramidState

APEX: Slot = (0, 0, 0)
AXIS_NAMES = "ijk"
Stage: TypeAlias = Literal["slide", "turn", "set"]  # a turn: slide, then leave or lift the top die, then set it down


_SPARS: tuple[tuple[Slot, ...], ...] = tuple(
    tuple(shift(APEX, AXES[axis], n) for n in range(geometry.BASE_LAYER, -1, -1)) for axis in range(3)
)
# the 17 slots of the two spars each side sees (the apex once), in slot order
_SIDE_SLOTS: tuple[tuple[Slot, ...], ...] = tuple(
    tuple(sorted({s for axis in range(3) if axis != side for s in _SPARS[axis]}, key=geometry.SLOT_INDEX.__getitem__))
    for side in range(3)
)


def spar(axis: int) -> list[Slot]:
    """The 9 slots of the pyramid's edge along cube axis ``axis``, bottom first, the apex last."""
    return list(_SPARS[axis])


def line(cells: Mapping[Slot, Cell], axis: int, side: int) -> list[int]:
    """The 9 faces the spar along ``axis`` shows on side ``side`` (the plane where that coordinate is 0), bottom up."""
    return [up[side] for s in _SPARS[axis] if s in cells and (up := cells[s].up) is not None]


def side_faces(cells: Mapping[Slot, Cell], side: int) -> list[int]:
    """The 17 faces the two green spars of side ``side`` show on it (the apex once)."""
    return [up[side] for s in _SIDE_SLOTS[side] if s in cells and (up := cells[s].up) is not None]


def one_number(faces: list[int]) -> int:
    """How many of ``faces`` show the number shown most often."""
    return max(Counter(faces).values()) if faces else 0


class Slide(Game):
    """Slide (no. 35), by Hajo Bücken.

    Setup: the full pyramid of 165 dice, black outside (red inside), its three edges to the top (the
    "spars", 8 dice each plus the top die) green; every die shows faces drawn at random. Player p
    looks only at side p, the outer plane of coordinate p 0 (player 0 the plane i = 0, 1 j = 0, 2
    k = 0): a black surface under a green roof of two spars meeting at the top.
    Turn: first either leave the top die as it lies (``Pass``) or turn it: lift it (``Remove`` of the
    top) and set it down showing the faces you choose (``Place``). Then take one green die below the
    top out of one of your two spars; the dice above it slide down one slot, the top die into the
    spar, and the die taken out goes on top as it lies (one ``Move``).
    Legal actions: Pass or Remove of the top; after a Remove the 24 ways to set the green die on top;
    then the slides of your two spars (8 dice each).
    Scoring: the most faces of one number one of your two spars shows on your side (its 9 dice, the
    top's included; option ``goal=roof``: of all 17 faces of your roof, the top once).
    End: the first player whose spar (or roof) shows one number on every face wins (players reaching it
    by the same turn share the win). House rule: after 60 turns in a row in which no player showed more
    faces of one number than ever before, the game ends: the highest score wins.
    Interpretation: the object is cut off in the seed ("Who is the first to have"); it is read as
    making a green spar on your side show one number. A slide moves the dice along the edge without
    turning them, so each die shows the same faces wherever it slides; the only die a player turns is
    the top, by hand, just before it slides into the spar. The seed does not say when the top may be
    turned. Turned after the slide (option ``turn=last``), the die a player sets up is the one the next
    player slides into a spar, and a player who sets it to spoil the next one's number never lets
    anyone gain: between greedy players every such game ran to the turn limit with 4 or 5 faces of
    one number.
    """

    info = GameInfo(35, "Slide", "T", (2, 3), "165 dice: 84 black, 25 green, 56 red inside", (), 377)
    option_specs: ClassVar[Options] = {
        "goal": OneOf(
            "spar: one of your two spars shows one number on your side, 9 faces (default); roof: all 17 faces",
            ("spar", "roof"),
        ),
        "turn": OneOf(
            "first: the top die may be turned before the slide (default); last: the die slid out, after it",
            ("first", "last"),
        ),
    }
    house_rules = (
        "The object (cut off in the seed): first to make one green spar on your side show one number on its 9 "
        "faces (the top's included). Before you slide you may lift the top die and set it down turned as you like: "
        "it is the die your slide pushes into the spar (a slide never turns a die). After 60 turns in a row in which "
        "nobody showed more faces of one number than ever before, the game ends: the most faces of one number win."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 60
    GOALS: ClassVar[dict[str, int]] = {"spar": 9, "roof": 17}  # the goal's faces

    def setup(self) -> None:
        green = {s for axis in range(3) for s in spar(axis)}
        # the 109 dice on the outer planes are black but for the green spars; the 56 inside are red
        colour = {s: "green" if s in green else "black" if min(s) == 0 else "red" for s in geometry.SLOTS}
        self.state = PyramidState({s: Cell(colour[s], self.draw_orientation()) for s in geometry.SLOTS})
        self.choose_rules()

    def choose_rules(self) -> None:
        """Read the options ``goal`` and ``turn``, and set the first stage of a turn."""
        self.goal = self.option("goal", "spar")
        turn = self.option("turn", "first")
        self.turn_first = turn == "first"
        self.first_stage: Stage = "turn" if self.turn_first else "slide"
        self.stage: Stage = self.first_stage

    def spars_of(self, player: Seat) -> list[int]:
        """The axes of the spars ``player`` may slide: the two on their side."""
        return [axis for axis in range(3) if axis != player]

    def slides(self, player: Seat) -> list[Move]:
        """Every slide of ``player``'s spars: one per green die below the top."""
        out = []
        for axis in self.spars_of(player):
            column = spar(axis)
            if all(s in self.state for s in column):
                for n in range(len(column) - 1):
                    name = f"slide spar {AXIS_NAMES[axis]}: its die {n + 1} from the bottom goes on top"
                    out.append(Move(edge_slide(column[n:]), name=name))
        return out

    def legal(self) -> list[Action]:
        if self.stage == "turn":
            return [Pass(), Remove(APEX)]
        if self.stage == "set":
            return [Place(APEX, "green", up) for up in geometry.ALL_UP_FACES]
        return list(self.slides(self.to_move))

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if isinstance(action, Remove):
            self.stage = "set"
        elif self.turn_first:  # turn, (set,) slide
            self.stage = "slide" if isinstance(action, Pass | Place) else "turn"
        else:  # slide, turn, (set)
            self.stage = "turn" if isinstance(action, Move) else "slide"
        if self.stage == self.first_stage:
            self.to_move = self.next_player()

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """How near ``player`` is to the goal in ``cells``: the most faces of one number on their side,
        of the best of their two spars (9) or of their roof (17)."""
        if self.goal == "roof":
            return float(one_number(side_faces(cells, player)))
        return float(max(one_number(line(cells, axis, player)) for axis in range(3) if axis != player))

    def scores(self) -> tuple[float, ...]:
        return tuple(self.progress(self.state, p) for p in range(self.players))

    def milestones(self) -> tuple[float, ...]:
        return self.scores()

    def done(self, player: Seat) -> bool:
        """Whether ``player`` has reached the goal."""
        return self.progress(self.state, player) == self.GOALS[self.goal]

    def termination(self) -> Termination | None:
        if self.stage == self.first_stage and any(self.done(p) for p in range(self.players)):
            return Termination.GOAL_REACHED
        return None

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        done = tuple(p for p in range(self.players) if self.done(p))
        return done or super().winners(scores)

    def value(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """``player``'s outlook in ``cells``: their progress less half the best other player's."""
        return self.outlook([self.progress(cells, p) for p in range(self.players)], player)

    def top_choices(self, cells: Mapping[Slot, Cell]) -> list[dict[Slot, Cell]]:
        """``cells`` with the top die turned every way it can be set down."""
        return [{**cells, APEX: Cell("green", up)} for up in geometry.ALL_UP_FACES]

    def tallies(self, cells: Mapping[Slot, Cell]) -> list[list[list[int]]]:
        """``tally[axis][side][n]``: how many of the 8 dice of spar ``axis`` below the top show ``n`` on
        ``side`` (for ``goal=roof``, ``tally[side][side]`` counts side's 16 roof faces below the top)."""
        tally = [[[0] * 7 for _ in range(3)] for _ in range(3)]
        for axis in range(3):
            for s in _SPARS[axis][:-1]:
                up = cells[s].up
                assert up is not None, f"the spar die at {s} has no faces"
                for side in range(self.players):
                    if side != axis:
                        tally[axis][side][up[side]] += 1
                        if self.goal == "roof":
                            tally[side][side][up[side]] += 1
        return tally

    def reach(self, tally: list[list[list[int]]], added: list[UpFaces], roof: list[UpFaces]) -> list[int]:
        """Each player's progress once each spar ``axis`` holds its tallied dice and one more die, ``added[axis]``
        (the top, or the die that slid in), and (``goal=roof``) each side's roof one more die, ``roof[side]``."""
        out = []
        for side in range(self.players):
            if self.goal == "roof":
                face = roof[side][side]
                out.append(max(max(tally[side][side]), tally[side][side][face] + 1))
            else:
                out.append(
                    max(max(max(tally[b][side]), tally[b][side][added[b][side]] + 1) for b in range(3) if b != side)
                )
        return out

    def outlook(self, reached: Sequence[float], player: Seat) -> float:
        """``value`` from the progress each player ``reached``."""
        return reached[player] - 0.5 * max((n for p, n in enumerate(reached) if p != player), default=0)

    def best_top(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """``player``'s best ``value`` over the 24 ways to set the top die of ``cells`` down.

        The same as the best of ``value`` over ``top_choices``, counted once: the faces below the top
        tallied by spar, side and number, the top adding one face to every spar.
        """
        tally = self.tallies(cells)
        return max(self.outlook(self.reach(tally, [up] * 3, [up] * 3), player) for up in geometry.ALL_UP_FACES)

    def best_slide(self, cells: Mapping[Slot, Cell], tops: list[UpFaces], player: Seat) -> float:
        """``player``'s best ``value`` over their slides once the top die of ``cells`` shows one of ``tops``.

        The same as the best of ``value`` after each slide, counted once: a slide of spar ``a`` keeps
        its dice and adds the old top (the die taken out leaves it and comes back as the new top), and
        every other spar gains the die taken out, now on top. So a roof with spar ``a`` in it gains the
        old top, the other roof the die taken out.
        """
        tally = self.tallies(cells)
        best = -math.inf
        for axis in self.spars_of(player):
            for s in _SPARS[axis][:-1]:
                taken = cells[s].up
                assert taken is not None
                for top in tops:
                    added = [top if b == axis else taken for b in range(3)]
                    roof = [taken if side == axis else top for side in range(3)]
                    best = max(best, self.outlook(self.reach(tally, added, roof), player))
        return best

    def heuristic(self, action: Action) -> float | None:
        me, cells = self.to_move, self.state.cells
        if self.turn_first:  # the top is turned now and slid into a spar next: count the best slide
            if isinstance(action, Remove):
                return self.best_slide(cells, list(geometry.ALL_UP_FACES), me)
            if isinstance(action, Pass | Place):
                top = action.up if isinstance(action, Place) else cells[APEX].up
                assert top is not None
                return self.best_slide(cells, [top], me)
            return self.value(carry(cells, action.steps), me) if isinstance(action, Move) else None
        if isinstance(action, Move):
            # the top die will be turned at best: count the spar faces below the top, and one for the top
            return self.best_top(carry(cells, action.steps), me)
        if isinstance(action, Remove):
            return self.best_top(cells, me)
        if isinstance(action, Place):
            return self.value({**cells, APEX: Cell("green", action.up)}, me)
        return self.value(cells, me)


@dataclass(frozen=True)
class Objective:
    """A secret objective of Slipped: every die of one spar shows ``faces`` of its two faces from ``numbers``."""

    text: str
    numbers: frozenset[int]
    faces: int  # 2: both faces the die shows along the edge; 1: one of them

    def progress(self, cells: Mapping[Slot, Cell]) -> int:
        """The most dice of one spar (of 9, the top's included) that count for this objective."""
        best = 0
        for axis in range(3):
            one, other = (line(cells, axis, side) for side in range(3) if side != axis)
            pairs = zip(one, other, strict=True)
            best = max(best, sum(sum(f in self.numbers for f in pair) >= self.faces for pair in pairs))
        return best


# The deck of objectives (the seed gives no list): an edge of three numbers on both sides, or of one number on a side.
OBJECTIVES: tuple[Objective, ...] = (
    Objective("an edge all odd", frozenset({1, 3, 5}), 2),
    Objective("an edge all even", frozenset({2, 4, 6}), 2),
    Objective("an edge all high (4, 5, 6)", frozenset({4, 5, 6}), 2),
    Objective("an edge all low (1, 2, 3)", frozenset({1, 2, 3}), 2),
    Objective("an edge all prime (2, 3, 5)", frozenset({2, 3, 5}), 2),
    Objective("an edge of 1, 4 and 6 only", frozenset({1, 4, 6}), 2),
    *(Objective(f"an edge with a {n} on every die", frozenset({n}), 1) for n in range(1, 7)),
)


CLUE_WEIGHT = 1.0  # a die gained on an objective's best edge by a player's turn: the odds it is theirs times e


class Slipped(Slide):
    """Slipped (no. 36), by Jürgen Wagner.

    Setup: as for Slide (the full pyramid, black outside, the three spars green); each player draws a
    secret objective from a deck of 12 (below); nobody owns a side.
    Turn: as for Slide, but the die may be taken out of any of the three spars: one ``Move``, then
    ``Pass`` or turn the top die (``Remove`` of the top, ``Place`` showing the faces you choose).
    Legal actions: the slides of the three spars (8 dice each); then as for Slide.
    Scoring: your objective's progress: the dice of the best spar that count for it, of 9.
    End: when a turn ends with objectives attained, their holders win ("Slipped!"; several share the
    win). House rule: after 60 turns in a row in which no objective of the deck came nearer attained
    than ever before (public: it tells nothing of who holds which), the game ends: the most progress
    wins.
    Objectives: an edge is a spar of 9 dice (the top's included), each showing two faces, one on
    each side of the edge. "An edge all odd", "all even", "all high (4, 5, 6)", "all low (1, 2,
    3)", "all prime (2, 3, 5)", "of 1, 4 and 6 only" (both faces of every die), and "an edge with a
    1 on every die" to "a 6" (on one of its two faces).
    Interpretation: the list of objectives is not in the seed. The game knows every objective; the
    greedy player reads only its own, the search player plays on copies where the others' slips are
    guessed from what their turns did (``clues``, ``redeal``), and at one terminal the game reads
    every slip out at the start.
    """

    info = GameInfo(
        36, "Slipped", "T", (2, 3, 4, 5, 6), "165 dice: 84 black, 25 green, 56 red inside; 12 objectives", (), 384
    )
    option_specs: ClassVar[Options] = {}  # Slide's goal and turn are not Slipped's: the slips are the goals
    house_rules = (
        "The objectives (no list in the seed): a deck of 12 (an edge, one spar of 9 dice, all odd, all even, all "
        "high, all low, all prime, of 1, 4 and 6 only on both its faces; or with a 1, ..., a 6 on every die), one "
        "drawn by each player. Turning the top die as for Slide. Players attaining their objectives by the same turn "
        "share the win; after 60 turns in which no objective of the deck came nearer attained than ever before, the "
        "game ends: the most progress wins."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 60

    def setup(self) -> None:
        super().setup()
        self.objectives = [OBJECTIVES[int(n)] for n in self.rng.choice(len(OBJECTIVES), self.players, replace=False)]
        # what each player's turns did to each objective of the deck: its best edge's dice gained, summed
        self.clues: tuple[tuple[int, ...], ...] = tuple((0,) * len(OBJECTIVES) for _ in range(self.players))
        self.turn_began: PyramidState | None = None
        # one terminal cannot hide a seat's slip from the others: the slips are read out, for the people playing
        self.events += [f"player {p}'s objective: {o.text}" for p, o in enumerate(self.objectives)]

    def spars_of(self, player: Seat) -> list[int]:
        return [0, 1, 2]

    def choose_rules(self) -> None:
        """Slipped turns the die slid out (Slide's ``turn=last``): the slips are secret, so the next player
        cannot aim to spoil it."""
        self.goal = "spar"
        self.turn_first = False
        self.first_stage = self.stage = "slide"

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if self.turn_began is None:
            self.turn_began = before
        super().after(action, player, before)
        if self.stage == self.first_stage:  # the turn is over: what did it do to each objective?
            began, now = self.turn_began, self.state
            gained = [o.progress(now) - o.progress(began) for o in OBJECTIVES]
            self.clues = tuple(
                tuple(c + g for c, g in zip(seen, gained, strict=True)) if p == player else seen
                for p, seen in enumerate(self.clues)
            )
            self.turn_began = None

    def belief(self, player: Seat, deck: Sequence[Objective]) -> np.ndarray:
        """How likely each slip of ``deck`` is ``player``'s, from the public turns alone: a slip whose edge a
        player's turns have raised by ``CLUE_WEIGHT`` dice more than another's is e times as likely theirs
        (a player works towards their slip). Sums to 1."""
        logits = np.array([CLUE_WEIGHT * self.clues[player][OBJECTIVES.index(o)] for o in deck], dtype=float)
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def redeal(self, player: Seat, rng: np.random.Generator) -> None:
        """The others' slips drawn again from the deck less ``player``'s own, each as likely as what that
        player's turns tell of it (``belief``): all ``player`` knows of them."""
        own = self.objectives[player]
        taken = {own}
        drawn = []
        for p in range(self.players):
            if p == player:
                drawn.append(own)
                continue
            deck = [o for o in OBJECTIVES if o not in taken]
            guess = deck[int(rng.choice(len(deck), p=self.belief(p, deck)))]
            taken.add(guess)
            drawn.append(guess)
        self.objectives = drawn

    def progress(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        return self.objectives[player].progress(cells) / len(spar(0))

    def done(self, player: Seat) -> bool:
        return self.progress(self.state, player) >= 1

    def milestones(self) -> tuple[float, ...]:
        """Every objective of the deck's progress: public, where the players' own would tell their slips."""
        return tuple(float(o.progress(self.state)) for o in OBJECTIVES)

    def value(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        # the others' objectives are secret: only the own progress counts
        return self.progress(cells, player)

    def standing(self, player: Seat) -> float:
        """The progress lead counted in dice (the score is a fraction of the 9: a die's step would hardly
        move the search's rewards)."""
        return len(spar(0)) * self.advantage(player)

    def best_top(self, cells: Mapping[Slot, Cell], player: Seat) -> float:
        """Spelled out over ``top_choices``: Slide's tally counts sides, and Slipped's value is a secret slip."""
        return max(self.value(c, player) for c in self.top_choices(cells))

    def secret(self, player: Seat) -> str:
        return f"your slip: {self.objectives[player].text}"

    def scores_seen_by(self, player: Seat | None) -> tuple[float | None, ...]:
        """Each player sees only their own progress until the game ends (it follows their secret slip)."""
        scores = self.scores()
        if self.outcome is not None:
            return scores
        return tuple(s if p == player else None for p, s in enumerate(scores))
