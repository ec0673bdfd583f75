"""Scene files (TOML) -> validated Scene data: the starting arrangement, physics, timeline and measures.

First in the flow: scene file -> Scene -> World (``runner``); nothing runs from a file that does not validate.
The checks are in ``scene_checks``, the timeline's actions in ``timeline``, ``--set`` keys in ``overrides``.
"""

from __future__ import annotations

import dataclasses
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
from pyramid.lab.overrides import OverrideError, override
from pyramid.lab.overrides import apply_overrides as apply_overrides  # re-exported: scenes are changed from here
from pyramid.lab.scene_checks import (
    MAX_DEPTH,
    TABLE_HALF_WIDTH,
    SceneChecks,
    SceneError,
    kind_of,
    nesting_depth,
    suggestion,
)
from pyramid.lab.shipped_scenes import is_scene_name, names_text, shipped_scenes
from pyramid.lab.timeline import ACTIONS, Step, check_timeline
from pyramid.lab.timeline import action_fields as action_fields  # re-exported for the runner
from pyramid.lab.timeline import physical_action_type as physical_action_type  # re-exported for the runner
from pyramid.physics.settings import DIE_SHAPES, HULL_AXES, MAX_HULL_SEGMENTS, MAX_SIZE_SPREAD, Physics
from pyramid.state import NotationError, PyramidState

LAYER_COLOURS = ("red", "green", "black")  # the cycle of the "layers" and "stripes" patterns
COLOUR_PATTERNS = ("random", "layers", "stripes", *COUNTS)  # "layers": red, green, black by layer; "stripes": by row
MEASURES = ("readout", "score", "moved", "fallen", "time_to_rest", "thrown")

# The range of each physics setting; an open bound (the value itself excluded) is a one-element tuple, e.g. (0.0,).
# A die from 4 mm to 10 cm, of foam to lead; steps of 0.1 ms to 50 ms (finer steps would take hours to settle).
PHYSICS_LIMITS: dict[str, tuple[Any, Any]] = {
    "edge": (0.004, 0.1),
    "density": (50.0, 25_000.0),
    "time_step": (1e-4, 0.05),
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
    "friction_erp": (0.0, 1.0),
    "spinning_friction": (0.0, 1.0),
    "rolling_friction_table": (0.0, 1.0),
    "spinning_friction_table": (0.0, 1.0),
    "edge_radius": ((0.0,), 0.05),
    "size_spread": (0.0, 0.002),
}
PROPORTIONS = (0.1, 10.0)  # each side of a die's box relative to its edge
SOLVER_ITERATIONS = 1000  # per step, at most
SETTLE_TIMEOUT = (0.1, 600.0)  # simulated seconds a settle may wait for rest
MAX_SIMULATED = 3600.0  # simulated seconds a scene may take at most: its settles, waits and actions' times
MAX_STEPS = 1_000_000  # physics steps a scene may take at most (MAX_SIMULATED / time_step, when finer)
MAX_FILE_BYTES = 1_000_000  # a scene file is a page of TOML
TIME_KEYS = ("duration", "ramp", "hold", "fall", "lift_time")  # the actions' keys in seconds


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
    """Read and validate a scene file, or the shipped scene of that name (``"die_throw"``: ``pyramid scenes``);
    ``overrides`` maps dotted keys (``throw.height``) to values.

    ``origin`` (e.g. ``--set``) is where the overrides came from: a mistake in one is blamed on it, not the file.
    """
    if isinstance(path, str) and is_scene_name(path) and not Path(path).exists():
        shipped = shipped_scenes()
        if path not in shipped:
            raise SceneError(
                path, "(file)", f"no such file nor shipped scene{suggestion(path, list(shipped))}; {names_text()}"
            )
        path = shipped[path]
    path = Path(path)
    source = str(path)
    try:
        if path.exists() and not path.is_file():  # a folder, a FIFO or a device: reading it could wait forever
            what = "a folder" if path.is_dir() else "not a regular file (a pipe or a device)"
            raise SceneError(source, "(file)", f"cannot be read: {what}; a scene is a TOML file")
        if path.exists() and path.stat().st_size > MAX_FILE_BYTES:
            raise SceneError(source, "(file)", f"larger than {MAX_FILE_BYTES:,} bytes; a scene is a page of TOML")
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        named = f" (the shipped scene {path.stem!r} is found by its name)" if path.stem in shipped_scenes() else ""
        raise SceneError(source, "(file)", f"no such file{named}") from None
    except RecursionError:
        raise SceneError(source, "(syntax)", f"tables or lists nested too deeply (at most {MAX_DEPTH})") from None
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
    if nesting_depth(raw) > MAX_DEPTH:
        raise SceneError(source, "(syntax)", f"tables or lists nested too deeply (at most {MAX_DEPTH})")
    data, targets = override(raw, overrides or {}, source, origin)
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


def physics_settings(settings: Mapping[str, Any], origin: str = "--physics", prefix: str = "") -> Physics:
    """The ``Physics`` of ``settings`` (keys and values of a scene's ``[physics]`` table), checked as a scene's are.

    A mistake is blamed on ``origin`` and the key after ``prefix``: ``--physics die_shape: expected one of box,
    ...``; ``--set physics.die_shape: ...`` with ``prefix`` "physics.".

    >>> physics_settings({"die_shape": "hull", "hull_segments": 2}).die_shape
    'hull'
    """
    try:
        return _Validator(origin).physics(dict(settings))
    except SceneError as err:
        key = err.key.removeprefix("physics.")
        raise OverrideError(origin, prefix + key, str(err).removeprefix(f"{origin}: {err.key}: ")) from None


class _Validator(SceneChecks):
    """Reads one scene dict, raising SceneError at the first mistake."""

    def scene(self, data: dict[str, Any]) -> Scene:
        self.only(data, "", ("scene", "physics", "start", "timeline"))
        head = self.table(data, "scene", "scene")
        self.only(head, "scene", ("name", "description", "plate", "seed", "measure", "settle_timeout"))
        name = self.file_name(head.get("name", Path(self.source).stem), "scene.name")
        description = head.get("description", "")
        if not isinstance(description, str):
            raise self.fail("scene.description", f"expected a string, got {kind_of(description)}")
        plate = head.get("plate", True)
        if not isinstance(plate, bool):
            raise self.fail("scene.plate", f"expected true or false, got {plate!r}")
        seed = self.integer(head, "seed", "scene.seed", 0, 0, 2**63 - 1)
        measures = head.get("measure", ["readout", "score", "moved", "fallen", "time_to_rest"])
        if not isinstance(measures, list) or not measures:
            raise self.fail("scene.measure", f"expected a list of measures from: {', '.join(MEASURES)}")
        for n, m in enumerate(measures):
            self.choice({"m": m}, "m", f"scene.measure[{n}]", "", MEASURES)
        timeout = self.number(head, "settle_timeout", "scene.settle_timeout", 10.0, *SETTLE_TIMEOUT)
        physics = self.physics(self.table(data, "physics", "physics"))
        start = self.start(self.table(data, "start", "start"), plate, physics)
        timeline = check_timeline(self, data.get("timeline", []), plate)
        self.enough_dice(start, timeline)
        uses_slots = start.slot_count() > 0 or any(s.kind == "place" for s in timeline)
        if uses_slots and len(set(physics.proportions)) > 1:
            raise self.fail(
                "physics.proportions",
                "the pyramid's lattice needs cubic dice; boxes of other proportions are for scenes with dice "
                "on the table only (no dice in slots, no place)",
            )
        self.within_budget(timeout, timeline, physics)
        return Scene(
            self.source, name, description, plate, seed, physics, start, timeline, tuple(measures), timeout, data
        )

    def within_budget(self, timeout: float, timeline: Sequence[Step], physics: Physics) -> None:
        """Refuse a scene that could simulate more than MAX_SIMULATED seconds or MAX_STEPS steps."""
        seconds = 2 * timeout + sum(step_seconds(step) for step in timeline)  # the start's settle and the last one
        steps = seconds / physics.time_step
        if seconds > MAX_SIMULATED or steps > MAX_STEPS:
            raise self.fail(
                "timeline",
                f"up to {seconds:,.0f} s simulated in {steps:,.0f} steps of {physics.time_step:g} s; a scene takes at "
                f"most {MAX_SIMULATED:,.0f} s and {MAX_STEPS:,} steps (shorten the waits, the settle_timeout or "
                "the counts, or lengthen physics.time_step)",
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
            elif key == "die_shape":
                values[key] = self.choice(data, key, path, "box", DIE_SHAPES)
            elif key == "hull_axis":
                values[key] = self.choice(data, key, path, "sat", HULL_AXES)
            elif key == "size_seed":
                values[key] = self.integer(data, key, path, 0, 0, 2**32 - 1)
            elif key == "hull_segments":
                values[key] = self.integer(data, key, path, 1, 1, MAX_HULL_SEGMENTS)
            elif key == "solver_iterations":
                values[key] = self.integer(data, key, path, 0, 1, SOLVER_ITERATIONS)
            elif key == "jitter":
                values[key] = self.integer(data, key, path, 0, 0, 2**32 - 1)
            elif kind.startswith("tuple"):
                values[key] = self.vector(value, path, 3, *PROPORTIONS)
            else:
                low, high = PHYSICS_LIMITS.get(key, (0.0, math.inf))
                values[key] = self.number(data, key, path, 0.0, low, high)
        self.die_measures(values)
        return Physics(**values)

    def die_measures(self, values: dict[str, Any]) -> None:
        """Refuse a rounding or a size spread too large for the die's shortest side."""
        default = Physics()
        edge = values.get("edge", default.edge)
        shortest = edge * min(values.get("proportions", default.proportions))
        radius = values.get("edge_radius", default.edge_radius)
        if values.get("die_shape", default.die_shape) != "box" and radius >= shortest / 2:
            raise self.fail(
                "physics.edge_radius",
                f"expected less than half the die's shortest side ({shortest / 2:g} m for edge {edge:g} m), "
                f"got {radius:g}",
            )
        spread = values.get("size_spread", default.size_spread)
        if spread > shortest * MAX_SIZE_SPREAD:
            raise self.fail(
                "physics.size_spread",
                f"expected at most {MAX_SIZE_SPREAD:g} of the die's shortest side ({shortest * MAX_SIZE_SPREAD:g} m "
                f"for edge {edge:g} m), got {spread:g}",
            )

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
                if ACTIONS[step.kind].takes_dice:
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


def step_seconds(step: Step) -> float:
    """The simulated seconds a timeline entry asks for at most: its waits and its action's times, per die."""
    p = step.params
    if step.kind == "wait":
        return float(p["seconds"] or p["timeout"])
    if step.kind == "pour":
        return float(p["interval"] * p["count"])
    return sum(float(p.get(key, 0.0)) for key in TIME_KEYS) * p.get("count", 1)


def reserved_dice(scene: Scene) -> dict[str, int]:
    """Dice of each colour that the table and the timeline's places and throws will take from the set.

    The random colours of the start are drawn from the rest, so that those dice are still there.
    """
    out: dict[str, int] = {}
    for group in scene.start.table:
        out[group.colour] = out.get(group.colour, 0) + group.count
    for step in scene.timeline:
        if ACTIONS[step.kind].takes_dice:
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
