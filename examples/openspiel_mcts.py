"""OpenSpiel's own Monte Carlo tree search plays Decathlon through ``pyramid.openspiel``, against the optimal player.

Demonstrates that an unchanged OpenSpiel algorithm runs on a game of the project: the game is loaded
by name (``pyspiel.load_game("pyramid_decathlon")``), the bot is ``open_spiel.python.algorithms.mcts``'s
``MCTSBot`` with its random-rollout evaluator, and it sees only what OpenSpiel offers (legal action
numbers, chance nodes with their probabilities, the shared win as the return). Its opponent is the
project's optimal player, which answers each decision with the option of highest exact expected
score (``pyramid.tablegames.decathlon_dp``). Needs the openspiel extra. Run:
    .venv/bin/python examples/openspiel_mcts.py --games 4 --simulations 8
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pyramid.agents.table_players import OptimalPlayer
from pyramid.cli.extras import load
from pyramid.tablegames.decathlon import Decathlon
from pyramid.tablegames.decathlon_dp import expected_scores

pyspiel = load("pyspiel")
mcts = load("open_spiel.python.algorithms.mcts")
import pyramid.openspiel  # noqa: E402, F401 - registers the games with pyspiel

EPILOG = """what it prints:
  one line a game (who sat where, each seat's total, the winner), then each player's wins and mean total,
  beside the exact expected total of optimal play in a game alone (the sum of each discipline's value).

what to expect:
  the search knows nothing of Decathlon but its rules: each simulation plays the rest of the game at
  random (about 500 steps, both players), and the win it counts is decided by hundreds of later rolls,
  so a few simulations a decision tell it little. More --simulations and --rollouts cost time linearly
  (about 0.1 s a rollout on one core).

examples:
  .venv/bin/python examples/openspiel_mcts.py                      # 2 games, 4 simulations: about a minute
  .venv/bin/python examples/openspiel_mcts.py --games 10 --simulations 20 --seed 1
"""


def parse_args() -> argparse.Namespace:
    """The command line: games, budget of the search, seed."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2, help="games to play; the seats alternate (default 2)")
    parser.add_argument(
        "--simulations", type=int, default=4, help="MCTS simulations a decision (default 4; each one a rollout)"
    )
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts a simulation evaluates (default 1)")
    parser.add_argument("--uct", type=float, default=2.0, help="MCTS exploration constant (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the rolls and of the search (default 0)")
    return parser.parse_args()


def play_one(game: object, bot: object, bot_seat: int, rng: np.random.Generator) -> tuple[list[float], list[float]]:
    """One game of ``bot`` in ``bot_seat`` against the optimal player: the returns and each seat's total."""
    optimal = OptimalPlayer()
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            # A die of a roll, or a draw of the set-up: drawn with OpenSpiel's probabilities.
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == bot_seat:
            state.apply_action(bot.step(state))  # type: ignore[attr-defined]
        else:
            # A table game numbers its options: the optimal player's index is the action number.
            state.apply_action(optimal.answer(state.base.decision()))
    return list(state.returns()), list(state.base.scores())


def main() -> None:
    args = parse_args()
    rng = np.random.default_rng(args.seed)
    game = pyspiel.load_game("pyramid_decathlon", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=np.random.RandomState(args.seed))
    bot = mcts.MCTSBot(
        game,
        uct_c=args.uct,
        max_simulations=args.simulations,
        evaluator=evaluator,
        random_state=np.random.RandomState(args.seed + 1),
    )
    print(
        f"{Decathlon.info.title}, 2 players: OpenSpiel MCTS ({args.simulations} simulations a decision, "
        f"{args.rollouts} random rollout each) against the optimal player, {args.games} games, seed {args.seed}"
    )
    wins = {"mcts": 0.0, "optimal": 0.0}
    totals: dict[str, list[float]] = {"mcts": [], "optimal": []}
    start = time.perf_counter()
    for n in range(args.games):
        bot_seat = n % 2
        returns, scores = play_one(game, bot, bot_seat, rng)
        names = ["mcts", "optimal"] if bot_seat == 0 else ["optimal", "mcts"]
        for seat, name in enumerate(names):
            wins[name] += returns[seat]
            totals[name].append(scores[seat])
        winner = " and ".join(names[s] for s in range(2) if returns[s] > 0)
        print(f"game {n + 1}: seat 0 {names[0]} {scores[0]:g}, seat 1 {names[1]} {scores[1]:g}: {winner} wins")
    exact = sum(expected_scores().values())
    print(f"\n{'player':10}{'wins':>8}{'mean total':>12}")
    for name in ("mcts", "optimal"):
        print(f"{name:10}{wins[name]:8g}{np.mean(totals[name]):12.1f}")
    print(f"exact expected total of optimal play: {exact:.1f}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
