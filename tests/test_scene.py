"""Scene files: every kind of mistake is refused with the file, the key and what was expected, and nothing
runs or is written; every scene shipped in scenes/ validates, says what it shows, and together they use
every action of the timeline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pyramid import geometry
from pyramid.cli import app as cli
from pyramid.lab.runner import start_state
from pyramid.lab.scene import Scene, SceneError, load_scene, reserved_dice, scene_from_dict
from pyramid.physics.settings import Physics

SCENES = sorted((Path(__file__).parent.parent / "scenes").glob("*.toml"))

# (what is wrong, the file's text, the key named, a phrase of what was expected)
MISTAKES = [
    ("TOML syntax", '[scene]\nname = "x\n', "(syntax)", "not valid TOML"),
    ("a table name with a typo", "[phyiscs]\nedge = 0.02\n", "phyiscs", "did you mean 'physics'"),
    ("a key with a typo", '[scene]\nmesure = ["score"]\n', "scene.mesure", "did you mean 'measure'"),
    ("a physics key with a typo", "[physics]\nfriction_dice = 0.5\n", "physics.friction_dice", "friction_die"),
    ("a string for a number", '[physics]\nedge = "big"\n', "physics.edge", "expected a number"),
    ("true for a number", "[[timeline]]\ndo = 'throw'\nheight = true\n", "timeline[0].height", "expected a number"),
    ("a fraction for a count", "[physics]\nsolver_iterations = 2.5\n", "physics.solver_iterations", "whole number"),
    ("a restitution above 1", "[physics]\nrestitution_die = 1.5\n", "physics.restitution_die", "<= 1"),
    ("a negative friction", "[physics]\nfriction_table = -0.1\n", "physics.friction_table", ">= 0"),
    ("a zero edge", "[physics]\nedge = 0\n", "physics.edge", ">= 0.004"),
    ("a coarse time step", "[physics]\ntime_step = 0.1\n", "physics.time_step", "<= 0.05"),
    ("a box of two numbers", "[physics]\nproportions = [1, 2]\n", "physics.proportions", "3 numbers"),
    (
        "long dice in the pyramid",
        '[physics]\nproportions = [1, 1, 2]\n[start]\npyramid = "full"\n',
        "physics.proportions",
        "cubic dice",
    ),
    ("a timeline entry without do", "[[timeline]]\nslot = 'apex'\n", "timeline[0].do", "missing"),
    ("an unknown action", "[[timeline]]\ndo = 'jump'\n", "timeline[0].do", "expected one of place, remove, throw"),
    ("an action with a typo", "[[timeline]]\ndo = 'thorw'\n", "timeline[0].do", "did you mean 'throw'"),
    ("a key the action lacks", "[[timeline]]\ndo = 'wait'\nheight = 1.0\n", "timeline[0].height", "unknown key"),
    ("a flick without azimuth", "[[timeline]]\ndo = 'flick'\n", "timeline[0].azimuth", "missing: flick needs"),
    ("a blow without origin", "[[timeline]]\ndo = 'blow'\nazimuth = 0.0\n", "timeline[0].origin", "missing"),
    (
        "a blow's origin of two numbers",
        "[[timeline]]\ndo = 'blow'\nazimuth = 0\norigin = [0, 0]\n",
        "timeline[0].origin",
        "3 numbers",
    ),
    ("a steep tilt", "[[timeline]]\ndo = 'tilt'\ndirection = 0\nangle = 95\n", "timeline[0].angle", "<= 80"),
    ("a shake at 0 Hz", "[[timeline]]\ndo = 'shake'\nfrequency = 0\n", "timeline[0].frequency", "> 0"),
    ("a negative flick", "[[timeline]]\ndo = 'flick'\nazimuth = 0\nimpulse = -1\n", "timeline[0].impulse", ">= 0"),
    (
        "a flick of an unknown die",
        "[[timeline]]\ndo = 'flick'\nazimuth = 0\nslot = 'top'\n",
        "timeline[0].slot",
        "slot [i, j, k]",
    ),
    ("a slot off the lattice", "[[timeline]]\ndo = 'remove'\nslot = [5, 4, 3]\n", "timeline[0].slot", "not a slot"),
    ("a slot of two numbers", "[[timeline]]\ndo = 'place'\nslot = [1, 2]\n", "timeline[0].slot", "three whole"),
    (
        "a count for one slot",
        "[[timeline]]\ndo = 'remove'\nslot = [0, 0, 0]\ncount = 2\n",
        "timeline[0].count",
        "one die",
    ),
    ("remove without the plate", "[scene]\nplate = false\n[[timeline]]\ndo = 'remove'\n", "timeline[0].do", "plate"),
    ("a negative wait", "[[timeline]]\ndo = 'wait'\nseconds = -1\n", "timeline[0].seconds", ">= 0"),
    ("a throw target of one number", "[[timeline]]\ndo = 'throw'\ntarget = [1]\n", "timeline[0].target", "2 numbers"),
    (
        "two entries with one name",
        "[[timeline]]\ndo = 'wait'\nname = 'a'\n[[timeline]]\ndo = 'wait'\nname = 'a'\n",
        "timeline",
        "share a name",
    ),
    ("a timeline that is not a list", "timeline = 3\n", "timeline", "[[timeline]]"),
    (
        "an unknown colour pattern",
        '[start]\npyramid = "full"\ncolours = "purple"\n',
        "start.colours",
        "expected one of random, layers, stripes, red",
    ),
    (
        "an unknown colour on the table",
        '[[start.table]]\ncolour = "pink"\n',
        "start.table[0].colour",
        "expected one of red",
    ),
    (
        "an unknown colour to throw",
        "[[timeline]]\ndo = 'throw'\ncolour = 'gren'\n",
        "timeline[0].colour",
        "did you mean 'green'",
    ),
    (
        "more gold dice than the set has",
        '[[start.table]]\ncolour = "gold"\ncount = 2\n',
        "start.table[0].count",
        "from 1 to 1",
    ),
    (
        "more red dice than the set has",
        '[start]\npyramid = "full"\ncolours = "red"\n',
        "start.colours",
        "more red dice",
    ),
    (
        "a second gold die placed",
        "[[timeline]]\ndo = 'place'\ncolour = 'gold'\n[[timeline]]\ndo = 'place'\ncolour = 'gold'\n",
        "timeline[1].count",
        "more gold dice than the set's 1",
    ),
    ("faces that do not meet at a corner", '[start]\nfaces = "125"\n', "start.faces", "meeting at a corner"),
    (
        "table dice inside each other",
        "[[start.table]]\ncount = 3\nspacing = 0.01\n",
        "start.table[0].spacing",
        "a die's diagonal",
    ),
    ("table dice off the table", "[[start.table]]\nat = [0.5, 1.5]\n", "start.table[0].at", "off the table"),
    ("table dice on the plate", "[[start.table]]\nat = [0.0, 0.0]\n", "start.table[0].at", "on the plate"),
    ("a throw at the floor", "[[timeline]]\ndo = 'throw'\ntarget = [2.0, 0]\n", "timeline[0].target", "on the table"),
    ("a face 7 on the table", "[[start.table]]\ntop = 7\n", "start.table[0].top", "face 1..6"),
    ("a bad notation", '[start]\npyramid = "X123"\n', "start.pyramid", "text notation"),
    ("a die standing on nothing", '[start]\npyramid = "R123"\n', "start.pyramid", "nothing to stand on"),
    ("layers without a full pyramid", "[start]\nlayers = 3\n", "start.layers", 'pyramid = "full"'),
    ("too many layers", '[start]\npyramid = "full"\nlayers = 10\n', "start.layers", "from 1 to 9"),
    (
        "a small pyramid of 7 dice",
        "[[start.small_pyramid]]\ndice = 7\n",
        "start.small_pyramid[0].dice",
        "expected one of 4, 10",
    ),
    (
        "a small pyramid at an unknown corner",
        '[[start.small_pyramid]]\nat = "d"\n',
        "start.small_pyramid[0].at",
        "corner a, b, c",
    ),
    (
        "overlapping small pyramids",
        '[[start.small_pyramid]]\nat = "a"\n[[start.small_pyramid]]\nat = "a"\n',
        "start.small_pyramid[1].at",
        "overlaps",
    ),
    ("an unknown measure", '[scene]\nmeasure = ["scroe"]\n', "scene.measure[0]", "did you mean 'score'"),
    ("a measure that is not a list", '[scene]\nmeasure = "score"\n', "scene.measure", "list of measures"),
    ("a plate that is not true or false", '[scene]\nplate = "yes"\n', "scene.plate", "true or false"),
    ("a negative seed", "[scene]\nseed = -1\n", "scene.seed", "whole number"),
    ("a number for the name", "[scene]\nname = 3\n", "scene.name", "expected a string"),
    ("a table given as a number", "start = 3\n", "start", "expected a table [start]"),
    ("a pull along a fourth axis", "[[timeline]]\ndo = 'pull'\naxis = 3\n", "timeline[0].axis", "0, 1 or 2"),
    ("a pull of two edges", "[[timeline]]\ndo = 'pull'\ndistance = 0.032001\n", "timeline[0].distance", "<= 0.032"),
    ("an attach with no cell", "[[timeline]]\ndo = 'attach'\n", "timeline[0].cell", "missing: attach needs"),
    ("an attach far away", "[[timeline]]\ndo = 'attach'\ncell = [0, 0, 40]\n", "timeline[0].cell", "-4 to 12"),
    ("a pour beside the table", "[[timeline]]\ndo = 'pour'\ntarget = [0, 1.5]\n", "timeline[0].target", "on the table"),
    (
        "a pour of 100 gold dice",
        "[[timeline]]\ndo = 'pour'\ncolour = 'gold'\ncount = 100\n",
        "timeline[0].count",
        "gold",
    ),
]


@pytest.mark.parametrize(("what", "text", "key", "expected"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_names_the_file_the_key_and_what_was_expected(
    what: str, text: str, key: str, expected: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    assert caught.value.key == key, caught.value
    message = str(caught.value)
    assert message.startswith(f"{path}: {key}: "), message
    assert expected in message, message


@pytest.mark.parametrize(("what", "text", "key", "expected"), MISTAKES[::6], ids=[m[0] for m in MISTAKES[::6]])
def test_pyramid_run_refuses_a_bad_file_and_writes_nothing(
    what: str, text: str, key: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    out = tmp_path / "runs"
    # A good scene first on the command line: it must not run either, since one file is bad.
    code = cli.main(["run", str(SCENES[0]), str(bad), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{bad}: {key}: " in err and expected in err
    assert not out.exists()


def test_pyramid_experiment_refuses_a_bad_file_or_sweep_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[timeline]]\ndo = 'throw'\nheigth = 0.1\n")
    out = tmp_path / "exp"
    assert cli.main(["experiment", str(bad), "--out", str(out)]) == 2
    assert "timeline[0].heigth: unknown key (did you mean 'height'?)" in capsys.readouterr().err
    # A good file with a swept value out of range: refused before any run, at every sweep point.
    good = tmp_path / "good.toml"
    good.write_text("[scene]\nplate = false\n[[timeline]]\ndo = 'throw'\nname = 'throw'\n")
    assert cli.main(["experiment", str(good), "--vary", "throw.height=0.1,-0.5", "--out", str(out)]) == 2
    assert "--vary throw.height: expected a number >= 0" in capsys.readouterr().err
    assert not out.exists()


def test_a_missing_file_a_folder_and_a_binary_file_are_named(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match=r"nowhere\.toml: \(file\): no such file"):
        load_scene("nowhere.toml")
    with pytest.raises(SceneError, match=r": \(file\): cannot be read"):
        load_scene(tmp_path)
    binary = tmp_path / "picture.toml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(SceneError, match=r"picture\.toml: \(file\): not a text file"):
        load_scene(binary)


def test_an_empty_file_is_an_empty_table_with_the_engine_defaults() -> None:
    scene = scene_from_dict({}, "empty.toml")
    assert scene.name == "empty" and scene.plate and scene.timeline == ()
    assert scene.physics == Physics() and scene.start.slot_count() == 0


def test_physics_settings_are_read_into_the_world_settings() -> None:
    raw = {
        "scene": {"plate": False},
        "physics": {"edge": 0.02, "proportions": [1, 1, 2], "time_step": 0.004, "friction_die": 0.3},
    }
    ph = scene_from_dict(raw, "x.toml").physics
    assert (ph.edge, ph.proportions, ph.time_step, ph.friction_die) == (0.02, (1.0, 1.0, 2.0), 0.004, 0.3)
    assert ph.friction_table == Physics().friction_table  # what the file leaves out keeps its default
    assert ph.cone_friction
    assert not scene_from_dict({**raw, "physics": {"cone_friction": False}}, "x").physics.cone_friction
    with pytest.raises(SceneError, match="physics.cone_friction: expected true or false, got 'no'"):
        scene_from_dict({**raw, "physics": {"cone_friction": "no"}}, "x.toml")


def test_overrides_reach_named_entries_numbered_entries_and_tables() -> None:
    raw: dict[str, Any] = {"scene": {"plate": False}, "timeline": [{"do": "wait"}, {"do": "throw", "name": "throw"}]}
    scene = scene_from_dict(raw, "x.toml", {"throw.height": 0.02, "timeline.0.seconds": 0.5, "physics.edge": 0.02})
    assert scene.timeline[1].params["height"] == 0.02 and scene.timeline[0].params["seconds"] == 0.5
    assert scene.physics.edge == 0.02
    assert raw["timeline"][1] == {"do": "throw", "name": "throw"}  # the original is left alone
    with pytest.raises(SceneError, match="timeline.5.height: the timeline has 2 entries"):
        scene_from_dict(raw, "x.toml", {"timeline.5.height": 0.1})


def test_reading_the_scenes_does_not_import_pybullet() -> None:
    code = (
        "import sys, pathlib\n"
        "from pyramid.lab.scene import load_scene\n"
        "for path in sorted(pathlib.Path('scenes').glob('*.toml')):\n"
        "    load_scene(path)\n"
        "assert 'pybullet' not in sys.modules, 'reading a scene imported pybullet'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=SCENES[0].parent.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", SCENES, ids=[p.stem for p in SCENES])
def test_every_scene_validates_and_says_what_it_shows(path: Path) -> None:
    scene = load_scene(path)
    assert isinstance(scene, Scene) and scene.description
    first = path.read_text().splitlines()[0]
    assert first.startswith("# Shows: ") and len(first) > 30


def test_the_scenes_together_show_every_action_and_every_kind_of_start() -> None:
    scenes = [load_scene(p) for p in SCENES]
    assert len(scenes) >= 10
    kinds = {step.kind for s in scenes for step in s.timeline}
    assert kinds >= {"place", "remove", "throw", "flick", "blow", "tilt", "shake", "pull", "attach", "pour", "wait"}
    starts = [s.start for s in scenes]
    assert any(len(st.slots) == len(geometry.SLOTS) for st in starts)  # the full pyramid
    assert any(0 < len(st.slots) < len(geometry.SLOTS) for st in starts)  # a partial one, by layers
    assert any(st.notation is not None for st in starts)  # a structure in the text notation
    assert any(st.small_pyramids for st in starts) and any(st.table for st in starts)
    assert {"layers", "stripes", "random"} <= {st.colours for st in starts} | {
        p.colours for st in starts for p in st.small_pyramids
    }
    assert any(st.faces not in ("random",) for st in starts)  # a fixed orientation
    assert any(s.physics.proportions != (1.0, 1.0, 1.0) for s in scenes)  # a box die
    assert any(s.physics.friction_die != Physics().friction_die for s in scenes)  # a material
    assert any(s.physics.solver_iterations != Physics().solver_iterations for s in scenes)  # a solver setting
    measures = {m for s in scenes for m in s.measures}
    assert measures >= {"readout", "score", "moved", "fallen", "time_to_rest", "thrown"}


def test_the_random_colours_of_the_start_leave_the_dice_the_timeline_needs() -> None:
    raw = {
        "start": {"pyramid": "full", "colours": "random"},
        "timeline": [{"do": "throw", "colour": "blue", "count": 10}, {"do": "place", "colour": "gold"}],
    }
    scene = scene_from_dict(raw, "x.toml")
    assert reserved_dice(scene) == {"blue": 10, "gold": 1}
    for seed in range(5):
        colours = {
            cell.colour
            for cell in start_state(scene.start, np.random.default_rng(seed), reserved_dice(scene)).cells.values()
        }
        assert colours == {"red", "green", "black"}
    # Without the reserve the 165 random dice take some blue ones.
    drawn = [start_state(scene.start, np.random.default_rng(seed)).cells.values() for seed in range(5)]
    assert any(cell.colour == "blue" for cells in drawn for cell in cells)
