"""The bench's speed rows: each measured, local and whole side by side, against its target (no timing asserted)."""

from __future__ import annotations

import math
import re

import pytest

from pyramid.lab.bench import OURS_AWAKE, RECORDED_AWAKE, Figure, awake_label, bench_table
from pyramid.lab.speed import (
    ACTION_TARGET,
    ENVIRONMENTS,
    GAMES,
    HAND_ROWS,
    PLATE_ROWS,
    PLATE_TARGET,
    VECTOR,
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
    wanted += [f"{name} environment" for name in ENVIRONMENTS] + [f"{VECTOR[0]} environment, {VECTOR[1][0]} async"]
    wanted += [f"{title}, a game" for title, _ in GAMES]
    assert names == wanted
    # The whole bench runs the vector with 1 copy (what the others scale from), 2 and 4 (it steps in lockstep).
    full = [name for name, _ in speed_steps(Physics()) if "async" in name]
    assert full == [f"{VECTOR[0]} environment, {copies} async" for copies in VECTOR[1]] and len(full) == 3


@pytest.mark.parametrize("step", ["lift, local and whole", "shake, local and whole", "Faraday environment"])
def test_a_quick_row_measures_local_then_whole_with_the_target_on_local(step: str) -> None:
    rows = dict(speed_steps(Physics(), quick=True))[step]()
    assert [row.what.rsplit(": ", 1)[1] for row in rows] == ["local", "whole"]
    for row in rows:
        value = row.realtime if row.realtime is not None else row.steps
        assert value is not None and math.isfinite(value) and value > 0
        assert row.cpu is not None and math.isfinite(row.cpu) and row.cpu > 0  # the same speed by processor time
        # The engine's steps are part of the wall time: alone, they run at least as fast as the row.
        assert row.engine is not None and row.engine >= value
    local, whole = rows
    assert local.target is not None and local.met is (value_of(local) >= local.target)
    assert whole.target is None and whole.met is None
    table = speed_table(rows)
    assert local.what in table and whole.what in table and ("NOT met" in table) is (not local.met)


def test_the_async_row_runs_copies_in_processes_and_says_how_it_scales_against_one() -> None:
    name, (copies, *_) = VECTOR
    (row,) = dict(speed_steps(Physics(), quick=True))[f"{name} environment, {copies} async"]()
    assert row.steps is not None and math.isfinite(row.steps) and row.steps > 0
    assert copies == 1
    one = Speed(f"{name} environment: local", steps=row.steps / 1.5)
    two = Speed(f"{name} environment, 2 async", steps=row.steps * 1.8)
    # Two copies against one copy run alike, when there is one; else against the environment's own row.
    assert f"{two.what}: 1.80 x the steps a second of 1 async copy" in speed_table([one, row, two])
    assert f"{two.what}: 2.70 x the steps a second of one" in speed_table([one, two])
    assert "1 async: " not in speed_table([one, row, two])


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


def test_a_row_that_misses_its_target_says_whether_the_engine_alone_could_meet_it() -> None:
    slow_code = Speed("Faraday environment: local", steps=15.0, target=20.0, engine=60.0)
    slow_engine = Speed("lift: local", realtime=6.0, target=ACTION_TARGET, engine=9.0)
    met = Speed("tilt: local", realtime=30.0, target=PLATE_TARGET, engine=90.0)
    assert (slow_code.reachable, slow_engine.reachable, met.reachable) == (True, False, True)
    assert Speed("El Dado, a physical game: local", wall=3.0).reachable is None
    lines = speed_table([slow_code, slow_engine, met]).splitlines()
    assert (
        "Faraday environment: local: the engine's steps alone run at 60.00 steps a second, above the target: "
        "the code around the engine is what is too slow" in lines
    )
    assert (
        "lift: local: the engine's steps alone run at 9.00 x real time, below the target (20): only fewer or "
        "cheaper engine steps can meet it" in lines
    )
    assert not any(line.startswith("tilt: local: the engine") for line in lines)  # met: nothing to say


def test_a_window_row_figures_only_the_stretch_in_which_the_plate_moves() -> None:
    pytest.importorskip("pyglet")
    from pyramid.ui.pace import Picture, while_moving

    still, moved, again = b"a", b"b", b"c"
    # Still, then two pictures of a moving plate 0.05 s apart (0.06 s simulated, 0.04 s processor, 0.02 s engine
    # each), then a second of still pictures that keep real time.
    shown = [Picture(0.0, 0.0, 0.0, 0.0, still), Picture(0.05, 0.04, 0.02, 0.06, moved)]
    shown += [Picture(0.10, 0.08, 0.04, 0.12, again)]
    shown += [Picture(0.10 + 0.01 * n, 0.08, 0.04, 0.12 + 0.01 * n, again) for n in range(1, 101)]
    moving = while_moving(shown)
    assert moving is not None
    assert moving.pictures == pytest.approx(20.0)
    assert moving.wall == pytest.approx(0.10) and moving.simulated == pytest.approx(0.12)
    assert moving.cpu == pytest.approx(0.08) and moving.engine == pytest.approx(0.04)
    assert while_moving(shown[2:]) is None, "the plate never moved"
    assert while_moving([]) is None


def test_a_window_row_runs_the_world_as_the_window_does_and_counts_its_pictures(display: str) -> None:
    pytest.importorskip("pyglet")
    from pyramid.ui.pace import PICTURES_TARGET, WINDOW_ROWS, window_speed

    row = window_speed(WINDOW_ROWS[1], seconds=0.5, size=(400, 300))  # the gentle shake
    assert row.what == "window: gentle shake (Shift+S)"
    assert row.realtime is not None and row.wall is not None
    moved, total = (
        float(x) for x in re.findall(r"([\d.]+) s simulated while the plate moved, of ([\d.]+)", row.note)[0]
    )
    # Three gentle shakes queued (0.3 s each): the window runs the queue out past the 0.5 s asked for.
    assert total >= 0.5 and 0.1 < moved <= total, "figured over the simulated seconds in which the plate moved"
    assert row.realtime * row.wall == pytest.approx(moved, abs=0.02)
    assert row.realtime < 1.2, "the window is paced to real time: it does not run ahead"
    # Its engine steps are part of its wall time; the gentle shake takes none (every die rides or lies parked).
    assert row.engine is None or row.engine >= row.realtime
    pictures = float(row.note.split(" pictures/s")[0])
    assert pictures > 0 and (("NOT met" in row.note) == (pictures < PICTURES_TARGET))


def test_without_a_display_the_bench_leaves_the_window_rows_out_in_a_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pyramid.cli import app

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert app.main(["bench", "--only", "window", "--no-mujoco"]) == 0
    out = capsys.readouterr().out
    assert "the window rows are left out: no display for a window" in out and "window: tilt" not in out


@pytest.mark.parametrize(
    ("hull", "box", "verdict"),
    [
        (0.45, 0.5, "0.90 x the box's speed (target 0.8: met)"),
        (0.39, 0.5, "0.78 x the box's speed (target 0.8: NOT met)"),
    ],
)
def test_the_table_sets_the_rounded_hull_beside_the_box_and_says_whether_the_speed_target_is_met(
    hull: float, box: float, verdict: str
) -> None:
    # Ours (the default dice, the box) stands for the box's row; the two-step hull has a row of its own.
    rows: list[Figure | Speed] = [
        Figure(OURS_AWAKE, box, 0.0007, 0.0009, 10 / box),
        Figure(awake_label("two-step hull"), hull, 0.0014, 0.0035, 10 / hull),
    ]
    line = next(x for x in bench_table(rows).splitlines() if x.startswith("two-step hull dice awake"))
    assert verdict in line and "sag mean 0.0014 against the box's 0.0007 edges" in line


def test_the_table_says_this_machines_pace_against_the_recorded_run() -> None:
    # Ours awake at half the recorded pace: the line says 0.50, so a reader knows the machine's part in a missed target.
    table = bench_table([Figure(OURS_AWAKE, RECORDED_AWAKE / 2, 0.0007, 0.0009, 20.0)])
    line = next(x for x in table.splitlines() if x.startswith("this machine now"))
    assert f"at 0.50 x the pace of the run docs/physics.md records ({RECORDED_AWAKE:g}x real time" in line
    assert "this machine now" not in bench_table([Figure("read-out of 281 dice", wall=0.01)])
