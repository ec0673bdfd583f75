"""The timeline's actions: for each ``do`` of a ``[[timeline]]`` entry, its keys, their checks and ranges.

Read by ``scene``: each entry becomes a checked Step, which ``runner`` performs in the world.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from pyramid import geometry
from pyramid.dice import COUNTS
from pyramid.lab.scene_checks import TABLE_HALF_WIDTH, SceneChecks
from pyramid.physics import actions
from pyramid.units import PLACE_DROP, SET_DROP

DIE_WORDS = ("apex", "free", "thrown", "loose", "table")  # how a flick names its die
REQUIRED: Any = dataclasses.MISSING  # the default of a key an entry must give


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


@dataclass
class Entry:
    """One timeline entry being checked: its kind, where it sits in the file, and its settings so far."""

    checks: SceneChecks
    kind: str
    accepts: ActionKind
    path: str
    values: dict[str, Any]

    def at(self, key: str) -> str:
        """The path of one of its keys, such as ``timeline[2].height``."""
        return f"{self.path}.{key}"

    def apply(self, check: Check) -> None:
        """Run ``check`` on each key of this kind that it checks, keeping what it returns."""
        for key, spec in self.accepts.keys.items():
            if spec.check is check:
                self.values[key] = check(self, key, spec)


Check: TypeAlias = Callable[[Entry, str, "Key"], Any]  # checks entry.values[key]; returns the value to keep


@dataclass(frozen=True)
class Key:
    """One setting of a timeline entry: its default, its check and what that check allows."""

    default: Any
    check: Check
    limits: tuple[Any, Any] = (-1e9, 1e9)  # a number's range; a one-element tuple (low,) excludes low itself
    words: tuple[str, ...] = ()  # words that may stand for a slot [i, j, k]
    size: int = 3  # how many numbers a point has


@dataclass(frozen=True)
class ActionKind:
    """What one ``do`` of the timeline accepts."""

    keys: Mapping[str, Key]  # besides do and name, in the order messages list them
    on_pyramid: bool = False  # works on dice in slots: the scene needs its plate
    takes_dice: bool = False  # takes dice from the set (counted against its colours)
    builds: type | None = None  # flick, blow, tilt, shake: the dataclass of ``pyramid.physics.actions`` it builds


# -- the checks, each written once -----------------------------------------------------------


def whole_count(entry: Entry, key: str, spec: Key) -> int:
    """How many dice: 1 to 281."""
    return entry.checks.integer(entry.values, key, entry.at(key), 1, 1, 281)


def set_colour(entry: Entry, key: str, spec: Key) -> str:
    """A colour of the set."""
    return entry.checks.choice(entry.values, key, entry.at(key), "", tuple(COUNTS))


def ranged(entry: Entry, key: str, spec: Key) -> float:
    """A number within the key's limits."""
    low, high = spec.limits
    return entry.checks.number(entry.values, key, entry.at(key), spec.default, low, high)


def slot_or_word(entry: Entry, key: str, spec: Key) -> Any:
    """A slot [i, j, k] or one of the key's words; a given slot takes one die."""
    value = entry.values[key]
    if isinstance(value, str) and value in spec.words:
        return value
    slot = entry.checks.slot(value, entry.at(key))
    if "count" in entry.accepts.keys and entry.values["count"] > 1:
        raise entry.checks.fail(
            entry.at("count"),
            f"a given slot takes one die: use count only with a word such as {spec.words[-1]!r}",
        )
    return slot


def up_faces(entry: Entry, key: str, spec: Key) -> str:
    """``"random"`` or three faces meeting at a corner."""
    return entry.checks.faces(entry.values[key], entry.at(key))


def face_axis(entry: Entry, key: str, spec: Key) -> Any:
    """0, 1 or 2 (the face along +i, +j, +k), or ``"out"``."""
    value = entry.values[key]
    if value != "out" and value not in (0, 1, 2):
        raise entry.checks.fail(
            entry.at(key), f'expected 0, 1 or 2 (the face along +i, +j, +k) or "out", got {value!r}'
        )
    return value


def lattice_cell(entry: Entry, key: str, spec: Key) -> tuple[int, int, int]:
    """A cell [i, j, k] of the lattice, inside the pyramid or near it."""
    cell = entry.values[key]
    if cell is None:
        raise entry.checks.fail(
            entry.at(key), f"missing: {entry.kind} needs the lattice cell [i, j, k] to set the die in"
        )
    if not (isinstance(cell, list) and len(cell) == 3 and all(type(v) is int and -4 <= v <= 12 for v in cell)):
        raise entry.checks.fail(entry.at(key), f"expected [i, j, k], whole numbers from -4 to 12, got {cell!r}")
    if sum(cell) > geometry.BASE_LAYER:
        raise entry.checks.fail(
            entry.at(key),
            f"{cell} lies in or under the plate (i + j + k = {sum(cell)}); a die is set down in a cell with "
            f"i + j + k at most {geometry.BASE_LAYER}",
        )
    return (cell[0], cell[1], cell[2])


def table_point(entry: Entry, key: str, spec: Key) -> tuple[float, ...]:
    """A point (x, y) on the table."""
    point = entry.checks.vector(entry.values[key], entry.at(key), 2)
    if max(abs(v) for v in point) > TABLE_HALF_WIDTH:
        raise entry.checks.fail(entry.at(key), f"expected a point on the table, x and y within +-{TABLE_HALF_WIDTH} m")
    return point


def flag(entry: Entry, key: str, spec: Key) -> bool:
    """True or false."""
    value = entry.values[key]
    if not isinstance(value, bool):
        raise entry.checks.fail(entry.at(key), f"expected true or false, got {value!r}")
    return value


def point(entry: Entry, key: str, spec: Key) -> tuple[float, ...]:
    """A list of the key's number of numbers."""
    return entry.checks.vector(entry.values[key], entry.at(key), spec.size)


def as_given(entry: Entry, key: str, spec: Key) -> Any:
    """The value as given: the action's dataclass checks it."""
    return entry.values[key]


# The order of the checks decides which of two mistakes in one entry is reported: the counts, colours and
# numbers first, then whether the scene has the plate, then the slots, faces, cells and points.
FIRST_CHECKS: tuple[Check, ...] = (whole_count, set_colour, ranged)
LATER_CHECKS: tuple[Check, ...] = (slot_or_word, up_faces, face_axis, lattice_cell, table_point, flag)


def number(default: float, low: Any, high: float) -> Key:
    """A number key with its range; ``low`` as a one-element tuple ``(low,)`` excludes low itself."""
    return Key(default, ranged, (low, high))


def physical(action: type, limits: Mapping[str, tuple[Any, Any]], **extra: Key) -> ActionKind:
    """A flick, blow, tilt or shake: its keys are the fields of ``action`` (``die`` aside), and ``extra``."""
    keys: dict[str, Key] = {}
    for f in dataclasses.fields(action):
        if f.name == "die":
            continue
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        default = REQUIRED if required else f.default
        type_name = str(f.type)
        if type_name in ("float", "int"):
            keys[f.name] = Key(default, ranged, limits[f.name])
        elif type_name == "Point" or type_name.startswith("tuple[float"):
            keys[f.name] = Key(default, point, size=3 if type_name == "Point" else type_name.count("float"))
        else:
            keys[f.name] = Key(default, as_given)
    return ActionKind({**keys, **extra}, builds=action)


AZIMUTH = (-360.0, 360.0)
ACTIONS: dict[str, ActionKind] = {
    "place": ActionKind(
        {
            "slot": Key("open", slot_or_word, words=("open",)),
            "colour": Key("black", set_colour),
            "up": Key("random", up_faces),
            "drop": number(PLACE_DROP, 0.0, 0.1),
            "count": Key(1, whole_count),
        },
        on_pyramid=True,
        takes_dice=True,
    ),
    "remove": ActionKind(
        {
            "slot": Key("free", slot_or_word, words=("apex", "free")),
            "pull": Key(True, flag),
            "count": Key(1, whole_count),
        },
        on_pyramid=True,
    ),
    "throw": ActionKind(
        {
            "colour": Key("red", set_colour),
            "count": Key(1, whole_count),
            "height": number(0.15, 0.0, 5.0),
            "speed": number(0.5, 0.0, 20.0),
            "spin": number(20.0, 0.0, 500.0),
            "target": Key([0.0, 0.0], table_point),
        },
        takes_dice=True,
    ),
    "wait": ActionKind({"seconds": number(0.0, 0.0, 600.0), "timeout": number(10.0, 0.1, 600.0)}),
    "pull": ActionKind(
        {
            "slot": Key("free", slot_or_word, words=("apex", "free")),
            "distance": number(0.008, 0.0, 0.032),
            "axis": Key("out", face_axis),
            "speed": number(0.03, (0.0,), 1.0),
            "grip": number(2.0, (0.0,), 20.0),
        },
        on_pyramid=True,
    ),
    "attach": ActionKind(
        {
            "colour": Key("black", set_colour),
            "cell": Key(None, lattice_cell),
            "up": Key("123", up_faces),
            "drop": number(SET_DROP, 0.0, 0.1),
            "scatter": number(0.0003, 0.0, 0.01),
        },
        on_pyramid=True,
        takes_dice=True,
    ),
    "pour": ActionKind(
        {
            "colour": Key("red", set_colour),
            "count": Key(6, whole_count),
            "target": Key([0.0, 0.0], table_point),
            "height": number(0.08, 0.0, 1.0),
            "azimuth": number(0.0, *AZIMUTH),
            "speed": number(0.1, 0.0, 5.0),
            "interval": number(0.04, 0.0, 2.0),
            "bowl": number(0.03, (0.0,), 0.2),
        },
        takes_dice=True,
    ),
    # A flick names its die by ``slot``: [i, j, k], "apex", "free" (a free die of the pyramid), "thrown"
    # (the die thrown last), "loose" (a die not seated) or "table" (a die that started on the table and
    # is not seated); the runner finds which die that is, at random among several.
    "flick": physical(
        actions.Flick,
        {"azimuth": AZIMUTH, "impulse": (0.0, 0.1), "elevation": (-90.0, 90.0), "height": (-0.5, 0.5)},
        slot=Key("free", slot_or_word, words=DIE_WORDS),
    ),
    "blow": physical(
        actions.Blow,
        {
            "azimuth": AZIMUTH,
            "elevation": (-90.0, 90.0),
            "speed": (0.0, 100.0),
            "duration": (0.0, 30.0),
            "nozzle": ((0.0,), 0.2),
            "gust": (0.0, 1.0),
        },
    ),
    "tilt": physical(
        actions.Tilt,
        {
            "direction": AZIMUTH,
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
    ),
    "shake": physical(
        actions.Shake,
        {
            "amplitude": (0.0, 0.05),
            "frequency": ((0.0,), 100.0),
            "duration": (0.0, 60.0),
            "azimuth": AZIMUTH,
            "vertical": (0.0, 0.05),
        },
    ),
}


def check_timeline(checks: SceneChecks, items: Any, plate: bool) -> tuple[Step, ...]:
    """The checked steps of a scene's ``[[timeline]]`` array (``plate``: whether the scene has the plate)."""
    if not isinstance(items, list):
        raise checks.fail("timeline", "expected an array of tables [[timeline]], one per action")
    kinds = tuple(ACTIONS)
    steps = []
    for n, item in enumerate(items):
        path = f"timeline[{n}]"
        if not isinstance(item, dict):
            raise checks.fail(path, "expected a table with do = one of " + ", ".join(kinds))
        if "do" not in item:
            raise checks.fail(f"{path}.do", "missing: say what happens, one of " + ", ".join(kinds))
        kind = checks.choice(item, "do", f"{path}.do", "", kinds)
        name = item.get("name")
        if name is not None and (not isinstance(name, str) or not name.isidentifier()):
            raise checks.fail(f"{path}.name", f"expected a name made of letters, digits and _, got {name!r}")
        params = {k: v for k, v in item.items() if k not in ("do", "name")}
        entry = Entry(checks, kind, ACTIONS[kind], path, {})
        settings = check_entry(entry, params, plate) if entry.accepts.builds is None else check_physical(entry, params)
        steps.append(Step(kind, settings, name))
    names = [s.name for s in steps if s.name]
    if len(names) != len(set(names)):
        raise checks.fail("timeline", f"two entries share a name: {sorted(names)}")
    return tuple(steps)


def check_entry(entry: Entry, params: dict[str, Any], plate: bool) -> dict[str, Any]:
    """The settings of an entry that the runner performs itself: every key, given or by default."""
    keys = entry.accepts.keys
    entry.checks.only(params, entry.path, ["do", "name", *keys])
    entry.values = {**{key: spec.default for key, spec in keys.items()}, **params}
    for check in FIRST_CHECKS:
        entry.apply(check)
    if entry.accepts.on_pyramid and not plate:
        raise entry.checks.fail(entry.at("do"), f"{entry.kind} works on the pyramid: it needs scene.plate = true")
    for check in LATER_CHECKS:
        entry.apply(check)
    return entry.values


def check_physical(entry: Entry, params: dict[str, Any]) -> dict[str, Any]:
    """The settings of a flick, blow, tilt or shake: the keys given, checked, and the action built from them."""
    action_type = physical_action_type(entry.kind)
    fields = {f.name for f in dataclasses.fields(action_type)}
    keys = entry.accepts.keys
    entry.values = dict(params)
    for key, spec in keys.items():
        if key not in fields:  # a flick's slot: the runner turns it into a die
            entry.values.setdefault(key, spec.default)
            entry.values[key] = spec.check(entry, key, spec)
    entry.checks.only(params, entry.path, list(keys))
    for key, spec in keys.items():
        if key not in fields:
            continue
        if key not in params:
            if spec.default is REQUIRED:
                raise entry.checks.fail(entry.at(key), f"missing: {entry.kind} needs {key}")
            continue
        entry.values[key] = spec.check(entry, key, spec)
    try:
        action_type(**action_fields(entry.values, die=0 if "die" in fields else None))
    except (TypeError, ValueError) as err:
        raise entry.checks.fail(entry.path, f"not a valid {entry.kind}: {err}") from None
    return entry.values


def action_fields(params: Mapping[str, Any], die: int | None) -> dict[str, Any]:
    """The keyword arguments of an action dataclass from a timeline entry's settings (``slot`` becomes ``die``)."""
    out = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items() if k != "slot"}
    if die is not None:
        out["die"] = die
    return out


def physical_action_type(kind: str) -> type:
    """The dataclass of ``pyramid.physics.actions`` for flick, blow, tilt or shake."""
    found = ACTIONS[kind].builds
    assert found is not None and dataclasses.is_dataclass(found), kind
    return found
