"""A table at one moment: every die in play and its pose, and the plate's. ``World.snapshot`` takes one,
``World.restore`` goes back to it (the window's undo); ``save_table``/``load_table`` keep it in a file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyramid.dice import DICE, DieId
from pyramid.files import FileRefused, read_json

FORMAT = "pyramid-table 1"


MAX_TABLE_BYTES = 10_000_000  # a saved table of all 281 dice is about 100 kB


class TableFileError(ValueError):
    """A table file that cannot be loaded; the message names the file, the key and what is allowed."""


@dataclass(frozen=True, eq=False)
class Table:
    """The dice in play (``dice``), their poses (n, 7: metres and quaternion x, y, z, w) and velocities
    (n, 6: m/s and rad/s), the plate's pose (7,), the dice's edge (m) and the world's time (s)."""

    dice: tuple[DieId, ...]
    poses: np.ndarray
    velocities: np.ndarray
    plate: np.ndarray
    edge: float
    time: float = 0.0

    def to_json(self, notation: str = "") -> dict[str, Any]:
        """The table as plain data; ``notation`` (the seated dice in the text notation) is kept for people."""
        return {
            "format": FORMAT,
            "notation": notation,
            "edge": self.edge,
            "time": self.time,
            "plate": [float(v) for v in self.plate],
            "dice": {
                str(d): {"pose": [float(v) for v in p], "velocity": [float(v) for v in w]}
                for d, p, w in zip(self.dice, self.poses, self.velocities, strict=True)
            },
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "the table") -> Table:
        """A table from ``to_json``'s data; TableFileError naming ``source``, the key and what is allowed."""

        def fail(key: str, problem: str) -> TableFileError:
            return TableFileError(f"{source}: {key}: {problem}")

        if not isinstance(data, dict):
            raise fail(
                "the file", f"must hold a JSON object (as `pyramid view` saves with Ctrl+S), got {type(data).__name__}"
            )
        if data.get("format") != FORMAT:
            raise fail("format", f"must be {FORMAT!r}, got {data.get('format')!r}")
        edge = _number(data.get("edge"), lambda p: fail("edge", p))
        if not 0.001 <= edge <= 1.0:
            raise fail("edge", f"must be a die's edge in metres (0.001 to 1), got {edge:g}")
        plate = _vector(data.get("plate"), 7, lambda p: fail("plate", p))
        _check_quaternion(plate[3:], lambda p: fail("plate", p))
        dice = data.get("dice")
        if not isinstance(dice, dict):
            raise fail("dice", "must be an object of die number -> {pose, velocity}")
        ids, poses, velocities = [], [], []
        for key, entry in dice.items():
            where = f"dice.{key}"
            if not (key.isdigit() and int(key) < len(DICE)):
                raise fail(where, f"a die number is 0 to {len(DICE) - 1}, got {key!r}")
            if not isinstance(entry, dict):
                raise fail(where, "must be an object with pose (7 numbers) and velocity (6 numbers)")
            pose = _vector(entry.get("pose"), 7, lambda p, w=where: fail(f"{w}.pose", p))
            _check_quaternion(pose[3:], lambda p, w=where: fail(f"{w}.pose", p))
            velocity = _vector(entry.get("velocity", [0.0] * 6), 6, lambda p, w=where: fail(f"{w}.velocity", p))
            ids.append(int(key))
            poses.append(pose)
            velocities.append(velocity)
        time = _number(data.get("time", 0.0), lambda p: fail("time", p))
        order = np.argsort(ids)
        return cls(
            tuple(ids[n] for n in order),
            np.array(poses, dtype=float).reshape(-1, 7)[order],
            np.array(velocities, dtype=float).reshape(-1, 6)[order],
            np.array(plate),
            edge,
            time,
        )


def _number(value: Any, fail: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise fail(f"must be a finite number, got {value!r}")
    return float(value)


def _vector(value: Any, size: int, fail: Any) -> list[float]:
    if not isinstance(value, list) or len(value) != size:
        raise fail(f"must be a list of {size} numbers, got {value!r}")
    return [_number(v, fail) for v in value]


def _check_quaternion(q: list[float], fail: Any) -> None:
    norm = math.sqrt(sum(v * v for v in q))
    if abs(norm - 1.0) > 1e-3:
        raise fail(f"its last 4 numbers are a rotation (a quaternion x, y, z, w of length 1), got length {norm:.4f}")


def save_table(table: Table, path: str | Path, notation: str = "") -> Path:
    """Write ``table`` to ``path`` as JSON (whole or not at all: a temporary file is renamed)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(table.to_json(notation), indent=1) + "\n")
    partial.replace(path)
    return path


def load_table(path: str | Path) -> Table:
    """The table saved in ``path``; TableFileError naming the file and what is wrong."""
    path = Path(path)
    try:
        data = read_json(path, MAX_TABLE_BYTES)
    except FileNotFoundError:
        raise TableFileError(f"{path}: no such file (a table is saved from `pyramid view` with Ctrl+S)") from None
    except OSError as error:
        raise TableFileError(f"{path}: cannot be read: {error.strerror or error}") from None
    except FileRefused as refused:
        raise TableFileError(f"{path}: {refused}; a table is the JSON `pyramid view` saves with Ctrl+S") from None
    return Table.from_json(data, str(path))


def next_free(path: str | Path) -> Path:
    """``path``, or ``stem-2.suffix``, ``stem-3.suffix``, ... : the first name no file has yet."""
    path = Path(path)
    n = 1
    found = path
    while found.exists():
        n += 1
        found = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return found
