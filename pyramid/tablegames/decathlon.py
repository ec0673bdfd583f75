"""Reiner Knizia's Decathlon (seed 000): ten dice disciplines, and the Championship variant.

Setup:
    1 to 4 players (any number in the Championship); eight dice; a score sheet with a column per player.
Turn:
    Disciplines are played in order. Attempts go round: all first attempts, then all second ones; at the
    High Jump and Pole-Vault every player jumps (or skips) the current height before the bar rises.
    The first discipline is started in the order of a die roll; afterwards the leader starts, ties by a die.
Legal actions:
    100 m / 400 m / 1500 m: freeze the set just thrown or rethrow it (five rethrows in all).
    Long Jump: freeze at least one die after each run-up throw (frozen total at most 8), then jump or
    rethrow; in the jump freeze at least one die per throw until all are frozen.
    Shot Put: after each die stop or throw the next; a 1 is an invalid attempt.
    High Jump: try or skip each height (10, 12, ...); 3 jumps with 5 dice, the sum must reach the height.
    110 m Hurdles: keep the five dice or pick them all up again (five pick-ups).
    Discus / Javelin: freeze at least one even (odd) die after each throw; stop whenever you like.
    Pole-Vault: as High Jump, but choose 1 to 8 dice per jump and no die may show a 1.
Scoring:
    Running events: faces 1-5 count, sixes are subtracted. Long Jump: the jump dice. Shot Put, Discus,
    Javelin: the frozen dice. Heights: the highest height mastered. The best attempt counts; an invalid
    attempt scores nothing. Championship: per discipline gold 3, silver 2, bronze 1 honours; ties all get
    the better medal; no medal without a valid result.
End:
    After the 1500 metres the highest total (Championship: most honours) wins; ties are shared.
Interpretation:
    Where several dice may be frozen, the player chooses how many; the highest ones (in the run-up of the
    Long Jump the lowest ones) are frozen, since any other choice of the same count is never better.
    A run-up throw that cannot be frozen within 8 is an invalid attempt. "Without a valid result" means
    all attempts invalid, or no height mastered. A player who fails a height jumps no further heights.
    The player order's die ties are broken by throwing again. The Championship takes any number of
    players.
Optimal play:
    The optimal player's expected score per discipline (exact, by dynamic programming over the dice:
    ``decathlon_dp.expected_scores``; the dice are fair):
    100 metres       24.00
    Long Jump        22.39
    Shot Put         18.63
    High Jump        19.26
    400 metres       25.67
    110 m Hurdles    21.38
    Discus           22.32
    Pole-Vault       17.28
    Javelin          22.25
    1500 metres      26.53
    Total           219.71
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from pyramid.rules import ANY_NUMBER, GameInfo
from pyramid.rules.options import Options, YesNo
from pyramid.tablegames import decathlon_dp as dp
from pyramid.tablegames.base import Steps, TableGame, ask, roll

INFO = GameInfo(
    number=None,
    title="Decathlon",
    category="Ch",
    players=(1, 2, 3, 4),
    material="8 dice",
    aliases=("knizia-decathlon", "zehnkampf", "championship"),
    name="decathlon",
    description="Reiner Knizia's Decathlon: ten dice disciplines (option championship=1 for medals)",
    tags=("table",),
)
DISCIPLINES = (
    "100 metres",
    "long jump",
    "shot put",
    "high jump",
    "400 metres",
    "110 metre hurdles",
    "discus",
    "pole vault",
    "javelin",
    "1500 metres",
)
MEDALS = (3, 2, 1)


@dataclass
class Entry:
    """One player's line of the score sheet for one discipline."""

    results: list[str] = field(default_factory=list)  # left side: attempts, heights
    best: int | None = None  # None: no valid result
    out: bool = False  # a height failed: no more jumps


def _hurdle_options(points: int, pickups: int) -> list[float]:
    return [float(points), dp.hurdles_value(pickups - 1)]


def _shot_options(attempts_left: int, best: int, thrown: int, total: int) -> list[float]:
    return dp.shot_options(attempts_left, best, thrown, total)[:2]


def _pole_options(height: int, jumps_left: int, mastered: int) -> list[float]:
    return list(dp.pole_options(height, jumps_left, mastered))


class Decathlon(TableGame):
    """One decathlon: the ten disciplines in order, then the totals (points, or honours in the Championship)."""

    info: ClassVar[GameInfo] = INFO
    default_player: ClassVar[str] = "optimal"
    option_specs: ClassVar[Options] = {
        "championship": YesNo("yes: the Championship, medals (3, 2, 1 honours) per discipline, any number of players")
    }

    @classmethod
    def allowed_players(cls, options: dict[str, Any]) -> Sequence[int]:
        if options.get("championship", False):
            return ANY_NUMBER
        return INFO.players

    def setup(self) -> None:
        self.championship: bool = self.option("championship", False)
        self.sheet: dict[str, list[Entry]] = {}
        self.totals = [0] * self.players  # points, or honours in the Championship
        self.running: dict[str, list[int]] = {}

    def scores(self) -> tuple[float, ...]:
        return tuple(self.totals)

    # -- the competition -------------------------------------------------------------------------

    def script(self) -> Steps[None]:
        for name in DISCIPLINES:
            yield from self.play_discipline(name)

    def order(self) -> Steps[list[int]]:
        """Players in the order of play: by running total, ties (and the first discipline) by dice."""
        groups: dict[int, list[int]] = {}
        for i, total in enumerate(self.totals):
            groups.setdefault(-total, []).append(i)
        order: list[int] = []
        for key in sorted(groups):
            order += yield from self._roll_off(groups[key])
        return order

    def _roll_off(self, group: list[int]) -> Steps[list[int]]:
        if len(group) == 1:
            return group
        faces = yield from roll(len(group))
        by_face: dict[int, list[int]] = {}
        for i, face in zip(group, faces, strict=True):
            by_face.setdefault(-face, []).append(i)
        order: list[int] = []
        for key in sorted(by_face):
            order += yield from self._roll_off(by_face[key])
        return order

    def play_discipline(self, name: str) -> Steps[None]:
        """Play one discipline for everybody and book the results."""
        entries = [Entry() for _ in range(self.players)]
        self.sheet[name] = entries
        order = yield from self.order()
        self.say(f"== {name.title()} == order: {', '.join(self.names[i] for i in order)}")
        if name in ("high jump", "pole vault"):
            for height in range(dp.FIRST_HEIGHT, dp.top_height(name) + 1, dp.HEIGHT_STEP):
                for i in order:
                    if not entries[i].out:
                        yield from self._height(name, i, entries[i], height)
        else:
            rounds = dp.ATTEMPTS if name in ("long jump", "shot put", "discus", "javelin") else 1
            for attempt in range(rounds):
                for i in order:
                    yield from self._attempt(name, i, entries[i], rounds - attempt)
        self._book(name, entries)

    def _book(self, name: str, entries: list[Entry]) -> None:
        if self.championship:
            for i, entry in enumerate(entries):
                if entry.best is None:
                    continue
                # Players tied get the better medal; the next result takes the next medal still free.
                better = sum(1 for e in entries if e.best is not None and e.best > entry.best)
                if better < len(MEDALS):
                    self.totals[i] += MEDALS[better]
        else:
            for i, entry in enumerate(entries):
                self.totals[i] += entry.best or 0
        self.running[name] = list(self.totals)
        for i, entry in enumerate(entries):
            shown = "no valid result" if entry.best is None else str(entry.best)
            self.say(f"  {self.names[i]}: {' '.join(entry.results)} -> {shown}; total {self.totals[i]}")

    # -- one attempt ---------------------------------------------------------------------------

    def _attempt(self, name: str, i: int, entry: Entry, attempts_left: int) -> Steps[None]:
        result: int | None
        if name in ("100 metres", "400 metres", "1500 metres"):
            sets, dice = {"100 metres": (2, 4), "400 metres": (4, 2), "1500 metres": (8, 1)}[name]
            result = yield from self._sprint(i, sets, dice)
        elif name == "110 metre hurdles":
            result = yield from self._hurdles(i)
        elif name == "shot put":
            result = yield from self._shot(i, entry, attempts_left)
        elif name == "long jump":
            result = yield from self._long_jump(i, entry, attempts_left)
        else:
            result = yield from self._freeze_event(name, i, entry, attempts_left)
        entry.results.append("X" if result is None else str(result))
        if result is not None and (entry.best is None or result > entry.best):
            entry.best = result

    def _sprint(self, i: int, sets: int, dice: int) -> Steps[int]:
        rethrows, total = dp.SPRINT_RETHROWS, 0
        for index in range(sets):
            while True:
                faces = yield from roll(dice)
                points = sum(dp.die_points(f) for f in faces)
                if rethrows == 0:
                    break
                acc = total

                def values(r: int = rethrows, x: int = points, k: int = index, a: int = acc) -> list[float]:
                    return [a + v for v in dp.sprint_options(sets, dice, k, r, x)]

                prompt = f"set {index + 1}/{sets} shows {faces} = {points} (total so far {total}, {rethrows} rethrows)"
                if (yield from ask(i, prompt, ["freeze", "rethrow"], values)) == 0:
                    break
                rethrows -= 1
            total += points
        return total

    def _hurdles(self, i: int) -> Steps[int]:
        pickups = dp.HURDLE_PICKUPS
        while True:
            faces = yield from roll(5)
            if pickups == 0:
                return sum(faces)
            x, r = sum(faces), pickups
            choice = yield from ask(
                i,
                f"hurdles {faces} = {x} ({pickups} pick-ups left)",
                ["keep", "pick up"],
                partial(_hurdle_options, x, r),
            )
            if choice == 0:
                return x
            pickups -= 1

    def _shot(self, i: int, entry: Entry, attempts_left: int) -> Steps[int | None]:
        best, total = entry.best or 0, 0
        for thrown in range(1, dp.SHOT_DICE + 1):
            face = (yield from roll(1))[0]
            if face == 1:
                return None
            total += face
            if thrown == dp.SHOT_DICE:
                break
            n, t = thrown, total
            choice = yield from ask(
                i,
                f"shot put: die {thrown} shows {face}, total {total}",
                ["stop", "throw another"],
                partial(_shot_options, attempts_left, best, n, t),
            )
            if choice == 0:
                break
        return total

    def _long_jump(self, i: int, entry: Entry, attempts_left: int) -> Steps[int | None]:
        best = entry.best or 0
        jump, after, rethrow = dp.long_jump_tables(attempts_left, best)
        frozen, total = 0, 0
        while True:
            faces = sorted((yield from roll(dp.LONG_JUMP_DICE - frozen)))
            options: list[str] = []
            values: list[float] = []
            moves: list[tuple[int, bool]] = []
            for j in range(1, len(faces) + 1):
                t = total + sum(faces[:j])
                if t > dp.LONG_JUMP_LIMIT:
                    break
                options.append(f"freeze {faces[:j]} (run-up {t}) and jump")
                values.append(float(jump[frozen + j][0]))
                moves.append((j, True))
                if frozen + j < dp.LONG_JUMP_DICE:
                    options.append(f"freeze {faces[:j]} (run-up {t}) and rethrow")
                    values.append(float(rethrow[frozen + j, t]))
                    moves.append((j, False))
            if not options:
                return None
            prompt = f"long jump run-up {faces} (frozen {frozen}, total {total})"
            j, go = moves[(yield from ask(i, prompt, options, partial(list, values)))]
            frozen, total = frozen + j, total + sum(faces[:j])
            if go:
                break
        left, score = frozen, 0
        while left > 0:
            faces = sorted((yield from roll(left)), reverse=True)
            options = [f"freeze {faces[:j]}" for j in range(1, left + 1)]
            values = [float(jump[left - j][min(score + sum(faces[:j]), dp.PAD - 1)]) for j in range(1, left + 1)]
            j = 1 + (yield from ask(i, f"long jump {faces} (jump so far {score})", options, partial(list, values)))
            left, score = left - j, score + sum(faces[:j])
        return score

    def _freeze_event(self, name: str, i: int, entry: Entry, attempts_left: int) -> Steps[int | None]:
        n, parity = dp.FREEZE_DISCIPLINES[name]
        best = entry.best or 0
        after, throw = dp.freeze_tables(name, attempts_left, best)
        frozen, total = 0, 0
        while frozen < n:
            faces = sorted((yield from roll(n - frozen)), reverse=True)
            good = [f for f in faces if f % 2 == parity]
            if not good:
                return None
            options, values, moves = [], [], []
            for j in range(1, len(good) + 1):
                s = total + sum(good[:j])
                options.append(f"freeze {good[:j]} (total {s}) and stop")
                values.append(dp.best_of(name, attempts_left - 1, max(best, s)))
                moves.append((j, True))
                if frozen + j < n:
                    options.append(f"freeze {good[:j]} (total {s}) and throw again")
                    values.append(float(throw[frozen + j, s]))
                    moves.append((j, False))
            prompt = f"{name} {faces} (frozen {frozen}, total {total})"
            j, stop = moves[(yield from ask(i, prompt, options, partial(list, values)))]
            frozen, total = frozen + j, total + sum(good[:j])
            if stop:
                break
        return total

    def _height(self, name: str, i: int, entry: Entry, height: int) -> Steps[None]:
        mastered = entry.best or 0
        if name == "high jump":
            values = partial(dp.high_jump_options, height, mastered)
            if (yield from ask(i, f"high jump: height {height}", ["try", "skip"], values)) == 1:
                return
        for jumps_left in range(dp.ATTEMPTS, 0, -1):
            if name == "high jump":
                dice = dp.HIGH_JUMP_DICE
            else:
                options = [f"jump with {n} dice" for n in range(1, dp.POLE_DICE + 1)]
                options += ["skip the height"] if jumps_left == dp.ATTEMPTS else []
                choice = yield from ask(
                    i,
                    f"pole vault: height {height}, jump {dp.ATTEMPTS - jumps_left + 1}",
                    options,
                    partial(_pole_options, height, jumps_left, mastered),
                )
                if choice == dp.POLE_DICE:
                    return
                dice = choice + 1
            faces = yield from roll(dice)
            if sum(faces) >= height and (name == "high jump" or min(faces) >= 2):
                entry.results.append(f"{height}:{'X' * (dp.ATTEMPTS - jumps_left)}O")
                entry.best = height
                return
        entry.results.append(f"{height}:XXX")
        entry.out = True

    # -- the score sheet -----------------------------------------------------------------------

    def score_sheet(self) -> str:
        """The score sheet as in the rule book: per discipline each player's results and running total."""
        kind = "honours" if self.championship else "total"
        played = [name for name in DISCIPLINES if name in self.running]  # the disciplines booked
        cells = {
            name: [f"{' '.join(e.results)} [{'-' if e.best is None else e.best}]" for e in self.sheet[name]]
            for name in played
        }
        width = max([len(n) for n in self.names] + [len(c) for row in cells.values() for c in row] + [8])
        head = f"{'Discipline':18s}" + "".join(f" | {n:{width}s} {kind:>7s}" for n in self.names)
        lines = [
            "Reiner Knizia's Decathlon" + (" - Championship" if self.championship else "") + " - Score Sheet",
            head,
            "-" * len(head),
        ]
        for name in played:
            row = f"{name.title():18s}"
            for cell, total in zip(cells[name], self.running[name], strict=True):
                row += f" | {cell:{width}s} {total:>7d}"
            lines.append(row)
        return "\n".join(lines)
