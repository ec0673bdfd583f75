"""``pyramid play``, ``pyramid rules`` and ``pyramid games`` for the skill games, and their programmed players."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable

import numpy as np

from pyramid.agents import (
    BlowHand,
    Controller,
    FlickHand,
    FlintHand,
    FowlHand,
    HumanHand,
    LadleHand,
    MaliceHand,
    MikadoHand,
    MountHand,
    StackHand,
    ThrowHand,
    TiltHand,
)
from pyramid.cli.games import game_options, seat_kinds
from pyramid.games import SKILL_GAMES, find_skill_game
from pyramid.play import SkillMatch
from pyramid.skillgames.base import SkillGame

PLAYERS: dict[str, Callable[[np.random.Generator], Controller]] = {
    "careful": lambda rng: MikadoHand(rng, "careful"),
    "bottom": lambda rng: MikadoHand(rng, "bottom"),
    "random": lambda rng: MikadoHand(rng, "random"),
    "tilt": TiltHand,
    "blow": BlowHand,
    "flick": FlickHand,
    "flint": FlintHand,
    "throw": ThrowHand,
    "ladle": LadleHand,
    "malice": MaliceHand,
    "fowl": FowlHand,
    "fowl-random": lambda rng: FowlHand(rng, hold=False),
    "stack": StackHand,
    "stack-tower": lambda rng: StackHand(rng, "tower"),
    "mount": MountHand,
    "mount-shallow": lambda rng: MountHand(rng, depth=0.004),
    "human": lambda rng: HumanHand(),
}


def make_controller(kind: str, rng: np.random.Generator) -> Controller:
    """A skill player by name (see ``PLAYERS``)."""
    if kind not in PLAYERS:
        raise ValueError(f"unknown skill player {kind!r}; choose from {', '.join(PLAYERS)}")
    return PLAYERS[kind](rng)


def list_skill_games() -> None:
    """Print the skill games: number, title, player counts and the default programmed player."""
    print("\nSkill games (physical play; `pyramid play N`):")
    for game in SKILL_GAMES:
        info = game.info
        counts = ", ".join(map(str, info.players))
        print(f"{info.number:>3}  {info.title:<32} {info.category:<4} {counts:<12} player: {game.default_player}")


def skill_rules_text(game: type[SkillGame]) -> str:
    """The rules card of a skill game with its metadata."""
    info = game.info
    lines = [
        f"{info.number}. {info.title}  [skill; players {', '.join(map(str, info.players))}]",
        f"Material: {info.material}",
        f"Rule book: seeds/004, from line {info.seed_line}",
        f"Programmed player: {game.default_player}; a turn lasts at most {game.time_limit:g} simulated seconds",
        "",
        inspect.cleandoc(game.__doc__ or ""),
    ]
    if game.options_help:
        lines += ["", "Options: " + "; ".join(f"{k}: {v}" for k, v in game.options_help.items())]
    return "\n".join(lines)


def run_skill_game(
    game_cls: type[SkillGame],
    kinds: list[str],
    seed: int,
    options: dict[str, str] | None = None,
    log: Callable[[str], None] | None = None,
) -> SkillGame:
    """Play ``game_cls`` to its end with the named players and ``seed``; returns the finished game."""
    from pyramid.physics.world import World

    game = game_cls(len(kinds), rng=np.random.default_rng([seed, 1]), **(options or {}))
    players = [make_controller(k, np.random.default_rng([seed, 2, n])) for n, k in enumerate(kinds)]
    match = SkillMatch(game, players, World, np.random.default_rng([seed, 3]), log=log)
    match.run()
    if match.world is not None:
        match.world.close()
    return game


def play_skill(args: argparse.Namespace) -> int:
    """Play a skill game from the command line: print every action, each turn's verdict and the scores."""
    game_cls = find_skill_game(args.game)
    if args.fast:
        print(f"{game_cls.info.title} is a game of physical skill: it has no fast mode")
        return 2
    kinds = seat_kinds(args.players)
    if not kinds:
        kinds = [game_cls.default_player] * game_cls.info.players[0]
    print(
        f"{game_cls.info.number}. {game_cls.info.title}: " + ", ".join(f"player {n} {k}" for n, k in enumerate(kinds))
    )
    game = run_skill_game(game_cls, kinds, args.seed, game_options(args.option), log=print)
    assert game.outcome is not None
    print()
    reached = getattr(game, "reached", None)
    for n, r in enumerate(game.records):
        best = f" (at best {reached[n]} of {game.goal_size} dice in place)" if reached else ""  # type: ignore[attr-defined]
        print(f"player {r.player}: {'done' if r.end.success else 'failed'} in {r.time:.2f} s: {r.end.note}{best}")
    print("scores:", ", ".join(f"player {p} {s:g}" for p, s in enumerate(game.outcome.scores)))
    print(game.outcome.result())
    return 0
