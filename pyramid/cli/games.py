"""The ``pyramid games``, ``pyramid rules`` and ``pyramid play`` subcommands for the pyramid's games."""

from __future__ import annotations

import argparse
import inspect

import numpy as np

from pyramid.agents.players import make_player
from pyramid.games import GAMES, find_game, find_skill_game, is_skill_game
from pyramid.play import Match
from pyramid.rules import Game


def list_games() -> None:
    """Print every game: number, title, category, player counts."""
    print(f"{'no.':>3}  {'title':<24} {'category':<9} players")
    for game in GAMES:
        info = game.info
        counts = ", ".join(map(str, info.players))
        print(f"{info.number:>3}  {info.title:<24} {info.category:<9} {counts}")
    from pyramid.cli.skill import list_skill_games

    list_skill_games()


def rules_text(game: type[Game]) -> str:
    """The rules card of ``game`` with its metadata and house rules."""
    info = game.info
    lines = [
        f"{info.number}. {info.title}  [{info.category}; players {', '.join(map(str, info.players))}]",
        f"Material: {info.material}",
        f"Rule book: seeds/004, from line {info.seed_line}",
        "",
        inspect.cleandoc(game.__doc__ or ""),
    ]
    if game.house_rules:
        lines += ["", "HOUSE RULE (not in the rule book): " + game.house_rules]
    if game.options_help:
        lines += ["", "Options: " + "; ".join(f"{k}: {v}" for k, v in game.options_help.items())]
    return "\n".join(lines)


def show_rules(name: str) -> int:
    """Print the rules card of the game called ``name``."""
    if is_skill_game(name):
        from pyramid.cli.skill import skill_rules_text

        print(skill_rules_text(find_skill_game(name)))
        return 0
    print(rules_text(find_game(name)))
    return 0


def seat_kinds(players: str | None) -> list[str]:
    """The kinds of player named by ``--players`` (comma-separated), in seat order; [] when not given."""
    if not players or not players.strip():
        return []
    kinds = [k.strip() for k in players.split(",")]
    if not all(kinds):
        raise ValueError(f"--players {players!r} has an empty player name (two commas, or one at an end)")
    return kinds


def game_options(pairs: list[str]) -> dict[str, str]:
    """``--option KEY=VALUE`` strings to a dict; ValueError on one without ``=``."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"an option is KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def play(args: argparse.Namespace) -> int:
    """Play a match from the command line and print its turns, final read-out, face counts and winner."""
    if is_skill_game(args.game):
        from pyramid.cli.skill import play_skill

        return play_skill(args)
    game_cls = find_game(args.game)
    kinds = seat_kinds(args.players)
    if not kinds:
        kinds = ["greedy"] + ["random"] * (game_cls.info.players[0] - 1)
    rng = np.random.default_rng(args.seed)
    game = game_cls(len(kinds), rng=np.random.default_rng([args.seed, 1]), **game_options(args.option))
    players = [make_player(k, np.random.default_rng([args.seed, 2, n])) for n, k in enumerate(kinds)]
    world = None
    if not args.fast:
        from pyramid.physics.world import World

        world = World()
    print(f"{game.info.number}. {game.info.title}: " + ", ".join(f"player {n} {k}" for n, k in enumerate(kinds)))
    match = Match(game, players, world=world, rng=rng, log=print)
    outcome = match.run()
    print()
    print("final pyramid:", game.state.to_notation())
    print("faces showing on the outside (edges double, apex triple):")
    counts = game.state.face_count()
    for colour, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {colour:<6} {n:4d}")
    print("scores:", ", ".join(f"player {p} {s:g}" for p, s in enumerate(outcome.scores)))
    print(outcome.result())
    if world is not None:
        if args.picture:
            from pyramid.physics.render import save_picture

            save_picture(world, args.picture)
            print(f"picture written to {args.picture}")
        world.close()
    elif args.picture:
        print("no picture in fast mode (there is no world to photograph)")
    return 0
