"""Monte Carlo tree search over the one game contract: a strong player for every turn-based game.

Sits beside the other players: it sees a game (rules layer), never the world, and returns one of the
legal actions. Chance is sampled from the game's own rules: each simulation plays on a clone whose
generator is reseeded from the search's, so rolls inside a board game's turn, and a table game's
``Roll`` requests, are drawn afresh from their true distribution (the real game's future draws stay
unknown). Every random choice comes from the one ``numpy.random.Generator`` the search was given.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pyramid.rules import Game, GameBase, Phase, Rolled
from pyramid.tablegames.base import TableGame

FORCED_LIMIT = 20  # forced actions (a lone legal one) followed when an action is valued one move ahead


@dataclass
class Node:
    """One node of the tree: reached by a sequence of actions (and, for table games, rolls).

    Board games roll inside ``apply``, so their nodes are open loop: the same actions reached
    after different hidden rolls share a node. ``value`` sums the rewards of the player who chose
    the action leading here.
    """

    visits: int = 0
    value: float = 0.0
    children: dict[Hashable, Node] = field(default_factory=dict)
    order: list[Hashable] = field(default_factory=list)  # actions in the order they are widened to
    bias: dict[Hashable, float] = field(default_factory=dict)  # the prior of each action, 0 to 1 (root only)

    def mean(self) -> float:
        """The average reward of the action leading here (0.5 before any visit)."""
        return self.value / self.visits if self.visits else 0.5


def leads(game: GameBase) -> np.ndarray:
    """Each player's lead now: a board game's own ``standing`` (its ``advantage`` unless the game measures
    progress finer; games where the fewest points win define it so), else the score minus the best
    other score. Shape ``(players,)``."""
    if game.players == 1:
        return np.array(game.scores(), dtype=float)
    if isinstance(game, Game):
        return np.array([game.standing(p) for p in range(game.players)], dtype=float)
    scores = game.scores()
    return np.array([scores[p] - max(s for q, s in enumerate(scores) if q != p) for p in range(game.players)])


def rewards(game: GameBase, base: np.ndarray, scale: float) -> np.ndarray:
    """Each player's reward in [0, 1]: 1 shared by the winners once the game is over, else 0.5 moved
    smoothly by how much the player's lead grew since ``base`` (the leads where the search began)."""
    if game.outcome is not None:
        won = np.zeros(game.players)
        winners = game.outcome.winners or tuple(range(game.players))
        won[list(winners)] = 1.0 / len(winners)
        return won
    return 0.5 + 0.5 * np.tanh((leads(game) - base) / scale)


class UctSearch:
    """UCT with progressive widening, truncated rollouts and a greedy prior; chance sampled, never peeked at.

    - ``iterations``: simulations per decision (the budget); a lone legal action is taken at once.
    - The root's actions are widened to in the order of a prior: a table game's own option values
      when it has them (the expected final score of each option), else the greedy player's value
      (the game's heuristic, or the lead one move ahead). Deeper nodes widen in rollout order.
      A node with ``n`` visits considers its first ``ceil(widening * sqrt(n + 1))`` actions.
    - A rollout plays ``rollout_depth`` more decisions (rolls in between are free), each by the
      game's heuristic when it has one (a random action with probability ``epsilon``), else at
      random; its value is ``rewards`` there: the outcome if the game ended, else how each lead grew.
      A game that asks for them (``Game.greedy_rollouts``: The Pharaoh's Curse) gets longer rollouts,
      by its heuristic alone, that mostly reach the end.
    - UCT adds the root's prior as a bias that fades with visits (``prior_weight / (visits + 1)``). The prior
      is scaled linearly over the legal actions, or, where the game sets a ``prior_temperature`` T, as
      e ** ((value - best) / T): a move a little worse than the best then keeps a clearly smaller bias even
      where another move gains far more than both (Diebylon: a fill against a step nearer).
    - A reward is ``0.5 + 0.5 tanh(change of lead / scale)``. The scale is at least ``2 + 0.05`` times the
      largest score, and at least the spread (standard deviation) of the changes of lead the search's
      rollouts have met so far in this game: a game whose standing counts in large units (a die in the
      target worth 10) would otherwise see every rollout as a plain win or loss, and its search would
      choose by noise, the more so the more it simulates.
    - The action chosen is the most visited at the root, ties to the better mean.
    """

    def __init__(
        self,
        rng: np.random.Generator,
        iterations: int = 200,
        *,
        rollout_depth: int = 2,
        exploration: float = 0.7,
        widening: float = 2.0,
        epsilon: float = 0.2,
        prior_weight: float = 4.0,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"the search needs at least 1 iteration, got {iterations}")
        self.rng = rng
        self.iterations = iterations
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.widening = widening
        self.epsilon = epsilon
        self.prior_weight = prior_weight
        self.base = np.zeros(0)  # the leads where the current search began
        self.scale = 1.0  # the change of lead that moves a reward most of the way to 0 or 1
        self.met = np.zeros(3)  # the changes of lead the rollouts met: count, sum, sum of squares

    # -- the decision -------------------------------------------------------------------------------

    def choose(self, game: GameBase, legal: Sequence[Any]) -> Any:
        """The action of ``legal`` the search rates best for ``game.to_move``."""
        if len(legal) == 1:
            return legal[0]
        root = self.root(game, legal)
        self.base = leads(game)
        self.scale = max(2.0 + 0.05 * max(abs(v) for v in game.scores()), self.spread())
        for _ in range(self.iterations):
            self.simulate(root, self.fork(game))
        visited = [
            (root.children[a].visits, root.children[a].mean(), -i)
            for i, a in enumerate(root.order)
            if a in root.children
        ]
        best = max(visited)
        return root.order[-best[2]]

    def spread(self) -> float:
        """The standard deviation of the changes of lead the rollouts have met in this game (0 before 30)."""
        count, total, squares = self.met
        if count < 30:
            return 0.0
        return float(math.sqrt(max(0.0, squares / count - (total / count) ** 2)))

    def fork(self, game: GameBase) -> GameBase:
        """A clone of ``game`` as its player to move may believe it: what the rules hide from that player
        redrawn (``redeal``), and future draws from the search's generator, not the game's."""
        sim = game.clone()
        sim.redeal(game.to_move, self.rng)
        sim.rng = np.random.default_rng(int(self.rng.integers(2**63)))
        return sim

    def root(self, game: GameBase, legal: Sequence[Any]) -> Node:
        """The root: ``legal`` best first by the prior (ties in random order), each with its prior scaled to [0, 1]:
        linearly over the legal actions, or by the game's ``prior_temperature`` where it sets one."""
        values = np.array(self.prior(game, legal), dtype=float)
        shuffle = self.rng.permutation(len(legal))
        ranked = sorted(range(len(legal)), key=lambda i: (-values[i], shuffle[i]))
        temperature = game.prior_temperature if isinstance(game, Game) else None
        spread = values.max() - values.min()
        if temperature is not None:
            scaled = np.exp((values - values.max()) / temperature)
        else:
            scaled = (values - values.min()) / spread if spread > 0 else np.zeros(len(legal))
        return Node(order=[legal[i] for i in ranked], bias={legal[i]: float(scaled[i]) for i in range(len(legal))})

    def prior(self, game: GameBase, legal: Sequence[Any]) -> list[float]:
        """How good each action looks before searching (all equal when the game offers no measure)."""
        if isinstance(game, TableGame):
            decision = game.decision()
            return list(decision.values()) if decision.values is not None else [0.0] * len(legal)
        if isinstance(game, Game):
            return [self.greedy_value(game, a) for a in legal]
        return [0.0] * len(legal)

    def greedy_value(self, game: Game, action: Any) -> float:
        """The greedy player's value: the game's quick value of the action (its ``foresight``, by default the
        heuristic), else the mover's advantage one move ahead."""
        quick = game.foresight(action)
        if quick is not None:
            return quick
        player = game.to_move
        trial = self.fork(game)
        assert isinstance(trial, Game)
        trial.apply(action)
        for _ in range(FORCED_LIMIT):
            following = trial.legal_actions()
            if len(following) != 1:
                break
            trial.apply(following[0])
        return trial.advantage(player)

    # -- one simulation -----------------------------------------------------------------------------

    def simulate(self, root: Node, sim: GameBase) -> None:
        """Select down the tree in ``sim``, add one node, roll out, and back the rewards up."""
        node = root
        path: list[tuple[Node, int]] = []  # each node entered, with the player whose action entered it
        expanded = False
        while not expanded:
            phase = sim.phase()
            if phase is Phase.CHANCE:
                key: Hashable = self.sample_roll(sim)
            elif phase is Phase.DECIDE:
                legal = sim.legal_actions()
                key = self.select(node, legal)
            else:
                break
            mover = sim.to_move
            sim.apply(key)  # type: ignore[attr-defined]
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                expanded = phase is Phase.DECIDE
            path.append((child, mover))
            node = child
        reward = self.rollout(sim)
        root.visits += 1
        for entered, mover in path:
            entered.visits += 1
            entered.value += reward[mover]

    def select(self, node: Node, legal: Sequence[Any]) -> Hashable:
        """The action to try at ``node``: the next one to widen to, else the best by UCT among those widened."""
        if not node.order:
            node.order = list(self.rollout_order(legal))
        allowed = set(legal)
        known = set(node.order)
        node.order += [a for a in legal if a not in known]  # legal now after other hidden rolls
        width = math.ceil(self.widening * math.sqrt(node.visits + 1))
        candidates = [a for a in node.order if a in allowed][:width]
        fresh = [a for a in candidates if a not in node.children]
        if fresh:
            return fresh[0]
        log_n = math.log(sum(node.children[a].visits for a in candidates))
        scores = [
            node.children[a].mean()
            + self.exploration * math.sqrt(log_n / node.children[a].visits)
            + self.prior_weight * node.bias.get(a, 0.0) / (node.children[a].visits + 1)
            for a in candidates
        ]
        return candidates[int(np.argmax(scores))]

    def rollout_order(self, legal: Sequence[Any]) -> list[Any]:
        """``legal`` in random order (the order a node met without a prior widens in)."""
        return [legal[i] for i in self.rng.permutation(len(legal))]

    def sample_roll(self, sim: GameBase) -> Rolled:
        """The faces of the pending roll, drawn fair."""
        assert isinstance(sim, TableGame)
        return Rolled(tuple(int(f) for f in self.rng.integers(1, 7, sim.chance().dice)))

    def rollout(self, sim: GameBase) -> np.ndarray:
        """Play ``rollout_depth`` decisions by the rollout policy (or the game's ``greedy_rollouts``, by its
        heuristic alone); each player's reward where it ends."""
        depth, epsilon = self.rollout_depth, self.epsilon
        if isinstance(sim, Game) and sim.greedy_rollouts:
            depth, epsilon = sim.greedy_rollouts, 0.0
        decided = 0
        while decided < depth:
            phase = sim.phase()
            if phase is Phase.CHANCE:
                sim.apply(self.sample_roll(sim))  # type: ignore[attr-defined]
                continue
            if phase is not Phase.DECIDE:
                break
            sim.apply(self.rollout_action(sim, sim.legal_actions(), epsilon))  # type: ignore[attr-defined]
            decided += 1
        if sim.outcome is not None:
            return rewards(sim, self.base, self.scale)
        change = leads(sim) - self.base
        self.met += (change.size, change.sum(), (change**2).sum())
        return 0.5 + 0.5 * np.tanh(change / self.scale)  # as ``rewards``, with the change counted once

    def rollout_action(self, sim: GameBase, legal: Sequence[Any], epsilon: float) -> Any:
        """The game's heuristic choice (a random one with probability ``epsilon``), else a random one."""
        if len(legal) > 1 and isinstance(sim, Game) and self.rng.random() >= epsilon:
            values = [sim.heuristic(a) for a in legal]
            if all(v is not None for v in values):
                scored = np.array(values, dtype=float)
                best = np.flatnonzero(scored >= scored.max() - 1e-9)
                return legal[int(best[self.rng.integers(len(best))])]
        return legal[int(self.rng.integers(len(legal)))]
