"""The `pyramid games / rules / play` subcommands for the table games.

Players: ``strong`` or ``optimal`` (the same), ``random``, ``human``. Physical rolls by default, drawn with --fast.
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any

import numpy as np

from pyramid.cli.args import seat_kinds
from pyramid.physics.roller import FastRoller, PhysicalRoller, Roller
from pyramid.rules import cast_option
from pyramid.tablegames import TABLE_GAMES, find_table_game
from pyramid.tablegames.base import HumanPlayer, Player, RandomPlayer, ValuePlayer, parse_options
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.decathlon_dp import expected_scores

PLAYER_KINDS = ("optimal", "strong", "random", "human")


def list_table_games() -> None:
    """Print the table games: name, players and a short description."""
    print("Table dice games (played with the same dice on the table):")
    for game in TABLE_GAMES:
        info = game.info  # type: ignore[attr-defined]
        print(f"  {info.name:18s} {info.min_players}-{info.max_players} players  {info.description}")


def show_rules(name: str) -> int:
    """Print the rules card of a table game; 1 if there is no such game."""
    game = find_table_game(name)
    if game is None:
        print(f"no table game called {name!r}")
        return 1
    print(inspect.getdoc(inspect.getmodule(game)))
    return 0


def make_players(spec: str, rng: np.random.Generator) -> list[Player]:
    """Players from a comma-separated list of kinds, e.g. ``optimal,random,human``."""
    kinds = [k.lower() for k in seat_kinds(spec)] or ["optimal", "random"]
    players: list[Player] = []
    for n, kind in enumerate(kinds, start=1):
        name = f"{kind}{n}"
        if kind in ("optimal", "strong"):
            players.append(ValuePlayer(name))
        elif kind == "random":
            players.append(RandomPlayer(name, rng))
        elif kind == "human":
            players.append(HumanPlayer(name))
        else:
            raise ValueError(f"unknown player {kind!r}; choose from {', '.join(PLAYER_KINDS)}")
    return players


def make_roller(fast: bool, rng: np.random.Generator) -> Roller:
    """Drawn faces with ``fast``, otherwise dice thrown on a physical table."""
    if fast:
        return FastRoller(rng)
    from pyramid.physics.world import World

    return PhysicalRoller(World(plate=False), rng)


def make_table_game(
    game_type: type, players: list[Player], roller: Roller, rng: np.random.Generator, options: dict[str, str], say: Any
) -> Any:
    """Set up a table game from its players, roller and KEY=VALUE options; ``say`` prints its turns."""
    if game_type is Decathlon:
        options = dict(options)
        championship = cast_option("decathlon", "championship", options.pop("championship", False), False)
        if options:
            raise ValueError(f"unknown decathlon options: {', '.join(options)}")
        return Decathlon(players, roller, rng, championship=championship, say=say)
    return game_type.from_options(players, roller, rng, options, say=say)  # type: ignore[attr-defined]


def play(args: argparse.Namespace) -> int:
    """Play a table game from the command line; prints each turn and the final score sheet."""
    game_type = find_table_game(args.game)
    if game_type is None:
        raise ValueError(f"no table game called {args.game!r}")
    rng = np.random.default_rng(args.seed)
    options = parse_options(args.option)
    players = make_players(args.players, rng)
    roller = make_roller(args.fast, rng)
    game = make_table_game(game_type, players, roller, rng, options, say=print)
    game.play()
    print()
    print(game.score_sheet())
    print("winner: " + ", ".join(players[i].name for i in game.winners()))
    if game_type is Decathlon and any(isinstance(p, ValuePlayer) for p in players):
        print()
        print(expected_score_table())
    rolls = len(roller.records)
    rerolls = sum(r.rerolls for r in roller.records)
    print(f"{rolls} rolls, {rerolls} dice re-thrown (cocked or off the table)")
    return 0


def expected_score_table() -> str:
    """The optimal player's exact expected score per discipline and in total."""
    scores = expected_scores()
    lines = ["Optimal player's exact expected score (dynamic programming over the dice):"]
    lines += [f"  {name.title():18s} {value:8.4f}" for name, value in scores.items()]
    lines.append(f"  {'Total':18s} {sum(scores.values()):8.4f}")
    return "\n".join(lines)
