"""Exact odds of Knights by dynamic programming over the keep decisions.

A hand is the sorted tuple of live dice (1 to 5; sixes are set aside for good), at most six of them.
After each roll the player keeps any part of the hand and rolls the rest; the value of a hand with
``left`` rolls to go is the chance to beat a target under optimal keeps. The game's decisions and the
strong player's card and king choices read these values.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np

from pyramid.tablegames.base import outcomes
from pyramid.tablegames.knights_cards import Result, best_result

Hand = tuple[int, ...]  # live dice, sorted low to high
DICE = 6

# Every hand of 0 to 6 live dice (462), and its row in the value vectors.
HANDS: tuple[Hand, ...] = tuple(
    h for n in range(DICE + 1) for h in itertools.combinations_with_replacement(range(1, 6), n)
)
INDEX = {h: k for k, h in enumerate(HANDS)}
# Every keep: the dice kept and how many are rolled (at least one), the row in the transition matrix.
KEEPS: tuple[tuple[Hand, int], ...] = tuple((h, m) for h in HANDS for m in range(1, DICE - len(h) + 1))
KEEP_INDEX = {k: r for r, k in enumerate(KEEPS)}


def keeps(hand: Sequence[int]) -> list[Hand]:
    """The distinct parts of ``hand`` that may be kept while the rest is rolled (all but the whole hand)."""
    counts = [sorted(hand).count(v) for v in range(1, 6)]
    parts = itertools.product(*(range(c + 1) for c in counts))
    kept = [tuple(v for v, c in zip(range(1, 6), part, strict=True) for _ in range(c)) for part in parts]
    return [k for k in kept if len(k) < len(hand)]


@cache
def _transitions() -> np.ndarray:
    """(len(KEEPS), len(HANDS)) float: the chance that each keep, rolled, becomes each hand."""
    matrix = np.zeros((len(KEEPS), len(HANDS)))
    for r, (kept, m) in enumerate(KEEPS):
        probs, faces = outcomes(m)
        for p, row in zip(probs, faces, strict=True):
            # The rolled dice join the kept ones; the sixes among them are set aside.
            hand = tuple(sorted(kept + tuple(int(f) for f in row if f != 6)))
            matrix[r, INDEX[hand]] += p
    return matrix


@cache
def _sub_keeps() -> np.ndarray:
    """(len(HANDS), 64) int: each hand's keeps as rows of KEEPS, padded with -1."""
    table = np.full((len(HANDS), 2**DICE), -1, dtype=int)
    for k, hand in enumerate(HANDS):
        rows = [KEEP_INDEX[(kept, len(hand) - len(kept))] for kept in keeps(hand)]
        table[k, : len(rows)] = rows
    return table


@cache
def hand_values(target: Result, extra: tuple[int, ...], left: int) -> np.ndarray:
    """(len(HANDS),) float: each hand's chance to beat ``target`` with ``left`` rolls to go (die cards ``extra``)."""
    stop = np.array([best_result(h, extra) > target for h in HANDS], dtype=float)
    if left == 0:
        return stop
    keep = keep_values(target, extra, left)
    # A padding entry (-1) reads the appended 0, below every real chance.
    padded = np.append(keep, 0.0)
    return np.maximum(stop, padded[_sub_keeps()].max(axis=1))


@cache
def keep_values(target: Result, extra: tuple[int, ...], left: int) -> np.ndarray:
    """(len(KEEPS),) float: each keep's chance to beat ``target`` when rolled now with ``left`` rolls to go."""
    # Rounded so that equal chances compare equal (a row's probabilities sum to 1 only up to rounding).
    return np.round(_transitions() @ hand_values(target, extra, left - 1), 12)


def keep_chance(kept: Sequence[int], rolled: int, target: Result, left: int, extra: Sequence[int] = ()) -> float:
    """Chance to beat ``target`` keeping ``kept`` and rolling ``rolled`` dice, with ``left`` rolls to go
    counting this one, and optimal keeps afterwards."""
    row = KEEP_INDEX[(tuple(sorted(kept)), rolled)]
    return float(keep_values(target, tuple(sorted(extra)), left)[row])


def hand_chance(hand: Sequence[int], target: Result, left: int, extra: Sequence[int] = ()) -> float:
    """Chance to beat ``target`` holding the live dice ``hand`` with ``left`` rolls to go (optimal keeps)."""
    return float(hand_values(target, tuple(sorted(extra)), left)[INDEX[tuple(sorted(hand))]])


def fresh_chance(target: Result, rolls: int, extra: Sequence[int] = ()) -> float:
    """Chance that six fresh dice beat ``target`` within ``rolls`` rolls under optimal keeps."""
    return keep_chance((), DICE, target, rolls, extra)
