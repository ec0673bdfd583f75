"""The orbit camera of the viewer: drag to turn, wheel to zoom, a key to reset; an event-handler object.

Pure numpy (the event constants are pyglet's values): the same camera frames the window and the
headless pictures. Angles in degrees, lengths in metres; yaw and pitch mean what they mean to
PyBullet's ``computeViewMatrixFromYawPitchRoll``, so ``pyramid.physics.render`` can be given the same view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from pyramid.dice import EDGE

LEFT, MIDDLE, RIGHT = 1, 2, 4  # pyglet's mouse button bits
SHIFT = 1  # pyglet's modifier bit of the shift key
KEY_R, KEY_HOME = 114, 65360  # pyglet's key symbols of R and Home
# Fractions of the picture's half-width and half-height: ``fit`` keeps what it frames inside the first
# (the window's text runs along the top and the bottom); ``follow`` lets a moving die reach the second.
FRAME_MARGIN = (0.9, 0.78)
EDGE_MARGIN = (0.95, 0.92)


@dataclass
class OrbitCamera:
    """A camera circling ``target``: ``yaw`` around +z, ``pitch`` below the horizon, ``distance`` away."""

    yaw: float = 55.0
    pitch: float = -28.0
    distance: float = 24 * EDGE
    target: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 2.5 * EDGE]))
    fov: float = 40.0  # vertical field of view, degrees
    turn_speed: float = 0.3  # degrees per pixel dragged
    home: tuple[float, float, float, tuple[float, float, float]] = field(init=False)

    def __post_init__(self) -> None:
        self.target = np.asarray(self.target, dtype=float)
        self.home = (self.yaw, self.pitch, self.distance, tuple(self.target.tolist()))  # type: ignore[assignment]

    # -- geometry --------------------------------------------------------------------------------

    def eye(self) -> np.ndarray:
        """World position (3,) of the camera."""
        y, p = math.radians(self.yaw), math.radians(self.pitch)
        offset = np.array([math.cos(p) * math.sin(y), -math.cos(p) * math.cos(y), -math.sin(p)])
        return self.target + self.distance * offset

    def view_matrix(self) -> np.ndarray:
        """World -> camera matrix (4, 4), row-major, looking down the camera's -z."""
        eye = self.eye()
        forward = self.target - eye
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        view = np.eye(4)
        view[0, :3], view[1, :3], view[2, :3] = right, up, -forward
        view[:3, 3] = -view[:3, :3] @ eye
        return view

    def projection_matrix(self, aspect: float, near: float | None = None, far: float = 20.0) -> np.ndarray:
        """Perspective projection (4, 4), row-major, for a viewport of width / height ``aspect``."""
        near = near if near is not None else max(self.distance * 0.02, 1e-3)
        f = 1 / math.tan(math.radians(self.fov) / 2)
        proj = np.zeros((4, 4))
        proj[0, 0], proj[1, 1] = f / aspect, f
        proj[2, 2], proj[2, 3] = (far + near) / (near - far), 2 * far * near / (near - far)
        proj[3, 2] = -1.0
        return proj

    def ray(self, x: float, y: float, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
        """The ray (origin (3,), unit direction (3,)) through window pixel (x, y), y counted from the bottom."""
        inverse = np.linalg.inv(self.projection_matrix(width / height) @ self.view_matrix())
        ndc = np.array([2 * x / width - 1, 2 * y / height - 1])
        near = inverse @ np.array([ndc[0], ndc[1], -1.0, 1.0])
        far = inverse @ np.array([ndc[0], ndc[1], 1.0, 1.0])
        a, b = near[:3] / near[3], far[:3] / far[3]
        return a, (b - a) / np.linalg.norm(b - a)

    def project(self, point: np.ndarray, width: int, height: int) -> tuple[float, float]:
        """Window pixel (x, y), y from the bottom, where the world ``point`` (3,) is seen."""
        clip = self.projection_matrix(width / height) @ self.view_matrix() @ np.append(point, 1.0)
        ndc = clip[:2] / clip[3]
        return (ndc[0] + 1) * width / 2, (ndc[1] + 1) * height / 2

    def light_direction(self) -> np.ndarray:
        """Unit direction (3,) towards the key light: above, behind and left of the camera."""
        view = self.view_matrix()
        right, up, back = view[0, :3], view[1, :3], view[2, :3]
        light = -0.55 * right + 0.9 * up + 0.6 * back + np.array([0.0, 0.0, 0.6])
        return light / np.linalg.norm(light)

    # -- moving it -------------------------------------------------------------------------------

    def turn(self, dx: float, dy: float) -> None:
        """Orbit by a mouse drag of (dx, dy) pixels; the pitch stays between straight down and level."""
        self.yaw = (self.yaw - dx * self.turn_speed) % 360
        self.pitch = min(-2.0, max(-89.0, self.pitch - dy * self.turn_speed))

    def zoom(self, clicks: float) -> None:
        """Move closer (positive ``clicks``) or away, by 10 % per click, between 2 and 200 edges."""
        self.distance = min(200 * EDGE, max(2 * EDGE, self.distance * 0.9**clicks))

    def pan(self, dx: float, dy: float, height: int) -> None:
        """Slide the target with the view plane by a drag of (dx, dy) pixels in a window ``height`` high."""
        view = self.view_matrix()
        metres = 2 * self.distance * math.tan(math.radians(self.fov) / 2) / max(height, 1)
        self.target = self.target - metres * (dx * view[0, :3] + dy * view[1, :3])

    def fit(self, points: np.ndarray, aspect: float = 1.6, least: float = 0.16) -> None:
        """Aim at the middle of ``points`` (n, 3) from just far enough to see them all; this becomes home.

        ``aspect`` is the picture's width / height; ``least`` (metres) the smallest radius framed, so
        that a die alone is seen with the plate around it.
        """
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        if len(points) == 0:
            return
        centre = (points.min(axis=0) + points.max(axis=0)) / 2
        radius = max(least, float(np.linalg.norm(points - centre, axis=1).max()))
        self.target = centre
        # From the distance at which the sphere of ``radius`` fits the picture's height, come closer
        # by steps of 5 % while every point still lies inside the middle 90 % of the picture's width and
        # 78 % of its height (the window's text runs along the top and the bottom).
        self.distance = radius / math.sin(math.radians(self.fov) / 2)
        while self.distance > radius:
            nearer = self.distance * 0.95
            self.distance, previous = nearer, self.distance
            if not self.sees(points, aspect):
                self.distance = previous
                break
        self.home = (self.yaw, self.pitch, self.distance, tuple(self.target.tolist()))  # type: ignore[assignment]

    def sees(self, points: np.ndarray, aspect: float = 1.6, margin: tuple[float, float] = FRAME_MARGIN) -> bool:
        """Whether every one of ``points`` (n, 3) lies in front of the camera and inside the middle ``margin``
        (fractions of the picture's half-width and half-height) of a picture of width / height ``aspect``."""
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        # Homogeneous clip coordinates of each point; inside means |x/w|, |y/w| within the margin.
        clip = (self.projection_matrix(aspect) @ self.view_matrix() @ np.c_[points, np.ones(len(points))].T).T
        return bool((clip[:, 3] > 0).all() and (np.abs(clip[:, :2] / clip[:, 3:]) <= margin).all())

    def follow(self, points: np.ndarray, aspect: float = 1.6, ease: float = 0.3) -> None:
        """Keep ``points`` (n, 3) in the picture as a camera operator would: still while they are well inside;
        else ``ease`` of the way towards the view that ``fit`` would choose, then back off until they are in."""
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        if len(points) == 0 or self.sees(points, aspect):
            return
        home = self.home
        aim = OrbitCamera(self.yaw, self.pitch, self.distance, self.target.copy(), self.fov)
        aim.fit(points, aspect)
        self.target = self.target + ease * (aim.target - self.target)
        self.distance += ease * (aim.distance - self.distance)
        while not self.sees(points, aspect, EDGE_MARGIN) and self.distance < 200 * EDGE:
            self.distance *= 1.05
        self.home = home

    def reset(self) -> None:
        """Back to the view the camera started with."""
        self.yaw, self.pitch, self.distance, target = self.home
        self.target = np.array(target, dtype=float)

    # -- pyglet event handlers (the window pushes this object onto its handler stack) -----------

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        """Left or right drag turns, middle or shift drag pans."""
        if buttons & MIDDLE or (buttons & (LEFT | RIGHT) and modifiers & SHIFT):
            self.pan(dx, dy, 600)
        elif buttons & (LEFT | RIGHT):
            self.turn(dx, dy)
        return True

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        """The wheel zooms."""
        self.zoom(scroll_y)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """R or Home resets the view."""
        if symbol in (KEY_R, KEY_HOME):
            self.reset()
            return True
        return False


SEEN_FACE = 0.5  # cos of the steepest angle (60 degrees) at which the camera looks at the plate's top while it tilts
LEAN_STEP = 2.0  # degrees: how the pitch is searched for a view of the tilted plate's top
EASE_BACK = 0.15  # of the way back to the pitch a person chose, each picture, once the plate lies flat again


class PlateFollower:
    """Keeps a moving plate and its dice in view: the camera follows them and, while the plate's top turns away,
    looks down more steeply (never at its underside), easing back to the person's own pitch once it lies flat."""

    def __init__(self, camera: OrbitCamera) -> None:
        self.camera = camera
        self.rest_pitch: float | None = None  # the pitch before the camera leaned, while it leans

    def follow(self, normal: np.ndarray, points: np.ndarray, aspect: float) -> None:
        """One picture: ``normal`` (3,) is the plate's up, ``points`` (n, 3) what must stay in view."""
        camera = self.camera
        normal = np.asarray(normal, dtype=float)
        if normal[2] > 0.999:
            if self.rest_pitch is not None:
                camera.pitch += EASE_BACK * (self.rest_pitch - camera.pitch)
                if abs(camera.pitch - self.rest_pitch) < 0.5:
                    camera.pitch, self.rest_pitch = self.rest_pitch, None
        elif self._facing(normal) < SEEN_FACE:
            if self.rest_pitch is None:
                self.rest_pitch = camera.pitch
            # Look down more steeply until the top faces the camera well enough (or the camera looks straight down).
            while self._facing(normal) < SEEN_FACE and camera.pitch > -89.0:
                camera.pitch = max(-89.0, camera.pitch - LEAN_STEP)
        camera.follow(points, aspect)

    def _facing(self, normal: np.ndarray) -> float:
        """Cosine of the angle between the plate's up and the way from the target to the camera."""
        towards = self.camera.eye() - self.camera.target
        return float(towards @ normal / np.linalg.norm(towards))
