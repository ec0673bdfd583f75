"""``pyramid play GAME`` on the terminal: any game, set up by ``start_match`` and played by the one ``Match``.

Every turn is printed as it happens, then the result: the final pyramid (board games), each turn's
verdict (skill games), or the score sheet and the dice rolled (table games).
"""

from __future__ import annotations

import argparse

from pyramid.agents.players import HumanPlayer
from pyramid.agents.seats import default_seats
from pyramid.agents.seats import seat_kinds as kinds_for
from pyramid.agents.table_players import OptimalPlayer, TableHumanPlayer
from pyramid.cli.args import game_options, game_physics, seat_kinds
from pyramid.cli.games import rules_text
from pyramid.physics.render import save_picture
from pyramid.play import Match, start_match
from pyramid.registry import find_game
from pyramid.rules import Game
from pyramid.skillgames.base import SkillGame
from pyramid.tablegames.base import TableGame
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.decathlon_dp import expected_scores
from pyramid.ui.film import make_renderer


def play(args: argparse.Namespace) -> int:
    """``pyramid play GAME``: a match on the terminal, every turn as it happens, then the result."""
    game_cls = find_game(args.game)
    kinds = seat_kinds(args.players) or default_seats(game_cls)
    if game_cls.kind == "skill" and args.fast:
        print(f"{game_cls.info.title} is a game of physical skill: it has no fast mode")
        return 2
    options = game_options(args.option, game_cls, len(kinds))
    physics = game_physics(getattr(args, "physics", []), args.fast)
    kind = getattr(args, "renderer", "auto")  # the parser always gives it; a Namespace made by a script may not
    if kind != "auto" and not args.picture:
        raise ValueError(f"--renderer {kind} draws --picture: give it too")
    if args.picture and game_cls.kind == "table":
        raise ValueError(
            f"--picture draws the pyramid's plate; {game_cls.info.title} is a table game, rolled on a bare table "
            "that nothing keeps: play it without --picture"
        )
    unknown = [k for k in kinds if k.partition(":")[0] not in kinds_for(game_cls)]  # mcts:400 is mcts
    if unknown:
        raise ValueError(f"unknown player {unknown[0]!r}; choose from {', '.join(kinds_for(game_cls))}")
    if game_cls.kind != "table":
        seats = ", ".join(f"player {n} {k}" for n, k in enumerate(kinds))
        print(f"{game_cls.info.number}. {game_cls.info.title}: {seats}")
    # Drawn as pyramid demo and pyramid run draw theirs; made first: --renderer opengl fails before the match.
    renderer = make_renderer(kind) if args.picture and not args.fast else None
    match = start_match(game_cls, kinds, args.seed, fast=args.fast, options=options, log=print, physics=physics)
    for seat in match.players:
        if isinstance(seat, HumanPlayer | TableHumanPlayer):
            seat.card = rules_text(game_cls)  # in reach: a person types rules (or help)
    try:
        match.run()
        game = match.game
        if isinstance(game, TableGame):
            _table_summary(match, game)
            return 0
        if isinstance(game, Game):
            _board_summary(game)
        elif isinstance(game, SkillGame):
            _skill_summary(game)
        assert game.outcome is not None
        print("scores:", game.score_line(game.outcome.scores))
        print(game.outcome.result())
        if args.picture:
            # A board game's final position, or the world of a skill game's last turn as it ended.
            if match.world is None:
                print("no picture in fast mode (there is no world to photograph)")
            else:
                assert renderer is not None
                save_picture(match.world, args.picture, renderer)
                print(f"picture written to {args.picture}; drawn by the {renderer.name} renderer")
    finally:
        match.close()
        if renderer is not None:
            renderer.close()
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


def _table_summary(match: Match, game: TableGame) -> None:
    assert game.outcome is not None
    print()
    print(game.score_sheet())
    print("winner: " + ", ".join(game.names[i] for i in game.outcome.winners))
    if isinstance(game, Decathlon) and any(isinstance(p, OptimalPlayer) for p in match.players):
        print()
        print(expected_score_table())
    records = match.roller.records
    print(f"{len(records)} rolls, {sum(r.rerolls for r in records)} dice re-thrown (cocked or off the table)")


def expected_score_table() -> str:
    """The optimal player's exact expected score per discipline and in total."""
    scores = expected_scores()
    lines = ["Optimal player's exact expected score (dynamic programming over the dice):"]
    lines += [f"  {name.title():18s} {value:8.4f}" for name, value in scores.items()]
    lines.append(f"  {'Total':18s} {sum(scores.values()):8.4f}")
    return "\n".join(lines)
