"""Train a small policy for Flickers with the cross-entropy method, on one core, and plot it against random play.

The policy is linear: from the position of the die to flick next (metres from the plate's centre, in the
plate's frame) and a constant it gives the flick's four parameters through tanh (the environment's action,
each -1 to 1). The cross-entropy method draws a population of weight matrices from a normal distribution,
plays one game with each (every candidate of a generation on the same seed, so that they meet the same
opponent), and moves the distribution to the best few: those with the most dice on the plate, ties broken by
how near the plate's centre their flicks came to rest (``info["landed"]``). Only numpy; the plot needs the plots extra
(matplotlib), and without it the curve is printed only.

    .venv/bin/pip install -e '.[gymnasium,plots]'
    .venv/bin/python examples/train_flickers.py --out flickers_training.png

A return is seat 0's dice on the plate when the game ends (0 to 5). Every random choice comes from
``--seed``: the same seed gives the same curve on the same machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

FEATURES = 3  # the next die's x and y (tenths of a metre), and 1
OWN = 5  # seat 0's dice come first in the observation
FAR = 0.5  # m: a flick that came to rest further from the plate's centre counts as this far


def features(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The policy's input: where seat 0's next die lies (the first of its five not on the plate), and 1."""
    waiting = np.flatnonzero(observation["on_plate"][:OWN] == 0)
    k = int(waiting[0]) if len(waiting) else 0
    x, y = observation["dice"][k, :2] - observation["plate"][:2]
    return np.array([10 * x, 10 * y, 1.0])


def play(env: Any, weights: np.ndarray | None, seed: int, rng: np.random.Generator) -> tuple[float, float]:
    """One game with the linear policy ``weights`` (actions x features), or random actions (None).

    Its return, and how far (m) from the plate's centre its flicks came to rest on average (``info["landed"]``).
    """
    observation, _ = env.reset(seed=seed)
    total, done, landed = 0.0, False, []
    while not done:
        if weights is None:
            action = rng.uniform(-1.0, 1.0, env.action_space.shape)
        else:
            action = np.tanh(weights @ features(observation))
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        landed.append(min(info["landed"], FAR))
        done = terminated or truncated
    return total, float(np.mean(landed))


def fitness(result: tuple[float, float]) -> float:
    """What the method ranks candidates by: the return, ties broken by how near the plate's centre the flicks came.

    Dice on the plate are rare for a policy drawn at random; without the tie-break every candidate of the
    first generations scores 0 and the method learns nothing.
    """
    total, landed = result
    return total - landed / FAR


def train(args: argparse.Namespace) -> dict[str, list[float]]:
    """The cross-entropy method: each generation's mean and best return, and the random policy's returns."""
    import gymnasium as gym

    import pyramid.gymnasium  # noqa: F401  (registers the environments)

    env = gym.make("pyramid/Flickers-v0", rounds=args.rounds)
    rng = np.random.default_rng(args.seed)
    shape = env.action_space.shape
    assert shape is not None
    actions = shape[0]
    mean = np.zeros((actions, FEATURES))
    std = np.full((actions, FEATURES), args.spread)
    elite = max(1, round(args.elite * args.population))
    history: dict[str, list[float]] = {"mean": [], "best": [], "policy": [], "random": []}
    start = time.process_time()
    for generation in range(args.generations):
        seed = int(rng.integers(2**31))
        candidates = mean + std * rng.standard_normal((args.population, actions, FEATURES))
        results = [play(env, w, seed, rng) for w in candidates]
        returns = np.array([total for total, _ in results])
        best = candidates[np.argsort([fitness(r) for r in results])[::-1][:elite]]
        mean, std = best.mean(axis=0), best.std(axis=0) + args.noise
        # The distribution's mean as a policy, and random actions, on the same fresh seed.
        check = int(rng.integers(2**31))
        history["mean"].append(float(returns.mean()))
        history["best"].append(float(returns.max()))
        history["policy"].append(play(env, mean, check, rng)[0])
        history["random"].append(play(env, None, check, rng)[0])
        print(
            f"generation {generation + 1:2d}/{args.generations}: population {returns.mean():.2f} "
            f"(best {returns.max():.0f}), the mean policy {history['policy'][-1]:.0f}, random "
            f"{history['random'][-1]:.0f} dice on the plate; {time.process_time() - start:.0f} s of CPU",
            flush=True,
        )
    env.close()
    print("the learnt weights (rows: azimuth, impulse, elevation, height; columns: x, y, 1):")
    print(np.array2string(mean, precision=2))
    return history


def plot(history: dict[str, list[float]], out: Path) -> None:
    """The learning curve against random play, as a PNG (the plots extra); a line saying why not without it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError:
        print("matplotlib is not installed; install the plots extra for the picture: pip install -e '.[plots]'")
        return
    generations = np.arange(1, len(history["mean"]) + 1)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(generations, history["mean"], label="population's mean return")
    ax.plot(generations, history["policy"], "o-", label="the mean policy, a fresh seed")
    ax.plot(generations, history["random"], "x--", label="random actions, the same seed")
    ax.set_xlabel("generation")
    ax.set_ylabel("own dice on the plate at the end")
    ax.set_ylim(-0.2, 5.2)
    ax.legend(fontsize=8)
    ax.set_title("Flickers: the cross-entropy method over a linear policy")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")


def positive(kind: type, low: float) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {text}")
        return value

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=positive(int, 1), default=20, help="generations (default 20)")
    parser.add_argument("--population", type=positive(int, 2), default=10, help="candidates a generation (default 10)")
    parser.add_argument("--elite", type=float, default=0.25, help="share of the population kept (default 0.25)")
    parser.add_argument("--spread", type=positive(float, 0.0), default=0.5, help="first standard deviation (0.5)")
    parser.add_argument("--noise", type=positive(float, 0.0), default=0.05, help="added to it each generation")
    parser.add_argument("--rounds", type=positive(int, 1), default=5, help="rounds of a game (default 5)")
    parser.add_argument("--seed", type=positive(int, 0), default=0, help="seed of every random choice (default 0)")
    parser.add_argument("--out", type=Path, default=Path("flickers_training.png"), help="the picture (PNG)")
    args = parser.parse_args(argv)
    if not 0 < args.elite <= 1:
        parser.error(f"--elite is a share of the population, above 0 and at most 1, got {args.elite}")
    if args.out.suffix.lower() != ".png":
        parser.error(f"--out names a PNG file, got {args.out}")
    try:
        import gymnasium  # noqa: F401
    except ModuleNotFoundError:
        print("gymnasium is not installed; install the gymnasium extra: pip install -e '.[gymnasium]'")
        return 2
    history = train(args)
    learnt, random = np.mean(history["policy"][-3:]), np.mean(history["random"])
    print(f"the last 3 generations' policy: {learnt:.2f} dice on the plate; random actions: {random:.2f}")
    plot(history, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
