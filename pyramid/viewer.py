"""The pyglet window on top of the world: one batch, one model per body, a clock that copies poses.

Sits above the world and the Match: the window only draws what the world's poses say and turns
a person's input into the same actions a script performs (``pyramid.window_player``). ``Stage``
draws into a window or, for headless pictures, into an offscreen framebuffer (``pyramid.film``).
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np
import pyglet
from PIL import Image
from pyglet import gl
from pyglet.math import Mat4

from pyramid import assets, geometry
from pyramid.camera import OrbitCamera
from pyramid.dice import COLOURS, DICE, EDGE, Colour
from pyramid.state import PyramidState

if TYPE_CHECKING:
    from pyramid.world import World

VERTEX_SHADER = """#version 330 core
in vec3 position;
in vec3 normal;
in vec2 tex_coords;
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform mat4 model;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    vec4 world = model * vec4(position, 1.0);
    v_world = world.xyz;
    v_normal = mat3(model) * normal;
    v_uv = tex_coords;
    gl_Position = window.projection * window.view * world;
}
"""

# A key light from above the camera's left shoulder, a cool fill from the other side, a sky/ground
# ambient and a small highlight: the three faces of a corner-down die get three distinct shades.
FRAGMENT_SHADER = """#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
uniform sampler2D texture0;
uniform vec4 tint;
uniform vec3 light;
uniform vec3 eye;
out vec4 colour;
void main() {
    vec3 n = normalize(v_normal);
    vec4 base = texture(texture0, v_uv) * tint;
    vec3 fill_dir = normalize(vec3(-light.x, -light.y, 0.5));
    float key = max(dot(n, light), 0.0);
    float fill = max(dot(n, fill_dir), 0.0);
    vec3 ambient = mix(vec3(0.16, 0.14, 0.13), vec3(0.30, 0.32, 0.36), 0.5 + 0.5 * n.z);
    vec3 h = normalize(light + normalize(eye - v_world));
    float shine = pow(max(dot(n, h), 0.0), 40.0) * 0.22;
    vec3 lit = base.rgb * (ambient + 0.78 * key + vec3(0.20, 0.22, 0.26) * fill) + shine;
    colour = vec4(pow(lit, vec3(1.0 / 1.15)), base.a);
}
"""

BACKGROUND = (0.80, 0.84, 0.88, 1.0)
TABLE_RGBA = (0.62, 0.47, 0.32, 1.0)
TABLE_HALF = 0.45  # metres: the table drawn is 0.9 m square


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


def _texture(image: Image.Image) -> pyglet.image.Texture:
    """A mipmapped GL texture of a PIL image (rows top to bottom, so v runs upward as in OBJ files)."""
    rgba = image.convert("RGBA")
    data = pyglet.image.ImageData(rgba.width, rgba.height, "RGBA", rgba.tobytes(), pitch=-rgba.width * 4)
    texture = data.get_texture()
    gl.glActiveTexture(gl.GL_TEXTURE0)
    gl.glBindTexture(texture.target, texture.id)
    gl.glGenerateMipmap(texture.target)
    gl.glTexParameteri(texture.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
    gl.glTexParameteri(texture.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
    return texture


class MaterialGroup(pyglet.graphics.Group):
    """Shader, texture and depth test shared by every body drawn with one texture."""

    def __init__(self, program: pyglet.graphics.shader.ShaderProgram, texture: Any, blend: bool = False) -> None:
        super().__init__(order=1 if blend else 0)
        self.program, self.texture, self.blend = program, texture, blend

    def set_state(self) -> None:
        self.program.use()
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(self.texture.target, self.texture.id)
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glEnable(gl.GL_CULL_FACE)
        if self.blend:
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)

    def unset_state(self) -> None:
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDisable(gl.GL_DEPTH_TEST)
        if self.blend:
            gl.glDisable(gl.GL_BLEND)
        self.program.stop()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


class BodyGroup(pyglet.graphics.Group):
    """One body's model matrix and tint: a group of its own, so no two bodies share a draw call."""

    def __init__(self, material: MaterialGroup, tint: Sequence[float] = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__(parent=material)
        self.program = material.program
        self.matrix = Mat4()
        self.tint = tuple(tint)

    def set_state(self) -> None:
        self.program["model"] = self.matrix
        self.program["tint"] = self.tint

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


class Model:
    """One body on the stage: its vertex list and its group."""

    def __init__(self, mesh: dict[str, Any], material: MaterialGroup, batch: pyglet.graphics.Batch) -> None:
        self.group = BodyGroup(material)
        self.vertices = material.program.vertex_list_indexed(
            mesh["count"],
            gl.GL_TRIANGLES,
            mesh["indices"],
            batch=batch,
            group=self.group,
            position=("f", mesh["position"]),
            normal=("f", mesh["normal"]),
            tex_coords=("f", mesh["uv"]),
        )

    def show(self, matrix: np.ndarray, tint: Sequence[float] = (1.0, 1.0, 1.0, 1.0)) -> None:
        """Draw the body at ``matrix`` (4, 4) with ``tint``."""
        self.group.matrix = to_mat4(matrix)
        self.group.tint = tuple(tint)
        if not self.group.visible:
            self.group.visible = True

    def hide(self) -> None:
        """Stop drawing the body."""
        if self.group.visible:
            self.group.visible = False


def _flat_mesh(vertices: np.ndarray, faces: np.ndarray, uv: np.ndarray | None = None) -> dict[str, Any]:
    """Vertex arrays of a triangle mesh with one normal per triangle (faces read as flat planes)."""
    corners = vertices[faces].reshape(-1, 3)
    # Each triangle's normal, repeated for its three corners.
    normals = np.repeat(np.cross(corners[1::3] - corners[0::3], corners[2::3] - corners[0::3]), 3, axis=0)
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    tex = uv[faces].reshape(-1, 2) if uv is not None else np.full((len(corners), 2), 0.5)
    return {
        "count": len(corners),
        "indices": list(range(len(corners))),
        "position": corners.ravel().tolist(),
        "normal": normals.ravel().tolist(),
        "uv": tex.ravel().tolist(),
    }


class Stage:
    """Everything drawn in 3-D: the table, the plate and a pool of die models per colour; one batch.

    Needs a current GL context (a window, visible or headless). ``show`` takes poses; ``draw`` and
    ``capture`` draw them from an orbit camera.
    """

    def __init__(self, edge: float = EDGE, plate: bool = True) -> None:
        self.edge = edge
        self.batch = pyglet.graphics.Batch()
        self.program = pyglet.graphics.shader.ShaderProgram(
            pyglet.graphics.shader.Shader(VERTEX_SHADER, "vertex"),
            pyglet.graphics.shader.Shader(FRAGMENT_SHADER, "fragment"),
        )
        die = assets.die_mesh(edge)
        uv = np.asarray(die.visual.uv)  # type: ignore[union-attr]
        self._die_mesh = _flat_mesh(np.asarray(die.vertices), np.asarray(die.faces), uv)
        self._materials = {c: MaterialGroup(self.program, _texture(assets.die_texture(c))) for c in COLOURS}
        self._ghost_materials = {
            c: MaterialGroup(self.program, self._materials[c].texture, blend=True) for c in COLOURS
        }
        white = MaterialGroup(self.program, _texture(Image.new("RGBA", (4, 4), (255, 255, 255, 255))))
        self._pool: dict[Colour, list[Model]] = {c: [] for c in COLOURS}
        table = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], dtype=float) * TABLE_HALF
        self.table = Model(_flat_mesh(table, np.array([[0, 1, 2], [0, 2, 3]])), white, self.batch)
        self.table.show(np.eye(4), TABLE_RGBA)
        self.plate: Model | None = None
        if plate:
            mesh = assets.plate_mesh(edge)
            self.plate = Model(_flat_mesh(np.asarray(mesh.vertices), np.asarray(mesh.faces)), white, self.batch)
            self.plate.show(np.eye(4), tuple(0.8 * c / 255 for c in assets.PLATE_RGBA[:3]) + (1.0,))
        self.ghost: Model | None = None
        self._ghost_colour: Colour | None = None

    def _model(self, colour: Colour, n: int) -> Model:
        pool = self._pool[colour]
        while len(pool) <= n:
            pool.append(Model(self._die_mesh, self._materials[colour], self.batch))
        return pool[n]

    def show(
        self,
        colours: Sequence[Colour],
        matrices: np.ndarray,
        plate_matrix: np.ndarray | None = None,
        tints: dict[int, Sequence[float]] | None = None,
    ) -> None:
        """Draw one die of each colour at each matrix (n, 4, 4); ``tints`` by index highlights some."""
        used = dict.fromkeys(COLOURS, 0)
        for n, colour in enumerate(colours):
            tint = (tints or {}).get(n, (1.0, 1.0, 1.0, 1.0))
            self._model(colour, used[colour]).show(matrices[n], tint)
            used[colour] += 1
        for colour, pool in self._pool.items():
            for model in pool[used[colour] :]:
                model.hide()
        if self.plate is not None and plate_matrix is not None:
            self.plate.show(plate_matrix, self.plate.group.tint)

    def show_world(self, world: World, tints: dict[int, Sequence[float]] | None = None) -> None:
        """Draw the world's dice where its poses say (``tints`` by die number)."""
        dice, poses = world.poses()
        by_index = {n: tints[d] for n, d in enumerate(dice) if d in tints} if tints else None
        self.show([DICE[d].colour for d in dice], pose_matrices(poses), pose_matrices(world.plate_pose)[0], by_index)

    def show_ghost(self, colour: Colour | None, matrix: np.ndarray | None = None) -> None:
        """A see-through die (where a placed die would go), or none."""
        if colour != self._ghost_colour and self.ghost is not None:
            self.ghost.vertices.delete()
            self.ghost = None
        if colour is None or matrix is None:
            self._ghost_colour = None
            return
        if self.ghost is None:
            self.ghost = Model(self._die_mesh, self._ghost_materials[colour], self.batch)
            self._ghost_colour = colour
        self.ghost.show(matrix, (1.0, 1.0, 1.0, 0.55))

    def draw(self, window: pyglet.window.Window, camera: OrbitCamera, width: int, height: int) -> None:
        """Clear and draw the stage into the bound framebuffer of ``width`` x ``height`` pixels."""
        gl.glViewport(0, 0, width, height)
        gl.glClearColor(*BACKGROUND)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        window.projection = to_mat4(camera.projection_matrix(width / max(height, 1)))
        window.view = to_mat4(camera.view_matrix())
        self.program.use()
        self.program["light"] = tuple(camera.light_direction().tolist())
        self.program["eye"] = tuple(camera.eye().tolist())
        self.batch.draw()

    def capture(self, window: pyglet.window.Window, camera: OrbitCamera, width: int, height: int) -> np.ndarray:
        """An RGB image (height, width, 3) uint8 drawn offscreen, supersampled twice for smooth edges."""
        big_w, big_h = 2 * width, 2 * height
        colour = pyglet.image.Texture.create(big_w, big_h)
        depth = pyglet.image.buffer.Renderbuffer(big_w, big_h, gl.GL_DEPTH_COMPONENT24)
        frame = pyglet.image.buffer.Framebuffer()
        frame.attach_texture(colour)
        frame.attach_renderbuffer(depth, attachment=gl.GL_DEPTH_ATTACHMENT)
        frame.bind()
        try:
            self.draw(window, camera, big_w, big_h)
            pixels = read_pixels(big_w, big_h)
        finally:
            frame.unbind()
            frame.delete()
            depth.delete()
            colour.delete()
        image = Image.fromarray(pixels).resize((width, height), Image.Resampling.LANCZOS)
        return np.asarray(image)


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
        try:
            config = gl.Config(  # type: ignore[abstract]
                double_buffer=True, depth_size=24, sample_buffers=1, samples=4
            )
            super().__init__(width, height, title, resizable=True, config=config, visible=visible)
        except pyglet.window.NoSuchConfigException:
            super().__init__(width, height, title, resizable=True, visible=visible)
        if "pipe" in self.context.get_info().get_renderer():
            gl.glDisable(gl.GL_MULTISAMPLE)  # a software renderer (llvmpipe) pays dearly for smooth edges
        self.world = world
        self.state: PyramidState | None = None  # drawn when there is no world (exact play)
        self.speed = speed
        self.camera = OrbitCamera()
        self.push_handlers(self.camera)
        self.stage = Stage(world.physics.edge if world else EDGE, plate=world.plate if world else True)
        self.hud = pyglet.graphics.Batch()
        ink = (20, 20, 30, 255)
        self.status = pyglet.text.Label(
            "", x=12, y=height - 12, anchor_y="top", font_size=11, color=ink, multiline=True, width=620, batch=self.hud
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
        )
        self.help = pyglet.text.Label(
            "", x=12, y=12, anchor_y="bottom", font_size=10, color=ink, multiline=True, width=width - 24, batch=self.hud
        )
        self.tints: dict[int, Sequence[float]] = {}
        self.messages: list[str] = []
        self._anchor = time.perf_counter()
        self._budget = 0.0
        self._rate_window: list[tuple[float, float]] = []
        self.real_time_factor = 0.0
        self.frames = 0
        self._drawn = 0.0
        self.on_frame: list[Callable[[float], None]] = []
        self.queue: list[Callable[[], object]] = []  # jobs to run between frames, never inside an event
        self.held: Callable[[], Callable[[], object] | None] | None = None

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

    def on_draw(self) -> None:
        """Draw the stage, then the text overlay."""
        self.refresh_stage()
        width, height = self.get_framebuffer_size()
        self.stage.draw(self, self.camera, width, height)
        gl.glViewport(0, 0, width, height)
        self.projection = Mat4.orthogonal_projection(0, self.width, 0, self.height, -255, 255)
        self.view = Mat4()
        self.status.y = self.side.y = self.height - 12
        self.side.x = self.width - 12
        self.hud.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Keep the overlay in its corners (the stage reads the size when it draws)."""
        self.help.width = max(width - 24, 100)

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
        if self.has_exit:
            raise WindowClosed
        if lagging and now - self._drawn < 0.1:
            return  # behind real time: give the physics the time, but draw at least 10 pictures a second
        for callback in self.on_frame:
            callback(simulated)
        self.switch_to()
        self.on_draw()
        self.flip()
        self._drawn = time.perf_counter()
        self.frames += 1

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
        gives the job of a key held down (a breath), run instead of a plain step.
        """
        world = self.world
        assert world is not None
        start, last, since = world.time, world.poses()[1], 0.0
        while seconds is None or world.time - start < seconds - 1e-9:
            job = self.queue.pop(0) if self.queue else (self.held() if self.held else None)
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


def _moving(before: np.ndarray, after: np.ndarray, edge: float) -> bool:
    """Whether any die moved more than 0.005 edges or turned more than 1 degree (the settle test)."""
    shift = np.linalg.norm(after[:, :3] - before[:, :3], axis=1) / edge
    # Angle between two unit quaternions: 2 acos(|<q1, q2>|).
    turn = np.degrees(2 * np.arccos(np.clip(np.abs(np.einsum("ni,ni->n", before[:, 3:], after[:, 3:])), 0, 1)))
    return bool((shift > 0.005).any() or (turn > 1.0).any())


class WindowClosed(Exception):
    """The person closed the window while something was running."""


@contextmanager
def watching(world: World, viewer: Viewer, fps: float = 60.0) -> Iterator[None]:
    """While inside, every ``world.step`` is shown live: a picture per 1/fps simulated seconds, at real time.

    Whoever steps the world (a Match settling, a hand pulling a die) is seen as it happens.
    """
    original = world.step
    dt = world.physics.time_step
    per_frame = max(1, round(1 / fps / dt))
    pending = 0

    def step(seconds: float) -> None:
        nonlocal pending
        n = max(1, round(seconds / dt))
        while n > 0:
            k = min(per_frame - pending, n)
            original(k * dt)
            n -= k
            pending += k
            if pending >= per_frame:
                pending = 0
                viewer.frame(per_frame * dt)

    world.step = step  # type: ignore[method-assign]
    try:
        yield
    finally:
        del world.step
