"""A skill game in the window: a person's hands take their turns, programmed players take theirs.

Sits beside ``pyramid.ui.player``: the same ``Match`` loop as ``pyramid play N`` runs, each
world it builds is shown live, and a ``human`` seat's next action is whatever the person's hands do (lift,
flick, blow, tilt, shake, throw, pull, attach, pour, wait): the same ``pyramid.physics.actions`` a
programmed player returns.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pyramid import geometry
from pyramid.agents import Controller
from pyramid.agents.seats import make_hand
from pyramid.perception import Readout
from pyramid.physics.actions import Blow, PhysicalAction
from pyramid.physics.hands import slab_vertices
from pyramid.physics.tables import next_free
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.plate import TimedPlateGame, funnel_point
from pyramid.ui.camera import PlateFollower
from pyramid.ui.guide import goal_line, own_dice, skill_help
from pyramid.ui.hands import Hands
from pyramid.ui.marks import CORNERS as CORNER_LETTERS
from pyramid.ui.marks import Mark, corner_marks
from pyramid.ui.player import face_table, pace_text, wait_for_replay
from pyramid.ui.replay import Move, Recorder, ReplayHand
from pyramid.ui.saved import SavedMatch, save_match
from pyramid.ui.takeback import Moment, TakeBack
from pyramid.ui.viewer import Viewer, WindowClosed, watching

SAVE_TO = Path("match.pickle")  # Ctrl+S in a match writes here (or match-2.pickle, ... if taken)
OWN_RGBA = (20, 90, 200, 255)  # the label on the person's own dice
GOAL_RGBA = (20, 130, 40, 255)  # the label on the funnels a tilting game wants filled
PLATE_CORNERS = tuple(slot for _, slot in CORNER_LETTERS)  # the corner funnels, in the order of their marks


class WindowHand(Controller):
    """A person at the window: the next physical action their hands make (a breath while B is held)."""

    name = "person"

    def __init__(self, viewer: Viewer, hands: Hands) -> None:
        self.viewer = viewer
        self.hands = hands
        self.blowing = False  # the last action was a puff of a breath held (B)

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """The action the person asked for while the last one ran, if any; else wait, drawing (the world stands
        still), until the person acts. Ctrl+Z, Ctrl+Y and Ctrl+S asked meanwhile are answered between frames."""
        before = Moment.of(game, self.viewer.world)  # the game as the person's next action finds it
        takeback = self.hands.takeback
        if self.hands.pending:
            action = self.hands.pending.pop(0)
            self.viewer.say(f"now: {action}")
            if takeback is not None:
                takeback.keep(before)
            return action
        chosen: list[PhysicalAction] = []
        self.viewer.queue.clear()  # jobs of the free table's hands have no place in a game
        self.hands.sink = chosen.append
        self.hands.game = game  # the dice of the player's hand or ladle come from the game
        try:
            while not chosen:
                blow = self.hands.breath()
                if blow is not None:
                    chosen.append(blow)
                    break
                self.viewer.frame(0.0)
                while self.viewer.requests and not chosen:
                    if self._answer(game, self.viewer.requests.pop(0)):
                        before = Moment.of(game, self.viewer.world)
        finally:
            self.hands.sink = None
            self.hands.game = None
        blowing, self.blowing = self.blowing, isinstance(chosen[0], Blow)
        if takeback is not None and not (blowing and self.blowing):
            takeback.keep(before)  # a breath held goes back whole: kept before its first puff only
        return chosen[0]

    def _answer(self, game: SkillGame, request: str) -> bool:
        """Ctrl+Z, Ctrl+Y (True: the game and its world went back or forth) or Ctrl+S, asked on the person's turn."""
        world, takeback, hands = self.viewer.world, self.hands.takeback, self.hands
        if request == "save":
            if hands.saver is not None:
                self.viewer.say(hands.saver())
            return False
        if takeback is None:
            return False
        done = takeback.back(game, world) if request == "undo" else takeback.forth(game, world)
        if not done:
            why = "none of your actions this turn" if request == "undo" else "nothing was undone"
            self.viewer.say(f"nothing to {request}: {why}")
            return False
        what = "undone: the dice as before your last action" if request == "undo" else "redone: your action again"
        self.viewer.say(f"{what}; the turn's clock runs on ({takeback.counts()})")
        return True


def skill_text(
    game: SkillGame,
    kinds: Sequence[str],
    turn: dict[str, float],
    world: World | None,
    viewer: Viewer,
    hover: str = "",
    queued: Sequence[PhysicalAction] = (),
) -> str:
    """The overlay of a skill game: title, goal, scores, whose turn and its clock, or the outcome; the actions
    ``queued`` to run after the one running; the die under the mouse (``hover``); the log."""
    info = game.info
    scores = "   ".join(f"player {p} ({kinds[p]}): {s:g}" for p, s in enumerate(game.scores()))
    lines = [f"{info.number}. {info.title}   {pace_text(viewer)}", goal_line(game), scores]
    if game.outcome is not None:
        lines += [game.outcome.result(), "Enter: replay the match   Esc Esc: quit"]
    elif world is not None and "start" in turn:
        elapsed = world.time - turn["start"]
        who = kinds[game.to_move]
        waiting = " - your move" if who == "human" else ""
        lines.append(f"player {game.to_move} ({who}) to move{waiting}: {elapsed:5.2f} of {game.time_limit:g} s")
        if game.lifts_dice_out:
            taken = int(turn["dice"]) - len(world.dice)
            lines.append(f"this turn so far: {taken} {'die' if taken == 1 else 'dice'} taken out")
    elif world is not None:
        lines.append("setting out the dice for the next turn")
    if queued:
        lines.append("queued, to run next: " + "; ".join(map(str, queued)))
    return "\n".join(lines + [hover, *viewer.messages[-6:]])


def plate_view(world: World) -> tuple[np.ndarray, np.ndarray]:
    """The plate's up (3,) as it lies now, and the points (n, 3) the camera must keep in view: the plate's corners
    where they are and every die on or over it."""
    rotation = geometry.quat_to_matrix(world.plate_pose[3:])[0]
    corners = slab_vertices(world.physics.edge) @ rotation.T + world.plate_pose[:3]
    readout = world.readout(require_rest=False)
    _, poses = world.poses()
    near = [poses[n, :3] for n, d in enumerate(world.dice) if readout.dice[d].on_plate]
    return rotation[:, 2], np.vstack([corners, *near]) if near else corners


def skill_marks(game: SkillGame, kinds: Sequence[str], world: World) -> list[Mark]:
    """The marks of a skill game: the plate's corners, "yours" on the dice of the person to move (or of the first
    person seat), and "goal" on the funnels a tilting game wants filled."""
    readout = world.readout(require_rest=False)
    marks = corner_marks(world.plate_pose, world.physics.edge) if world.plate else []
    people = [p for p, k in enumerate(kinds) if k == "human"]
    seat = game.to_move if game.to_move in people else (people[0] if people else None)
    if seat is not None:
        _, poses = world.poses()
        index = {d: n for n, d in enumerate(world.dice)}
        lift = np.array([0.0, 0.0, 0.9 * world.physics.edge])
        for die in sorted(own_dice(game, seat, readout)):
            point = poses[index[die], :3] + lift
            marks.append(Mark("yours" if len(people) == 1 else f"p{seat}", tuple(point.tolist()), OWN_RGBA, 9))
    if isinstance(game, TimedPlateGame) and game.outcome is None:
        rotation = geometry.quat_to_matrix(world.plate_pose[3:])[0]
        for slot in sorted(set(game.goal_slots(readout).values())):
            if slot in PLATE_CORNERS and world.plate:
                # A corner funnel to fill: its corner's letter says so, in the goal's colour.
                n = PLATE_CORNERS.index(slot)
                marks[n] = dataclasses.replace(marks[n], text=f"{marks[n].text}: goal", rgba=GOAL_RGBA)
                continue
            point = world.plate_pose[:3] + rotation @ funnel_point(slot)
            marks.append(Mark("goal", tuple(point.tolist()), GOAL_RGBA, 9))
    return marks


def play_skill_in_window(
    game_type: type[SkillGame],
    kinds: Sequence[str],
    seed: int,
    options: dict[str, str] | None = None,
    replays: int | None = None,
    speed: float = 1.0,
    *,
    undo: bool = True,
    resume: SavedMatch | None = None,
    save_to: Path = SAVE_TO,
) -> SkillGame:
    """Play a skill game in a window, hot-seat: ``human`` seats act with their hands, the others are programmed.

    Enter replays a finished match (a person's recorded actions again, the programmed seats from their
    seeds, in fresh worlds from the same seeds);
    ``replays`` (for scripts) stops after that many replays instead of waiting for a key; ``speed`` is
    the pace in times real time. On the person's turn Ctrl+Z and Ctrl+Y undo and redo their actions of
    the turn (unless ``undo`` is False) and Ctrl+S saves the match to ``save_to`` (or ``-2``, ``-3``...);
    ``resume`` goes on with a saved match (its game, turn, clock and dice; it is not replayed). Returns
    the game as it ended.
    """

    def make_game() -> SkillGame:
        return game_type(len(kinds), rng=np.random.default_rng([seed, 1]), **(options or {}))

    game = make_game() if resume is None else resume.game
    if not isinstance(game, game_type):
        raise ValueError(f"the saved match is of {game.info.title}, not of {game_type.info.title}")
    viewer = Viewer(None, f"{game.info.number}. {game.info.title}", speed=speed)
    hands = Hands(viewer, np.random.default_rng([seed, 3]))
    viewer.push_handlers(hands)
    hands.takeback = TakeBack() if undo else None
    resumed = [resume.clock or 0.0] if resume is not None else []  # the saved turn's clock, until it goes on
    follower = PlateFollower(viewer.camera)
    recorded: list[list[Move]] | None = None
    finished = game
    worlds: list[World] = []
    framed: list[bool] = []
    try:
        while True:
            # A replay plays a person's recorded moves again; a programmed seat plays again from the same seed,
            # asking the game for its dice as it did (the game's hands empty the same way).
            seats: list[Controller] = [
                (WindowHand(viewer, hands) if recorded is None else ReplayHand(recorded[n]))
                if k == "human"
                else make_hand(k, np.random.default_rng([seed, 2, n]))
                for n, k in enumerate(kinds)
            ]
            if recorded is not None:
                viewer.say("replaying the match")
            players = [Recorder(p) for p in seats]
            turn: dict[str, float] = {}

            # In a replay nobody acts: the person's recorded actions play again.
            hands.match, hands.pending = game, []
            hands.person_seats = {n for n, k in enumerate(kinds) if k == "human"} if recorded is None else set()

            def overlay(_: float, game: SkillGame = game, turn: dict[str, float] = turn) -> None:
                world = viewer.world
                if not framed and world is not None and world.dice:
                    viewer.frame_world()  # once, when the first turn's dice are set out
                    framed.append(True)
                if world is not None:
                    hands.update_jet()
                    follower.follow(*plate_view(world), viewer.width / max(viewer.height, 1))
                    viewer.marks = skill_marks(game, kinds, world)
                hover = hands.hover() if world is not None else ""
                status = skill_text(game, kinds, turn, world, viewer, hover, hands.pending)
                side = face_table(world.readout(require_rest=False).pyramid) if world is not None else ""
                viewer.set_text(status, side, skill_help(game) if hands.show_help else "")

            viewer.on_frame[:] = [overlay]
            with contextlib.ExitStack() as stack:

                def make_world(stack: contextlib.ExitStack = stack, turn: dict[str, float] = turn) -> World:
                    turn.clear()  # the clock starts when the turn does, in this world
                    world = World()
                    worlds.append(world)
                    viewer.world = world
                    stack.enter_context(watching(world, viewer))
                    return world

                def log(line: str, turn: dict[str, float] = turn) -> None:
                    if line.startswith("turn ") and viewer.world is not None:
                        gone = resumed.pop() if resumed else 0.0
                        turn["start"], turn["dice"] = viewer.world.time - gone, len(viewer.world.dice)
                        if hands.takeback is not None:
                            hands.takeback.clear()  # undo goes back within the person's turn only
                    elif line.strip().startswith("-> "):
                        turn.clear()  # the turn is judged: its clock stops
                    viewer.say(line.strip())

                def save(game: SkillGame = game, turn: dict[str, float] = turn) -> str:
                    world = viewer.world
                    clock = world.time - turn["start"] if world is not None and "start" in turn else None
                    table = world.snapshot() if world is not None else None
                    saved = SavedMatch(game, list(kinds), seed, dict(options or {}), table, clock)
                    path = save_match(saved, next_free(save_to))
                    return f"saved the match to {path} (go on: pyramid play {game.info.number} --view --load {path})"

                hands.saver = save if recorded is None else None
                match = Match(game, players, make_world=make_world, rng=np.random.default_rng([seed, 3]), log=log)
                if resumed and resume is not None:
                    world = make_world()
                    if resume.table is not None:
                        world.restore(resume.table)
                    match.resume_turn(world, resumed[0])
                match.run()
            viewer.say(game.outcome.result() if game.outcome else "")
            finished = game
            recorded = [p.moves for p in players]
            if resume is not None:
                # Its turns before the save were played in another window: there is nothing to replay from.
                viewer.say("a resumed match has no replay: Esc Esc quits")
                if replays is None:
                    while wait_for_replay(viewer):
                        viewer.say("a resumed match has no replay: Esc Esc quits")
                break
            if replays is not None:
                if replays <= 0:
                    break
                replays -= 1
            elif not wait_for_replay(viewer):
                break
            game = make_game()
    except WindowClosed:
        pass
    finally:
        viewer.close()
        for world in worlds:
            with contextlib.suppress(Exception):
                world.close()
    return finished
