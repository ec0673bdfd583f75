"""A person at the window: a world or a scene watched live with hands on it, and a match with a player who clicks.

The sessions behind ``pyramid view`` and ``pyramid play --view`` (``pyramid.cli.view``). Every input
becomes one action of the API (``pyramid.physics.actions`` or the rules' ``Place``/``Remove``), performed
by the same code a script calls: what a person does is what a script can do. The hands that turn mouse
and keys into those actions live in ``pyramid.ui.hands``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pyglet.window import key

from pyramid import geometry
from pyramid.agents.players import Player, make_player
from pyramid.dice import DICE
from pyramid.lab.runner import run_scene
from pyramid.lab.scene import Scene
from pyramid.perception import Status
from pyramid.physics.tables import next_free
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.rules import Action, Game, Place
from pyramid.state import PyramidState, random_pattern
from pyramid.ui.film import runner_worlds
from pyramid.ui.hands import Hands
from pyramid.ui.marks import corner_marks, slot_marks, with_labels
from pyramid.ui.prompt import LISTED, Prompt
from pyramid.ui.replay import ReplayPlayer
from pyramid.ui.saved import SavedMatch, save_match
from pyramid.ui.takeback import Moment, TakeBack
from pyramid.ui.viewer import Viewer, WindowClosed, watching

HELP = (
    "drag: turn   wheel: zoom   shift-drag: pan   R: reset view   click a die: lift it out   right-drag a die: flick\n"
    "left-drag a die: carry it (Q/E: turn it, R: roll it; let go while moving: a throw)   "
    "hold B: blow where the mouse points (B + wheel: stronger or weaker)   arrows: tilt the plate   W: wait\n"
    "ctrl-drag: a stroke about the line where you press (ctrl-shift: where you let go)   S: shake (shift: gently)\n"
    "U: pull the die 8 mm out (shift-U: 4 mm)   A: attach a die beyond the face under the mouse   L: pour 6 dice\n"
    "P: place mode (click a funnel; Esc leaves it)   C: colour   O: faces   T: throw a die   H: help   Esc Esc: quit\n"
    "Space: pause   + and -: pace   point at a die: its faces   Ctrl+Z: undo (again: further back)   Ctrl+Y: redo   "
    "Ctrl+S: save"
)
PLAY_HELP = (
    "drag: turn   wheel: zoom   R: reset view   click a die: remove it, or pick it to move and click where it goes\n"
    "(shift-click there: move the most dice the rules let go along)   click a funnel: place (C colour, O faces)\n"
    "or type the number of an action and press Enter (Esc: clear it)   H: hide help   Esc Esc: quit\n"
    "Space: pause   + and -: pace   point at a die: its faces   on your turn: Ctrl+Z undo your move, Ctrl+Y redo, "
    "Ctrl+S save the match"
)


class WindowPlayer(Player):
    """A person at the window: clicks a die or a funnel, or types an action's number; hot-seat with others."""

    name = "person"

    def __init__(self, viewer: Viewer, hands: Hands) -> None:
        self.viewer = viewer
        self.hands = hands

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        """Wait, drawing, until the person picks one of ``legal``; Ctrl+Z or Ctrl+Y meanwhile raise ``Retaken`` (the
        game and the world went back or forth), Ctrl+S saves the match."""
        before = Moment.of(game, self.viewer.world)
        prompt = Prompt(legal, self.viewer.say, game.state)
        self.hands.chooser = prompt
        self.hands.placing = any(isinstance(a, Place) for a in legal)
        if self.hands.placing and self.hands.colour not in prompt.colours(None):
            self.hands.colour = prompt.colours(None)[0]
        try:
            while prompt.choice is None:
                self.viewer.frame(0.0)
                while self.viewer.requests and prompt.choice is None:
                    self._answer(game, self.viewer.requests.pop(0))
        finally:
            self.hands.chooser = None
            self.hands.placing = False
        if self.hands.takeback is not None:
            self.hands.takeback.keep(before)
        return prompt.choice

    def _answer(self, game: Game, request: str) -> None:
        """Ctrl+S: save; Ctrl+Z, Ctrl+Y: go back to before the person's last move (the others' after it too) or
        forth again, and raise ``Retaken`` so that the match asks anew."""
        takeback = self.hands.takeback
        if request == "save":
            if self.hands.saver is not None:
                self.viewer.say(self.hands.saver())
            return
        if takeback is None:
            return
        world = self.viewer.world
        if not (takeback.back(game, world) if request == "undo" else takeback.forth(game, world)):
            why = "no move of yours yet" if request == "undo" else "nothing was undone"
            self.viewer.say(f"nothing to {request}: {why}")
            return
        what = "undone: the game as before your last move" if request == "undo" else "redone: your move again"
        self.viewer.say(f"{what} ({takeback.counts()})")
        raise Retaken


class Retaken(Exception):
    """A person's Ctrl+Z or Ctrl+Y changed the game while they were choosing: the match asks again."""


# -- sessions: watching a world, playing a match ---------------------------------------------------


def spare_positions(count: int, edge: float) -> np.ndarray:
    """Table positions (count, 3) for dice lying in rows behind the plate, 1.5 edges apart."""
    n = np.arange(count)
    x = (n % 12 - 5.5) * 1.5 * edge
    y = 10.5 * edge + (n // 12) * 1.5 * edge
    return np.stack([x, y, np.full(count, edge / 2 + 1e-4)], axis=1)


def full_pyramid_world(rng: np.random.Generator, spares: bool = True) -> World:
    """A settled world: a full pyramid of random colours and faces and, with ``spares``, the other 116 dice."""
    world = World()
    world.build(random_pattern(geometry.SLOTS, rng, random_faces=True))
    if spares:
        rest = [d.id for d in DICE if d.id not in set(world.dice)]
        for die, position in zip(rest, spare_positions(len(rest), world.physics.edge), strict=True):
            up = geometry.ALL_UP_FACES[int(rng.integers(24))]
            world.throw(die, position, orientation=geometry.matrix_to_quat(geometry.orientation_matrix(up)))
    world.settle(raise_on_timeout=False)
    return world


def face_table(state: PyramidState) -> str:
    """Faces showing on the outer planes per colour (edges double, apex triple), as lines of text."""
    counts = state.face_count()
    lines = ["faces showing"] + [f"{c:<6} {n:>4}" for c, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines + [f"{'total':<6} {sum(counts.values()):>4}"])


def pace_text(viewer: Viewer) -> str:
    """The pace: measured, and as set with + and -; PAUSED while Space holds time still."""
    measured = f"x{viewer.real_time_factor:.2f} real time" if viewer.real_time_factor > 0 else "at rest"
    if viewer.real_time_factor > 0 and viewer.pictures_per_second > 0:
        measured += f", {viewer.pictures_per_second:.0f} pictures/s"
    return "PAUSED (Space goes on)" if viewer.paused else f"{measured} (pace x{viewer.speed:g})"


def world_text(viewer: Viewer, hands: Hands) -> tuple[str, str]:
    """The overlay of a watched world: time, speed, what the dice do, the mode; and the face table."""
    world = viewer.world
    assert world is not None
    readout = world.readout(require_rest=False)
    lying = [r for r in readout.dice.values() if r.status is Status.LYING]
    mode = f"placing {hands.colour}, faces {''.join(map(str, hands.up))}" if hands.placing else "hands free"
    status = [
        f"{viewer.caption}   t = {world.time:6.2f} s   {pace_text(viewer)}",
        f"{len(world.dice)} dice: {len(readout.seated())} seated ({len(readout.free_dice())} free to lift out), "
        f"{len(lying)} lying, {len(readout.cocked())} cocked; {len(readout.off_plate())} off the plate   [{mode}]",
        hands.hover(),
        *viewer.messages[-5:],
    ]
    return "\n".join(status), face_table(readout.pyramid)


def open_view(world: World, title: str, rng: np.random.Generator) -> tuple[Viewer, Hands]:
    """A window on ``world`` with hands on its dice and the overlay of a watched world."""
    viewer = Viewer(world, title)
    viewer.frame_world()
    hands = Hands(viewer, rng)
    viewer.push_handlers(hands)
    viewer.held = hands.held_action

    shown = [-1.0]  # real time the overlay was last written

    def overlay(_: float) -> None:
        hands.update_ghost()
        now = time.perf_counter()
        if now - shown[0] >= 0.25:  # reading every die out costs a few ms: four times a second is enough
            shown[0] = now
            status, side = world_text(viewer, hands)
            viewer.set_text(status, side, HELP if hands.show_help else "")

    viewer.on_frame.append(overlay)
    viewer.marks = corner_marks(world.plate_pose, world.physics.edge) if world.plate else []
    return viewer, hands


def view_in_window(
    world: World, title: str = "pyramid", rng: np.random.Generator | None = None, seconds: float | None = None
) -> Viewer:
    """Open a window on ``world`` and run it live, hands on the dice, until closed (or ``seconds`` pass)."""
    viewer, _ = open_view(world, title, rng if rng is not None else np.random.default_rng(0))
    with watching(world, viewer), contextlib.suppress(WindowClosed):
        viewer.live(seconds)
    return viewer


def view_scene(scene: Scene, seed: int = 0, seconds: float | None = None) -> None:
    """``scene``'s timeline played live in a window, then hands on until closed (or ``seconds`` pass)."""
    views: list[Viewer] = []
    with contextlib.ExitStack() as stack:

        def on_new(world: World) -> None:
            viewer, _ = open_view(world, f"pyramid: {scene.name}", np.random.default_rng([seed, 3]))
            views.append(viewer)
            stack.enter_context(watching(world, viewer))

        def on_close(world: World) -> None:
            if views and not views[-1].has_exit:
                views[-1].say("the scene is over: hands on")
                views[-1].live(seconds)

        with contextlib.suppress(WindowClosed), runner_worlds(on_new, on_close):
            run_scene(scene, log=lambda line: views[-1].say(line) if views else None)
    for viewer in views:
        viewer.close()


def match_text(
    game: Game, kinds: Sequence[str], prompt: Prompt | None, messages: Sequence[str], extra: Sequence[str] = ()
) -> tuple[str, str]:
    """The overlay of a match: whose turn, the scores, the legal actions (numbered) or the outcome; the faces.

    ``extra`` lines (the pace, the die under the mouse) follow the title."""
    info = game.info
    scores = "   ".join(f"player {p} ({kinds[p]}): {s:g}" for p, s in enumerate(game.scores()))
    lines = [f"{info.number}. {info.title}", *[line for line in extra if line], scores]
    if game.outcome is not None:
        lines += [game.outcome.result(), "Enter: replay the match   Esc Esc: quit"]
    else:
        lines.append(f"player {game.to_move} ({kinds[game.to_move]}) to move")
        if prompt is not None:
            for n, action in prompt.listed():
                lines.append(f"  {n:3d}. {with_labels(str(action))}")
            if len(prompt.legal) > LISTED:
                lines.append(f"  ... {len(prompt.legal)} actions in all: type a number's first digit to list those")
            lines.append(f"number: {prompt.typed}_")
    return "\n".join(lines + ["", *messages[-4:]]), face_table(game.state)


def play_in_window(
    make_game: Callable[[], Game],
    kinds: Sequence[str],
    seed: int,
    physical: bool = True,
    delay: float = 0.4,
    replays: int | None = None,
    speed: float = 1.0,
    *,
    undo: bool = True,
    resume: SavedMatch | None = None,
    save_to: Path = Path("match.pickle"),
) -> Game:
    """Play a match in a window, hot-seat: ``human`` seats click, the others are bots; Enter replays it.

    ``make_game`` must give the same game each call (same seed); a replay rebuilds the world and plays
    the recorded actions again. ``replays`` (for scripts) stops after that many replays instead of
    waiting for a key; ``speed`` is the pace in times real time. On a person's turn Ctrl+Z and Ctrl+Y
    undo and redo their last move (with the others' after it; not when ``undo`` is False) and Ctrl+S
    saves the match to ``save_to`` (or ``-2``, ...); ``resume`` goes on with a saved match. Returns the
    game as it ended.
    """
    world = World() if physical or (resume is not None and resume.table is not None) else None
    game = make_game()
    if resume is not None:
        if not isinstance(resume.game, type(game)):
            raise ValueError(f"the saved match is of {resume.game.info.title}, not of {game.info.title}")
        game = resume.game
    if resume is not None and world is not None and resume.table is not None:
        world.restore(resume.table)
        world.settle(raise_on_timeout=False)
    viewer = Viewer(world, f"{game.info.number}. {game.info.title}", speed=speed)
    viewer.frame_world()
    hands = Hands(viewer, np.random.default_rng([seed, 3]))
    viewer.push_handlers(hands)
    hands.takeback = TakeBack() if undo else None
    recorded: list[list[Action]] | None = None
    finished = game
    try:
        while True:
            if recorded is None:
                players: list[Player] = [
                    WindowPlayer(viewer, hands) if k == "human" else make_player(k, np.random.default_rng([seed, 2, n]))
                    for n, k in enumerate(kinds)
                ]
            else:
                players = [ReplayPlayer(seat) for seat in recorded]
                viewer.say("replaying the match")

            def overlay(_: float, game: Game = game) -> None:
                hands.update_ghost()
                viewer.state = game.state
                shown = viewer.world
                plate = shown.plate_pose if shown is not None else np.array([0, 0, 0, 0, 0, 0, 1.0])
                edge = shown.physics.edge if shown is not None else viewer.stage.edge
                up = hands.up
                viewer.marks = corner_marks(plate, edge) + slot_marks(
                    hands.choice_slots(), lambda s: hands.slot_pose(s, up)[0]
                )
                extra = [pace_text(viewer), hands.hover()]
                status, side = match_text(game, kinds, hands.chooser, viewer.messages, extra)
                viewer.set_text(status, side, PLAY_HELP if hands.show_help else "")

            def save(game: Game = game) -> str:
                table = viewer.world.snapshot() if viewer.world is not None else None
                path = save_match(SavedMatch(game, list(kinds), seed, dict(game.options), table), next_free(save_to))
                return f"saved the match to {path} (go on: pyramid play {game.info.number} --view --load {path})"

            viewer.on_frame[:] = [overlay]
            hands.saver = save if recorded is None else None
            finished = _run_match(game, players, world, seed, viewer, delay, resumed=resume is not None)
            resume = None
            recorded = [[a for p, a in game.history if p == seat] for seat in range(game.players)]
            if replays is not None:
                if replays <= 0:
                    break
                replays -= 1
            elif not wait_for_replay(viewer):
                break
            if world is not None:
                world.close()
                world = World()
                viewer.world = world
            game = make_game()
    except WindowClosed:
        pass
    finally:
        viewer.close()
        if world is not None:
            world.close()
    return finished


def _run_match(
    game: Game,
    players: Sequence[Player],
    world: World | None,
    seed: int,
    viewer: Viewer,
    delay: float,
    resumed: bool = False,
) -> Game:
    """One match in the window, each action seen as it happens; a bot's move is followed by ``delay`` s.
    ``resumed``: the game and the world go on as they are (a saved match), the world not built from the game."""
    with watching(world, viewer) if world is not None else contextlib.nullcontext():
        match = Match(game, players, None if resumed else world, np.random.default_rng(seed), log=viewer.say)
        match.world = world
        if resumed and world is not None:
            match.slot_die = dict(world.readout(require_rest=False).slot_die)
        while game.outcome is None:
            bot = not isinstance(players[game.to_move], WindowPlayer)
            try:
                match.step()
            except Retaken:
                # Ctrl+Z or Ctrl+Y: the game and the world stand elsewhere; the match's count and dice follow.
                match.turns = len(game.history)
                if world is not None:
                    match.slot_die = dict(world.readout(require_rest=False).slot_die)
                continue
            if bot:
                viewer.pause(delay)
    viewer.say(game.outcome.result() if game.outcome else "")
    return game


def wait_for_replay(viewer: Viewer) -> bool:
    """Draw until Enter (replay: True) or the window closes (WindowClosed)."""
    pressed: list[int] = []

    def on_key_press(symbol: int, modifiers: int) -> bool:
        if symbol in (key.ENTER, key.RETURN):
            pressed.append(symbol)
            return True
        return False

    viewer.push_handlers(on_key_press=on_key_press)
    try:
        while not pressed:
            viewer.frame(1 / 60)
    finally:
        viewer.remove_handlers(on_key_press=on_key_press)
    return True
