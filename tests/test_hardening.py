"""The corpus of bad input: every case is refused where it enters, before anything is simulated or
written, in one line that names the input, what is wrong and what is allowed; the exit code is 2.

Nothing here runs physics: each simulation entry point is replaced by one that fails the test if reached.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from pyramid.cli import app as cli
from pyramid.lab.scene import SceneError, load_scene
from pyramid.state import NotationError, PyramidState

ROOT = Path(__file__).resolve().parent.parent
DIE_THROW = ROOT / "scenes" / "die_throw.toml"
SIMULATIONS = (
    "pyramid.cli.lab.run_scene",
    "pyramid.cli.lab.film_scene",
    "pyramid.cli.lab.run_demo",
    "pyramid.cli.lab.run_bench",
    "pyramid.cli.lab.run_soak",
    "pyramid.cli.lab.soak_games",
    "pyramid.cli.lab.soak_envs",
    "pyramid.cli.lab.agreement",
    "pyramid.cli.play.start_match",
    "pyramid.lab.experiments.run_local",
    "pyramid.lab.experiments.run_dask",
)


@pytest.fixture
def no_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every way the commands simulate fails the test if reached."""
    for target in SIMULATIONS:
        monkeypatch.setattr(target, _never(target))


def _never(name: str) -> Any:
    def called(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{name} ran although the input was refused")

    return called


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command; it must exit with 2 and say one line (no traceback). Returns that line."""
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's refusals
        code = stop.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines, "nothing said"
    return lines[-1]


# -- scene files --------------------------------------------------------------------------------------

TABLE_DIE = '[scene]\nplate = false\n[[start.table]]\ncolour = "red"\n'
THROW = '[scene]\nplate = false\n[[timeline]]\ndo = "throw"\n'
BLOW = '[scene]\nplate = false\n[[timeline]]\ndo = "blow"\nazimuth = 0.0\n'
BARE = "[scene]\nplate = false\n"

# (case, the file's text, the key named, a phrase of what is allowed)
SCENE_CORPUS = [
    ("table.at nan", TABLE_DIE + "at = [nan, 0.0]\n", "start.table[0].at", "2 numbers from -2 to 2"),
    ("table.at inf", TABLE_DIE + "at = [0.3, inf]\n", "start.table[0].at", "2 numbers from -2 to 2"),
    ("table.at 1e300", TABLE_DIE + "at = [1e300, 0.0]\n", "start.table[0].at", "2 numbers from -2 to 2"),
    ("throw.target nan", THROW + "target = [nan, 0.0]\n", "timeline[0].target", "2 numbers from -2 to 2"),
    ("throw.target -inf", THROW + "target = [0.0, -inf]\n", "timeline[0].target", "2 numbers from -2 to 2"),
    ("throw.height nan", THROW + "height = nan\n", "timeline[0].height", "a number >= 0 and <= 5"),
    ("blow origin nan", BLOW + "origin = [nan, 0.0, 0.02]\n", "timeline[0].origin", "3 numbers from -2 to 2"),
    ("blow origin 1e300", BLOW + "origin = [1e300, 0.0, 0.02]\n", "timeline[0].origin", "3 numbers from -2 to 2"),
    ("blow origin inf", BLOW + "origin = [0.0, inf, 0.02]\n", "timeline[0].origin", "3 numbers from -2 to 2"),
    ("proportions nan", BARE + "[physics]\nproportions = [nan, 1, 1]\n", "physics.proportions", "from 0.1 to 10"),
    ("proportions inf", BARE + "[physics]\nproportions = [inf, 1, 1]\n", "physics.proportions", "from 0.1 to 10"),
    ("proportions 1e6", BARE + "[physics]\nproportions = [1e6, 1, 1]\n", "physics.proportions", "from 0.1 to 10"),
    ("edge 1e-6", BARE + "[physics]\nedge = 1e-6\n", "physics.edge", ">= 0.004 and <= 0.1"),
    ("edge inf", BARE + "[physics]\nedge = inf\n", "physics.edge", ">= 0.004 and <= 0.1"),
    ("density 1e-300", BARE + "[physics]\ndensity = 1e-300\n", "physics.density", ">= 50 and <= 25000"),
    ("density nan", BARE + "[physics]\ndensity = nan\n", "physics.density", ">= 50 and <= 25000"),
    ("gravity inf", BARE + "[physics]\ngravity = inf\n", "physics.gravity", "<= 100"),
    ("time_step 1e-9", BARE + "[physics]\ntime_step = 1e-9\n", "physics.time_step", ">= 0.0001 and <= 0.05"),
    ("solver iterations", BARE + "[physics]\nsolver_iterations = 10000000\n", "physics.solver_iterations", "1 to 1000"),
    (
        "attach cell [12, 12, 12]",
        '[[timeline]]\ndo = "attach"\ncell = [12, 12, 12]\n',
        "timeline[0].cell",
        "i + j + k at most 8",
    ),
    (
        "settle_timeout inf, no gravity",
        "[scene]\nplate = false\nsettle_timeout = inf\n[physics]\ngravity = 0.0\n",
        "scene.settle_timeout",
        ">= 0.1 and <= 600",
    ),
    ("settle_timeout nan", "[scene]\nsettle_timeout = nan\n", "scene.settle_timeout", ">= 0.1 and <= 600"),
    ("settle_timeout 1e9", "[scene]\nsettle_timeout = 1e9\n", "scene.settle_timeout", ">= 0.1 and <= 600"),
    ("wait inf", '[[timeline]]\ndo = "wait"\nseconds = inf\n', "timeline[0].seconds", "<= 600"),
    ("flick impulse nan", '[[timeline]]\ndo = "flick"\nazimuth = 0\nimpulse = nan\n', "timeline[0].impulse", "<= 0.1"),
    ("tilt angle -inf", '[[timeline]]\ndo = "tilt"\ndirection = 0\nangle = -inf\n', "timeline[0].angle", ">= 0"),
    (
        "an hour and more of waits",
        BARE + '[[timeline]]\ndo = "wait"\nseconds = 600.0\n' * 7,
        "timeline",
        "at most 3,600 s and 1,000,000 steps",
    ),
    (
        "a fine step for ten minutes",
        "[scene]\nplate = false\nsettle_timeout = 600\n[physics]\ntime_step = 0.0001\n",
        "timeline",
        "at most 3,600 s and 1,000,000 steps",
    ),
    ("name with a path", '[scene]\nname = "../../escaped_x"\n', "scene.name", "a plain file name"),
    ("absolute name", '[scene]\nname = "/tmp/escaped_x"\n', "scene.name", "a plain file name"),
    ("name with NUL", '[scene]\nname = "a\\u0000b"\n', "scene.name", "a plain file name"),
    ("name ..", '[scene]\nname = ".."\n', "scene.name", "a plain file name"),
    ("empty name", '[scene]\nname = ""\n', "scene.name", "a plain file name"),
    ("backslash name", '[scene]\nname = "..\\\\x"\n', "scene.name", "a plain file name"),
    ("name of 1000 letters", f'[scene]\nname = "{"a" * 1000}"\n', "scene.name", "at most 100 characters"),
    ("Unicode digits", '[start]\npyramid = "R١٢٣"\n', "start.pyramid", "the text notation"),
    ("nested 100,000 deep", "x = " + "[" * 100_000 + "]" * 100_000 + "\n", "(syntax)", "nested too deeply"),
    ("nested 40 deep", "x = " + "[" * 40 + "]" * 40 + "\n", "(syntax)", "nested too deeply"),
    ("dotted 5,000 deep", "x" + ".x" * 5000 + " = 1\n", "(syntax)", "nested too deeply"),
    ("a megabyte of comments", "#" * 1_100_000 + "\n", "(file)", "larger than 1,000,000 bytes"),
]


@pytest.mark.parametrize("case, text, key, allowed", SCENE_CORPUS, ids=[c[0] for c in SCENE_CORPUS])
def test_a_bad_scene_file_is_refused_before_anything_runs_or_is_written(
    case: str,
    text: str,
    key: str,
    allowed: str,
    tmp_path: Path,
    no_simulation: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    scene = tmp_path / "bad.toml"
    scene.write_text(text, encoding="utf-8")
    out = tmp_path / "runs"
    line = refused(["run", str(scene), "--out", str(out)], capsys)
    assert line.startswith(f"pyramid run: {scene}: {key}: "), line
    assert allowed in line, line
    assert not out.exists()


def test_a_scene_named_outside_its_folder_writes_nothing_anywhere(
    tmp_path: Path, no_simulation: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    (work / "escape.toml").write_text('[scene]\nname = "../../escaped_x"\nplate = false\n')
    assert "scene.name" in refused(["run", "escape.toml", "--pictures"], capsys)
    assert "scene.name" in refused(["experiment", "escape.toml", "--seeds", "1"], capsys)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "escape.toml"]


def test_a_fifo_given_as_the_scene_file_is_refused_without_waiting(
    tmp_path: Path, no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "scene.toml"
    os.mkfifo(fifo)
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(refused(["run", str(fifo)], capsys)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # free the reader before failing
        with open(fifo, "w"):
            pass
        pytest.fail("pyramid run waited on a FIFO")
    assert result == [
        f"pyramid run: {fifo}: (file): cannot be read: not a regular file (a pipe or a device); a scene is a TOML file"
    ]


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "."])
def test_devices_and_folders_are_not_scene_files(path: str, no_simulation: None) -> None:
    with pytest.raises(SceneError, match=r"\(file\): cannot be read"):
        load_scene(path)


def test_the_notation_reads_ascii_digits_only() -> None:
    assert PyramidState.from_notation("R123").cells[(0, 0, 0)].up == (1, 2, 3)
    for text in ("R١٢٣", "R１２３", "R12３"):
        with pytest.raises(NotationError, match="cannot read"):
            PyramidState.from_notation(text)


def test_every_scene_of_the_project_still_loads() -> None:
    for path in sorted((ROOT / "scenes").glob("*.toml")):
        assert load_scene(path).name == path.stem


# -- the command line ----------------------------------------------------------------------------------

# (case, the arguments, a phrase of the one line said)
COMMAND_CORPUS = [
    ("play --delay nan", ["play", "10", "--view", "--delay", "nan"], "argument --delay: expected a number from 0"),
    ("play --delay -5", ["play", "10", "--view", "--delay", "-5"], "argument --delay: expected a number from 0 to 60"),
    ("play --delay inf", ["play", "10", "--delay", "inf"], "argument --delay: expected a number from 0 to 60"),
    ("bench --seconds -1", ["bench", "--seconds", "-1"], "argument --seconds: expected a number from above 0 to 600"),
    ("bench --seconds inf", ["bench", "--seconds", "inf"], "argument --seconds: expected a number from above 0"),
    ("bench --seconds nan", ["bench", "--seconds", "nan"], "argument --seconds: expected a number from above 0"),
    ("bench --seconds 0", ["bench", "--seconds", "0"], "argument --seconds: expected a number from above 0"),
    ("view --seconds nan", ["view", "--seconds", "nan"], "argument --seconds: expected a number from above 0"),
    ("view --seconds -1", ["view", "--seconds", "-1"], "argument --seconds: expected a number from above 0"),
    ("seed 2**64", ["demo", "--seed", str(2**64)], "argument --seed: expected a whole number from 0 to"),
    ("seed in Arabic digits", ["demo", "--seed", "١٢"], "argument --seed: expected a whole number"),
    ("--seeds 10**7", ["experiment", "--game", "10", "--seeds", "10000000"], "from 1 to 1,000,000"),
    ("--workers 10**6", ["experiment", "--game", "10", "--workers", "1000000"], "argument --workers: expected"),
    ("soak --runs 10**9", ["soak", "--runs", "1000000000"], "argument --runs: expected a whole number from 1 to"),
    ("soak --steps 0", ["soak", "--mode", "envs", "--steps", "0"], "argument --steps: expected a whole number from 1"),
    ("locality --seeds 10**9", ["locality", "--seeds", "1000000000"], "argument --seeds: expected a whole number"),
    ("locality --games -1", ["locality", "--games", "-1"], "argument --games: expected a whole number from 0 to"),
    ("--vary COUNT 10**8", ["experiment", str(DIE_THROW), "--vary", "throw.height=0:1:100000000"], "at most 1000"),
    ("--vary START nan", ["experiment", str(DIE_THROW), "--vary", "throw.height=nan:0.02:3"], "START and STOP"),
    ("--vary a value nan", ["experiment", str(DIE_THROW), "--vary", "throw.height=0.1,nan"], "--vary throw.height:"),
    (
        "--vary 1000 x 1000",
        ["experiment", str(DIE_THROW), "--vary", "throw.height=0.01:0.2:1000", "--vary", "throw.speed=0:1:1000"],
        "at most 10,000 settings",
    ),
    (
        "--vary x --seeds past a million runs",
        ["experiment", str(DIE_THROW), "--vary", "throw.height=0.01:0.2:1000", "--seeds", "10000"],
        "10,000,000 runs; an experiment has at most",
    ),
    (
        "--vary a key twice",
        ["experiment", str(DIE_THROW), "--vary", "throw.height=0.1", "--vary", "throw.height=0.2"],
        "--vary throw.height is given twice",
    ),
    ("--set nan", ["run", str(DIE_THROW), "--set", "throw.target=[nan, 0.0]"], "--set throw.target: expected 2"),
    ("--set 1e300", ["run", str(DIE_THROW), "--set", "throw.height=1e300"], "--set throw.height: expected a number"),
    ("--set deep", ["run", str(DIE_THROW), "--set", "throw.target=" + "[" * 5000 + "]" * 5000], "nested too deeply"),
    ("--set a list unclosed", ["run", str(DIE_THROW), "--set", "throw.target=[0.1,"], "a value is TOML"),
    ("play --option rng=1", ["play", "10", "--fast", "--option", "rng=1"], "--option rng: "),
    ("play --option players=3", ["play", "10", "--fast", "--option", "players=3"], "--option players: "),
    ("play --option self=1", ["play", "10", "--fast", "--option", "self=1"], "--option self: "),
    ("play --option names", ["play", "decathlon", "--fast", "--option", "names=a"], "--option names: "),
    ("experiment --option rng", ["experiment", "--game", "10", "--fast", "--option", "rng=1"], "--option rng: "),
    ("experiment --vary rng", ["experiment", "--game", "10", "--fast", "--vary", "rng=1,2"], "--vary rng: "),
    ("demo --picture noext", ["demo", "--picture", "noext"], "--picture noext: the file is written as PNG"),
    ("demo --picture .jpg", ["demo", "--picture", "p.jpg"], "give a name ending in .png"),
    ("demo --picture /dev/full", ["demo", "--picture", "/dev/full"], "/dev/full is not a regular file"),
    ("demo --picture empty", ["demo", "--picture", ""], "--picture: give a file name ending in .png"),
    ("play --picture noext", ["play", "10", "--picture", "noext"], "--picture noext: the file is written as PNG"),
    ("play --picture empty", ["play", "10", "--picture", ""], "--picture: give a file name ending in .png"),
    (
        "--address without dask",
        ["experiment", "--game", "10", "--fast", "--address", "tcp://127.0.0.1:1"],
        "--address tcp://127.0.0.1:1 is a Dask scheduler's: it needs --engine dask",
    ),
    (
        "--set with --game",
        ["experiment", "--game", "10", "--set", "start.layers=3"],
        "--set start.layers: with --game, --set takes physics settings (physics.KEY=VALUE",
    ),
    (
        "--set physics with --game",
        ["experiment", "--game", "5", "--set", "physics.die_shap=1"],
        "--set physics.die_shap: unknown key (did you mean 'die_shape'?)",
    ),
    (
        "--vary physics with --game",
        ["experiment", "--game", "5", "--vary", 'physics.die_shape="box","ball"'],
        "--vary physics.die_shape: expected one of box, hull, compound, margin, got 'ball'",
    ),
    (
        "--set physics with --fast",
        ["experiment", "--game", "10", "--fast", "--set", "physics.friction_die=0.5"],
        "--set physics.friction_die: --fast plays without physics",
    ),
    ("--option with a scene", ["experiment", str(DIE_THROW), "--option", "x=1"], "--option go with --game"),
    ("experiment /dev/zero", ["experiment", "/dev/zero"], "/dev/zero: (file): cannot be read"),
]


@pytest.mark.parametrize("case, argv, said", COMMAND_CORPUS, ids=[c[0] for c in COMMAND_CORPUS])
def test_bad_command_line_input_is_refused_in_one_line_before_anything_runs(
    case: str,
    argv: list[str],
    said: str,
    tmp_path: Path,
    no_simulation: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    line = refused(argv, capsys)
    assert said in line, line
    assert list(tmp_path.iterdir()) == []  # no experiments/, runs/ or picture left behind


def test_set_and_vary_take_toml_lists_and_strings_with_commas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def run(plan: Any, out: Any, *args: Any, **kwargs: Any) -> Any:
        seen["plan"] = plan
        raise KeyboardInterrupt

    monkeypatch.setattr("pyramid.cli.experiment.run_experiment", run)
    argv = ["experiment", str(DIE_THROW), "--set", "physics.proportions=[1.0,1.0,1.0]"]
    argv += ["--set", 'scene.description="a, b"']
    argv += ["--vary", "throw.target=[0.1,0.0],[0.2, 0.0]", "--out", str(tmp_path / "exp"), "--quiet"]
    assert cli.main(argv) == 130
    plan = seen["plan"]
    assert plan.spec["scene"]["physics"]["proportions"] == [1.0, 1.0, 1.0]
    assert plan.spec["scene"]["scene"]["description"] == "a, b"
    assert plan.vary == {"throw.target": [[0.1, 0.0], [0.2, 0.0]]}


def test_the_corpus_is_the_size_the_report_gives() -> None:
    assert len(SCENE_CORPUS) >= 40 and len(COMMAND_CORPUS) >= 40


# -- optional extras missing --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, argv, extra",
    [
        ("pyglet", ["view"], "view"),
        ("pyglet", ["play", "10", "--view"], "view"),
        ("pyglet", ["run", str(DIE_THROW), "--picture", "--renderer", "opengl"], "view"),
        ("imageio_ffmpeg", ["run", str(DIE_THROW), "--video", "mp4"], "film"),
        ("dask.distributed", ["experiment", str(DIE_THROW), "--engine", "dask", "--seeds", "1"], "dask"),
    ],
    ids=["view", "play-view", "opengl-pictures", "mp4-film", "dask"],
)
def test_a_missing_extra_is_named_in_one_line_before_anything_runs(
    module: str,
    argv: list[str],
    extra: str,
    tmp_path: Path,
    no_simulation: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, module, None)  # as if the extra were not installed
    line = refused(argv, capsys)
    assert f"'.[{extra}]'" in line or f"'pyramid[{extra}]'" in line, line
    assert list(tmp_path.iterdir()) == []
