"""Every game of the rule book that the project plays, listed explicitly, and the lookup by number or name."""

from __future__ import annotations

import re

from pyramid.games.chunks import QuadrulaRasa, TabulaRasa
from pyramid.games.construction import FireAndWater, ForbiddenNumber, MostSimpleGame, Mucho, Rasanto, SummitStorm
from pyramid.games.demolition import Asparagus, Doubles, ElDado, Favourite
from pyramid.games.economy import Acquire, GreenAmoeba, Ruins, UpAndDown
from pyramid.games.observation import CleverMole, StoringScores
from pyramid.games.races import GreedyGrabber, Lookout, SpottedCow
from pyramid.games.tactics import CuiBono, DoRa, GoldenCentre, Squeezing, Triops
from pyramid.rules import Game

GAMES: tuple[type[Game], ...] = (
    MostSimpleGame,
    GreenAmoeba,
    ForbiddenNumber,
    UpAndDown,
    CleverMole,
    StoringScores,
    SpottedCow,
    Acquire,
    GoldenCentre,
    Rasanto,
    SummitStorm,
    Ruins,
    DoRa,
    Mucho,
    TabulaRasa,
    QuadrulaRasa,
    FireAndWater,
    Squeezing,
    Triops,
    Lookout,
    ElDado,
    Asparagus,
    Doubles,
    Favourite,
    GreedyGrabber,
    CuiBono,
)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def find_game(name: str | int) -> type[Game]:
    """The game with this rule-book number, title or alias (case-insensitive); LookupError if none."""
    key = _key(str(name))
    for game in GAMES:
        info = game.info
        names = {str(info.number), _key(info.title), *(_key(a) for a in info.aliases)}
        if key in names or (key.startswith("the ") and key[4:] in names) or f"the {key}" in names:
            return game
    known = ", ".join(f"{g.info.number} {g.info.title}" for g in GAMES)
    raise LookupError(f"no game {name!r}; the games are: {known}")


__all__ = ["GAMES", "find_game"]
