"""``pyramid view`` and ``pyramid play --view``: a window on a scene, on the full pyramid, or on a match.

Needs pyglet (the ``view`` extra) and a display: ``cli.app`` checks both before loading this module.
"""

from __future__ import annotations

import argparse

import numpy as np

from pyramid.cli.args import game_options, seat_kinds
from pyramid.lab.scene import load_scene
from pyramid.physics.tables import load_table
from pyramid.physics.world import World
from pyramid.registry import find_game
from pyramid.rules import Game
from pyramid.skillgames.base import SkillGame
from pyramid.ui.player import full_pyramid_world, play_in_window, view_in_window, view_scene
from pyramid.ui.saved import SavedMatch, load_match
from pyramid.ui.skill import play_skill_in_window


def view(args: argparse.Namespace) -> int:
    """``pyramid view [SCENE]``: a scene's timeline played live, then hands on; the full pyramid and spares; or
    with ``--load`` a table saved with Ctrl+S."""
    rng = np.random.default_rng(args.seed)
    if args.load is not None:
        world = World()
        world.restore(load_table(args.load))
        world.settle(raise_on_timeout=False)
        view_in_window(world, f"pyramid: {args.load}", rng, args.seconds).close()
        world.close()
        return 0
    if args.scene is None:
        world = full_pyramid_world(rng)
        view_in_window(world, "pyramid: the full pyramid and the 116 other dice", rng, args.seconds).close()
        world.close()
        return 0
    view_scene(load_scene(args.scene), args.seed, args.seconds)
    return 0


def play(args: argparse.Namespace) -> int:
    """``pyramid play GAME --view``: the match in a window; ``human`` seats play by mouse and keys."""
    kind = find_game(args.game).kind
    if kind == "table":
        raise ValueError("the table games are played on the terminal; --view plays the pyramid's games")
    if kind == "skill":
        return _play_skill(args)
    game_type = find_game(args.game, Game)
    saved = _saved(args)
    kinds = saved.kinds if saved is not None else seat_kinds(args.players)
    kinds = kinds or ["human"] + ["greedy"] * (game_type.info.players[0] - 1)
    options = saved.options if saved is not None else game_options(args.option, game_type, len(kinds))
    seed = saved.seed if saved is not None else args.seed

    def make_game() -> Game:
        return game_type(len(kinds), rng=np.random.default_rng([seed, 1]), **options)

    undo = not getattr(args, "no_undo", False)
    physical = not args.fast
    game = play_in_window(make_game, kinds, seed, physical=physical, delay=args.delay, undo=undo, resume=saved)
    if game.outcome is not None:
        print(game.outcome.result())
    return 0


def _play_skill(args: argparse.Namespace) -> int:
    """``pyramid play N --view`` for a skill game: the match in a window, ``human`` seats play by hand."""
    game_type = find_game(args.game, SkillGame)
    if args.fast:
        raise ValueError(f"{game_type.info.title} is a game of physical skill: it has no fast mode")
    saved = _saved(args)
    kinds = saved.kinds if saved is not None else seat_kinds(args.players)
    kinds = kinds or ["human"] + [game_type.default_player] * (max(game_type.info.players[0], 2) - 1)
    options = saved.options if saved is not None else game_options(args.option, game_type, len(kinds))
    seed = saved.seed if saved is not None else args.seed
    undo = not getattr(args, "no_undo", False)
    game = play_skill_in_window(game_type, kinds, seed, options, undo=undo, resume=saved)
    if game.outcome is not None:
        print(game.outcome.result())
    return 0


def _saved(args: argparse.Namespace) -> SavedMatch | None:
    """The match ``--load`` names (checked already by ``cli.app``), or None."""
    path = getattr(args, "load", None)
    return load_match(path) if path is not None else None
