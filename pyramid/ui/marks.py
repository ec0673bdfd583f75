"""Marks on the picture: the plate's corners a, b, c and the labels of funnels (``i12``), drawn as text where
their points are seen; and action texts with those labels beside the slot coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from pyramid import geometry
from pyramid.drawing import slot_label
from pyramid.geometry import Slot

CORNERS: tuple[tuple[str, Slot], ...] = (("a", (8, 0, 0)), ("b", (0, 8, 0)), ("c", (0, 0, 8)))
CORNER_OUT = 1.6  # edges beyond the corner funnel's centre, outwards from the plate's middle, where its letter stands
_SLOT = re.compile(r"\((\d+), (\d+), (\d+)\)")


@dataclass(frozen=True)
class Mark:
    """``text`` drawn where the world point ``point`` (3,) is seen, in ``rgba`` (0 to 255), ``size`` points."""

    text: str
    point: tuple[float, float, float]
    rgba: tuple[int, int, int, int] = (20, 20, 30, 255)
    size: int = 10


def corner_marks(plate_pose: np.ndarray, edge: float) -> list[Mark]:
    """The letters a, b, c beside the plate's three corners (the rules name corners by them)."""
    rotation = geometry.quat_to_matrix(np.asarray(plate_pose[3:], dtype=float))[0]
    middle = np.mean([geometry.slot_centre(s) for _, s in CORNERS], axis=0)
    marks = []
    for letter, slot in CORNERS:
        local = geometry.slot_centre(slot)
        out = local - middle
        out[2] = 0.0
        spot = (local + CORNER_OUT * out / np.linalg.norm(out)) * edge
        point = np.asarray(plate_pose[:3], dtype=float) + rotation @ spot
        marks.append(Mark(f"corner {letter}", (float(point[0]), float(point[1]), float(point[2])), size=12))
    return marks


def slot_marks(
    slots: Iterable[Slot], centre_of: Callable[[Slot], np.ndarray], rgba: tuple[int, int, int, int] = (120, 20, 20, 255)
) -> list[Mark]:
    """A label (``i12``) at each of ``slots``; ``centre_of(slot)`` gives its world centre (3,)."""
    out = []
    for slot in slots:
        point = np.asarray(centre_of(slot), dtype=float)
        out.append(Mark(slot_label(slot), (float(point[0]), float(point[1]), float(point[2])), rgba))
    return out


def with_labels(text: str) -> str:
    """``text`` with each slot written as ``(i, j, k)`` given its label first: ``i12 (5, 0, 3)`` (once: a slot
    the text already labels stays as it is)."""

    def label(match: re.Match[str]) -> str:
        slot = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if not geometry.is_slot(slot) or match.string.endswith(f"{slot_label(slot)} ", 0, match.start()):
            return match.group(0)
        return f"{slot_label(slot)} {match.group(0)}"

    return _SLOT.sub(label, text)


@dataclass(frozen=True)
class Guide:
    """A line drawn over the picture through the world ``points`` (n, 3) where they are seen: an aim, a stroke's
    line; ``rgba`` 0 to 255, ``width`` pixels."""

    points: tuple[tuple[float, float, float], ...]
    rgba: tuple[int, int, int, int] = (250, 210, 40, 255)
    width: float = 3.0

    @classmethod
    def through(cls, points: np.ndarray, rgba: tuple[int, int, int, int], width: float = 3.0) -> Guide:
        """A guide through ``points`` (n, 3)."""
        return cls(tuple((float(p[0]), float(p[1]), float(p[2])) for p in np.asarray(points)), rgba, width)


@dataclass(frozen=True)
class Bar:
    """A strength bar at window point (``x``, ``y``) (y from the bottom): ``share`` (0 to 1) filled, ``text`` above."""

    share: float
    text: str
    x: float
    y: float
