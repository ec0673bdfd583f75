"""examples/flint_study.py's comparison of trials against the book's trick: the counts it reports come from the rows."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

import pytest

STUDY = Path(__file__).resolve().parents[1] / "examples" / "flint_study.py"


@pytest.fixture(scope="module")
def study() -> ModuleType:
    spec = importlib.util.spec_from_file_location("flint_study", STUDY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["flint_study"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _row(study: ModuleType, held: tuple[int, int] | None, dice: str = "real", **setting: float) -> dict:
    row = {"setting": asdict(study.Setting(dice=dice, **setting)), "layers": 5, "seed": 0, "skeleton": 13}
    row |= {"others": 22, "held": held, "after": held}
    if held is None:
        row["error"] = "NotAtRestError: still moving"
    return row


def test_compare_counts_the_book_s_trials_and_the_widest_gap(study: ModuleType, tmp_path: Path) -> None:
    rows = [
        _row(study, (13, 2), angle=40.0),  # the book's trick: all the skeleton, 2 of 22 others (0.09)
        _row(study, (13, 5), angle=30.0),  # 5 of 22 others is 0.23: more than the book's 0.20
        _row(study, (0, 0)),  # the programmed Flint sheds everything
        _row(study, (6, 22)),  # the programmed Flint again, another seed: the skeleton goes first
        _row(study, None, angle=60.0),  # failed
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    text = study.compare([path], None)
    line = next(x for x in text.splitlines() if x.startswith("rows.jsonl"))
    fields = line.split()
    assert fields[1:5] == ["real", "5", "1", "1"]  # dice, trials, failed, the book's
    assert fields[5:7] == ["1", "2"]  # below the diagonal (6/13 against 22/22), above (13/13 against 2/22, 5/22)
    assert fields[7:10] == ["0.23", "/", "0.50"]  # the programmed Flint's mean shares: (0 + 6/13) / 2, (0 + 1) / 2
    assert fields[10] == "0.91"  # 13/13 - 2/22
    assert "angle 40.0" in line


def test_shares_of_a_failed_trial_are_none(study: ModuleType) -> None:
    assert study.shares(_row(study, None)) is None
    assert study.shares(_row(study, (13, 11))) == (1.0, 0.5)


def test_compare_names_missing_files(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    done = subprocess.run(
        [sys.executable, str(STUDY), "compare", "--files", str(missing)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "none.jsonl" in done.stderr and "missing" in done.stderr


def test_rounded_dice_of_spread_sizes_carry_a_press_on_the_apex_along_the_edges(study: ModuleType, jitter: int) -> None:
    """The book's struts: pressed through faces alone, a corner-down pyramid takes a press on its apex to the
    plate along its three edges. The ideal boxes also touch along the lattice's shared edges and spread it over
    the base; rounded dice of spread sizes do not (5 layers, whole physics, 5 N)."""
    box = study.load_paths(5, 5.0, 100, dice="box")
    real = study.load_paths(5, 5.0, 100, dice="real")
    for measured in (box, real):
        assert measured["pad"] > 0.95  # the pad presses with the whole force: the press is resolved
        assert abs(measured["corners"] + measured["others"] - 1) < 0.1  # and all of it reaches the plate
    # Three corner dice of 15 in the base: a press spread evenly would put 0.2 of it under them. Over jitter seeds
    # 1 to 5 the real dice put 0.56 to 0.78 of it there (the edges carrying 0.62 to 0.82 of a strut's share), the
    # box 0.09 to 0.24 (0.09 to 0.19).
    assert real["corners"] > 0.45 > 0.35 > box["corners"], (real, box)
    assert real["strut"] > 0.5 > 0.35 > box["strut"], (real, box)
