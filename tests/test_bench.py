"""The bench's speed rows: each measured, local and whole side by side, against its target (no timing asserted)."""

from __future__ import annotations

import math

import pytest

from pyramid.lab.bench import Figure, bench_table
from pyramid.lab.speed import (
    ACTION_TARGET,
    ENVIRONMENTS,
    GAMES,
    HAND_ROWS,
    PLATE_ROWS,
    PLATE_TARGET,
    Speed,
    plate_case,
    speed_steps,
    speed_table,
)
from pyramid.physics.plate_motion import Shake, Tilt
from pyramid.physics.settings import Physics


def test_the_bench_names_a_row_for_every_action_environment_and_game() -> None:
    names = [name for name, _ in speed_steps(Physics(), quick=True)]
    wanted = [f"{kind}, local and whole" for kind, _ in HAND_ROWS + PLATE_ROWS]
    wanted += [f"{name} environment" for name in ENVIRONMENTS] + [f"{title}, a game" for title, _ in GAMES]
    assert names == wanted


@pytest.mark.parametrize("step", ["lift, local and whole", "shake, local and whole", "Faraday environment"])
def test_a_quick_row_measures_local_then_whole_with_the_target_on_local(step: str) -> None:
    rows = dict(speed_steps(Physics(), quick=True))[step]()
    assert [row.what.rsplit(": ", 1)[1] for row in rows] == ["local", "whole"]
    for row in rows:
        value = row.realtime if row.realtime is not None else row.steps
        assert value is not None and math.isfinite(value) and value > 0
        assert row.cpu is not None and math.isfinite(row.cpu) and row.cpu > 0  # the same speed by processor time
    local, whole = rows
    assert local.target is not None and local.met is (value_of(local) >= local.target)
    assert whole.target is None and whole.met is None
    table = speed_table(rows)
    assert local.what in table and whole.what in table and ("NOT met" in table) is (not local.met)


def value_of(row: Speed) -> float:
    value = row.realtime if row.realtime is not None else row.steps
    assert value is not None
    return value


def test_the_plate_cases_are_seeded_plate_actions() -> None:
    line, again = plate_case("line", 3), plate_case("line", 3)
    assert line == again and line != plate_case("line", 4)
    (tilt,) = line.actions
    assert isinstance(tilt, Tilt) and tilt.pivot is not None
    (stroke,) = plate_case("stroke", 0).actions
    assert isinstance(stroke, Tilt) and stroke.accelerate == 0.9 and stroke.pivot is not None
    assert isinstance(plate_case("shake", 0).actions[0], Shake)
    with pytest.raises(ValueError, match="unknown plate action 'spin'"):
        plate_case("spin", 0)


def test_targets_are_met_or_not_as_the_numbers_say() -> None:
    assert Speed("lift: local", realtime=2 * ACTION_TARGET, target=ACTION_TARGET).met is True
    assert Speed("tilt: local", realtime=PLATE_TARGET / 2, target=PLATE_TARGET).met is False
    assert Speed("El Dado, a physical game: local", wall=3.0).met is None
    table = bench_table([Figure("read-out of 281 dice", wall=0.01), Speed("x: local", steps=5.0, target=20.0)])
    assert "read-out of 281 dice" in table and "NOT met" in table
