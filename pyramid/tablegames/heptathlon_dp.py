"""Scoring and expected values of the Heptathlon events, for the strong player's decisions.

Exact dynamic programmes over the dice for a single attempt of each event (the 200 metres uses a
heuristic estimate); the game reads its option values from here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np

from pyramid.tablegames.base import outcomes

POOL = 7  # dice per player
HURDLES_FIRST = 4
HURDLE_PENALTY = 7
HEIGHTS = tuple(range(9, 43, 3))
HIGH_JUMP_DICE = range(3, 8)
NEG = -1e9
MAX_SUM = 6 * POOL


def pair_score(faces: Sequence[int], distinct: bool = False) -> int:
    """Sum of the dice that form pairs: every two equal dice a pair (``distinct``: one pair per number)."""
    total = 0
    for v in set(faces):
        pairs = faces.count(v) // 2
        total += 2 * v * (min(pairs, 1) if distinct else pairs)
    return total


def hurdles_score(faces: Sequence[int], crossed: int | None = None) -> int:
    """All dice added, less 7 for each of the three -7 boxes not crossed out (by default by the 1s among
    ``faces``; ``crossed``: by the 1s rolled); never below 0."""
    ones = min(3, sum(1 for f in faces if f == 1) if crossed is None else crossed)
    return max(0, sum(faces) - HURDLE_PENALTY * (3 - ones))


def has_run_of_three(faces: Sequence[int]) -> bool:
    """Whether three consecutive numbers show among the dice (a High Jump foul)."""
    shown = set(faces)
    return any({v, v + 1, v + 2} <= shown for v in range(1, 5))


def javelin_allowed(face: int, ones: int, highest: int) -> bool:
    """Whether ``face`` may be kept: a 1 while no higher number is kept, else higher than all kept so far."""
    if face == 1:
        return highest == 0
    return face > max(highest, 1 if ones else 0)


# -- 100 metre hurdles ---------------------------------------------------------------------------


@cache
def _hurdle_keeps(
    m: int, final: bool, rolled: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Keep options of every throw of ``m`` dice: (probs, starts, kept count, kept sum, boxes crossed out);
    a box is crossed out by a 1 kept, or with ``rolled`` by every 1 the throw shows."""
    probs, faces = outcomes(m)
    starts: list[int] = []
    dc: list[int] = []
    ds: list[int] = []
    dx: list[int] = []
    for row in faces:
        starts.append(len(dc))
        ones = int((row == 1).sum())
        high = [int(f) for f in row if f != 1]
        for i in range(ones + 1):
            for j in range(len(high) + 1):
                if final and i + j < m:
                    continue
                dc.append(i + j)
                ds.append(i + sum(high[:j]))
                dx.append(ones if rolled else i)
    return probs, np.array(starts), np.array(dc), np.array(ds), np.array(dx)


@cache
def hurdles_tables(rolls: int, rolled: bool = False) -> tuple[np.ndarray, ...]:
    """W[r] (8, 43, 4): expected score with r rolls left, by kept dice, their sum and the boxes crossed out
    (at most 3: by the 1s kept, or with ``rolled`` by the 1s rolled)."""
    s = np.arange(MAX_SUM + 1)
    score = np.maximum(0, s[:, None] - HURDLE_PENALTY * (3 - np.arange(4))[None, :]).astype(float)
    tables = [np.zeros((POOL + 1, MAX_SUM + 1, 4))]
    tables[0][POOL] = score
    for r in range(1, rolls + 1):
        prev = tables[-1]
        table = np.zeros_like(prev)
        table[POOL] = score
        for k in range(POOL):
            probs, starts, dc, ds, dx = _hurdle_keeps(POOL - k, r == 1, rolled)
            # Gather the value after every keep option for all kept sums and crossed boxes at once.
            gathered = prev[
                (k + dc)[:, None, None],
                np.minimum(s[None, :, None] + ds[:, None, None], MAX_SUM),
                np.minimum(np.arange(4)[None, None, :] + dx[:, None, None], 3),
            ]
            best = np.maximum.reduceat(gathered, starts, axis=0)
            table[k] = np.tensordot(probs, best, axes=1)
        tables.append(table)
    return tuple(tables)


def hurdles_value(rolls_left: int, kept: Sequence[int], crossed: int | None = None) -> float:
    """Expected score with ``kept`` dice frozen and ``rolls_left`` rolls to come; ``crossed``: the boxes
    crossed out so far by the 1s rolled (the other reading), else the 1s kept count."""
    rolled = crossed is not None
    boxes = min(3, sum(1 for f in kept if f == 1) if crossed is None else crossed)
    return float(hurdles_tables(rolls_left, rolled)[rolls_left][len(kept), sum(kept), boxes])


# -- High Jump -----------------------------------------------------------------------------------


@cache
def clear_probability(dice: int, height: int, jumping: int) -> float:
    """Chance that ``dice`` dice clear ``height``: sum plus Jumping reaches it and no run of three."""
    probs, faces = outcomes(dice)
    return float(
        sum(
            p
            for p, row in zip(probs, faces, strict=True)
            if row.sum() + jumping >= height and not has_run_of_three(row.tolist())
        )
    )


def best_dice(height: int, jumping: int) -> tuple[int, float]:
    """The number of dice most likely to clear ``height``, and that chance."""
    return max(((n, clear_probability(n, height, jumping)) for n in HIGH_JUMP_DICE), key=lambda x: (x[1], -x[0]))


@cache
def high_jump_value(index: int, best: int, jumping: int, tries: int) -> float:
    """Expected score before deciding on height ``HEIGHTS[index]`` with ``best`` cleared so far."""
    if index == len(HEIGHTS):
        return float(best)
    return max(high_jump_value(index + 1, best, jumping, tries), high_jump_attempt(index, best, jumping, tries, tries))


@cache
def high_jump_attempt(index: int, best: int, jumping: int, tries: int, left: int) -> float:
    """Expected score with ``left`` attempts at height ``HEIGHTS[index]`` still to take."""
    return max(high_jump_options(index, best, jumping, tries, left))


def high_jump_options(index: int, best: int, jumping: int, tries: int, left: int) -> list[float]:
    """Expected score of jumping with 3, 4, ..., 7 dice at this height."""
    fail = high_jump_attempt(index, best, jumping, tries, left - 1) if left > 1 else float(best)
    win = high_jump_value(index + 1, HEIGHTS[index], jumping, tries)
    return [(p := clear_probability(n, HEIGHTS[index], jumping)) * win + (1 - p) * fail for n in HIGH_JUMP_DICE]


# -- Shot Put and Long Jump ------------------------------------------------------------------------


@cache
def throw_value(dice: int, rolls: int) -> float:
    """Expected sum of ``dice`` dice thrown ``rolls`` times, keeping the best ones between rolls."""
    if dice == 0 or rolls == 0:
        return 0.0
    if rolls == 1:
        return 3.5 * dice
    probs, faces = outcomes(dice)
    tops = np.cumsum(faces, axis=1)
    best = np.full(len(probs), throw_value(dice, rolls - 1))
    for j in range(1, dice + 1):
        best = np.maximum(best, tops[:, j - 1] + throw_value(dice - j, rolls - 1))
    return float(probs @ best)


def throw_options(faces: Sequence[int], kept_sum: int, rolls_left: int) -> list[float]:
    """Expected total after keeping the highest 0, 1, ... of ``faces`` with ``rolls_left`` rolls to come."""
    ordered = sorted(faces, reverse=True)
    return [kept_sum + sum(ordered[:j]) + throw_value(len(ordered) - j, rolls_left) for j in range(len(ordered) + 1)]


@cache
def spin_value(count: int, face: int, rolls: int, optional: bool = False) -> float:
    """Expected shot (spin number plus throw) with ``count`` dice kept showing ``face``, ``rolls`` left;
    ``optional``: a spin roll may keep no dice."""
    probs, faces = outcomes(POOL - count)
    total = 0.0
    for p, row in zip(probs, faces, strict=True):
        total += p * max(spin_options(count, face, row.tolist(), rolls - 1, optional).values(), default=0.0)
    return total


def spin_options(
    count: int, face: int, rolled: Sequence[int], rolls_left: int, optional: bool = False
) -> dict[tuple[int, bool], float]:
    """Values of (number kept, throw now) after a spin roll, with ``rolls_left`` rolls after it; with
    ``optional``, (0, False) keeps no dice and spins again."""
    values: dict[tuple[int, bool], float] = {}
    for v in sorted(set(rolled) | ({face} if count else set())):
        n = rolled.count(v) + (count if v == face else 0)
        if rolls_left >= 1:
            values[(v, True)] = v + throw_value(n, rolls_left)
        if rolls_left >= 2:
            values[(v, False)] = spin_value(n, v, rolls_left, optional)
    if optional and rolls_left >= 2:
        values[(0, False)] = spin_value(0, 0, rolls_left, optional)
    return values


@cache
def _unique_distribution(kept: int) -> dict[int, float]:
    """Distribution of how many of the ``7 - kept`` rolled dice show a number nobody else shows."""
    probs, faces = outcomes(POOL - kept)
    dist: dict[int, float] = {}
    for p, row in zip(probs, faces, strict=True):
        u = sum(1 for v in set(row.tolist()) if v > kept and (row == v).sum() == 1)
        dist[u] = dist.get(u, 0.0) + float(p)
    return dist


@cache
def run_up_value(kept: int, rolls: int) -> float:
    """Expected jump with ``kept`` unique dice from the run-up and ``rolls`` rolls left (next is a run-up)."""
    return sum(p * max(run_up_options(kept, u, rolls - 1).values()) for u, p in _unique_distribution(kept).items())


def run_up_options(kept: int, unique: int, rolls_left: int) -> dict[tuple[int, bool], float]:
    """Values of (newly kept, jump now) after a run-up roll with ``unique`` keepable dice."""
    values: dict[tuple[int, bool], float] = {}
    for j in range(unique + 1):
        if rolls_left >= 1:
            values[(j, True)] = throw_value(kept + j, rolls_left)
        if rolls_left >= 2:
            values[(j, False)] = run_up_value(kept + j, rolls_left)
    return values


# -- Javelin -------------------------------------------------------------------------------------


def javelin_keeps(rolled: Sequence[int], ones: int, highest: int) -> list[tuple[int, ...]]:
    """The legal keeps of a javelin roll, smallest die first."""
    keeps: list[tuple[int, ...]] = [()]
    for size in range(1, len(rolled) + 1):
        for combo in sorted(set(itertools.combinations(sorted(rolled), size))):
            o, h, ok = ones, highest, True
            for f in combo:
                ok = ok and javelin_allowed(f, o, h)
                o, h = (o + 1, h) if f == 1 else (o, f)
            if ok:
                keeps.append(combo)
    return keeps


@cache
def javelin_value(ones: int, highest: int, kept: int, rolls: int) -> float:
    """Expected (1s squared plus the other dice still to keep) from this state with ``rolls`` left."""
    dice = min(2, POOL - kept)
    if rolls == 0 or dice == 0 or highest == 6:
        return float(ones * ones)
    probs, faces = outcomes(dice)
    total = 0.0
    for p, row in zip(probs, faces, strict=True):
        total += p * max(javelin_options(row.tolist(), ones, highest, kept, rolls - 1))
    return total


def javelin_options(rolled: Sequence[int], ones: int, highest: int, kept: int, rolls_left: int) -> list[float]:
    """Expected value of each legal keep (in ``javelin_keeps`` order), counting the kept higher dice."""
    values = []
    for keep in javelin_keeps(rolled, ones, highest):
        o = ones + keep.count(1)
        h = max([highest] + [f for f in keep if f != 1])
        gain = sum(f for f in keep if f != 1)
        values.append(gain + javelin_value(o, h, kept + len(keep), rolls_left))
    return values


# -- 200 and 800 metres ----------------------------------------------------------------------------


@cache
def eight_hundred_value(kept: tuple[int, ...], rolls: int, distinct: bool) -> float:
    """Expected pair score with ``kept`` (sorted) frozen and ``rolls`` left."""
    dice = min(2, POOL - len(kept))
    if rolls == 0 or dice == 0:
        return float(pair_score(kept, distinct))
    probs, faces = outcomes(dice)
    total = 0.0
    for p, row in zip(probs, faces, strict=True):
        total += p * max(eight_hundred_options(kept, row.tolist(), rolls - 1, distinct))
    return total


def eight_hundred_options(kept: Sequence[int], rolled: Sequence[int], rolls_left: int, distinct: bool) -> list[float]:
    """Values of [keep all rolled, keep none]."""
    both = eight_hundred_value(tuple(sorted([*kept, *rolled])), rolls_left, distinct)
    if rolls_left == 0:
        return [both, NEG]
    return [both, eight_hundred_value(tuple(sorted(kept)), rolls_left, distinct)]


def two_hundred_estimate(kept: Sequence[int], rolls_left: int, distinct: bool) -> float:
    """Heuristic value of a 200 m position: pairs made, plus a share of each single by its chance to pair.

    A single waiting for its partner is worth its pips times the chance that one of the dice still to come
    matches it; an unused die is worth a little, as it may still make a pair.
    """
    free = POOL - len(kept)
    future = min(free, 2 * rolls_left)
    singles = [v for v in set(kept) if kept.count(v) % 2 == 1]
    if distinct:
        singles = [v for v in singles if kept.count(v) == 1]
    chance = 1 - (5 / 6) ** future if free else 0.0
    return pair_score(kept, distinct) + sum(2 * v * chance for v in singles) + 1.5 * min(free, future)
