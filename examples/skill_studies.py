"""Studies of the skill games: many seeded turns of each game's programmed players, summarised as figures.

One short study per skill game of the rule book: what remains of Captain Flint's pyramid, how often
and how fast the blower (Dune) and the tilt controller (Faraday, Coulomb) solve their games, how high
two stackers build (Emag: a corner-down pyramid, a face-on-face tower), how many dice each Dice
Mikado strategy takes before the top falls, how many flicks land (Flickers), how many dice a pull
depth lets one mount (Mount(a)ing), how well thrown dice hide a pyramid (Hide Away), how many poured
dice find a funnel (Trulla), how fast a guinea fowl is dressed (dice held the way their funnel
needs, or rolled at random), and how throwing games run (Dishing Up, Malicious Pleasure). Every
figure is simulated, from seeds 0..N-1; the same seeds print the same figures.

    .venv/bin/python examples/skill_studies.py --seeds 10            # all studies (long: run it in the background)
    .venv/bin/python examples/skill_studies.py mikado --seeds 30 --layers 6
    .venv/bin/python examples/skill_studies.py dune --seeds 30 --dice hull   # on the rounded die (real-dice.md)
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pyramid import geometry
from pyramid.agents import StackHand
from pyramid.agents.plate_aim import azimuth_to
from pyramid.agents.plate_hands import TiltHand
from pyramid.cli.args import game_physics
from pyramid.dice import EDGE
from pyramid.physics import actions
from pyramid.physics.actions import Blow
from pyramid.physics.hands import unit
from pyramid.physics.settings import COMPARED_DICE, Physics
from pyramid.physics.world import World
from pyramid.play import Match, play_game
from pyramid.registry import find_game
from pyramid.skillgames.base import SkillGame, TurnRecord
from pyramid.skillgames.more import Emag, VainGuineaFowl

PHYSICS: list[Physics] = [Physics()]  # every study's worlds: the default, or what --dice and --physics set


def _world() -> World:
    """A world of the studies' physics (``--physics``)."""
    return World(PHYSICS[0])


def _games(number: int, kinds: list[str], seeds: int, options: dict[str, str]) -> list[Any]:
    """The finished games (typed loosely: each study reads its own game's attributes)."""
    out = []
    for seed in range(seeds):
        out.append(play_game(find_game(number, SkillGame), kinds, seed, options, physics=PHYSICS[0]))
        print(
            f"\r  {find_game(number, SkillGame).info.title} ({','.join(kinds)}): seed {seed + 1}/{seeds}",
            end="",
            flush=True,
        )
    print()
    return out


def _summary(values: Sequence[float]) -> str:
    a = np.array(values, dtype=float)
    if not len(a):
        return "no values"
    return f"mean {a.mean():.2f}, median {np.median(a):.1f}, min {a.min():g}, max {a.max():g} (n = {len(a)})"


def mikado(seeds: int, layers: int) -> None:
    """Dice conquered before the top falls, per strategy."""
    print(f"Dice Mikado on a {layers}-layer pyramid: dice conquered before the top falls")
    for strategy in ("random", "bottom", "careful"):
        values = [g.records[0].end.value for g in _games(6, [strategy], seeds, {"layers": str(layers)})]
        counts = sorted(Counter(int(v) for v in values).items())
        print(f"  {strategy:<8} {_summary(values)}; distribution {dict(counts)}")


def timed(number: int, kind: str, seeds: int) -> None:
    """Success rate, time to success and why turns failed."""
    games = _games(number, [kind], seeds, {})
    records = [g.records[0] for g in games]
    ok = [r.time for r in records if r.end.success]
    why = Counter("fell off" if "fell off" in r.end.note else "time up" for r in records if not r.end.success)
    title = find_game(number, SkillGame).info.title
    reached = sorted(Counter(n for g in games for n in g.reached).items())
    size = games[0].goal_size if games else 0
    print(f"{title} with the {kind} controller: solved {len(ok)}/{len(records)}; time to solve: {_summary(ok)}")
    print(f"  most dice in place during a turn (of {size}): {dict(reached)}")
    print(f"  failures: {dict(why)}; actions per turn: {_summary([r.actions for r in records])}")


TRIO = ((3, 2, 3), (2, 3, 3), (2, 2, 4))  # the base of a small pyramid in the middle of the plate, top (2, 2, 3)
TOP = (2, 2, 3)
CLIMB_STARTS = ((3, 3, 2), (4, 2, 2))  # beside two of the three (a ramp funnel), beside one


def _point(slot: tuple[int, int, int]) -> np.ndarray:
    return geometry.slot_centre(slot) * EDGE


def _climb(action: object, start: tuple[int, int, int]) -> str:
    """One try at putting a die from ``start`` onto TRIO: 'top', 'trio moved', 'off the plate', 'stayed' or 'moved'.

    'refused' when no hand can make the stroke (the world names the limit: speed, acceleration).
    """
    world = _world()
    world.place(0, start)
    for die, slot in enumerate(TRIO, start=1):
        world.place(die, slot)
    world.settle()
    try:
        actions.perform(world, action, np.random.default_rng(0))  # type: ignore[arg-type]
    except ValueError:
        world.close()
        return "refused"
    world.settle(raise_on_timeout=False)
    readout = world.readout(require_rest=False)
    world.close()
    if [readout.dice[d].slot for d in (1, 2, 3)] != list(TRIO):
        return "trio moved"
    if readout.dice[0].slot == TOP:
        return "top"
    if not readout.dice[0].on_plate:
        return "off the plate"
    return "stayed" if readout.dice[0].slot == start else "moved"


def climb_by_stroke() -> None:
    """Coulomb's last die: two-handed strokes that throw it straight at the top of three dice."""
    hand = TiltHand(np.random.default_rng(0))
    outcomes: Counter[str] = Counter()
    for start in CLIMB_STARTS:
        here, azimuth = _point(start), azimuth_to(_point(start), _point(TOP))
        for speed in (0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2):
            for reach in (0.05, 0.07, 0.1):
                outcomes[_climb(hand.stroke(here, azimuth, reach, speed, "rise"), start)] += 1
    print(f"Coulomb's climb, a stroke straight at the top (42 tries, 0.6 to 1.2 m/s): {dict(outcomes)}")


def climb_by_puff() -> None:
    """Dune's last die: 0.1 s puffs straight at the top of three dice, from level with the die's centre or below."""
    outcomes: Counter[str] = Counter()
    for start in CLIMB_STARTS:
        here, azimuth = _point(start), azimuth_to(_point(start), _point(TOP))
        for speed in (20.0, 25.0, 30.0, 35.0, 40.0, 50.0):
            for below in (0.0, 0.004, 0.008):
                for distance in (0.03, 0.05):
                    back = -distance * unit(azimuth)
                    mouth = (float(here[0] + back[0]), float(here[1] + back[1]), float(here[2] - below))
                    up = math.degrees(math.atan2(below, distance))
                    puff = Blow(mouth, azimuth, elevation=up, speed=speed, duration=0.1, gust=0.0)
                    outcomes[_climb(puff, start)] += 1
    print(f"Dune's climb, a puff straight at the top (72 tries, 20 to 50 m/s): {dict(outcomes)}")


def flickers(seeds: int) -> None:
    """Share of flicks that land, and how games end."""
    games = _games(7, ["flick", "flick"], seeds, {})
    flicks = [r for g in games for r in g.records]
    landed = sum(r.end.success for r in flicks)
    won = sum(max(g.scores()) >= 5 for g in games)
    print(
        f"Flickers: {landed}/{len(flicks)} flicks landed ({100 * landed / max(len(flicks), 1):.0f} %); "
        f"{won}/{len(games)} games won by five dice on the plate; "
        f"turns per game {_summary([len(g.records) for g in games])}"
    )


def hide_away(seeds: int) -> None:
    """Faces of one's own pyramid still showing when the black dice run out (9 at the start)."""
    games = _games(9, ["throw", "throw"], seeds, {})
    showing = [s for g in games for s in g.scores()]
    throws = [r for g in games for r in g.records]
    print(
        f"Hide Away: faces still showing at the end {_summary(showing)}; "
        f"{sum(r.end.success for r in throws)}/{len(throws)} throws stayed on the plate"
    )


def flint(seeds: int, layers: int) -> None:
    """Skeleton dice and other dice left after the press-tilt-shake."""
    games = _games(1, ["flint"], seeds, {"layers": str(layers)})
    notes = [g.records[0].end.note for g in games]
    kept = [int(n.split()[0]) for n in notes]
    others = [int(n.split(" and ")[1].split()[0]) for n in notes]
    size = len(games[0].skeleton)
    print(
        f"Captain Flint on {layers} layers: skeleton dice kept of {size}: {_summary(kept)}; "
        f"other dice kept: {_summary(others)}"
    )


def trulla(seeds: int) -> None:
    """How many poured dice come to rest seated corner-down, and the faces that score."""
    games = _games(16, ["ladle", "ladle"], seeds, {"dice": "30"})
    seated = [int(g.records[-1].end.note.split()[0]) for g in games]
    print(
        f"Trulla (30 dice each, ladles of 6): dice seated at the end {_summary(seated)} of 60 poured; "
        f"outer faces per player {_summary([s for g in games for s in g.scores()])}"
    )


def dishing_up(seeds: int) -> None:
    """Throws per turn and the share of thrown dice that stay on the core pyramid's plate."""
    games = _games(19, ["throw"] * 3, seeds, {"dice": "8"})
    turns = [r for g in games for r in g.records]
    print(
        f"Dishing Up (3 players, 8 dice each): turns per game {_summary([len(g.records) for g in games])}; "
        f"game length {_summary([sum(r.time for r in g.records) for g in games])} simulated s; "
        f"dice on the plate at the end per player {_summary([s for g in games for s in g.scores()])}; "
        f"{sum(not r.end.success for r in turns)} turns ended by a die falling off"
    )


def _emag_turn(strategy: str, seed: int, tremor: tuple[float, float]) -> tuple[TurnRecord, int]:
    """One Emag turn of the stacker (``strategy``, ``tremor`` in mm and degrees): its record and the dice in play."""
    game = Emag(1, rng=np.random.default_rng([seed, 1]))
    hand = StackHand(np.random.default_rng([seed, 2, 0]), strategy, *tremor)
    match = Match(game, [hand], make_world=_world, rng=np.random.default_rng([seed, 3]))
    match.run()
    assert match.world is not None
    dice = len(match.world.dice)
    match.world.close()
    return game.records[0], dice


def emag(seeds: int) -> None:
    """Height of the stack per strategy and tremor, and how turns end."""
    print("Emag (20 dice): height of the highest point above the table, cm")
    for strategy in ("pyramid", "tower"):
        for tremor in ((0.5, 2.0), (1.5, 6.0), (3.0, 12.0)):
            turns = [_emag_turn(strategy, seed, tremor) for seed in range(seeds)]
            heights = [r.end.value for r, _ in turns]
            ends = Counter(
                "fell off" if "fell off" in r.end.note else "stopped" if "stopped" in r.end.note else "hand empty"
                for r, _ in turns
            )
            print(f"  {strategy:<7} tremor {tremor[0]:g} mm, {tremor[1]:g} deg: height {_summary(heights)}")
            print(f"      dice in play {_summary([n for _, n in turns])}; turns ended: {dict(ends)}")
            print(f"      heights by seed: {' '.join(f'{h:g}' for h in heights)}")


def mounting(seeds: int, layers: int) -> None:
    """Dice mounted per turn for two pull depths."""
    print(f"Mount(a)ing on a {layers}-layer pyramid: dice mounted per turn")
    for kind, depth in (("mount", "8 mm"), ("mount-shallow", "4 mm")):
        records = [g.records[0] for g in _games(8, [kind], seeds, {"layers": str(layers)})]
        counts = sorted(Counter(int(r.end.value) for r in records).items())
        fell = sum("fell off" in r.end.note for r in records)
        summary = _summary([r.end.value for r in records])
        print(f"  pulls {depth}: {summary}; distribution {dict(counts)}; fell off {fell}")


def expected_rolls(game: VainGuineaFowl, keep: float | None = None) -> tuple[float, float]:
    """Expected rolls and lifts to dress the coat, each coat die a geometric trial.

    A die rolled at random shows the numbers a coat funnel needs with probability 1/24 at the apex and
    on the edges (two or three sides fix its turn), 1/6 on a face (one side), 1 inside; with ``keep``
    (the chance that a held die lands as held) every funnel succeeds with that probability instead.
    """
    rolls = 0.0
    for slot in game.coat:
        sides = sum(slot[a] == game.apex[a] for a in range(3))
        p = keep if keep is not None else {0: 1.0, 1: 1 / 6}.get(sides, 1 / 24)
        rolls += 1 / p
    return rolls, rolls - len(game.coat)


def fowl(seeds: int) -> None:
    """Birds dressed, time and rolls: dice held the way their funnel needs, or rolled at random."""
    for core in ("1", "10"):
        game = VainGuineaFowl(2, rng=np.random.default_rng(0), core=core)
        rolls, lifts = expected_rolls(game)
        print(
            f"The Vain Guinea Fowl, {core}-die core ({len(game.coat)}-die coat): rolled at random a bird takes "
            f"{rolls:.0f} rolls and {lifts:.0f} lifts on average ({rolls + lifts:.0f} actions; a turn may take 400, "
            f"{game.limit:g} s)"
        )
    for kind, core, n in (("fowl", "1", seeds), ("fowl", "10", seeds), ("fowl-random", "1", min(seeds, 2))):
        games = _games(17, [kind, kind], n, {"core": core})
        records = [r for g in games for r in g.records]
        rolled = [k for g in games for k in g.rolls]
        done = [r.time for r in records if r.end.success]
        why = Counter(
            "fell off" if "fell off" in r.end.note else "time up" if "time is up" in r.end.note else "action cap"
            for r in records
            if not r.end.success
        )
        print(
            f"  {kind}, {core}-die core: dressed {len(done)}/{len(records)}; time {_summary(done)} s; "
            f"rolls per bird {_summary(rolled)}; actions per turn {_summary([r.actions for r in records])}; "
            f"failures {dict(why)}"
        )


def malice(seeds: int) -> None:
    """Game length and the winner's margin with 10 dice each."""
    games = _games(20, ["malice", "malice"], seeds, {"dice": "10"})
    wins = Counter(w for g in games if g.outcome is not None for w in g.outcome.winners)
    print(
        f"Malicious Pleasure (2 players, 10 dice each): turns per game {_summary([len(g.records) for g in games])}; "
        f"wins by seat {dict(sorted(wins.items()))}; "
        f"{sum(not r.end.success for g in games for r in g.records)} turns ended by a die off the plate"
    )


STUDIES: dict[str, Callable[[argparse.Namespace], None]] = {
    "flint": lambda a: flint(a.seeds, min(a.layers, 6)),
    "dune": lambda a: timed(2, "blow", a.seeds),
    "dune-climb": lambda a: climb_by_puff(),
    "faraday": lambda a: timed(3, "tilt", a.seeds),
    "coulomb": lambda a: timed(4, "tilt", a.seeds),
    "coulomb-climb": lambda a: climb_by_stroke(),
    "emag": lambda a: emag(a.seeds),
    "mikado": lambda a: mikado(a.seeds, a.layers),
    "flickers": lambda a: flickers(a.seeds),
    "mounting": lambda a: mounting(a.seeds, a.layers),
    "hide-away": lambda a: hide_away(a.seeds),
    "trulla": lambda a: trulla(a.seeds),
    "fowl": lambda a: fowl(a.seeds),
    "dishing-up": lambda a: dishing_up(a.seeds),
    "malice": lambda a: malice(a.seeds),
}


def main() -> None:
    """Run the chosen studies and print their figures and run times."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("studies", nargs="*", choices=[[], *STUDIES], help="which studies (default: all)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per study (default 10)")
    parser.add_argument("--layers", type=int, default=5, help="layers for Mikado, Flint, Mount(a)ing (default 5)")
    parser.add_argument(
        "--physics",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='a physics setting for every world, as in a scene\'s [physics] table (die_shape="hull"); repeatable',
    )
    parser.add_argument(
        "--dice",
        choices=sorted(COMPARED_DICE),
        help="the dice of every world: box or hull (the rounded candidate, real-dice.md); default: Physics()'s",
    )
    args = parser.parse_args()
    try:
        PHYSICS[0] = game_physics(args.physics) or Physics()
    except ValueError as err:
        parser.error(str(err))
    if args.dice:
        shape = COMPARED_DICE[args.dice]
        both = [text for text in args.physics if text.partition("=")[0].strip() in shape]
        if both:
            parser.error(f"--dice {args.dice} sets the die's shape; --physics {both[0]} too: give one of them")
        PHYSICS[0] = dataclasses.replace(PHYSICS[0], **shape)
    shown = ([f"--dice {args.dice}"] if args.dice else []) + args.physics
    if shown:
        print(f"physics: {', '.join(shown)}\n")
    for name in args.studies or list(STUDIES):
        start = time.perf_counter()
        STUDIES[name](args)
        print(f"  ({time.perf_counter() - start:.0f} s of wall time)\n")


if __name__ == "__main__":
    main()
