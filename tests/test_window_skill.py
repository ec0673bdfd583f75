"""Skill games played to a win in the window with its own controls: a person's hands are driven through the same
input handlers a mouse and keys reach (on_mouse_press, on_mouse_drag, on_mouse_release, on_key_press), under a
virtual screen (Xvfb)."""

from __future__ import annotations

import dataclasses
import math
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import pyramid.physics.render  # noqa: F401 - loaded before the window's modules, which are unloaded after each module
from pyramid.agents.plate_hands import TiltHand
from pyramid.physics import actions
from pyramid.physics.hands import unit
from pyramid.registry import find_game
from pyramid.skillgames.base import SkillGame

if TYPE_CHECKING:
    from pyramid.ui.hands import Hands
    from pyramid.ui.viewer import Viewer

pytest.importorskip("pyglet", reason="the window needs pyglet 2: pip install -e '.[view]'")
if shutil.which("Xvfb") is None:
    pytest.skip("the window tests need a virtual screen: apt-get install xvfb", allow_module_level=True)


class Person:
    """A person at the window: a clock for the drag speeds, and gestures sent to the hands' event handlers."""

    def __init__(self, hands: Hands) -> None:
        self.hands = hands
        self.now = 100.0
        hands.clock = lambda: self.now

    @property
    def viewer(self) -> Viewer:
        return self.hands.viewer

    def pixel(self, point: np.ndarray) -> tuple[int, int]:
        """Window pixel (y from the bottom, as pyglet counts) where the world ``point`` is seen."""
        x, y = self.viewer.camera.project(np.asarray(point), self.viewer.width, self.viewer.height)
        return round(x), round(y)

    def drag(self, a: tuple[int, int], b: tuple[int, int], seconds: float, modifiers: int = 0) -> None:
        """Press at ``a``, move through the middle, let go at ``b``, ``seconds`` later."""
        from pyglet.window import mouse

        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        self.hands.on_mouse_press(*a, mouse.LEFT, modifiers)
        self.now += seconds / 2
        self.hands.on_mouse_drag(*mid, mid[0] - a[0], mid[1] - a[1], mouse.LEFT, modifiers)
        self.now += seconds / 2
        self.hands.on_mouse_drag(*b, b[0] - mid[0], b[1] - mid[1], mouse.LEFT, modifiers)
        self.hands.on_mouse_release(*b, mouse.LEFT, modifiers)
        self.now += 1.0

    def click(self, point: np.ndarray) -> None:
        from pyglet.window import mouse

        x, y = self.pixel(point)
        self.hands.on_mouse_motion(x, y, 0, 0)
        self.hands.on_mouse_press(x, y, mouse.LEFT, 0)
        self.hands.on_mouse_release(x, y, mouse.LEFT, 0)

    def key(self, symbol: int, modifiers: int = 0) -> None:
        self.hands.on_key_press(symbol, modifiers)

    def stroke(self, tilt: actions.Tilt) -> None:
        """Draw the stroke that makes ``tilt`` (a two-handed jolt about a line, as the programmed hand plans it):
        ctrl-drag from the line the way the dice hop (a push) or, ctrl-shift, from before the line to it (a pull),
        as fast as the turn needs."""
        from pyglet.window import key

        from pyramid.ui import strokes

        assert tilt.pivot is not None
        pull = tilt.preset < tilt.angle
        sweep = math.radians(abs(tilt.preset - tilt.angle))
        speed = 2 * sweep / tilt.ramp * strokes.REFERENCE  # the mouse's speed over the plate
        d = unit(tilt.direction)
        pivot = np.array(tilt.pivot)
        start, end = (pivot - 0.08 * d, pivot) if pull else (pivot, pivot + 0.08 * d)
        a, b = self.pixel(start), self.pixel(end)
        # The time the drag takes over the pixels it really covers, read back on the drawing plane.
        pa, pb = self.hands.plane_point(*a, pivot[2]), self.hands.plane_point(*b, pivot[2])
        assert pa is not None and pb is not None
        seconds = float(np.linalg.norm((pb - pa)[:2])) / speed
        self.drag(a, b, seconds, key.MOD_CTRL | (key.MOD_SHIFT if pull else 0))


def play(
    monkeypatch: pytest.MonkeyPatch,
    number: int,
    kinds: list[str],
    seed: int,
    turn: Callable[[Person, SkillGame], None],
    options: dict[str, str] | None = None,
    between: Callable[[Person], None] | None = None,
    **window: Any,
) -> tuple[SkillGame, list[str]]:
    """Play game ``number`` in the window; ``turn`` makes the person's next action each time the window waits for
    one, ``between`` is called once in each picture drawn while another player moves. Returns the game and
    every line the window said."""
    from pyramid.ui.hands import Hands
    from pyramid.ui.skill import play_skill_in_window
    from pyramid.ui.viewer import Viewer

    made: list[Person] = []
    said: list[str] = []
    original_init, original_frame, original_say = Hands.__init__, Viewer.frame, Viewer.say
    deadline = time.time() + 1500

    def init(self: Hands, *args: object) -> None:
        original_init(self, *args)  # type: ignore[arg-type]
        made.append(Person(self))

    def frame(self: Viewer, simulated: float) -> None:
        original_frame(self, simulated)
        if time.time() > deadline:
            self.has_exit = True  # the test gives up: the window closes
        person = made[-1]
        hands = person.hands
        if hands.sink is not None and hands.game is not None and self.world is not None:
            turn(person, hands.game)
        elif between is not None and hands.match is not None and self.world is not None:
            between(person)

    def say(self: Viewer, text: str) -> None:
        said.extend(text.splitlines())
        original_say(self, text)

    monkeypatch.setattr(Hands, "__init__", init)
    monkeypatch.setattr(Viewer, "frame", frame)
    monkeypatch.setattr(Viewer, "say", say)
    game_type = find_game(number, SkillGame)
    game = play_skill_in_window(game_type, kinds, seed=seed, options=options, replays=0, speed=50.0, **window)
    return game, said


def tilt_turn(planner: TiltHand) -> Callable[[Person, SkillGame], None]:
    """The person's turn at a tilting game: the programmed hand's plan, made with the window's controls."""
    from pyglet.window import key

    from pyramid.ui import strokes

    def turn(person: Person, game: SkillGame) -> None:
        world = person.viewer.world
        assert world is not None
        action = planner.act(game, world.readout(require_rest=False), 0.0)  # type: ignore[arg-type]
        if isinstance(action, actions.Tilt):
            person.stroke(action)
        elif isinstance(action, actions.Shake):
            firm = action == dataclasses.replace(strokes.FIRM_SHAKE, azimuth=action.azimuth)
            # J, the firm shake, frees a die wedged in its funnel; shift-S, the gentle one, seats dice left leaning.
            if firm:
                person.key(key.J)
            else:
                person.key(key.S, key.MOD_SHIFT)
        else:
            person.key(key.W)

    return turn


@pytest.mark.slow  # a whole timed turn or a few, 1 to 6 minutes each
@pytest.mark.parametrize(("number", "seeds"), [(3, (1, 2, 3)), (4, (3, 2, 5))], ids=["Faraday", "Coulomb"])
def test_a_person_solves_a_tilting_game_with_strokes_drawn_in_the_window(
    display: str, monkeypatch: pytest.MonkeyPatch, number: int, seeds: tuple[int, ...]
) -> None:
    # The programmed hand solves each of these seeds in 36 to 60 s of the 60 allowed; a stroke drawn to the
    # nearest pixel differs from its plan a little, so a turn is chaotic: the person wins at least one of them.
    notes = []
    for seed in seeds:
        planner = TiltHand(np.random.default_rng([seed, 7]))
        with monkeypatch.context() as patch:
            game, said = play(patch, number, ["human"], seed, tilt_turn(planner))
        assert game.outcome is not None, "the game ended"
        (record,) = game.records
        strokes = [line for line in said if "stopped short" in line]
        assert len(strokes) >= 3, "the turn was played with strokes drawn in the window"
        assert not [line for line in said if line.startswith("refused")]
        if record.end.success:
            return
        notes.append(f"seed {seed}: {record.end.note}")
    pytest.fail(f"the person solved none of the seeds: {notes}")


@pytest.mark.slow  # up to 25 rounds of flicks: one to two minutes
def test_a_person_wins_flickers_flicking_only_their_own_dice(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramid.skillgames.throwing import Flickers
    from pyramid.ui import guide, strokes

    tried_theirs: list[bool] = []
    asked_between: list[bool] = []

    def turn(person: Person, game: SkillGame) -> None:
        assert isinstance(game, Flickers)
        world = person.viewer.world
        assert world is not None
        readout = world.readout(require_rest=False)
        dice, poses = world.poses()
        where = {d: poses[n, :3] for n, d in enumerate(dice)}
        if not tried_theirs:
            # The opponent's die first: refused, and the turn is still the person's.
            tried_theirs.append(True)
            theirs = game.own[1][0]
            x, y = person.pixel(where[theirs])
            person.drag((x, y), (x + 150, y), 0.2)
            assert person.hands.sink is not None, "a refused flick is no action"
            return
        mine = sorted(guide.touchable(game, readout) or set())
        die = mine[0]
        heading = -where[die][:2] / np.linalg.norm(where[die][:2])  # towards the plate's middle
        a = person.pixel(where[die])
        b = person.pixel(where[die] + 0.03 * np.append(heading, 0.0))
        way = np.subtract(b, a) / np.linalg.norm(np.subtract(b, a))
        pixels = 0.008 / strokes.FLICK_PER_PIXEL
        end = (round(a[0] + pixels * way[0]), round(a[1] + pixels * way[1]))
        person.hands.on_mouse_press(*a, 1, 0)
        person.hands.on_mouse_drag(*end, 0, 0, 1, 0)
        assert person.viewer.guides and person.viewer.bar is not None, "the aim line and strength show while dragging"
        person.hands.on_mouse_release(*end, 1, 0)

    def between(person: Person) -> None:
        game = person.hands.match
        if not asked_between and isinstance(game, Flickers) and game.to_move == 1 and person.viewer.world:
            # While the other player moves, the person flicks one of their dice: refused, never queued.
            dice, poses = person.viewer.world.poses()
            for die in game.own[0]:
                x, y = person.pixel(poses[dice.index(die), :3])
                if person.hands.die_at(x, y) == die:
                    asked_between.append(True)
                    person.drag((x, y), (x + 150, y), 0.2)
                    assert not person.hands.pending
                    break

    game, said = play(monkeypatch, 7, ["human", "flick"], 2, turn, between=between)
    assert game.outcome is not None and game.outcome.winners == (0,), "\n".join(said[:60])
    assert any(line.startswith("refused: die") and "not yours" in line for line in said)
    assert asked_between and any(line.startswith("not your turn") for line in said)
    flicks = [r for r in game.records if r.player == 0]
    assert all(r.actions == 1 for r in flicks), "each of the person's turns was one flick of their own"


def test_a_person_takes_dice_in_dice_mikado_and_the_top_is_refused(
    display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyglet.window import key

    from pyramid.skillgames.standing import DiceMikado

    asked: list[str] = []

    def turn(person: Person, game: SkillGame) -> None:
        assert isinstance(game, DiceMikado)
        world = person.viewer.world
        assert world is not None
        dice, poses = world.poses()
        where = {d: poses[n, :3] for n, d in enumerate(dice)}
        if not asked:
            asked.append("top")
            person.click(where[game.top_die])  # the top: refused
            assert person.hands.sink is not None
            person.key(key.S)  # no shaking in Dice Mikado
            return
        readout = world.readout(require_rest=False)
        # The lowest die that shows a face and is not the top, where the mouse finds it.
        for die in sorted(where, key=lambda d: where[d][2]):
            if die != game.top_die and readout.dice[die].slot is not None:
                x, y = person.pixel(where[die])
                if person.hands.die_at(x, y) == die:
                    asked.append(str(die))
                    person.click(where[die])
                    person.key(key.W)  # while the lift runs: queued, then done as the next action
                    return
        person.key(key.W)

    game, said = play(monkeypatch, 6, ["human"], 3, turn, options={"layers": "3"})
    assert game.outcome is not None
    assert game.outcome.scores[0] >= 1, "the person took dice out"
    assert any("may not be touched" in line for line in said), "the top die is refused"
    assert any(line.startswith("Dice Mikado allows no shake") for line in said)
    queued = [line for line in said if line.startswith("queued: wait")]
    assert queued and any(line.startswith("now: wait") for line in said), "a W while lifting waits, then runs"


def test_in_hide_away_t_throws_only_the_persons_own_black_dice(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyglet.window import key

    from pyramid.skillgames.throwing import HideAway

    turns: list[int] = []

    def turn(person: Person, game: SkillGame) -> None:
        assert isinstance(game, HideAway)
        if game.hand[0]:
            turns.append(len(game.records))
            person.hands.colour = "black"  # a black die of the other player's may lie off the plate: never that
            person.hands.on_mouse_motion(*person.pixel(np.zeros(3)), 0, 0)  # over the plate's middle
            person.key(key.T)
        else:
            person.key(key.T)  # the hand is empty: refused, nothing thrown
            person.key(key.W)

    game, said = play(monkeypatch, 9, ["human", "throw"], 1, turn, options={"dice": "2"})
    assert game.outcome is not None and isinstance(game, HideAway)
    people = [line for n, line in enumerate(said) if "throw die" in line and _by_person(said, n)]
    thrown = {int(line.split("throw die ")[1].split()[0]) for line in people}
    assert turns and thrown and thrown <= set(game.black[0]), f"the person threw only their own dice: {thrown}"
    assert thrown.isdisjoint(game.black[1])


def _by_person(said: list[str], n: int) -> bool:
    """Whether line ``n`` of the window's log falls in a turn of player 0."""
    turns = [line for line in said[:n] if line.startswith("turn ")]
    return bool(turns) and "player 0" in turns[-1]


def _lift_a_die(person: Person, game: SkillGame) -> int | None:
    """Click the lowest die of Dice Mikado's pyramid that the mouse finds and is not the top (W if none): its id."""
    from pyglet.window import key

    world = person.viewer.world
    assert world is not None
    dice, poses = world.poses()
    where = {d: poses[n, :3] for n, d in enumerate(dice)}
    readout = world.readout(require_rest=False)
    for die in sorted(where, key=lambda d: where[d][2]):
        if die != getattr(game, "top_die", None) and readout.dice[die].slot is not None:
            if person.hands.die_at(*person.pixel(where[die])) == die:
                person.click(where[die])
                return die
    person.key(key.W)
    return None


def _table(person: Person) -> tuple[list[int], np.ndarray]:
    world = person.viewer.world
    assert world is not None
    dice, poses = world.poses()
    return list(dice), poses.copy()


def test_ctrl_z_and_ctrl_y_undo_and_redo_a_persons_lift_on_their_turn(
    display: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyglet.window import key

    seen: dict[str, Any] = {}

    def turn(person: Person, game: SkillGame) -> None:
        step = seen.setdefault("step", 0)
        seen["step"] = step + 1
        if step == 0:
            seen["before"] = _table(person)
            seen["lifted"] = _lift_a_die(person, game)
        elif step == 1:
            seen["after"] = _table(person)
            person.key(key.Z, key.MOD_CTRL)
        elif step == 2:
            seen["undone"] = _table(person)
            person.key(key.Y, key.MOD_CTRL)
        elif step == 3:
            seen["redone"] = _table(person)
            _lift_a_die(person, game)
        else:
            _lift_a_die(person, game)

    game, said = play(monkeypatch, 6, ["human"], 3, turn, options={"layers": "3"})
    assert game.outcome is not None and seen["lifted"] is not None
    (dice, poses), (after, after_poses) = seen["before"], seen["after"]
    assert seen["lifted"] in dice and seen["lifted"] not in after, "the click lifted a die out"
    undone, undone_poses = seen["undone"]
    assert undone == dice and np.allclose(undone_poses, poses, atol=1e-9), "Ctrl+Z: every die where it was"
    redone, redone_poses = seen["redone"]
    assert redone == after and np.allclose(redone_poses, after_poses, atol=1e-9), "Ctrl+Y: the lift again"
    assert any(line.startswith("undone:") for line in said) and any(line.startswith("redone:") for line in said)


def test_ctrl_z_is_refused_with_no_undo_and_between_turns(display: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyglet.window import key

    def turn(person: Person, game: SkillGame) -> None:
        if not person.hands.viewer.messages or "off in this match" not in " ".join(person.hands.viewer.messages):
            person.key(key.Z, key.MOD_CTRL)
        _lift_a_die(person, game)

    game, said = play(monkeypatch, 6, ["human"], 3, turn, options={"layers": "2"}, undo=False)
    assert game.outcome is not None
    assert any("undo is off in this match (--no-undo)" in line for line in said)
    assert not any(line.startswith("undone:") for line in said)


def test_ctrl_s_saves_a_match_and_load_resumes_its_turn_clock_and_dice(
    display: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import re

    from pyglet.window import key

    from pyramid.ui.saved import load_match

    monkeypatch.chdir(tmp_path)
    seen: dict[str, Any] = {}

    def clock(person: Person) -> str:
        found = re.search(r"your move: +([0-9.]+) of", person.viewer.status.text)
        assert found is not None, person.viewer.status.text
        return found.group(1)

    def first(person: Person, game: SkillGame) -> None:
        step = seen.setdefault("step", 0)
        seen["step"] = step + 1
        if step == 0:
            _lift_a_die(person, game)
        elif step == 1:
            person.key(key.S, key.MOD_CTRL)
        elif step == 2:
            seen["saved"] = (_table(person), game.to_move, len(game.records), game.scores())
            person.viewer.has_exit = True  # the person closes the window

    play(monkeypatch, 6, ["human", "careful"], 3, first, options={"layers": "3"})
    saved = load_match(tmp_path / "match.pickle")
    assert saved.kinds == ["human", "careful"] and saved.clock is not None and saved.clock > 0

    def resumed(person: Person, game: SkillGame) -> None:
        if "resumed" not in seen:
            seen["resumed"] = (_table(person), game.to_move, len(game.records), game.scores())
            seen["clock"] = clock(person)
        _lift_a_die(person, game)

    with monkeypatch.context() as patch:
        game, said = play(patch, 6, saved.kinds, saved.seed, resumed, options=saved.options, resume=saved)
    (dice, poses), *rest = seen["saved"]
    (dice_again, poses_again), *rest_again = seen["resumed"]
    assert dice_again == dice and np.allclose(poses_again, poses, atol=1e-9), "the dice as they were saved"
    assert rest_again == rest, "the same turn, player to move and scores"
    assert float(seen["clock"]) == pytest.approx(saved.clock, abs=0.01), "the turn's clock goes on from the save"
    assert any("resumed" in line for line in said) and game.outcome is not None
