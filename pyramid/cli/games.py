"""``pyramid games`` and ``pyramid rules``: every kind of game, read from the one registry.

Listing and reading rules load no physics: a ``pyramid games`` starts in well under a second.
``pyramid play`` is ``pyramid.cli.play``.
"""

from __future__ import annotations

import argparse
import inspect
import re

from pyramid import registry
from pyramid.registry import find_game
from pyramid.rules import GameBase, player_counts
from pyramid.rules.options import card_lines
from pyramid.skillgames.base import SkillGame


def list_games() -> None:
    """Print every game: the board games, the skill games and the table games, each with its players."""
    games = registry.GAMES  # read when asked: a game added to the registry is listed with the others
    print(f"{'no.':>3}  {'title':<24} {'category':<9} players")
    for game in (g for g in games if g.kind == "board"):
        info = game.info
        print(f"{info.number:>3}  {info.title:<24} {info.category:<9} {player_counts(info.players)}")
    print("\nSkill games (physical play; `pyramid play N`):")
    skills = [g for g in games if isinstance(g, type) and issubclass(g, SkillGame)]
    wide = max(len(player_counts(g.info.players)) for g in skills)  # columns as wide as their longest entry
    kind = max(len("category"), *(len(g.info.category) for g in skills))
    print(f"{'no.':>3}  {'title':<32} {'category':<{kind}} {'players':<{wide}}  programmed player")
    for skill in skills:
        info = skill.info
        counts = player_counts(info.players)
        print(f"{info.number:>3}  {info.title:<32} {info.category:<{kind}} {counts:<{wide}}  {skill.default_player}")
    print()
    print("Table dice games (played with the same dice on the table):")
    for table in (g for g in games if g.kind == "table"):
        info = table.info
        print(f"  {info.name:18s} {info.players[0]}-{info.players[-1]} players  {info.description}")


def rules_text(game: type[GameBase]) -> str:
    """The rules card of ``game`` with its metadata and house rules."""
    info = game.info
    options = ["", "Options (--option KEY=VALUE):", *(f"  {line}" for line in card_lines(game.option_specs))]
    if game.kind == "table":
        return "\n".join([inspect.getdoc(inspect.getmodule(game)) or "", *(options if game.option_specs else [])])
    kind = "skill" if game.kind == "skill" else info.category
    lines = [
        f"{info.number}. {info.title}  [{kind}; players {player_counts(info.players)}]",
        f"Material: {info.material}",
    ]
    if issubclass(game, SkillGame):
        lines.append(
            f"Programmed player: {game.default_player}; a turn lasts at most {game.time_limit:g} simulated seconds"
        )
    lines += ["", inspect.cleandoc(game.__doc__ or "")]
    if game.house_rules and game.kind == "board":
        lines += ["", "HOUSE RULE (not in the rule book): " + game.house_rules]
    if game.option_specs:
        lines += options
    return "\n".join(lines)


def plain(card: str) -> str:
    """A rules card as a person reads it: ``code`` marks (reStructuredText literals) dropped."""
    return re.sub(r"``([^`]+)``", r"\1", card)


def show_rules(name: str) -> int:
    """Print the rules card of the game called ``name``."""
    print(plain(rules_text(find_game(name))))
    return 0


def games(args: argparse.Namespace) -> int:
    """``pyramid games``: every game of every kind."""
    list_games()
    return 0


def rules(args: argparse.Namespace) -> int:
    """``pyramid rules GAME``: the rules card of any game."""
    return show_rules(args.game)
