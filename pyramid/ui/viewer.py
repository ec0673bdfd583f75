"""The pyglet window on top of the world: the stage, the camera, the text, and a clock that keeps real time.

Sits above the world and the Match: the window only draws what the world's poses say and turns
a person's input into the same actions a script performs (``pyramid.ui.player``). The 3-D drawing is
``pyramid.ui.stage``'s, which the films draw offscreen too (``pyramid.ui.film``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyglet
from pyglet import gl
from pyglet.math import Mat4
from scipy.spatial.transform import Rotation

from pyramid.dice import EDGE
from pyramid.physics.render import view_points
from pyramid.physics.tables import Table, next_free, save_table
from pyramid.state import PyramidState
from pyramid.tolerances import TOL
from pyramid.ui.camera import OrbitCamera
from pyramid.ui.marks import Mark
from pyramid.ui.stage import Stage, read_pixels, state_matrices

if TYPE_CHECKING:
    from pyramid.physics.world import World

PANEL_RGBA = (246, 246, 242, 215)  # the panel behind the window's text: nearly white, a little see-through
PANEL_PAD = 6  # pixels of panel around the text
MARK_RGBA = (250, 250, 245, 190)  # the small panel behind a mark
QUIT_AGAIN = 2.0  # seconds: a second Esc within this quits the window
STILL = 0.3  # seconds the view must stand still before a software renderer smooths its edges
UNDO_DEPTH = 50  # tables kept for Ctrl+Z: the world before each of a person's last 50 actions
SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)  # the paces + and - step through, times real time


def next_speed(speed: float, faster: bool) -> float:
    """The pace after + (``faster``) or -: the next of ``SPEEDS`` (times real time) up or down from ``speed``."""
    if faster:
        return next((v for v in SPEEDS if v > speed + 1e-9), SPEEDS[-1])
    return next((v for v in reversed(SPEEDS) if v < speed - 1e-9), SPEEDS[0])


def text_box(label: pyglet.text.Label, pad: int = PANEL_PAD) -> tuple[float, float, float, float]:
    """The panel (x, y, width, height) in window pixels behind a label's text, ``pad`` pixels around it."""
    width, height = label.content_width, label.content_height
    # A multiline label is anchored by its layout's width; its lines start at that box's left edge.
    box = label.width if label.multiline and label.width else width
    left = label.x - {"left": 0, "center": box / 2, "right": box}[label.anchor_x]
    bottom = label.y - {"bottom": 0, "center": height / 2, "top": height, "baseline": 0}[label.anchor_y]
    return left - pad, bottom - pad, width + 2 * pad, height + 2 * pad


class Viewer(pyglet.window.Window):  # type: ignore[misc]
    """The window: the stage, the orbit camera, a text overlay and the clock that keeps real time.

    ``frame(seconds)`` shows one picture after ``seconds`` of simulated time and waits so that the
    simulation runs at ``speed`` times real time when the machine allows it.
    """

    def __init__(
        self,
        world: World | None,
        title: str = "pyramid",
        width: int = 1280,
        height: int = 800,
        speed: float = 1.0,
        visible: bool = True,
    ) -> None:
        try:
            config = gl.Config(  # type: ignore[abstract]
                double_buffer=True, depth_size=24, sample_buffers=1, samples=4
            )
            super().__init__(width, height, title, resizable=True, config=config, visible=visible)
        except pyglet.window.NoSuchConfigException:
            super().__init__(width, height, title, resizable=True, visible=visible)
        # A software renderer (llvmpipe) pays dearly for smooth edges (a picture takes 1.7 times as long):
        # there they are drawn only while the picture stands still (``_smooth``).
        self.software = "pipe" in self.context.get_info().get_renderer()
        self.smooth = not self.software  # edges smoothed (multisampling) in the picture being drawn
        if self.software:
            gl.glDisable(gl.GL_MULTISAMPLE)
        self._view_seen: tuple[np.ndarray, float] = (np.zeros((4, 4)), time.perf_counter())
        self.world = world
        self.state: PyramidState | None = None  # drawn when there is no world (exact play)
        self.speed = speed
        self.camera = OrbitCamera()
        self.push_handlers(self.camera)
        self.stage = Stage(world.physics.edge if world else EDGE, plate=world.plate if world else True)
        self.hud = pyglet.graphics.Batch()
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        ink = (20, 20, 30, 255)
        self.status = pyglet.text.Label(
            "",
            x=12,
            y=height - 12,
            anchor_y="top",
            font_size=11,
            color=ink,
            multiline=True,
            width=width - 280,
            batch=self.hud,
            group=front,
        )
        self.side = pyglet.text.Label(
            "",
            x=width - 12,
            y=height - 12,
            anchor_x="right",
            anchor_y="top",
            font_size=11,
            color=ink,
            multiline=True,
            width=240,
            batch=self.hud,
            group=front,
        )
        self.help = pyglet.text.Label(
            "",
            x=12,
            y=12,
            anchor_y="bottom",
            font_size=10,
            color=ink,
            multiline=True,
            width=width - 24,
            batch=self.hud,
            group=front,
        )
        # A pale panel behind each text, so that it reads over the dice and the table.
        self.panels = {
            label: pyglet.shapes.Rectangle(0, 0, 0, 0, color=PANEL_RGBA, batch=self.hud, group=behind)
            for label in (self.status, self.side, self.help)
        }
        self._escape = -math.inf  # real time of the last Esc that did not quit
        self.tints: dict[int, Sequence[float]] = {}
        self.messages: list[str] = []
        self._anchor = time.perf_counter()
        self._budget = 0.0
        self._rate_window: list[tuple[float, float]] = []
        self.real_time_factor = 0.0
        self.frames = 0
        self._drawn = 0.0
        self.on_frame: list[Callable[[float], None]] = []
        self.queue: list[Callable[[], object]] = []  # jobs to run between frames, never inside an event
        self.paused = False  # Space: the world stands still, the window still draws and listens
        self.held: Callable[[], Callable[[], object] | None] | None = None
        # Ctrl+Z: the world before each action a person started in ``live`` (the sandbox), newest last.
        self.undo: list[Table] = []
        self.requests: list[str] = []  # "undo", "save": asked in an event, done in ``live`` between jobs
        self.sandbox = False  # True while ``live`` runs: the person's hands are free, undo and save work
        self.acting = False  # inside one action of a person's: its jobs queued together, or a key or button held
        self.save_to: Path = Path("table.json")  # Ctrl+S writes here (or table-2.json, ... if taken)
        self.marks: list[Mark] = []  # text drawn where points of the world are seen (corner letters, funnel labels)

    # -- drawing ---------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Add a line to the message log shown on screen (the last few lines stay)."""
        self.messages = (self.messages + text.splitlines())[-8:]

    def set_text(self, status: str, side: str = "", help_text: str = "") -> None:
        """The overlay: ``status`` top left, ``side`` top right, ``help_text`` along the bottom."""
        for label, text in ((self.status, status), (self.side, side), (self.help, help_text)):
            if label.text != text:
                label.text = text

    def refresh_stage(self) -> None:
        """Copy the world's poses (or the exact state's) into the model matrices."""
        if self.world is not None:
            self.stage.show_world(self.world, self.tints)
        elif self.state is not None:
            colours, matrices = state_matrices(self.state, self.stage.edge)
            self.stage.show(colours, matrices)

    def on_draw(self) -> None:
        """Draw the stage, then the text overlay."""
        self.refresh_stage()
        width, height = self.get_framebuffer_size()
        self.stage.draw(self.camera, width, height)
        gl.glViewport(0, 0, width, height)
        self.projection = Mat4.orthogonal_projection(0, self.width, 0, self.height, -255, 255)
        self.view = Mat4()
        self.status.y = self.side.y = self.height - 12
        self.side.x = self.width - 12
        for label, panel in self.panels.items():
            panel.visible = bool(label.text.strip())
            panel.x, panel.y, panel.width, panel.height = text_box(label)
        self._draw_marks()
        self.hud.draw()

    def _draw_marks(self) -> None:
        """The marks (corner letters, funnel labels) where their points are seen, each on a small pale panel."""
        if not self.marks:
            return
        batch = pyglet.graphics.Batch()
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        keep = []
        for mark in self.marks:
            x, y = self.camera.project(np.asarray(mark.point), self.width, self.height)
            if not (0 <= x <= self.width and 0 <= y <= self.height):
                continue
            label = pyglet.text.Label(
                mark.text,
                x=x,
                y=y,
                anchor_x="center",
                anchor_y="center",
                font_size=mark.size,
                color=mark.rgba,
                batch=batch,
                group=front,
            )
            w, h = label.content_width + 6, label.content_height + 2
            keep += [
                label,
                pyglet.shapes.Rectangle(x - w / 2, y - h / 2, w, h, color=MARK_RGBA, batch=batch, group=behind),
            ]
        batch.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Keep the overlay in its corners (the stage reads the size when it draws)."""
        self.help.width = max(width - 24, 100)
        self.status.width = max(width - 280, 300)  # the face table needs the last 260 pixels

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Space pauses, + and - change the pace; Esc quits only when pressed twice within ``QUIT_AGAIN`` seconds
        (the hands' Esc cancels first)."""
        keys = pyglet.window.key
        if symbol == keys.SPACE:
            self.paused = not self.paused
            self.say("paused: Space goes on" if self.paused else "going on")
            return True
        if symbol in (keys.PLUS, keys.EQUAL, keys.NUM_ADD, keys.MINUS, keys.NUM_SUBTRACT):
            faster = symbol in (keys.PLUS, keys.EQUAL, keys.NUM_ADD)
            self.speed = next_speed(self.speed, faster)
            self.say(f"pace x{self.speed:g} real time")
            return True
        if symbol != keys.ESCAPE:
            return False
        now = time.perf_counter()
        if now - self._escape <= QUIT_AGAIN:
            self.has_exit = True
        else:
            self._escape = now
            self.say(f"Esc again within {QUIT_AGAIN:g} s to quit")
        return True

    def frame_world(self) -> None:
        """Aim the camera (and its home, R) so that the plate and every die of the world are in view."""
        if self.world is not None:
            self.camera.fit(view_points(self.world), self.width / max(self.height, 1))

    def screenshot(self) -> np.ndarray:
        """The window as a person sees it now: an RGB image (height, width, 3) uint8."""
        self.switch_to()
        self.on_draw()
        width, height = self.get_framebuffer_size()
        return read_pixels(width, height)

    # -- time ------------------------------------------------------------------------------------

    def frame(self, simulated: float) -> None:
        """Handle input, draw and show one picture; wait so that ``simulated`` seconds take their real time."""
        now = time.perf_counter()
        lagging = False
        if simulated <= 0:
            # Time stands still (a person is choosing): about 60 pictures a second, nothing to catch up.
            self._anchor, self._budget = now, 0.0
            time.sleep(max(0.0, 1 / 60 - (now - self._drawn)))
        else:
            self._budget += simulated / self.speed
            ahead = self._budget - (now - self._anchor)
            lagging = ahead < 0
            if ahead > 0:
                time.sleep(ahead)
            elif ahead < -0.25:
                # The machine cannot keep up: carry on at its own pace instead of racing to catch up.
                self._anchor, self._budget = now, 0.0
        self._measure(simulated)
        self.dispatch_events()
        while self.paused and not self.has_exit:
            # Time stands still: draw and listen until Space, the world as it is.
            self._draw_now()
            time.sleep(1 / 60)
            self.dispatch_events()
            self._anchor, self._budget = time.perf_counter(), 0.0
        if self.has_exit:
            raise WindowClosed
        if lagging and now - self._drawn < 0.1:
            return  # behind real time: give the physics the time, but draw at least 10 pictures a second
        self._draw_now(simulated)

    def _draw_now(self, simulated: float = 0.0) -> None:
        """Run the frame callbacks (the overlay) and show one picture."""
        for callback in self.on_frame:
            callback(simulated)
        self.switch_to()
        self._smooth()
        self.on_draw()
        self.flip()
        self._drawn = time.perf_counter()
        self.frames += 1

    def _smooth(self) -> None:
        """Smooth edges (multisampling) always on a graphics card; in software only while the picture stands
        still: the view unchanged for ``STILL`` seconds and every die asleep (or no world), so that moving
        pictures keep their pace."""
        if not self.software:
            return
        view, since = self._view_seen
        now = time.perf_counter()
        current = self.camera.view_matrix()
        if not np.allclose(current, view):
            self._view_seen = (current, now)
            since = now
        still = now - since >= STILL and (self.world is None or self.world.asleep)
        if still != self.smooth:
            (gl.glEnable if still else gl.glDisable)(gl.GL_MULTISAMPLE)
            self.smooth = still

    def _measure(self, simulated: float) -> None:
        now = time.perf_counter()
        self._rate_window = [(t, s) for t, s in self._rate_window if now - t < 2.0] + [(now, simulated)]
        span = now - self._rate_window[0][0]
        if span > 0.5:
            self.real_time_factor = sum(s for _, s in self._rate_window[1:]) / span

    def pause(self, seconds: float) -> None:
        """Keep drawing for ``seconds`` of real time while the world stands still."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.frame(0.0)

    def live(self, seconds: float | None = None) -> None:
        """Run the world at real time until the window closes (or for ``seconds``); idle dice go to sleep.

        Jobs in ``queue`` (actions a person started) run first, each shown as it happens; ``held``
        gives the job of a key held down (a breath), run instead of a plain step. Before each action
        (the jobs queued together, or a key held) the table is kept for Ctrl+Z (``undo``).
        """
        world = self.world
        assert world is not None
        self.sandbox = True
        try:
            self._live(world, seconds)
        finally:
            self.sandbox = False

    def _live(self, world: World, seconds: float | None) -> None:
        start, last, since = world.time, world.poses()[1], 0.0
        while seconds is None or world.time - start < seconds - 1e-9:
            if self.requests:
                self._answer(world, self.requests.pop(0))
                self.acting, last, since = False, world.poses()[1], 0.0
                continue
            job = self.queue.pop(0) if self.queue else (self.held() if self.held else None)
            if job is not None and not self.acting:
                self.undo = [*self.undo, world.snapshot()][-UNDO_DEPTH:]
            self.acting = job is not None
            before = world.time
            if job is not None:
                job()
            else:
                world.step(1 / 60)  # shown by ``watching``; costs nothing while every die sleeps
            since += world.time - before
            if since >= 0.25:
                now = world.poses()[1]
                if not self.queue and len(now) == len(last) and not _moving(last, now, world.physics.edge):
                    world.sleep()
                last, since = now, 0.0

    def _answer(self, world: World, request: str) -> None:
        """Do what a person asked with Ctrl+Z (go back one action) or Ctrl+S (save the table)."""
        if request == "undo":
            if not self.undo:
                self.say("nothing to undo: the table is as it was when the window opened")
                return
            self.queue.clear()
            world.restore(self.undo.pop())
            self.say(f"undone: the table as before the last action ({len(self.undo)} more to undo)")
        elif request == "save":
            path = save_table(world.snapshot(), next_free(self.save_to), world.readout(require_rest=False).notation())
            self.say(f"saved the table to {path} (open it again: pyramid view --load {path})")


def _moving(before: np.ndarray, after: np.ndarray, edge: float) -> bool:
    """Whether any die moved or turned more than the settle test allows (``TOL.rest_shift``, ``TOL.rest_turn``)."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    turn = np.degrees((Rotation.from_quat(after[:, 3:]) * Rotation.from_quat(before[:, 3:]).inv()).magnitude())
    return bool((shift > TOL.rest_shift).any() or (turn > TOL.rest_turn).any())


class WindowClosed(Exception):
    """The person closed the window while something was running."""


@contextmanager
def watching(world: World, viewer: Viewer, fps: float = 60.0) -> Iterator[None]:
    """While inside, every ``world.step`` is shown live: a picture per 1/fps simulated seconds, at real time.

    Whoever steps the world (a Match settling, a hand pulling a die) is seen as it happens.
    """
    original = world.step
    dt = world.physics.time_step
    per_frame = max(1, round(1 / fps / dt))
    pending = 0

    def step(seconds: float) -> None:
        nonlocal pending
        n = max(1, round(seconds / dt))
        while n > 0:
            k = min(per_frame - pending, n)
            original(k * dt)
            n -= k
            pending += k
            if pending >= per_frame:
                pending = 0
                viewer.frame(per_frame * dt)

    world.step = step  # type: ignore[method-assign]
    try:
        yield
    finally:
        del world.step
