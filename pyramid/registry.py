"""Every game the project plays, in one list, and one lookup that answers the same way for every kind.

A new game is one class and one line here. ``find_game`` takes a rule-book number, a title, a name or
an alias, in any case, with or without "the"; a game of the rule book that is not played yet is
named as such.
"""

from __future__ import annotations

from typing import TypeVar, overload

from pyramid.games.boards import Reducto, Sandwich, WitchesDance
from pyramid.games.chunks import QuadrulaRasa, TabulaRasa
from pyramid.games.construction import FireAndWater, ForbiddenNumber, MostSimpleGame, Mucho, Rasanto, SummitStorm
from pyramid.games.crossings import FallingRocks, Smuggling, StepsToTheThrone
from pyramid.games.demolition import Asparagus, Doubles, ElDado, Favourite
from pyramid.games.economy import Acquire, GreenAmoeba, Ruins, UpAndDown
from pyramid.games.edges import Masquerade
from pyramid.games.hunts import PharaohsCurse, WolfInASheepsCoat
from pyramid.games.jumps import Finish, FireRedDevil, FleaChase, Race
from pyramid.games.mounds import Diebylon, MoundMover
from pyramid.games.observation import CleverMole, StoringScores
from pyramid.games.races import GreedyGrabber, Lookout, SpottedCow
from pyramid.games.rows import Triangle
from pyramid.games.slides import Slide, Slipped
from pyramid.games.tactics import CuiBono, DoRa, GoldenCentre, Squeezing, Triops
from pyramid.rules import Game, GameBase, name_key
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.more import Emag, MaliciousPleasure, VainGuineaFowl
from pyramid.skillgames.mount import Mounting
from pyramid.skillgames.plate import Coulomb, Dune, Faraday
from pyramid.skillgames.standing import CaptainFlint, DiceMikado
from pyramid.skillgames.throwing import DishingUp, Flickers, HideAway, Trulla
from pyramid.tablegames import TABLE_GAMES

# The board games: placing and removing dice on the pyramid, fast or physical, in rule-book order.
BOARD_GAMES: tuple[type[Game], ...] = (
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
    Masquerade,
    Slide,
    Slipped,
    MoundMover,
    Diebylon,
    ElDado,
    Asparagus,
    Doubles,
    Favourite,
    GreedyGrabber,
    CuiBono,
    Sandwich,
    Reducto,
    WolfInASheepsCoat,
    WitchesDance,
    Smuggling,
    PharaohsCurse,
    StepsToTheThrone,
    Race,
    Triangle,
    FallingRocks,
    FleaChase,
    Finish,
    FireRedDevil,
)

# The skill games: played physically only, in rule-book order.
SKILL_GAMES: tuple[type[SkillGame], ...] = (
    CaptainFlint,
    Dune,
    Faraday,
    Coulomb,
    Emag,
    DiceMikado,
    Flickers,
    Mounting,
    HideAway,
    Trulla,
    VainGuineaFowl,
    DishingUp,
    MaliciousPleasure,
)

# Every game: the rule book's (board and skill), then the dice games of the other seeds (table).
GAMES: tuple[type[GameBase], ...] = (*BOARD_GAMES, *SKILL_GAMES, *TABLE_GAMES)

# The rule book's games that are not played here yet: number -> title (the book lists 57).
NOT_YET: dict[int, str] = {}


def numbered(games: tuple[type[GameBase], ...] = GAMES) -> list[type[GameBase]]:
    """The games of the rule book among ``games``, by number."""
    return sorted((g for g in games if g.info.number is not None), key=lambda g: g.info.number or 0)


G = TypeVar("G", bound=GameBase)


@overload
def find_game(name: str | int) -> type[GameBase]: ...
@overload
def find_game(name: str | int, kind: type[G]) -> type[G]: ...
def find_game(name: str | int, kind: type[GameBase] = GameBase) -> type[GameBase]:
    """The game with this number, title, name or alias (case-insensitive); LookupError naming the choices.

    ``kind`` (e.g. ``SkillGame``) narrows the answer: a game of another kind is refused, named.
    """
    key = name_key(str(name))
    for game in GAMES:
        if key in game.info.names():
            if kind is not GameBase and not issubclass(game, kind):
                raise LookupError(f"{game.info.title} is a {game.kind} game, not a {kind.kind} game")
            return game
    known = ", ".join(f"{g.info.number} {g.info.title}" for g in numbered())
    tables = ", ".join(g.info.key for g in GAMES if g.kind == "table") + " (dice rolled on the table)"
    missing = next((n for n, t in NOT_YET.items() if key in (str(n), name_key(t))), None)
    if missing is not None:
        raise LookupError(
            f"game {missing}, {NOT_YET[missing]}, is in the rule book but not played here yet; "
            f"the games are: {known}; and {tables}"
        )
    raise LookupError(f"no game {name!r}; the games are: {known}; and {tables}")
