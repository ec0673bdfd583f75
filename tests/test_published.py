"""The published dice measurements (``pyramid.lab.published``) load as printed, their Wilson intervals hold them,
and the cuboid study's comparison (``examples/cuboid_study.py``) tells agreement from disagreement on made-up
rows, without physics."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pyramid.lab.published import CUBOID, SOURCES, compare, find_point, wilson

ROOT = Path(__file__).resolve().parent.parent


def study() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cuboid_study", ROOT / "examples" / "cuboid_study.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(ratio: float, square: int, other: int, cocked: int = 0) -> list[dict[str, Any]]:
    """Rows as ``pyramid experiment long_dice`` writes them: ``square`` throws on face 3 or 4, ``other`` on 1."""
    tops = [3 + n % 2 for n in range(square)] + [1] * other + [None] * cocked
    return [
        {"params": {"physics.proportions": [1, 1, ratio]}, "measures": {"thrown.0.top": top}, "error": None}
        for top in tops
    ]


def test_the_table_loads_as_printed() -> None:
    assert len(CUBOID) == 15 and all(p.source in SOURCES for p in CUBOID)
    assert [p.ratio for p in CUBOID] == sorted(p.ratio for p in CUBOID)
    # The shares fall as the square faces draw apart (two printed points break it: 1.23 and 1.71).
    assert CUBOID[0].p_square > 0.9 and CUBOID[-1].p_square < 0.01
    assert sum(p.throws for p in CUBOID) == 9329


def test_the_whole_throws_give_back_the_printed_share() -> None:
    for point in CUBOID:
        assert round(point.landed / point.throws, 3) == pytest.approx(point.p_square), point


def test_each_interval_holds_its_published_share() -> None:
    for point in CUBOID:
        interval = point.interval()
        assert 0.0 <= interval.low < point.p_square < interval.high <= 1.0, point
        assert point.p_square in interval


def test_wilson_is_scipys() -> None:
    assert str(wilson(304, 332)) == "0.916 [0.881, 0.941]"
    assert wilson(0, 20).low == 0.0 and 0.15 < wilson(0, 20).high < 0.17
    with pytest.raises(ValueError, match="at least one trial"):
        wilson(0, 0)


def test_a_ratio_is_found_or_named() -> None:
    assert find_point(1.16).throws == 1011 and find_point(1.161).ratio == 1.16
    with pytest.raises(ValueError, match="published: 0.47, 0.63"):
        find_point(2.0)


def test_the_same_share_agrees_and_a_threefold_one_does_not() -> None:
    point = find_point(1.16)  # 150 of 1011 on a square face
    same = compare(point, 148, 1000)
    assert same.agrees and same.inside
    threefold = compare(point, 450, 1000)
    assert not threefold.agrees and not threefold.inside and threefold.p_value < 1e-6


def test_the_study_counts_square_faces_and_flags_a_disagreement() -> None:
    cuboid = study()
    made_up = rows(0.47, square=915, other=85) + rows(1.6, square=100, other=890, cocked=10)
    counts = cuboid.count_square(made_up)
    assert counts == {0.47: (915, 1000, 0), 1.6: (100, 990, 10)}
    found = cuboid.comparisons([find_point(0.47), find_point(1.6)], counts)
    assert [c.agrees for c in found] == [True, False]  # 1.6: 10% against the published 1.7%
    text = cuboid.table(found, counts)
    assert "1 of 2 ratios differ" in text and text.splitlines()[2].rstrip().endswith("NO")


def test_a_ratio_without_throws_is_left_out() -> None:
    cuboid = study()
    counts = cuboid.count_square(rows(0.47, square=1, other=0, cocked=3))
    assert counts == {0.47: (1, 1, 3)}
    assert cuboid.comparisons([find_point(2.65)], counts) == []
