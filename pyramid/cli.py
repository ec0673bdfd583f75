"""The ``pyramid`` command: one subcommand per job, each a thin layer over the Python API."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

EPILOG = """examples:
  pyramid demo --seed 7 --picture pyramid.png   build a full pyramid physically, throw dice, read it back
  pyramid games                                 list every game
  pyramid rules 10                              the rules card of game 10
  pyramid play 10 --players greedy,random,random --seed 1
  pyramid play decathlon --players optimal --seed 3
  pyramid assets --out assets                   write the meshes and URDF files
  pyramid bench                                 speed and accuracy figures of the physics
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyramid",
        description="Reinhold Wittig's dice pyramid (Das Spiel, 1979) and its games, in 3-D physics.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("demo", help="build a pyramid physically, throw dice at it, print the read-out, save a picture")
    p.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    p.add_argument("--picture", default="pyramid.png", help="PNG file to write (default pyramid.png)")
    p.add_argument("--throws", type=int, default=3, help="dice thrown onto the plate after building (default 3)")
    p.add_argument("--gui", action="store_true", help="show PyBullet's own window while it runs")
    p.set_defaults(run=_demo)

    p = sub.add_parser("assets", help="write the plate and die meshes (OBJ, STL) and URDF files")
    p.add_argument("--out", default="assets", help="folder to write to (default assets)")
    p.set_defaults(run=_assets)

    p = sub.add_parser("bench", help="print speed and accuracy figures of the physics (not a test)")
    p.add_argument("--seconds", type=float, default=10.0, help="simulated seconds of the awake pyramid")
    p.add_argument("--no-mujoco", action="store_true", help="skip the MuJoCo comparison")
    p.set_defaults(run=_bench)

    p = sub.add_parser("games", help="list every game: number, title, category, players")
    p.set_defaults(run=_games)

    p = sub.add_parser("rules", help="print a game's rules card and its house rules")
    p.add_argument("game", help="number or name of the game")
    p.set_defaults(run=_rules)

    p = sub.add_parser("play", help="play a game with bots and people; physical by default")
    p.add_argument("game", help="number or name of the game (see `pyramid games`)")
    p.add_argument("--players", default="", help="comma-separated players, e.g. greedy,random,human")
    p.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    p.add_argument("--fast", action="store_true", help="exact placement and drawn dice, no physics")
    p.add_argument("--picture", default=None, help="write a picture of the final position to this PNG")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option; repeatable")
    p.set_defaults(run=_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pyramid`` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, LookupError) as err:
        print(f"pyramid {args.command}: {err}", file=sys.stderr)
        return 2


def _demo(args: argparse.Namespace) -> int:
    from pyramid.demo import run_demo

    return run_demo(seed=args.seed, picture=args.picture, throws=args.throws, gui=args.gui)


def _assets(args: argparse.Namespace) -> int:
    from pyramid.assets import write_assets

    for path in write_assets(args.out):
        print(path)
    return 0


def _bench(args: argparse.Namespace) -> int:
    from pyramid.bench import run_bench

    return run_bench(seconds=args.seconds, mujoco=not args.no_mujoco)


def _is_table_game(name: str) -> bool:
    from pyramid.tablegames import find_table_game

    return find_table_game(name) is not None


def _games(args: argparse.Namespace) -> int:
    from pyramid.games_cli import list_games
    from pyramid.tablegames.cli import list_table_games

    list_games()
    print()
    list_table_games()
    return 0


def _rules(args: argparse.Namespace) -> int:
    if _is_table_game(args.game):
        from pyramid.tablegames.cli import show_rules as table_rules

        return table_rules(args.game)
    from pyramid.games_cli import show_rules

    return show_rules(args.game)


def _play(args: argparse.Namespace) -> int:
    if _is_table_game(args.game):
        from pyramid.tablegames.cli import play as table_play

        return table_play(args)
    from pyramid.games_cli import play

    return play(args)


if __name__ == "__main__":
    raise SystemExit(main())
