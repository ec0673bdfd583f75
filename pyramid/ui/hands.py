"""The hands at the window: mouse and keys turned into actions on the world (lift, flick, blow, tilt, place...).

Input handlers only queue work; the viewer's loop performs it between frames, so each action is seen
live. A ``Prompt`` is a choice among a game's legal actions, made by a click or a typed number;
``pyramid.ui.player`` puts these hands and a player who chooses that way into a window. What the mouse
points at comes from ``pyramid.picking``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from pyglet.window import key, mouse

from pyramid import geometry
from pyramid.dice import DICE, Colour, DieId
from pyramid.perception import Status
from pyramid.physics import actions
from pyramid.physics.hands import unit
from pyramid.picking import face_cell, nearest_funnel, pick_die, ray_hit, table_point
from pyramid.rules import Action, Move, Place, Remove, RemoveColumn
from pyramid.skillgames.base import DiceInHand, SkillGame
from pyramid.skillgames.more import MaliciousPleasure
from pyramid.skillgames.mount import corner_down
from pyramid.skillgames.plate import CORNERS, funnel_point
from pyramid.skillgames.throwing import DishingUp, Flickers, HideAway, Trulla
from pyramid.tolerances import TOL
from pyramid.ui import guide, strokes
from pyramid.ui.carrying import TURN, Carrier
from pyramid.ui.marks import Bar, Guide
from pyramid.ui.prompt import COLOUR_ORDER, Prompt, named_slot
from pyramid.ui.takeback import TakeBack
from pyramid.ui.viewer import MOVED_TINT, Viewer
from pyramid.units import PLACE_DROP

if TYPE_CHECKING:
    from pyramid.physics.world import World

CLICK = 5  # pixels: a press and release closer than this is a click, farther a drag
FUNNEL_REACH = 0.9  # edges: how close the mouse ray must pass a funnel to pick it
LADLE = 6  # dice poured by L
LADLE_HEIGHT = 0.08  # metres: how far above the point under the mouse the ladle is held
PULL = 0.008  # metres: how far U pulls a die out (half an edge: a balcony); shift-U half that
MOVED = 0.25  # edges: a die a breath moved farther than this is lit up
MOVED_SHOWN = 1.5  # seconds (of the world's time): how long after the breath the dice it moved stay lit up
DRAW_HEIGHT = float(funnel_point(CORNERS[0])[2])  # metres: strokes are drawn through the seated dice's centres
BREATH = 15.0  # m/s: the breath B blows at first; B + wheel makes it 25 % stronger or weaker a click
BREATH_RANGE = (4.0, 40.0)  # m/s: the weakest and strongest breath
QUEUED = 3  # actions a person may ask for while one runs
AIM_RGBA = (250, 210, 40, 255)  # the aim line of a flick and the line of a stroke
PRESSED_RGBA = (60, 120, 230, 255)  # the side of a stroke's line whose dice are pressed down


class Hands:
    """Turns mouse and keys into actions on the viewer's world; pushed on the window above the camera."""

    def __init__(self, viewer: Viewer, rng: np.random.Generator) -> None:
        self.viewer = viewer
        self.rng = rng
        self.keys = key.KeyStateHandler()
        viewer.push_handlers(self.keys)
        # What a press took: the die (or -1 a stroke, -2 a funnel, -3 a choice), x, y at the press, modifiers, button.
        self.grab: tuple[int, int, int, int, int] | None = None
        self.mouse = (viewer.width // 2, viewer.height // 2)
        self.placing = False
        self.colour: Colour = "red"
        self.orientation = 0
        self.funnel: geometry.Slot | None = None
        self.chooser: Prompt | None = None  # set while a window player is choosing
        # Set while a person takes a turn of a skill game: the actions go to the game, not the queue.
        self.sink: Callable[[actions.PhysicalAction], None] | None = None
        # That skill game: it hands out the dice to attach (Mount(a)ing) or pour (Trulla).
        self.game: SkillGame | None = None
        # The skill game running in the window (for its whole course), and the seats the person plays.
        self.match: SkillGame | None = None
        self.person_seats: set[int] = set()
        # Actions asked for while another ran, in order; the person's next turn moment takes them first.
        self.pending: list[actions.PhysicalAction] = []
        self.clock: Callable[[], float] = time.perf_counter  # the real time a drag's speed is read by
        self.drag_points: list[tuple[float, np.ndarray]] = []  # a ctrl-drag: (time, point on the drawing plane)
        self.breath_speed = BREATH
        self.show_help = True
        self.log: list[str] = []
        # Left-drag on a die of the free table: the hand that carries it (Q, E turn it, R rolls it).
        self.carrier = Carrier(lambda: self.world, lambda: self.ray(*self.mouse), rng)
        # Ctrl+Z, Ctrl+Y and Ctrl+S in a match: set by the window's match while a person may use them.
        self.takeback: TakeBack | None = None  # None: undo is off in this match (--no-undo)
        self.saver: Callable[[], str] | None = None  # saves the match, returns the line that says where
        # While B is held: where each die stood when the breath began; then when to stop showing what it moved.
        self.blown_from: dict[DieId, np.ndarray] | None = None
        self.blown_until = 0.0

    @property
    def world(self) -> World:
        """The viewer's world (hands need one; a chooser in exact play never asks for it)."""
        assert self.viewer.world is not None, "there is no world to put hands on"
        return self.viewer.world

    @property
    def carrying(self) -> DieId | None:
        """The die the hand carries now, if any."""
        return self.carrier.die

    @property
    def up(self) -> geometry.UpFaces:
        """The orientation a placed die gets: one of the 24, cycled with O."""
        return geometry.ALL_UP_FACES[self.orientation]

    # -- what is under the mouse -----------------------------------------------------------------

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """The camera ray through window point (x, y)."""
        return self.viewer.camera.ray(x, y, self.viewer.width, self.viewer.height)

    def die_at(self, x: float, y: float) -> DieId | None:
        """The die under the mouse, if any."""
        if self.viewer.world is None:
            return None
        dice, poses = self.world.poses()
        hit = pick_die(*self.ray(x, y), poses, self.world.physics.edge)
        return None if hit is None else dice[hit]

    def _exact_dice(self) -> tuple[list[geometry.Slot], np.ndarray]:
        """Exact play (no world): the slots of the state drawn and the poses (n, 7) of their dice."""
        state = self.viewer.state
        slots = list(state) if state is not None else []
        poses = np.zeros((len(slots), 7))
        for n, slot in enumerate(slots):
            poses[n, :3] = geometry.slot_centre(slot) * self.viewer.stage.edge
            poses[n, 3:] = geometry.matrix_to_quat(geometry.seated_rotation(state[slot].up or (1, 2, 3)))  # type: ignore[index]
        return slots, poses

    def slot_at(self, x: float, y: float) -> geometry.Slot | None:
        """The slot of the die under the mouse (in exact play, of the dice drawn from the game's state)."""
        if self.viewer.world is not None:
            die = self.die_at(x, y)
            return None if die is None else self.world.readout(require_rest=False).dice[die].slot
        slots, poses = self._exact_dice()
        hit = pick_die(*self.ray(x, y), poses, self.viewer.stage.edge)
        return None if hit is None else slots[hit]

    def hover(self) -> str:
        """What the die under the mouse is and shows: a line for the overlay, "" when it points at none."""
        if self.viewer.world is None:
            slot = self.slot_at(*self.mouse)
            state = self.viewer.state
            if slot is None or state is None:
                return ""
            cell = state[slot]
            faces = f": shows {', '.join(map(str, cell.up))} along +i, +j, +k" if cell.up else ""
            return f"under the mouse: {cell.colour} die in {slot}{faces}"
        die = self.die_at(*self.mouse)
        if die is None:
            return ""
        r = self.world.readout(require_rest=False).dice[die]
        if r.status is Status.SEATED and r.up is not None:
            where = f"in {r.slot}: shows {', '.join(map(str, r.up))} along +i, +j, +k"
        elif r.status is Status.LYING:
            where = f"lying {'on the plate' if r.on_plate else 'off the plate'}, {r.top} up"
        else:
            where = f"{r.status.value}, no face clearly up"
        return f"under the mouse: die {die} ({r.colour}) {where}"

    def slot_pose(self, slot: geometry.Slot, up: geometry.UpFaces) -> tuple[np.ndarray, np.ndarray]:
        """Where a die showing ``up`` sits in ``slot``: centre (3,) and rotation (3, 3), on the plate as it lies."""
        if self.viewer.world is not None:
            position, quat = self.world.slot_pose(slot, up)
            return position, geometry.quat_to_matrix(quat)[0]
        return geometry.slot_centre(slot) * self.viewer.stage.edge, geometry.seated_rotation(up)

    def open_funnels(self) -> dict[geometry.Slot, np.ndarray]:
        """World centres of the slots a die may be placed in now (for a chooser: where a Place is legal)."""
        if self.chooser is not None:
            slots = sorted({a.slot for a in self.chooser.legal if isinstance(a, Place)})
        elif self.viewer.world is not None:
            slots = self.world.readout(require_rest=False).pyramid.open_slots()
        else:
            return {}
        return {s: self.slot_pose(s, self.up)[0] for s in slots}

    def update_jet(self) -> None:
        """While B is held, the breath drawn as a pale cone and the dice it moved lit up (for a moment after)."""
        stage = self.viewer.stage
        blow = self.breath() if self.viewer.world is not None else None
        if blow is None:
            stage.show_jet(None)
            if self.grab is None and self.viewer.bar is not None and self.viewer.bar.text.startswith("breath"):
                self.viewer.bar = None
            now = self.viewer.world.time if self.viewer.world is not None else 0.0
            if self.blown_from is not None:
                self.blown_from, self.blown_until = None, now + MOVED_SHOWN
            elif self.blown_until and now > self.blown_until:
                self.viewer.tints, self.blown_until = {}, 0.0
            return
        stage.show_jet(np.array(blow.origin, dtype=float), unit(blow.azimuth, blow.elevation))
        dice, poses = self.world.poses()
        if self.blown_from is None:
            self.blown_from = {d: p[:3].copy() for d, p in zip(dice, poses, strict=True)}
        reach = MOVED * self.world.physics.edge
        start = self.blown_from
        moved = [d for d, p in zip(dice, poses, strict=True) if d in start and np.linalg.norm(p[:3] - start[d]) > reach]
        self.viewer.tints = {d: MOVED_TINT for d in moved}

    def update_ghost(self) -> None:
        """Show a see-through die in the funnel under the mouse while placing, or where the chosen die would go."""
        stage = self.viewer.stage
        self.update_jet()
        if self.chooser is not None and self.chooser.source is not None:
            self._move_ghost()
            return
        if not self.placing or (self.viewer.world is None and self.chooser is None):
            self.funnel = None
            stage.show_ghost(None)
            return
        funnels = self.open_funnels()
        self.funnel = nearest_funnel(*self.ray(*self.mouse), funnels, FUNNEL_REACH * stage.edge)
        if self.funnel is None:
            stage.show_ghost(None)
            return
        colour, up = self.colour, self.up
        if self.chooser is not None:
            # The die the click would place: the legal placement's colour and, where the rules fix them, faces.
            options = self._place_options(self.funnel)
            if options:
                colour, up = options[0].colour, options[0].up or self.up
        position, rotation = self.slot_pose(self.funnel, up)
        matrix = np.eye(4)
        matrix[:3, :3], matrix[:3, 3] = rotation, position
        stage.show_ghost(colour, matrix)

    def choice_slots(self) -> list[geometry.Slot]:
        """The slots a person choosing can click: where a die may be placed or removed, the dice that may move,
        or (a die picked) where it may go."""
        chooser = self.chooser
        if chooser is None:
            return []
        if chooser.source is not None:
            return chooser.targets()
        found: set[geometry.Slot] = set()
        for a in chooser.legal:
            if isinstance(a, Place | Remove):
                found.add(a.slot)
            elif isinstance(a, RemoveColumn):
                found.update(a.slots)
            elif isinstance(a, Move):
                found.update(s for s, _ in a.steps)
            elif (named := named_slot(a)) is not None:
                found.add(named)
        return sorted(found, key=geometry.SLOT_INDEX.__getitem__)

    def target_at(self, x: float, y: float) -> geometry.Slot | None:
        """Where the chosen die would go for a click at (x, y): the target under the mouse (a die or a funnel)."""
        assert self.chooser is not None
        targets = self.chooser.targets()
        slot = self.slot_at(x, y)
        if slot in targets:
            return slot
        cell = self.chooser.state.get(self.chooser.source) if self.chooser.source is not None else None
        up = cell.up if cell is not None else None
        centres = {t: self.slot_pose(t, up or self.up)[0] for t in targets}
        return nearest_funnel(*self.ray(x, y), centres, FUNNEL_REACH * self.viewer.stage.edge)

    def _move_ghost(self) -> None:
        """The chosen die, see-through, where a click would carry it."""
        assert self.chooser is not None and self.chooser.source is not None
        target = self.target_at(*self.mouse)
        cell = self.chooser.state.get(self.chooser.source)
        if target is None or cell is None:
            self.viewer.stage.show_ghost(None)
            return
        position, rotation = self.slot_pose(target, cell.up or self.up)
        matrix = np.eye(4)
        matrix[:3, :3], matrix[:3, 3] = rotation, position
        self.viewer.stage.show_ghost(cell.colour, matrix)

    # -- doing -----------------------------------------------------------------------------------

    @property
    def skill_game(self) -> SkillGame | None:
        """The skill game the hands play in, if any (for its whole course in the window, or for one turn)."""
        return self.game if self.game is not None else self.match

    def may(self, control: str) -> bool:
        """Whether the person may use ``control`` (a name of ``guide.CONTROL_HELP``) now; if not, a line says why."""
        game = self.skill_game
        if game is None:
            return True
        if control not in guide.controls(game):
            self.note(guide.refusal(game, control))
            return False
        if self.sink is None and (game.outcome is not None or game.to_move not in self.person_seats):
            who = f"player {game.to_move} is moving" if self.person_seats else "the match is being replayed"
            who = "the game is over" if game.outcome is not None else who
            self.note(f"not your turn ({who}): nothing done")
            return False
        return True

    def act(self, action: actions.PhysicalAction) -> None:
        """Queue a physical action (the viewer performs it between frames), or hand it to ``sink``.

        In a skill game, an action asked for while another runs waits in ``pending`` (shown as queued)
        for the person's next moment to act; past ``QUEUED`` of them it is refused.
        """
        if self.sink is not None:
            self.sink(action)
            self.sink = None  # taken: what the hands do next waits for the person's next moment to act
            return
        if self.skill_game is not None:
            if len(self.pending) >= QUEUED:
                self.note(f"refused: {action}: {QUEUED} actions are already queued")
                return
            self.pending.append(action)
            self.note(f"queued: {action} (after the action now running)")
            return
        world = self.world
        self.note(str(action))
        self.viewer.queue.append(lambda: actions.perform(world, action, self.rng))

    def note(self, text: str) -> None:
        """Show what the hands did."""
        self.viewer.say(text)

    def spare_dice(self, colour: Colour, near: np.ndarray) -> list[DieId]:
        """Dice of ``colour`` a hand may take: those still in the box, then those lying off the plate, nearest first.

        A world with every die in play (``pyramid view``: the pyramid and the 116 spares on the table) has
        none in the box: its spares are the dice lying on the table.
        """
        world = self.world
        boxed = [d.id for d in DICE if d.colour == colour and d.id not in set(world.dice)]
        readout = world.readout(require_rest=False)
        lying = [r for r in readout.dice.values() if r.colour == colour and not r.on_plate and r.slot is None]
        lying.sort(key=lambda r: float(np.linalg.norm(np.array(r.position) - near)))
        return boxed + [r.die for r in lying]

    def take(self, dice: Sequence[DieId]) -> None:
        """Queue picking ``dice`` up off the table (those in play), so that an action can set them down again."""
        world = self.world
        lying = [d for d in dice if d in world.dice]
        for die in lying:
            self.viewer.queue.append(functools.partial(world.remove, die, pull=False))

    def place(self, slot: geometry.Slot) -> None:
        """Queue placing a spare die of the chosen colour in ``slot`` showing the chosen faces."""
        if self.skill_game is not None:
            self.note("a skill game has no placing: lift, flick, blow, tilt, shake or throw")
            return
        world = self.world
        spare = self.spare_dice(self.colour, self.slot_pose(slot, self.up)[0])
        if not spare:
            self.note(f"no {self.colour} die left to place: none in the box, none lying off the plate")
            return
        die = spare[0]
        self.note(f"place {self.colour} die {die} at {slot} showing {''.join(map(str, self.up))}")
        self.take([die])
        up = self.up
        self.viewer.queue.append(lambda: world.place(die, slot, up, drop=PLACE_DROP))

    def lift(self, die: DieId) -> None:
        """Queue lifting ``die`` out: out of its slot along its way out, or off the table straight up."""
        if not self.may("lift") or not self.touchable(die):
            return
        world = self.world
        readout = world.readout(require_rest=False)
        slot = readout.dice[die].slot
        if slot is not None:
            self.act(actions.Lift(slot))
        elif self.skill_game is not None:
            self.note(f"die {die} is in no slot: only a die in the pyramid can be lifted out")
        else:
            self.note(f"take die {die} away")
            self.viewer.queue.append(lambda: world.remove(die))

    def azimuth(self, dx: float, dy: float) -> float:
        """World azimuth (degrees) of a drag of (dx, dy) pixels on the screen, flattened onto the table."""
        view = self.viewer.camera.view_matrix()
        right, up = view[0, :3], view[1, :3]
        forward = np.array([up[0], up[1], 0.0]) if abs(up[2]) < 0.99 else np.cross([0, 0, 1.0], right)
        vector = dx * right + dy * forward / max(float(np.linalg.norm(forward)), 1e-9)
        return math.degrees(math.atan2(vector[1], vector[0]))

    def held_action(self) -> Callable[[], object] | None:
        """While a die is carried: the hand's next 1/60 s (``Carrier.step``); while B is held: a short breath."""
        if self.carrying is not None:
            return self.carrier.step
        blow = self.breath()
        if blow is None:
            return None
        world = self.world
        return lambda: actions.perform(world, blow, self.rng)

    def let_go(self) -> None:
        """Open the carrying hand (between frames): the die flies on with the hand's velocity (a throw) or drops."""
        die = self.carrying
        if die is None:
            return

        def open_hand() -> None:
            released = self.carrier.let_go()
            if released is not None:
                speed = released[1]
                self.note(f"let go of die {die} at {speed:.2f} m/s" if speed > 0.05 else f"set die {die} down")

        self.viewer.queue.append(open_hand)

    def breath(self) -> actions.Blow | None:
        """While B is held: a breath of 1/30 s from the camera side towards the point under the mouse."""
        if self.viewer.world is None or self.chooser is not None or not self.keys[key.B]:
            return None
        game = self.skill_game
        if game is not None and "blow" not in guide.controls(game):
            return None
        origin, direction = self.ray(*self.mouse)
        target = self._aim(origin, direction)
        mouth = target - 0.08 * direction  # 8 cm from the point aimed at, on the camera's side
        azimuth = math.degrees(math.atan2(direction[1], direction[0]))
        elevation = math.degrees(math.asin(float(np.clip(direction[2], -1, 1))))
        speed = round(self.breath_speed, 3)
        return actions.Blow(tuple(mouth.tolist()), azimuth, elevation, speed=speed, duration=1 / 30)  # type: ignore[arg-type]

    def _aim(self, origin: np.ndarray, direction: np.ndarray) -> np.ndarray:
        dice, poses = self.world.poses()
        hit = pick_die(origin, direction, poses, self.world.physics.edge)
        if hit is not None:
            return poses[hit, :3]
        point = table_point(origin, direction)
        return point if point is not None else origin + 0.3 * direction

    # -- pyglet events ---------------------------------------------------------------------------

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.mouse = (x, y)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        """B + wheel: a stronger or weaker breath (the wheel alone zooms)."""
        if not self.keys[key.B] or not scroll_y:
            return False
        low, high = BREATH_RANGE
        self.breath_speed = float(np.clip(self.breath_speed * 1.25 ** float(np.sign(scroll_y)), low, high))
        self.viewer.bar = Bar((self.breath_speed - low) / (high - low), f"breath {self.breath_speed:.1f} m/s", x, y)
        self.note(f"breath {self.breath_speed:.1f} m/s")
        return True

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """Left on a die: a click lifts it, a drag carries it (the free table) or flicks it (a game); right-drag
        on a die flicks it; ctrl-drag draws a stroke; in place mode a click places; choosing, a click chooses."""
        self.mouse = (x, y)
        if button == mouse.RIGHT and not modifiers & key.MOD_SHIFT and self.chooser is None:
            die = self.die_at(x, y) if self.viewer.world is not None else None
            if die is None:
                return False  # the drag turns the view
            self.grab = (die, x, y, modifiers, button)
            return True
        if button != mouse.LEFT or (self.viewer.world is None and self.chooser is None):
            return False
        if modifiers & key.MOD_CTRL and self.chooser is None:
            self.grab = (-1, x, y, modifiers, button)
            point = self.plane_point(x, y, DRAW_HEIGHT)
            self.drag_points = [] if point is None else [(self.clock(), point)]
            return True
        if self.placing and self.funnel is not None:
            self.grab = (-2, x, y, modifiers, button)
            return True
        if self.chooser is not None:
            # Choosing: a click on a die removes it or picks it to move; with a die picked, a click says where.
            if self.chooser.source is None and self.slot_at(x, y) is None:
                return False  # nothing to choose here: the drag turns the view
            self.grab = (-3, x, y, modifiers, button)
            return True
        die = self.die_at(x, y)
        if die is None:
            return False
        self.grab = (die, x, y, modifiers, button)
        return True

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> bool:
        self.mouse = (x, y)
        if self.grab is not None and self.grab[0] == -1:
            self._draw_stroke(x, y)
        elif self.grab is not None and self.grab[0] >= 0:
            die, x0, y0, _, button = self.grab
            if button == mouse.LEFT and self.carries() and math.hypot(x - x0, y - y0) >= CLICK:
                self.grab = None  # a left-drag on the free table: the hand takes the die
                self.viewer.guides, self.viewer.bar = [], None
                self._pick_up(die)
            else:
                self._aim_flick(x, y)
        return self.grab is not None or self.carrying is not None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        if button == mouse.LEFT and self.carrying is not None:
            self.mouse = (x, y)
            self.let_go()
            return True
        if self.grab is None:
            return False
        die, x0, y0, pressed, pressed_with = self.grab
        self.grab = None
        self.viewer.guides, self.viewer.bar = [], None
        dx, dy = x - x0, y - y0
        length = math.hypot(dx, dy)
        if die == -2:
            if self.funnel is not None:
                self._choose_place(self.funnel) if self.chooser else self.place(self.funnel)
        elif die == -3:
            if self.chooser is not None and length < CLICK:
                self._choose_at(x0, y0)
        elif die == -1:
            stroke = self._draw_stroke(x, y, pull=bool((modifiers | pressed) & key.MOD_SHIFT))
            self.drag_points, self.viewer.guides, self.viewer.bar = [], [], None
            if length >= CLICK and stroke is not None and self.may("stroke"):
                self.act(stroke.doable_tilt(self.world.physics.edge, self.world.physics.time_step))
            elif length >= CLICK and stroke is None:
                self.note("draw the stroke over the table: the line must lie on it")
        elif length < CLICK:
            if pressed_with == mouse.LEFT:
                self.lift(die)
        elif self.may("flick") and self.touchable(die):
            flick = self._flick(die, x0, y0, x, y)
            if isinstance(self.skill_game, Flickers):
                self.skill_game.flicked = die  # the game judges the die the person flicked
            self.act(flick)
        return True

    def plane_point(self, x: float, y: float, height: float) -> np.ndarray | None:
        """The point (3,) ``height`` m above the table that window point (x, y) shows; None above the horizon."""
        origin, direction = self.ray(x, y)
        if direction[2] > -1e-6:
            return None
        return origin + (height - origin[2]) / direction[2] * direction

    def touchable(self, die: DieId) -> bool:
        """Whether the person may touch ``die`` with a finger in the skill game (say why not when they may not)."""
        game = self.skill_game
        if game is None or self.viewer.world is None:
            return True
        allowed = guide.touchable(game, self.world.readout(require_rest=False))
        if allowed is None or die in allowed:
            return True
        colour = DICE[die].colour
        if isinstance(game, Flickers):
            why = "it is on the plate already" if die in game.own[game.to_move] else "it is not yours"
            self.note(f"refused: die {die} ({colour}): {why}; flick one of your {game.COLOURS[game.to_move]} dice")
        else:
            self.note(f"refused: die {die} ({colour}) may not be touched in {game.info.title} (H: help)")
        return False

    def _flick(self, die: DieId, x0: float, y0: float, x: float, y: float) -> actions.Flick:
        """The flick of ``die`` by a drag from (x0, y0) to (x, y): aimed where the drag goes over the table."""
        height = float(self.world.poses()[1][self.world.dice.index(die), 2])
        a, b = self.plane_point(x0, y0, height), self.plane_point(x, y, height)
        length = math.hypot(x - x0, y - y0)
        if a is None or b is None or np.linalg.norm((b - a)[:2]) < 1e-6:
            # Over the horizon: the drag's way on the screen, flattened onto the table.
            a, b = np.zeros(3), unit(self.azimuth(x - x0, y - y0))
        return strokes.flick(die, a, b, length)

    def _aim_flick(self, x: float, y: float) -> None:
        """While a die is dragged: its aim line, as long as the flick is strong, and the strength bar."""
        assert self.grab is not None
        die, x0, y0 = self.grab[:3]
        if self.viewer.world is None or die not in self.world.dice or math.hypot(x - x0, y - y0) < CLICK:
            self.viewer.guides, self.viewer.bar = [], None
            return
        flick = self._flick(die, x0, y0, x, y)
        share = strokes.flick_strength(flick.impulse)
        start = self.world.poses()[1][self.world.dice.index(die), :3]
        aim = strokes.aim_points(start, flick.azimuth, 0.03 + 0.12 * share)
        self.viewer.guides = [Guide.through(aim, AIM_RGBA, 4.0)]
        text = f"flick die {die}: {1000 * flick.impulse:.1f} mN s towards {flick.azimuth:.0f} deg"
        self.viewer.bar = Bar(share, text, x, y)

    def _draw_stroke(self, x: float, y: float, pull: bool | None = None) -> strokes.Stroke | None:
        """While a ctrl-drag goes on: record the point, show the line, the way the dice hop and the strength."""
        point = self.plane_point(x, y, DRAW_HEIGHT)
        if point is None or not self.drag_points:
            return None
        self.drag_points.append((self.clock(), point))
        start = self.drag_points[0][1]
        if float(np.linalg.norm((point - start)[:2])) < 1e-4:
            return None
        if pull is None:
            pull = self.shift_held()
        stroke = strokes.Stroke(start, point, strokes.drag_speed(self.drag_points), pull)
        hops: dict[DieId, float] = {}
        if self.viewer.world is not None:
            dice, poses = self.world.poses()
            hops = stroke.hops({d: p[:3] for d, p in zip(dice, poses, strict=True)})
        self.viewer.guides = [
            Guide.through(strokes.line_points(stroke), AIM_RGBA, 3.0),
            Guide.through(np.stack([start, point]), PRESSED_RGBA, 2.0),
        ]
        self.viewer.bar = Bar(stroke.strength, strokes.describe(stroke, hops), x, y)
        return stroke

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == key.ESCAPE:
            return self._cancel()
        if modifiers & (key.MOD_CTRL | key.MOD_COMMAND) and symbol in (key.Z, key.Y, key.S):
            return self._ask(symbol)
        if self.chooser is not None and self.chooser.key(symbol):
            return True
        if self.carrying is not None and symbol in (key.Q, key.E, key.R):
            # Tabletop Simulator's keys for a die in the hand: Q and E turn it a quarter, R rolls it.
            carrier = self.carrier
            turn = {key.Q: TURN, key.E: -TURN}.get(symbol)
            self.viewer.queue.append(carrier.roll if turn is None else functools.partial(carrier.turn, turn))
            held = self.carrying
            self.note(f"roll die {held} in the hand" if turn is None else f"turn die {held} {turn:+g} deg")
            return True
        if symbol == key.H:
            self.show_help = not self.show_help
        elif symbol == key.P:
            self.placing = not self.placing
        elif symbol == key.C:
            colours = self.chooser.colours(self.funnel) if self.chooser else COLOUR_ORDER
            self.colour = (
                colours[(colours.index(self.colour) + 1) % len(colours)] if self.colour in colours else colours[0]
            )
        elif symbol == key.O:
            self.orientation = (self.orientation + (23 if modifiers & key.MOD_SHIFT else 1)) % 24
        elif self.viewer.world is None or self.chooser is not None:
            return False
        else:
            return self._physical_key(symbol, modifiers)
        return True

    def _physical_key(self, symbol: int, modifiers: int) -> bool:
        """The keys that act on the world (in a skill game, only those its rules allow and on the person's turn)."""
        control = {
            key.LEFT: "tilt",
            key.RIGHT: "tilt",
            key.UP: "tilt",
            key.DOWN: "tilt",
            key.S: "shake",
            key.J: "shake",
            key.T: "throw",
            key.U: "pull",
            key.A: "attach",
            key.L: "pour",
            key.E: "end",
            key.W: "wait",
            key.B: "blow",
        }.get(symbol)
        game = self.skill_game
        if control is None:
            return False
        if control == "end" and game is None:
            return False
        if not self.may(control):
            return True
        if symbol in (key.LEFT, key.RIGHT, key.UP, key.DOWN):
            turn = {key.RIGHT: (1, 0), key.LEFT: (-1, 0), key.UP: (0, 1), key.DOWN: (0, -1)}[symbol]
            self.act(actions.Tilt(self.azimuth(*turn), angle=12.0, hold=0.5))
        elif symbol in (key.S, key.J):
            if symbol == key.J:
                shake = strokes.FIRM_SHAKE
            elif modifiers & key.MOD_SHIFT:
                shake = strokes.GENTLE_SHAKE
            else:
                shake = strokes.HARD_SHAKE
            self.act(dataclasses.replace(shake, azimuth=round(self.azimuth(1, 0), 3)))
        elif symbol == key.T:
            self._throw()
        elif symbol == key.U:
            self._pull(PULL / 2 if modifiers & key.MOD_SHIFT else PULL)
        elif symbol == key.A:
            self._attach()
        elif symbol == key.L:
            self._pour()
        elif symbol == key.E and isinstance(game, DiceInHand):
            game.stop()  # Mount(a)ing: the player declares the turn over; the hands let go for a moment
            self.act(actions.Wait(0.1))
        elif symbol == key.W:
            self.act(actions.Wait(0.5))
        elif symbol == key.B:
            return False  # held: the breath is read each frame (``breath``)
        return True

    def _ask(self, symbol: int) -> bool:
        """Ctrl+Z (undo the last action), Ctrl+Y (redo it) and Ctrl+S (save): on the free table the viewer does
        them between jobs; in a match, the window's player while the person may act (their own turn)."""
        request = {key.Z: "undo", key.Y: "redo", key.S: "save"}[symbol]
        if self.viewer.sandbox:
            self.viewer.requests.append(request)
            return True
        if self.skill_game is None and self.chooser is None and self.saver is None:
            self.note(f"{request} is for the free table and the matches: in a scene, what is done stands")
        elif self.sink is None and self.chooser is None:
            self.note(f"{request} waits for your turn: nothing done")
        elif request == "save" and self.saver is None:
            self.note("this match cannot be saved")
        elif request != "save" and self.takeback is None:
            self.note(f"{request} is off in this match (--no-undo): what is done stands")
        else:
            self.viewer.requests.append(request)
        return True

    def _cancel(self) -> bool:
        """Esc: forget a number being typed, or leave place mode; False when there is nothing to cancel."""
        if self.chooser is not None and self.chooser.typed:
            self.chooser.typed = ""
            return True
        if self.chooser is not None and self.chooser.source is not None:
            self.note(f"the die in {self.chooser.source} stays: click another die to move")
            self.chooser.source = None
            return True
        if self.placing and self.chooser is None:
            self.placing = False
            self.note("place mode off")
            return True
        return False

    def _throw(self) -> None:
        """Throw a die at the point under the mouse: one of the chosen colour from the box or, in a skill game,
        the next die of the player's hand (Hide Away, Dishing Up, Malicious Pleasure) or the die of the chosen
        colour nearest the camera lying off the plate that the player may touch."""
        origin, direction = self.ray(*self.mouse)
        point = self._aim(origin, direction)
        game = self.skill_game
        if isinstance(game, HideAway | DishingUp | MaliciousPleasure):
            if not game.hand[game.to_move]:
                self.note("refused: your hand is empty: no die of yours is left to throw")
                return
            readout = self.world.readout(require_rest=False)
            if isinstance(game, MaliciousPleasure) and game.spot is not None:
                die = game.next_set_down()[0]  # a set-down, due after a throw into a funnel with a die of yours
            else:
                die = game.next_throw(readout, self.rng)[0]  # the game deals the die: always one of the player's
            spare = [die]
        elif game is not None:
            readout = self.world.readout(require_rest=False)
            allowed = guide.touchable(game, readout)
            lying = [r for r in readout.dice.values() if not r.on_plate and r.colour == self.colour]
            lying = [r for r in lying if allowed is None or r.die in allowed]
            lying.sort(key=lambda r: float(np.linalg.norm(np.array(r.position) - origin)))
            spare = [r.die for r in lying]
        else:
            spare = self.spare_dice(self.colour, origin)
            self.take(spare[:1])
        if not spare:
            where = "lying off the plate" if self.skill_game is not None else "left to throw"
            self.note(f"no {self.colour} die {where}")
            return
        azimuth = math.degrees(math.atan2(direction[1], direction[0]))
        self.act(
            actions.Throw(spare[0], (float(point[0]), float(point[1])), height=0.12, distance=0.1, azimuth=azimuth)
        )

    def _pull(self, distance: float) -> None:
        """Pull the die under the mouse ``distance`` m out of its slot, the way its uncovered faces let it go."""
        die = self.die_at(*self.mouse)
        if die is None:
            self.note("point at a seated die to pull it out")
            return
        slot = self.world.readout(require_rest=False).dice[die].slot
        if slot is None:
            self.note(f"die {die} is in no slot: only a seated die can be pulled out")
            return
        self.act(actions.Pull(slot, distance))

    def _attach(self) -> None:
        """Set a die down corner-down, showing the chosen faces, in the cell beyond the face under the mouse:
        a die of the chosen colour from the box or, in Mount(a)ing, the next die of the player's hand."""
        world, edge = self.world, self.world.physics.edge
        origin, direction = self.ray(*self.mouse)
        dice, poses = world.poses()
        hit = ray_hit(origin, direction, poses, edge)
        if hit is None:
            self.note("point at a face of a die to attach a die beyond it")
            return
        n, distance = hit
        if not corner_down(world.readout(require_rest=False).dice[dice[n]]):
            self.note(f"die {dice[n]} does not stand corner-down: attach beside a die of the pyramid or a mounted one")
            return
        cell = face_cell(origin + distance * direction, poses[n, :3], world.plate_pose, edge)
        seat = actions.cell_pose(world, cell, self.up)[0]
        if float(np.linalg.norm(poses[:, :3] - seat, axis=1).min()) < TOL.occupied * edge:
            self.note(f"the cell {cell} beyond that face of die {dice[n]} is taken")
            return
        game = self.skill_game
        if game is not None:
            if not isinstance(game, DiceInHand):
                self.note(f"{game.info.title} hands out no dice to attach (H: help)")
                return
            if not game.hand:
                self.note("the hand is empty")
                return
            die = game.next_die()
        else:
            spare = self.spare_dice(self.colour, seat)
            if not spare:
                self.note(f"no {self.colour} die left to attach")
                return
            die = spare[0]
            self.take([die])
        self.act(actions.Attach(die, cell, self.up))

    def _pour(self) -> None:
        """Pour a ladleful from 8 cm above the point under the mouse, tipped away from the camera: dice of the
        chosen colour from the box or, in Trulla, the player's own."""
        origin, direction = self.ray(*self.mouse)
        point = self._aim(origin, direction)
        game = self.skill_game
        if game is not None:
            if not isinstance(game, Trulla):
                self.note(f"only Trulla has a ladle, not {game.info.title} (H: help)")
                return
            dice = list(game.ladleful(LADLE))
        else:
            dice = self.spare_dice(self.colour, point)[:LADLE]
            self.take(dice)
        if not dice:
            where = "in your hand" if self.skill_game is not None else f"{self.colour} left to pour"
            self.note(f"no dice {where} to pour")
            return
        azimuth = math.degrees(math.atan2(direction[1], direction[0]))
        target = (float(point[0]), float(point[1]))
        self.act(actions.Pour(tuple(dice), target, height=float(point[2]) + LADLE_HEIGHT, azimuth=azimuth))

    # -- choosing a legal action -----------------------------------------------------------------

    def carries(self) -> bool:
        """Whether a left-drag on a die carries it: on the free table (in a game, hands do what its actions do)."""
        free = self.chooser is None and self.skill_game is None
        return free and self.viewer.world is not None and self.viewer.sandbox

    def _pick_up(self, die: DieId) -> None:
        """A left-drag on a die of the free table: the hand picks it up."""
        self.carrier.pick_up(die)
        self.note(f"carrying die {die}: Q/E turn it, R rolls it; let go (moving: a throw)")

    def _choose_at(self, x: float, y: float) -> None:
        """A click while choosing: name the die clicked (a choice about it), remove it, or pick it to move, or
        (a die picked) say where it goes."""
        chooser = self.chooser
        assert chooser is not None
        slot = self.slot_at(x, y)
        if chooser.source is not None:
            target = self.target_at(x, y)
            if target is not None:
                options = [a for a in chooser.moves_of(chooser.source) if (chooser.source, target) in a.steps]
                if options:
                    # A die that can go alone or with others (a row shifted whole): a click moves the fewest
                    # dice, a shift-click the most; moves of as many dice as each other stay a choice by number.
                    sizes = [len(a.steps) for a in options]
                    size = max(sizes) if self.shift_held() else min(sizes)
                    options = [a for a, n in zip(options, sizes, strict=True) if n == size]
                chooser.pick(options, f"no legal move takes the die in {chooser.source} to {target}")
                if chooser.choice is not None:
                    chooser.source = None
                return
            if slot is None or slot == chooser.source or not chooser.moves_of(slot):
                where = ", ".join(map(str, chooser.targets()))
                self.note(f"the die in {chooser.source} goes to {where}: click one (Esc: choose another die)")
                return
        if slot is None:
            return
        removing = [a for a in chooser.legal if isinstance(a, Remove | RemoveColumn)]
        if chooser.moves_of(slot) and not removing:
            chooser.source = slot
            self.note(f"the die in {slot}: click where it goes ({len(chooser.targets())} places); Esc: another die")
            return
        self._choose_die(slot)

    def _choose_die(self, slot: geometry.Slot | None) -> None:
        """A click on a die: the legal actions that remove it or name it (one is taken; several, a choice by number)."""
        assert self.chooser is not None
        options: list[Action] = [
            a
            for a in self.chooser.legal
            if (isinstance(a, Remove) and a.slot == slot) or (isinstance(a, RemoveColumn) and slot in a.slots)
        ]
        options += self.chooser.naming(slot) if slot is not None else []
        self.chooser.pick(options, f"no legal action removes or names the die in {slot}")

    def shift_held(self) -> bool:
        """Whether a Shift key is down now."""
        return bool(self.keys[key.LSHIFT] or self.keys[key.RSHIFT])

    def _place_options(self, slot: geometry.Slot) -> list[Place]:
        """The legal placements in ``slot`` of the chosen colour and faces; failing that, of the first legal colour."""
        assert self.chooser is not None
        here = [a for a in self.chooser.legal if isinstance(a, Place) and a.slot == slot]
        options = [a for a in here if a.colour == self.colour and a.up in (None, self.up)]
        if not options and here:
            colour = here[0].colour
            options = [a for a in here if a.colour == colour and a.up in (None, self.up)] or here[:1]
        return options

    def _choose_place(self, slot: geometry.Slot) -> None:
        assert self.chooser is not None
        options = self._place_options(slot)
        if options:
            self.colour = options[0].colour
        self.chooser.pick(options[:1], f"no legal place at {slot}")
