"""Meshes and files of the plate and the dice: the funnels match the lattice, and `pyramid assets` reproduces them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pybullet as pb
import pytest
from PIL import Image

from pyramid import geometry as g
from pyramid.dice import EDGE
from pyramid.physics.assets import die_mesh, plate_mesh, write_assets

ASSETS = Path(__file__).resolve().parent.parent / "assets"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("assets")
    write_assets(out)
    return out


def test_the_plate_funnels_sit_exactly_under_the_base_slots() -> None:
    plate = plate_mesh()
    assert plate.is_watertight
    vertices = plate.vertices
    for xy in g.slot_centres(g.BASE_SLOTS)[:, :2] * EDGE:
        # Straight below each base slot's centre lies the bottom of its funnel, where the die's lowest
        # corner rests: a vertex of the surface, the lowest one around it.
        near = np.linalg.norm(vertices[:, :2] - xy, axis=1) < 0.4 * EDGE
        top_near = vertices[near & (vertices[:, 2] > g.SLAB_TOP * EDGE + 1e-9)]
        assert np.linalg.norm(top_near[:, :2] - xy, axis=1).min() < 1e-7  # manifold works in float32
        assert top_near[:, 2].min() == pytest.approx(g.FUNNEL_BOTTOM * EDGE, abs=1e-7)
    # Between funnels the surface rises to the peaks of the cubes of the virtual tenth layer.
    assert plate.bounds[1][2] == pytest.approx((g.PLATE_CUBE_CENTRES[:, 2].max() + np.sqrt(3) / 2) * EDGE)


def test_the_die_mesh_is_a_rounded_cube_of_one_edge() -> None:
    die = die_mesh()
    np.testing.assert_allclose(die.bounds, [[-EDGE / 2] * 3, [EDGE / 2] * 3], atol=1e-12)
    assert 0.9 * EDGE**3 < abs(die.volume) < EDGE**3


def test_the_command_reproduces_the_committed_assets(fresh: Path) -> None:
    for name in ("die.obj", "die.urdf", "plate.urdf", "plate.obj"):
        assert (fresh / name).read_text() == (ASSETS / name).read_text(), name
    for colour in ("red", "green", "black", "blue", "gold"):
        a = np.asarray(Image.open(fresh / f"die_{colour}.png"))
        b = np.asarray(Image.open(ASSETS / f"die_{colour}.png"))
        assert (a == b).all(), colour


def test_the_urdf_files_load_in_pybullet() -> None:
    client = pb.connect(pb.DIRECT)
    try:
        die = pb.loadURDF(str(ASSETS / "die.urdf"), physicsClientId=client)
        plate = pb.loadURDF(str(ASSETS / "plate.urdf"), useFixedBase=True, physicsClientId=client)
        assert pb.getDynamicsInfo(die, -1, physicsClientId=client)[0] == pytest.approx(1180 * EDGE**3)
        lo, hi = pb.getAABB(plate, -1, physicsClientId=client)
        # PyBullet pads a mesh's bounding box by its collision margin.
        assert hi[2] == pytest.approx(plate_mesh().bounds[1][2], abs=4e-3)
    finally:
        pb.disconnect(client)


def test_a_process_removes_the_asset_folders_it_wrote_when_it_exits() -> None:
    import subprocess
    import sys

    script = (
        "from pyramid.physics import assets\n"
        "import numpy as np\n"
        "print(assets.cached_assets())\n"
        "print(assets.convex_obj_file('probe', tuple(map(tuple, np.eye(3).tolist() + [[0.0, 0.0, 0.0]]))).parent)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    folders = [Path(line) for line in out.split()]
    assert len(folders) == 2 and all(f.name.startswith("pyramid-") for f in folders)
    assert not any(f.exists() for f in folders), f"left behind: {[str(f) for f in folders if f.exists()]}"
