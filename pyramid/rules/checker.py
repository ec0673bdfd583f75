"""The conformance checker: seeded random play of a board game against the invariants of the rules layer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from pyramid import geometry
from pyramid.geometry import free_slots
from pyramid.rules.actions import Action, IllegalAction, Pass, Place, Remove
from pyramid.rules.game import Game
from pyramid.state import PyramidState


@dataclass
class CheckReport:
    """What ``check_game`` saw: games played, moves made, outcomes, and any violated invariant."""

    game: str
    games: int = 0
    moves: int = 0
    terminations: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether no invariant was violated."""
        return not self.problems


def _illegal_candidates(game: Game) -> list[Action]:
    state = game.state
    empty = [s for s in geometry.SLOTS if s not in state]
    free = set(free_slots(state))
    covered = [s for s in state if s not in free]
    out: list[Action] = [Pass()]
    out += [Place(s, "red") for s in list(state)[:3]]
    out += [Remove(s) for s in empty[:2] + covered[:2]]
    return [a for a in out if a not in game.legal_actions()]


def check_game(game_cls: type[Game], seeds: Iterable[int], players: int | None = None) -> CheckReport:
    """Play seeded random games of ``game_cls`` and check the invariants of the rules layer.

    Invariants: every illegal action is refused and leaves the game unchanged; every legal action is
    accepted; the state stays stable (every die supported); the game ends; the outcome's scores equal
    the scores recomputed from the final state read back from its text notation; the same seed
    replays the same game.
    """
    report = CheckReport(game_cls.info.title)
    for seed in seeds:
        histories = []
        for _ in range(2):
            rng = np.random.default_rng(seed)
            game = game_cls(players, rng=np.random.default_rng([seed, 1]))
            while not game.is_over:
                legal = game.legal_actions()
                for bad in _illegal_candidates(game)[:3]:
                    before = (game.state, len(game.history))
                    try:
                        game.apply(bad)
                        report.problems.append(f"seed {seed}: illegal {bad} was accepted")
                    except IllegalAction:
                        if (game.state, len(game.history)) != before:
                            report.problems.append(f"seed {seed}: refusing {bad} changed the game")
                action = legal[int(rng.integers(len(legal)))]
                game.apply(action)
                if not geometry.is_stable(game.state):
                    report.problems.append(f"seed {seed}: unsupported die after {action}")
                if len(game.history) > game.max_moves + 1:
                    report.problems.append(f"seed {seed}: the game did not end")
                    break
            histories.append(list(game.history))
        if histories[0] != histories[1]:
            report.problems.append(f"seed {seed}: the same seed played two different games")
        outcome = game.outcome
        if outcome is None:
            continue
        replay = game.clone()
        replay.state = PyramidState.from_notation(game.state.to_notation())
        if replay.scores() != outcome.scores:
            report.problems.append(f"seed {seed}: scores {outcome.scores} differ from the read-out's {replay.scores()}")
        if not outcome.winners or any(not 0 <= p < game.players for p in outcome.winners):
            report.problems.append(f"seed {seed}: bad winners {outcome.winners}")
        report.games += 1
        report.moves += len(game.history)
        key = outcome.termination.name
        report.terminations[key] = report.terminations.get(key, 0) + 1
    return report
