"""The window as a person uses it, under a virtual screen (Xvfb): what is drawn, and what clicks, drags and keys do."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pyramid import geometry
from pyramid.dice import DICE
from pyramid.state import Cell, PyramidState

pytest.importorskip("pyglet")


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private Xvfb screen; the tests skip only when Xvfb is not installed."""
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.skip("Xvfb and xdotool are not installed (apt-get install xvfb xdotool)")
    number = next(n for n in range(91, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{number}"
    yield f":{number}"
    if old is None:
        del os.environ["DISPLAY"]
    else:
        os.environ["DISPLAY"] = old
    server.terminate()
    server.wait(5)


def _xdotool(viewer, *args: str) -> None:  # type: ignore[no-untyped-def]
    """Send real X input to the viewer's window."""
    subprocess.run(["xdotool", *args], check=True, env=os.environ, timeout=10)


def _open(world, display: str):  # type: ignore[no-untyped-def]
    from pyramid.window_player import open_view

    viewer, hands = open_view(world, "test", np.random.default_rng(0))
    viewer.set_size(800, 600)
    viewer.activate()
    for _ in range(5):
        viewer.frame(0.0)
    return viewer, hands


def _screen_point(viewer, point: np.ndarray) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """Window pixel of a world point, y from the top as X counts it."""
    x, y = viewer.camera.project(point, viewer.width, viewer.height)
    return round(x), round(viewer.height - y)


def _colour_class(rgb: np.ndarray) -> str:
    r, g, b = (int(c) for c in rgb)
    if max(r, g, b) < 70:
        return "black"
    if r > 1.6 * g and r > 1.6 * b:
        return "red"
    if g > 1.3 * r and g > 1.1 * b:
        return "green"
    if b > 1.4 * r and b > 1.1 * g:
        return "blue"
    return "other"


def small_pyramid_world(layers: int = 3):  # type: ignore[no-untyped-def]
    """A settled world with a ``layers``-layer pyramid in the plate's corner (8, 0, 0), by layer colour."""
    from pyramid.world import World

    colours = ("red", "green", "black")
    top = 8 - (layers - 1)
    cells = {}
    for n in range(layers):
        for s in geometry.layer_slots(n):
            cells[(s[0] + top, s[1], s[2])] = Cell(colours[n % 3], (1, 2, 3))
    world = World()
    world.build(PyramidState(cells))
    world.settle()
    return world, (top, 0, 0)


def test_window_draws_the_dice_in_their_colours_on_the_plate(display: str) -> None:
    from pyramid.viewer import watching

    world, apex = small_pyramid_world(3)
    viewer, _ = _open(world, display)
    try:
        viewer.camera.target = world.slot_pose(apex)[0] - np.array([0, 0, 0.01])
        viewer.camera.distance = 0.25
        shot = viewer.screenshot()
        # Every seated die is drawn in its own colour where its centre projects.
        readout = world.readout()
        seen = 0
        for slot, die in readout.slot_die.items():
            x, y = _screen_point(viewer, world.slot_pose(slot)[0])
            patch = shot[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3)
            classes = [_colour_class(p) for p in patch]
            seen += DICE[die].colour in classes
        assert seen >= len(readout.slot_die) - 1, f"only {seen} of {len(readout.slot_die)} dice show their colour"
        # The plate is drawn grey below the pyramid; above it, the light background.
        plate_x, plate_y = _screen_point(viewer, np.array([0.0, 0.0, 0.003]))
        grey = shot[plate_y, plate_x].astype(int)
        assert abs(grey[0] - grey[2]) < 40 and 90 < grey.mean() < 240, grey
        before = world.time
        with watching(world, viewer):
            viewer.live(0.3)
        assert world.time - before == pytest.approx(0.3, abs=0.02)
    finally:
        viewer.close()
        world.close()


def test_a_click_lifts_the_top_die_out(display: str) -> None:
    from pyramid.viewer import watching

    world, apex = small_pyramid_world(3)
    viewer, _ = _open(world, display)
    try:
        die = world.readout().slot_die[apex]
        x, y = _screen_point(viewer, world.slot_pose(apex)[0])
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), str(x), str(y), "click", "1")
        with watching(world, viewer):
            viewer.live(1.5)
        world.settle()
        readout = world.readout()
        assert die not in world.dice
        assert len(readout.seated()) == 9, "lifting the top die must leave the 9 below it seated"
    finally:
        viewer.close()
        world.close()


def test_a_drag_flicks_a_die_across_the_table(display: str) -> None:
    from pyramid.viewer import watching
    from pyramid.world import World

    world = World(plate=False)
    world.throw(0, (0.0, 0.0, world.physics.edge / 2 + 1e-4))
    world.settle()
    viewer, _ = _open(world, display)
    try:
        start = world.poses()[1][0, :3].copy()
        x, y = _screen_point(viewer, start)
        wid = str(viewer._window)
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "mousedown", "1")
        viewer.frame(0.0)
        _xdotool(viewer, "mousemove", "--window", wid, str(x + 150), str(y), "mouseup", "1")
        with watching(world, viewer):
            viewer.live(1.5)
        moved = world.poses()[1][0, :3] - start
        right = viewer.camera.view_matrix()[0, :3]
        assert np.linalg.norm(moved[:2]) > 2 * world.physics.edge, moved
        # The die went the way the mouse was dragged: to the screen's right.
        assert moved[:2] @ right[:2] / np.linalg.norm(moved[:2]) / np.linalg.norm(right[:2]) > 0.7
    finally:
        viewer.close()
        world.close()


def test_an_arrow_key_tilts_the_plate_and_a_funnel_click_places_a_die(display: str) -> None:
    from pyramid.viewer import watching

    world, apex = small_pyramid_world(2)
    viewer, hands = _open(world, display)
    try:
        tilts: list[float] = []
        viewer.on_frame.append(lambda _: tilts.append(_tilt(world.plate_pose)))
        _xdotool(viewer, "key", "--window", str(viewer._window), "Right")
        with watching(world, viewer):
            viewer.live(1.6)
        assert max(tilts) > 8.0, f"the plate tilted at most {max(tilts):.1f} degrees"
        assert _tilt(world.plate_pose) < 0.5, "the plate must be back down after the tilt"
        world.settle(raise_on_timeout=False)
        # Place mode: P, then a click on an open base funnel puts a die there.
        slot = (0, 0, 8)
        _xdotool(viewer, "key", "--window", str(viewer._window), "p")
        x, y = _screen_point(viewer, world.slot_pose(slot)[0])
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), str(x), str(y))
        viewer.frame(0.0)
        viewer.frame(0.0)
        assert hands.funnel == slot
        _xdotool(viewer, "click", "1")
        with watching(world, viewer):
            viewer.live(1.0)
        world.settle(raise_on_timeout=False)
        readout = world.readout(require_rest=False)
        assert slot in readout.slot_die and readout.pyramid[slot].colour == hands.colour
    finally:
        viewer.close()
        world.close()


def _tilt(pose: np.ndarray) -> float:
    """Degrees between the plate's normal and the vertical."""
    normal = geometry.quat_to_matrix(pose[3:])[0][:, 2]
    return math.degrees(math.acos(min(1.0, float(normal[2]))))


def test_a_game_played_to_its_end_in_the_window_and_replayed(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramid.games import find_game
    from pyramid.viewer import Viewer
    from pyramid.window_player import Hands, play_in_window

    game_type = find_game(14)  # The Clever Mole: 10 rounds for two children, exact (no physics)
    hands_made: list[Hands] = []
    chosen: list[int] = []
    original_init, original_frame = Hands.__init__, Viewer.frame

    def init(self: Hands, *args: object) -> None:
        original_init(self, *args)  # type: ignore[arg-type]
        hands_made.append(self)

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        prompt = hands_made[-1].chooser
        if prompt is not None and prompt.choice is None and not prompt.typed:
            # A person types the number of an action and presses Enter.
            n = len(chosen) % len(prompt.legal) + 1
            chosen.append(n)
            _xdotool(self, "type", "--window", str(self._window), str(n))
            _xdotool(self, "key", "--window", str(self._window), "Return")

    monkeypatch.setattr(Hands, "__init__", init)
    monkeypatch.setattr(Viewer, "frame", frame)
    game = play_in_window(
        lambda: game_type(2, rng=np.random.default_rng([5, 1])),
        ["human", "random"],
        seed=5,
        physical=False,
        delay=0.0,
        replays=1,
    )
    assert game.outcome is not None, "the match ran to its end"
    human_moves = [a for p, a in game.history if p == 0]
    assert len(human_moves) == len(chosen) > 0, "every typed choice became one of the person's moves"
    assert game.outcome.scores == tuple(game.scores())
