"""Run one scene: build its world, play its timeline, measure what it asks for, report.

Sits after ``scene`` in the flow: Scene -> World (settle) -> timeline of actions -> poses -> Readout
-> measures. Same scene and seed, same report (wall time and the machine it ran on aside: ``provenance``,
recorded in the report, says which; ``docs/reproducibility.md`` what is bit-exact and what only statistical).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import DICE, DieId
from pyramid.lab.provenance import provenance, summary_line
from pyramid.lab.scene import (
    Scene,
    Start,
    Step,
    action_fields,
    pattern_colour,
    physical_action_type,
    reserved_dice,
)
from pyramid.perception import DieReading, Readout, Status
from pyramid.physics import actions
from pyramid.physics.errors import OccupiedError
from pyramid.physics.render import save_picture
from pyramid.physics.world import World
from pyramid.state import Cell, PyramidState
from pyramid.tolerances import TOL
from pyramid.units import rounded


@dataclass
class RunRecord:
    """What happened during one run, gathered for the measures."""

    events: list[str] = field(default_factory=list)
    thrown: list[tuple[DieId, int]] = field(default_factory=list)  # die, face up at release
    removed: set[DieId] = field(default_factory=set)
    rest_times: list[float] = field(default_factory=list)  # simulated seconds of each wait until rest
    table: list[DieId] = field(default_factory=list)  # the dice that started on the table
    start_rest: float = 0.0  # simulated seconds for the start to come to rest
    at_rest: bool = True
    begin: Callable[[str], None] | None = None  # told what each action of the timeline does, as it starts

    def starts(self, text: str) -> None:
        """An action of the timeline starts now: ``text`` says what it does."""
        if self.begin is not None:
            self.begin(text)


def run_scene(
    scene: Scene,
    seed: int | None = None,
    pictures: Path | None = None,
    log: Callable[[str], None] | None = None,
    inspect: Callable[[World], None] | None = None,
    begin: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run ``scene`` headless with ``seed`` (default: the scene's) and return its report as plain data.

    With ``pictures`` (a folder) a PNG is written after the start and after every timeline entry.
    ``log`` is told each entry's events once it is done (``  1. placed die 5 (red) in (0, 0, 8)``), ``begin``
    each action as it starts (``  1. place die 5 (red) in (0, 0, 8)``: a film's caption while it lasts).
    ``inspect`` is called with the world at the end, before it is closed (to look at poses).
    """
    seed = scene.seed if seed is None else seed
    rng = np.random.default_rng(seed)
    say = log or (lambda text: None)
    wall = time.perf_counter()
    world = World(scene.physics, plate=scene.plate)
    record = RunRecord()
    try:
        record.table = build_start(world, scene.start, rng, reserved_dice(scene))
        report = world.settle(timeout=scene.settle_timeout, raise_on_timeout=False)
        record.at_rest = report.at_rest
        start_rest = record.start_rest = report.time
        say(f"start: {len(world.dice)} dice, at rest after {report.time:.2f} s simulated")
        start_dice, start_poses = world.poses()
        start_readout = world.readout(require_rest=False)
        shots = [_picture(world, pictures, "00_start")] if pictures else []
        for n, step in enumerate(scene.timeline, 1):
            before = len(record.events)
            record.begin = None if begin is None else partial(_numbered, begin, n)
            _perform(world, step, rng, record, scene.settle_timeout)
            for line in record.events[before:]:
                say(f"{n:3d}. {line}")
            if pictures:
                shots.append(_picture(world, pictures, f"{n:02d}_{step.name or step.kind}"))
        final = world.settle(timeout=scene.settle_timeout, raise_on_timeout=False)
        record.rest_times.append(final.time)
        record.at_rest = final.at_rest
        readout = world.readout(require_rest=False)
        measures = _measure(
            scene, world, readout, start_readout, dict(zip(start_dice, start_poses, strict=True)), record
        )
        if pictures:
            shots.append(_picture(world, pictures, "99_end"))
        if inspect is not None:
            inspect(world)
        return {
            "scene": scene.name,
            "source": scene.source,
            "seed": seed,
            "at_rest": record.at_rest,
            "simulated_seconds": round(world.time, 6),
            "start_settle_seconds": round(start_rest, 4),
            "wall_seconds": round(time.perf_counter() - wall, 3),
            "events": record.events,
            "measures": measures,
            "pictures": [str(p) for p in shots],
            "provenance": provenance(),  # the machine and physics stack: like wall_seconds, not part of the result
        }
    finally:
        world.close()


def _numbered(begin: Callable[[str], None], n: int, text: str) -> None:
    begin(f"{n:3d}. {text}")


# -- the start ---------------------------------------------------------------------------------


def start_state(start: Start, rng: np.random.Generator, reserve: Mapping[str, int] | None = None) -> PyramidState:
    """The dice in slots at the start, with colours and faces drawn from ``rng`` where the scene says random.

    Random colours are drawn from the set less ``reserve`` (dice of each colour kept for later).
    """
    cells: dict[geometry.Slot, Cell] = dict(start.notation.cells) if start.notation is not None else {}
    stock = _stock_after(cells)
    reserve = reserve or {}
    groups = [(start.slots, start.colours, start.faces)]
    groups += [(tuple(geometry.small_pyramid(p.dice, p.apex)), p.colours, p.faces) for p in start.small_pyramids]
    for slots, colours, faces in groups:
        for slot in slots:
            colour = _pattern_colour(colours, slot, stock, rng, reserve)
            stock[colour] -= 1
            cells[slot] = Cell(colour, _faces(faces, rng))
    for slot, cell in list(cells.items()):
        if cell.up is None:
            cells[slot] = Cell(cell.colour, _faces(start.faces, rng))
    return PyramidState(cells)


def _stock_after(cells: dict[geometry.Slot, Cell]) -> dict[str, int]:
    stock: dict[str, int] = {}
    for die in DICE:
        stock[die.colour] = stock.get(die.colour, 0) + 1
    for cell in cells.values():
        stock[cell.colour] -= 1
    return stock


def _pattern_colour(
    pattern: str, slot: geometry.Slot, stock: dict[str, int], rng: np.random.Generator, reserve: Mapping[str, int]
) -> str:
    wanted = pattern_colour(pattern, slot)
    if wanted is None:
        # A random colour, weighted by the dice left once those kept for later are set aside.
        left = {c: n - reserve.get(c, 0) for c, n in stock.items()}
        if sum(max(0, n) for n in left.values()) == 0:
            left = stock  # nothing left beyond the reserve: the reserve gives way
        pool = [c for c, n in left.items() if n > 0]
        weights = np.array([left[c] for c in pool], dtype=float)
        wanted = pool[int(rng.choice(len(pool), p=weights / weights.sum()))]
    if stock.get(wanted, 0) <= 0:
        raise ValueError(f"the set has no {wanted} dice left for slot {slot}")
    return wanted


def _faces(spec: str, rng: np.random.Generator) -> geometry.UpFaces:
    if spec == "random":
        return geometry.ALL_UP_FACES[int(rng.integers(24))]
    return (int(spec[0]), int(spec[1]), int(spec[2]))


def build_start(
    world: World, start: Start, rng: np.random.Generator, reserve: Mapping[str, int] | None = None
) -> list[DieId]:
    """Put the starting dice into ``world`` (not yet settled): the pyramid's slots, then the table; the table's dice.

    ``reserve`` holds back dice of each colour from the start's random colours (see ``start_state``).
    """
    state = start_state(start, rng, reserve)
    if state:
        world.build(state)
    ph = world.physics
    table: list[DieId] = []
    for group in start.table:
        for n in range(group.count):
            die = _spare_die(world, group.colour)
            top = group.top if group.top is not None else int(rng.integers(1, 7))
            yaw = rng.uniform(0, 2 * math.pi)
            rotation = _rotation_for_top(top, yaw)
            # Half the box's extent along world z: the body axis that points up.
            axis = int(np.argmax(np.abs(rotation[2])))
            height = ph.edge * ph.proportions[axis] / 2 + 1e-5
            position = (group.at[0] + n * group.spacing, group.at[1], height)
            world.throw(die, position, orientation=geometry.matrix_to_quat(rotation))
            table.append(die)
    return table


def _rotation_for_top(top: int, yaw: float) -> np.ndarray:
    """Body -> world rotation (3, 3) with face ``top`` up, turned by ``yaw`` about the vertical."""
    normal = np.array(geometry.FACE_NORMALS[top], dtype=float)
    side = np.array(geometry.FACE_NORMALS[next(f for f in (1, 2, 3) if f not in (top, 7 - top))], dtype=float)
    # Rows are the body directions that end up along world x, y and z: a proper body -> world rotation.
    body = np.stack([side, np.cross(normal, side), normal])
    turn = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    return turn @ body


# -- the timeline -------------------------------------------------------------------------------


def _spare_die(world: World, colour: str, exclude: list[DieId] | None = None) -> DieId:
    in_play = set(world.dice) | set(exclude or [])
    for die in DICE:
        if die.colour == colour and die.id not in in_play:
            return die.id
    raise ValueError(f"no {colour} die left out of play")


def _perform(world: World, step: Step, rng: np.random.Generator, record: RunRecord, timeout: float) -> None:
    p = step.params
    if step.kind == "wait":
        if p["seconds"] > 0:
            record.starts(f"wait {rounded(p['seconds'])} s")
            world.step(p["seconds"])
            record.events.append(f"waited {rounded(p['seconds'])} s")
            return
        record.starts("wait until the dice are at rest")
        report = world.settle(timeout=p["timeout"], raise_on_timeout=False)
        record.rest_times.append(report.time)
        state = "at rest" if report.at_rest else f"still moving ({len(report.moving)} dice)"
        record.events.append(f"waited {report.time:.2f} s: {state}")
        return
    if step.kind == "pour":
        _pour(world, p, rng, record)
        return
    for _ in range(p.get("count", 1)):
        readout = world.readout(require_rest=False)
        if step.kind == "place":
            _place(world, p, readout, rng, record)
        elif step.kind == "remove":
            _remove(world, p, readout, rng, record)
        elif step.kind == "pull":
            _pull(world, p, readout, rng, record)
        elif step.kind == "attach":
            die = _spare_die(world, p["colour"])
            action = actions.Attach(die, p["cell"], _faces(p["up"], rng), p["drop"], p["scatter"])
            record.starts(f"{action} ({p['colour']})")
            try:
                actions.perform(world, action, rng)
            except OccupiedError as taken:  # as a place into a taken slot: said, and the timeline goes on
                record.events.append(f"attach: {taken}")
                continue
            record.events.append(f"{action} ({p['colour']})")
        elif step.kind == "throw":
            die = _spare_die(world, p["colour"])
            record.starts(f"throw die {die} ({p['colour']}) from {rounded(p['height'])} m")
            world.random_throw(die, rng, p["height"], p["target"], p["speed"], p["spin"], lowest_corner=True)
            record.thrown.append((die, _top_face(world, die)))
            record.events.append(
                f"threw die {die} ({p['colour']}) from {rounded(p['height'])} m, face {_top_face(world, die)} up"
            )
        else:
            _physical(world, step, rng, record)


def _place(world: World, p: Mapping[str, Any], readout: Readout, rng: np.random.Generator, record: RunRecord) -> None:
    if p["slot"] == "open":
        options = readout.pyramid.open_slots()
        if not options:
            record.events.append("place: no open slot")
            return
        slot = options[int(rng.integers(len(options)))]
    else:
        slot = p["slot"]
    if slot in readout.slot_die:
        record.events.append(f"place: {slot} is taken")
        return
    die = _spare_die(world, p["colour"])
    record.starts(f"place die {die} ({p['colour']}) in {slot}")
    world.place(die, slot, _faces(p["up"], rng), drop=p["drop"])
    record.events.append(f"placed die {die} ({p['colour']}) in {slot}")


def _seated_target(
    verb: str, which: Any, readout: Readout, rng: np.random.Generator, record: RunRecord
) -> geometry.Slot | None:
    """The slot a remove or pull acts on: ``which`` is a slot, "apex" or "free" (one at random); None if empty."""
    if which == "free":
        free = readout.pyramid.free_slots()
        if not free:
            record.events.append(f"{verb}: no free die")
            return None
        return free[int(rng.integers(len(free)))]
    slot = (0, 0, 0) if which == "apex" else which
    if slot not in readout.slot_die:
        record.events.append(f"{verb}: no die seated in {slot}")
        return None
    return slot


def _remove(world: World, p: Mapping[str, Any], readout: Readout, rng: np.random.Generator, record: RunRecord) -> None:
    slot = _seated_target("remove", p["slot"], readout, rng, record)
    if slot is None:
        return
    die = readout.slot_die[slot]
    record.starts(f"remove die {die} ({DICE[die].colour}) from {slot}")
    world.remove(die, pull=p["pull"])
    record.removed.add(die)
    record.events.append(f"removed die {die} ({DICE[die].colour}) from {slot}")


def _pull(world: World, p: Mapping[str, Any], readout: Readout, rng: np.random.Generator, record: RunRecord) -> None:
    slot = _seated_target("pull", p["slot"], readout, rng, record)
    if slot is None:
        return
    axis = None if p["axis"] == "out" else p["axis"]
    action = actions.Pull(slot, p["distance"], axis, p["speed"], p["grip"])
    die = readout.slot_die[slot]
    record.starts(f"{action} (die {die}, {DICE[die].colour})")
    actions.perform(world, action, rng)
    record.events.append(f"{action} (die {die}, {DICE[die].colour})")


def _pour(world: World, p: Mapping[str, Any], rng: np.random.Generator, record: RunRecord) -> None:
    dice: list[DieId] = []
    for _ in range(p["count"]):
        dice.append(_spare_die(world, p["colour"], exclude=dice))
    target = (p["target"][0], p["target"][1])
    action = actions.Pour(tuple(dice), target, p["height"], p["azimuth"], p["speed"], p["interval"], p["bowl"])
    record.starts(f"{action} ({p['colour']}: dice {dice[0]} to {dice[-1]})")
    actions.perform(world, action, rng)
    record.events.append(f"{action} ({p['colour']}: dice {dice[0]} to {dice[-1]})")


def _physical(world: World, step: Step, rng: np.random.Generator, record: RunRecord) -> None:
    action_type = physical_action_type(step.kind)
    die = None
    if step.kind == "flick":
        die = _flicked_die(world, step.params["slot"], rng, record)
        if die is None:
            record.events.append(f"flick: no die to flick ({step.params['slot']})")
            return
    action = action_type(**action_fields(step.params, die))
    said = str(action) if die is None else f"{action} ({DICE[die].colour})"
    record.starts(said)
    actions.perform(world, action, rng)
    record.events.append(said)


def _flicked_die(world: World, which: Any, rng: np.random.Generator, record: RunRecord) -> DieId | None:
    readout = world.readout(require_rest=False)
    if which == "thrown":
        return record.thrown[-1][0] if record.thrown else None
    if which == "loose":
        options = [d for d, r in readout.dice.items() if r.status is not Status.SEATED]
    elif which == "table":
        options = [d for d in record.table if d in readout.dice and readout.dice[d].status is not Status.SEATED]
    elif which == "free":
        options = readout.free_dice()
    else:
        slot = (0, 0, 0) if which == "apex" else tuple(which)
        options = [readout.slot_die[slot]] if slot in readout.slot_die else []
    return options[int(rng.integers(len(options)))] if options else None


def _top_face(world: World, die: DieId) -> int:
    """The face whose normal points nearest to +z, read from the die's pose."""
    dice, poses = world.poses()
    rotation = geometry.quat_to_matrix(poses[dice.index(die), 3:])[0]
    return int(geometry.faces_along(rotation[2]))


# -- measures ---------------------------------------------------------------------------------


def _measure(
    scene: Scene,
    world: World,
    readout: Readout,
    start: Readout,
    start_poses: dict[DieId, np.ndarray],
    record: RunRecord,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    wanted = set(scene.measures)
    if "readout" in wanted:
        out["seated"] = len(readout.seated())
        out["lying"] = sum(r.status is Status.LYING for r in readout.dice.values())
        out["cocked"] = len(readout.cocked())
        out["off_plate"] = len(readout.off_plate()) if scene.plate else 0
        out["off_table"] = sum(_off_table(r) for r in readout.dice.values())
        out["pyramid"] = readout.notation()
    if "score" in wanted:
        counts = readout.face_count()
        out["faces"] = {colour: counts.get(colour, 0) for colour in sorted(counts)}
        out["faces_total"] = sum(counts.values())
        out["pips"] = readout.pyramid.pip_sum()  # the pips on those faces: a seated die's faces are read from its pose
    if "moved" in wanted or "fallen" in wanted:
        dice, poses = world.poses()
        now = dict(zip(dice, poses, strict=True))
        kept = [d for d in start_poses if d in now]
        moved = [d for d in kept if _has_moved(start_poses[d], now[d], world.physics.edge)]
        if "moved" in wanted:
            out["moved"] = len(moved)
        if "fallen" in wanted:
            was_seated = [r.die for r in start.seated() if r.die in now]
            out["fallen"] = sum(readout.dice[d].status is not Status.SEATED for d in was_seated)
    if "time_to_rest" in wanted:
        out["time_to_rest"] = round(sum(record.rest_times), 4)  # after the start: the timeline's waits
        out["start_time_to_rest"] = round(record.start_rest, 4)  # building the start
        out["at_rest"] = record.at_rest
    if "thrown" in wanted:
        out["thrown"] = [_thrown(readout, die, start_top, scene.plate) for die, start_top in record.thrown]
    return out


def _has_moved(before: np.ndarray, after: np.ndarray, edge: float) -> bool:
    shift = float(np.linalg.norm(after[:3] - before[:3])) / edge
    turn = math.degrees(float((Rotation.from_quat(after[3:]) * Rotation.from_quat(before[3:]).inv()).magnitude()))
    return shift > TOL.moved_shift or turn > TOL.moved_turn


def _off_table(reading: DieReading) -> bool:
    """A die whose centre is below the table top has rolled off the table onto the floor."""
    return reading.position[2] < 0.0


def _thrown(readout: Readout, die: DieId, start_top: int, plate: bool) -> dict[str, Any]:
    """What became of a thrown die; one that rolled off the table shows nothing (top and kept_top None)."""
    r = readout.dice[die]
    where = {"on_plate": r.on_plate} if plate else {}
    gone = _off_table(r)
    return {
        "die": die,
        "start_top": start_top,
        "top": None if gone else r.top,
        "kept_top": None if gone or r.top is None else r.top == start_top,
        "status": "off_table" if gone else r.status.value,
        "slot": list(r.slot) if r.slot is not None else None,
        **where,
    }


# -- output -----------------------------------------------------------------------------------


def _picture(world: World, folder: Path, name: str) -> Path:
    return save_picture(world, folder / f"{name}.png", width=640, height=480)


def report_text(report: dict[str, Any]) -> str:
    """A scene run's report as lines for the terminal (``summaries.summary_text`` is an experiment's)."""
    lines = [
        f"scene {report['scene']} ({report['source']}), seed {report['seed']}",
        f"simulated {report['simulated_seconds']:.2f} s in {report['wall_seconds']:.2f} s wall; "
        + ("all at rest" if report["at_rest"] else "NOT all at rest at the end"),
    ]
    if "provenance" in report:
        lines.append(f"on {summary_line(report['provenance'])}")
    lines += [f"  {event}" for event in report["events"]]
    for key, value in report["measures"].items():
        if key == "thrown":
            for t in value:
                top = "cocked" if t["top"] is None else f"shows {t['top']}"
                if t["status"] == "seated":
                    top = f"seated in slot {tuple(t['slot'])}"
                lines.append(f"  thrown die {t['die']}: {t['start_top']} up at release, {top} ({t['status']})")
        else:
            shown = rounded(value) if isinstance(value, float) else value  # for people; the JSON keeps every digit
            lines.append(f"  {key:<18} {json.dumps(value) if isinstance(value, dict) else shown}")
    return "\n".join(lines)
