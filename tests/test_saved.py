"""A match saved in the window and resumed: every game keeps whole through the file, and a bad file or a file
naming anything but the package's classes is refused in one line (``pyramid.ui.saved``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from pyramid.cli import app as cli
from pyramid.registry import GAMES
from pyramid.rules import GameBase
from pyramid.ui.saved import FORMAT, SavedMatch, load_match, save_match


@pytest.mark.parametrize("game_type", [g for g in GAMES if g.kind != "table"], ids=lambda g: g.info.key)
def test_every_game_of_the_pyramid_is_saved_and_loaded_whole(game_type: type[GameBase], tmp_path: Path) -> None:
    players = max(game_type.info.players[0], min(2, game_type.info.players[-1]))
    game = game_type(players, rng=np.random.default_rng(1))
    path = save_match(SavedMatch(game, ["human"] * players, 1, dict(game.options)), tmp_path / "m.pickle")
    back = load_match(path)
    assert type(back.game) is game_type and back.game.to_move == game.to_move
    assert back.game.rng.integers(1 << 30) == game.rng.integers(1 << 30), "the game's random stream goes on alike"


class Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return (os.system, ("echo never",))


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"not a pickle", "not a match saved with Ctrl+S"),
        (pickle.dumps({"format": FORMAT, "match": Boom()}), "it names posix.system"),
        (pickle.dumps({"format": "other", "match": None}), "expected 'pyramid-match 1'"),
    ],
    ids=["garbage", "a-function", "another-format"],
)
def test_play_load_refuses_a_bad_file_in_one_line_before_a_window(
    content: bytes, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.pickle"
    path.write_bytes(content)
    assert cli.main(["play", "6", "--view", "--load", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"pyramid play: --load {path}: ") and why in line


def test_play_load_and_no_undo_want_the_window_and_the_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pyramid.skillgames.standing import DiceMikado

    path = save_match(SavedMatch(DiceMikado(1, rng=np.random.default_rng(1)), ["human"], 1), tmp_path / "m.pickle")
    for argv, why in [
        (["play", "6", "--no-undo"], "--no-undo is for a match in the window: add --view"),
        (["play", "6", "--load", str(path)], "--load is for a match in the window: add --view"),
        (["play", "3", "--view", "--load", str(path)], "holds a match of 6. Dice Mikado, not of Faraday: play 6"),
        (["play", "6", "--view", "--load", str(path), "--players", "human"], "give no --players or --option"),
        (["play", "6", "--view", "--load", str(tmp_path / "none")], "no such file"),
    ]:
        assert cli.main(argv) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert why in line, line
