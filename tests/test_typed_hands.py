"""A person types a skill game's actions at the terminal: what cannot be done is refused and asked again."""

from __future__ import annotations

import io

import numpy as np
import pytest

from pyramid.agents.controller import Controller
from pyramid.agents.seats import default_seats
from pyramid.agents.terminal import TypedMoveError
from pyramid.agents.typed_hands import hand_help, hand_verbs, id_runs, parse_action, read_hand
from pyramid.cli.app import build_parser, main
from pyramid.perception import Readout
from pyramid.physics.actions import Flick, PhysicalAction, Tilt, Wait
from pyramid.physics.world import World
from pyramid.play import Match
from pyramid.registry import GAMES
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.more import Emag
from pyramid.skillgames.standing import DiceMikado
from pyramid.state import PyramidState

MIKADO = ["play", "6", "--players", "human", "--option", "layers=2", "--seed", "1"]


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(MIKADO)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_impossible_actions_are_asked_again_and_only_the_end_of_input_stops(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _play(monkeypatch, capsys, ["lift 9 9 9", "flick 999 0", "tilt 0 85", "lift 1.5 2 3", "jump 1"])
    assert code == 1 and "input ended" in out  # not 2: no typed line ended the match
    # Each refusal names the input, what was wrong and what is allowed.
    assert "'lift 9 9 9' cannot be done: no die is seated in (9, 9, 9); the seated dice are in (" in out
    assert "'flick 999 0' cannot be done: die 999 is not in play; the dice in play are " in out
    assert "'tilt 0 85' cannot be done: the angle is 0 to 80 deg, not 85 deg" in out
    assert "lift: I is a whole number, not 1.5" in out
    assert "'jump' is none here; the actions are tilt, shake, blow, flick, throw, lift, pull, attach, wait" in out
    assert out.count("your action") == 6  # asked again after each of the five


def test_a_possible_action_after_refusals_is_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    world = World()
    game = DiceMikado(1, rng=np.random.default_rng([1, 1]), layers=2)
    game.prepare(world)
    world.settle(raise_on_timeout=False)
    slot = sorted(world.readout(require_rest=False).slot_die)[0]
    world.close()
    lift = f"lift {slot[0]} {slot[1]} {slot[2]}"
    code, out = _play(monkeypatch, capsys, ["lift 9 9 9", lift])
    assert code in (0, 1)  # the game may end with that lift (the top fell) or wait for more
    assert f"s  lift {slot}" in out  # the match's log: the lift was done, after the refusal


def test_question_mark_lists_the_game_s_actions_with_their_ranges(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _play(monkeypatch, capsys, ["?"])
    assert code == 1 and "unknown action" not in out
    listing = out[out.index("the actions of Dice Mikado") :]
    assert "tilt AZIMUTH ANGLE [HOLD SHAKE]" in listing and "ANGLE deg (0 to 80)" in listing
    assert "lift I J K" in listing and "(4 seated dice)" in listing  # two layers: 4 dice
    assert "stop" not in listing.split("\n", 1)[1].split()  # Dice Mikado has no hand of dice to stop


def test_each_game_lists_its_own_actions() -> None:
    empty = Readout({}, PyramidState({}), {})
    mikado = DiceMikado(1, rng=np.random.default_rng(0))
    emag = Emag(1, rng=np.random.default_rng(0))
    assert "lift" in hand_verbs(mikado) and "stop" not in hand_verbs(mikado)
    assert "lift" not in hand_verbs(emag) and "stop" in hand_verbs(emag)
    assert "  stop " in hand_help(emag, empty) and "  lift " not in hand_help(emag, empty)
    with pytest.raises(TypedMoveError, match="'lift' is none here; the actions are tilt, .*stop"):
        read_hand("lift 8 0 0", emag, empty)


@pytest.mark.parametrize(
    ("typed", "wrong"),
    [
        ("tilt 0 90", "the angle is 0 to 80 deg, not 90 deg"),
        ("tilt 0 10 -1", "the hold is at least 0 s, not -1 s"),
        ("shake 0.003 0", "the frequency is more than 0 Hz, not 0 Hz"),
        ("blow 0 0 0.03 90 -5", "the speed is at least 0 m/s, not -5 m/s"),
        ("flick 3 0", "die 3 is not in play; the dice in play are none"),
        ("throw 999 0 0", "there is no die 999; the dice of the set are 0 to 280"),
        ("throw 5 0 0 0", "the height is more than 0 m, not 0 m"),
        ("pull 0 0 8", "no die is seated in (0, 0, 8); the seated dice are in no die is seated now"),
        ("attach 5 3 3 3", "the cell (3, 3, 3) lies under the plate; I + J + K is at most 8"),
        ("wait -1", "the wait is at least 0 s, not -1 s"),
    ],
)
def test_what_a_hand_cannot_do_is_named(typed: str, wrong: str) -> None:
    game = DiceMikado(1, rng=np.random.default_rng(0))
    with pytest.raises(TypedMoveError) as err:
        read_hand(typed, game, Readout({}, PyramidState({}), {}))
    assert str(err.value) == f"{typed!r} cannot be done: {wrong}"


def test_numbers_are_read_whole_where_they_count_dice_or_slots() -> None:
    assert parse_action("flick 4 90 0.002") == Flick(4, 90.0, 0.002)
    assert parse_action("tilt 180 12.5") == Tilt(180.0, 12.5)
    for bad, said in [("flick 4.5 0", "DIE is a whole number"), ("tilt 1 x", "ANGLE is a number, not 'x'")]:
        with pytest.raises(TypedMoveError, match=said):
            parse_action(bad)
    assert id_runs([0, 1, 2, 3, 90, 91, 180]) == "0 to 3, 90, 91, 180"


class _Hand(Controller[SkillGame]):
    """Flicks a die that is not in play, then waits out the turn."""

    def __init__(self, person: bool) -> None:
        self.person = person  # type: ignore[misc]
        self.tried = 0

    def act(self, game: SkillGame, readout: Readout, elapsed: float) -> PhysicalAction:
        self.tried += 1
        return Flick(999, 0.0) if self.tried == 1 else Wait(game.time_limit)


def test_the_match_tells_a_person_why_the_world_refused_and_asks_again() -> None:
    said: list[str] = []
    person = _Hand(person=True)
    game = DiceMikado(1, rng=np.random.default_rng(0), layers=2)
    match = Match(game, [person], rng=np.random.default_rng(1), log=said.append, make_world=World)
    try:
        record = match.play_turn()
    finally:
        match.close()
    assert person.tried == 2 and record.actions == 1  # the refused flick is no action of the turn
    assert any("refused: flick die 999" in line and "die 999 is not in play" in line for line in said)
    programmed = _Hand(person=False)
    game = DiceMikado(1, rng=np.random.default_rng(0), layers=2)
    match = Match(game, [programmed], rng=np.random.default_rng(1), make_world=World)
    try:
        with pytest.raises(ValueError, match="die 999 is not in play"):
            match.play_turn()  # a programmed hand's impossible action is its maker's error
    finally:
        match.close()


def test_the_help_says_truly_when_a_human_is_seated() -> None:
    parser = build_parser()
    play = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "play")[1]  # type: ignore[union-attr]
    assert "without --players no human is seated at the terminal" in play.format_help()
    # And so it is: no game seats a human when nobody is named.
    assert all("human" not in default_seats(game) for game in GAMES)
