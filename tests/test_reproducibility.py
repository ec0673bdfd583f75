"""Reproducibility, stated and recorded: every run report and experiment folder records the machine and the
physics stack; a resume on other versions or another CPU warns, naming each difference, and goes on; the lock
file pins the versions the studies were made with (docs/reproducibility.md). Experiment runs are stand-ins."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli
from pyramid.lab import experiments, provenance
from pyramid.lab.experiments import Job, Plan, job_row, run_experiment
from pyramid.lab.runner import report_text, run_scene
from pyramid.lab.scene import load_scene

ROOT = Path(__file__).parent.parent
GAME = {"game": "10", "players": ["greedy", "random", "random"], "fast": True, "options": {}}
SEEDS = 4

X86 = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
flags\t\t: fpu vme sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c avx2 avx512f avx512dq avx512cd avx512vl

processor\t: 1
model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
flags\t\t: fpu vme sse sse2
"""
ARM = """processor\t: 0
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid sve
CPU implementer\t: 0x41
"""


# -- the record ----------------------------------------------------------------------------------


def test_the_record_names_this_python_and_the_installed_physics_stack() -> None:
    import platform

    import numpy
    import scipy

    import pyramid

    record = provenance.provenance()
    assert record["python"].endswith(platform.python_version())
    assert record["machine"] == platform.machine()
    assert record["packages"]["numpy"] == numpy.__version__ and record["packages"]["scipy"] == scipy.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", record["packages"]["pybullet"])
    assert record["packages"]["pyramid"] == pyramid.__version__  # the one place the version is written
    assert json.loads(json.dumps(record)) == record  # plain data
    record["packages"]["numpy"] = "0"  # a copy: changing it changes no later record
    assert provenance.provenance()["packages"]["numpy"] == numpy.__version__


def test_the_cpu_s_model_and_simd_features_are_read_from_cpuinfo_on_x86_and_arm() -> None:
    x86 = provenance.cpu(X86)
    assert x86["model"] == "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"
    assert x86["simd"] == ["sse2", "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl"]  # the first
    arm = provenance.cpu(ARM)
    assert arm["simd"] == ["asimd", "sve"] and arm["model"]
    assert provenance.cpu("")["simd"] is None  # no /proc/cpuinfo (macOS, Windows): unknown, not "none"
    assert provenance.cpu("flags\t: fpu vme sse\n")["simd"] == []


def test_two_records_differ_by_what_is_named_with_both_values() -> None:
    was = provenance.provenance()
    now = json.loads(json.dumps(was))
    assert provenance.differences(was, now) == []
    now["packages"]["pybullet"] = "3.2.6"
    now["cpu"]["simd"] = ["sse2", "sse4_2", "avx", "avx2", "fma"]
    was["cpu"]["simd"] = [*now["cpu"]["simd"], "avx512f"]
    now["packages"]["mujoco"] = "3.1.0"
    found = provenance.differences(was, now)
    assert [(d.what, d.now) for d in found] == [
        ("pybullet", "3.2.6"),
        ("mujoco", "3.1.0"),
        ("cpu features", "sse2 sse4_2 avx avx2 fma"),
    ]
    assert found[0].was == was["packages"]["pybullet"] and found[1].was == "none"
    assert found[2].was.endswith("avx512f")
    lines = provenance.warnings(was, now)
    assert lines[0] == (
        f"warning: this experiment was started with pybullet {was['packages']['pybullet']}, this is 3.2.6: its runs "
        "may differ bit for bit; statistics still compare"
    )
    # A hand-edited record of the wrong shape is compared as far as it goes, not a crash.
    assert provenance.differences({"packages": "numpy", "cpu": 3}, now)
    assert len(provenance.warnings("nonsense", now)) == 1 and "records no machine" in provenance.warnings(None, now)[0]


# -- run reports ---------------------------------------------------------------------------------


def test_a_run_report_records_the_machine_and_its_lines_name_it(tmp_path: Path) -> None:
    scene_file = ROOT / "scenes" / "die_throw.toml"
    report = run_scene(load_scene(scene_file), seed=2)
    assert report["provenance"] == provenance.provenance()
    assert f"on {provenance.summary_line(report['provenance'])}" in report_text(report).splitlines()
    out = tmp_path / "out"
    assert cli.main(["run", str(scene_file), "--seed", "2", "--out", str(out), "--quiet"]) == 0
    written = json.loads((out / "die_throw_seed2.json").read_text())
    assert written["provenance"] == provenance.provenance()
    # The record is no part of the result: the same seed gives the same report, wall time and machine aside.
    assert {k: v for k, v in written.items() if k not in ("wall_seconds", "provenance")} == {
        k: v for k, v in report.items() if k not in ("wall_seconds", "provenance")
    }


# -- experiment folders --------------------------------------------------------------------------


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The runs are stand-ins (rows from the seed alone); returns the keys run, in order."""
    keys: list[str] = []

    def run_job(job: Job) -> dict[str, Any]:
        keys.append(job.key)
        measures = {"score.0": float(job.seed * 3 % 7), "win.0": job.seed % 2 == 0}
        return job_row(job, measures)

    monkeypatch.setattr(experiments, "run_job", run_job)
    return keys


def _half_done(tmp_path: Path) -> Path:
    """An experiment folder with its first two runs written, as an interrupted experiment leaves it."""
    folder = tmp_path / "exp"
    run_experiment(Plan(GAME, {}, SEEDS), folder, workers=1, plots=False)
    rows = (folder / "rows.jsonl").read_text().splitlines()
    (folder / "rows.jsonl").write_text("\n".join(rows[:2]) + "\n")
    return folder


def _edit_record(folder: Path, change: Any) -> dict[str, Any]:
    manifest = json.loads((folder / "experiment.json").read_text())
    change(manifest)
    (folder / "experiment.json").write_text(json.dumps(manifest))
    return manifest


def test_an_experiment_folder_records_the_machine_it_was_started_on(tmp_path: Path, ran: list[str]) -> None:
    folder = _half_done(tmp_path)
    manifest = json.loads((folder / "experiment.json").read_text())
    assert manifest["provenance"] == provenance.provenance()
    assert manifest["spec"] == GAME and manifest["seeds"] == SEEDS
    # No row holds it: rows compare seed by seed across machines.
    assert all("provenance" not in json.loads(line) for line in (folder / "rows.jsonl").read_text().splitlines())


def test_a_resume_on_the_same_machine_and_versions_says_nothing_of_them(tmp_path: Path, ran: list[str]) -> None:
    folder = _half_done(tmp_path)
    said: list[str] = []
    result = run_experiment(Plan(GAME, {}, SEEDS), folder, workers=1, plots=False, say=said.append)
    assert (result.resumed, result.ran) == (2, SEEDS - 2)
    assert not [line for line in said if line.startswith("warning")]


def test_a_resume_on_another_numpy_warns_naming_numpy_and_both_versions_and_goes_on(
    tmp_path: Path, ran: list[str]
) -> None:
    folder = _half_done(tmp_path)
    manifest = _edit_record(folder, lambda m: m["provenance"]["packages"].update(numpy="1.26.4"))
    said: list[str] = []
    ran.clear()
    result = run_experiment(Plan(GAME, {}, SEEDS), folder, workers=1, plots=False, say=said.append)
    now = provenance.provenance()["packages"]["numpy"]
    assert said == [
        f"warning: this experiment was started with numpy 1.26.4, this is {now}: its runs may differ bit for bit; "
        "statistics still compare"
    ]
    assert (result.resumed, result.ran) == (2, SEEDS - 2) and ran == ["0:2", "0:3"]
    # The record stays the one the experiment was started with.
    assert json.loads((folder / "experiment.json").read_text())["provenance"] == manifest["provenance"]


def test_a_resume_on_another_cpu_and_pybullet_warns_once_per_difference(tmp_path: Path, ran: list[str]) -> None:
    def elsewhere(manifest: dict[str, Any]) -> None:
        manifest["provenance"]["packages"]["pybullet"] = "3.2.5"
        manifest["provenance"]["cpu"] = {"model": "Apple M2", "simd": ["neon", "asimd"]}

    folder = _half_done(tmp_path)
    _edit_record(folder, elsewhere)
    said: list[str] = []
    run_experiment(Plan(GAME, {}, SEEDS), folder, workers=1, plots=False, say=said.append)
    now = provenance.provenance()
    assert [line.split(": its runs")[0] for line in said] == [
        "warning: this experiment was started with pybullet 3.2.5, this is " + now["packages"]["pybullet"],
        "warning: this experiment was started with cpu Apple M2, this is " + now["cpu"]["model"],
        "warning: this experiment was started with cpu features neon asimd, this is "
        + str(provenance._features(now["cpu"]["simd"])),  # noqa: SLF001 - as the warning shows them
    ]


def test_a_folder_from_before_the_record_resumes_with_one_warning(tmp_path: Path, ran: list[str]) -> None:
    folder = _half_done(tmp_path)
    _edit_record(folder, lambda m: m.pop("provenance"))
    said: list[str] = []
    result = run_experiment(Plan(GAME, {}, SEEDS), folder, workers=1, plots=False, say=said.append)
    assert len(said) == 1 and said[0].startswith("warning: this experiment records no machine or versions")
    assert result.ran == SEEDS - 2


def test_the_cli_prints_the_resume_warning_and_goes_on(tmp_path: Path, ran: list[str], capsys: Any) -> None:
    folder = tmp_path / "exp"
    argv = [
        "experiment",
        "--game",
        "10",
        "--players",
        "greedy,random,random",
        "--fast",
        "--seeds",
        "3",
        "--quiet",
        "--workers",
        "1",
        "--out",
        str(folder),
    ]  # one process: the stand-in runs are this one's
    assert cli.main(argv) == 0
    _edit_record(folder, lambda m: m["provenance"].update(python="CPython 3.11.1"))
    (folder / "rows.jsonl").write_text((folder / "rows.jsonl").read_text().splitlines()[0] + "\n")
    capsys.readouterr()
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert f"this experiment was started with python CPython 3.11.1, this is {provenance.provenance()['python']}" in err
    assert "resumed: 1 run already done, 2 runs this time" in err


# -- the lock file ---------------------------------------------------------------------------------


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised: ``dask[distributed]>=2024.1`` -> ``dask``."""
    return re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~;\s]", requirement.strip(), maxsplit=1)[0]).lower()


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def test_the_lock_file_pins_the_physics_stack_and_every_dependency_at_or_above_its_floor() -> None:
    lines = [line.strip() for line in (ROOT / "requirements-lock.txt").read_text().splitlines()]
    pins: dict[str, str] = {}
    for line in lines:
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+!-]*)", line)
        assert match, f"requirements-lock.txt: {line!r} is not pinned as name==version"
        pins[_name(match[1])] = match[2]
    assert {"pybullet", "numpy", "scipy"} <= set(pins)
    assert "pyramid" not in pins  # installed from the checkout, with -e .
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    for requirement in wanted:
        name = _name(requirement)
        assert name in pins, f"requirements-lock.txt lacks {name}, a dependency in pyproject.toml"
        floor = re.search(r">=\s*([0-9][0-9.]*)", requirement)
        if floor:
            assert _numbers(pins[name]) >= _numbers(floor[1]), f"{name}=={pins[name]} is below pyproject's {floor[0]}"
