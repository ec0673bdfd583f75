"""``pyramid games``, ``rules`` and ``play`` on the terminal: each sent to the pyramid's games or the table games.

The pyramid's games (board and skill) are ``pyramid.cli.games``'; the table dice games are
``pyramid.cli.tables``'. ``play --view`` goes to ``pyramid.cli.view`` instead (see ``cli.app``).
"""

from __future__ import annotations

import argparse

from pyramid.cli import games as pyramid_games
from pyramid.cli import tables
from pyramid.tablegames import find_table_game


def games(args: argparse.Namespace) -> int:
    """``pyramid games``: the pyramid's games, then the table games."""
    pyramid_games.list_games()
    print()
    tables.list_table_games()
    return 0


def rules(args: argparse.Namespace) -> int:
    """``pyramid rules GAME``: the rules card of a table game or of one of the pyramid's games."""
    if find_table_game(args.game) is not None:
        return tables.show_rules(args.game)
    return pyramid_games.show_rules(args.game)


def play(args: argparse.Namespace) -> int:
    """``pyramid play GAME``: a match on the terminal, of a table game or of one of the pyramid's games."""
    if find_table_game(args.game) is not None:
        return tables.play(args)
    return pyramid_games.play(args)
