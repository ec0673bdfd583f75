"""Pictures and films without a screen: frames of the viewer's stage (or PyBullet's) -> PNG, GIF, APNG, MP4.

Sits beside the viewer: the same stage and camera draw offscreen, through pyglet's headless (EGL)
mode when there is no display, else a hidden window (pyglet, the ``view`` extra, is loaded only then).
Where OpenGL is not available at all, PyBullet's software renderer (``pyramid.physics.render``) takes
over. GIF and APNG need only Pillow; MP4 needs the ``film`` extra (imageio-ffmpeg).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from pyramid.lab import runner
from pyramid.lab.scene import Scene
from pyramid.physics.render import render, view_points
from pyramid.physics.world import World
from pyramid.ui.camera import OrbitCamera

if TYPE_CHECKING:
    from pyramid.ui.viewer import Stage

FILM_SUFFIXES = (".gif", ".png", ".apng", ".mp4")
HOLD = 0.2  # seconds a film shows each die placed, removed or thrown (no simulated time passes while it is)


def has_display() -> bool:
    """Whether a screen is named (X or Wayland) on which a window could open."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class Renderer(Protocol):
    """Draws a world from its ``camera``: an RGB image (height, width, 3) uint8."""

    name: str
    width: int
    height: int
    camera: OrbitCamera

    def __call__(self, world: World) -> np.ndarray: ...


def _offscreen() -> tuple[Any, type[Stage]]:
    """A hidden pyglet window to draw in, and the viewer's ``Stage``: headless (EGL) when there is no display.

    Imported here, not at the top: pyglet (the ``view`` extra) opens a display as its window module
    loads, so headless mode must be chosen first; and most pictures never need it.
    """
    import pyglet

    if not has_display():
        pyglet.options["headless"] = True  # EGL: no X server needed
    from pyramid.ui.viewer import Stage

    return pyglet.window.Window(64, 64, visible=False), Stage


class StageRenderer:
    """The viewer's stage drawn offscreen: the same look as the window, no screen needed.

    Without a ``camera`` the view is framed on the first world drawn and then kept.
    """

    name = "opengl"

    def __init__(self, width: int = 960, height: int = 600, camera: OrbitCamera | None = None) -> None:
        self.window, self.stage_type = _offscreen()
        self.width, self.height = width, height
        self.camera = camera or OrbitCamera()
        self._framed = camera is not None
        self._stages: dict[tuple[float, bool], Stage] = {}

    def __call__(self, world: World) -> np.ndarray:
        if not self._framed:
            self.camera.fit(view_points(world), self.width / self.height)
            self._framed = True
        self.window.switch_to()
        key = (world.physics.edge, world.plate)
        if key not in self._stages:
            self._stages[key] = self.stage_type(world.physics.edge, plate=world.plate)
        stage = self._stages[key]
        stage.show_world(world)
        return stage.capture(self.camera, self.width, self.height)

    def close(self) -> None:
        """Release the hidden window."""
        self.window.close()


class BulletRenderer:
    """PyBullet's software renderer from the same camera: slower and plainer, but runs anywhere."""

    name = "software"

    def __init__(self, width: int = 960, height: int = 600, camera: OrbitCamera | None = None) -> None:
        self.width, self.height = width, height
        self.camera = camera or OrbitCamera()
        self._framed = camera is not None

    def __call__(self, world: World) -> np.ndarray:
        if not self._framed:
            self.camera.fit(view_points(world), self.width / self.height)
            self._framed = True
        c = self.camera
        target = (float(c.target[0]), float(c.target[1]), float(c.target[2]))
        return render(world, self.width, self.height, c.yaw, c.pitch, c.distance, target)

    def close(self) -> None:
        """Nothing to release."""


def make_renderer(
    kind: str = "auto", width: int = 960, height: int = 600, camera: OrbitCamera | None = None
) -> StageRenderer | BulletRenderer:
    """``opengl`` (the viewer's look), ``software`` (PyBullet's) or ``auto``: OpenGL if it starts, else software."""
    if kind not in ("auto", "opengl", "software"):
        raise ValueError(f"unknown renderer {kind!r}; choose auto, opengl or software")
    if kind == "software":
        return BulletRenderer(width, height, camera)
    try:
        return StageRenderer(width, height, camera)
    except ImportError as err:  # no pyglet
        if kind == "opengl":
            raise LookupError("the opengl renderer needs pyglet, the view extra: pip install -e '.[view]'") from err
        return BulletRenderer(width, height, camera)
    except Exception as err:  # no EGL, no X server, no OpenGL 3.3: whatever stops pyglet
        if kind == "opengl":
            raise RuntimeError(f"OpenGL offscreen rendering is not available here: {err}") from err
        return BulletRenderer(width, height, camera)


def save_picture(image: np.ndarray, path: str | Path) -> Path:
    """Write an RGB image (height, width, 3) uint8 as a PNG; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.asarray(image, dtype=np.uint8)).save(path)
    return path


def write_film(frames: Sequence[np.ndarray], path: str | Path, fps: float = 25.0) -> Path:
    """Write RGB frames (height, width, 3) uint8 as a film: .gif, .png/.apng (animated PNG) or .mp4."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FILM_SUFFIXES:
        raise ValueError(f"a film is written as {', '.join(FILM_SUFFIXES)}; got {path.name!r}")
    if not frames:
        raise ValueError("no frames to write")
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".mp4":
        _write_mp4(frames, path, fps)
        return path
    images = [Image.fromarray(np.asarray(f, dtype=np.uint8)) for f in frames]
    duration = max(1, round(1000 / fps))
    if suffix == ".gif":
        # One shared palette keeps the colours from flickering between frames.
        palette = images[0].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        images = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
        images[0].save(path, save_all=True, append_images=images[1:], duration=duration, loop=0, optimize=False)
    else:
        images[0].save(path, format="PNG", save_all=True, append_images=images[1:], duration=duration, loop=0)
    return path


def _write_mp4(frames: Sequence[np.ndarray], path: Path, fps: float) -> None:
    try:
        import imageio_ffmpeg
    except ImportError:
        raise ValueError(
            "MP4 needs imageio-ffmpeg (pip install 'pyramid[film]'); write a .gif or .png (animated) instead"
        ) from None
    height, width = np.asarray(frames[0]).shape[:2]
    # H.264 wants even sizes: crop a pixel where needed.
    width, height = width - width % 2, height - height % 2
    writer = imageio_ffmpeg.write_frames(str(path), (width, height), fps=fps, macro_block_size=1)
    writer.send(None)
    for frame in frames:
        writer.send(np.ascontiguousarray(np.asarray(frame, dtype=np.uint8)[:height, :width]))
    writer.close()


def captioned(image: np.ndarray, text: str) -> np.ndarray:
    """``image`` (height, width, 3) with ``text`` on a dark strip along its bottom edge; cut to fit its width."""
    height, width = image.shape[:2]
    size = max(10, min(16, height // 30))
    font = ImageFont.load_default(size=size)
    picture = Image.fromarray(np.asarray(image, dtype=np.uint8))
    draw = ImageDraw.Draw(picture, "RGBA")
    while len(text) > 4 and draw.textlength(text, font=font) > width - 2 * size:
        text = text[: len(text) - 4] + "..."
    strip = size + size // 2 + 4
    draw.rectangle((0, height - strip, width, height), fill=(20, 20, 24, 190))
    draw.text((size, height - strip + 2), text, font=font, fill=(240, 240, 240, 255))
    return np.asarray(picture)


class Film:
    """Frames of a world taken every 1/``fps`` simulated seconds while it steps (``filming``).

    With ``follow`` the renderer's camera follows the action: it stays still while every die is well in
    the picture and moves (and backs off) when one would leave it (``OrbitCamera.follow``). With
    ``captions`` each frame carries ``caption`` (what is happening: the scene and the action going on) and
    the simulated time along its bottom edge. ``timeline`` has each frame's simulated time and caption.
    """

    def __init__(
        self, renderer: Renderer, fps: float = 25.0, limit: int = 1500, follow: bool = True, captions: bool = True
    ) -> None:
        self.renderer = renderer
        self.fps = fps
        self.limit = limit  # frames kept at most: a runaway scene does not fill the memory
        self.follow = follow
        self.captions = captions
        self.caption = ""
        self.frames: list[np.ndarray] = []
        self.timeline: list[tuple[float, str]] = []  # per frame: the simulated time and the caption

    def take(self, world: World, repeat: int = 1) -> np.ndarray:
        """Add a frame of the world now (``repeat`` times: held for that many frames) and return it."""
        if self.follow and self.frames:  # the renderer frames the first picture itself
            self.renderer.camera.follow(view_points(world), self.renderer.width / self.renderer.height)
        frame = self.renderer(world)
        if self.captions:
            head = f"{self.caption}   " if self.caption else ""
            frame = captioned(frame, f"{head}t = {world.time:.2f} s")
        for _ in range(repeat):
            if len(self.frames) < self.limit:
                self.frames.append(frame)
                self.timeline.append((world.time, self.caption))
        return frame

    def hold(self, world: World, seconds: float = HOLD) -> None:
        """A frame of the world now, held for ``seconds``: a change made without time passing is seen."""
        self.take(world, max(1, round(seconds * self.fps)))

    def attach(self, world: World) -> Callable[[], None]:
        """From now on every 1/fps simulated seconds of ``world.step`` leave a frame; returns the undo."""
        return world.observe(1 / self.fps, lambda: self.take(world))

    @contextmanager
    def filming(self, world: World) -> Iterator[None]:
        """While inside, every 1/fps simulated seconds of ``world.step`` leave a frame."""
        detach = self.attach(world)
        try:
            yield
        finally:
            detach()

    def save(self, path: str | Path) -> Path:
        """Write the frames as a film (the suffix chooses the format)."""
        return write_film(self.frames, path, self.fps)


def record(world: World, path: str | Path, seconds: float, renderer: Renderer | None = None, fps: float = 25.0) -> Path:
    """Film ``world`` for ``seconds`` of simulated time (whatever moves, falls or settles) into ``path``."""
    film = Film(renderer or make_renderer(), fps)
    film.take(world)
    with film.filming(world):
        world.step(seconds)
    return film.save(path)


@contextmanager
def runner_worlds(on_new: Callable[[World], None], on_close: Callable[[World], None]) -> Iterator[None]:
    """While inside, every world ``pyramid.lab.runner`` makes goes to ``on_new`` first and to ``on_close`` last."""
    original = runner.World

    class Watched(original):  # type: ignore[misc, valid-type]
        def __post_init__(self) -> None:
            super().__post_init__()
            on_new(self)

        def close(self) -> None:
            on_close(self)
            super().close()

    runner.World = Watched  # type: ignore[misc]
    try:
        yield
    finally:
        runner.World = original  # type: ignore[misc]


def film_scene(
    scene: Scene,
    seed: int | None = None,
    video: str | Path | None = None,
    pictures: str | Path | None = None,
    renderer: Renderer | None = None,
    fps: float = 25.0,
    log: Callable[[str], None] | None = None,
    film: Film | None = None,
) -> dict[str, Any]:
    """Run ``scene`` as ``pyramid run`` does, filming it into ``video`` and/or writing PNGs into the folder
    ``pictures``: after the start, after every die placed, removed or thrown (a picture per step of a
    construction), at the end of any other timeline entry, and at the end. Returns the run's report.

    Each frame's caption names the action going on, from its start to its end (``tilt: 1. tilt 15 deg
    towards 0 deg for 1 s``, ``building: 3. place die 47 (green) in (0, 1, 7)``). ``film``: the Film to
    fill (default a new one of ``renderer`` at ``fps``).
    """
    film = film or Film(renderer or make_renderer(), fps)
    renderer = film.renderer
    film.caption = scene.name
    worlds: list[World] = []
    shots: list[Path] = []
    labels: list[str] = []
    folder = Path(pictures) if pictures is not None else None

    done = {"place": 0, "remove": 0, "throw": 0}  # dice placed, removed and thrown since the start
    entry = {"number": 0, "shots": 0}  # the timeline entry logged last; pictures taken since
    started: list[bool] = []  # the start is set out and settled: from now on each die placed is an event

    def picture(world: World, label: str) -> None:
        if folder is not None and label not in labels:
            labels.append(label)
            shots.append(save_picture(renderer(world), folder / f"{len(shots):03d}_{label}.png"))
            entry["shots"] += 1

    def each_step(world: World, verb: str) -> None:
        """After the start, every die placed, removed or thrown leaves a picture of its own."""
        original = getattr(world, verb)

        def act(*args: Any, **kwargs: Any) -> None:
            original(*args, **kwargs)
            if labels or started:
                done[verb] += 1
                picture(world, f"{verb}{done[verb]:02d}")
                if video is not None:
                    film.hold(world)  # a pyramid built die by die grows die by die in the film

        setattr(world, verb, act)

    def on_new(world: World) -> None:
        worlds.append(world)
        if video is not None:
            film.attach(world)
        for verb in done:
            each_step(world, verb)

    def on_close(world: World) -> None:
        picture(world, "end")
        if video is not None:
            film.take(world)

    def on_log(line: str) -> None:
        if log is not None:
            log(line)
        film.caption = f"{scene.name}: {line.strip()}"
        head = line.split(".")[0].strip()
        if not worlds:
            return
        if line.startswith("start"):
            started.append(True)
            picture(worlds[-1], "start")
            entry["shots"] = 0
        elif head.isdigit() and int(head) != entry["number"]:
            # An entry that placed, removed or threw nothing (a tilt, a wait) gets one picture at its end.
            if entry["shots"] == 0:
                picture(worlds[-1], f"step{int(head):02d}")
            entry["number"], entry["shots"] = int(head), 0

    def on_begin(line: str) -> None:
        film.caption = f"{scene.name}: {line.strip()}"  # from now until the action ends

    with runner_worlds(on_new, on_close):
        report = runner.run_scene(scene, seed, log=on_log, begin=on_begin)
    if video is not None:
        report["video"] = str(film.save(video))
    report["pictures"] = [str(p) for p in shots]
    return report
