"""The orbit camera: rays and projections agree, framing keeps every point in the picture, the mouse moves it.

Pure numpy: no window, no pyglet (the events are sent as pyglet would send them).
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from pyramid.dice import EDGE
from pyramid.ui.camera import KEY_R, LEFT, MIDDLE, SHIFT, OrbitCamera

WIDTH, HEIGHT = 800, 500


def test_the_ray_through_a_points_pixel_passes_through_the_point() -> None:
    camera = OrbitCamera(yaw=30.0, pitch=-40.0, distance=0.4)
    assert np.linalg.norm(camera.eye() - camera.target) == pytest.approx(0.4)
    for point in (np.array([0.02, -0.01, 0.03]), camera.target, np.array([-0.05, 0.04, 0.0])):
        x, y = camera.project(point, WIDTH, HEIGHT)
        origin, direction = camera.ray(x, y, WIDTH, HEIGHT)
        assert np.linalg.norm(direction) == pytest.approx(1.0)
        # Distance from the point to the ray's line.
        gap = np.linalg.norm(np.cross(point - origin, direction))
        assert gap < 1e-9
    # The target is seen in the middle of the picture.
    assert camera.project(camera.target, WIDTH, HEIGHT) == pytest.approx((WIDTH / 2, HEIGHT / 2))


def test_fit_frames_every_point_and_becomes_home() -> None:
    rng = np.random.default_rng(0)
    points = rng.uniform(-0.1, 0.1, size=(50, 3)) + [0.3, 0.0, 0.05]
    camera = OrbitCamera()
    camera.fit(points, aspect=WIDTH / HEIGHT)
    for point in points:
        x, y = camera.project(point, WIDTH, HEIGHT)
        assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT
    assert np.allclose(camera.target, (points.min(axis=0) + points.max(axis=0)) / 2)
    home = camera.home
    camera.turn(120, 40)
    camera.zoom(3)
    camera.reset()
    assert (camera.yaw, camera.pitch, camera.distance) == pytest.approx(home[:3])
    assert np.allclose(camera.target, home[3])


def test_drags_turn_and_pan_the_wheel_zooms_and_r_resets() -> None:
    camera = OrbitCamera()
    yaw, pitch, distance, target = camera.yaw, camera.pitch, camera.distance, camera.target.copy()
    assert camera.on_mouse_drag(0, 0, 10, -5, LEFT, 0)
    assert camera.yaw == pytest.approx((yaw - 10 * camera.turn_speed) % 360)
    assert camera.pitch == pytest.approx(pitch + 5 * camera.turn_speed)
    assert np.allclose(camera.target, target), "turning keeps the target"
    camera.on_mouse_drag(0, 0, 20, 0, MIDDLE, 0)
    moved = camera.target - target
    assert np.linalg.norm(moved) > 0 and abs(moved[2]) < 1e-12, "a level camera pans along the table"
    camera.on_mouse_drag(0, 0, 0, 20, LEFT, SHIFT)
    assert camera.yaw == pytest.approx((yaw - 10 * camera.turn_speed) % 360), "shift-drag pans, it does not turn"
    camera.on_mouse_scroll(0, 0, 0.0, 2.0)
    assert camera.distance == pytest.approx(distance * 0.81)
    camera.zoom(-1000)
    assert camera.distance == pytest.approx(200 * EDGE), "zoom stops at 200 edges"
    camera.turn(0, -1000)
    assert camera.pitch == -2.0, "the pitch stops short of level"
    assert camera.on_key_press(KEY_R, 0)
    assert (camera.yaw, camera.pitch, camera.distance) == (yaw, pitch, distance)
    assert np.allclose(camera.target, target)
    assert not camera.on_key_press(KEY_R + 1, 0)


def test_the_light_comes_from_above() -> None:
    camera = OrbitCamera(yaw=-70.0, pitch=-15.0)
    light = camera.light_direction()
    assert np.linalg.norm(light) == pytest.approx(1.0) and light[2] > 0
    assert math.isfinite(float(camera.projection_matrix(1.5)[0, 0]))


def test_the_pure_modules_load_without_pyglet() -> None:
    # pyglet marked missing: the core, the camera, the films and the ui package still import, and the
    # command still parses; only a window needs pyglet.
    code = (
        "import sys; sys.modules['pyglet'] = None\n"
        "import pyramid.picking, pyramid.ui, pyramid.ui.camera, pyramid.ui.film, pyramid.ui.replay\n"
        "import pyramid.cli.app\n"
        "assert not [m for m, v in sys.modules.items() if m.startswith('pyglet') and v is not None]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
