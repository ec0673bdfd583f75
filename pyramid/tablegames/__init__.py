"""Dice games on the table with the same physical dice: the seeds' Decathlon and its relatives.

``TABLE_GAMES`` lists them; ``pyramid.registry.find_game`` looks any game up, these among them.
"""

from __future__ import annotations

from pyramid.tablegames.base import TableGame
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.heptathlon import Heptathlon
from pyramid.tablegames.knights import Knights
from pyramid.tablegames.sport import SportIsMurder

TABLE_GAMES: tuple[type[TableGame], ...] = (Decathlon, Heptathlon, Knights, SportIsMurder)
