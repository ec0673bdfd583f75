"""A skill game in the window: a person's hands take their turns, programmed players take theirs.

Sits beside ``pyramid.ui.player``: the same ``Match`` loop as ``pyramid play N`` runs, each
world it builds is shown live, and a ``human`` seat's next action is whatever the person's hands do (lift,
flick, blow, tilt, shake, throw, pull, attach, pour, wait): the same ``pyramid.physics.actions`` a
programmed player returns.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np

from pyramid.agents import Controller
from pyramid.agents.seats import make_hand
from pyramid.perception import Readout
from pyramid.physics.actions import PhysicalAction
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.skillgames.base import DiceInHand, SkillGame
from pyramid.ui.hands import Hands
from pyramid.ui.player import face_table, pace_text, wait_for_replay
from pyramid.ui.replay import Move, Recorder, ReplayHand
from pyramid.ui.viewer import Viewer, WindowClosed, watching

SKILL_HELP = (
    "drag: turn   wheel: zoom   shift-drag: pan   R: reset view   click a die: lift it out   drag a die: flick it\n"
    "hold B: blow where the mouse points   arrows: tilt the plate   ctrl-drag: tilt that way   S: shake   W: wait\n"
    "U: pull the die 8 mm out (shift-U: 4 mm)   A: attach a die of your hand beyond the face under the mouse\n"
    "{end}L: pour 6 of your dice   T: throw a die lying off the plate (C colour)   H: help   Esc Esc: quit\n"
    "Space: pause   + and -: pace   point at a die: its faces"
)


class WindowHand(Controller):
    """A person at the window: the next physical action their hands make (a breath while B is held)."""

    name = "person"

    def __init__(self, viewer: Viewer, hands: Hands) -> None:
        self.viewer = viewer
        self.hands = hands

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        """Wait, drawing (the world stands still), until the person acts."""
        chosen: list[PhysicalAction] = []
        self.viewer.queue.clear()  # what the hands did while another player had the turn does not count
        self.hands.sink = chosen.append
        self.hands.game = game  # the dice of the player's hand or ladle come from the game
        try:
            while not chosen:
                blow = self.hands.breath()
                if blow is not None:
                    return blow
                self.viewer.frame(0.0)
        finally:
            self.hands.sink = None
            self.hands.game = None
        return chosen[0]


def skill_text(
    game: SkillGame, kinds: Sequence[str], turn: dict[str, float], world: World | None, viewer: Viewer, hover: str = ""
) -> str:
    """The overlay of a skill game: title, scores, whose turn and its clock, or the outcome; the die under the
    mouse (``hover``); the log."""
    info = game.info
    scores = "   ".join(f"player {p} ({kinds[p]}): {s:g}" for p, s in enumerate(game.scores()))
    lines = [f"{info.number}. {info.title}   {pace_text(viewer)}", scores]
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
    return "\n".join(lines + [hover, *viewer.messages[-6:]])


def skill_help(game: SkillGame) -> str:
    """The keys of a skill game in the window: E (end the turn) only where the player may say the turn is over."""
    end = "E: end the turn   " if isinstance(game, DiceInHand) else ""
    return SKILL_HELP.replace("{end}", end)


def play_skill_in_window(
    game_type: type[SkillGame],
    kinds: Sequence[str],
    seed: int,
    options: dict[str, str] | None = None,
    replays: int | None = None,
    speed: float = 1.0,
) -> SkillGame:
    """Play a skill game in a window, hot-seat: ``human`` seats act with their hands, the others are programmed.

    Enter replays a finished match (a person's recorded actions again, the programmed seats from their
    seeds, in fresh worlds from the same seeds);
    ``replays`` (for scripts) stops after that many replays instead of waiting for a key; ``speed`` is
    the pace in times real time. Returns the game as it ended.
    """

    def make_game() -> SkillGame:
        return game_type(len(kinds), rng=np.random.default_rng([seed, 1]), **(options or {}))

    game = make_game()
    viewer = Viewer(None, f"{game.info.number}. {game.info.title}", speed=speed)
    hands = Hands(viewer, np.random.default_rng([seed, 3]))
    viewer.push_handlers(hands)
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

            def overlay(_: float, game: SkillGame = game, turn: dict[str, float] = turn) -> None:
                world = viewer.world
                if not framed and world is not None and world.dice:
                    viewer.frame_world()  # once, when the first turn's dice are set out
                    framed.append(True)
                status = skill_text(game, kinds, turn, world, viewer, hands.hover() if world is not None else "")
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
                        turn["start"], turn["dice"] = viewer.world.time, len(viewer.world.dice)
                    elif line.strip().startswith("-> "):
                        turn.clear()  # the turn is judged: its clock stops
                    viewer.say(line.strip())

                match = Match(game, players, make_world=make_world, rng=np.random.default_rng([seed, 3]), log=log)
                match.run()
            viewer.say(game.outcome.result() if game.outcome else "")
            finished = game
            recorded = [p.moves for p in players]
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
