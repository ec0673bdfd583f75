"""Brad Nordeng's Heptathlon (seed 002): seven dice events with skills, for 1 to 4 players.

Setup:
    Seven dice and a score sheet per player. Each player rolls 5 dice; a number shown more than 3 times
    has its extra dice rolled again until no number shows more than 3 times. Every die marks one box of
    its skill: 1 Speed, 2 Size ("Height" on the sheet), 3 Jumping, 4 Strength, 5 Dexterity, 6 Endurance.
Turn:
    The events in order; within an event with several attempts all players make their first attempt,
    then their second, and so on; in the High Jump all players face each height before the bar rises.
Legal actions:
    100 m Hurdles (Speed +1 roll): 3 rolls; roll 4 dice, keep any, add the other 3 dice and roll the rest.
    High Jump (Jumping +1 to the sum, Size +1 attempt per height): try or skip each height 9, 12, ..., 42;
    3 attempts with 3 to 7 dice; three consecutive numbers or a sum below the height fail.
    Shot Put (Strength +1 roll, Size +1 score): 3 rolls per attempt. Spin: roll the 7 dice, keep all dice
    of one number (any number on the table), roll the others again or stop; throw: roll the kept dice,
    keep any and roll the rest again.
    200 m (Speed +1 roll): 3 rolls; roll 2 dice, keep any, add 2 new dice to the ones not kept.
    Long Jump (Jumping +1 roll): 4 rolls per attempt. Run-up: roll the 7 dice, keep dice whose number no
    other die shows; jump: roll the kept dice, keep any and roll the rest again.
    Javelin (Strength +1 score, Dexterity +1 roll and +1 score): 6 rolls of 2 dice; keep 0, 1 or 2: a 1
    while no higher number is kept, otherwise higher than every number kept; keeping a 6 ends the attempt.
    800 m (Endurance +1 roll and +2 score): 5 rolls of 2 dice (1 when only 1 is left); keep both or none.
Scoring:
    Hurdles: all 7 dice less 7 for each of the three -7s not crossed out by a 1, at least 0. High Jump: the
    highest height cleared. Shot Put: the spin number plus the throw dice plus Size. Long Jump: the jump
    dice. Javelin: (number of 1s) squared plus the other kept dice plus Strength and Dexterity. 200 m and
    800 m: the dice that form pairs (plus 2 per Endurance mark in the 800 m). Best attempt counts.
End:
    After the 800 metres the highest total wins; ties are shared.
Interpretation:
    Kept dice stay kept (they are frozen) in every event. The last roll of an event or attempt counts as
    it falls. At least one spin roll and one throw roll are needed, so the Spin ends one roll before the
    last. In the Long Jump a rolled die may be kept when no other die on the table (kept or rolled) shows
    its number. In the High Jump the choice to skip is made before the first attempt at a height. The 7
    dice are the pool: in the 200 m, Javelin and 800 m fewer dice are added once the pool runs out, and
    an event ends early when no die is left to roll. Javelin: two 1s may be kept from one roll, two
    equal higher numbers may not. Rolling on never lowers the 800 m score, so there is no early stop.
    Skill bonuses are added to every attempt, even one that scores nothing. The strong player maximises
    each attempt's expected score exactly (dynamic programming) except in the 200 m, where it uses a
    heuristic estimate.
Readings (where the text allows two; the other is an option):
    Hurdles, "for each 1 rolled, cross out one of the three -7s": the 1s among the seven dice at the
    end cross them out, as the sheet has it ("For each 1, cross out a -7; Add all 7 dice"), so a 1
    rolled again is lost; ``hurdles=rolled``: every 1 any roll shows crosses one out, kept or not.
    200 m and 800 m, "for each unique pair of dice": every two equal dice make a pair (three of a kind
    one pair, four of a kind two pairs; the example 4,4,5,5,6 = 18 fits both readings);
    ``pairs=distinct``: one pair per number.
    Shot Put, the Spin's "you may keep all dice of the same number": every spin roll keeps all the dice
    of one number on the table, the same or another (the text goes on "roll the dice that weren't kept
    and then keep all the same number", the sheet "keep all of one #"); ``spin=optional``: a spin roll
    may keep none, and the next rolls all seven dice (it never pays: the best expected shot is 16.45
    with three rolls either way). Expected hurdles with three rolls: 19.93, with ``hurdles=rolled`` 26.33.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar

from pyramid.rules import GameInfo
from pyramid.rules.options import OneOf, Options
from pyramid.tablegames import heptathlon_dp as dp
from pyramid.tablegames.base import Steps, TableGame, ask, roll

INFO = GameInfo(
    number=None,
    title="Heptathlon",
    category="Ch",
    players=(1, 2, 3, 4),
    material="7 dice",
    aliases=("siebenkampf", "nordeng", "brad-nordeng-heptathlon"),
    name="heptathlon",
    description="Brad Nordeng's Heptathlon: seven roll-and-write events with skills (options pairs, hurdles, spin)",
    tags=("table",),
)
SKILLS = ("speed", "size", "jumping", "strength", "dexterity", "endurance")
EVENTS = ("100m hurdles", "high jump", "shot put", "200 meters", "long jump", "javelin throw", "800 meters")
EVENT_SKILLS = {
    "100m hurdles": ("speed",),
    "high jump": ("jumping", "size"),
    "shot put": ("strength", "size"),
    "200 meters": ("speed",),
    "long jump": ("jumping",),
    "javelin throw": ("strength", "dexterity"),
    "800 meters": ("endurance",),
}
ATTEMPTS = {"shot put": 3, "long jump": 3, "javelin throw": 3}
BASE_ROLLS = {"100m hurdles": 3, "shot put": 3, "200 meters": 3, "long jump": 4, "javelin throw": 6, "800 meters": 5}
MAX_MARKS = 3


def roll_skills() -> Steps[list[int]]:
    """Marks per skill from a setup roll of 5 dice, extras of a number shown more than 3 times rolled again."""
    faces = yield from roll(5)
    while True:
        extras = [i for i, f in enumerate(faces) if faces[: i + 1].count(f) > MAX_MARKS]
        if not extras:
            break
        for i, face in zip(extras, (yield from roll(len(extras))), strict=True):
            faces[i] = face
    return [faces.count(v) for v in range(1, 7)]


def _hurdle_values(rolls_left: int, kept: list[int], keeps: list[list[int]], crossed: int | None) -> list[float]:
    return [dp.hurdles_value(rolls_left, kept + k, crossed) for k in keeps]


def _height_values(index: int, best: int, jumping: int, tries: int) -> list[float]:
    attempt = dp.high_jump_attempt(index, best, jumping, tries, tries)
    return [attempt, dp.high_jump_value(index + 1, best, jumping, tries)]


def _spin_values(
    count: int, face: int, rolled: list[int], left: int, moves: list[tuple[int, bool]], optional: bool
) -> list[float]:
    values = dp.spin_options(count, face, rolled, left, optional)
    return [values[m] for m in moves]


def _spin_text(count: int, face: int, throw: bool) -> str:
    if not face:
        return "keep none and spin again"
    return f"keep {count}x{face} and {'throw' if throw else 'spin again'}"


def _run_up_values(kept: int, unique: int, left: int, moves: list[tuple[int, bool]]) -> list[float]:
    values = dp.run_up_options(kept, unique, left)
    return [values[m] for m in moves]


def _two_hundred_values(kept: list[int], keeps: list[tuple[int, ...]], left: int, distinct: bool) -> list[float]:
    return [dp.two_hundred_estimate(kept + list(k), left, distinct) for k in keeps]


@dataclass
class Entry:
    """One player's line of the score sheet for one event."""

    results: list[str] = field(default_factory=list)
    best: int = 0
    out: bool = False  # High Jump: failed a height


class Heptathlon(TableGame):
    """One heptathlon: the skills rolled, the seven events in order, then the totals."""

    info: ClassVar[GameInfo] = INFO
    default_player: ClassVar[str] = "strong"
    option_specs: ClassVar[Options] = {
        "pairs": OneOf(
            "each (default: every two equal dice make a pair) or distinct (one pair per number)", ("each", "distinct")
        ),
        "hurdles": OneOf(
            "kept (default: the 1s among the seven dice at the end cross out -7s) or rolled (every 1 rolled)",
            ("kept", "rolled"),
        ),
        "spin": OneOf(
            "keep (default: every spin roll keeps the dice of one number) or optional (it may keep none)",
            ("keep", "optional"),
        ),
    }

    def setup(self) -> None:
        self.distinct = self.option("pairs", "each") == "distinct"
        self.hurdle_ones_rolled = self.option("hurdles", "kept") == "rolled"
        self.spin_optional = self.option("spin", "keep") == "optional"
        self.skills: list[list[int]] = []  # marks per skill for each player, rolled as the game starts
        self.sheet: dict[str, list[Entry]] = {}
        self.totals = [0] * self.players
        self.running: dict[str, list[int]] = {}

    def scores(self) -> tuple[float, ...]:
        return tuple(self.totals)

    def mark(self, i: int, skill: str) -> int:
        """Player ``i``'s marks in ``skill``."""
        return self.skills[i][SKILLS.index(skill)]

    # -- the competition -------------------------------------------------------------------------

    def script(self) -> Steps[None]:
        for _ in range(self.players):
            self.skills.append((yield from roll_skills()))
        for i, name in enumerate(self.names):
            marks = ", ".join(f"{s} +{m}" for s, m in zip(SKILLS, self.skills[i], strict=True) if m)
            self.say(f"{name} skills: {marks}")
        for event in EVENTS:
            yield from self.play_event(event)

    def play_event(self, name: str) -> Steps[None]:
        """Play one event for everybody and book the results."""
        entries = [Entry() for _ in range(self.players)]
        self.sheet[name] = entries
        self.say(f"== {name.title()} ==")
        if name == "high jump":
            for index in range(len(dp.HEIGHTS)):
                for i, entry in enumerate(entries):
                    if not entry.out:
                        yield from self._height(i, entry, index)
        else:
            for _ in range(ATTEMPTS.get(name, 1)):
                for i, entry in enumerate(entries):
                    score, detail = yield from self._attempt(name, i)
                    entry.results.append(detail)
                    entry.best = max(entry.best, score)
        for i, entry in enumerate(entries):
            self.totals[i] += entry.best
            self.say(f"  {self.names[i]}: {'; '.join(entry.results)} -> {entry.best}; total {self.totals[i]}")
        self.running[name] = list(self.totals)

    def _rolls(self, name: str, i: int) -> int:
        bonus = {
            "100m hurdles": "speed",
            "shot put": "strength",
            "200 meters": "speed",
            "long jump": "jumping",
            "javelin throw": "dexterity",
            "800 meters": "endurance",
        }[name]
        return BASE_ROLLS[name] + self.mark(i, bonus)

    def _attempt(self, name: str, i: int) -> Steps[tuple[int, str]]:
        rolls = self._rolls(name, i)
        if name == "100m hurdles":
            return (yield from self._hurdles(i, rolls))
        if name == "shot put":
            return (yield from self._shot_put(i, rolls))
        if name == "200 meters":
            return (yield from self._two_hundred(i, rolls))
        if name == "long jump":
            return (yield from self._long_jump(i, rolls))
        if name == "javelin throw":
            return (yield from self._javelin(i, rolls))
        return (yield from self._eight_hundred(i, rolls))

    # -- the events ------------------------------------------------------------------------------

    def _hurdles(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        kept: list[int] = []
        rolled_ones = 0  # the 1s shown by every roll (the reading hurdles=rolled)
        for r in range(1, rolls + 1):
            faces = sorted((yield from roll(dp.HURDLES_FIRST if r == 1 else dp.POOL - len(kept))), reverse=True)
            rolled_ones += faces.count(1)
            crossed = min(3, rolled_ones) if self.hurdle_ones_rolled else None
            if r == rolls:
                kept += faces
                break
            high = [f for f in faces if f != 1]
            keeps = [[1] * o + high[:j] for o in range(faces.count(1) + 1) for j in range(len(high) + 1)]
            left = rolls - r
            choice = yield from ask(
                i,
                f"hurdles roll {r}/{rolls}: {faces} (kept {kept})",
                [f"keep {k}" for k in keeps],
                partial(_hurdle_values, left, list(kept), keeps, crossed),
            )
            kept += keeps[choice]
            if len(kept) == dp.POOL:
                break
        boxes = min(3, rolled_ones if self.hurdle_ones_rolled else kept.count(1))
        score = dp.hurdles_score(kept, boxes)
        return score, f"{'+'.join(map(str, sorted(kept, reverse=True)))} -7x{3 - boxes} = {score}"

    def _height(self, i: int, entry: Entry, index: int) -> Steps[None]:
        height, jumping = dp.HEIGHTS[index], self.mark(i, "jumping")
        tries = 3 + self.mark(i, "size")
        skip = yield from ask(
            i,
            f"high jump: height {height} (cleared {entry.best})",
            ["attempt", "skip"],
            partial(_height_values, index, entry.best, jumping, tries),
        )
        if skip:
            return
        marks = ""
        for left in range(tries, 0, -1):
            options = [f"jump with {n} dice" for n in dp.HIGH_JUMP_DICE]
            prompt = f"high jump: height {height}, attempt {tries - left + 1}/{tries}"
            values = partial(dp.high_jump_options, index, entry.best, jumping, tries, left)
            n = dp.HIGH_JUMP_DICE[(yield from ask(i, prompt, options, values))]
            faces = yield from roll(n)
            if sum(faces) + jumping >= height and not dp.has_run_of_three(faces):
                entry.results.append(f"{height}:{marks}O")
                entry.best = height
                return
            marks += "X"
        entry.results.append(f"{height}:{marks}")
        entry.out = True

    def _shot_put(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        count, face = 0, 0
        r = 0
        while True:
            r += 1
            rolled = yield from roll(dp.POOL - count)
            table = rolled + [face] * count
            left = rolls - r
            moves = [
                (v, throw)
                for v in sorted(set(table), reverse=True)
                for throw in (True, False)
                if (left >= 1 if throw else left >= 2)
            ]
            moves += [(0, False)] if self.spin_optional and left >= 2 else []
            options = [_spin_text(table.count(v), v, throw) for v, throw in moves]
            choice = yield from ask(
                i,
                f"shot put spin roll {r}/{rolls}: {sorted(rolled, reverse=True)} (kept {count}x{face})",
                options,
                partial(_spin_values, count, face, rolled, left, moves, self.spin_optional),
            )
            face, throw = moves[choice]
            count = table.count(face) if face else 0
            if throw:
                break
        total = yield from self._keep_best(i, "shot put throw", count, rolls - r)
        size = self.mark(i, "size")
        return face + total + size, f"{face}+{total}+{size} = {face + total + size}"

    def _keep_best(self, i: int, what: str, dice: int, rolls: int) -> Steps[int]:
        """Roll ``dice`` dice up to ``rolls`` times, keeping any between rolls; the sum of the end result."""
        kept = 0
        for r in range(1, rolls + 1):
            faces = sorted((yield from roll(dice)), reverse=True)
            if r == rolls:
                return kept + sum(faces)
            options = [
                f"keep {faces[:j]}" + (" and roll the rest" if j < len(faces) else "") for j in range(len(faces) + 1)
            ]
            j = yield from ask(
                i,
                f"{what} roll {r}/{rolls}: {faces} (kept {kept})",
                options,
                partial(dp.throw_options, faces, kept, rolls - r),
            )
            kept += sum(faces[:j])
            dice -= j
            if dice == 0:
                break
        return kept

    def _long_jump(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        kept: list[int] = []
        r = 0
        while True:
            r += 1
            rolled = sorted((yield from roll(dp.POOL - len(kept))), reverse=True)
            table = kept + rolled
            unique = [f for f in rolled if table.count(f) == 1]
            left = rolls - r
            moves = [
                (j, jump)
                for j in range(len(unique) + 1)
                for jump in (True, False)
                if (left >= 1 if jump else left >= 2)
            ]
            options = [f"keep {unique[:j]} and {'jump' if jump else 'run on'}" for j, jump in moves]
            choice = yield from ask(
                i,
                f"long jump run-up roll {r}/{rolls}: {rolled} (kept {kept})",
                options,
                partial(_run_up_values, len(kept), len(unique), left, moves),
            )
            j, jump = moves[choice]
            kept += unique[:j]
            if jump:
                break
        score = (yield from self._keep_best(i, "long jump", len(kept), rolls - r)) if kept else 0
        return score, f"{len(kept)} dice: {score}"

    def _javelin(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        ones, highest, kept = 0, 0, list[int]()
        for r in range(1, rolls + 1):
            dice = min(2, dp.POOL - len(kept))
            if dice == 0 or highest == 6:
                break
            rolled = sorted((yield from roll(dice)))
            keeps = dp.javelin_keeps(rolled, ones, highest)
            options = [f"keep {list(k)}" if k else "keep none" for k in keeps]
            choice = yield from ask(
                i,
                f"javelin roll {r}/{rolls}: {rolled} (kept {kept})",
                options,
                partial(dp.javelin_options, rolled, ones, highest, len(kept), rolls - r),
            )
            for f in keeps[choice]:
                kept.append(f)
                ones, highest = (ones + 1, highest) if f == 1 else (ones, f)
        bonus = self.mark(i, "strength") + self.mark(i, "dexterity")
        others = sum(f for f in kept if f != 1)
        score = ones * ones + others + bonus
        return score, f"{ones}^2+{others}+{bonus} = {score}"

    def _two_hundred(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        kept: list[int] = []
        unkept, pool = 0, dp.POOL
        for r in range(1, rolls + 1):
            new = min(2, pool)
            pool -= new
            if unkept + new == 0:
                break
            rolled = sorted((yield from roll(unkept + new)), reverse=True)
            if r == rolls:
                kept += rolled
                break
            keeps = sorted(
                {c for n in range(len(rolled) + 1) for c in itertools.combinations(rolled, n)},
                key=lambda c: (len(c), c),
            )
            choice = yield from ask(
                i,
                f"200 m roll {r}/{rolls}: {rolled} (kept {sorted(kept)})",
                [f"keep {list(k)}" if k else "keep none" for k in keeps],
                partial(_two_hundred_values, list(kept), keeps, rolls - r, self.distinct),
            )
            kept += keeps[choice]
            unkept = len(rolled) - len(keeps[choice])
        score = dp.pair_score(kept, self.distinct)
        return score, f"{' '.join(map(str, sorted(kept)))} = {score}"

    def _eight_hundred(self, i: int, rolls: int) -> Steps[tuple[int, str]]:
        kept: list[int] = []
        for r in range(1, rolls + 1):
            dice = min(2, dp.POOL - len(kept))
            if dice == 0:
                break
            rolled = sorted((yield from roll(dice)))
            if r == rolls:
                kept += rolled
                break
            choice = yield from ask(
                i,
                f"800 m roll {r}/{rolls}: {rolled} (kept {sorted(kept)})",
                ["keep both" if dice == 2 else "keep", "keep none"],
                partial(dp.eight_hundred_options, tuple(sorted(kept)), rolled, rolls - r, self.distinct),
            )
            if choice == 0:
                kept += rolled
        bonus = 2 * self.mark(i, "endurance")
        pairs = dp.pair_score(kept, self.distinct)
        return pairs + bonus, f"{' '.join(map(str, sorted(kept)))}: {pairs}+{bonus} = {pairs + bonus}"

    # -- the score sheet -----------------------------------------------------------------------

    def score_sheet(self) -> str:
        """The score sheet as in the rule book: skills boxes, then per event the results and running total."""
        width = max([len(n) for n in self.names] + [12])
        lines = [
            "Brad Nordeng's Heptathlon - Score Sheet",
            f"{'NAME':24s}" + "".join(f" | {n:{width}s}" for n in self.names),
        ]
        for k, skill in enumerate(SKILLS):
            label = f"{k + 1} {'Height' if skill == 'size' else skill.title()}"
            lines.append(
                f"{label:24s}"
                + "".join(f" | {'[x]' * s[k] + '[ ]' * (MAX_MARKS - s[k]):{width}s}" for s in self.skills)
            )
        for name in EVENTS:
            if name not in self.running:  # not booked yet
                continue
            lines.append("-" * len(lines[1]))
            lines.append(f"{EVENTS.index(name) + 1} {name.title()} ({', '.join(EVENT_SKILLS[name])})")
            for i, entry in enumerate(self.sheet[name]):
                detail = "; ".join(entry.results) or "-"
                lines.append(
                    f"    {self.names[i]:{width}s}  {detail}  Score {entry.best}  Running Total {self.running[name][i]}"
                )
        lines.append("-" * len(lines[1]))
        lines.append(f"{'Total':24s}" + "".join(f" | {t:<{width}d}" for t in self.totals))
        return "\n".join(lines)
