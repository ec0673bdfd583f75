"""A skill game in the window: a person's hands take their turns, programmed players take theirs.

Sits beside ``pyramid.ui.player``: the same ``Match`` loop as ``pyramid play N`` runs, each
world it builds is shown live, and a ``human`` seat's next action is whatever the person's hands do (lift,
flick, blow, tilt, shake, throw, pull, attach, pour, wait): the same ``pyramid.physics.actions`` a
programmed player returns.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from pyramid.agents import Controller
from pyramid.perception import Readout
from pyramid.physics import actions
from pyramid.physics.actions import PhysicalAction

if TYPE_CHECKING:  # pyglet opens a display when imported: the window modules are imported where they are used
    from pyramid.physics.world import World
    from pyramid.skillgames.base import SkillGame
    from pyramid.ui.player import Hands
    from pyramid.ui.viewer import Viewer

SKILL_HELP = (
    "drag: turn   wheel: zoom   shift-drag: pan   R: reset view   click a die: lift it out   drag a die: flick it\n"
    "hold B: blow where the mouse points   arrows: tilt the plate   ctrl-drag: tilt that way   S: shake   W: wait\n"
    "U: pull the die 8 mm out (shift-U: 4 mm)   A: attach a die of your hand beyond the face under the mouse\n"
    "E: end the turn   L: pour 6 of your dice   T: throw a die lying off the plate (C colour)   H: help   Esc: quit"
)


class WindowHand(Controller):
    """A person at the window: the next physical action their hands make (a breath while B is held)."""

    name = "person"

    def __init__(self, viewer: Viewer, hands: Hands) -> None:
        self.viewer = viewer
        self.hands = hands

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
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


@dataclass(frozen=True)
class Move:
    """One recorded action of a seat, and whether with it the player declared the turn over (``game.stop()``)."""

    action: actions.PhysicalAction
    stops: bool = False


class Recorder(Controller):
    """Passes on another controller's actions and keeps them, in order, for a replay.

    A player may also end a turn by word (Mount(a)ing's E, or the programmed hand stopping): the game's
    ``stopped`` turning true during an action is kept with it.
    """

    def __init__(self, player: Controller) -> None:
        self.player = player
        self.name = player.name
        self.moves: list[Move] = []

    @property
    def actions(self) -> list[PhysicalAction]:
        """The recorded actions, in order."""
        return [m.action for m in self.moves]

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """The wrapped controller's action, recorded."""
        before = bool(getattr(game, "stopped", False))
        action = self.player.act(game, readout, elapsed)
        self.moves.append(Move(action, bool(getattr(game, "stopped", False)) and not before))
        return action


def from_hand(game: Any, action: actions.PhysicalAction) -> PhysicalAction:
    """``action`` with the dice it sets down taken from the game's hand again, as the player's hands took them.

    A recorded ``Attach`` (Mount(a)ing) or ``Pour`` (Trulla) names dice that the game handed out when it
    was first played; a replay runs a fresh game whose hand still holds them. The dice are asked of the
    game by the same calls (``next_die``, ``ladleful``), so its hand empties as it did, and the action
    sets down the dice it hands out now (the same ones while the replay runs as the match ran). With the
    hand empty, the hands wait.
    """
    if isinstance(action, actions.Attach) and callable(getattr(game, "next_die", None)):
        if not game.hand:
            return actions.Wait(0.1)
        return replace(action, die=game.next_die())
    if isinstance(action, actions.Pour) and callable(getattr(game, "ladleful", None)):
        dice = tuple(game.ladleful(len(action.dice)))
        return replace(action, dice=dice) if dice else actions.Wait(0.1)
    return action


class ReplayHand(Controller):
    """Plays back one seat's recorded moves; waits once they run out (the judge then ends the turn)."""

    name = "replay"

    def __init__(self, recorded: Sequence[Move]) -> None:
        self.recorded = list(recorded)

    def act(self, game: Any, readout: Readout, elapsed: float) -> PhysicalAction:
        """The next recorded action, its dice taken from the game's hand; the player stops where they stopped."""
        if not self.recorded:
            return actions.Wait(0.5)
        move = self.recorded.pop(0)
        if move.stops and callable(getattr(game, "stop", None)):
            game.stop()
        return from_hand(game, move.action)


def skill_text(
    game: SkillGame, kinds: Sequence[str], turn: dict[str, float], world: World | None, viewer: Viewer
) -> str:
    """The overlay of a skill game: title, scores, whose turn and its clock, or the outcome; the log."""
    info = game.info
    scores = "   ".join(f"player {p} ({kinds[p]}): {s:g}" for p, s in enumerate(game.scores()))
    pace = f"   x{viewer.real_time_factor:.2f} real time" if viewer.real_time_factor > 0 else ""
    lines = [f"{info.number}. {info.title}{pace}", scores]
    if game.outcome is not None:
        lines += [game.outcome.result(), "Enter: replay the match   Esc: quit"]
    elif world is not None:
        elapsed = world.time - turn.get("start", world.time)
        who = kinds[game.to_move]
        waiting = " - your move" if who == "human" else ""
        lines.append(f"player {game.to_move} ({who}) to move{waiting}: {elapsed:5.2f} of {game.time_limit:g} s")
    return "\n".join(lines + ["", *viewer.messages[-6:]])


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
    from pyramid.agents.seats import make_hand
    from pyramid.physics.world import World
    from pyramid.play import Match
    from pyramid.ui.player import Hands, _wait_for_replay, face_table
    from pyramid.ui.viewer import Viewer, WindowClosed, watching

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
                status = skill_text(game, kinds, turn, world, viewer)
                side = face_table(world.readout(require_rest=False).pyramid) if world is not None else ""
                viewer.set_text(status, side, SKILL_HELP if hands.show_help else "")

            viewer.on_frame[:] = [overlay]
            with contextlib.ExitStack() as stack:

                def make_world(stack: contextlib.ExitStack = stack) -> World:
                    world = World()
                    worlds.append(world)
                    viewer.world = world
                    stack.enter_context(watching(world, viewer))
                    return world

                def log(line: str, turn: dict[str, float] = turn) -> None:
                    if line.startswith("turn ") and viewer.world is not None:
                        turn["start"] = viewer.world.time
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
            elif not _wait_for_replay(viewer):
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


def play_skill_command(args: argparse.Namespace) -> int:
    """``pyramid play N --view`` for a skill game: the match in a window, ``human`` seats play by hand."""
    from pyramid.cli.args import game_options, seat_kinds
    from pyramid.registry import find_game

    game_type = find_game(args.game, SkillGame)
    if args.fast:
        raise ValueError(f"{game_type.info.title} is a game of physical skill: it has no fast mode")
    kinds = seat_kinds(args.players)
    kinds = kinds or ["human"] + [game_type.default_player] * (max(game_type.info.players[0], 2) - 1)
    options = game_options(args.option)
    game = play_skill_in_window(game_type, kinds, args.seed, options)
    if game.outcome is not None:
        print(game.outcome.result())
    return 0
