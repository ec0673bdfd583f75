"""Pictures and films without a screen: file formats, the frames a moving world leaves, `pyramid run --video`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence

from pyramid.lab.scene import action_fields, load_scene, physical_action_type, scene_from_dict
from pyramid.physics import plate_motion
from pyramid.physics.render import view_points
from pyramid.physics.world import World
from pyramid.ui import film as film_module
from pyramid.ui.camera import OrbitCamera
from pyramid.ui.film import BulletRenderer, Film, film_scene, make_renderer, write_film

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


class _Watcher:
    """A renderer that draws nothing and notes, per frame, the dice in play and where each is seen (ndc)."""

    name = "watcher"

    def __init__(self, width: int = 96, height: int = 64) -> None:
        self.width, self.height = width, height
        self.camera = OrbitCamera()
        self.framed = False
        self.dice: list[int] = []
        self.seen: list[np.ndarray] = []  # per frame (n, 2): each die's centre in normalised picture coordinates

    def __call__(self, world: World) -> np.ndarray:
        if not self.framed:
            self.camera.fit(view_points(world), self.width / self.height)
            self.framed = True
        poses = world.poses()[1]
        matrix = self.camera.projection_matrix(self.width / self.height) @ self.camera.view_matrix()
        clip = (matrix @ np.c_[poses[:, :3], np.ones(len(poses))].T).T
        self.dice.append(len(world.dice))
        self.seen.append(clip[:, :2] / clip[:, 3:])
        return np.full((self.height, self.width, 3), len(world.dice), np.uint8)  # the frame tells the count


def test_the_film_camera_follows_a_thrown_die_until_it_rests(tmp_path: Path) -> None:
    watcher = _Watcher()
    film_scene(load_scene(ROOT / "scenes/die_throw.toml"), 0, tmp_path / "film.gif", None, watcher)
    assert len(watcher.seen) >= 10
    worst = max(float(np.abs(seen).max()) for seen in watcher.seen)
    assert worst < 1.0, f"the die left the picture ({worst:.2f} of the half-width or half-height from the middle)"


def test_a_film_shows_a_pyramid_built_die_by_die(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[np.ndarray] = []

    def keep(frames: list[np.ndarray], path: Path, fps: float) -> Path:
        written.extend(frames)
        return path

    monkeypatch.setattr(film_module, "write_film", keep)
    scene = load_scene(ROOT / "scenes/building.toml", {"start.layers": 1, "build.count": 3})
    film = Film(_Watcher())
    report = film_scene(scene, 0, tmp_path / "film.gif", None, film=film)
    counts = [int(frame[0, 0, 0]) for frame in written]  # the dice in play in each frame of the film
    assert counts[0] == 45 and counts[-1] == 48
    held = {n: counts.count(n) for n in (46, 47, 48)}
    assert all(frames >= 5 for frames in held.values()), f"frames of the film per number of dice in play: {held}"
    assert counts == sorted(counts), "the pyramid only grows"
    # Each die placed is named by its number and colour in the caption of the frames that show it placed.
    placed = [e.removeprefix("placed ") for e in report["events"] if e.startswith("placed die")]
    assert len(placed) == 3 and all(re.fullmatch(r"die \d+ \(green\) in \(\d, \d, \d\)", p) for p in placed)
    for n, what in enumerate(placed, 46):
        shown = [c for (_, c), dice in zip(film.timeline, counts, strict=True) if dice == n]
        assert shown[0] == f"building: 1. place {what}", "the die's own caption while the film holds it placed"


def test_a_caption_names_the_moment_along_the_bottom_and_leaves_the_picture_above() -> None:
    grey = np.full((120, 300, 3), 200, dtype=np.uint8)
    early, late = film_module.captioned(grey, "tilt: t = 0.25 s"), film_module.captioned(grey, "tilt: t = 1.75 s")
    assert np.array_equal(early[:90], grey[:90])  # the picture above the strip is untouched
    strip = early[104:]
    assert strip.mean() < 120 and strip.max() > 220  # a dark strip with light letters on it
    assert not np.array_equal(early[104:], late[104:])  # another moment, other words
    long = film_module.captioned(grey, "x" * 500)  # cut to fit, not written past the edge
    assert long.shape == grey.shape and long[104:, -5:].max() < 120


SHADOW_PICTURES = """
import sys
import numpy as np
from pyramid.physics.world import World
from pyramid.ui.film import StageRenderer

world = World()
for n, x in enumerate((-0.06, 0.0, 0.06)):
    world.throw(200 + n, (x, -0.13, 0.0081))  # three dice lying on the table in front of the plate
world.settle()
renderer = StageRenderer(480, 300)
lit = renderer(world)
next(iter(renderer._stages.values())).shadows = False
unlit = renderer(world)
from pyramid.ui.viewer import SHADOW_SHADE
np.savez(sys.argv[1], lit=lit, unlit=unlit, shade=SHADOW_SHADE)
"""


def test_dice_and_the_plate_cast_shadows_on_the_table(tmp_path: Path) -> None:
    # Drawn in a process of its own, as the films are: pyglet chooses headless or a screen once per process.
    out = tmp_path / "shadows.npz"
    result = subprocess.run(
        [sys.executable, "-c", SHADOW_PICTURES, str(out)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    pictures = np.load(out)
    lit, unlit = pictures["lit"].astype(int), pictures["unlit"].astype(int)
    change = lit.sum(axis=2) - unlit.sum(axis=2)
    darker = change < -30
    assert darker.sum() > 300, "the shadows darken the table next to the dice and the plate"
    # A shadow only darkens (the resampling of the supersampled picture rings a little at its edges).
    assert (change > 20).sum() < 0.05 * darker.sum()
    ratio = lit[darker].sum(axis=1) / np.maximum(unlit[darker].sum(axis=1), 1)
    shade = float(pictures["shade"]) ** (1 / 1.15)  # the table's colour times the shade, through the shader's gamma
    assert abs(float(np.median(ratio)) - shade) < 0.04, "in shadow the table keeps its colour, darker"


def test_a_film_captions_each_action_from_its_start_to_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(film_module, "write_film", lambda frames, path, fps: Path(path))
    scene = scene_from_dict(
        {
            "scene": {"name": "tilt", "measure": ["readout"]},
            "start": {"small_pyramid": [{"dice": 4, "at": "centre"}]},
            "timeline": [
                {"do": "tilt", "direction": 0.0, "angle": 15.0, "ramp": 0.3, "hold": 0.4, "shake": 0.01},
                {"do": "wait"},
            ],
        },
        "tilt",
    )
    film = Film(_Watcher(), fps=25)
    report = film_scene(scene, 0, tmp_path / "film.gif", None, film=film)
    step = scene.timeline[0]
    tilt = physical_action_type(step.kind)(**action_fields(step.params, None))
    start, lasts = report["start_settle_seconds"], plate_motion.duration(tilt, scene.physics.edge)
    tick = 1 / film.fps
    named = "tilt: 1. tilt 15 deg towards 0 deg for 0.4 s, shaking 10 mm at 10 Hz"  # rounded for people
    during = [caption for t, caption in film.timeline if start + tick < t < start + lasts - tick]
    after = [caption for t, caption in film.timeline if t > start + lasts + tick]
    assert len(during) >= 0.9 * lasts * film.fps  # a frame every 1/fps simulated seconds of the tilt
    assert set(during) == {named}, "while the plate tilts, the caption says so"
    assert named not in after and after[0].startswith("tilt: 2. wait"), "once it is over, the next action's"


# The three commands that draw pictures, each as small as it runs: the pyramid of the demo with nothing thrown, a
# one-round board game (Storing Scores) played physically, and one die thrown onto the table.
def _picture_commands(out: Path) -> dict[str, list[str]]:
    return {
        "demo": ["demo", "--throws", "0", "--picture", str(out / "demo.png")],
        "play": ["play", "15", "--option", "rounds=1", "--seed", "1", "--picture", str(out / "play.png")],
        "run": ["run", str(ROOT / "scenes/die_throw.toml"), "--pictures", "--quiet", "--out", str(out / "runs")],
    }


def _command_picture(name: str, out: Path) -> Path:
    return out / "runs/die_throw_seed0/002_end.png" if name == "run" else out / f"{name}.png"


def test_demo_play_and_run_draw_their_pictures_with_the_one_renderer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.cli import app as cli
    from pyramid.physics import render as plain

    def refuse(*args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("a command drew with the plain renderer (pyramid.physics.render.render)")

    drawn: list[tuple[int, ...]] = []
    draw = BulletRenderer.__call__

    def watched(self: BulletRenderer, world: World) -> np.ndarray:
        image = draw(self, world)
        drawn.append(image.shape)
        return image

    monkeypatch.setattr(plain, "render", refuse)
    monkeypatch.setattr(BulletRenderer, "__call__", watched)
    # Software: an OpenGL picture drawn in this process would load pyglet headless for the tests after it.
    for name, command in _picture_commands(tmp_path).items():
        drawn.clear()
        assert cli.main([*command, "--renderer", "software"]) == 0, name
        assert drawn and set(drawn) == {(600, 960, 3)}, f"{name}: drawn by make_renderer's renderer"
        assert Image.open(_command_picture(name, tmp_path)).size == (960, 600), name


def test_demo_play_and_run_pictures_look_alike_with_no_display(tmp_path: Path) -> None:
    # Each command in a process of its own with no screen named: pyglet headless where EGL starts, else software.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    corners = {}
    for name, command in _picture_commands(tmp_path).items():
        result = subprocess.run(
            [sys.executable, "-m", "pyramid.cli.app", *command], capture_output=True, text=True, env=env, timeout=180
        )
        assert result.returncode == 0, f"{name}: {result.stderr}"
        assert re.search(r"drawn by the (opengl|software) renderer", result.stdout), name
        picture = np.asarray(Image.open(_command_picture(name, tmp_path)).convert("RGB")).astype(int)
        assert picture.shape == (600, 960, 3), name
        corners[name] = tuple(picture[0, 0])
        # Framed on the pyramid: red, green and black dice fill a fifth of the picture's middle half (the lone
        # die thrown onto the table fills little).
        r, g, b = picture[150:450, 240:720].transpose(2, 0, 1)
        dice = ((r > 2 * g) & (r > 100)) | ((g > 1.5 * r) & (g > 1.2 * b)) | (np.maximum(np.maximum(r, g), b) < 50)
        if name != "run":
            assert dice.mean() > 0.2, f"{name}: the pyramid fills the middle of the picture"
    # The same renderer and camera: the sky in the top corner; the plain renderer looks down onto the brown table.
    assert len(set(corners.values())) == 1, corners
    assert min(corners["demo"]) > 180, corners


def _coloured_pixels(image: np.ndarray, colour: str) -> int:
    r, g, b = (image[..., k].astype(int) for k in range(3))
    if colour == "red":
        return int(((r > g + 50) & (r > b + 50)).sum())
    return int(((g > r + 30) & (g > b + 10)).sum())


def test_pybullets_picture_shows_each_die_in_its_colour_textures_loaded_when_first_drawn() -> None:
    # A world no one draws loads no texture (22 ms a world); the first picture gives every die in play its
    # colour's texture, and every die put in afterwards gets its own.
    from pyramid.dice import DICE
    from pyramid.physics.render import render

    red = next(d.id for d in DICE if d.colour == "red")
    green = next(d.id for d in DICE if d.colour == "green")
    world = World(plate=False)
    try:
        world.throw(red, (0.0, 0.0, world.physics.edge / 2 + 1e-4))
        world.settle()
        assert not world._textures
        first = render(world, 200, 150, distance=0.12, target=(0.0, 0.0, 0.008))
        assert _coloured_pixels(first, "red") > 500 and _coloured_pixels(first, "green") == 0
        world.throw(green, (0.03, 0.0, world.physics.edge / 2 + 1e-4))
        world.settle()
        second = render(world, 200, 150, distance=0.12, target=(0.015, 0.0, 0.008))
        assert _coloured_pixels(second, "red") > 500 and _coloured_pixels(second, "green") > 500
    finally:
        world.close()
