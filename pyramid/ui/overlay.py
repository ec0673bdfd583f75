"""The window's drawing over the picture, beside its text: the guides (an aim line, a stroke's line), a strength
bar, and the text panels faded where a die or a mark lies under them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyglet

from pyramid.ui.camera import OrbitCamera
from pyramid.ui.marks import Bar, Guide

BAR_SIZE = (140, 12)  # pixels: the strength bar's width and height
BAR_TEXT_WIDTH = 380  # pixels: the text above the bar wraps at this width
FADED = 0.45  # a panel over a die or a mark keeps this share of its opacity, its text too


def draw_guides(guides: Sequence[Guide], bar: Bar | None, camera: OrbitCamera, width: int, height: int) -> None:
    """Draw ``guides`` where their points are seen, and ``bar``."""
    batch = pyglet.graphics.Batch()
    keep: list[object] = []
    for guide in guides:
        seen = [camera.project(np.asarray(p), width, height) for p in guide.points]
        for (x0, y0), (x1, y1) in zip(seen, seen[1:], strict=False):
            keep.append(pyglet.shapes.Line(x0, y0, x1, y1, guide.width, color=guide.rgba, batch=batch))
    if bar is not None:
        w, h = BAR_SIZE
        # Beside the mouse, kept inside the window with room for its text.
        x = min(bar.x + 16, width - BAR_TEXT_WIDTH - 8)
        y = min(bar.y + 16, height - h - 60)
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        keep.append(pyglet.shapes.Rectangle(x - 2, y - 2, w + 4, h + 4, color=(30, 30, 40, 200), batch=batch))
        share = float(np.clip(bar.share, 0.0, 1.0))
        red = int(60 + 190 * share)
        keep.append(pyglet.shapes.Rectangle(x, y, max(1.0, w * share), h, color=(red, 200 - red // 2, 60), batch=batch))
        text = pyglet.text.Label(
            bar.text,
            x=x,
            y=y + h + 4,
            anchor_y="bottom",
            font_size=10,
            color=(20, 20, 30, 255),
            multiline=True,
            width=BAR_TEXT_WIDTH,
            batch=batch,
            group=front,
        )
        box = (x - 3, y + h + 2, text.content_width + 6, text.content_height + 4)
        keep += [text, pyglet.shapes.Rectangle(*box, color=(246, 246, 242, 200), batch=batch, group=behind)]
    batch.draw()


def covered(box: tuple[float, float, float, float], points: np.ndarray) -> bool:
    """Whether any of the window ``points`` (n, 2) lies inside ``box`` (x, y, width, height)."""
    if len(points) == 0:
        return False
    x, y, w, h = box
    inside = (points[:, 0] >= x) & (points[:, 0] <= x + w) & (points[:, 1] >= y) & (points[:, 1] <= y + h)
    return bool(inside.any())


def seen_points(camera: OrbitCamera, points: np.ndarray, width: int, height: int) -> np.ndarray:
    """Window points (n, 2) where the world ``points`` (n, 3) are seen (those behind the camera left out)."""
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    if len(points) == 0:
        return np.zeros((0, 2))
    clip = (camera.projection_matrix(width / height) @ camera.view_matrix() @ np.c_[points, np.ones(len(points))].T).T
    ahead = clip[:, 3] > 0
    ndc = clip[ahead, :2] / clip[ahead, 3:]
    return np.c_[(ndc[:, 0] + 1) * width / 2, (ndc[:, 1] + 1) * height / 2]
