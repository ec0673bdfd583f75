"""Meshes, textures and URDF files of the plate and the dice, made from the lattice by trimesh.

``pyramid assets --out DIR`` writes them for other tools; the world makes its own copy on first use.
Lengths are metres.
"""

from __future__ import annotations

import atexit
import itertools
import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
import trimesh
from PIL import Image, ImageDraw

from pyramid import geometry
from pyramid.dice import COLOURS, EDGE, PIP_COLOUR, Colour, die_mass

CELL = 128  # pixels of one face in the texture atlas
ATLAS_COLUMNS = 4  # cells 0..5 show faces 1..6, cell 6 is the plain body colour
CHAMFER = 0.08  # edges: how far the rounded edges of a die reach into each face
PLATE_RGBA = (184, 188, 194, 255)

# Pip centres on a face, in face coordinates from -1 to 1.
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(-0.5, -0.5), (0.5, 0.5)],
    3: [(-0.5, -0.5), (0, 0), (0.5, 0.5)],
    4: [(-0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (0.5, -0.5)],
    5: [(-0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (0.5, -0.5), (0, 0)],
    6: [(-0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (0.5, -0.5), (-0.5, 0), (0.5, 0)],
}


def _cell_uv(cell: int) -> tuple[float, float, float, float]:
    """UV rectangle (u0, v0, u1, v1) of an atlas cell; v runs upward as in OBJ files."""
    col, row = cell % ATLAS_COLUMNS, cell // ATLAS_COLUMNS
    rows = 2
    return col / ATLAS_COLUMNS, 1 - (row + 1) / rows, (col + 1) / ATLAS_COLUMNS, 1 - row / rows


def die_texture(colour: Colour) -> Image.Image:
    """The texture atlas (512 x 256 RGBA) of a die of ``colour``: six faces with pips, one plain cell."""
    body = tuple(round(255 * c) for c in COLOURS[colour][1])
    pip = tuple(round(255 * c) for c in PIP_COLOUR[colour])
    image = Image.new("RGBA", (CELL * ATLAS_COLUMNS, CELL * 2), body)
    draw = ImageDraw.Draw(image)
    radius = CELL * 0.09
    for value, centres in PIPS.items():
        col, row = (value - 1) % ATLAS_COLUMNS, (value - 1) // ATLAS_COLUMNS
        x0, y0 = col * CELL + CELL / 2, row * CELL + CELL / 2
        for u, v in centres:
            x, y = x0 + u * CELL * 0.36, y0 - v * CELL * 0.36
            draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=pip)
    return image


def die_mesh(edge: float = EDGE, chamfer: float = CHAMFER) -> trimesh.Trimesh:
    """A die with chamfered (rounded-looking) edges and UVs into the texture atlas of ``die_texture``.

    Body axes as in ``geometry.FACE_NORMALS``: face 1 along +x, 2 along +y, 3 along +z.
    """
    h = edge / 2
    inner = h - chamfer * edge
    verts: list[np.ndarray] = []
    uvs: list[tuple[float, float]] = []
    faces: list[list[int]] = []
    plain = _cell_uv(6)
    plain_uv = ((plain[0] + plain[2]) / 2, (plain[1] + plain[3]) / 2)

    def corner(axis: int, sign: int, sb: int, sc: int) -> np.ndarray:
        b, c = (axis + 1) % 3, (axis + 2) % 3
        p = np.zeros(3)
        p[axis], p[b], p[c] = sign * h, sb * inner, sc * inner
        return p

    def add_polygon(points: list[np.ndarray], uv: list[tuple[float, float]]) -> None:
        start = len(verts)
        verts.extend(points)
        uvs.extend(uv)
        centre = np.mean(points, axis=0)
        for k in range(1, len(points) - 1):
            tri = [start, start + k, start + k + 1]
            normal = np.cross(points[k] - points[0], points[k + 1] - points[0])
            # Wind every triangle so that its normal points away from the die's centre.
            faces.append(tri if normal @ centre > 0 else tri[::-1])

    for value, normal in geometry.FACE_NORMALS.items():
        axis = int(np.flatnonzero(normal)[0])
        sign = int(normal[axis])
        u0, v0, u1, v1 = _cell_uv(value - 1)
        quad = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        add_polygon(
            [corner(axis, sign, sb, sc) for sb, sc in quad],
            [((u0 + u1) / 2 + sb * (u1 - u0) / 2, (v0 + v1) / 2 + sc * (v1 - v0) / 2) for sb, sc in quad],
        )
    # The twelve edge strips and eight corner triangles take the plain body colour.
    for a, b in ((0, 1), (1, 2), (2, 0)):
        c = 3 - a - b
        for sa, sb in itertools.product((-1, 1), repeat=2):
            pts = []
            for sc in (-1, 1):
                p = np.zeros(3)
                p[a], p[b], p[c] = sa * h, sb * inner, sc * inner
                q = np.zeros(3)
                q[a], q[b], q[c] = sa * inner, sb * h, sc * inner
                pts += [p, q]
            add_polygon([pts[0], pts[1], pts[3], pts[2]], [plain_uv] * 4)
    for signs in itertools.product((-1, 1), repeat=3):
        pts = []
        for axis in range(3):
            p = np.array(signs, dtype=float) * inner
            p[axis] = signs[axis] * h
            pts.append(p)
        add_polygon(pts, [plain_uv] * 3)
    mesh = trimesh.Trimesh(np.array(verts), np.array(faces), process=False)
    mesh.visual = trimesh.visual.TextureVisuals(uv=np.array(uvs))
    return mesh


def rounded_box_points(half: np.ndarray, radius: float, segments: int) -> np.ndarray:
    """Points (n, 3) whose convex hull is a box of half extents ``half`` (3,) rounded by ``radius``.

    Each corner is an octant of a sphere of ``radius`` sampled with ``segments`` steps per quarter circle; the
    hull of the eight octants is the rounded box, with flat faces, cylindrical edges and spherical corners.
    """
    steps = np.linspace(0.0, np.pi / 2, segments + 1)
    # Unit directions of one octant: every pair of a polar and an azimuthal step.
    polar, azimuth = np.meshgrid(steps, steps, indexing="ij")
    octant = np.stack(
        [np.cos(polar) * np.cos(azimuth), np.cos(polar) * np.sin(azimuth), np.sin(polar)], axis=-1
    ).reshape(-1, 3)
    centres = np.asarray(half, dtype=float) - radius
    points = [np.array(signs) * (centres + radius * octant) for signs in itertools.product((-1, 1), repeat=3)]
    # Octant samples repeat at the poles: keep each point once.
    return np.unique(np.round(np.concatenate(points), 12), axis=0)


def rounded_box_volume(half: np.ndarray, radius: float) -> float:
    """Volume (m^3) of a box of half extents ``half`` (3,) with edges and corners rounded by ``radius``."""
    inner = 2 * (np.asarray(half, dtype=float) - radius)
    # The core box, three slabs over its faces, twelve quarter cylinders along its edges, eight sphere octants.
    faces = 2 * radius * (inner[0] * inner[1] + inner[1] * inner[2] + inner[2] * inner[0])
    edges = np.pi * radius**2 * float(inner.sum())
    return float(np.prod(inner)) + faces + edges + 4 / 3 * np.pi * radius**3


def _scratch_folder(prefix: str) -> Path:
    """A new temporary folder that is removed when this process exits (each process writes its own)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def convex_obj_file(name: str, vertices: tuple[tuple[float, float, float], ...]) -> Path:
    """An OBJ file of the convex hull of ``vertices`` (m), for PyBullet shapes with polyhedral features."""
    hull = trimesh.convex.convex_hull(np.array(vertices))
    path = _scratch_folder("pyramid-hull-") / f"{name}.obj"
    path.write_text(
        "".join(f"v {x:.9f} {y:.9f} {z:.9f}\n" for x, y, z in hull.vertices)
        + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in hull.faces)
    )
    return path


def rounded_hull_file(half: np.ndarray, radius: float, segments: int) -> Path:
    """An OBJ file of the convex hull of ``rounded_box_points`` (PyBullet reads polyhedral features from files)."""
    points = rounded_box_points(half, radius, segments)
    return convex_obj_file("rounded_die", tuple(tuple(float(x) for x in p) for p in points))


def unit_cube_file() -> Path:
    """An OBJ file of the cube of side 1 about the origin (scaled into boxes with polyhedral features)."""
    corners = tuple(tuple(0.5 * s for s in signs) for signs in itertools.product((-1.0, 1.0), repeat=3))
    return convex_obj_file("cube", corners)


def plate_mesh(edge: float = EDGE) -> trimesh.Trimesh:
    """The base plate: a triangular slab whose top carries the 45 funnels, one watertight mesh."""
    vertices, tris = geometry.slab_prism()
    slab = trimesh.Trimesh(vertices * edge, tris)
    cubes = []
    rotation = np.eye(4)
    rotation[:3, :3] = geometry.CUBE_TO_PLATE
    for centre in geometry.PLATE_CUBE_CENTRES * edge:
        box = trimesh.creation.box(extents=[edge] * 3, transform=rotation)
        box.apply_translation(centre)
        cubes.append(box)
    try:
        mesh = trimesh.boolean.union([slab, *cubes])
    except (ImportError, ValueError):
        # Without a boolean engine the pieces overlap: fine for pictures, not watertight.
        mesh = trimesh.util.concatenate([slab, *cubes])
    mesh.visual = trimesh.visual.ColorVisuals(mesh, face_colors=PLATE_RGBA)
    return mesh


def _urdf(name: str, mesh_file: str, mass: float, edge: float, box: bool) -> str:
    inertia = mass * edge**2 / 6 if mass else 0.0
    collision = (
        f'<geometry><box size="{edge} {edge} {edge}"/></geometry>'
        if box
        else f'<geometry><mesh filename="{mesh_file}"/></geometry>'
    )
    return f"""<?xml version="1.0"?>
<robot name="{name}">
  <link name="{name}">
    <inertial>
      <mass value="{mass}"/>
      <inertia ixx="{inertia}" ixy="0" ixz="0" iyy="{inertia}" iyz="0" izz="{inertia}"/>
    </inertial>
    <visual><geometry><mesh filename="{mesh_file}"/></geometry></visual>
    <collision>{collision}</collision>
  </link>
</robot>
"""


def write_assets(out: str | Path, edge: float = EDGE) -> list[Path]:
    """Write every asset into ``out``: die OBJ/STL + textures, plate OBJ/STL, URDFs. Returns the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    die = die_mesh(edge)
    obj = out / "die.obj"
    obj.write_text(_obj_with_uv(die))
    paths.append(obj)
    stl = out / "die.stl"  # the shape alone, for printers and CAD (the pips are in the textures)
    die.export(stl)
    paths.append(stl)
    for colour in COLOURS:
        png = out / f"die_{colour}.png"
        die_texture(colour).save(png)
        paths.append(png)
    plate = plate_mesh(edge)
    for suffix in ("obj", "stl"):
        path = out / f"plate.{suffix}"
        plate.export(path)
        paths.append(path)
    for name, text in (
        ("die.urdf", _urdf("die", "die.obj", die_mass(edge), edge, box=True)),
        ("plate.urdf", _urdf("plate", "plate.obj", 0.0, edge, box=False)),
    ):
        path = out / name
        path.write_text(text)
        paths.append(path)
    return paths


def _obj_with_uv(mesh: trimesh.Trimesh) -> str:
    """Wavefront OBJ text with positions, UVs and faces (no material: the renderer takes a texture)."""
    assert isinstance(mesh.visual, trimesh.visual.TextureVisuals)
    lines = ["# die of the dice pyramid; faces 1, 2, 3 along +x, +y, +z"]
    lines += [f"v {x:.7f} {y:.7f} {z:.7f}" for x, y, z in mesh.vertices]
    lines += [f"vt {u:.5f} {v:.5f}" for u, v in mesh.visual.uv]
    lines += [f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}" for a, b, c in mesh.faces]
    return "\n".join(lines) + "\n"


@cache
def cached_assets(edge: float = EDGE) -> Path:
    """A folder with freshly written assets for this process (the world's visuals load from it)."""
    folder = _scratch_folder("pyramid-assets-")
    write_assets(folder, edge)
    return folder
