"""The checks a scene file's values pass (numbers in range, slots, faces, names with a nearest match) and SceneError.

Under ``scene`` and ``timeline``: each check names the file, the key and what was expected.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pyramid import geometry
from pyramid.geometry import Slot

TABLE_HALF_WIDTH = 0.9  # metres: the world's table is 2 m square; dice start at least 10 cm from its edges
POINT_LIMIT = 2.0  # metres: a point of an action (a blow's mouth, a tilt's pivot) lies within +-2 m of the centre
MAX_DEPTH = 16  # tables and lists inside each other: a scene needs 4
NAME_LENGTH = 100  # characters of a scene's name, which names its output files


class SceneError(ValueError):
    """A scene file that cannot be used; the message names the file, the key and what was expected."""

    def __init__(self, source: str, key: str, message: str) -> None:
        super().__init__(f"{source}: {key}: {message}")
        self.source, self.key = source, key


def suggestion(word: str, known: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the known name nearest ``word``, or nothing."""
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def kind_of(value: Any) -> str:
    """What a TOML value is, for a message: ``a table``, ``a list`` or its type and value."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"


def file_name_problem(name: str) -> str:
    """What keeps ``name`` from being a plain file name inside a folder, or "" if nothing does."""
    if not name.strip():
        return "empty"
    if len(name) > NAME_LENGTH:
        return f"longer than {NAME_LENGTH} characters"
    if "/" in name or "\\" in name:
        return "a path, not a name (it holds '/' or '\\')"
    if name in (".", "..") or name.startswith(".."):
        return "'.' and '..' name folders"
    if any(not c.isprintable() for c in name):
        return "it holds a control character"
    return ""


def nesting_depth(value: Any) -> int:
    """How deep tables and lists lie inside each other in ``value`` (a number or string: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


class SceneChecks:
    """The checks of one scene file's values, raising SceneError (naming ``source``) at the first mistake."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> SceneError:
        """The error for ``key`` of this file."""
        return SceneError(self.source, key, message)

    def table(self, data: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
        """The table ``data[key]`` (empty when absent)."""
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a table [{path}], got {kind_of(value)}")
        return value

    def only(self, data: Mapping[str, Any], path: str, known: Sequence[str]) -> None:
        """Refuse a key of ``data`` that is not ``known``, naming the nearest known one."""
        for key in data:
            if key not in known:
                where = f"{path}.{key}" if path else key
                raise self.fail(where, f"unknown key{suggestion(key, known)}; expected one of: {', '.join(known)}")

    def number(
        self, data: Mapping[str, Any], key: str, path: str, default: float, low: Any = 0.0, high: float = math.inf
    ) -> float:
        """A number within [low, high]; a one-element tuple ``(low,)`` excludes low itself."""
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, f"expected a number, got {kind_of(value)}")
        open_low = isinstance(low, tuple)
        bound = low[0] if open_low else low
        below = value <= bound if open_low else value < bound
        if below or value > high or not math.isfinite(value):
            lower = f"> {bound:g}" if open_low else f">= {bound:g}"
            wanted = f"a number {lower}" + (f" and <= {high:g}" if high < math.inf else "")
            raise self.fail(path, f"expected {wanted}, got {value}")
        return float(value)

    def integer(self, data: Mapping[str, Any], key: str, path: str, default: int, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``."""
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(path, f"expected a whole number from {low} to {high}, got {value!r}")
        return value

    def choice(self, data: Mapping[str, Any], key: str, path: str, default: str, options: Sequence[str]) -> str:
        """One of ``options``, naming the nearest for a typo."""
        value = data.get(key, default)
        if value not in options:
            extra = suggestion(value, options) if isinstance(value, str) else ""
            raise self.fail(path, f"expected one of {', '.join(options)}, got {value!r}{extra}")
        return str(value)

    def vector(
        self, value: Any, path: str, n: int, low: float = -POINT_LIMIT, high: float = POINT_LIMIT
    ) -> tuple[float, ...]:
        """A list of ``n`` finite numbers, each within [low, high], as a tuple of floats."""
        ok = isinstance(value, list) and len(value) == n
        if not ok or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value):
            raise self.fail(path, f"expected a list of {n} numbers, got {value!r}")
        if not all(math.isfinite(v) and low <= v <= high for v in value):
            raise self.fail(path, f"expected {n} numbers from {low:g} to {high:g}, got {value!r}")
        return tuple(float(v) for v in value)

    def file_name(self, value: Any, path: str) -> str:
        """A name that can stand in a file name: no folder, no '..', no control character, not empty."""
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {kind_of(value)}")
        wrong = file_name_problem(value)
        if wrong:
            raise self.fail(
                path,
                f"{wrong}, got {value!r}: the name is a plain file name (letters, digits, '-', '_', '.'; "
                f"at most {NAME_LENGTH} characters) that the reports are named by",
            )
        return value

    def slot(self, value: Any, path: str) -> Slot:
        """A slot [i, j, k] of the pyramid."""
        if not (isinstance(value, list) and len(value) == 3 and all(type(v) is int for v in value)):
            raise self.fail(path, f"expected a slot [i, j, k] of three whole numbers, got {value!r}")
        slot = (value[0], value[1], value[2])
        if not geometry.is_slot(slot):
            raise self.fail(path, f"{list(slot)} is not a slot: i, j, k >= 0 and i + j + k <= 8")
        return slot

    def faces(self, value: Any, path: str) -> str:
        """``"random"`` or three faces meeting at a corner, such as ``"123"``."""
        if value == "random":
            return "random"
        try:
            if not str(value).isascii():
                raise ValueError(value)
            up = tuple(int(c) for c in str(value))
            geometry.orientation_matrix(up)  # type: ignore[arg-type]
        except ValueError:
            raise self.fail(
                path, f'expected "random" or three faces meeting at a corner such as "123", got {value!r}'
            ) from None
        return str(value)
