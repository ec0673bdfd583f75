"""Overrides of a scene's keys (``--set``, ``--vary``): dotted keys such as ``physics.edge`` set in a copy of its TOML.

Applied by ``scene`` before it validates; a key that leads nowhere is blamed on the override, not the file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pyramid.lab.scene_checks import SceneError, suggestion


class OverrideError(SceneError):
    """An override (``--set``, ``--vary``) that does not fit the scene; the message names it, not the file."""

    def __init__(self, origin: str, dotted: str, message: str) -> None:
        ValueError.__init__(self, f"{origin} {dotted}: {message}")
        self.source, self.key = origin, dotted


SCENE_TABLES = ("scene", "physics", "start")  # the tables an override can reach by name, besides the timeline
OVERRIDE_FORMS = 'TABLE.KEY (scene, physics, start), timeline.N.KEY or NAME.KEY (a timeline entry with name = "NAME")'


def apply_overrides(
    raw: Mapping[str, Any], overrides: Mapping[str, Any], source: str, origin: str | None = None
) -> dict[str, Any]:
    """A deep copy of ``raw`` with dotted keys set: ``physics.edge``, ``timeline.2.height`` or ``NAME.height``.

    NAME is the ``name`` of a timeline entry. A key that leads nowhere raises SceneError, naming ``origin``
    (e.g. ``--set``) when given, else the file ``source``.
    """
    return override(raw, overrides, source, origin)[0]


def override(
    raw: Mapping[str, Any], overrides: Mapping[str, Any], source: str, origin: str | None
) -> tuple[dict[str, Any], dict[str, tuple[str, str, str]]]:
    """``apply_overrides``, and where each override landed: the validator's path -> (dotted key, key, where)."""

    def fail(dotted: str, message: str) -> SceneError:
        return SceneError(source, dotted, message) if origin is None else OverrideError(origin, dotted, message)

    data = copy.deepcopy(dict(raw))
    timeline = data.get("timeline", [])
    timeline = timeline if isinstance(timeline, list) else []  # a timeline of the wrong type: the validator says so
    names = [e["name"] for e in timeline if isinstance(e, dict) and isinstance(e.get("name"), str)]
    targets: dict[str, tuple[str, str, str]] = {}
    for dotted, value in overrides.items():
        parts = dotted.split(".")
        if len(parts) < 2 or not all(parts):
            raise fail(dotted, f"a key to set is {OVERRIDE_FORMS}; e.g. physics.edge or throw.height")
        node: Any = data
        head, *middle, last = parts
        if head in names:
            index = next(n for n, e in enumerate(timeline) if isinstance(e, dict) and e.get("name") == head)
            node, path, where = timeline[index], f"timeline[{index}]", f"the timeline entry {head!r}"
        elif head == "timeline":
            if not middle or not (middle[0].isascii() and middle[0].isdigit()):
                raise fail(dotted, f"timeline.N.KEY takes the entry's number N (from 0), e.g. timeline.0.{last}")
            index = int(middle.pop(0))
            if not isinstance(timeline, list) or index >= len(timeline):
                raise fail(dotted, f"the timeline has {len(timeline)} entries")
            node, path, where = timeline[index], f"timeline[{index}]", f"timeline entry {index}"
        elif head in SCENE_TABLES:
            node, path, where = data.setdefault(head, {}), head, f"the table [{head}]"
        else:
            known = [*SCENE_TABLES, "timeline", *names]
            entries = f"timeline entries named: {', '.join(names)}" if names else "no timeline entry has a name"
            raise fail(dotted, f"no table or timeline entry {head!r}{suggestion(head, known)} ({entries})")
        for part in middle:
            node = node.setdefault(part, {}) if isinstance(node, dict) else None
            path = f"{path}.{part}"
            where = f"the table [{path}]" if head in SCENE_TABLES else f"{where}, {part}"
        if not isinstance(node, dict):
            raise fail(dotted, "does not lead to a table of the scene")
        node[last] = value
        targets[f"{path}.{last}"] = (dotted, last, where)
    return data, targets
