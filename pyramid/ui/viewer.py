"""The pyglet window on top of the world: one batch, one model per body, a clock that copies poses.

Sits above the world and the Match: the window only draws what the world's poses say and turns
a person's input into the same actions a script performs (``pyramid.ui.player``). ``Stage``
draws into a window or, for headless pictures, into an offscreen framebuffer (``pyramid.ui.film``).
"""

from __future__ import annotations

import ctypes
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyglet
from PIL import Image
from pyglet import gl
from pyglet.math import Mat4
from scipy.spatial.transform import Rotation

from pyramid import geometry
from pyramid.dice import COLOURS, DICE, EDGE, Colour
from pyramid.physics import assets
from pyramid.physics.hands import jet_half_width
from pyramid.physics.render import view_points
from pyramid.physics.tables import Table, next_free, save_table
from pyramid.state import PyramidState
from pyramid.tolerances import TOL
from pyramid.ui.camera import OrbitCamera
from pyramid.ui.marks import Bar, Guide, Mark
from pyramid.ui.overlay import FADED, covered, draw_guides, seen_points

if TYPE_CHECKING:
    from pyramid.physics.world import World

# Per vertex: a mesh's position, normal and texture coordinates; per instance (one copy of the mesh):
# its model matrix (four columns) and a tint. Every face drawn (a die's, the plate's, the table's) is
# flat, so lighting each vertex is exact for the diffuse light and leaves each pixel one texture look-up
# and a multiply: cheap enough for a software renderer (llvmpipe) to draw 281 dice smoothly.
# A key light from above the camera's left shoulder, a cool fill from the other side, a sky/ground
# ambient and a small highlight: the three faces of a corner-down die get three distinct shades.
VERTEX_SHADER = """#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 tex_coords;
layout(location = 3) in vec4 column0;
layout(location = 4) in vec4 column1;
layout(location = 5) in vec4 column2;
layout(location = 6) in vec4 column3;
layout(location = 7) in vec4 tint;
uniform mat4 view_projection;
uniform vec3 light;
uniform vec3 eye;
uniform bool shadow;  // the shadow pass: the mesh flattened onto the table along the light, lit as the table
uniform mat4 shadow_matrix;
out vec2 v_uv;
out vec4 v_tint;
out vec3 v_light;
out vec3 v_shine;
const vec3 GAMMA = vec3(1.0 / 1.15);
void main() {
    mat4 model = mat4(column0, column1, column2, column3);
    vec4 world = model * vec4(position, 1.0);
    vec3 n = normalize(mat3(model) * normal);
    if (shadow) {
        world = shadow_matrix * world;
        n = vec3(0.0, 0.0, 1.0);
    }
    vec3 fill_dir = normalize(vec3(-light.x, -light.y, 0.5));
    float key = max(dot(n, light), 0.0);
    float fill = max(dot(n, fill_dir), 0.0);
    vec3 ambient = mix(vec3(0.16, 0.14, 0.13), vec3(0.30, 0.32, 0.36), 0.5 + 0.5 * n.z);
    vec3 h = normalize(light + normalize(eye - world.xyz));
    v_light = pow(ambient + 0.78 * key + vec3(0.20, 0.22, 0.26) * fill, GAMMA);
    v_shine = shadow ? vec3(0.0) : vec3(pow(max(dot(n, h), 0.0), 40.0) * 0.22);
    v_tint = vec4(pow(tint.rgb, GAMMA), tint.a);
    v_uv = tex_coords;
    gl_Position = view_projection * world;
}
"""

FRAGMENT_SHADER = """#version 330 core
in vec2 v_uv;
in vec4 v_tint;
in vec3 v_light;
in vec3 v_shine;
uniform sampler2D texture0;
uniform bool textured;  // false: the plate and the table, plain colours (no texture look-up to pay for)
out vec4 colour;
void main() {
    vec4 base = (textured ? texture(texture0, v_uv) : vec4(1.0)) * v_tint;
    float glow = max(v_tint.a - 1.0, 0.0);  // a tint's alpha above 1 lights the die up (a die a breath moved)
    colour = vec4(base.rgb * v_light + v_shine + glow * vec3(0.55, 0.45, 0.05), min(base.a, 1.0));
}
"""

BACKGROUND = (0.80, 0.84, 0.88, 1.0)
TABLE_RGBA = (0.62, 0.47, 0.32, 1.0)
TABLE_HALF = 0.45  # metres: the table drawn is 0.9 m square
GHOST_ALPHA = 0.55
JET_RGBA = (0.55, 0.75, 1.0, 0.22)  # the breath drawn: pale blue, mostly see-through
JET_LENGTH = 0.12  # metres of jet drawn from the mouth
MOVED_TINT = (1.0, 1.0, 1.0, 1.7)  # dice a breath moved: lit up yellow for a moment (alpha above 1: a glow)
SHADOW_SHADE = 0.62  # a shadow on the table: the table's colour times this (the key light blocked, the rest not)
SHADOW_LIFT = 0.0003  # metres above the table the shadows are drawn (clear of its surface in the depth test)
SHADOW_ELEVATION = 55.0  # degrees: how high the light casting shadows stands (a shadow 0.7 times as long as tall)
WHITE = (1.0, 1.0, 1.0, 1.0)
PANEL_RGBA = (246, 246, 242, 215)  # the panel behind the window's text: nearly white, a little see-through
PANEL_PAD = 6  # pixels of panel around the text
MARK_RGBA = (250, 250, 245, 190)  # the small panel behind a mark
QUIT_AGAIN = 2.0  # seconds: a second Esc within this quits the window
STILL = 0.3  # seconds the view must stand still before a software renderer smooths its edges
UNDO_DEPTH = 50  # tables kept for Ctrl+Z: the world before each of a person's last 50 actions
SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)  # the paces + and - step through, times real time


def to_mat4(matrix: np.ndarray) -> Mat4:
    """A row-major numpy matrix (4, 4) as pyglet's column-major Mat4."""
    return Mat4(*np.asarray(matrix, dtype=float).T.ravel().tolist())


def pose_matrices(poses: np.ndarray) -> np.ndarray:
    """Poses (n, 7) (position, quaternion x y z w) to model matrices (n, 4, 4)."""
    poses = np.asarray(poses, dtype=float).reshape(-1, 7)
    out = np.tile(np.eye(4), (len(poses), 1, 1))
    if len(poses):
        out[:, :3, :3] = geometry.quat_to_matrix(poses[:, 3:])
        out[:, :3, 3] = poses[:, :3]
    return out


def state_matrices(state: PyramidState, edge: float = EDGE) -> tuple[list[Colour], np.ndarray]:
    """Colours and model matrices (n, 4, 4) of the dice of ``state`` seated exactly (plate untilted)."""
    slots = list(state)
    out = np.tile(np.eye(4), (len(slots), 1, 1))
    for n, slot in enumerate(slots):
        out[n, :3, :3] = geometry.seated_rotation(state[slot].up or (1, 2, 3))
        out[n, :3, 3] = geometry.slot_centre(slot) * edge
    return [state[s].colour for s in slots], out


def jet_cone(length: float, segments: int = 24) -> np.ndarray:
    """The breath's cone along +z from the mouth: as wide as the jet (``hands.jet_half_width``) out to ``length``."""
    rings = np.linspace(0.0, length, 7)
    angles = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    radius = np.asarray(jet_half_width(rings))
    points = np.array(
        [[r * math.cos(a), r * math.sin(a), d] for d, r in zip(rings, radius, strict=True) for a in angles]
    )
    faces = []
    for ring in range(len(rings) - 1):
        for k in range(segments):
            a, b = ring * segments + k, ring * segments + (k + 1) % segments
            faces += [[a, b, b + segments], [a, b + segments, a + segments]]
    return _flat_mesh(points, np.array(faces))


def shadow_matrix(light: np.ndarray, height: float, elevation: float = SHADOW_ELEVATION) -> np.ndarray:
    """The 4x4 matrix that flattens world points onto the plane z = ``height`` along a light from ``light``'s side.

    The shadows' light stands ``elevation`` degrees above the horizon in the azimuth of ``light`` (the
    key light, which turns with the camera): shadows of a steady length, on the side away from it.
    """
    light = np.asarray(light, dtype=float)
    azimuth = math.atan2(light[1], light[0]) if np.hypot(light[0], light[1]) > 1e-6 else math.radians(-120.0)
    ratio = 1.0 / math.tan(math.radians(elevation))  # horizontal run per unit of height
    x, y = ratio * math.cos(azimuth), ratio * math.sin(azimuth)
    return np.array([[1.0, 0.0, -x, height * x], [0.0, 1.0, -y, height * y], [0.0, 0.0, 0.0, height], [0, 0, 0, 1.0]])


def instances(matrices: np.ndarray, tints: np.ndarray | Sequence[float]) -> np.ndarray:
    """Instance rows (n, 20) float32: each model matrix (n, 4, 4) column by column, then its tint (n, 4)."""
    matrices = np.asarray(matrices, dtype=np.float32).reshape(-1, 4, 4)
    columns = matrices.transpose(0, 2, 1).reshape(len(matrices), 16)
    return np.hstack([columns, np.broadcast_to(np.asarray(tints, dtype=np.float32), (len(matrices), 4))])


def _texture(image: Image.Image, gamma: float = 1 / 1.15) -> pyglet.image.Texture:
    """A mipmapped GL texture of a PIL image, its colours raised to ``gamma`` (the shader lights them linearly).

    Rows run top to bottom in the image, so v runs upward as in OBJ files.
    """
    rgba = np.asarray(image.convert("RGBA"), dtype=float)
    rgba[..., :3] = 255 * (rgba[..., :3] / 255) ** gamma
    height, width = rgba.shape[:2]
    raw = np.round(rgba).astype(np.uint8).tobytes()
    data = pyglet.image.ImageData(width, height, "RGBA", raw, pitch=-width * 4)
    texture = data.get_texture()
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glBindTexture(texture.target, texture.id)
    gl.glGenerateMipmap(texture.target)
    gl.glTexParameteri(texture.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
    gl.glTexParameteri(texture.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
    return texture


def _flat_mesh(vertices: np.ndarray, faces: np.ndarray, uv: np.ndarray | None = None) -> np.ndarray:
    """Vertex rows (3 m, 8) float32 of a triangle mesh: position, one normal per triangle, texture coordinates."""
    corners = vertices[faces].reshape(-1, 3)
    # Each triangle's normal, repeated for its three corners.
    normals = np.repeat(np.cross(corners[1::3] - corners[0::3], corners[2::3] - corners[0::3]), 3, axis=0)
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    tex = uv[faces].reshape(-1, 2) if uv is not None else np.full((len(corners), 2), 0.5)
    return np.hstack([corners, normals, tex]).astype(np.float32)


class InstancedMesh:
    """A triangle mesh drawn any number of times in one call, each copy with its own model matrix and tint.

    Owns a vertex array object of the current GL context: the mesh's vertices, and a buffer of
    instance rows (see ``instances``) refilled at each draw.
    """

    def __init__(self, vertices: np.ndarray) -> None:
        self.count = len(vertices)
        self.vao = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        self.buffers = (gl.GLuint * 2)()
        gl.glGenBuffers(2, self.buffers)
        gl.glBindVertexArray(self.vao)
        data = np.ascontiguousarray(vertices, dtype=np.float32)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.buffers[0])
        gl.glBufferData(gl.GL_ARRAY_BUFFER, data.nbytes, data.ctypes.data, gl.GL_STATIC_DRAW)
        for location, size, offset in ((0, 3, 0), (1, 3, 3), (2, 2, 6)):
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, 32, ctypes.c_void_p(4 * offset))
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.buffers[1])
        for k in range(5):  # the four columns of the model matrix, then the tint
            gl.glEnableVertexAttribArray(3 + k)
            gl.glVertexAttribPointer(3 + k, 4, gl.GL_FLOAT, gl.GL_FALSE, 80, ctypes.c_void_p(16 * k))
            gl.glVertexAttribDivisor(3 + k, 1)
        gl.glBindVertexArray(0)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)

    def draw(self, rows: np.ndarray) -> None:
        """Draw one copy of the mesh per instance row (n, 20)."""
        if len(rows) == 0:
            return
        data = np.ascontiguousarray(rows, dtype=np.float32)
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.buffers[1])
        gl.glBufferData(gl.GL_ARRAY_BUFFER, data.nbytes, data.ctypes.data, gl.GL_STREAM_DRAW)
        gl.glDrawArraysInstanced(gl.GL_TRIANGLES, 0, self.count, len(data))
        gl.glBindVertexArray(0)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)


class Stage:
    """Everything drawn in 3-D: the table, the plate and the dice, one instanced draw call per colour.

    Needs a current GL context (a window, visible or headless). ``show`` takes model matrices (or
    ``show_world`` the world's poses); ``draw`` and ``capture`` draw them from an orbit camera.
    """

    def __init__(self, edge: float = EDGE, plate: bool = True) -> None:
        self.edge = edge
        self.has_plate = plate
        self.program = pyglet.graphics.shader.ShaderProgram(
            pyglet.graphics.shader.Shader(VERTEX_SHADER, "vertex"),
            pyglet.graphics.shader.Shader(FRAGMENT_SHADER, "fragment"),
        )
        die = assets.die_mesh(edge)
        uv = np.asarray(die.visual.uv)  # type: ignore[union-attr]
        self.die = InstancedMesh(_flat_mesh(np.asarray(die.vertices), np.asarray(die.faces), uv))
        self.textures = {c: _texture(assets.die_texture(c)) for c in COLOURS}
        table = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], dtype=float) * TABLE_HALF
        self.table = InstancedMesh(_flat_mesh(table, np.array([[0, 1, 2], [0, 2, 3]])))
        self.plate: InstancedMesh | None = None
        if plate:
            mesh = assets.plate_mesh(edge)
            self.plate = InstancedMesh(_flat_mesh(np.asarray(mesh.vertices), np.asarray(mesh.faces)))
        self.plate_tint = tuple(0.8 * c / 255 for c in assets.PLATE_RGBA[:3]) + (1.0,)
        self.plate_matrix = np.eye(4)
        self.dice: dict[Colour, np.ndarray] = {c: np.zeros((0, 20), np.float32) for c in COLOURS}
        self.ghost: tuple[Colour, np.ndarray] | None = None
        self.shadows = True  # the dice and the plate cast shadows on the table
        self.jet: np.ndarray | None = None  # the model matrix of the breath drawn (see ``show_jet``)
        self.jet_mesh = InstancedMesh(jet_cone(JET_LENGTH))

    def show(
        self,
        colours: Sequence[Colour],
        matrices: np.ndarray,
        plate_matrix: np.ndarray | None = None,
        tints: dict[int, Sequence[float]] | None = None,
    ) -> None:
        """Draw one die of each colour at each matrix (n, 4, 4); ``tints`` by index highlights some."""
        tint = np.ones((len(colours), 4))
        for n, value in (tints or {}).items():
            tint[n] = value
        rows = instances(matrices, tint) if len(colours) else np.zeros((0, 20), np.float32)
        names = np.asarray(colours, dtype=object)
        self.dice = {c: rows[names == c] for c in COLOURS}
        if plate_matrix is not None:
            self.plate_matrix = np.asarray(plate_matrix, dtype=float)

    def show_world(self, world: World, tints: dict[int, Sequence[float]] | None = None) -> None:
        """Draw the world's dice where its poses say (``tints`` by die number)."""
        dice, poses = world.poses()
        by_index = {n: tints[d] for n, d in enumerate(dice) if d in tints} if tints else None
        self.show([DICE[d].colour for d in dice], pose_matrices(poses), pose_matrices(world.plate_pose)[0], by_index)

    def show_jet(self, origin: np.ndarray | None, direction: np.ndarray | None = None) -> None:
        """The breath as a pale cone from the mouth ``origin`` along ``direction`` (None: no breath)."""
        if origin is None or direction is None:
            self.jet = None
            return
        z = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
        x = np.cross(z, [0.0, 0.0, 1.0] if abs(z[2]) < 0.9 else [1.0, 0.0, 0.0])
        x /= np.linalg.norm(x)
        matrix = np.eye(4)
        matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = x, np.cross(z, x), z, origin
        self.jet = matrix

    def show_ghost(self, colour: Colour | None, matrix: np.ndarray | None = None) -> None:
        """A see-through die (where a placed die would go), or none."""
        self.ghost = None if colour is None or matrix is None else (colour, np.asarray(matrix, dtype=float))

    def draw(self, camera: OrbitCamera, width: int, height: int) -> None:
        """Clear and draw the stage into the bound framebuffer of ``width`` x ``height`` pixels."""
        gl.glViewport(0, 0, width, height)
        gl.glClearColor(*BACKGROUND)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        eye = camera.eye()
        program = self.program
        program.use()
        view_projection = camera.projection_matrix(width / max(height, 1)) @ camera.view_matrix()
        program["view_projection"] = tuple(view_projection.T.ravel().tolist())
        program["light"] = tuple(camera.light_direction().tolist())
        program["eye"] = tuple(eye.tolist())
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        program["textured"] = True
        for colour, rows in self.dice.items():
            if len(rows):
                # Nearest first: hidden pixels then fail the depth test before they are shaded.
                gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures[colour].id)
                self.die.draw(rows[np.argsort(np.linalg.norm(rows[:, 12:15] - eye, axis=1))])
        program["textured"] = False
        if self.plate is not None:
            self.plate.draw(instances(self.plate_matrix, self.plate_tint))
        self.table.draw(instances(np.eye(4), TABLE_RGBA))
        if self.shadows:
            self._draw_shadows(camera.light_direction())
        if self.jet is not None:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDisable(gl.GL_CULL_FACE)
            gl.glDepthMask(gl.GL_FALSE)  # see-through: what lies behind it still shows
            program["textured"] = False
            self.jet_mesh.draw(instances(self.jet, JET_RGBA))
            gl.glDepthMask(gl.GL_TRUE)
            gl.glEnable(gl.GL_CULL_FACE)
            gl.glDisable(gl.GL_BLEND)
        if self.ghost is not None:
            colour, matrix = self.ghost
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            program["textured"] = True
            gl.glBindTexture(gl.GL_TEXTURE_2D, self.textures[colour].id)
            self.die.draw(instances(matrix, (*WHITE[:3], GHOST_ALPHA)))
            gl.glDisable(gl.GL_BLEND)
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDisable(gl.GL_DEPTH_TEST)
        program.stop()

    def _draw_shadows(self, light: np.ndarray) -> None:
        """The dice's and the plate's shadows on the table, cast from ``light``'s side at ``SHADOW_ELEVATION``.

        Each mesh is drawn again flattened onto the table along the light (a planar shadow), in the
        colour the table has there in shadow; where the plate or a die stands over the table, the depth
        test hides it. Shadows that overlap are no darker: one colour, drawn opaque.
        """
        program = self.program
        program["shadow"] = True
        program["shadow_matrix"] = tuple(shadow_matrix(light, SHADOW_LIFT).T.ravel().tolist())
        program["textured"] = False
        gl.glDisable(gl.GL_CULL_FACE)  # a flattened die shows either side of its faces
        shade = (*(SHADOW_SHADE * c for c in TABLE_RGBA[:3]), 1.0)
        for rows in self.dice.values():
            if len(rows):
                shaded = np.array(rows, copy=True)
                shaded[:, 16:20] = shade
                self.die.draw(shaded)
        if self.plate is not None:
            self.plate.draw(instances(self.plate_matrix, shade))
        gl.glEnable(gl.GL_CULL_FACE)
        program["shadow"] = False

    def capture(self, camera: OrbitCamera, width: int, height: int) -> np.ndarray:
        """An RGB image (height, width, 3) uint8 drawn offscreen, supersampled twice for smooth edges."""
        big_w, big_h = 2 * width, 2 * height
        colour = pyglet.image.Texture.create(big_w, big_h)
        depth = pyglet.image.buffer.Renderbuffer(big_w, big_h, gl.GL_DEPTH_COMPONENT24)
        frame = pyglet.image.buffer.Framebuffer()
        frame.attach_texture(colour)
        frame.attach_renderbuffer(depth, attachment=gl.GL_DEPTH_ATTACHMENT)
        frame.bind()
        try:
            self.draw(camera, big_w, big_h)
            pixels = read_pixels(big_w, big_h)
        finally:
            frame.unbind()
            frame.delete()
            depth.delete()
            colour.delete()
        image = Image.fromarray(pixels).resize((width, height), Image.Resampling.LANCZOS)
        return np.asarray(image)


def next_speed(speed: float, faster: bool) -> float:
    """The pace after + (``faster``) or -: the next of ``SPEEDS`` (times real time) up or down from ``speed``."""
    if faster:
        return next((v for v in SPEEDS if v > speed + 1e-9), SPEEDS[-1])
    return next((v for v in reversed(SPEEDS) if v < speed - 1e-9), SPEEDS[0])


def text_box(label: pyglet.text.Label, pad: int = PANEL_PAD) -> tuple[float, float, float, float]:
    """The panel (x, y, width, height) in window pixels behind a label's text, ``pad`` pixels around it."""
    width, height = label.content_width, label.content_height
    # A multiline label is anchored by its layout's width; its lines start at that box's left edge.
    box = label.width if label.multiline and label.width else width
    left = label.x - {"left": 0, "center": box / 2, "right": box}[label.anchor_x]
    bottom = label.y - {"bottom": 0, "center": height / 2, "top": height, "baseline": 0}[label.anchor_y]
    return left - pad, bottom - pad, width + 2 * pad, height + 2 * pad


def _is_software(renderer: str) -> bool:
    return "pipe" in renderer  # Mesa's llvmpipe and softpipe


def _software_renderer() -> bool:
    """Whether OpenGL draws in software here, asked of pyglet's hidden context before the window is made
    (False where there is none to ask)."""
    context = gl.current_context
    return context is not None and _is_software(context.get_info().get_renderer())


class SmoothTarget:
    """An offscreen picture of ``width`` x ``height`` pixels with 4 samples a pixel, averaged into one sample a
    pixel and shown in the window's own (single-sampled) picture: smooth edges where the window has no samples.

    The averaged picture is kept: while what it shows stands still, ``show`` puts it up again (a copy of pixels)
    instead of drawing the stage anew (a software renderer takes 20 ms to draw and average the full pyramid).
    """

    SAMPLES = 4

    def __init__(self, width: int, height: int) -> None:
        self.size = (width, height)
        buffer = pyglet.image.buffer
        self.colour = buffer.Renderbuffer(width, height, gl.GL_RGBA8, samples=self.SAMPLES)
        self.depth = buffer.Renderbuffer(width, height, gl.GL_DEPTH_COMPONENT24, samples=self.SAMPLES)
        self.frame = buffer.Framebuffer()
        self.frame.attach_renderbuffer(self.colour)
        self.frame.attach_renderbuffer(self.depth, attachment=gl.GL_DEPTH_ATTACHMENT)
        self.averaged = buffer.Renderbuffer(width, height, gl.GL_RGBA8)
        self.picture = buffer.Framebuffer()
        self.picture.attach_renderbuffer(self.averaged)
        self.shows: object = None  # what the kept picture shows (``Viewer._still_key``); None: nothing kept

    @contextmanager
    def drawing(self, shows: object) -> Iterator[None]:
        """Draw into the samples in the block; at its end they are averaged, kept as the picture of ``shows``,
        and shown."""
        width, height = self.size
        self.frame.bind()
        gl.glEnable(gl.GL_MULTISAMPLE)
        try:
            yield
        finally:
            _blit(self.frame.id, self.picture.id, width, height)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        self.shows = shows
        self.show()

    def show(self) -> None:
        """Put the kept picture in the window's picture."""
        _blit(self.picture.id, 0, *self.size)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        for thing in (self.frame, self.picture, self.colour, self.depth, self.averaged):
            thing.delete()


def _blit(source: int, target: int, width: int, height: int) -> None:
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, source)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, target)
    gl.glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)


def read_pixels(width: int, height: int) -> np.ndarray:
    """The bound framebuffer's pixels as an RGB image (height, width, 3) uint8, top row first."""
    buffer = (ctypes.c_ubyte * (width * height * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buffer)
    return np.frombuffer(bytes(buffer), dtype=np.uint8).reshape(height, width, 4)[::-1, :, :3].copy()


class Viewer(pyglet.window.Window):  # type: ignore[misc]
    """The window: the stage, the orbit camera, a text overlay and the clock that keeps real time.

    ``frame(seconds)`` shows one picture after ``seconds`` of simulated time and waits so that the
    simulation runs at ``speed`` times real time when the machine allows it.
    """

    def __init__(
        self,
        world: World | None,
        title: str = "pyramid",
        width: int = 1280,
        height: int = 800,
        speed: float = 1.0,
        visible: bool = True,
    ) -> None:
        # A software renderer (llvmpipe) pays dearly for smooth edges, even switched off: in a window with samples
        # to smooth them a moving picture of the full pyramid took 30 to 36 ms against 23 to 26 ms without (1024x700,
        # 2 cores). There the window has none, and a still picture is smoothed offscreen (``_draw_still``).
        software = _software_renderer()
        try:
            samples = {} if software else {"sample_buffers": 1, "samples": 4}
            config = gl.Config(double_buffer=True, depth_size=24, **samples)  # type: ignore[abstract]
            super().__init__(width, height, title, resizable=True, config=config, visible=visible)
        except pyglet.window.NoSuchConfigException:
            super().__init__(width, height, title, resizable=True, visible=visible)
        self.software = _is_software(self.context.get_info().get_renderer())
        self.smooth = not self.software  # edges smoothed (multisampling) in the picture being drawn
        self._smoothing: SmoothTarget | None = None  # software: where a still picture is drawn smooth
        self._view_seen: tuple[np.ndarray, float] = (np.zeros((4, 4)), time.perf_counter())
        self.world = world
        self.state: PyramidState | None = None  # drawn when there is no world (exact play)
        self.speed = speed
        self.camera = OrbitCamera()
        self.push_handlers(self.camera)
        self.stage = Stage(world.physics.edge if world else EDGE, plate=world.plate if world else True)
        self.hud = pyglet.graphics.Batch()
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        ink = (20, 20, 30, 255)
        self.status = pyglet.text.Label(
            "",
            x=12,
            y=height - 12,
            anchor_y="top",
            font_size=11,
            color=ink,
            multiline=True,
            width=width - 280,
            batch=self.hud,
            group=front,
        )
        self.side = pyglet.text.Label(
            "",
            x=width - 12,
            y=height - 12,
            anchor_x="right",
            anchor_y="top",
            font_size=11,
            color=ink,
            multiline=True,
            width=240,
            batch=self.hud,
            group=front,
        )
        self.help = pyglet.text.Label(
            "",
            x=12,
            y=12,
            anchor_y="bottom",
            font_size=10,
            color=ink,
            multiline=True,
            width=width - 24,
            batch=self.hud,
            group=front,
        )
        # A pale panel behind each text, so that it reads over the dice and the table.
        self.panels = {
            label: pyglet.shapes.Rectangle(0, 0, 0, 0, color=PANEL_RGBA, batch=self.hud, group=behind)
            for label in (self.status, self.side, self.help)
        }
        self._escape = -math.inf  # real time of the last Esc that did not quit
        self.tints: dict[int, Sequence[float]] = {}
        self.messages: list[str] = []
        self._anchor = time.perf_counter()
        self._budget = 0.0
        self._rate_window: list[tuple[float, float]] = []
        self.real_time_factor = 0.0
        self.pictures_per_second = 0.0  # pictures shown a second of real time over the last 2 s
        self._shown: list[float] = []  # real times the last 2 s of pictures were shown
        self.frames = 0
        self._drawn = 0.0
        self.on_frame: list[Callable[[float], None]] = []
        self.queue: list[Callable[[], object]] = []  # jobs to run between frames, never inside an event
        self.paused = False  # Space: the world stands still, the window still draws and listens
        self.held: Callable[[], Callable[[], object] | None] | None = None
        # Ctrl+Z: the world before each action a person started in ``live`` (the sandbox), newest last.
        self.undo: list[Table] = []
        self.redo: list[Table] = []  # Ctrl+Y: the tables Ctrl+Z went back from, newest last
        self.requests: list[str] = []  # "undo", "redo", "save": asked in an event, done between jobs
        self.sandbox = False  # True while ``live`` runs: the person's hands are free, undo and save work
        self.acting = False  # inside one action of a person's: its jobs queued together, or a key or button held
        self.save_to: Path = Path("table.json")  # Ctrl+S writes here (or table-2.json, ... if taken)
        self.marks: list[Mark] = []  # text drawn where points of the world are seen (corner letters, funnel labels)
        self.guides: list[Guide] = []  # lines drawn where points of the world are seen (an aim, a stroke's line)
        self.bar: Bar | None = None  # a strength bar (while a flick or a stroke is dragged)

    # -- drawing ---------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Add a line to the message log shown on screen (the last few lines stay)."""
        self.messages = (self.messages + text.splitlines())[-8:]

    def set_text(self, status: str, side: str = "", help_text: str = "") -> None:
        """The overlay: ``status`` top left, ``side`` top right, ``help_text`` along the bottom."""
        for label, text in ((self.status, status), (self.side, side), (self.help, help_text)):
            if label.text != text:
                label.text = text

    def refresh_stage(self) -> None:
        """Copy the world's poses (or the exact state's) into the model matrices."""
        if self.world is not None:
            self.stage.show_world(self.world, self.tints)
        elif self.state is not None:
            colours, matrices = state_matrices(self.state, self.stage.edge)
            self.stage.show(colours, matrices)

    def _still_key(self) -> tuple[object, ...]:
        """All the stage's picture depends on: equal keys, the same picture."""
        stage = self.stage
        ghost = None if stage.ghost is None else (stage.ghost[0], stage.ghost[1].tobytes())
        return (
            self.camera.view_matrix().tobytes(),
            self.camera.projection_matrix(self.width / max(self.height, 1)).tobytes(),
            self.camera.light_direction().tobytes(),
            tuple((c, rows.tobytes()) for c, rows in stage.dice.items()),
            stage.plate_matrix.tobytes(),
            ghost,
            None if stage.jet is None else stage.jet.tobytes(),
            stage.shadows,
        )

    def _draw_still(self, width: int, height: int) -> None:
        """A still picture in software: drawn smooth offscreen once, then shown again while it shows the same."""
        if self._smoothing is None or self._smoothing.size != (width, height):
            if self._smoothing is not None:
                self._smoothing.delete()
            self._smoothing = SmoothTarget(width, height)
        key = self._still_key()
        if self._smoothing.shows == key:
            self._smoothing.show()
            return
        with self._smoothing.drawing(key):
            self.stage.draw(self.camera, width, height)

    def on_draw(self) -> None:
        """Draw the stage, then the text overlay."""
        self.refresh_stage()
        width, height = self.get_framebuffer_size()
        if self.software and self.smooth:
            self._draw_still(width, height)
        else:
            self.stage.draw(self.camera, width, height)
        gl.glViewport(0, 0, width, height)
        self.projection = Mat4.orthogonal_projection(0, self.width, 0, self.height, -255, 255)
        self.view = Mat4()
        self.status.y = self.side.y = self.height - 12
        self.side.x = self.width - 12
        under = self._under_panels()
        for label, panel in self.panels.items():
            panel.visible = bool(label.text.strip())
            panel.x, panel.y, panel.width, panel.height = text_box(label)
            # A panel over a die or a mark fades, its text with it, so that what lies under it shows.
            fade = FADED if panel.visible and covered(text_box(label), under) else 1.0
            panel.opacity = round(PANEL_RGBA[3] * fade)
            label.color = (*label.color[:3], round(255 * fade))
        self._draw_marks()
        self.hud.draw()
        draw_guides(self.guides, self.bar, self.camera, self.width, self.height)

    def _under_panels(self) -> np.ndarray:
        """Window points (n, 2) no panel may hide: the dice's centres and the marks."""
        points = [np.asarray(m.point) for m in self.marks]
        if self.world is not None:
            points += list(self.world.poses()[1][:, :3])
        return seen_points(self.camera, np.array(points).reshape(-1, 3), self.width, self.height)

    def _draw_marks(self) -> None:
        """The marks (corner letters, funnel labels) where their points are seen, each on a small pale panel."""
        if not self.marks:
            return
        batch = pyglet.graphics.Batch()
        behind, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        keep = []
        for mark in self.marks:
            x, y = self.camera.project(np.asarray(mark.point), self.width, self.height)
            if not (0 <= x <= self.width and 0 <= y <= self.height):
                continue
            label = pyglet.text.Label(
                mark.text,
                x=x,
                y=y,
                anchor_x="center",
                anchor_y="center",
                font_size=mark.size,
                color=mark.rgba,
                batch=batch,
                group=front,
            )
            w, h = label.content_width + 6, label.content_height + 2
            keep += [
                label,
                pyglet.shapes.Rectangle(x - w / 2, y - h / 2, w, h, color=MARK_RGBA, batch=batch, group=behind),
            ]
        batch.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Keep the overlay in its corners (the stage reads the size when it draws)."""
        self.help.width = max(width - 24, 100)
        self.status.width = max(width - 280, 300)  # the face table needs the last 260 pixels

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Space pauses, + and - change the pace; Esc quits only when pressed twice within ``QUIT_AGAIN`` seconds
        (the hands' Esc cancels first)."""
        keys = pyglet.window.key
        if symbol == keys.SPACE:
            self.paused = not self.paused
            self.say("paused: Space goes on" if self.paused else "going on")
            return True
        if symbol in (keys.PLUS, keys.EQUAL, keys.NUM_ADD, keys.MINUS, keys.NUM_SUBTRACT):
            faster = symbol in (keys.PLUS, keys.EQUAL, keys.NUM_ADD)
            self.speed = next_speed(self.speed, faster)
            self.say(f"pace x{self.speed:g} real time")
            return True
        if symbol != keys.ESCAPE:
            return False
        now = time.perf_counter()
        if now - self._escape <= QUIT_AGAIN:
            self.has_exit = True
        else:
            self._escape = now
            self.say(f"Esc again within {QUIT_AGAIN:g} s to quit")
        return True

    def frame_world(self) -> None:
        """Aim the camera (and its home, R) so that the plate and every die of the world are in view."""
        if self.world is not None:
            self.camera.fit(view_points(self.world), self.width / max(self.height, 1))

    def screenshot(self) -> np.ndarray:
        """The window as a person sees it now: an RGB image (height, width, 3) uint8."""
        self.switch_to()
        self.on_draw()
        width, height = self.get_framebuffer_size()
        return read_pixels(width, height)

    # -- time ------------------------------------------------------------------------------------

    def frame(self, simulated: float) -> None:
        """Handle input, draw and show one picture; wait so that ``simulated`` seconds take their real time."""
        now = time.perf_counter()
        lagging = False
        if simulated <= 0:
            # Time stands still (a person is choosing): about 60 pictures a second, nothing to catch up.
            self._anchor, self._budget = now, 0.0
            time.sleep(max(0.0, 1 / 60 - (now - self._drawn)))
        else:
            self._budget += simulated / self.speed
            ahead = self._budget - (now - self._anchor)
            lagging = ahead < 0
            if ahead > 0:
                time.sleep(ahead)
            elif ahead < -0.25:
                # The machine cannot keep up: carry on at its own pace instead of racing to catch up.
                self._anchor, self._budget = now, 0.0
        self._measure(simulated)
        self.dispatch_events()
        while self.paused and not self.has_exit:
            # Time stands still: draw and listen until Space, the world as it is.
            self._draw_now()
            time.sleep(1 / 60)
            self.dispatch_events()
            self._anchor, self._budget = time.perf_counter(), 0.0
        if self.has_exit:
            raise WindowClosed
        if lagging and now - self._drawn < 0.1:
            return  # behind real time: give the physics the time, but draw at least 10 pictures a second
        self._draw_now(simulated)

    def _draw_now(self, simulated: float = 0.0) -> None:
        """Run the frame callbacks (the overlay) and show one picture."""
        for callback in self.on_frame:
            callback(simulated)
        self.switch_to()
        self._smooth()
        self.on_draw()
        self.flip()
        self._drawn = time.perf_counter()
        self.frames += 1
        self._shown = [t for t in self._shown if self._drawn - t < 2.0] + [self._drawn]
        span = self._drawn - self._shown[0]
        if span > 0.5:
            self.pictures_per_second = (len(self._shown) - 1) / span

    def _smooth(self) -> None:
        """Smooth edges (multisampling) always on a graphics card; in software only while the picture stands
        still: the view unchanged for ``STILL`` seconds and every die asleep (or no world), so that moving
        pictures keep their pace."""
        if not self.software:
            return
        view, since = self._view_seen
        now = time.perf_counter()
        current = self.camera.view_matrix()
        if not np.allclose(current, view):
            self._view_seen = (current, now)
            since = now
        self.smooth = now - since >= STILL and (self.world is None or self.world.asleep)

    def _measure(self, simulated: float) -> None:
        now = time.perf_counter()
        self._rate_window = [(t, s) for t, s in self._rate_window if now - t < 2.0] + [(now, simulated)]
        span = now - self._rate_window[0][0]
        if span > 0.5:
            self.real_time_factor = sum(s for _, s in self._rate_window[1:]) / span

    def pause(self, seconds: float) -> None:
        """Keep drawing for ``seconds`` of real time while the world stands still."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.frame(0.0)

    def live(self, seconds: float | None = None) -> None:
        """Run the world at real time until the window closes (or for ``seconds``); idle dice go to sleep.

        Jobs in ``queue`` (actions a person started) run first, each shown as it happens; ``held``
        gives the job of a key held down (a breath), run instead of a plain step. Before each action
        (the jobs queued together, or a key held) the table is kept for Ctrl+Z (``undo``).
        """
        world = self.world
        assert world is not None
        self.sandbox = True
        try:
            self._live(world, seconds)
        finally:
            self.sandbox = False

    def _live(self, world: World, seconds: float | None) -> None:
        start, last, since = world.time, world.poses()[1], 0.0
        while seconds is None or world.time - start < seconds - 1e-9:
            if self.requests:
                self._answer(world, self.requests.pop(0))
                self.acting, last, since = False, world.poses()[1], 0.0
                continue
            job = self.queue.pop(0) if self.queue else (self.held() if self.held else None)
            if job is not None and not self.acting:
                self.undo, self.redo = [*self.undo, world.snapshot()][-UNDO_DEPTH:], []
            self.acting = job is not None
            before = world.time
            if job is not None:
                job()
            else:
                world.step(1 / 60)  # shown by ``watching``; costs nothing while every die sleeps
            since += world.time - before
            if since >= 0.25:
                now = world.poses()[1]
                if not self.queue and len(now) == len(last) and not _moving(last, now, world.physics.edge):
                    world.sleep()
                last, since = now, 0.0

    def _answer(self, world: World, request: str) -> None:
        """Do what a person asked with Ctrl+Z (go back one action), Ctrl+Y (do it again) or Ctrl+S (save the table)."""
        if request in ("undo", "redo"):
            source, keep = (self.undo, self.redo) if request == "undo" else (self.redo, self.undo)
            if not source:
                why = "the table is as it was when the window opened" if request == "undo" else "nothing was undone"
                self.say(f"nothing to {request}: {why}")
                return
            self.queue.clear()
            keep.append(world.snapshot())
            world.restore(source.pop())
            done = "undone: the table as before the last action" if request == "undo" else "redone: the action again"
            self.say(f"{done} ({len(self.undo)} more to undo, {len(self.redo)} to redo)")
        elif request == "save":
            path = save_table(world.snapshot(), next_free(self.save_to), world.readout(require_rest=False).notation())
            self.say(f"saved the table to {path} (open it again: pyramid view --load {path})")


def _moving(before: np.ndarray, after: np.ndarray, edge: float) -> bool:
    """Whether any die moved or turned more than the settle test allows (``TOL.rest_shift``, ``TOL.rest_turn``)."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    turn = np.degrees((Rotation.from_quat(after[:, 3:]) * Rotation.from_quat(before[:, 3:]).inv()).magnitude())
    return bool((shift > TOL.rest_shift).any() or (turn > TOL.rest_turn).any())


class WindowClosed(Exception):
    """The person closed the window while something was running."""


@contextmanager
def watching(world: World, viewer: Viewer, fps: float = 60.0) -> Iterator[None]:
    """While inside, every ``world.step`` is shown live: a picture per 1/fps simulated seconds, at real time.

    Whoever steps the world (a Match settling, a hand pulling a die) is seen as it happens.
    """
    dt = world.physics.time_step
    per_frame = max(1, round(1 / fps / dt))
    stop = world.observe(per_frame * dt, lambda: viewer.frame(per_frame * dt))
    try:
        yield
    finally:
        stop()
