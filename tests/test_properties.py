"""Property-based tests (hypothesis) of the three texts a user or a crash can hand the package: the pyramid's
notation, scene files and an experiment's rows. Whatever the input, the answer is a value or the package's
own error naming what is wrong, never another exception; and what is accepted is within its stated ranges."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid import geometry
from pyramid.dice import COUNTS
from pyramid.lab.experiment_folder import row_problem, scan_rows
from pyramid.lab.scene import (
    MAX_SIMULATED,
    PHYSICS_LIMITS,
    SETTLE_TIMEOUT,
    SceneError,
    scene_from_dict,
    step_seconds,
)
from pyramid.lab.scene_checks import POINT_LIMIT, file_name_problem
from pyramid.lab.settings import SettingError, parse_setting, parse_vary
from pyramid.lab.timeline import ACTIONS
from pyramid.physics.settings import Physics
from pyramid.state import Cell, NotationError, PyramidState

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- the notation ------------------------------------------------------------------------------------

cells = st.builds(Cell, st.sampled_from(sorted(COUNTS)), st.one_of(st.none(), st.sampled_from(geometry.ALL_UP_FACES)))
states = st.dictionaries(st.sampled_from(geometry.SLOTS), cells, max_size=40).map(PyramidState)


@QUICK
@given(states)
def test_the_notation_reads_back_every_state_it_writes(state: PyramidState) -> None:
    assert PyramidState.from_notation(state.to_notation()) == state


NOTATION_CHARS = st.sampled_from(list("RGBWYK.,/0123456789 ") + ["١", "３", "\x00", "é", "\n"])


@QUICK
@given(st.one_of(st.text(NOTATION_CHARS, max_size=60), st.text(max_size=30)))
def test_any_text_is_a_state_or_a_notation_error(text: str) -> None:
    try:
        state = PyramidState.from_notation(text)
    except NotationError:
        return
    assert text.strip() == "" or all(c.isascii() for c in text.strip())
    assert PyramidState.from_notation(state.to_notation()) == state


# -- scene files -------------------------------------------------------------------------------------

numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1e-300, 1e300, 0.016, 0.1, 1.0, 600.0, -1.0]),
)
scalars = st.one_of(numbers, st.booleans(), st.text(max_size=12), st.sampled_from(["full", "random", "red", "123"]))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
SCENE_KEYS = ["name", "description", "plate", "seed", "measure", "settle_timeout"]
PHYSICS_KEYS = [f.name for f in Physics.__dataclass_fields__.values()]
START_KEYS = ["pyramid", "layers", "colours", "faces", "small_pyramid", "table"]
TIMELINE_KEYS = sorted({k for kind in ACTIONS.values() for k in kind.keys} | {"name"})


def table_of(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.one_of(st.sampled_from(keys), st.text(max_size=6)), values, max_size=5)


timeline_entries = st.builds(
    lambda do, rest: {"do": do, **rest}, st.sampled_from(sorted(ACTIONS)), table_of(TIMELINE_KEYS)
)
scenes = st.fixed_dictionaries(
    {},
    optional={
        "scene": table_of(SCENE_KEYS),
        "physics": table_of(PHYSICS_KEYS),
        "start": table_of(START_KEYS),
        "timeline": st.lists(timeline_entries, max_size=4),
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes)
def test_a_scene_is_valid_and_within_its_ranges_or_refused_naming_the_key(raw: dict[str, Any]) -> None:
    try:
        scene = scene_from_dict(raw, "prop.toml")
    except SceneError as err:
        assert str(err).startswith(f"prop.toml: {err.key}: ")
        return
    assert file_name_problem(scene.name) == ""
    assert SETTLE_TIMEOUT[0] <= scene.settle_timeout <= SETTLE_TIMEOUT[1]
    for key, (low, high) in PHYSICS_LIMITS.items():
        value = getattr(scene.physics, key)
        if value is None:  # the table's torques left to the die's shape (Physics.table_torques)
            continue
        assert math.isfinite(value) and (low[0] if isinstance(low, tuple) else low) <= value <= high, key
    assert all(0.1 <= p <= 10 for p in scene.physics.proportions)
    assert all(0.0 <= t <= 1.0 for t in scene.physics.table_torques())
    assert 2 * scene.settle_timeout + sum(step_seconds(s) for s in scene.timeline) <= MAX_SIMULATED
    for step in scene.timeline:
        for value in step.params.values():
            flat = value if isinstance(value, tuple | list) else [value]
            numbers_in = [v for v in flat if isinstance(v, float)]
            assert all(math.isfinite(v) for v in numbers_in)
            assert all(abs(v) <= max(POINT_LIMIT, 600.0) for v in numbers_in)


@QUICK
@given(st.text(max_size=40))
def test_set_and_vary_read_any_text_as_values_or_say_why_not(text: str) -> None:
    for parse in (parse_setting, parse_vary):
        try:
            key, _ = parse(f"throw.height={text}")
        except SettingError as err:
            assert str(err).startswith(("--set", "--vary"))
        else:
            assert key == "throw.height"


# -- experiment rows ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


def good_row(seed: int) -> dict[str, Any]:
    return {"key": f"0:{seed}", "point": 0, "seed": seed, "params": {}, "measures": {"x": seed}, "error": None}


bad_lines = st.one_of(
    json_values.map(json.dumps),
    st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t),
    st.builds(
        lambda row, key: json.dumps({**row, key: "x"}),
        st.builds(good_row, st.integers(0, 9)),
        st.sampled_from(["point", "seed", "params", "measures"]),
    ),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(st.integers(0, 9).map(lambda s: json.dumps(good_row(s))), bad_lines), max_size=25))
def test_rows_are_kept_in_order_once_each_and_every_other_line_is_set_aside(
    lines: list[str], tmp_path_factory: Any
) -> None:
    path: Path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    read = scan_rows(path)
    valid = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if row_problem(row) == "":
            valid.append(row)
    first = list(dict.fromkeys(row["key"] for row in valid))  # each run once, in the order first written
    assert [r["key"] for r in read.rows] == first
    assert len(read.rows) + len(read.set_aside) == len(lines)
    assert read.duplicates == len(valid) - len(first)
