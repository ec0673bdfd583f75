"""Dice games on the table with the same physical dice: the seeds' Decathlon and its relatives.

``TABLE_GAMES`` lists them explicitly; ``find_table_game(name)`` looks one up by name or alias.
"""

from __future__ import annotations

from pyramid.tablegames.base import TableGame
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.heptathlon import Heptathlon
from pyramid.tablegames.knights import Knights
from pyramid.tablegames.sport import SportIsMurder

TABLE_GAMES: tuple[type[TableGame], ...] = (Decathlon, Heptathlon, Knights, SportIsMurder)


def find_table_game(name: str) -> type[TableGame] | None:
    """The table game called ``name`` (case-insensitive, spaces or dashes alike), or None."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    for game in TABLE_GAMES:
        if key == game.info.name or key in game.info.aliases:
            return game
    return None
