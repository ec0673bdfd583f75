"""The scenes shipped in the package: ``pyramid scenes`` lists every file, one line each; ``pyramid run NAME`` runs
one, a path still runs a file, ``--copy`` copies one; an unknown name is refused naming the shipped ones."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from pyramid.cli import app as cli
from pyramid.lab.scene import SceneError, load_scene
from pyramid.lab.shipped_scenes import SCENES, copy_scene, is_scene_name, shipped_scene, shipped_scenes

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(SCENES.glob("*.toml"))


def test_the_shipped_scenes_are_the_files_in_the_package() -> None:
    assert SCENES == ROOT / "pyramid" / "scenes"
    assert len(FILES) >= 10
    assert list(shipped_scenes()) == [f.stem for f in FILES]
    # Each file's own name is the name it is found by (and names its reports).
    assert all(tomllib.loads(f.read_text())["scene"]["name"] == f.stem for f in FILES)
    # A clone's scenes/ is the same folder, so scenes/NAME.toml in the docs and tests reads the shipped file.
    assert (ROOT / "scenes").resolve() == SCENES


def test_pyramid_scenes_lists_each_one_line_with_what_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [f.stem for f in FILES]
    assert all(len(line.split()) > 4 for line in lines), "each line says what the scene shows"


def test_a_name_or_a_path_loads_the_same_scene() -> None:
    by_name = load_scene("die_throw")
    assert by_name.source == str(SCENES / "die_throw.toml")
    assert by_name.raw == load_scene(ROOT / "scenes" / "die_throw.toml").raw
    assert is_scene_name("die_throw") and not is_scene_name("die_throw.toml") and not is_scene_name("x/die_throw")


def test_a_file_in_the_folder_wins_over_a_shipped_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tilt").write_text('[scene]\nname = "mine"\n')
    assert load_scene("tilt").name == "mine"


@pytest.mark.parametrize("command", [["run"], ["experiment", "--seeds", "1"], ["view"]])
def test_an_unknown_name_is_refused_naming_the_shipped_scenes(
    command: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main([*command, "die_thorw"]) == 2
    err = capsys.readouterr().err
    assert "die_thorw" in err and "did you mean 'die_throw'" in err
    assert all(name in err for name in shipped_scenes())
    assert not list(tmp_path.iterdir()), "nothing is written"


def test_a_missing_file_named_like_a_shipped_scene_says_to_use_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SceneError, match=r"no such file \(the shipped scene 'die_throw' is found by its name\)"):
        load_scene("elsewhere/die_throw.toml")


def test_run_takes_a_name_and_a_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    edited = copy_scene("die_throw", tmp_path / "mine")
    edited.write_text(edited.read_text().replace('name = "die_throw"', 'name = "my_throw"'))
    assert cli.main(["run", "die_throw", str(edited), "--quiet", "--out", str(tmp_path / "runs")]) == 0
    reports = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert reports == ["die_throw_seed0.json", "my_throw_seed0.json"]
    shipped = json.loads((tmp_path / "runs" / "die_throw_seed0.json").read_text())
    mine = json.loads((tmp_path / "runs" / "my_throw_seed0.json").read_text())
    assert shipped["measures"] == mine["measures"], "the copy is the same scene, run the same way"


def test_copy_writes_the_file_and_never_overwrites(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["scenes", "--copy", "tilt", str(tmp_path / "new")]) == 0
    copied = tmp_path / "new" / "tilt.toml"
    assert capsys.readouterr().out.strip() == str(copied)
    assert copied.read_bytes() == shipped_scene("tilt").read_bytes()
    copied.write_text("# mine\n")
    assert cli.main(["scenes", "--copy", "tilt", str(tmp_path / "new")]) == 2
    assert "already there" in capsys.readouterr().err
    assert copied.read_text() == "# mine\n"
    assert cli.main(["scenes", "--copy", "tlit", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no shipped scene 'tlit'" in err and "did you mean 'tilt'" in err and "die_throw" in err
