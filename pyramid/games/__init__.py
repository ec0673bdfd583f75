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
from pyramid.skillgames.base import SkillGame
from pyramid.skillgames.more import Emag, MaliciousPleasure, VainGuineaFowl
from pyramid.skillgames.mount import Mounting
from pyramid.skillgames.plate import Coulomb, Dune, Faraday
from pyramid.skillgames.standing import CaptainFlint, DiceMikado
from pyramid.skillgames.throwing import DishingUp, Flickers, HideAway, Trulla

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


# The skill games: played physically only (``pyramid.play.SkillMatch``), in rule-book order.
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


# The rule book's games that are not played here yet: number -> title (the book lists 57).
NOT_YET: dict[int, str] = {
    34: "Masquerade",
    35: "Slide",
    36: "Slipped",
    37: "Mound Mover",
    38: "Diebylon",
    45: "Sandwich",
    46: "Reducto",
    47: "Wolf in a Sheep's Coat",
    48: "Witches' Dance",
    49: "Smuggling",
    50: "The Pharaoh's Curse",
    51: "Steps to the Throne",
    52: "Race",
    53: "Triangle",
    54: "Falling Rocks",
    55: "Flea Chase",
    56: "Finish",
    57: "The Fire-Red Devil",
}


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
    infos = sorted([g.info for g in GAMES] + [g.info for g in SKILL_GAMES], key=lambda info: info.number)
    known = ", ".join(f"{info.number} {info.title}" for info in infos)
    tables = "decathlon, heptathlon, knights, sport-is-murder (dice rolled on the table)"
    missing = next((n for n, t in NOT_YET.items() if key in (str(n), _key(t))), None)
    if missing is not None:
        raise LookupError(
            f"game {missing}, {NOT_YET[missing]}, is in the rule book but not played here yet; "
            f"the games are: {known}; and {tables}"
        )
    raise LookupError(f"no game {name!r}; the games are: {known}; and {tables}")


def find_skill_game(name: str | int) -> type[SkillGame]:
    """The skill game with this rule-book number, title or alias (case-insensitive); LookupError if none."""
    key = _key(str(name))
    for game in SKILL_GAMES:
        info = game.info
        names = {str(info.number), _key(info.title), *(_key(a) for a in info.aliases)}
        if key in names or (key.startswith("the ") and key[4:] in names):
            return game
    known = ", ".join(f"{g.info.number} {g.info.title}" for g in SKILL_GAMES)
    raise LookupError(f"no skill game {name!r}; the skill games are: {known}")


def is_skill_game(name: str | int) -> bool:
    """Whether ``name`` names one of the skill games."""
    try:
        find_skill_game(name)
    except LookupError:
        return False
    return True


__all__ = ["GAMES", "NOT_YET", "SKILL_GAMES", "find_game", "find_skill_game", "is_skill_game"]
