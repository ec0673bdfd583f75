"""Pictures and films without a screen: file formats, the frames a moving world leaves, `pyramid run --video`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence

from pyramid.physics.world import World
from pyramid.ui.film import BulletRenderer, Film, make_renderer, write_film

ROOT = Path(__file__).resolve().parents[1]


def _frames(n: int = 6) -> list[np.ndarray]:
    """A red square sliding to the right over a grey background."""
    out = []
    for k in range(n):
        frame = np.full((40, 60, 3), 200, dtype=np.uint8)
        frame[10:20, 5 + 5 * k : 15 + 5 * k] = (220, 20, 20)
        out.append(frame)
    return out


@pytest.mark.parametrize("suffix", [".gif", ".png"])
def test_films_keep_every_frame_and_its_picture(tmp_path: Path, suffix: str) -> None:
    frames = _frames()
    path = write_film(frames, tmp_path / f"slide{suffix}", fps=10)
    with Image.open(path) as film:
        assert sum(1 for _ in ImageSequence.Iterator(film)) == len(frames)
        for k in (0, len(frames) - 1):
            film.seek(k)
            rgb = np.asarray(film.convert("RGB")).astype(int)
            assert np.abs(rgb[15, 10 + 5 * k] - (220, 20, 20)).max() < 12, "the square is where it was drawn"
            assert np.abs(rgb[35, 30] - 200).max() < 12


def test_bad_film_requests_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="gif"):
        write_film(_frames(), tmp_path / "film.avi")
    with pytest.raises(ValueError, match="no frames"):
        write_film([], tmp_path / "film.gif")
    try:
        import imageio_ffmpeg  # noqa: F401  (the film extra)
    except ImportError:
        with pytest.raises(ValueError, match="imageio-ffmpeg"):
            write_film(_frames(), tmp_path / "film.mp4")


def test_a_falling_die_leaves_a_frame_per_step_of_film(tmp_path: Path) -> None:
    world = World(plate=False)
    try:
        world.throw(0, (0.0, 0.0, 0.06))
        film = Film(BulletRenderer(96, 64), fps=20)
        with film.filming(world):
            world.step(0.5)
        assert len(film.frames) == 10
        world.step(0.1)
        assert len(film.frames) == 10, "after filming, steps leave no frames"
        # The die falls: its red pixels move down the picture.
        rows = [np.flatnonzero(((f[:, :, 0] > 120) & (f[:, :, 1] < 60)).any(axis=1)).mean() for f in film.frames]
        assert rows[-1] > rows[0] + 3
        path = film.save(tmp_path / "fall.gif")
        # A GIF keeps a run of identical frames (the die at rest) as one longer frame.
        saved = [frame.info["duration"] for frame in ImageSequence.Iterator(Image.open(path))]
        assert 2 <= len(saved) <= 10 and sum(saved) == pytest.approx(500, abs=10)
    finally:
        world.close()


def test_run_writes_pictures_and_a_film_headless(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "runs"
    result = subprocess.run(
        [sys.executable, "-m", "pyramid.cli.app", "run", str(ROOT / "scenes/die_throw.toml"), "--seed", "2"]
        + ["--out", str(out), "--picture", "--video", "gif", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((out / "die_throw_seed2.json").read_text())
    assert [Path(p).name for p in report["pictures"]] == ["000_start.png", "001_throw01.png", "002_end.png"]
    end = np.asarray(Image.open(report["pictures"][-1]).convert("RGB")).astype(int)
    red = (end[:, :, 0] > 120) & (end[:, :, 1] < 70) & (end[:, :, 2] < 70)
    assert red.sum() > 30, "the thrown red die is in the last picture"
    with Image.open(report["video"]) as film:
        assert sum(1 for _ in ImageSequence.Iterator(film)) >= 10
        film.seek(1)
        first = np.asarray(film.convert("RGB")).astype(int)
    assert np.abs(first - end).sum() > 0, "the film shows the die moving"


def test_without_pyglet_auto_draws_in_software_and_opengl_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyglet", None)  # as if the view extra were not installed
    assert make_renderer("auto", 96, 64).name == "software"
    with pytest.raises(LookupError, match=r"pip install -e '\.\[view\]'"):
        make_renderer("opengl", 96, 64)
