"""The pyramid state and its text notation."""

from __future__ import annotations

import numpy as np
import pytest

from pyramid import geometry as g
from pyramid.state import Cell, NotationError, PyramidState, random_pattern


def test_notation_round_trips_random_states() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(0, 166))
        slots = [g.SLOTS[i] for i in rng.choice(165, size=n, replace=False)]
        state = random_pattern(slots, rng, random_faces=True)
        assert PyramidState.from_notation(state.to_notation()) == state
        assert PyramidState.from_notation(state.to_notation(trim=False)) == state


def test_notation_layout() -> None:
    state = PyramidState({(0, 0, 0): Cell("gold", (4, 5, 6)), (1, 0, 0): Cell("red", None)})
    assert state.to_notation() == "Y456/..,R"
    assert PyramidState.from_notation("Y456/..,R") == state
    assert PyramidState().to_notation() == "."


@pytest.mark.parametrize(
    "text, words",
    [
        ("R123/..,..", "layer 1 row 1 has 1 slots"),
        ("R12", "cannot read"),
        ("Q", "cannot read 'Q'"),
        ("R132", "do not meet counter-clockwise"),
        ("/".join(["."] * 10), "10 layers"),
        ("./.", "layer 1 has 2 rows"),
    ],
)
def test_bad_notation_says_where_and_why(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        PyramidState.from_notation(text)


def test_face_count_and_pip_sum_on_the_full_pyramid() -> None:
    full = PyramidState.full("black", (1, 2, 3))
    assert full.face_count() == {"black": 135}
    # Every outer face on the plane i = 0 shows the face along +i: a 1; j = 0 shows 2; k = 0 shows 3.
    assert full.pip_sum() == 45 * (1 + 2 + 3)
    owners = {"black": "Anna"}
    assert full.face_count(owners) == {"Anna": 135}
    assert full.free_slots() == [g.APEX]
    assert full.without(g.APEX).free_slots() == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


def test_random_pattern_respects_the_stock_and_seed() -> None:
    a = random_pattern(g.SLOTS, np.random.default_rng(5))
    b = random_pattern(g.SLOTS, np.random.default_rng(5))
    assert a == b
    counts = a.face_count(outer_only=False)
    assert sum(counts.values()) == 135
    colours = [c.colour for c in a.values()]
    assert colours.count("gold") <= 1 and colours.count("blue") <= 10
    with pytest.raises(ValueError, match="only 4 dice"):
        random_pattern(g.SLOTS, np.random.default_rng(0), stock={"red": 4})
