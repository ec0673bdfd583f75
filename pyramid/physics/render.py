"""Pictures of the world without a screen, through PyBullet's software renderer."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from pyramid import geometry
from pyramid.physics import assets
from pyramid.physics.bullet import pb
from pyramid.physics.world import World

Draw = Callable[[World], np.ndarray]  # a renderer: the world -> an RGB image (height, width, 3) uint8


def view_points(world: World) -> np.ndarray:
    """The points (n, 3) a picture of ``world`` must show: every die, the plate and the full pyramid's room above it.

    A camera aimed at them (``OrbitCamera.fit``) frames the window when it opens and the pictures of a scene.
    """
    points = [world.poses()[1][:, :3]]
    if world.plate:
        edge = world.physics.edge
        points.append(np.asarray(assets.plate_mesh(edge).vertices))
        points.append(geometry.slot_centre(geometry.APEX)[None, :] * edge + [0.0, 0.0, edge])
    return np.vstack(points)


def render(
    world: World,
    width: int = 1024,
    height: int = 768,
    yaw: float = 35.0,
    pitch: float = -35.0,
    distance: float | None = None,
    target: tuple[float, float, float] | None = None,
) -> np.ndarray:
    """An RGB image (height, width, 3) uint8 of the world seen from an orbit camera (degrees, metres)."""
    edge = world.physics.edge
    if target is None:
        target = (0.0, 0.0, 2.5 * edge)
    if distance is None:
        distance = 27 * edge
    view = pb.computeViewMatrixFromYawPitchRoll(list(target), distance, yaw, pitch, 0.0, 2)
    proj = pb.computeProjectionMatrixFOV(fov=40.0, aspect=width / height, nearVal=0.01, farVal=5.0)
    light = (math.cos(math.radians(yaw + 60)), math.sin(math.radians(yaw + 60)), 1.6)
    world.dress()
    _, _, rgba, _, _ = world.client.getCameraImage(
        width,
        height,
        viewMatrix=view,
        projectionMatrix=proj,
        renderer=pb.ER_TINY_RENDERER,
        lightDirection=list(light),
        lightAmbientCoeff=0.55,
        lightDiffuseCoeff=0.55,
        lightSpecularCoeff=0.1,
        shadow=1,
    )
    return np.asarray(rgba, dtype=np.uint8).reshape(height, width, 4)[:, :, :3]


def save_picture(world: World, path: str | Path, draw: Draw | None = None, **camera: float) -> Path:
    """Draw the world and write it as a PNG; returns the path.

    ``draw`` is the renderer (the commands pass ``pyramid.ui.film.make_renderer()``'s, the window's look);
    without it PyBullet's software renderer draws from the orbit ``camera`` (``render``'s arguments).
    """
    if draw is not None and camera:
        raise ValueError(f"save_picture: give a renderer (draw) or camera settings, not both: {sorted(camera)}")
    image = draw(world) if draw is not None else render(world, **camera)  # type: ignore[arg-type]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.asarray(image, dtype=np.uint8)).save(path)
    return path
