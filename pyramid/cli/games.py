"""``pyramid games``, ``pyramid rules`` and ``pyramid play``: every kind of game, through one registry and one match."""

from __future__ import annotations

import argparse
import inspect

from pyramid.agents.seats import seat_kinds as kinds_for
from pyramid.cli.args import game_options, seat_kinds
from pyramid.cli.tables import list_table_games
from pyramid.cli.tables import play as play_table_game
from pyramid.physics.render import save_picture
from pyramid.play import start_match
from pyramid.registry import BOARD_GAMES, SKILL_GAMES, find_game
from pyramid.rules import Game, GameBase, player_counts
from pyramid.skillgames.base import SkillGame


def list_games() -> None:
    """Print every game: the board games, the skill games and the table games, each with its players."""
    print(f"{'no.':>3}  {'title':<24} {'category':<9} players")
    for game in BOARD_GAMES:
        info = game.info
        print(f"{info.number:>3}  {info.title:<24} {info.category:<9} {player_counts(info.players)}")
    print("\nSkill games (physical play; `pyramid play N`):")
    for skill in SKILL_GAMES:
        info = skill.info
        counts = player_counts(info.players)
        print(f"{info.number:>3}  {info.title:<32} {info.category:<4} {counts:<12} player: {skill.default_player}")
    print()
    list_table_games()


def rules_text(game: type[GameBase]) -> str:
    """The rules card of ``game`` with its metadata and house rules."""
    info = game.info
    if game.kind == "table":
        return inspect.getdoc(inspect.getmodule(game)) or ""
    kind = "skill" if game.kind == "skill" else info.category
    lines = [
        f"{info.number}. {info.title}  [{kind}; players {player_counts(info.players)}]",
        f"Material: {info.material}",
        f"Rule book: seeds/004, from line {info.seed_line}",
    ]
    if issubclass(game, SkillGame):
        lines.append(
            f"Programmed player: {game.default_player}; a turn lasts at most {game.time_limit:g} simulated seconds"
        )
    lines += ["", inspect.cleandoc(game.__doc__ or "")]
    if game.house_rules and game.kind == "board":
        lines += ["", "HOUSE RULE (not in the rule book): " + game.house_rules]
    if game.options_help:
        lines += ["", "Options: " + "; ".join(f"{k}: {v}" for k, v in game.options_help.items())]
    return "\n".join(lines)


def show_rules(name: str) -> int:
    """Print the rules card of the game called ``name``."""
    print(rules_text(find_game(name)))
    return 0


def default_seats(game: type[GameBase]) -> list[str]:
    """Who plays when ``--players`` is not given."""
    if game.kind == "board":
        return ["greedy"] + ["random"] * (game.info.players[0] - 1)
    if game.kind == "table":
        return [game.default_player, "random"]
    return [game.default_player] * game.info.players[0]


def play(args: argparse.Namespace) -> int:
    """Play a match from the command line: every turn as it happens, then the result."""
    game_cls = find_game(args.game)
    if game_cls.kind == "table":
        return play_table_game(args)
    kinds = seat_kinds(args.players) or default_seats(game_cls)
    if game_cls.kind == "skill" and args.fast:
        print(f"{game_cls.info.title} is a game of physical skill: it has no fast mode")
        return 2
    unknown = [k for k in kinds if k not in kinds_for(game_cls)]
    if unknown:
        raise ValueError(f"unknown player {unknown[0]!r}; choose from {', '.join(kinds_for(game_cls))}")
    if game_cls.kind != "table":
        seats = ", ".join(f"player {n} {k}" for n, k in enumerate(kinds))
        print(f"{game_cls.info.number}. {game_cls.info.title}: {seats}")
    match = start_match(game_cls, kinds, args.seed, fast=args.fast, options=game_options(args.option), log=print)
    try:
        outcome = match.run()
        game = match.game
        if isinstance(game, Game):
            _board_summary(game)
        elif isinstance(game, SkillGame):
            _skill_summary(game)
        print("scores:", ", ".join(f"player {p} {s:g}" for p, s in enumerate(outcome.scores)))
        print(outcome.result())
        if isinstance(game, Game) and args.picture:
            if match.world is None:
                print("no picture in fast mode (there is no world to photograph)")
            else:
                save_picture(match.world, args.picture)
                print(f"picture written to {args.picture}")
    finally:
        match.close()
    return 0


def _board_summary(game: Game) -> None:
    print()
    print("final pyramid:", game.state.to_notation())
    print("faces showing on the outside (edges double, apex triple):")
    counts = game.state.face_count()
    for colour, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {colour:<6} {n:4d}")


def _skill_summary(game: SkillGame) -> None:
    print()
    for n, r in enumerate(game.records):
        verdict = "done" if r.end.success else "failed"
        print(f"player {r.player}: {verdict} in {r.time:.2f} s: {r.end.note}{game.turn_summary(n)}")
