"""Exact expected scores of Knizia's Decathlon by dynamic programming over the dice outcomes.

Every discipline is a small Markov decision process; the values here are the expected final result
of a discipline (the best of its attempts, an invalid attempt counting 0) under optimal play from a
state. The game's decisions read their option values from these tables.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pyramid.tablegames.base import outcomes

SPRINT_RETHROWS = 5
HURDLE_PICKUPS = 5
ATTEMPTS = 3
LONG_JUMP_DICE = 5
LONG_JUMP_LIMIT = 8
SHOT_DICE = 8
HIGH_JUMP_DICE = 5
POLE_DICE = 8
FIRST_HEIGHT = 10
HEIGHT_STEP = 2
NEG = -1e9  # value of an impossible option
PAD = 64  # length of the score axis of the tables (scores never exceed 48)


def die_points(face: int) -> int:
    """Points of one die in the running events: 1-5 count, a six counts -6."""
    return -6 if face == 6 else face


@cache
def set_distribution(dice: int) -> dict[int, float]:
    """Distribution of the points of one sprint set of ``dice`` dice."""
    dist = {0: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                key = total + die_points(face)
                nxt[key] = nxt.get(key, 0.0) + p / 6
        dist = nxt
    return dist


@cache
def sprint_value(sets: int, dice: int, index: int, rethrows: int) -> float:
    """Expected points of sets ``index``.. still to throw, with ``rethrows`` left (optimal play)."""
    if index == sets:
        return 0.0
    return sum(p * max(sprint_options(sets, dice, index, rethrows, x)) for x, p in set_distribution(dice).items())


def sprint_options(sets: int, dice: int, index: int, rethrows: int, points: int) -> list[float]:
    """Values of [freeze, rethrow] after throwing set ``index`` for ``points``, excluding earlier sets."""
    freeze = points + sprint_value(sets, dice, index + 1, rethrows)
    rethrow = sprint_value(sets, dice, index, rethrows - 1) if rethrows > 0 else NEG
    return [freeze, rethrow]


@cache
def sum_distribution(dice: int) -> dict[int, float]:
    """Distribution of the sum of ``dice`` dice."""
    probs, faces = outcomes(dice)
    dist: dict[int, float] = {}
    for p, row in zip(probs, faces, strict=True):
        dist[int(row.sum())] = dist.get(int(row.sum()), 0.0) + float(p)
    return dist


@cache
def hurdles_value(pickups: int) -> float:
    """Expected score of throwing the five hurdle dice now with ``pickups`` pick-ups left afterwards."""
    if pickups == 0:
        return sum(s * p for s, p in sum_distribution(5).items())
    keep = hurdles_value(pickups - 1)
    return sum(max(s, keep) * p for s, p in sum_distribution(5).items())


# -- best of three attempts --------------------------------------------------------------------------


def best_of(discipline: str, attempts_left: int, best: int) -> float:
    """Expected final best result of ``discipline`` with ``attempts_left`` attempts and ``best`` so far."""
    if attempts_left == 0:
        return float(best)
    if discipline == "shot put":
        return shot_value(attempts_left, best, 0, 0)
    if discipline == "long jump":
        return long_jump_tables(attempts_left, best)[2][0][0]
    return freeze_tables(discipline, attempts_left, best)[1][0][0]


@cache
def shot_value(attempts_left: int, best: int, thrown: int, total: int) -> float:
    """Value of throwing the next shot-put die with ``thrown`` valid dice totalling ``total``."""
    fail = best_of("shot put", attempts_left - 1, best) / 6
    return fail + sum(
        shot_options(attempts_left, best, thrown + 1, total + v)[0 if thrown + 1 == SHOT_DICE else 2] / 6
        for v in range(2, 7)
    )


def shot_options(attempts_left: int, best: int, thrown: int, total: int) -> list[float]:
    """Values of [stop, throw again, the better of both] after ``thrown`` valid dice totalling ``total``."""
    stop = best_of("shot put", attempts_left - 1, max(best, total))
    more = shot_value(attempts_left, best, thrown, total) if thrown < SHOT_DICE else NEG
    return [stop, more, max(stop, more)]


def _terminal(discipline: str, attempts_left: int, best: int) -> np.ndarray:
    """Value (PAD,) of finishing the current attempt with each score."""
    return np.array([best_of(discipline, attempts_left - 1, max(best, s)) for s in range(PAD)])


@cache
def long_jump_tables(attempts_left: int, best: int) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """(jump, after_runup, rethrow): jump[m][s] with m dice to throw and s frozen in the jump;
    after_runup[c, t] and rethrow[c, t] with c dice frozen in the run-up totalling t."""
    term = _terminal("long jump", attempts_left, best)
    invalid = best_of("long jump", attempts_left - 1, best)
    jump = [term]
    s = np.arange(PAD)
    for m in range(1, LONG_JUMP_DICE + 1):
        probs, faces = outcomes(m)
        top = np.cumsum(faces, axis=1)  # top[o, j-1]: the highest j dice of outcome o
        best_j = np.full((PAD, len(probs)), NEG)
        for j in range(1, m + 1):
            idx = np.minimum(s[:, None] + top[None, :, j - 1], PAD - 1)
            best_j = np.maximum(best_j, jump[m - j][idx])
        jump.append(best_j @ probs)
    after = np.full((LONG_JUMP_DICE + 1, LONG_JUMP_LIMIT + 1), NEG)
    rethrow = np.full((LONG_JUMP_DICE + 1, LONG_JUMP_LIMIT + 1), NEG)
    for c in range(LONG_JUMP_DICE, -1, -1):
        k = LONG_JUMP_DICE - c
        for t in range(LONG_JUMP_LIMIT + 1):
            if k > 0:
                probs, faces = outcomes(k)
                low = np.cumsum(faces[:, ::-1], axis=1)  # the lowest j dice
                value = np.full(len(probs), NEG)
                for j in range(1, k + 1):
                    tt = t + low[:, j - 1]
                    cand = np.where(tt <= LONG_JUMP_LIMIT, after[c + j, np.minimum(tt, LONG_JUMP_LIMIT)], NEG)
                    value = np.maximum(value, cand)
                rethrow[c, t] = np.where(value > NEG / 2, value, invalid) @ probs
            if c > 0:
                after[c, t] = max(jump[c][0], rethrow[c, t])
    return jump, after, rethrow


FREEZE_DISCIPLINES = {"discus": (5, 0), "javelin": (6, 1)}  # dice, parity of the faces that may be frozen


@cache
def eligible_sums(k: int, parity: int) -> tuple[np.ndarray, np.ndarray]:
    """For throws of ``k`` dice: the number of freezable dice (m,) and their top-j sums (m, k), -1 beyond."""
    _, faces = outcomes(k)
    counts = np.zeros(len(faces), dtype=int)
    sums = -np.ones((len(faces), k), dtype=int)
    for o, row in enumerate(faces):
        good = [v for v in row if v % 2 == parity]
        counts[o] = len(good)
        sums[o, : len(good)] = np.cumsum(good) if good else []
    return counts, sums


@cache
def freeze_tables(discipline: str, attempts_left: int, best: int) -> tuple[np.ndarray, np.ndarray]:
    """(after, throw): after[c, s] once c dice are frozen summing s (stop or go on); throw[c, s] the
    value of throwing the other dice."""
    n, parity = FREEZE_DISCIPLINES[discipline]
    term = _terminal(discipline, attempts_left, best)
    invalid = best_of(discipline, attempts_left - 1, best)
    after = np.full((n + 1, PAD), NEG)
    throw = np.full((n + 1, PAD), NEG)
    s = np.arange(PAD)
    for c in range(n, -1, -1):
        k = n - c
        if k > 0:
            probs, _ = outcomes(k)
            counts, sums = eligible_sums(k, parity)
            value = np.full((PAD, len(probs)), NEG)
            for j in range(1, k + 1):
                idx = np.minimum(s[:, None] + sums[None, :, j - 1], PAD - 1)
                cand = np.where((counts >= j)[None, :], after[c + j][idx], NEG)
                value = np.maximum(value, cand)
            throw[c] = np.where(counts[None, :] > 0, value, invalid) @ probs
        if c > 0:
            after[c] = np.maximum(term, throw[c])
    return after, throw


# -- heights -------------------------------------------------------------------------------------------


@cache
def clear_probability(dice: int, height: int, no_ones: bool) -> float:
    """Probability that one throw of ``dice`` dice reaches ``height`` (and shows no 1 if ``no_ones``)."""
    probs, faces = outcomes(dice)
    ok = faces.sum(axis=1) >= height
    if no_ones:
        ok &= faces.min(axis=1) >= 2
    return float(probs[ok].sum())


def top_height(discipline: str) -> int:
    """The highest height that can be cleared."""
    return 6 * (HIGH_JUMP_DICE if discipline == "high jump" else POLE_DICE)


@cache
def height_value(discipline: str, height: int, mastered: int) -> float:
    """Expected final height at ``height`` (not yet decided) with ``mastered`` the last height cleared."""
    if height > top_height(discipline):
        return float(mastered)
    if discipline == "high jump":
        return max(high_jump_options(height, mastered))
    return max(pole_options(height, ATTEMPTS, mastered))


def high_jump_options(height: int, mastered: int) -> list[float]:
    """Values of [try the height, skip it]."""
    q = 1 - (1 - clear_probability(HIGH_JUMP_DICE, height, False)) ** ATTEMPTS
    clear = height_value("high jump", height + HEIGHT_STEP, height)
    return [q * clear + (1 - q) * mastered, height_value("high jump", height + HEIGHT_STEP, mastered)]


@cache
def pole_options(height: int, jumps_left: int, mastered: int) -> tuple[float, ...]:
    """Values of jumping with 1..8 dice, then (on the first jump only) of skipping the height."""
    clear = height_value("pole vault", height + HEIGHT_STEP, height)
    miss = float(mastered) if jumps_left == 1 else max(pole_options(height, jumps_left - 1, mastered)[:POLE_DICE])
    values = []
    for n in range(1, POLE_DICE + 1):
        p = clear_probability(n, height, True)
        values.append(p * clear + (1 - p) * miss)
    if jumps_left == ATTEMPTS:
        values.append(height_value("pole vault", height + HEIGHT_STEP, mastered))
    return tuple(values)


def expected_scores() -> dict[str, float]:
    """The exact expected score of each discipline under optimal play, in the order of the decathlon."""
    return {
        "100 metres": sprint_value(2, 4, 0, SPRINT_RETHROWS),
        "long jump": best_of("long jump", ATTEMPTS, 0),
        "shot put": best_of("shot put", ATTEMPTS, 0),
        "high jump": height_value("high jump", FIRST_HEIGHT, 0),
        "400 metres": sprint_value(4, 2, 0, SPRINT_RETHROWS),
        "110 metre hurdles": hurdles_value(HURDLE_PICKUPS),
        "discus": best_of("discus", ATTEMPTS, 0),
        "pole vault": height_value("pole vault", FIRST_HEIGHT, 0),
        "javelin": best_of("javelin", ATTEMPTS, 0),
        "1500 metres": sprint_value(8, 1, 0, SPRINT_RETHROWS),
    }
