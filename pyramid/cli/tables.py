"""The `pyramid games / rules / play` subcommands for the table games.

Players: ``strong`` or ``optimal`` (the same), ``random``, ``human``. Physical rolls by default, drawn with --fast.
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Sequence

import numpy as np

from pyramid.agents.table_players import OptimalPlayer, table_players
from pyramid.cli.games import seat_kinds
from pyramid.physics.roller import FastRoller, PhysicalRoller, Roller
from pyramid.tablegames import TABLE_GAMES, find_table_game
from pyramid.tablegames.base import play_out
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.decathlon_dp import expected_scores


def list_table_games() -> None:
    """Print the table games: name, players and a short description."""
    print("Table dice games (played with the same dice on the table):")
    for game in TABLE_GAMES:
        info = game.info
        print(f"  {info.name:18s} {info.players[0]}-{info.players[-1]} players  {info.description}")


def show_rules(name: str) -> int:
    """Print the rules card of a table game; 1 if there is no such game."""
    game = find_table_game(name)
    if game is None:
        print(f"no table game called {name!r}")
        return 1
    print(inspect.getdoc(inspect.getmodule(game)))
    return 0


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings to a dict (keys in lower case); raises ValueError on a malformed one."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"option {pair!r} is not KEY=VALUE")
        out[key.strip().lower()] = value.strip()
    return out


def make_roller(fast: bool, rng: np.random.Generator) -> Roller:
    """Drawn faces with ``fast``, otherwise dice thrown on a physical table."""
    if fast:
        return FastRoller(rng)
    from pyramid.physics.world import World

    return PhysicalRoller(World(plate=False), rng)


def play(args: argparse.Namespace) -> int:
    """Play a table game from the command line; prints each turn and the final score sheet."""
    game_type = find_table_game(args.game)
    if game_type is None:
        raise ValueError(f"no table game called {args.game!r}")
    rng = np.random.default_rng(args.seed)
    options = parse_options(args.option)
    players = table_players(seat_kinds(args.players) or ["optimal", "random"], rng)
    roller = make_roller(args.fast, rng)
    game = game_type(len(players), rng=rng, names=[p.name for p in players], **options)
    outcome = play_out(game, players, roller, say=print)
    print()
    print(game.score_sheet())
    print("winner: " + ", ".join(game.names[i] for i in outcome.winners))
    if game_type is Decathlon and any(isinstance(p, OptimalPlayer) for p in players):
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
