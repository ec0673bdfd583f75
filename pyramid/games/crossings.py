"""Board games across the plate (rule book 49, 51, 54): dice set out to reach the far side of the plate.

Rules layer only (no physics), on the plate games' base in ``pyramid.games.boards``: neighbours and
rows are ``pyramid.geometry``'s, a move is a ``Move`` and a capture a ``Remove`` by the capturing
player right after it (in Falling Rocks a second step of the same ``Move``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pyramid import geometry
from pyramid.games.boards import PlateGame, is_jump, on_edge, on_plate, step
from pyramid.geometry import Slot
from pyramid.rules import PLAYER_COLOURS, Action, GameInfo, Move, Pass, Place, Remove, Seat, Termination
from pyramid.rules.options import Options, Whole
from pyramid.state import Cell, PyramidState

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

    def score_line(self, scores: Sequence[float]) -> str:
        """Two measures, each against its own goal: smugglers through (4 win) and smugglers captured (7 win)."""
        through, captured = scores
        return f"player 0's smugglers through {through:g} (4 win), player 1's smugglers captured {captured:g} (7 win)"

    def ending(self, reason: Termination) -> str:
        if reason is Termination.GOAL_REACHED:
            return "4 smugglers are through"
        if reason is Termination.PLAYERS_OUT:
            return "7 smugglers are captured"
        if reason is Termination.BLOCKED:
            return "nobody can move: the customs held the border"
        return super().ending(reason)

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
    End: the first player with all 6 dice on the finish line wins. House rule: after 45 turns in a
    row without a capture and without a player having more dice on their finish line than ever
    before, the game ends: most dice on the finish line win.
    Interpretation: the figure of the "A" and "F" funnels is lost; the moves alternate around the
    funnel as above (every player has one attack and one escape straight towards their finish). An
    attack is not possible where the victim's start funnels are all taken.
    """

    info = GameInfo(54, "Falling Rocks", "T", (3,), "6 red, 6 green, 6 black dice", (), 540)
    house_rules = (
        "The A/F figure is lost: the neighbours (1,-1,0), (0,1,-1), (-1,0,1) are attack moves, their opposites "
        "escape moves. A die on its own finish line moves only along it. No attack where the victim's start "
        "funnels are all taken. After 45 turns without a capture or more dice on a finish line than ever before, "
        "the game ends: most dice on the line win."
    )
    max_moves: ClassVar[int] = 3000
    quiet_turns: ClassVar[int] = 45
    colours = PLAYER_COLOURS

    def setup(self) -> None:
        self.start = [[s for s in geometry.BASE_SLOTS if s[p] >= 6] for p in range(3)]
        self.state = PyramidState(
            {s: Cell(self.colours[p], self.draw_orientation()) for p in range(3) for s in self.start[p]}
        )
        self.captured = [0, 0, 0]  # dice each player has captured

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
            self.captured[player] += 1
            victim = action.steps[1][0]
            self.events.append(f"the {before[victim].colour} die at {victim} is captured to {action.steps[1][1]}")
        self.to_move = self.next_player(player)

    def arrived(self, player: Seat, cells: Mapping[Slot, Cell] | None = None) -> int:
        """How many of ``player``'s dice stand on their finish line."""
        return sum(self.home(s, player) for s in self.own(player, cells))

    def scores(self) -> tuple[float, ...]:
        return tuple(float(self.arrived(p)) for p in range(3))

    def milestones(self) -> tuple[float, ...]:
        """Each player's dice on their finish line and the dice they have captured: neither is undone."""
        return (*self.scores(), *map(float, self.captured))

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

    def standing(self, player: Seat) -> float:
        """``player``'s own progress, as in the races of ``JumpGame.race_standing``: the score (dice on the line)
        hardly moves within a search's few moves ahead, and a capture that sets the leader back helps the third
        player as much as the mover. Being captured costs the steps made."""
        return self.progress(self.state.cells, player)


# --- Steps to the Throne ----------------------------------------------------------------------


@dataclass(frozen=True)
class Capture(Remove):
    """The black die in ``slot`` is captured: taken off, the green die moves in next."""

    def __str__(self) -> str:
        return f"capture the black die at {self.slot}"


class StepsToTheThrone(PlateGame):
    """Steps to the Throne (no. 51), by Carsten Volle.

    Setup: 3 red dice in the corner triangle of corner a ((8, 0, 0), (7, 1, 0), (7, 0, 1)): the goal
    is the funnel on top of them, (7, 0, 0). The green die (player 0, the runner of the first leg)
    stands in the middle funnel of the opposite edge, (0, 4, 4); player 1 (the blocker) holds 41
    black dice.
    Turn: the runner's turn starts with a roll of the blue die (drawn by the game): it shows three
    numbers, each pointing along one row family (``geometry.pointing_face``), both ways. The green die
    moves exactly that many funnels along such a row, staying on the plate and not over a black or
    red die; landing on a black die captures it (a ``Capture`` takes it off, then the green die moves
    in). From the row next to the goal (i = 6) the green die enters the goal when the number pointing
    along that row is even in an outer funnel, odd in the central one. Then the blocker sets a black
    die into a funnel next to the green die. If the green die cannot move, it passes and the blocker
    takes one black die back instead of placing one; a blocker with no black dice passes.
    Legal actions: as above.
    Scoring: each runner's turns until it entered (two legs), 1 to the winner (one leg).
    End: two legs: when the second runner has entered or run out of turns; one leg: the runner wins
    on entering the goal, the blocker when the runner has not entered within 150 turns.
    Interpretation: the goal funnel is the one on top of the three red dice (the row next to it has
    one central and two outer funnels, as the text says); "roll an even number" is read as the
    number pointing along the row the green die stands in. The blue die is rolled by the game, not
    in the world. The rule book's variant is the default (option ``legs``): two legs with the roles
    alternating (player 0 runs first, then player 1), the runner who arrived in fewer turns wins,
    then the one who captured more black dice; equal, they share. A leg ends when the runner
    enters the goal or after 150 turns of the runner; a runner who did not arrive counts 151
    turns. Between the legs the new runner clears the plate (each black die taken off, the green
    die carried back to its start). ``legs=1`` plays one leg, runner against blocker, as the main
    text does.
    """

    info = GameInfo(51, "Steps to the Throne", "T", (2,), "3 red, 1 green, 1 blue, 41 black dice", ("throne",), 514)
    option_specs: ClassVar[Options] = {
        "legs": Whole(
            "2: each player runs once, the faster runner wins (the book's variant; default); 1: one leg, "
            "player 0 runs and player 1 blocks",
            1,
            2,
            among=(1, 2),
        )
    }
    house_rules = (
        "The goal is the funnel on top of the 3 red dice; from the row next to it the green die enters when the "
        "blue die's number pointing along that row is even (outer funnels) or odd (central funnel). Without black "
        "dice the blocker passes. The book's variant is played: two legs with the roles alternating; the runner "
        "who arrived in fewer turns wins, then the one who captured more black dice. A leg ends after 150 turns "
        "of the runner (151 counted if not arrived); with legs=1 the blocker wins then."
    )
    max_moves: ClassVar[int] = 800
    leg_turns: ClassVar[int] = 150
    colours = ("green", "black")
    START: ClassVar[Slot] = (0, 4, 4)
    GOAL: ClassVar[Slot] = (7, 0, 0)

    def setup(self) -> None:
        self.legs = self.option("legs", 2)
        self.red = [(8, 0, 0), (7, 1, 0), (7, 0, 1)]
        cells = {s: Cell("red", self.draw_orientation()) for s in self.red}
        cells[self.START] = Cell("green", self.draw_orientation())
        self.state = PyramidState(cells)
        self.times: list[int | None] = [None, None]  # each player's turns as runner, once their leg is over
        self.captures = [0, 0]  # black dice each player captured as runner
        self.clearing: list[Action] = []  # the plate cleared between the legs
        self.start_leg(0)

    @property
    def runner_seat(self) -> Seat:
        """The seat running this leg (the other blocks)."""
        return self.leg

    def start_leg(self, leg: int) -> None:
        """The green die at its start, 41 black dice in hand, the blue die rolled; the runner to move."""
        self.leg = leg
        self.runner: Slot = self.START
        self.blacks = 41
        self.turns = 0  # the runner's turns this leg
        self.entered = False
        self.stuck = False
        self.pending: list[Action] = []
        self.to_move = self.runner_seat
        self.blue = self.roll_blue()

    def end_leg(self) -> None:
        """Note the runner's time; before the second leg, the plate is to be cleared by its runner."""
        self.times[self.runner_seat] = self.turns if self.entered else self.leg_turns + 1
        if self.legs == 2 and self.leg == 0:
            self.leg = 1
            blacks = [s for s, c in self.state.items() if c.colour == "black"]
            back = [self.move(self.runner, self.START, "carry back")] if self.runner != self.START else []
            self.clearing = [*(Remove(s) for s in blacks), *back]
            self.to_move = 1
            if not self.clearing:
                self.start_leg(1)

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
        if self.clearing:
            return [self.clearing[0]]
        if self.pending:
            return list(self.pending)
        if self.to_move == self.runner_seat:
            return self.runs() or [Pass()]
        if self.stuck or not self.blacks:
            return [Pass()]
        return [Place(s, "black") for s in self.steps_from(self.runner)] or [Pass()]

    def after(self, action: Action, player: Seat, before: PyramidState) -> None:
        if self.clearing:
            self.clearing.pop(0)
            if not self.clearing:
                self.start_leg(1)
            return
        if isinstance(action, Capture):
            self.turns += 1
            self.captures[player] += 1
            self.pending = [self.move(self.runner, action.slot)]
            return
        captured, self.pending = bool(self.pending), []
        if player == self.runner_seat:
            self.turns += not captured
            if isinstance(action, Move):
                self.runner = action.steps[0][1]
                self.entered = self.runner == self.GOAL
            self.stuck = isinstance(action, Pass)
            if self.entered or self.turns >= self.leg_turns:
                self.end_leg()
                return
        else:
            if isinstance(action, Place):
                self.blacks -= 1
            elif self.stuck:
                self.blacks += 1  # a die back for the one the blocker could not place
            self.blue = self.roll_blue()
        self.to_move = self.next_player(player)

    def scores(self) -> tuple[float, ...]:
        """One leg: 1 to the runner who entered. Two legs: each runner's turns (fewer is better), those of
        the leg under way so far."""
        if self.legs == 1:
            return (1.0, 0.0) if self.entered else (0.0, 0.0)
        running = None if self.clearing else self.leg
        # a leg over counts its time (a runner who did not arrive: leg_turns + 1), the leg under way its turns
        return tuple(float(self.turns if t is None and p == running else t or 0) for p, t in enumerate(self.times))

    def score_line(self, scores: Sequence[float]) -> str:
        if self.legs == 1:
            return "the runner entered the goal" if self.entered else "the runner did not enter the goal"
        said = [
            f"player {p} {t:g}" + (" (did not arrive)" if self.times[p] == self.leg_turns + 1 else "")
            for p, t in enumerate(scores)
        ]
        return "turns to the throne: " + ", ".join(said) + " (fewer wins)"

    def winners(self, scores: tuple[float, ...]) -> tuple[Seat, ...]:
        if self.legs == 1:
            return (0,) if self.entered else (1,)
        key = [(-self.expected_turns(p), self.captures[p]) for p in range(2)]
        return tuple(p for p in range(2) if key[p] == max(key))

    def expected_turns(self, player: Seat) -> float:
        """``player``'s turns as runner: the count once their leg is over, else those so far and about the
        rest (two and a half a row still to go, and two to enter), a whole leg for one not yet begun."""
        done = self.times[player]
        if done is not None:
            return float(done)
        if player == self.leg and not self.clearing:
            return self.turns + 2.0 + 2.5 * (6 - min(self.runner[0], 6))
        return 2.0 + 2.5 * 6

    def advantage(self, player: Seat) -> float:
        if self.legs == 1:
            lead = 2.0 if self.entered else self.runner[0] / 6 - 0.5
            return lead if player == 0 else -lead
        return self.expected_turns(1 - player) - self.expected_turns(player)

    def termination(self) -> Termination | None:
        if self.times[self.legs - 1] is None:
            return None
        arrived = any(t is not None and t <= self.leg_turns for t in self.times)
        return Termination.GOAL_REACHED if arrived else Termination.TURN_LIMIT

    def heuristic(self, action: Action) -> float | None:
        if self.to_move == self.runner_seat:
            if isinstance(action, Capture):
                return action.slot[0] + 0.5
            if isinstance(action, Move):
                target = action.steps[0][1]
                return 100.0 if target == self.GOAL else target[0] + 0.1 * len(self.steps_from(target))
            return 0.0
        if isinstance(action, Place):
            return float(action.slot[0]) + (0.5 if action.slot[0] > self.runner[0] else 0.0)
        return 0.0
