"""Going back to a table: the world's snapshot and restore (the window's undo), and table files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pyramid import geometry
from pyramid.physics.tables import Table, TableFileError, load_table, next_free, save_table
from pyramid.physics.world import Physics, World
from pyramid.state import Cell, PyramidState


def small_world(local: bool) -> World:
    """A 10-die corner pyramid, settled."""
    world = World(Physics(local=local))
    world.build(PyramidState({s: Cell("red", (1, 2, 3)) for s in geometry.small_pyramid(10, (6, 0, 0))}))
    world.settle()
    return world


@pytest.mark.parametrize("local", [False, True])
def test_restore_takes_back_a_lift_and_a_throw(local: bool) -> None:
    world = small_world(local)
    try:
        before = world.snapshot()
        readout = world.readout()
        top = readout.slot_die[(6, 0, 0)]
        world.remove(top)
        world.throw(200, (0.0, 0.0, 0.12), velocity=(0.1, 0.0, -0.5), spin=(3.0, 1.0, 0.0))
        world.settle()
        assert top not in world.dice and 200 in world.dice
        world.restore(before)
        assert world.dice == list(before.dice)
        _, poses = world.poses()
        assert np.abs(poses - before.poses).max() < 1e-9
        world.settle()  # the pyramid stands again as it stood: every die in its slot, faces as before
        assert world.readout().pyramid == readout.pyramid
        assert np.abs(world.poses()[1][:, :3] - before.poses[:, :3]).max() < 0.02 * world.physics.edge
    finally:
        world.close()


def test_restore_refuses_another_edge_and_a_die_twice() -> None:
    world = World()
    try:
        table = world.snapshot()
        other = Table((), np.zeros((0, 7)), np.zeros((0, 6)), table.plate, edge=0.032)
        with pytest.raises(ValueError, match="edge of 0.032 m, this world's 0.016 m"):
            world.restore(other)
        pose = np.array([[0, 0, 0.1, 0, 0, 0, 1.0]] * 2)
        with pytest.raises(ValueError, match="names a die twice"):
            world.restore(Table((3, 3), pose, np.zeros((2, 6)), table.plate, table.edge))
    finally:
        world.close()


def test_a_table_file_round_trips_and_keeps_the_notation(tmp_path: Path) -> None:
    world = small_world(local=False)
    try:
        table, readout = world.snapshot(), world.readout()
        path = save_table(table, tmp_path / "table.json", readout.notation())
        loaded = load_table(path)
        assert loaded.dice == table.dice and np.array_equal(loaded.poses, table.poses)
        assert np.array_equal(loaded.plate, table.plate) and loaded.edge == table.edge
        assert json.loads(path.read_text())["notation"] == readout.notation()
        world.remove(world.dice[0], pull=False)
        world.restore(loaded)
        world.settle()
        assert world.readout().pyramid == readout.pyramid
    finally:
        world.close()
    assert next_free(tmp_path / "table.json") == tmp_path / "table-2.json"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "must hold a JSON object"),
        ('{"format": "other"}', "format: must be 'pyramid-table 1'"),
        ('{"format": "pyramid-table 1", "edge": 0.016, "plate": [0, 0, 0]}', "plate: must be a list of 7 numbers"),
        (
            '{"format": "pyramid-table 1", "edge": 0.016, "plate": [0, 0, 0, 0, 0, 0, 1], "dice": {"300": {}}}',
            r"dice.300: a die number is 0 to 280",
        ),
        (
            '{"format": "pyramid-table 1", "edge": 0.016, "plate": [0, 0, 0, 0, 0, 0, 1],'
            ' "dice": {"4": {"pose": [0, 0, 0.1, 0, 0, 0, 2]}}}',
            r"dice.4.pose: its last 4 numbers are a rotation",
        ),
        ("{nope", "not valid JSON"),
    ],
)
def test_a_bad_table_file_is_refused_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(TableFileError, match=message) as caught:
        load_table(path)
    assert str(path) in str(caught.value)
    with pytest.raises(TableFileError, match="no such file"):
        load_table(tmp_path / "missing.json")
