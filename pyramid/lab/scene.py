"""Scene files (TOML) -> validated Scene data: the starting arrangement, physics, timeline and measures.

First in the flow: scene file -> Scene -> World (see ``runner``). Every mistake raises SceneError
naming the file, the key and what was expected; nothing runs from a file that does not validate.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.dice import COUNTS
from pyramid.geometry import Slot
from pyramid.physics import actions
from pyramid.physics.world import Physics
from pyramid.state import NotationError, PyramidState
from pyramid.units import PLACE_DROP, SET_DROP

TABLE_HALF_WIDTH = 0.9  # metres: the world's table is 2 m square; dice start at least 10 cm from its edges
LAYER_COLOURS = ("red", "green", "black")  # the cycle of the "layers" and "stripes" patterns
COLOUR_PATTERNS = ("random", "layers", "stripes", *COUNTS)  # "layers": red, green, black by layer; "stripes": by row
MEASURES = ("readout", "score", "moved", "fallen", "time_to_rest", "thrown")
PHYSICAL_ACTIONS = ("flick", "blow", "tilt", "shake")  # performed by pyramid.physics.actions
DIE_WORDS = ("apex", "free", "thrown", "loose", "table")  # how a flick names its die
SLOT_WORDS = {"remove": ("apex", "free"), "place": ("open",), "pull": ("apex", "free")}

# The range each number may take: physics settings, and the settings of the timeline's actions.
# An open bound (the value itself excluded) is written as a one-element tuple, e.g. (0.0,).
PHYSICS_LIMITS: dict[str, tuple[Any, Any]] = {
    "edge": ((0.0,), 1.0),
    "density": ((0.0,), 25_000.0),
    "time_step": ((0.0,), 0.05),
    "contact_erp": (0.0, 1.0),
    "warm_starting": (0.0, 1.0),
    "contact_breaking_threshold": (0.0, 0.1),
    "split_impulse_threshold": (0.0, 1.0),
    "contact_slop": (0.0, 0.01),
    "restitution_threshold": (0.0, 10.0),
    "gravity": (0.0, 100.0),
    "friction_die": (0.0, 5.0),
    "friction_plate": (0.0, 5.0),
    "friction_table": (0.0, 5.0),
    "restitution_die": (0.0, 1.0),
    "restitution_plate": (0.0, 1.0),
    "restitution_table": (0.0, 1.0),
    "rolling_friction": (0.0, 1.0),
    "spinning_friction": (0.0, 1.0),
}
STEP_LIMITS: dict[str, dict[str, tuple[Any, Any]]] = {
    "place": {"drop": (0.0, 0.1)},
    "throw": {"height": (0.0, 5.0), "speed": (0.0, 20.0), "spin": (0.0, 500.0)},
    "wait": {"seconds": (0.0, 600.0), "timeout": (0.1, 600.0)},
    "flick": {"azimuth": (-360.0, 360.0), "impulse": (0.0, 0.1), "elevation": (-90.0, 90.0), "height": (-0.5, 0.5)},
    "blow": {
        "azimuth": (-360.0, 360.0),
        "elevation": (-90.0, 90.0),
        "speed": (0.0, 100.0),
        "duration": (0.0, 30.0),
        "nozzle": ((0.0,), 0.2),
        "gust": (0.0, 1.0),
    },
    "tilt": {
        "direction": (-360.0, 360.0),
        "angle": (0.0, 80.0),
        "ramp": (0.0, 30.0),
        "hold": (0.0, 60.0),
        "shake": (0.0, 0.05),
        "frequency": ((0.0,), 100.0),
        "press": (0.0, 10.0),
        "accelerate": (0.0, 0.99),
        "fall": (0.0, 30.0),
        "lift_time": ((0.0,), 30.0),
        "preset": (-80.0, 80.0),
    },
    "pull": {"distance": (0.0, 0.032), "speed": ((0.0,), 1.0), "grip": ((0.0,), 20.0)},
    "attach": {"drop": (0.0, 0.1), "scatter": (0.0, 0.01)},
    "pour": {
        "height": (0.0, 1.0),
        "azimuth": (-360.0, 360.0),
        "speed": (0.0, 5.0),
        "interval": (0.0, 2.0),
        "bowl": ((0.0,), 0.2),
    },
    "shake": {
        "amplitude": (0.0, 0.05),
        "frequency": ((0.0,), 100.0),
        "duration": (0.0, 60.0),
        "azimuth": (-360.0, 360.0),
        "vertical": (0.0, 0.05),
    },
}

# Keys of each timeline kind (besides ``do`` and ``name``) with their defaults.
STEP_KEYS: dict[str, dict[str, Any]] = {
    "place": {"slot": "open", "colour": "black", "up": "random", "drop": PLACE_DROP, "count": 1},
    "remove": {"slot": "free", "pull": True, "count": 1},
    "throw": {"colour": "red", "count": 1, "height": 0.15, "speed": 0.5, "spin": 20.0, "target": [0.0, 0.0]},
    "wait": {"seconds": 0.0, "timeout": 10.0},
    "pull": {"slot": "free", "distance": 0.008, "axis": "out", "speed": 0.03, "grip": 2.0},
    "attach": {"colour": "black", "cell": None, "up": "123", "drop": SET_DROP, "scatter": 0.0003},
    "pour": {
        "colour": "red",
        "count": 6,
        "target": [0.0, 0.0],
        "height": 0.08,
        "azimuth": 0.0,
        "speed": 0.1,
        "interval": 0.04,
        "bowl": 0.03,
    },
}


class SceneError(ValueError):
    """A scene file that cannot be used; the message names the file, the key and what was expected."""

    def __init__(self, source: str, key: str, message: str) -> None:
        super().__init__(f"{source}: {key}: {message}")
        self.source, self.key = source, key


@dataclass(frozen=True)
class SmallPyramid:
    """A small pyramid standing on the plate: its number of dice and its apex slot."""

    dice: int
    apex: Slot
    colours: str
    faces: str


@dataclass(frozen=True)
class TableDice:
    """Dice lying on the table in a row starting at ``at`` (x, y metres)."""

    colour: str
    count: int
    at: tuple[float, float]
    spacing: float  # metres between neighbours along +x
    top: int | None  # face up; None: drawn at random


@dataclass(frozen=True)
class Start:
    """The starting arrangement: dice in slots (colours, faces) and dice on the table."""

    notation: PyramidState | None  # explicit cells given in the text notation
    slots: tuple[Slot, ...]  # slots filled by pattern (full or partial pyramid)
    colours: str
    faces: str  # "random" or three digits such as "123"
    small_pyramids: tuple[SmallPyramid, ...] = ()
    table: tuple[TableDice, ...] = ()

    def slot_count(self) -> int:
        """How many dice start in slots."""
        explicit = len(self.notation) if self.notation is not None else 0
        return explicit + len(self.slots) + sum(p.dice for p in self.small_pyramids)


@dataclass(frozen=True)
class Step:
    """One entry of the timeline: one action (``kind``) with its settings."""

    kind: str
    params: Mapping[str, Any]
    name: str | None = None

    def describe(self) -> str:
        """A short line such as ``throw (count=1, height=0.1)``."""
        settings = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name + ': ' if self.name else ''}{self.kind} ({settings})"


@dataclass(frozen=True)
class Scene:
    """A validated scene: where the dice start, the physics, what happens and what is measured."""

    source: str
    name: str
    description: str
    plate: bool
    seed: int
    physics: Physics
    start: Start
    timeline: tuple[Step, ...]
    measures: tuple[str, ...]
    settle_timeout: float
    raw: Mapping[str, Any]  # the TOML as read (after overrides): experiments rebuild scenes from it


def load_scene(path: str | Path, overrides: Mapping[str, Any] | None = None, origin: str | None = None) -> Scene:
    """Read and validate a scene file; ``overrides`` maps dotted keys (``throw.height``) to values.

    ``origin`` (e.g. ``--set``) is where the overrides came from: a mistake in one is blamed on it, not the file.
    """
    path = Path(path)
    source = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SceneError(source, "(file)", "no such file") from None
    except UnicodeDecodeError:
        raise SceneError(source, "(file)", "not a text file (TOML is UTF-8 text)") from None
    except OSError as err:
        raise SceneError(source, "(file)", f"cannot be read: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise SceneError(source, "(syntax)", f"not valid TOML: {err}") from None
    return scene_from_dict(raw, source, overrides, origin)


def scene_from_dict(
    raw: Mapping[str, Any], source: str, overrides: Mapping[str, Any] | None = None, origin: str | None = None
) -> Scene:
    """Validate a scene given as the dict a TOML file reads to (``origin``: see ``load_scene``)."""
    data, targets = _override(raw, overrides or {}, source, origin)
    try:
        return _Validator(source).scene(data)
    except SceneError as err:
        target = targets.get(err.key)
        if origin is None or target is None:
            raise
        dotted, last, where = target
        message = str(err).removeprefix(f"{source}: {err.key}: ")
        if message.startswith("unknown key"):
            message = f"unknown key {last} of {where}" + message.removeprefix("unknown key")
        raise OverrideError(origin, dotted, message) from None


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
    return _override(raw, overrides, source, origin)[0]


def _override(
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
            if not middle or not middle[0].isdigit():
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
            raise fail(dotted, f"no table or timeline entry {head!r}{_suggest(head, known)} ({entries})")
        for part in middle:
            node = node.setdefault(part, {}) if isinstance(node, dict) else None
            path = f"{path}.{part}"
            where = f"the table [{path}]" if head in SCENE_TABLES else f"{where}, {part}"
        if not isinstance(node, dict):
            raise fail(dotted, "does not lead to a table of the scene")
        node[last] = value
        targets[f"{path}.{last}"] = (dotted, last, where)
    return data, targets


def _suggest(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class _Validator:
    """Reads one scene dict, raising SceneError at the first mistake."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> SceneError:
        return SceneError(self.source, key, message)

    def table(self, data: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a table [{path}], got {_kind(value)}")
        return value

    def only(self, data: Mapping[str, Any], path: str, known: Sequence[str]) -> None:
        for key in data:
            if key not in known:
                where = f"{path}.{key}" if path else key
                raise self.fail(where, f"unknown key{_suggest(key, known)}; expected one of: {', '.join(known)}")

    def number(
        self, data: Mapping[str, Any], key: str, path: str, default: float, low: Any = 0.0, high: float = math.inf
    ) -> float:
        """A number within [low, high]; a one-element tuple ``(low,)`` excludes low itself."""
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, f"expected a number, got {_kind(value)}")
        open_low = isinstance(low, tuple)
        bound = low[0] if open_low else low
        below = value <= bound if open_low else value < bound
        if below or value > high or value != value:
            lower = f"> {bound:g}" if open_low else f">= {bound:g}"
            wanted = f"a number {lower}" + (f" and <= {high:g}" if high < math.inf else "")
            raise self.fail(path, f"expected {wanted}, got {value}")
        return float(value)

    def limited(self, data: Mapping[str, Any], key: str, path: str, default: float, kind: str) -> float:
        """A number of a timeline entry, checked against STEP_LIMITS."""
        low, high = STEP_LIMITS.get(kind, {}).get(key, (-1e9, 1e9))
        return self.number(data, key, path, default, low, high)

    def integer(self, data: Mapping[str, Any], key: str, path: str, default: int, low: int, high: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(path, f"expected a whole number from {low} to {high}, got {value!r}")
        return value

    def choice(self, data: Mapping[str, Any], key: str, path: str, default: str, options: Sequence[str]) -> str:
        value = data.get(key, default)
        if value not in options:
            extra = _suggest(value, options) if isinstance(value, str) else ""
            raise self.fail(path, f"expected one of {', '.join(options)}, got {value!r}{extra}")
        return str(value)

    def vector(self, value: Any, path: str, n: int) -> tuple[float, ...]:
        ok = isinstance(value, list) and len(value) == n
        if not ok or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value):
            raise self.fail(path, f"expected a list of {n} numbers, got {value!r}")
        return tuple(float(v) for v in value)

    def slot(self, value: Any, path: str) -> Slot:
        if not (isinstance(value, list) and len(value) == 3 and all(type(v) is int for v in value)):
            raise self.fail(path, f"expected a slot [i, j, k] of three whole numbers, got {value!r}")
        slot = (value[0], value[1], value[2])
        if not geometry.is_slot(slot):
            raise self.fail(path, f"{list(slot)} is not a slot: i, j, k >= 0 and i + j + k <= 8")
        return slot

    def faces(self, value: Any, path: str) -> str:
        if value == "random":
            return "random"
        try:
            up = tuple(int(c) for c in str(value))
            geometry.orientation_matrix(up)  # type: ignore[arg-type]
        except ValueError:
            raise self.fail(
                path, f'expected "random" or three faces meeting at a corner such as "123", got {value!r}'
            ) from None
        return str(value)

    # -- the parts of a scene ----------------------------------------------------------------

    def scene(self, data: dict[str, Any]) -> Scene:
        self.only(data, "", ("scene", "physics", "start", "timeline"))
        head = self.table(data, "scene", "scene")
        self.only(head, "scene", ("name", "description", "plate", "seed", "measure", "settle_timeout"))
        name = head.get("name", Path(self.source).stem)
        description = head.get("description", "")
        for key, value in (("name", name), ("description", description)):
            if not isinstance(value, str):
                raise self.fail(f"scene.{key}", f"expected a string, got {_kind(value)}")
        plate = head.get("plate", True)
        if not isinstance(plate, bool):
            raise self.fail("scene.plate", f"expected true or false, got {plate!r}")
        seed = self.integer(head, "seed", "scene.seed", 0, 0, 2**63 - 1)
        measures = head.get("measure", ["readout", "score", "moved", "fallen", "time_to_rest"])
        if not isinstance(measures, list) or not measures:
            raise self.fail("scene.measure", f"expected a list of measures from: {', '.join(MEASURES)}")
        for n, m in enumerate(measures):
            self.choice({"m": m}, "m", f"scene.measure[{n}]", "", MEASURES)
        timeout = self.number(head, "settle_timeout", "scene.settle_timeout", 10.0, 0.1)
        physics = self.physics(self.table(data, "physics", "physics"))
        start = self.start(self.table(data, "start", "start"), plate, physics)
        timeline = self.timeline(data.get("timeline", []), plate)
        self.enough_dice(start, timeline)
        uses_slots = start.slot_count() > 0 or any(s.kind == "place" for s in timeline)
        if uses_slots and len(set(physics.proportions)) > 1:
            raise self.fail(
                "physics.proportions",
                "the pyramid's lattice needs cubic dice; boxes of other proportions are for scenes with dice "
                "on the table only (no dice in slots, no place)",
            )
        return Scene(
            self.source, name, description, plate, seed, physics, start, timeline, tuple(measures), timeout, data
        )

    def physics(self, data: dict[str, Any]) -> Physics:
        fields = {f.name: str(f.type) for f in dataclasses.fields(Physics)}
        self.only(data, "physics", list(fields))
        values: dict[str, Any] = {}
        for key, value in data.items():
            path = f"physics.{key}"
            kind = fields[key]
            if kind == "bool":
                if not isinstance(value, bool):
                    raise self.fail(path, f"expected true or false, got {value!r}")
                values[key] = value
            elif kind == "int":
                values[key] = self.integer(data, key, path, 0, 1, 10_000)
            elif kind.startswith("tuple"):
                proportions = self.vector(value, path, 3)
                if min(proportions) <= 0:
                    raise self.fail(path, f"expected three positive numbers, got {value!r}")
                values[key] = proportions
            else:
                low, high = PHYSICS_LIMITS.get(key, (0.0, math.inf))
                values[key] = self.number(data, key, path, 0.0, low, high)
        return Physics(**values)

    def start(self, data: dict[str, Any], plate: bool, physics: Physics) -> Start:
        known = ("pyramid", "layers", "colours", "faces", "small_pyramid", "table")
        self.only(data, "start", known)
        kind = data.get("pyramid", "empty")
        notation = None
        slots: tuple[Slot, ...] = ()
        if not isinstance(kind, str):
            raise self.fail(
                "start.pyramid", f'expected "full", "empty" or a pyramid in the text notation, got {kind!r}'
            )
        if kind == "full":
            layers = self.integer(data, "layers", "start.layers", geometry.LAYERS, 1, geometry.LAYERS)
            slots = tuple(s for s in geometry.SLOTS if geometry.layer(s) >= geometry.LAYERS - layers)
        elif "layers" in data:
            raise self.fail("start.layers", 'only with pyramid = "full": the number of bottom layers to build')
        elif kind != "empty":
            try:
                notation = PyramidState.from_notation(kind)
            except NotationError as err:
                raise self.fail("start.pyramid", f'expected "full", "empty" or the text notation: {err}') from None
        colours = self.choice(data, "colours", "start.colours", "random", COLOUR_PATTERNS)
        faces = self.faces(data.get("faces", "random"), "start.faces")
        small = self.small_pyramids(data.get("small_pyramid", []), colours, faces)
        taken: set[Slot] = set(slots) | set(notation or ())
        for n, pyr in enumerate(small):
            clash = taken & set(geometry.small_pyramid(pyr.dice, pyr.apex))
            if clash:
                raise self.fail(f"start.small_pyramid[{n}].at", f"overlaps dice already placed, e.g. {min(clash)}")
            taken |= set(geometry.small_pyramid(pyr.dice, pyr.apex))
        if taken and not plate:
            raise self.fail("start.pyramid", "dice in slots need the plate: set scene.plate = true")
        if taken and not geometry.is_stable(taken):
            loose = next(s for s in sorted(taken) if not all(t in taken for t in geometry.supports(s)))
            raise self.fail("start.pyramid", f"the die in {loose} has nothing to stand on (its supports are empty)")
        table = self.table_dice(data.get("table", []), plate, physics)
        start = Start(notation, slots, colours, faces, small, table)
        self.enough_dice(start, ())
        return start

    def enough_dice(self, start: Start, timeline: Sequence[Step]) -> None:
        """Check that the set has the dice of each colour that the start and the timeline ask for.

        Dice placed or thrown by the timeline count too, unless it also removes dice (which may then
        be used again).
        """
        need: dict[str, int] = {}
        for cell in (start.notation or PyramidState()).cells.values():
            need[cell.colour] = need.get(cell.colour, 0) + 1
        wanted: list[tuple[str, str | None]] = [
            ("start.colours", pattern_colour(start.colours, s)) for s in start.slots
        ]
        for n, pyr in enumerate(start.small_pyramids):
            key = f"start.small_pyramid[{n}].colours"
            wanted += [(key, pattern_colour(pyr.colours, s)) for s in geometry.small_pyramid(pyr.dice, pyr.apex)]
        for n, group in enumerate(start.table):
            wanted += [(f"start.table[{n}].count", group.colour)] * group.count
        if not any(step.kind == "remove" for step in timeline):
            for n, step in enumerate(timeline):
                if step.kind in ("place", "throw", "attach", "pour"):
                    wanted += [(f"timeline[{n}].count", step.params["colour"])] * step.params.get("count", 1)
        random = 0
        for key, colour in wanted:
            if colour is None:
                random += 1
                continue
            need[colour] = need.get(colour, 0) + 1
            if need[colour] > COUNTS[colour]:
                raise self.fail(key, f"needs more {colour} dice than the set's {COUNTS[colour]}, counting those before")
        if random + sum(need.values()) > sum(COUNTS.values()):
            raise self.fail("start", f"needs {random + sum(need.values())} dice; the set has {sum(COUNTS.values())}")

    def small_pyramids(self, items: Any, colours: str, faces: str) -> tuple[SmallPyramid, ...]:
        if not isinstance(items, list):
            raise self.fail("start.small_pyramid", "expected an array of tables [[start.small_pyramid]]")
        out = []
        for n, item in enumerate(items):
            path = f"start.small_pyramid[{n}]"
            if not isinstance(item, dict):
                raise self.fail(path, "expected a table with dice and at")
            self.only(item, path, ("dice", "at", "colours", "faces"))
            sizes = [k for k in geometry.SMALL_PYRAMID_LAYERS if 4 <= k < 165]
            dice = item.get("dice", 10)
            if dice not in sizes:
                raise self.fail(f"{path}.dice", f"expected one of {', '.join(map(str, sizes))}, got {dice!r}")
            at = item.get("at", "centre")
            names = geometry.small_pyramid_apexes(dice)
            if isinstance(at, str):
                apex = names.get(at)
                if apex is None:
                    raise self.fail(f"{path}.at", f"expected a corner a, b, c, centre or an apex slot, got {at!r}")
            else:
                apex = self.slot(at, f"{path}.at")
                try:
                    geometry.small_pyramid(dice, apex)
                except ValueError as err:
                    raise self.fail(f"{path}.at", str(err)) from None
            pyr_colours = self.choice(item, "colours", f"{path}.colours", colours, COLOUR_PATTERNS)
            out.append(SmallPyramid(dice, apex, pyr_colours, self.faces(item.get("faces", faces), f"{path}.faces")))
        return tuple(out)

    def table_dice(self, items: Any, plate: bool, physics: Physics) -> tuple[TableDice, ...]:
        if not isinstance(items, list):
            raise self.fail("start.table", "expected an array of tables [[start.table]]")
        out = []
        for n, item in enumerate(items):
            path = f"start.table[{n}]"
            if not isinstance(item, dict):
                raise self.fail(path, "expected a table with colour, count, at")
            self.only(item, path, ("colour", "count", "at", "spacing", "top"))
            colour = self.choice(item, "colour", f"{path}.colour", "red", tuple(COUNTS))
            count = self.integer(item, "count", f"{path}.count", 1, 1, COUNTS[colour])
            at = self.vector(item.get("at", [0.25, 0.0]), f"{path}.at", 2)
            spacing = self.number(item, "spacing", f"{path}.spacing", 0.04, 0.0)
            top = item.get("top", "random")
            if top != "random" and (type(top) is not int or not 1 <= top <= 6):
                raise self.fail(f"{path}.top", f'expected a face 1..6 or "random", got {top!r}')
            group = TableDice(colour, count, (at[0], at[1]), spacing, None if top == "random" else top)
            self.table_room(group, path, plate, physics)
            out.append(group)
        return tuple(out)

    def table_room(self, group: TableDice, path: str, plate: bool, physics: Physics) -> None:
        """Check that a row of table dice lies on the table, off the plate, without dice inside each other."""
        # Two dice turned any way about the vertical do not touch when their centres are a footprint's
        # diagonal apart: that of the box's two largest sides (a cube: sqrt(2) edges).
        big = sorted(physics.proportions)[1:]
        diagonal = physics.edge * math.hypot(*big)
        if group.count > 1 and group.spacing < diagonal:
            raise self.fail(
                f"{path}.spacing",
                f"expected at least {diagonal:.4g} m between dice (a die's diagonal), got {group.spacing:g}",
            )
        for n in range(group.count):
            x, y = group.at[0] + n * group.spacing, group.at[1]
            if max(abs(x), abs(y)) > TABLE_HALF_WIDTH:
                raise self.fail(
                    f"{path}.at",
                    f"die {n + 1} of the row would lie at ({x:.3g}, {y:.3g}) m, off the table "
                    f"(x and y within +-{TABLE_HALF_WIDTH} m)",
                )
            # The plate's triangle grown by a die's half diagonal: a die there would lie inside the plate.
            scale = geometry.SLAB_INRADIUS / (geometry.SLAB_INRADIUS + diagonal / physics.edge / 2)
            if plate and geometry.on_plate_footprint(np.array([x, y]) / physics.edge * scale)[0]:
                raise self.fail(
                    f"{path}.at",
                    f"die {n + 1} of the row would lie at ({x:.3g}, {y:.3g}) m, on the plate: table dice go "
                    "beside it (or set scene.plate = false)",
                )

    def timeline(self, items: Any, plate: bool) -> tuple[Step, ...]:
        if not isinstance(items, list):
            raise self.fail("timeline", "expected an array of tables [[timeline]], one per action")
        kinds = (*STEP_KEYS, *PHYSICAL_ACTIONS)
        steps = []
        for n, item in enumerate(items):
            path = f"timeline[{n}]"
            if not isinstance(item, dict):
                raise self.fail(path, "expected a table with do = one of " + ", ".join(kinds))
            if "do" not in item:
                raise self.fail(f"{path}.do", "missing: say what happens, one of " + ", ".join(kinds))
            kind = self.choice(item, "do", f"{path}.do", "", kinds)
            name = item.get("name")
            if name is not None and (not isinstance(name, str) or not name.isidentifier()):
                raise self.fail(f"{path}.name", f"expected a name made of letters, digits and _, got {name!r}")
            params = {k: v for k, v in item.items() if k not in ("do", "name")}
            if kind in PHYSICAL_ACTIONS:
                steps.append(Step(kind, self.physical_action(kind, params, path), name))
            else:
                steps.append(Step(kind, self.step(kind, params, path, plate), name))
        names = [s.name for s in steps if s.name]
        if len(names) != len(set(names)):
            raise self.fail("timeline", f"two entries share a name: {sorted(names)}")
        return tuple(steps)

    def step(self, kind: str, params: dict[str, Any], path: str, plate: bool) -> dict[str, Any]:
        defaults = STEP_KEYS[kind]
        self.only(params, path, ["do", "name", *defaults])
        out = {**defaults, **params}
        if "count" in defaults:
            out["count"] = self.integer(out, "count", f"{path}.count", 1, 1, 281)
        if "colour" in defaults:
            self.choice(out, "colour", f"{path}.colour", "", tuple(COUNTS))
        for key, default in defaults.items():
            if isinstance(default, float):
                out[key] = self.limited(out, key, f"{path}.{key}", default, kind)
        if kind in ("place", "remove", "pull", "attach"):
            if not plate:
                raise self.fail(f"{path}.do", f"{kind} works on the pyramid: it needs scene.plate = true")
        if kind in SLOT_WORDS:
            slot = out["slot"]
            out["slot"] = (
                slot if isinstance(slot, str) and slot in SLOT_WORDS[kind] else self.slot(slot, f"{path}.slot")
            )
        if kind in ("place", "remove"):
            if isinstance(out["slot"], tuple) and out["count"] > 1:
                raise self.fail(
                    f"{path}.count",
                    f"a given slot takes one die: use count only with a word such as {SLOT_WORDS[kind][-1]!r}",
                )
        if kind in ("place", "attach"):
            out["up"] = self.faces(out["up"], f"{path}.up")
        if kind == "pull" and out["axis"] != "out" and out["axis"] not in (0, 1, 2):
            raise self.fail(
                f"{path}.axis", f'expected 0, 1 or 2 (the face along +i, +j, +k) or "out", got {out["axis"]!r}'
            )
        if kind == "attach":
            cell = out["cell"]
            if cell is None:
                raise self.fail(f"{path}.cell", "missing: attach needs the lattice cell [i, j, k] to set the die in")
            if not (isinstance(cell, list) and len(cell) == 3 and all(type(v) is int and -4 <= v <= 12 for v in cell)):
                raise self.fail(f"{path}.cell", f"expected [i, j, k], whole numbers from -4 to 12, got {cell!r}")
            out["cell"] = (cell[0], cell[1], cell[2])
        if kind == "pour":
            out["target"] = self.vector(out["target"], f"{path}.target", 2)
            if max(abs(v) for v in out["target"]) > TABLE_HALF_WIDTH:
                raise self.fail(
                    f"{path}.target", f"expected a point on the table, x and y within +-{TABLE_HALF_WIDTH} m"
                )
        if kind == "remove" and not isinstance(out["pull"], bool):
            raise self.fail(f"{path}.pull", f"expected true or false, got {out['pull']!r}")
        if kind == "throw":
            out["target"] = self.vector(out["target"], f"{path}.target", 2)
            if max(abs(v) for v in out["target"]) > TABLE_HALF_WIDTH:
                raise self.fail(
                    f"{path}.target", f"expected a point on the table, x and y within +-{TABLE_HALF_WIDTH} m"
                )
        return out

    def physical_action(self, kind: str, params: dict[str, Any], path: str) -> dict[str, Any]:
        """Settings of a flick, blow, tilt or shake, checked against the fields of ``pyramid.physics.actions``.

        A flick names its die by ``slot``: [i, j, k], "apex", "free" (a free die of the pyramid),
        "thrown" (the die thrown last), "loose" (a die not seated) or "table" (a die that started on the
        table and is not seated); the runner finds which die that is, at random among several.
        """
        action_type = physical_action_type(kind)
        fields_all = {f.name for f in dataclasses.fields(action_type)}
        fields = {f.name: f for f in dataclasses.fields(action_type) if f.name != "die"}
        out = dict(params)
        if kind == "flick":
            slot = out.setdefault("slot", "free")
            if not (isinstance(slot, str) and slot in DIE_WORDS):
                out["slot"] = self.slot(slot, f"{path}.slot")
        self.only(params, path, [*fields, *(["slot"] if kind == "flick" else [])])
        for key, f in fields.items():
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            if key not in params:
                if required:
                    raise self.fail(f"{path}.{key}", f"missing: {kind} needs {key}")
                continue
            kind_of = str(f.type)
            if kind_of in ("float", "int"):
                out[key] = self.limited(params, key, f"{path}.{key}", 0.0, kind)
            elif kind_of == "Point" or kind_of.startswith("tuple[float"):
                out[key] = self.vector(
                    params[key], f"{path}.{key}", 3 if kind_of == "Point" else kind_of.count("float")
                )
        try:
            action_type(**action_fields(out, die=0 if "die" in fields_all else None))
        except (TypeError, ValueError) as err:
            raise self.fail(path, f"not a valid {kind}: {err}") from None
        return out


def action_fields(params: Mapping[str, Any], die: int | None) -> dict[str, Any]:
    """The keyword arguments of an action dataclass from a timeline entry's settings (``slot`` becomes ``die``)."""
    out = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items() if k != "slot"}
    if die is not None:
        out["die"] = die
    return out


def reserved_dice(scene: Scene) -> dict[str, int]:
    """Dice of each colour that the table and the timeline's places and throws will take from the set.

    The random colours of the start are drawn from the rest, so that those dice are still there.
    """
    out: dict[str, int] = {}
    for group in scene.start.table:
        out[group.colour] = out.get(group.colour, 0) + group.count
    for step in scene.timeline:
        if step.kind in ("place", "throw", "attach", "pour"):
            colour = step.params["colour"]
            out[colour] = out.get(colour, 0) + step.params.get("count", 1)
    return out


def pattern_colour(pattern: str, slot: Slot) -> str | None:
    """The colour a pattern gives ``slot``; None for "random" (drawn from the dice left)."""
    if pattern == "layers":
        return LAYER_COLOURS[geometry.layer(slot) % 3]
    if pattern == "stripes":
        return LAYER_COLOURS[slot[0] % 3]
    return None if pattern == "random" else pattern


def physical_action_type(kind: str) -> type:
    """The dataclass of ``pyramid.physics.actions`` for flick, blow, tilt or shake."""
    found = getattr(actions, kind.title())
    assert isinstance(found, type) and dataclasses.is_dataclass(found), kind
    return found


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"
