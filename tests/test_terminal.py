"""A person at the terminal: the pyramid drawn with labels, typed moves read back, the status line, piped games."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import numpy as np
import pytest
from table_scripts import ScriptedRoller, drive

from pyramid import geometry
from pyramid.agents.players import GreedyPlayer, HumanPlayer
from pyramid.agents.table_players import TableHumanPlayer
from pyramid.agents.terminal import (
    TypedMoveError,
    board_status,
    board_view,
    move_path,
    option_dice,
    read_move,
    read_option,
    table_status,
)
from pyramid.drawing import draw_layer, draw_pyramid, label_slot, slot_label
from pyramid.registry import BOARD_GAMES, find_game
from pyramid.rules import Action, Game, Move, Pass, Place, Remove, RemoveColumn
from pyramid.state import PyramidState
from pyramid.tablegames.base import Decision
from pyramid.tablegames.knights import Knights

# The apex red, layer b: green and black in row 0, row 1 empty; layer c: one blue die at (0, 0, 2).
SMALL = PyramidState.from_notation("R123/G456K312,./B624..,..,.")


# -- labels and the drawing -------------------------------------------------------------------


def test_labels_name_every_slot_once_in_notation_order() -> None:
    labels = [slot_label(s) for s in geometry.SLOTS]
    assert len(set(labels)) == 165
    assert labels[:4] == ["a1", "b1", "b2", "b3"] and labels[-1] == "i45"
    assert slot_label((0, 0, 8)) == "i1" and slot_label((8, 0, 0)) == "i45" and slot_label((1, 0, 7)) == "i10"
    assert all(label_slot(slot_label(s)) == s for s in geometry.SLOTS)
    assert label_slot(" C2 ") == (0, 1, 1)
    with pytest.raises(ValueError, match="i1 to i45"):
        label_slot("i46")
    with pytest.raises(ValueError, match="only the slot a1"):
        label_slot("a2")
    with pytest.raises(ValueError, match="a layer letter"):
        label_slot("j1")


def test_layer_is_a_triangle_of_tokens_and_labels() -> None:
    # Layer b: row i = 0 holds (0,0,1) and (0,1,0), row i = 1 the one slot (1,0,0), shifted half a cell.
    assert draw_layer(SMALL, 1, set()) == ["G456 K312", "  ."]
    # A label on an empty slot stands in for the dot; on a die it follows the token, widening every cell.
    assert draw_layer(SMALL, 1, {(1, 0, 0)}) == ["G456 K312", "  b3"]
    assert draw_layer(SMALL, 1, {(0, 1, 0)}) == ["G456    K312 b2", "    ."]


def test_pyramid_drawn_layer_by_layer_with_labels_in_place() -> None:
    text = draw_pyramid(SMALL, labelled=[(0, 0, 0), (1, 0, 1), (0, 2, 0)])
    lines = text.splitlines()
    assert lines[0] == "layer a (1 of 9): 1 of 1 dice"
    assert lines[1] == "  R123 a1"
    assert lines[2] == "layer b (2 of 9): 2 of 3 dice"
    # Layer c: row 0 is (0,0,2) (0,1,1) (0,2,0); row 1 (1,0,1) (1,1,0); row 2 (2,0,0).
    c = lines.index("layer c (3 of 9): 1 of 6 dice")
    assert lines[c + 1 : c + 4] == ["  B624 .    c3", "    c4   .", "       ."]
    # The layers below hold nothing but are drawn: a move may go there in another game.
    assert "layer i (9 of 9): 0 of 45 dice" in lines
    assert "\x1b[" not in text


def test_empty_layers_above_the_dice_are_one_line() -> None:
    base = PyramidState({(0, 0, 8): SMALL[(0, 0, 0)]})
    lines = draw_pyramid(base, labelled=[(0, 1, 7)]).splitlines()
    assert lines[0] == "layers a to h: empty"
    assert lines[1] == "layer i (9 of 9): 1 of 45 dice"
    assert lines[2].split()[:3] == ["R123", "i2", "."]
    assert len(lines) == 2 + 9
    assert draw_pyramid(PyramidState()).splitlines()[0] == "layers a to h: empty"


def test_colour_paints_tokens_and_keeps_the_letters() -> None:
    text = draw_pyramid(SMALL, labelled=[(0, 0, 0)], colour=True)
    assert "\x1b[41;97mR123\x1b[0m" in text  # red behind the red die
    assert "\x1b[42;30mG456\x1b[0m" in text and "\x1b[44;97mB624\x1b[0m" in text
    assert "\x1b[1ma1\x1b[0m" in text
    plain = draw_pyramid(SMALL, labelled=[(0, 0, 0)])
    assert [len(line) for line in _strip_ansi(text).splitlines()] == [len(line) for line in plain.splitlines()]


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


# -- typed board moves ------------------------------------------------------------------------

LEGAL: list[Action] = [
    Place((0, 0, 8), "red"),
    Place((0, 0, 8), "green"),
    Place((0, 1, 7), "red"),
    Remove((0, 0, 0)),
    RemoveColumn(((0, 0, 0), (1, 0, 0))),
    Pass(),
]


@pytest.mark.parametrize(
    ("typed", "index"),
    [
        ("i2", 2),
        ("I2", 2),
        ("0 1 7", 2),
        ("(0,1,7)", 2),
        ("(0, 1, 7)", 2),
        ("0,1,7", 2),
        ("3", 2),
        ("i1 green", 1),
        ("i1 r", 0),
        ("(0,0,8) gr", 1),
        ("a1 column", 4),
        ("pass", 5),
        ("6", 5),
        ("place red at (0, 1, 7)", 2),
    ],
)
def test_read_move_by_label_slot_number_or_words(typed: str, index: int) -> None:
    assert read_move(typed, LEGAL) == LEGAL[index]


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "a label, a slot or a number from 1 to 6"),
        ("7", "a number from 1 to 6: there is no move 7"),
        ("0", "there is no move 0"),
        ("i1", "i1 (0, 0, 8) names 2 moves (1. place red at (0, 0, 8); 2. place green at (0, 0, 8))"),
        ("i1", "e.g. i1 red"),
        ("a1", "(4. remove (0, 0, 0); 5. remove column"),
        ("i9", "none is at i9 (0, 8, 0)"),
        ("9 0 0", "(9, 0, 0) is none (i, j, k from 0, i + j + k at most 8)"),
        ("i46", "layer i has the slots i1 to i45"),
        ("i1 black", "none of 2 there has ['black']"),
        ("jump", "'jump' names no legal move"),
    ],
)
def test_bad_moves_say_what_was_wrong_and_what_is_allowed(typed: str, says: str) -> None:
    with pytest.raises(TypedMoveError) as err:
        read_move(typed, LEGAL)
    assert says in str(err.value) and str(err.value).startswith("please type")


# -- typed moves of a die from one slot to another ---------------------------------------------

L = slot_label
CARRIED: list[Action] = [
    Move((((8, 0, 0), (7, 1, 0)),), name="jump (8, 0, 0) to (7, 1, 0)"),
    Move((((8, 0, 0), (6, 2, 0)),), name="jump (8, 0, 0) to (6, 2, 0)"),
    Move((((7, 0, 1), (7, 0, 0)),), name="jump (7, 0, 1) to (7, 0, 0)"),
    Move((((5, 3, 0), (5, 2, 1)), ((5, 2, 1), (3, 4, 1))), name="attack (5, 3, 0) to (5, 2, 1), captured to (3, 4, 1)"),
    Move((((5, 3, 0), (5, 2, 1)), ((5, 2, 1), (4, 4, 0))), name="attack (5, 3, 0) to (5, 2, 1), captured to (4, 4, 0)"),
    Pass(),
]


@pytest.mark.parametrize(
    ("typed", "index"),
    [
        (f"{L((8, 0, 0))} {L((7, 1, 0))}", 0),
        (f"{L((8, 0, 0))}-{L((6, 2, 0))}", 1),
        (f"{L((8, 0, 0)).upper()} > {L((6, 2, 0))}", 1),
        ("8 0 0 to 6 2 0", 1),
        ("(8, 0, 0) (7, 1, 0)", 0),
        (f"{L((7, 0, 1))}", 2),  # the die alone: it has one move
        (f"{L((5, 3, 0))} {L((5, 2, 1))} {L((4, 4, 0))}", 4),  # the captured die's new funnel tells them apart
        ("pass", 5),
        ("3", 2),
    ],
)
def test_a_move_is_typed_as_its_die_and_where_it_goes(typed: str, index: int) -> None:
    assert read_move(typed, CARRIED) == CARRIED[index]


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        (L((8, 0, 0)), f"names 2 moves (1. {L((8, 0, 0))} {L((7, 1, 0))}: jump (8, 0, 0) to (7, 1, 0); 2."),
        (L((8, 0, 0)), f"type its number, or where it goes next (e.g. {L((8, 0, 0))} {L((7, 1, 0))})"),
        (f"{L((5, 3, 0))} {L((5, 2, 1))}", f"where it goes next (e.g. {L((5, 3, 0))} {L((5, 2, 1))} {L((3, 4, 1))})"),
        (L((7, 0, 0)), f"none is at {L((7, 0, 0))} (7, 0, 0); a die goes there from {L((7, 0, 1))}"),
        (f"{L((8, 0, 0))} {L((4, 4, 0))}", f"is none; after {L((8, 0, 0))} comes {L((7, 1, 0))}, {L((6, 2, 0))}"),
        (f"{L((4, 4, 0))} {L((8, 0, 0))}", f"{L((4, 4, 0))} starts no move"),
    ],
)
def test_a_move_typed_wrong_is_answered_with_where_the_dice_can_go(typed: str, says: str) -> None:
    with pytest.raises(TypedMoveError) as err:
        read_move(typed, CARRIED)
    assert says in str(err.value) and str(err.value).startswith("please type")


def test_the_board_labels_the_dice_that_can_move_and_where_they_can_go() -> None:
    game = find_game(55, Game)(2, rng=np.random.default_rng(0))
    legal = game.legal_actions()
    text = board_view(game, legal)
    for action in legal:
        source, target = move_path(action)[:2]
        assert f" {L(source)}" in text and f" {L(target)}" in text
    assert re.search(r"\bdice that can move: i\d+ to [hi]\d+", text)
    assert "move a labelled die to a labelled slot, e.g. i" in text


def typist(game: Game, shown: list[str]) -> HumanPlayer:
    """A person who types greedy's move of ``game`` as its die and where it goes (more slots only where needed)."""
    greedy = GreedyPlayer(np.random.default_rng(0))

    def ask(prompt: str) -> str:
        legal = game.legal_actions()
        action = greedy.choose(game, legal)
        path = [L(s) for s in move_path(action)]
        if not path:
            return str(action)
        for n in range(1, len(path) + 1):
            if sum(move_path(a)[:n] == move_path(action)[:n] for a in legal) == 1:
                break
        words = [] if n < len(path) or not isinstance(action, Place) else [action.colour]
        return " ".join([*path[:n], *words])

    return HumanPlayer(ask=ask, show=shown.append, colour=False)


@pytest.mark.parametrize(("number", "players"), [(55, 2), (45, 2)])
def test_a_person_plays_a_game_of_moving_dice_to_its_end_typing_each_die_and_where_it_goes(
    number: int, players: int
) -> None:
    game = find_game(number, Game)(players, rng=np.random.default_rng(1))
    shown: list[str] = []
    human = typist(game, shown)
    typed = 0
    while not game.is_over:
        game.apply(human.choose(game, game.legal_actions()))
        typed += isinstance(game.history[-1][1], Move)
    assert not [line for line in shown if line.startswith("please type")]
    assert typed >= 20 and game.outcome is not None


def test_human_player_asks_until_a_move_is_named() -> None:
    game = find_game(30, Game)(2, rng=np.random.default_rng(0))
    answers = iter(["", "j1", "rules", "?", "i3", "i3 green"])
    shown: list[str] = []
    human = HumanPlayer(ask=lambda prompt: next(answers), show=shown.append, colour=False, card="THE CARD")
    assert human.choose(game, game.legal_actions()) == Place((0, 2, 6), "green")
    text = "\n".join(shown)
    assert "layer i (9 of 9): 0 of 45 dice" in text and "  i1  i2  i3" in text
    assert "player 0 (to move): score 0, 48 dice left | player 1: score 0, 48 dice left" in text
    assert text.count("THE CARD") == 1  # "rules"; "?" shows the moves, not the card
    assert " 48. i3   place green at (0, 2, 6)" in text
    assert sum(line.startswith("please type") for line in shown) == 3


@pytest.mark.parametrize("typed", ["²", "¹²", "١", "３", "i¹", "9" * 5000, "1" * 201, "x" * 300])
def test_odd_digits_and_endless_lines_are_answered_with_a_line_not_an_error(typed: str) -> None:
    for read in (lambda: read_move(typed, LEGAL), lambda: read_option(typed, ["stop", "roll all 6 dice"])):
        with pytest.raises(TypedMoveError, match=r"^please type (numbers with the digits 0 to 9|at most 200 char)"):
            read()


def test_a_person_who_types_odd_digits_is_asked_again() -> None:
    game = find_game(30, Game)(2, rng=np.random.default_rng(0))
    answers = iter(["²", "9" * 5000, "i3 green"])
    shown: list[str] = []
    human = HumanPlayer(ask=lambda prompt: next(answers), show=shown.append, colour=False)
    assert human.choose(game, game.legal_actions()) == Place((0, 2, 6), "green")
    assert "please type numbers with the digits 0 to 9: '²' is not one of them" in shown
    assert "please type at most 200 characters (that line has 5,000)" in shown
    table = Knights(2, rng=np.random.default_rng(1), names=["me", "you"])
    out = io.StringIO()
    typed = iter(["¹", "7" * 4400, "1"])
    assert (
        TableHumanPlayer("me", read=lambda prompt: next(typed), out=out).choose(table, table.legal_actions()).index == 0
    )
    assert out.getvalue().count("please type") == 2


def test_a_lone_move_is_taken_without_asking() -> None:
    game = find_game(30, Game)(2, rng=np.random.default_rng(0))

    def never(prompt: str) -> str:
        raise AssertionError("asked")

    human = HumanPlayer(ask=never, show=lambda text: None, colour=False)
    assert human.choose(game, [Place((0, 0, 8), "red")]) == Place((0, 0, 8), "red")


# -- the status line: scores and dice left ----------------------------------------------------


def test_status_reads_scores_and_dice_left_from_the_game() -> None:
    game = find_game(10, Game)(3, rng=np.random.default_rng(4))
    game.apply(game.legal_actions()[0])
    status = board_status(game)
    mover = game.history[0][0]
    assert f"player {mover}: score" in status or f"player {mover} (to move): score" in status
    left = game.dice_left()
    assert left is not None and sorted(left) == [89, 90, 90]
    assert f"{left[mover]} dice left" in status and "pyramid: 1 of 165 dice" in status
    view = board_view(game, game.legal_actions())
    assert view.splitlines()[-1].startswith(f"player {game.to_move} to move: ")
    assert "(place " in view.splitlines()[-1]


@pytest.mark.parametrize("game_cls", BOARD_GAMES, ids=lambda c: str(c.info.number))
def test_dice_left_is_one_count_per_player_that_only_falls(game_cls: type[Game]) -> None:
    game = game_cls(None, rng=np.random.default_rng(1))
    rng = np.random.default_rng(2)
    before = game.dice_left()
    for _ in range(12):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    after = game.dice_left()
    if before is None:
        assert after is None
        return
    assert after is not None and len(before) == len(after) == game.players
    assert all(a >= 0 for a in after) and sum(after) <= sum(before)
    # Acquire: dice are paid from hand to hand; Golden Centre: a triple takes dice back into the hand.
    if game_cls.info.number not in (21, 22):
        assert all(a <= b for a, b in zip(after, before, strict=True))


# -- the table games --------------------------------------------------------------------------

KEEPS = [
    "stop with 5-5+4",
    "keep 3,4,5,5 and roll 1 die",
    "keep 3,3,5,5 and roll 1 die",
    "keep 5 and roll 4 dice",
    "keep 1,5 and roll 3 dice",
    "keep 1 and roll 4 dice",
    "roll all 5 dice",
]


@pytest.mark.parametrize(
    ("typed", "index", "note"),
    [
        ("3355", 2, ""),
        ("5533", 2, ""),
        ("3 3 5 5", 2, ""),
        ("3,3,5,5", 2, ""),
        ("keep 15", 4, ""),
        ("stop", 0, ""),
        ("roll all", 6, ""),
        ("0", 6, ""),
        ("#1", 0, ""),
        ("2", 1, ""),
        ("1", 0, "for the dice 1 type 'keep 1'"),  # a number is the option; the note says how to keep a 1
        ("5", 4, "option 5: keep 1,5 and roll 3 dice (for the dice 5 type 'keep 5')"),
    ],
)
def test_read_option_by_number_dice_or_words(typed: str, index: int, note: str) -> None:
    got, said = read_option(typed, KEEPS)
    assert got == index and note in said and (not note) == (not said)


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "please type a number from 1 to 7"),
        ("#9", "there is no option 9"),
        ("2222", "no option keeps 2,2,2,2"),
        ("fly", "'fly' is none"),
        ("keep", "fits 5"),
    ],
)
def test_bad_options_say_what_was_wrong(typed: str, says: str) -> None:
    with pytest.raises(TypedMoveError, match="please type") as err:
        read_option(typed, KEEPS)
    assert says in str(err.value)


def test_option_dice_of_every_table_game_wording() -> None:
    assert option_dice("keep 3,3,5,5 and roll 1 die") == (3, 3, 5, 5)
    assert option_dice("freeze [5, 2] (run-up 7) and jump") == (2, 5)
    assert option_dice("keep 3x5 and spin again") == (5, 5, 5)
    assert option_dice("keep none") == option_dice("keep []") == option_dice("roll all 3 dice") == ()
    assert option_dice("keep") is None and option_dice("lay a 1 at Bowling") is None
    spin = ["keep 3x5 and throw", "keep 3x5 and spin again", "keep 2x4 and throw"]
    assert read_option("555 spin", spin)[0] == 1 and read_option("44", spin)[0] == 2
    lay = ["done", "lay a 1 at Bowling", "lay a 1 at Tennis", "lay a 2 at Bowling"]
    assert read_option("1 ten", lay)[0] == 2 and read_option("2 bow", lay)[0] == 3


class _Typist:
    """A seat that types ``3355`` while a keep of 3,3,5,5 is offered, then ``stop``; records the prompts."""

    def __init__(self) -> None:
        self.prompts: list[str] = []
        self.kept: list[str] = []

    def answer(self, decision: Decision) -> int:
        self.prompts.append(decision.prompt)
        typed = "3355" if not self.kept else "stop"
        index, _ = read_option(typed, decision.options)
        self.kept.append(decision.options[index])
        return index


def test_knights_keep_typed_as_dice_values_keeps_those_dice() -> None:
    game = Knights(2, rng=np.random.default_rng(0), names=["me", "you"])
    typist = _Typist()
    # Six dice show 3 3 4 5 5 6: the six is set aside; 3355 keeps four dice, so one die is rolled (a 2).
    roller = ScriptedRoller([[3, 3, 4, 5, 5, 6], [2]])
    drive(game.roll_for(0, (4, 5, 4), 3, "in a test"), roller, [typist, typist])
    assert typist.kept == ["keep 3,3,5,5 and roll 1 die", "stop with 5-5+3"]
    assert "[3, 3, 4, 5, 5]" in typist.prompts[0] and "[2, 3, 3, 5, 5]" in typist.prompts[1]
    assert not roller.throws


def test_table_human_shows_counts_and_reasks() -> None:
    game = Knights(2, rng=np.random.default_rng(1), names=["me", "you"])
    out = io.StringIO()
    answers = iter(["?", "nonsense", "sheet", "1"])
    human = TableHumanPlayer("me", read=lambda prompt: next(answers), out=out)
    choice = human.choose(game, game.legal_actions())
    assert choice.index == 0
    text = out.getvalue()
    assert text.startswith("castles: me 1, you 1; tournaments: me 0, you 0\n")
    assert table_status(game) in text and "type an option by its number 1 to 4" in text
    assert "please type a number from 1 to 4" in text and game.score_sheet() in text


# -- the command line, with piped input -------------------------------------------------------


def _pyramid(args: list[str], typed: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from pyramid.cli.app import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args], input=typed, capture_output=True, text=True, timeout=300, check=False
    )


def test_piped_board_game_is_played_to_its_end() -> None:
    # El Dado starts from the full pyramid: the apex a1 is the one free die. Then numbers, one bad answer.
    typed = "a1\n?\nzz\n" + "1\n" * 200
    run = _pyramid(["play", "39", "--fast", "--players", "human,greedy", "--seed", "3"], typed)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "   1. player 0 (human): remove (0, 0, 0)" in out
    assert re.search(r"layer a \(1 of 9\): 1 of 1 dice\n  [RGKBY][1-6]{3} a1\n", out)  # the free apex, labelled
    assert "pyramid: 165 of 165 dice" in out and "pyramid: 163 of 165 dice" in out
    assert "please type a label, a slot or a number" in out
    assert "type a move by the label on its slot" in out
    assert out.count("player 0 (to move): score") >= 5
    assert "wins (" in out or "share the win (" in out
    assert "\x1b[" not in out  # piped: no colour codes


def test_piped_table_game_and_end_of_input() -> None:
    run = _pyramid(["play", "knights", "--fast", "--players", "human,strong", "--seed", "1"], "1\n3355\n")
    assert run.returncode == 1
    assert "input ended: the match stops" in run.stderr
    assert "castles: human1 1, strong2 1; tournaments: human1 0, strong2 0" in run.stdout
    assert "human1: rolling in the tournament (beat 4-4-4+5): [3, 3, 3, 5, 5]" in run.stdout  # 3355 kept, one rolled


@pytest.mark.parametrize(("number", "full"), [(24, (90, 90, 90)), (23, (90, 90)), (22, (20, 20, 20))])
def test_dice_left_counts_the_hand_of_each_player(number: int, full: tuple[int, ...]) -> None:
    game = find_game(number, Game)(None, rng=np.random.default_rng(3))
    assert game.dice_left() == full
    mover = game.to_move
    action = next(a for a in game.legal_actions() if isinstance(a, Place))
    game.apply(action)
    left = game.dice_left()
    assert left is not None and left[mover] == full[mover] - 1
