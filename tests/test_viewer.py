"""The window as a person uses it, under a virtual screen (Xvfb): what is drawn, and what clicks, drags and keys do."""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from pyramid import geometry
from pyramid.dice import DICE
from pyramid.drawing import slot_label
from pyramid.physics import actions
from pyramid.physics.world import World
from pyramid.picking import ray_hit, table_point
from pyramid.play import Match
from pyramid.registry import find_game
from pyramid.rules import Game, Move, Place
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.mount import Mounting
from pyramid.state import Cell, PyramidState

if TYPE_CHECKING:
    from pyramid.ui.hands import Hands

# The window modules (pyramid.ui.viewer, hands, player, skill) are imported inside the tests: pyglet's window
# module opens the display as it loads, and the display is the private Xvfb screen the fixture starts.
pytest.importorskip("pyglet", reason="the window needs pyglet 2: pip install -e '.[view]'")
if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
    pytest.skip(
        "the window tests need a virtual screen and input: apt-get install xvfb xdotool", allow_module_level=True
    )


@pytest.fixture
def hands_made(display: str, monkeypatch: pytest.MonkeyPatch) -> list[Hands]:
    """Every ``Hands`` the window makes in the test, the latest last (its ``chooser`` is the choice it waits for)."""
    return _record_hands(monkeypatch)


def _record_hands(monkeypatch: pytest.MonkeyPatch) -> list[Hands]:
    """The list every ``Hands`` made from now on is added to."""
    from pyramid.ui.hands import Hands

    made: list[Hands] = []
    original = Hands.__init__

    def init(self: Hands, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(Hands, "__init__", init)
    return made


def _xdotool(viewer, *args: str) -> None:  # type: ignore[no-untyped-def]
    """Send real X input to the viewer's window."""
    subprocess.run(["xdotool", *args], check=True, env=os.environ, timeout=10)


def _open(world, display: str):  # type: ignore[no-untyped-def]
    from pyramid.ui.player import open_view

    viewer, hands = open_view(world, "test", np.random.default_rng(0))
    viewer.set_size(800, 600)
    viewer.activate()
    for _ in range(5):
        viewer.frame(0.0)
    return viewer, hands


def _mucho_for_three(games: list[Game]):  # type: ignore[no-untyped-def]
    """A maker of Mucho games for three seats (each player places the die they rolled), seeded, kept in ``games``."""
    game_type = find_game(27, Game)

    def make_game():  # type: ignore[no-untyped-def]
        game = game_type(3, rng=np.random.default_rng([4, 1]))
        games.append(game)
        return game

    return make_game


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
    from pyramid.ui.viewer import watching

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
    from pyramid.ui.viewer import watching

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


def test_a_right_drag_flicks_a_die_across_the_table(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = World(plate=False)
    world.throw(0, (0.0, 0.0, world.physics.edge / 2 + 1e-4))
    world.settle()
    viewer, _ = _open(world, display)
    try:
        start = world.poses()[1][0, :3].copy()
        x, y = _screen_point(viewer, start)
        wid = str(viewer._window)
        with watching(world, viewer):
            _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "mousedown", "3")
            viewer.live(0.05)
            _xdotool(viewer, "mousemove", "--window", wid, str(x + 150), str(y), "mouseup", "3")
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
    from pyramid.ui.viewer import watching

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


_FRAMES: dict[int, int] = {}


def _give_up_after(viewer, frames: int) -> None:  # type: ignore[no-untyped-def]
    """Close the window after ``frames`` pictures: a test whose clicks go astray fails instead of hanging."""
    _FRAMES[id(viewer)] = _FRAMES.get(id(viewer), 0) + 1
    if _FRAMES[id(viewer)] > frames:
        viewer.has_exit = True


def _tilt(pose: np.ndarray) -> float:
    """Degrees between the plate's normal and the vertical."""
    normal = geometry.quat_to_matrix(pose[3:])[0][:, 2]
    return math.degrees(math.acos(min(1.0, float(normal[2]))))


def test_a_game_played_to_its_end_in_the_window_and_replayed(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.ui import player as window_player
    from pyramid.ui.player import play_in_window
    from pyramid.ui.viewer import Viewer

    game_type = find_game(14, Game)  # The Clever Mole: 10 rounds for two children, exact (no physics)
    chosen: list[int] = []
    waits: list[bool] = []  # one per finished match: whether Enter was pressed for it
    original_frame, original_wait = Viewer.frame, window_player.wait_for_replay

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 6000)
        prompt = hands_made[-1].chooser
        if len(waits) == 1 and not waits[0]:
            waits[0] = True  # the first match is over: Enter replays it
            _xdotool(self, "key", "--window", str(self._window), "Return")
        elif len(waits) == 2:
            self.has_exit = True  # the replay is over too: the person closes the window
        elif prompt is not None and prompt.choice is None and not prompt.typed and len(waits) == 0:
            # A person types the number of an action and presses Enter.
            n = len(chosen) % len(prompt.legal) + 1
            chosen.append(n)
            _xdotool(self, "type", "--window", str(self._window), str(n))
            _xdotool(self, "key", "--window", str(self._window), "Return")

    def wait(viewer: Viewer) -> bool:
        waits.append(False)
        return original_wait(viewer)

    monkeypatch.setattr(Viewer, "frame", frame)
    monkeypatch.setattr(window_player, "wait_for_replay", wait)
    game = play_in_window(
        lambda: game_type(2, rng=np.random.default_rng([5, 1])), ["human", "random"], seed=5, physical=False, delay=0.0
    )
    assert waits == [True, False], "Enter after the match replayed it; after the replay the window was closed"
    assert game.outcome is not None, "the match ran to its end"
    human_moves = [a for p, a in game.history if p == 0]
    assert len(human_moves) == len(chosen) > 0, "every typed choice became one of the person's moves"
    assert game.outcome.scores == tuple(game.scores())


def _die_pixels(shot: np.ndarray) -> np.ndarray:
    """A mask (height, width) of the pixels drawn in a die colour (red, green or black)."""
    r, g, b = (shot[:, :, k].astype(int) for k in range(3))
    # The same classes as ``_colour_class``, for every pixel at once.
    black = np.maximum(np.maximum(r, g), b) < 70
    red = (r > 1.6 * g) & (r > 1.6 * b)
    green = (g > 1.3 * r) & (g > 1.1 * b)
    return black | red | green


def test_the_wheel_zooms_a_drag_turns_shift_drag_pans_and_r_resets_the_view(display: str) -> None:
    world, apex = small_pyramid_world(3)
    viewer, _ = _open(world, display)
    viewer.on_frame.clear()
    viewer.set_text("", "", "")  # no overlay: its dark text would count as die pixels in every picture
    wid = str(viewer._window)
    try:
        viewer.camera.target = world.slot_pose(apex)[0] - np.array([0, 0, 0.02])
        viewer.camera.home = (viewer.camera.yaw, viewer.camera.pitch, 0.45, tuple(viewer.camera.target))
        viewer.camera.reset()
        start = viewer.screenshot()
        seen = _die_pixels(start).sum()
        # The wheel: three clicks up bring the camera closer and the dice fill more of the picture.
        _xdotool(viewer, "mousemove", "--window", wid, "400", "300", "click", "4", "click", "4", "click", "4")
        for _ in range(3):
            viewer.frame(0.0)
        closer = _die_pixels(viewer.screenshot()).sum()
        assert closer > 1.5 * seen, (seen, closer)
        # A drag on the background turns the camera around the pyramid, at the same distance.
        yaw = viewer.camera.yaw
        _xdotool(viewer, "mousemove", "--window", wid, "40", "40", "mousedown", "1")
        viewer.frame(0.0)
        _xdotool(viewer, "mousemove", "--window", wid, "140", "40", "mouseup", "1")
        viewer.frame(0.0)
        assert abs((viewer.camera.yaw - yaw + 180) % 360 - 180) > 10, "a sideways drag turns the view"
        # Shift-drag pans: the pyramid moves across the picture the way the mouse went.
        before = np.argwhere(_die_pixels(viewer.screenshot()))[:, 1].mean()
        _xdotool(viewer, "mousemove", "--window", wid, "40", "40", "keydown", "shift", "mousedown", "1")
        viewer.frame(0.0)
        _xdotool(viewer, "mousemove", "--window", wid, "140", "40", "mouseup", "1", "keyup", "shift")
        viewer.frame(0.0)
        after = np.argwhere(_die_pixels(viewer.screenshot()))[:, 1].mean()
        assert after - before > 40, (before, after)
        # R: back to the first view, pixel for pixel.
        _xdotool(viewer, "key", "--window", wid, "r")
        viewer.frame(0.0)
        back = viewer.screenshot()
        assert np.abs(back.astype(int) - start.astype(int)).mean() < 1.0
    finally:
        viewer.close()
        world.close()


def _die_on_table():  # type: ignore[no-untyped-def]

    world = World(plate=False)
    world.throw(0, (0.0, 0.0, world.physics.edge / 2 + 1e-4))
    world.settle()
    return world


def test_holding_b_blows_the_die_under_the_mouse_away_from_the_camera(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = _die_on_table()
    viewer, _ = _open(world, display)
    wid = str(viewer._window)
    try:
        start = world.poses()[1][0, :3].copy()
        x, y = _screen_point(viewer, start)
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "keydown", "b")
        with watching(world, viewer):
            viewer.live(0.8)
            jet = viewer.stage.jet
            assert jet is not None, "while B is held, the breath shows"
            assert np.linalg.norm(np.cross(jet[:3, 2], start - jet[:3, 3])) < 0.01, "it points at the die"
            assert list(viewer.tints) == world.dice, "the die it moved is lit up"
            _xdotool(viewer, "keyup", "b")
            viewer.live(1.2)
            assert viewer.stage.jet is None and list(viewer.tints) == world.dice, "the moved die stays lit a moment"
        moved = world.poses()[1][0, :3] - start
        away = start - viewer.camera.eye()
        away[2] = 0.0
        assert np.linalg.norm(moved[:2]) > world.physics.edge, f"the breath moved the die only {moved}"
        assert moved[:2] @ away[:2] / np.linalg.norm(moved[:2]) / np.linalg.norm(away[:2]) > 0.7
        held = world.poses()[1][0, :3].copy()
        with watching(world, viewer):
            viewer.live(0.5)
        assert np.linalg.norm(world.poses()[1][0, :3] - held) < 0.002, "once B is up, no more breath"
        assert not viewer.tints, "1.7 s after the breath it is no longer lit"
    finally:
        viewer.close()
        world.close()


def test_s_shakes_the_plate_and_ctrl_drag_tilts_it_the_way_of_the_drag(display: str) -> None:
    from pyramid.ui.player import pace_text
    from pyramid.ui.viewer import watching

    world, _ = small_pyramid_world(2)
    viewer, _ = _open(world, display)
    wid = str(viewer._window)
    try:
        shifts: list[float] = []
        normals: list[np.ndarray] = []

        shown: list[float] = []

        def record() -> None:
            shifts.append(float(np.linalg.norm(world.plate_pose[:2])))
            normals.append(geometry.quat_to_matrix(world.plate_pose[3:])[0][:, 2])

        # The plate at every engine step (a busy machine shows too few pictures to catch a shake's peaks), and
        # when each picture was shown.
        world.observe(world.physics.time_step, record)
        viewer.on_frame.append(lambda _: shown.append(time.perf_counter()))
        _xdotool(viewer, "key", "--window", wid, "s")
        with watching(world, viewer):
            viewer.live(1.2)
        # The status line says how many pictures a second the window showed while the plate moved.
        recent = [t for t in shown if shown[-1] - t < 2.0]
        assert viewer.pictures_per_second == pytest.approx((len(recent) - 1) / (recent[-1] - recent[0]), rel=0.2)
        assert f"{viewer.pictures_per_second:.0f} pictures/s" in pace_text(viewer)
        assert max(shifts) > 0.0015, f"the plate moved at most {1000 * max(shifts):.2f} mm"
        assert np.linalg.norm(world.plate_pose[:2]) < 3e-4, "the shaken plate is back where it lay"
        assert _tilt(world.plate_pose) < 0.5
        # Ctrl-drag to the right: the plate slopes down towards the screen's right, then lies flat again.
        normals.clear()
        _xdotool(viewer, "mousemove", "--window", wid, "100", "500", "keydown", "ctrl", "mousedown", "1")
        viewer.frame(0.0)
        _xdotool(viewer, "mousemove", "--window", wid, "300", "500", "mouseup", "1", "keyup", "ctrl")
        with watching(world, viewer):
            viewer.live(1.8)
        steepest = max(normals, key=lambda n: float(np.linalg.norm(n[:2])))
        assert math.degrees(math.asin(float(np.linalg.norm(steepest[:2])))) > 8.0
        right = viewer.camera.view_matrix()[0, :3]
        assert steepest[:2] @ right[:2] / np.linalg.norm(steepest[:2]) / np.linalg.norm(right[:2]) > 0.7
        assert _tilt(world.plate_pose) < 0.5
    finally:
        viewer.close()
        world.close()


def test_j_shakes_the_plate_firmly_as_the_tilt_hand_does_to_free_a_wedged_die(display: str) -> None:
    from pyramid.agents.plate_hands import UNJAM
    from pyramid.ui import strokes
    from pyramid.ui.viewer import watching

    # What J does, 3 mm at 14 Hz, is the shake that frees a die wedged in its funnel (tests/test_plate_games.py).
    assert strokes.FIRM_SHAKE == UNJAM
    world, _ = small_pyramid_world(2)
    viewer, _ = _open(world, display)
    try:
        shifts: list[float] = []
        # At every engine step, not at every picture: a busy machine's software OpenGL shows 10 pictures a second
        # or fewer, and those missed the 14 Hz shake's peaks (1.91 mm at most, once).
        world.observe(world.physics.time_step, lambda: shifts.append(float(np.linalg.norm(world.plate_pose[:2]))))
        _xdotool(viewer, "key", "--window", str(viewer._window), "j")
        with watching(world, viewer):
            viewer.live(0.8)
        # Farther than the gentle shake (1.5 mm), not as far as the hard one (3.5 mm); then back where it lay.
        assert 0.002 < max(shifts) < 0.0033, f"the plate moved at most {1000 * max(shifts):.2f} mm"
        assert np.linalg.norm(world.plate_pose[:2]) < 3e-4, "the shaken plate is back where it lay"
    finally:
        viewer.close()
        world.close()


def test_t_throws_a_die_of_the_chosen_colour_where_the_mouse_points(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = _die_on_table()
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        x, y = 250, 380
        aim = table_point(*viewer.camera.ray(x, viewer.height - y, viewer.width, viewer.height))
        assert aim is not None
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "key", "c", "key", "t")
        track: list[np.ndarray] = []
        with watching(world, viewer):
            while world.time < 2.0 and len(track) < 90:
                viewer.live(1 / 60)
                dice, poses = world.poses()
                if len(dice) == 2:
                    track.append(poses[1, :3].copy())
        assert len(world.dice) == 2, "one die was thrown in"
        assert DICE[world.dice[1]].colour == hands.colour == "green", "C chose the next colour, green"
        # Where it first touches the table (the lowest point before its first bounce) is where the mouse
        # pointed; afterwards it may bounce and roll anywhere.
        edge = world.physics.edge
        heights = np.array([p[2] for p in track])
        touch = track[int(np.flatnonzero(np.diff(heights) > 0)[0])]
        assert np.linalg.norm(touch[:2] - aim[:2]) < 0.025, f"touched down at {touch[:2]}, aimed at {aim[:2]}"
        world.settle(raise_on_timeout=False)
        assert world.poses()[1][1, 2] < edge, "the thrown die comes to lie on the table"
    finally:
        viewer.close()
        world.close()


def test_p_places_a_die_of_the_chosen_colour_and_faces_in_the_funnel_under_the_mouse(display: str) -> None:
    from pyramid.ui.viewer import watching

    world, _ = small_pyramid_world(2)
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        slot = (0, 4, 4)
        x, y = _screen_point(viewer, world.slot_pose(slot)[0])
        _xdotool(viewer, "key", "--window", wid, "p", "c", "c", "o", "o", "o", "o", "o")
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y))
        viewer.frame(0.0)
        viewer.frame(0.0)
        assert hands.funnel == slot and hands.placing
        _xdotool(viewer, "click", "1")
        with watching(world, viewer):
            viewer.live(1.0)
        world.settle(raise_on_timeout=False)
        cell = world.readout().pyramid[slot]
        assert cell.colour == "black", "C twice: red, green, black"
        assert cell.up == geometry.ALL_UP_FACES[5], "O five times: the sixth of the 24 orientations"
    finally:
        viewer.close()
        world.close()


def test_a_skill_game_played_by_hand_in_the_window_and_replayed(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.ui.skill import play_skill_in_window
    from pyramid.ui.viewer import Viewer

    outcomes: list[tuple[float, ...]] = []
    clicks: list[int] = []
    pending: list[bool] = []  # a click sent and not yet taken
    shown: list[str] = []  # the status text of every frame
    original_frame, original_run = Viewer.frame, Match.run

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 6000)
        shown.append(self.status.text)
        hands = hands_made[-1]
        if hands.sink is None:
            pending.clear()
        elif not pending and self.world is not None and len(clicks) < 20:
            pending.append(True)
            # A person clicks the lowest die they can see that is still in the pyramid and is not its top (a
            # die that fell out may not be touched: on rounded dice the first click met one and waited for ever).
            dice, poses = self.world.poses()
            readout = self.world.readout(require_rest=False)
            top = min(readout.slot_die, key=geometry.layer)
            for n in np.argsort(poses[:, 2]):
                if dice[n] == readout.slot_die[top] or readout.dice[dice[n]].slot is None:
                    continue
                x, y = _screen_point(self, poses[n, :3])
                if hands.die_at(x, self.height - y) == dice[n]:
                    clicks.append(dice[n])
                    _xdotool(self, "mousemove", "--window", str(self._window), str(x), str(y), "click", "1")
                    break

    def run(self: Match):  # type: ignore[no-untyped-def]
        outcome = original_run(self)
        outcomes.append(outcome.scores)
        return outcome

    monkeypatch.setattr(Viewer, "frame", frame)
    monkeypatch.setattr(Match, "run", run)
    game = play_skill_in_window(
        find_game(6, SkillGame), ["human", "careful"], seed=3, options={"layers": "3"}, replays=1, speed=20.0
    )
    assert game.outcome is not None, "the match ran to its end"
    person = [r for r in game.records if r.player == 0]
    assert len(person) == 1 and person[0].actions >= 1, "the person's clicks were the turn's actions"
    assert len(outcomes) == 2 and outcomes[0] == outcomes[1], "the replay ends as the match did"
    # The turn's clock starts at 0 in each turn's own world and never runs backwards.
    clocks = [float(m) for text in shown for m in re.findall(r"(-?\d+\.\d+) of 1000 s", text)]
    assert clocks and min(clocks) >= 0.0, f"the clock showed {min(clocks):.2f} s"
    # While the person lifts dice out, the window counts them.
    assert any("this turn so far: 1 die taken out" in text for text in shown)


@pytest.mark.parametrize("physical", [True, False], ids=["physical", "exact"])
def test_a_person_plays_a_match_by_clicking_funnels(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch, physical: bool
) -> None:
    from pyramid.ui.player import play_in_window
    from pyramid.ui.viewer import Viewer

    clicked: list[geometry.Slot] = []
    asked: list[object] = []  # the choice a click was sent for
    original_frame = Viewer.frame

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 6000)
        prompt = hands_made[-1].chooser
        if sum(p == 0 for p, _ in games[-1].history) >= 2:
            self.has_exit = True  # the person closes the window after two moves
        elif prompt is not None and (not asked or asked[-1] is not prompt):
            # A person points at the funnel of the last legal placement and clicks.
            slot = [a for a in prompt.legal if isinstance(a, Place)][-1].slot
            x, y = _screen_point(self, hands_made[-1].slot_pose(slot, (1, 2, 3))[0])
            _xdotool(self, "mousemove", "--window", str(self._window), str(x), str(y))
            original_frame(self, 0.0)
            if hands_made[-1].funnel == slot:
                asked[:] = [prompt]
                clicked.append(slot)
                _xdotool(self, "click", "1")

    monkeypatch.setattr(Viewer, "frame", frame)
    games: list[Game] = []
    make_game = _mucho_for_three(games)

    game = play_in_window(make_game, ["human", "random", "random"], seed=4, physical=physical, delay=0.0, speed=20.0)
    moves = [a for p, a in game.history if p == 0]
    assert [a.slot for a in moves if isinstance(a, Place)] == clicked, "each click placed in the funnel pointed at"
    # The dice clicked into place are there (read back from the world when there is one), in the colour played.
    assert all(game.state[a.slot].colour == a.colour for a in moves if isinstance(a, Place))


@pytest.mark.parametrize("physical", [True, False], ids=["physical", "exact"])
def test_a_person_moves_a_die_by_clicking_it_and_then_where_it_goes(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch, physical: bool
) -> None:
    from pyramid.ui.player import play_in_window
    from pyramid.ui.viewer import Viewer

    clicked: list[Move] = []
    asked: list[object] = []
    ghosts: list[bool] = []  # whether the see-through die stood in the target before the second click
    original_frame = Viewer.frame

    def point_at(viewer: Viewer, slot: geometry.Slot) -> None:
        x, y = _screen_point(viewer, hands_made[-1].slot_pose(slot, (1, 2, 3))[0])
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), str(x), str(y))
        original_frame(viewer, 0.0)

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 1500)
        hands = hands_made[-1]
        prompt = hands.chooser
        if sum(p == 0 for p, _ in games[-1].history) >= 2:
            self.has_exit = True  # the person closes the window after two moves
        elif prompt is not None and (not asked or asked[-1] is not prompt):
            # A person clicks a die, then the funnel it goes to: first a die alone (a click), then a
            # die of the longest row that can shift, the row going with it (a shift-click).
            moves = [a for a in prompt.legal if isinstance(a, Move)]
            if clicked:
                move = max(moves, key=lambda a: len(a.steps))
            else:
                move = [a for a in moves if len(a.steps) == 1][-1]
            (source, target), *_ = move.steps
            asked[:] = [prompt]
            point_at(self, source)
            _xdotool(self, "click", "1")
            original_frame(self, 0.0)
            assert prompt.source == source and target in prompt.targets()
            labels = {m.text for m in self.marks}
            assert {slot_label(t) for t in prompt.targets()} <= labels and "corner a" in labels, "the targets are named"
            point_at(self, target)
            ghosts.append(hands.target_at(*hands.mouse) == target and self.stage.ghost is not None)
            clicked.append(move)
            if len(move.steps) > 1:
                _xdotool(self, "keydown", "shift", "click", "1", "keyup", "shift")
            else:
                _xdotool(self, "click", "1")

    monkeypatch.setattr(Viewer, "frame", frame)
    games: list[Game] = []
    game_type = find_game(53, Game)  # Triangle: rows of dice shift across the plate

    def make_game():  # type: ignore[no-untyped-def]
        game = game_type(3, rng=np.random.default_rng([4, 1]))
        games.append(game)
        return game

    game = play_in_window(make_game, ["human", "random", "random"], seed=4, physical=physical, delay=0.0, speed=20.0)
    moves = [a for p, a in game.history if p == 0 and isinstance(a, Move)]
    assert moves == clicked and len(moves) == 2, "each pair of clicks made the move pointed at"
    assert [len(m.steps) for m in moves][0] == 1 and len(moves[1].steps) > 1, "a click moved one die, shift a row"
    assert all(ghosts), "the die to move showed, see-through, where the click would take it"
    assert all(game.state[m.steps[0][1]].colour == "red" for m in moves[-1:])


def _visible_face(viewer, world, faces) -> tuple:  # type: ignore[no-untyped-def]
    """The first (slot, axis, window x, y) among ``faces`` (slot, axis) whose face along +axis shows at its centre
    from the camera (the face along +i of the die in (i, j, k) faces the cell (i - 1, j, k))."""

    edge = world.physics.edge
    readout = world.readout()
    dice, poses = world.poses()
    for slot, axis in faces:
        point = world.slot_pose(slot)[0] + 0.5 * edge * geometry.CUBE_TO_PLATE[:, axis]
        x, y = _screen_point(viewer, point)
        origin, direction = viewer.camera.ray(x, viewer.height - y, viewer.width, viewer.height)
        hit = ray_hit(origin, direction, poses, edge)
        # The ray through that pixel enters the die where the face's centre is, not by another face.
        if hit and dice[hit[0]] == readout.slot_die[slot] and abs(hit[1] - (point - origin) @ direction) < 0.001:
            return slot, axis, x, y
    raise AssertionError(f"none of the faces {faces} shows from this camera")


def test_u_pulls_the_die_under_the_mouse_out_and_it_stays_in_play(display: str) -> None:
    from pyramid.ui.viewer import watching

    world, _ = small_pyramid_world(4)
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        readout = world.readout()
        # Dice in the middle of the pyramid's faces: pulled out, friction on their neighbours holds them.
        faces = [((5, 1, 1), 0), ((6, 0, 1), 1), ((6, 1, 0), 2)]  # their faces on the outside of the pyramid
        slot, _, x, y = _visible_face(viewer, world, faces)
        die = readout.slot_die[slot]
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "key", "u")
        with watching(world, viewer):
            viewer.live(1.0)
        world.settle(raise_on_timeout=False)
        after = world.readout(require_rest=False)
        out = float(np.linalg.norm(np.array(after.dice[die].position) - world.slot_pose(slot)[0]))
        assert die in world.dice and after.dice[die].on_plate, "the pulled die stays in play, on the pyramid"
        assert after.dice[die].slot is None and 0.005 < out < 0.010, f"U left the die {1000 * out:.1f} mm out"
        assert len(after.seated()) == 19 and not after.off_plate(), "only the pulled die left its slot"
    finally:
        viewer.close()
        world.close()


def test_a_attaches_a_die_in_the_cell_beyond_the_face_under_the_mouse(display: str) -> None:
    from pyramid.ui.viewer import watching

    # A three-layer pyramid without its top die: the three faces below face the empty cell (6, 0, 0).
    apex = (6, 0, 0)
    colours = ("green", "black")
    cells = {
        (s[0] + apex[0], s[1], s[2]): Cell(colours[n - 1], (1, 2, 3)) for n in (1, 2) for s in geometry.layer_slots(n)
    }
    world = World()
    world.build(PyramidState(cells))
    world.settle()
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        viewer.camera.target = world.slot_pose(apex)[0]
        viewer.camera.pitch, viewer.camera.distance = -60.0, 0.25  # looking down into the empty funnel
        viewer.frame(0.0)
        slot, axis, x, y = _visible_face(viewer, world, [((7, 0, 0), 0), ((6, 1, 0), 1), ((6, 0, 1), 2)])
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "key", "a")
        with watching(world, viewer):
            viewer.live(1.0)
        world.settle(raise_on_timeout=False)
        readout = world.readout(require_rest=False)
        assert len(world.dice) == 10, "one die was set down"
        assert apex in readout.pyramid, "it sits in the cell beyond the face pointed at"
        assert readout.pyramid[apex].colour == hands.colour == "red"
        assert readout.pyramid[apex].up == (1, 2, 3), "showing the chosen faces"
        assert len(readout.seated()) == 10
    finally:
        viewer.close()
        world.close()


def test_l_pours_dice_of_the_chosen_colour_from_a_ladle_onto_the_plate(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = World()
    world.settle(raise_on_timeout=False)
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        x, y = _screen_point(viewer, np.array([0.0, 0.0, 0.003]))
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "key", "c", "key", "l")
        highest: list[float] = []
        with watching(world, viewer):
            while world.time < 1.5:
                viewer.live(1 / 30)
                if world.dice:
                    highest.append(float(world.poses()[1][:, 2].max()))
        world.settle(raise_on_timeout=False)
        readout = world.readout(require_rest=False)
        assert len(world.dice) == 6 and {DICE[d].colour for d in world.dice} == {"green"}, "6 green dice poured"
        assert max(highest) > 0.07, "from a ladle held 8 cm above the plate"
        assert not readout.off_plate(), "they come to rest on the plate"
    finally:
        viewer.close()
        world.close()


def _skill_game_by_keys(monkeypatch: pytest.MonkeyPatch, press) -> list:  # type: ignore[no-untyped-def]
    """Hook a skill game's window: ``press(viewer, hands)`` is called once each time the person's hands are
    asked for an action; returns the list that collects (action, dice in play after it) as performed."""
    from pyramid.ui.viewer import Viewer

    hands_made = _record_hands(monkeypatch)

    pending: list[bool] = []
    performed: list[tuple[object, set[int]]] = []
    original_frame, original_perform = Viewer.frame, actions.perform

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 3000)
        hands = hands_made[-1]
        if hands.sink is None:
            pending.clear()
        elif not pending and self.world is not None:
            pending.append(True)
            press(self, hands)

    def perform(world, action, rng):  # type: ignore[no-untyped-def]
        original_perform(world, action, rng)
        performed.append((action, set(world.dice)))

    monkeypatch.setattr(Viewer, "frame", frame)
    monkeypatch.setattr(actions, "perform", perform)
    return performed


def test_in_trulla_l_pours_the_persons_own_dice_from_the_ladle(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramid.ui.skill import play_skill_in_window

    def press(viewer, hands) -> None:  # type: ignore[no-untyped-def]
        x, y = _screen_point(viewer, np.array([0.0, 0.0, 0.003]))
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), str(x), str(y), "key", "l")

    performed = _skill_game_by_keys(monkeypatch, press)
    game = play_skill_in_window(
        find_game(16, SkillGame),
        ["human", "ladle"],
        seed=2,
        options={"dice": "6", "rounds": "2"},
        replays=0,
        speed=20.0,
    )
    assert game.outcome is not None and game.records[0].player == 0
    first, in_play = performed[0]
    assert isinstance(first, actions.Pour) and len(first.dice) == 6, "L poured a ladleful of 6"
    assert {DICE[d].colour for d in first.dice} == {"red"}, "the person's own colour, whatever C chose"
    assert set(first.dice) <= in_play, "the poured dice are in play"
    assert game.records[0].actions == 1, "one pour is the person's turn"


def _keys_at_an_outer_face(keys: list[str]):  # type: ignore[no-untyped-def]
    """A press for ``_skill_game_by_keys``: the mouse on a visible outer face of the pyramid, the next key
    of ``keys`` (then W, wait). An outer face is an uncovered upper face: the cell beyond it holds no die."""

    def press(viewer, hands) -> None:  # type: ignore[no-untyped-def]
        faces = sorted(geometry.exposed_faces(viewer.world.readout(require_rest=False).pyramid))
        _, _, x, y = _visible_face(viewer, viewer.world, faces)
        wid = str(viewer._window)
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "key", keys.pop(0) if keys else "w")

    return press


def test_in_mounting_u_pulls_a_sets_a_die_of_the_hand_beyond_a_face_and_e_ends_the_turn(
    display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.ui.skill import play_skill_in_window

    performed = _skill_game_by_keys(monkeypatch, _keys_at_an_outer_face(["u", "a", "e"]))
    game = play_skill_in_window(
        find_game(8, SkillGame), ["human"], seed=2, options={"layers": "3", "dice": "2"}, replays=0, speed=20.0
    )
    assert game.outcome is not None and len(game.records) == 1
    kinds = [type(a).__name__ for a, _ in performed]
    assert kinds[:2] == ["Pull", "Attach"], kinds
    pull, attach = performed[0][0], performed[1][0]
    assert pull.distance == pytest.approx(0.008) and pull.axis is None
    assert attach.die not in performed[0][1] and attach.die in performed[1][1], "the die came from the hand into play"
    assert isinstance(game, Mounting)
    assert attach.cell not in game.slots, "set down in a cell beyond the pyramid's face, not inside it"
    assert kinds[2:] == ["Wait"] and "the player stopped" in game.records[0].end.note, "E ended the turn"


def test_enter_replays_a_persons_mounting_turn_with_the_die_from_the_fresh_hand_and_the_stop(
    display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.ui.skill import play_skill_in_window

    performed = _skill_game_by_keys(monkeypatch, _keys_at_an_outer_face(["u", "a", "e"]))
    games: list = []
    original_run = Match.run

    def run(self: Match):  # type: ignore[no-untyped-def]
        outcome = original_run(self)
        games.append((self.game, set(self.world.dice) if self.world is not None else set()))
        return outcome

    monkeypatch.setattr(Match, "run", run)
    play_skill_in_window(
        find_game(8, SkillGame), ["human"], seed=2, options={"layers": "3", "dice": "2"}, replays=1, speed=20.0
    )
    (match, in_play), (replay, replay_in_play) = games
    attaches = [a for a, _ in performed if isinstance(a, actions.Attach)]
    assert len(attaches) == 2 and attaches[0].die == attaches[1].die, "the replay set down the same die of the hand"
    assert replay.hand == match.hand == [match.handed[1]], "one die left in the fresh hand, as in the match"
    assert attaches[0].die in replay_in_play and in_play == replay_in_play
    assert "the player stopped" in replay.records[0].end.note, "E's stop was replayed: the turn ended there"
    assert [(r.end, r.actions) for r in replay.records] == [(r.end, r.actions) for r in match.records]


def test_enter_replays_a_programmed_stacker_from_its_seed_and_its_hand_empties_again(
    display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.ui.skill import play_skill_in_window

    games: list = []
    original_run = Match.run

    def run(self: Match):  # type: ignore[no-untyped-def]
        outcome = original_run(self)
        assert self.world is not None
        readout = self.world.readout(require_rest=False)
        games.append((self.game, sorted(readout.pyramid)))
        return outcome

    monkeypatch.setattr(Match, "run", run)
    play_skill_in_window(find_game(5, SkillGame), ["stack"], seed=1, options={"dice": "4"}, replays=1, speed=20.0)
    (match, seated), (replay, replay_seated) = games
    # Emag's stacker takes each die from the game's hand: in the replay too, so the turn ends as it did.
    assert "the hand is empty" in match.records[0].end.note and replay.hand == []
    assert [(r.end, r.actions) for r in replay.records] == [(r.end, r.actions) for r in match.records]
    assert len(seated) == 4 and replay_seated == seated, "the same 2-layer pyramid stands in the replay's world"


def _every_red_die_in_play():  # type: ignore[no-untyped-def]
    """A settled world: a two-layer pyramid (red on green) in a corner, and every other red die lying on the table."""
    from pyramid.ui.player import spare_positions

    world, apex = small_pyramid_world(2)
    rest = [d.id for d in DICE if d.colour == "red" and d.id not in set(world.dice)]
    for die, position in zip(rest, spare_positions(len(rest), world.physics.edge), strict=True):
        world.throw(die, position)
    world.settle()
    return world, apex, rest


def test_p_takes_a_spare_die_lying_on_the_table_when_none_is_left_in_the_box(display: str) -> None:
    from pyramid.ui.viewer import watching

    world, _, table = _every_red_die_in_play()
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        assert not [d for d in DICE if d.colour == "red" and d.id not in world.dice], "every red die is in play"
        slot = (0, 0, 8)  # a base funnel in the corner away from the small pyramid
        before = len(world.dice)
        x, y = _screen_point(viewer, world.slot_pose(slot)[0])
        _xdotool(viewer, "key", "--window", wid, "p")
        _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y))
        viewer.frame(0.0)
        viewer.frame(0.0)
        assert hands.funnel == slot and hands.colour == "red"
        _xdotool(viewer, "click", "1")
        with watching(world, viewer):
            viewer.live(1.0)
        world.settle(raise_on_timeout=False)
        readout = world.readout(require_rest=False)
        assert slot in readout.slot_die, f"nothing was placed: {viewer.messages}"
        die = readout.slot_die[slot]
        assert die in table and readout.pyramid[slot].colour == "red", "a red spare from the table was placed"
        assert len(world.dice) == before, "the die moved from the table to the funnel: none came or went"
    finally:
        viewer.close()
        world.close()


def _dispatch(viewer, times: int = 10) -> None:  # type: ignore[no-untyped-def]
    """Let the X events sent by xdotool arrive and be handled."""
    for _ in range(times):
        time.sleep(0.02)
        viewer.dispatch_events()


def test_esc_leaves_place_mode_and_quits_only_when_pressed_again(display: str) -> None:
    world, _ = small_pyramid_world(2)
    viewer, hands = _open(world, display)
    wid = str(viewer._window)
    try:
        _xdotool(viewer, "key", "--window", wid, "p")
        _dispatch(viewer)
        assert hands.placing
        _xdotool(viewer, "key", "--window", wid, "Escape")
        _dispatch(viewer)
        assert not hands.placing and not viewer.has_exit, "in place mode, Esc cancels"
        _xdotool(viewer, "key", "--window", wid, "Escape")
        _dispatch(viewer)
        assert not viewer.has_exit and "Esc again" in viewer.messages[-1], "one Esc only asks"
        _xdotool(viewer, "key", "--window", wid, "Escape")
        _dispatch(viewer)
        assert viewer.has_exit, "a second Esc quits"
    finally:
        viewer.close()
        world.close()


def test_a_text_panel_stands_out_over_the_table_and_fades_over_the_dice(display: str) -> None:
    from pyramid.ui.viewer import text_box

    world, apex = small_pyramid_world(4)
    viewer, _ = _open(world, display)
    try:

        def panels() -> list[tuple[float, float, float]]:
            """Per panel: the share of dice colours, of light pixels and of ink inside it."""
            shot = viewer.screenshot().astype(int)
            out = []
            for label in (viewer.status, viewer.side, viewer.help):
                x, y, w, h = (round(v) for v in text_box(label))
                box = shot[viewer.height - (y + h) + 2 : viewer.height - y - 2, x + 2 : x + w - 2].reshape(-1, 3)
                classes = [_colour_class(p) for p in box]
                coloured = sum(c in ("red", "green", "blue") for c in classes) / len(classes)
                out.append((coloured, float((box.mean(axis=1) > 200).mean()), float((box.mean(axis=1) < 100).mean())))
            return out

        viewer.set_text("status " * 40, "faces showing\nred 10\ngreen 10", "help " * 60)
        # Framed: the dice in the middle, the panels over the table and the sky: each reads plainly.
        for coloured, light, ink in panels():
            assert coloured < 0.01 and light > 0.6 and ink > 0.01, (coloured, light, ink)
        # Zoomed in on the pyramid: dice fill the window, under the text too; the panels fade and the dice show.
        viewer.camera.target = world.slot_pose(apex)[0] - np.array([0.0, 0.0, 0.03])
        viewer.camera.distance = 0.09
        shown = panels()
        assert max(coloured for coloured, _, _ in shown) > 0.2, f"the dice under the panels do not show: {shown}"
    finally:
        viewer.close()
        world.close()


def test_space_pauses_the_world_and_plus_and_minus_set_the_pace(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = World(plate=False)
    world.throw(0, (0.0, 0.0, 0.05))  # falling when the window opens
    viewer, _ = _open(world, display)
    wid = str(viewer._window)
    try:
        _xdotool(viewer, "key", "--window", wid, "plus", "minus", "minus")
        _dispatch(viewer)
        assert viewer.speed == 0.5, "+ then - twice: from x1 to x2, x1, x0.5"
        seen: list[tuple[float, float]] = []  # (real time, simulated time) of every picture
        viewer.on_frame.append(lambda _: seen.append((time.perf_counter(), world.time)))
        # Space now, and again 0.8 s later: meanwhile the world stands still, the window goes on drawing.
        press = subprocess.Popen(
            ["xdotool", "key", "--window", wid, "space", "sleep", "0.8", "key", "--window", wid, "space"],
            env=os.environ,
        )
        start = time.perf_counter()
        with watching(world, viewer):
            viewer.live(0.1)
        press.wait(10)
        assert time.perf_counter() - start > 0.7, "the pause held the world"
        # Pictures kept coming while the world's time stood still for most of the 0.8 s.
        runs: dict[float, list[float]] = {}
        for t, s in seen:
            runs.setdefault(s, []).append(t)
        longest = max(max(ts) - min(ts) for ts in runs.values())
        assert longest > 0.5, f"the world stood still for {longest:.2f} s of pictures"
        assert not viewer.paused and "going on" in viewer.messages[-1]
    finally:
        viewer.close()
        world.close()


def test_the_die_under_the_mouse_tells_its_colour_slot_and_faces(display: str) -> None:
    from pyramid.ui.player import world_text

    world, apex = small_pyramid_world(2)
    viewer, hands = _open(world, display)
    try:
        die = world.readout().slot_die[apex]
        x, y = _screen_point(viewer, world.slot_pose(apex)[0])
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), str(x), str(y))
        _dispatch(viewer)
        status, _ = world_text(viewer, hands)
        assert f"under the mouse: die {die} (red) in {apex}: shows 1, 2, 3 along +i, +j, +k" in status
        _xdotool(viewer, "mousemove", "--window", str(viewer._window), "5", str(viewer.height // 2))
        _dispatch(viewer)
        assert "under the mouse" not in world_text(viewer, hands)[0], "pointing at the background: nothing"
    finally:
        viewer.close()
        world.close()


def test_ctrl_z_takes_back_the_last_actions_and_ctrl_s_saves_the_table(display: str, tmp_path: Path) -> None:
    from pyramid.physics.tables import load_table
    from pyramid.ui.viewer import watching

    world, apex = small_pyramid_world(3)
    viewer, _ = _open(world, display)
    wid = str(viewer._window)
    viewer.save_to = tmp_path / "table.json"
    try:
        start = world.readout()
        die = start.slot_die[apex]
        x, y = _screen_point(viewer, world.slot_pose(apex)[0])
        with watching(world, viewer):
            _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "click", "1")
            viewer.live(1.0)
            _xdotool(viewer, "key", "--window", wid, "Left")
            viewer.live(2.0)
            assert die not in world.dice and len(viewer.undo) == 2
            _xdotool(viewer, "key", "--window", wid, "ctrl+s")
            viewer.live(0.2)
            _xdotool(viewer, "key", "--window", wid, "ctrl+z")
            viewer.live(0.2)
            assert die not in world.dice and "1 more to undo" in " ".join(viewer.messages)
            _xdotool(viewer, "key", "--window", wid, "ctrl+z")
            viewer.live(1.0)
            assert die in world.dice and not viewer.undo
            _xdotool(viewer, "key", "--window", wid, "ctrl+z")
            viewer.live(0.2)
            assert "nothing to undo" in viewer.messages[-1]
        world.settle()
        assert world.readout().pyramid == start.pyramid, "two undos: the pyramid stands as it did, apex back on top"
        saved = load_table(tmp_path / "table.json")
        assert die not in saved.dice and len(saved.dice) == len(start.dice) - 1
    finally:
        viewer.close()
        world.close()


def _yaw_between(before: np.ndarray, after: np.ndarray) -> tuple[float, float]:
    """The angle (degrees) between two orientations (x, y, z, w) and how vertical its axis is (|z| of the axis)."""
    from scipy.spatial.transform import Rotation

    turn = (Rotation.from_quat(after) * Rotation.from_quat(before).inv()).as_rotvec()
    angle = float(np.linalg.norm(turn))
    return math.degrees(angle), abs(float(turn[2])) / max(angle, 1e-9)


def test_a_left_drag_carries_a_die_q_turns_it_r_rolls_it_and_a_quick_release_throws_it(display: str) -> None:
    from pyramid.ui.viewer import watching

    world = World()
    world.throw(200, (0.0, -0.12, 0.0081))  # a die lying on the table in front of the plate
    world.settle()
    viewer, hands = _open(world, display)
    viewer.speed = 4.0
    wid = str(viewer._window)
    try:
        start = world.poses()[1][0].copy()
        x, y = _screen_point(viewer, start[:3])
        with watching(world, viewer):
            _xdotool(viewer, "mousemove", "--window", wid, str(x), str(y), "mousedown", "1")
            viewer.live(0.05)
            assert hands.carrying is None, "a press alone carries nothing (a click lifts)"
            _xdotool(viewer, "mousemove", "--window", wid, str(x + 8), str(y))
            viewer.live(0.5)
            assert hands.carrying == 200 and world.held_die == 200
            held = world.poses()[1][0].copy()
            assert held[2] - start[2] > 0.02, "picked up: held above where it lay"
            _xdotool(viewer, "key", "--window", wid, "q")
            viewer.live(0.3)
            angle, vertical = _yaw_between(held[3:], world.poses()[1][0][3:])
            assert 70 < angle < 110 and vertical > 0.9, f"Q turns it a quarter about the vertical: {angle:.0f} deg"
            assert world.held_die == 200, "still in the hand"
            turned = world.poses()[1][0][3:].copy()
            _xdotool(viewer, "key", "--window", wid, "r")
            viewer.live(0.3)
            assert _yaw_between(turned, world.poses()[1][0][3:])[0] > 30, "R rolls it in the hand"
            for n in range(1, 6):  # the mouse sweeps sideways, quickly
                _xdotool(viewer, "mousemove", "--window", wid, str(x + 40 * n), str(y))
                viewer.live(1 / 30)
            _xdotool(viewer, "mouseup", "1")
            viewer.live(2.0)
            assert hands.carrying is None and world.held_die is None
            assert "let go of die 200 at" in " ".join(viewer.messages)
        world.settle()
        thrown = world.poses()[1][0].copy()
        assert np.linalg.norm(thrown[:2] - start[:2]) > 0.05, "thrown: it flew and rolled well away"
        with watching(world, viewer):
            _xdotool(viewer, "key", "--window", wid, "ctrl+z")
            viewer.live(0.2)
        assert np.linalg.norm(world.poses()[1][0][:3] - start[:3]) < 0.002, "Ctrl+Z puts it back where it lay"
        with watching(world, viewer):
            _xdotool(viewer, "key", "--window", wid, "ctrl+y")
            viewer.live(0.2)
        assert np.linalg.norm(world.poses()[1][0][:3] - thrown[:3]) < 0.002, "Ctrl+Y throws it again: where it came to"
    finally:
        viewer.close()
        world.close()


def test_a_still_picture_has_smooth_edges_and_a_moving_one_keeps_its_pace(display: str) -> None:
    world, _ = small_pyramid_world(3)
    world.sleep()
    viewer, _ = _open(world, display)
    try:
        if not viewer.software:
            assert viewer.smooth, "on a graphics card the edges are always smooth"
            return
        viewer.camera.turn(30, 0)
        viewer.frame(0.0)
        assert not viewer.smooth, "the view just moved: edges drawn plain, at full pace"
        rough = viewer.screenshot()
        end = time.perf_counter() + 0.5
        while time.perf_counter() < end:
            viewer.frame(0.0)
        assert viewer.smooth, "the view has stood still: edges smoothed"
        smooth = viewer.screenshot()
        a, b = rough.astype(int), smooth.astype(int)
        changed = np.abs(a - b).sum(axis=2) > 10
        # where the rough picture has an edge: a pixel unlike its neighbour to the right or below
        step = np.zeros(changed.shape, dtype=bool)
        step[:, :-1] |= np.abs(a[:, 1:] - a[:, :-1]).sum(axis=2) > 40
        step[:-1, :] |= np.abs(a[1:, :] - a[:-1, :]).sum(axis=2) > 40
        near = step | np.roll(step, 1, axis=0) | np.roll(step, 1, axis=1)
        assert changed.sum() > 500, "the smoothed picture differs"
        assert (changed & near).sum() > 0.8 * changed.sum(), "and it differs at the edges only"
        viewer.camera.turn(5, 0)
        viewer.frame(0.0)
        assert not viewer.smooth
    finally:
        viewer.close()
        world.close()


def test_a_still_picture_is_kept_and_shown_again_until_what_it_shows_changes(display: str) -> None:
    from pyramid.ui.viewer import pose_matrices

    world, _ = small_pyramid_world(3)
    world.sleep()
    viewer, _ = _open(world, display)
    try:
        if not viewer.software:
            pytest.skip("a graphics card smooths every picture in the window's own samples")
        end = time.perf_counter() + 0.5
        while time.perf_counter() < end:
            viewer.frame(0.0)
        assert viewer.smooth and viewer._smoothing is not None
        kept = viewer.screenshot()
        viewer._smoothing.shows = None  # forget the kept picture: the next is drawn anew
        assert np.array_equal(viewer.screenshot(), kept), "the kept picture is the one drawn anew"
        dice, poses = world.poses()
        viewer.stage.show_ghost(DICE[dice[0]].colour, pose_matrices(poses[:1] + [0.0, 0.0, 0.05, 0, 0, 0, 0])[0])
        ghosted = viewer.screenshot()
        assert viewer.smooth, "a ghost shown does not move the view or wake the world"
        changed = np.abs(ghosted.astype(int) - kept).sum(axis=2) > 30
        assert changed.sum() > 100, "the ghost is drawn, not the kept picture"
    finally:
        viewer.close()
        world.close()


def test_the_list_of_a_long_choice_follows_the_first_digits_typed(display: str) -> None:
    from pyramid.ui.player import match_text
    from pyramid.ui.prompt import Prompt

    game = find_game(47, Game)(2, rng=np.random.default_rng(0))  # the hider picks the wolf among 45 dice
    prompt = Prompt(game.legal_actions(), lambda _: None)
    assert len(prompt.legal) == 45

    def numbers() -> list[int]:
        text, _ = match_text(game, ["greedy", "human"], prompt, [])
        return [int(m) for m in re.findall(r"^\s+(\d+)\. ", text, re.MULTILINE)]

    assert numbers() == list(range(1, 13))
    assert "45 actions in all: type a number's first digit" in match_text(game, ["greedy", "human"], prompt, [])[0]
    prompt.typed = "3"
    assert numbers() == [3, *range(30, 40)]
    prompt.typed = "34"
    assert numbers() == [34]
    assert "i34" in match_text(game, ["greedy", "human"], prompt, [])[0]


def test_a_person_hides_the_wolf_by_clicking_a_die(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyramid.games.hunts import Hide
    from pyramid.ui.player import play_in_window
    from pyramid.ui.viewer import Viewer

    clicked: list[geometry.Slot] = []
    labelled: list[bool] = []
    original_frame = Viewer.frame

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 1500)
        prompt = hands_made[-1].chooser
        if any(isinstance(a, Hide) for _, a in games[-1].history):
            self.has_exit = True  # the wolf is hidden: the person closes the window
        elif prompt is not None and not clicked:
            # The hider points at a die in the middle of the plate (the 34th of 45: no number in the first list).
            slot = [a for a in prompt.legal if isinstance(a, Hide)][33].slot
            labelled.append(slot_label(slot) in {m.text for m in self.marks})
            x, y = _screen_point(self, hands_made[-1].slot_pose(slot, (1, 2, 3))[0])
            _xdotool(self, "mousemove", "--window", str(self._window), str(x), str(y))
            original_frame(self, 0.0)
            if hands_made[-1].slot_at(*hands_made[-1].mouse) == slot:
                clicked.append(slot)
                _xdotool(self, "click", "1")

    monkeypatch.setattr(Viewer, "frame", frame)
    games: list[Game] = []

    def make_game():  # type: ignore[no-untyped-def]
        game = find_game(47, Game)(2, rng=np.random.default_rng(0))
        games.append(game)
        return game

    game = play_in_window(make_game, ["greedy", "human"], seed=0, physical=False, delay=0.0, speed=20.0)
    hidden = [a for p, a in game.history if p == 1 and isinstance(a, Hide)]
    assert clicked and [a.slot for a in hidden] == clicked, "the click hid the wolf in the die pointed at"
    assert labelled == [True], "the dice that may be chosen are named on the plate"


def test_a_scene_watched_in_the_window_leaves_the_world_pyramid_run_leaves(display: str) -> None:
    # The window draws while the scene runs (``view_scene``: the runner's worlds, watched); the world it
    # leaves is the one ``pyramid run`` leaves for the same scene and seed, bit for bit.
    from pyramid.lab.runner import run_scene
    from pyramid.lab.scene import load_scene
    from pyramid.ui.film import runner_worlds
    from pyramid.ui.player import open_view
    from pyramid.ui.viewer import Viewer, watching

    scene = load_scene(Path(__file__).resolve().parent.parent / "scenes" / "tilt.toml")
    plain: list[bytes] = []
    headless = run_scene(scene, 5, inspect=lambda w: plain.append(w.poses()[1].tobytes()))
    views: list[Viewer] = []
    shown: list[bytes] = []
    with contextlib.ExitStack() as stack:

        def on_new(world: World) -> None:
            viewer, _ = open_view(world, "test", np.random.default_rng(0))
            views.append(viewer)
            stack.enter_context(watching(world, viewer))

        with runner_worlds(on_new, lambda w: shown.append(w.poses()[1].tobytes())):
            watched = run_scene(scene, 5)
    for viewer in views:
        viewer.close()
    assert watched["measures"] == headless["measures"]
    assert shown == plain


def test_ctrl_z_and_ctrl_y_take_back_and_redo_a_persons_move_in_a_board_match(
    display: str, hands_made: list[Hands], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyglet.window import key

    from pyramid.ui.player import play_in_window
    from pyramid.ui.viewer import Viewer

    seen: list[tuple[str, int, np.ndarray]] = []  # at each new choice: the pyramid, the moves made, the poses
    prompts: list[object] = []
    original_frame = Viewer.frame

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        _give_up_after(self, 3000)
        hands = hands_made[-1]
        prompt = hands.chooser
        if prompt is None or (prompts and prompts[-1] is prompt) or self.world is None:
            return
        prompts.append(prompt)
        game = games[-1]
        seen.append((game.state.to_notation(), len(game.history), self.world.poses()[1].copy()))
        step = len(seen)
        if step == 1:
            hands.on_key_press(key._1, 0)  # the first legal action, by its number
            hands.on_key_press(key.ENTER, 0)
        elif step == 2:
            hands.on_key_press(key.Z, key.MOD_CTRL)  # back to before the person's move (the others' undone too)
        elif step == 3:
            hands.on_key_press(key.Y, key.MOD_CTRL)  # and forth again
        else:
            self.has_exit = True

    monkeypatch.setattr(Viewer, "frame", frame)
    games: list[Game] = []
    make_game = _mucho_for_three(games)

    play_in_window(make_game, ["human", "random", "random"], seed=4, physical=True, delay=0.0, speed=20.0, replays=0)
    (start, made0, poses0), (moved, made1, poses1), (undone, made2, poses2), (redone, made3, poses3) = seen[:4]
    assert made0 == 0 and made1 == 3 and moved != start, "the person moved, then the two others"
    assert undone == start and made2 == 0, "Ctrl+Z: the game as before the person's move"
    assert poses2.shape == poses0.shape and np.allclose(poses2, poses0, atol=1e-9), "every die where it was"
    assert redone == moved and made3 == 3 and np.allclose(poses3, poses1, atol=1e-9), "Ctrl+Y: all of it again"
