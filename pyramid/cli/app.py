"""The ``pyramid`` command: the parser of every subcommand, and the table of the modules that run them.

Each subcommand's handler module (``cli.lab``, ``cli.experiment``, ``cli.games``, ``cli.play``, ``cli.view``) is
loaded by name only when that subcommand runs (``HANDLERS``), so ``pyramid games`` never pays for
the physics (PyBullet, trimesh), SciPy or a window; a module that needs a missing extra ends in one
line saying what to install.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Sequence

from pyramid import __version__
from pyramid.agents.players import mcts_budget
from pyramid.cli.args import seat_kinds
from pyramid.cli.extras import load, require_window
from pyramid.cli.paths import check_output_file
from pyramid.physics.errors import ImpossibleStateError
from pyramid.physics.tables import load_table
from pyramid.state import SPARE_DICE

# Subcommand -> "module:function" that runs it; the module is imported when the subcommand runs.
HANDLERS = {
    "demo": "pyramid.cli.lab:demo",
    "assets": "pyramid.cli.lab:assets",
    "bench": "pyramid.cli.lab:bench",
    "run": "pyramid.cli.lab:run",
    "scenes": "pyramid.cli.lab:scenes",
    "soak": "pyramid.cli.lab:soak",
    "locality": "pyramid.cli.lab:locality",
    "experiment": "pyramid.cli.experiment:experiment",
    "games": "pyramid.cli.games:games",
    "rules": "pyramid.cli.games:rules",
    "play": "pyramid.cli.play:play",
    "view": "pyramid.cli.view:view",
}
WINDOW_PLAY = "pyramid.cli.view:play"  # ``pyramid play --view``
WINDOW_MODULE = "pyramid.cli.view"  # needs pyglet and a screen: both checked before it loads

EPILOG = """examples:
  pyramid demo --seed 7 --picture pyramid.png   build a full pyramid physically, throw dice, read it back
  pyramid games                                 list every game
  pyramid rules 10                              the rules card of game 10
  pyramid play 10 --players greedy,random,random --seed 1
  pyramid play decathlon --players optimal --seed 3
  pyramid assets --out assets                   write the meshes and URDF files
  pyramid bench                                 speed and accuracy figures of the physics
  pyramid soak --runs 1000                      seeded runs of the physical scenes: any state that cannot be?
  pyramid soak --mode games --runs 130          every skill game, random legal actions (--mode envs: Gymnasium)
  pyramid locality --seeds 200                  local against whole physics: same read-outs, how much faster
  pyramid view                                  a window: the full pyramid and every die, hands on
  pyramid play 14 --players human,greedy --view  play in a window, hot-seat
  pyramid scenes                                the shipped scenes, one line each (--copy NAME DIR: one to edit)
  pyramid run full_pyramid --pictures --video gif  pictures and a film, no screen needed
  pyramid run full_pyramid                      run one scene headless (a name or a file): summary, JSON report
  pyramid experiment die_throw --vary throw.height=0.01,0.05,0.2 --seeds 100
                                                many seeded runs in parallel: rows, summary, plot
"""

SOAK_EPILOG = """modes (run n goes to item n mod K of the K items, with the seed SEED + n // K):
  scenes  the shipped scenes tilt, blow, throw_at_pyramid, ladle, flick and balcony (K = 6), as pyramid run
          runs them
  games   every skill game (K = 13) sets out its first turn in a fresh world, then a hand does --actions
          random legal actions, every parameter drawn from the seed: flicks (up to 0.02 N s), throws and
          pours from above everything in play, pulls, lifts (where the game lets dice leave), tilts, shakes
          and blows the hand can do; the world settles after each, and must rest at the end
  envs    random-action episodes of every Gymnasium environment (K = 5; the gymnasium extra), the action
          space seeded, up to --steps actions: an episode the world cuts short (info["impossible"]), an
          exception from reset or step, an observation outside the observation space each count
examples:
  pyramid soak --runs 1000                        the scenes, 1000 runs
  pyramid soak --mode games --runs 130            every skill game 10 times, 4 random actions each
  pyramid soak --mode games --only flickers --seed 17 --runs 1   repeat one run the soak named
  pyramid soak --mode games --runs 260 --physics 'die_shape="hull"' --physics hull_segments=2 \\
      --physics 'hull_axis="gjk"'                 every skill game 20 times on the rounded dice
  pyramid soak --mode envs --runs 50 --steps 100  every environment 10 times
  timeout -s INT 3600 pyramid soak --mode envs --runs 1000   what one hour holds: Ctrl-C or SIGINT ends the
                                                  soak early with the table of the runs done (exit 130)
exit status: 0 nothing found, 1 a failure found, 130 interrupted before the end with nothing found
"""

PLAY_EPILOG = """a human seat at the terminal:
  the pyramid is drawn layer by layer (a the apex .. i the base), each die as its colour letter
  (R red, G green, K black, B blue, Y gold) and its faces along +i, +j, +k; the slots of the legal
  moves carry labels (a1 .. i45). Type a move by its label (i12), its slot (0 0 8 or (0,0,8)), its
  number or its words (pass; i12 green where a slot has several moves). Table games: an option's
  number, the dice to keep (3355) or its words (stop). Also: ? (the moves), help (and the rules
  card), rules, board, sheet (table games). Colour on a terminal unless NO_COLOR is set. Skill
  games: an action and its numbers (tilt 180 12, lift 8 0 0); ? lists the game's actions and the
  values they take. A move or action that cannot be made is refused with the reason and asked
  again; only the end of the input (Ctrl-D) stops the match (exit status 1).
examples:
  pyramid play 30 --players human,greedy --fast
  pyramid play knights --players human,strong --fast
  pyramid play 3 --view --load match.pickle     go on with a match saved in the window with Ctrl+S
"""


class HelpParser(argparse.ArgumentParser):
    """A subcommand's parser whose epilog may be written only when its help is asked for (``epilog_maker``)."""

    epilog_maker: Callable[[], str] | None = None

    def format_help(self) -> str:
        """The help text, its epilog made now."""
        if self.epilog_maker is not None:
            self.epilog = self.epilog_maker()
        return super().format_help()


def players_epilog() -> str:
    """The kinds of player ``--players`` takes, by kind of game (the players' module is loaded only for --help)."""
    from pyramid.agents.seats import BOARD_PLAYERS, SKILL_PLAYERS, TABLE_PLAYERS

    def names(games: str, table: dict[str, object]) -> str:
        kinds = ", ".join(f"{k} (or {k}:N, N simulations a move)" if k == "mcts" else k for k in table)
        return textwrap.fill(
            kinds, 100, initial_indent=f"  {games:<14}", subsequent_indent=" " * 16, break_on_hyphens=False
        )

    return f"""players (--players, one a seat; human: a person, on the terminal or, with --view, in the window):
{names("board games:", dict(BOARD_PLAYERS))}
{names("skill games:", dict(SKILL_PLAYERS))}
                (each skill game's own programmed player is named on its card: pyramid rules N)
{names("table games:", dict(TABLE_PLAYERS))}
  without --players no human is seated at the terminal: the game's programmed players play (board games:
                greedy, then random; skill games: the hand on its card; table games: its strong player, then
                random); with --view a human, then those. Name a human to play at the terminal:
                --players human,greedy
"""


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``pyramid`` command and its subcommands (their handlers are in ``HANDLERS``)."""
    parser = argparse.ArgumentParser(
        prog="pyramid",
        description="Reinhold Wittig's dice pyramid (Das Spiel, 1979) and its games, in 3-D physics.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pyramid {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=HelpParser)

    p = sub.add_parser("demo", help="build a pyramid physically, throw dice at it, print the read-out, save a picture")
    p.add_argument("--seed", type=seed_value, default=0, help="seed of every random choice (default 0)")
    p.add_argument(
        "--picture", default="pyramid.png", metavar="FILE.png", help="the one picture to write (default pyramid.png)"
    )
    p.add_argument("--throws", type=_throws, default=3, help="dice thrown onto the plate after building (default 3)")
    p.add_argument("--gui", action="store_true", help="show PyBullet's own window while it runs")
    _add_renderer(p, "the picture is")

    p = sub.add_parser("assets", help="write the plate and die meshes (OBJ, STL) and URDF files")
    p.add_argument("--out", type=folder_name, default="assets", help="folder to write to (default assets)")

    p = sub.add_parser(
        "bench",
        help="print speed and accuracy figures of the physics (not a test)",
        description="Times the physics on this machine and prints one table: the awake pyramid (speed against\n"
        "real time, sag in die edges), the hand's actions and the plate's with local and whole physics side\n"
        "by side, the Gymnasium environments (steps a second, random actions) and whole games (wall seconds).\n"
        "'x realtime' is simulated seconds per wall second; 'by cpu' the same per processor second, steadier\n"
        "on a busy machine; 'engine' the same per second inside the engine's steps alone: what the row would\n"
        "reach if the code around the engine took no time (a row that misses its target says which it needs).\n"
        "Compare rows of one run only: absolute speeds vary between runs by a third.",
        epilog="examples:\n"
        "  pyramid bench --quick                       every row once, short (4 minutes here): does it run?\n"
        "  pyramid bench --only tilt,shake             the plate actions, local and whole\n"
        "  pyramid bench --only environment            Gymnasium steps a second\n"
        "  xvfb-run -a pyramid bench --only window     the window's pace and pictures a second while the plate\n"
        "                                              moves (with no display the window rows are left out)\n"
        "  pyramid bench --no-games --no-mujoco        all but the long rows",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--seconds", type=bench_seconds, default=10.0, help="simulated seconds of the awake pyramid (above 0, to 600)"
    )
    p.add_argument("--no-mujoco", action="store_true", help="skip the MuJoCo comparison")
    p.add_argument(
        "--no-actions",
        action="store_true",
        help="skip the actions, plate actions and environments, local and whole (long)",
    )
    p.add_argument(
        "--no-games", action="store_true", help="skip the whole games timed with local and whole physics (long)"
    )
    p.add_argument(
        "--quick", action="store_true", help="every row from one short case: checks the bench runs, measures little"
    )
    p.add_argument(
        "--only",
        type=lambda text: [w for w in text.split(",") if w],
        default=[],
        help="only the measurements whose name holds one of these comma-separated words (lift,tilt,environment)",
    )

    p = sub.add_parser(
        "soak",
        help="seeded runs of scenes, skill games with random hands, or Gymnasium episodes: any state that cannot be?",
        description="Runs the physics seed after seed and counts, per scene (game, environment), the runs that "
        "ended well, the impossible states the world found (non-finite poses, dice inside the table, floor or "
        "plate, speeds no action gives), the runs that never came to rest and any other error. Exit 1 if it "
        "found any: each is named with its seed, so that one run can be repeated (--only, --seed, --runs).",
        epilog=SOAK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--mode",
        choices=("scenes", "games", "envs"),
        default="scenes",
        help="what runs: scenes (default), games or envs (see below)",
    )
    p.add_argument("--runs", type=run_count, default=60, help="runs in all (default 60; docs/soak.md: 1000)")
    p.add_argument("--seed", type=seed_value, default=0, help="first seed (default 0)")
    p.add_argument(
        "--scenes", default=None, help="scenes: folder holding the scene files (default: the shipped scenes)"
    )
    p.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="games and envs: only this game (number, title, name) or environment (Faraday, pyramid/Dune-v0); "
        "again for more (default: every one)",
    )
    p.add_argument(
        "--actions", type=action_count, default=4, help="games: random actions per run (0 to 100, default 4)"
    )
    p.add_argument(
        "--steps", type=step_count, default=500, help="envs: actions per episode at most (1 to 10,000, default 500)"
    )
    p.add_argument(
        "--physics",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='games: a physics setting for every run, as in a scene\'s [physics] table (die_shape="hull"); repeatable',
    )

    p = sub.add_parser(
        "locality",
        help="compare local physics (the default) with the whole pyramid solved: read-outs and speed",
        description="Runs seeded cases of each action kind on the settled full pyramid twice, with local physics "
        "(only the dice something can move are simulated) and with the whole pyramid solved, and counts the "
        "cases whose read-outs agree: the same dice in the same slots showing the same faces, the same dice "
        "off the plate. Kinds: lift (a free die), mikado (a surface die 4+ layers down), place (into an open "
        "funnel), throw (a die at the pyramid), pull (8 mm, Mount(a)ing), pour (6 dice from a ladle), tilt, shake, "
        "line (a two-handed tilt), stroke (the tilt hand's jolt). "
        "A case that never comes to rest counts as a disagreement and is listed. "
        "With --games N it also plays N seeds (from --first) of Dice Mikado, Mount(a)ing, Trulla, Faraday, "
        "Coulomb, Dune and Captain Flint both ways (--figures picks some) "
        "and tests whether the 95% interval of the difference of the means (Welch's t) holds 0. The kinds of "
        "--nudged also run whole physics with every die nudged by 1e-9 m (column nudged): a throw's bounces "
        "are chaotic, and a kind that agrees less than 95% but as often as whole physics agrees with itself "
        "nudged (Fisher's exact test, 5%) agrees as well as any physics can. Exit 1 if an action kind agrees "
        "in fewer than 95% of its cases and less than its nudged whole physics, or a figure differs. Example: "
        "pyramid locality --seeds 40 --games 40 --first 100 (about an hour on one core).",
    )
    p.add_argument(
        "--seeds",
        type=case_count,
        default=20,
        help="cases per action kind (default 20; 0: the figures of --games only)",
    )
    p.add_argument("--first", type=seed_value, default=0, help="first seed (default 0)")
    p.add_argument(
        "--kinds", type=kind_list, default="", help="comma-separated action kinds (default all: lift,mikado,...)"
    )
    p.add_argument(
        "--games", type=game_count, default=0, help="seeds of each study game from --first, local and whole (default 0)"
    )
    p.add_argument(
        "--physics",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='a physics setting for both sides, as in a scene\'s [physics] table (die_shape="hull"); repeatable',
    )
    p.add_argument(
        "--figures",
        type=lambda text: [w for w in text.split(",") if w.strip()],
        default=[],
        help="with --games: only the figures whose name holds one of these comma-separated words (Faraday,Flint)",
    )
    p.add_argument(
        "--nudged",
        type=kind_list,
        default="throw",
        help="action kinds whose whole physics also runs nudged by 1e-9 m (default throw; '' for none)",
    )

    p = sub.add_parser("games", help="list every game: number, title, category, players")

    p = sub.add_parser("rules", help="print a game's rules card and its house rules")
    p.add_argument("game", type=game_name, help="number or name of the game")

    p = sub.add_parser(
        "play",
        help="play a game with bots and people; physical by default",
        epilog=PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    assert isinstance(p, HelpParser)
    p.epilog_maker = lambda: players_epilog() + "\n" + PLAY_EPILOG
    p.add_argument("game", type=game_name, help="number or name of the game (see `pyramid games`)")
    p.add_argument(
        "--players", type=player_list, default=None, help="one player per seat, comma-separated (the kinds: below)"
    )
    p.add_argument("--seed", type=seed_value, default=0, help="seed of every random choice (default 0)")
    p.add_argument("--fast", action="store_true", help="exact placement and drawn dice, no physics")
    p.add_argument(
        "--picture", default=None, metavar="FILE.png", help="a picture of the final position (skill: its last turn)"
    )
    _add_renderer(p, "--picture is")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option; repeatable")
    p.add_argument(
        "--physics",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='a physics setting, as in a scene\'s [physics] table (die_shape="hull", friction_die=0.6); repeatable',
    )
    p.add_argument("--view", action="store_true", help="play in a window (needs the view extra); human seats click")
    p.add_argument(
        "--delay", type=delay_seconds, default=0.4, help="with --view: seconds to watch each bot move (0 to 60)"
    )
    p.add_argument(
        "--no-undo", action="store_true", help="with --view: Ctrl+Z and Ctrl+Y are off (a match played for real)"
    )
    p.add_argument(
        "--load",
        metavar="MATCH.pickle",
        default=None,
        help="with --view: go on with a match saved in the window with Ctrl+S (its seats, options, turn, clock)",
    )

    p = sub.add_parser(
        "view",
        help="a window on a scene or a full pyramid: watch it live, lift, flick, blow, tilt",
        epilog=VIEW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "scene", nargs="?", default=None, help="scene file (TOML) or shipped scene; default: a full pyramid, 116 spares"
    )
    p.add_argument(
        "--load",
        metavar="TABLE.json",
        default=None,
        help="open a table saved in the window with Ctrl+S (every die where it was); no scene with it",
    )
    p.add_argument("--seed", type=seed_value, default=0, help="seed of every random choice (default 0)")
    p.add_argument(
        "--seconds", type=view_seconds, default=None, help="close after this much simulated time (above 0, to 86400)"
    )
    _add_run_parser(sub)
    _add_experiment_parser(sub)
    p = sub.add_parser(
        "scenes",
        help="the scenes shipped with the package, one line each; --copy one to edit",
        description="The scene files shipped inside the package: pyramid run, experiment and view take their "
        "names (pyramid run die_throw); a path runs a file instead.",
    )
    p.add_argument(
        "--copy", nargs=2, metavar=("NAME", "DIR"), default=None, help="copy the scene NAME into the folder DIR"
    )
    return parser


VIEW_EPILOG = """examples:
  pyramid view                                  the full pyramid and the 116 other dice, hands on
  pyramid view throw_at_pyramid                 a scene's timeline played live, then hands on
  pyramid view --load table.json                a table saved with Ctrl+S, dice where they were

In the window: H shows the keys. Ctrl+Z takes back the last action (again: the one before, up to 50),
Ctrl+S saves the table to table.json in this folder (table-2.json, ... when taken).
"""

RUN_EPILOG = """examples:
  pyramid run full_pyramid                             a shipped scene: build it, settle, print the read-out
  pyramid run die_throw tilt blow --quiet              several scenes, one report each under runs/
  pyramid run throw_at_pyramid --seed 3 --pictures     PNGs after the start and every action
  pyramid run building --pictures --video gif          a PNG per die placed, and a film
  pyramid run die_throw --set throw.height=0.02        change a setting without editing the file
  pyramid scenes --copy die_throw .                    a copy to edit: then pyramid run die_throw.toml

A scene file (TOML) says where the dice start ([start]: a full or partial pyramid, the text
notation, small pyramids, dice on the table, colours, faces), the physics ([physics]: materials,
time step, the dice's edge and proportions), what happens ([[timeline]]: place, remove, throw,
flick, blow, tilt, shake, wait) and what is measured (scene.measure: readout, score, moved, fallen,
time_to_rest, thrown). The shipped scenes (pyramid scenes) are commented examples. A file with a
mistake is refused before anything runs, with the file, the key and what was expected; nothing is
written.
"""

EXPERIMENT_EPILOG = """examples:
  pyramid experiment die_throw --seeds 600                        600 throws, faces chi-square tested
  pyramid experiment die_throw --vary throw.height=0.005:0.2:6 --seeds 200 --workers 2
  pyramid experiment throw_at_pyramid --vary physics.friction_die=0.5,0.8 --seeds 20
  pyramid experiment die_throw --set 'throw.target=[0.1,0.0]' --vary 'throw.height=0.02,0.1' --seeds 20
  pyramid experiment --game 10 --players greedy,random,random --seeds 50 --fast
  pyramid experiment --game 5 --players stack-tower --seeds 10 --vary physics.die_shape=box,hull \\
      --set physics.hull_segments=2 --set physics.hull_axis=gjk      a game on rounded dice against boxes
  pyramid experiment die_throw --seeds 100 --engine dask                 a local Dask cluster
  pyramid experiment die_throw --seeds 100 --engine dask --address tcp://host:8786

Each run is seeded (seeds FIRST..FIRST+N-1, the same seeds at every sweep point), so a row can be
reproduced alone. Rows go to OUT/rows.jsonl as runs finish; after Ctrl-C (or SIGTERM, SIGHUP; or any death
of the process, even SIGKILL), the same command resumes and runs only what is missing. At the end:
OUT/rows.csv, OUT/summary.json (means with 95% confidence intervals, face counts with a chi-square test)
and OUT/summary.png (needs the plots extra).
While it runs, OUT/lock holds the folder: a second experiment there is refused, naming the holder; the
lock of an experiment that died on this machine is taken over, with a line saying so.
On resume every line of rows.jsonl is checked against the experiment (the digest of its scene or game,
the settings of the run, each measure's type and range): a bad line, or a second row of one run, is set
aside in OUT/rows.set_aside.jsonl (its line number and why) and counted in the summary; the rows after
it are kept. Runs whose row holds an error are kept and counted, and the command exits 1 saying how many;
--retry-failed runs them again.
A swept KEY is TABLE.KEY (physics.edge, start.layers), timeline.N.KEY, or NAME.KEY for a timeline
entry with name = "NAME". With --game, --vary sweeps a game option (rounds) or a physics setting
(physics.KEY), and --set takes physics settings only. Every sweep point is checked before anything runs.
Runs go to local processes by default; --engine dask (pip install 'pyramid[dask]') sends the same
runs to Dask, which gives the same rows for the same seeds; without --address it starts a local
cluster, with it uses a running scheduler (dask scheduler, then dask worker ADDRESS on each machine).
"""


def _add_run_parser(sub: argparse._SubParsersAction[HelpParser]) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "run",
        help="run scene files headless: a summary on the terminal and a JSON report",
        description="Run scene files headless; print a summary and write a JSON report per scene.",
        epilog=RUN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "scene", nargs="+", help="scene files (TOML) or shipped scenes by name (pyramid scenes), e.g. full_pyramid"
    )
    p.add_argument(
        "--seed", type=seed_value, default=None, help="seed of every random choice (default: the scene's seed)"
    )
    p.add_argument("--out", type=folder_name, default="runs", help="folder for the reports and pictures (default runs)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a setting; repeatable")
    p.add_argument("--quiet", action="store_true", help="print only where the reports went")
    p.add_argument(
        "--pictures",
        action="store_true",
        help="write PNGs into OUT/SCENE_seedN/: the start, each die placed, taken or thrown, every other step, the end",
    )
    p.add_argument(
        "--video",
        choices=("gif", "png", "mp4"),
        default=None,
        help="film the run into OUT/SCENE_seedN.gif (png: animated PNG; mp4 needs the film extra)",
    )
    _add_renderer(p, "--pictures and --video are")
    return p


def _add_renderer(p: argparse.ArgumentParser, drawn: str) -> None:
    """The ``--renderer`` of every command that draws pictures: demo, play and run draw them alike."""
    p.add_argument(
        "--renderer",
        choices=("auto", "opengl", "software"),
        default="auto",
        help=f"how {drawn} drawn: opengl (the window's look, headless), software (PyBullet's, "
        "plainer, runs anywhere) or auto (opengl where it starts; the default)",
    )


def _add_experiment_parser(sub: argparse._SubParsersAction[HelpParser]) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "experiment",
        help="many seeded runs of a scene (over a sweep) or of a game, in parallel; rows, summary, plot",
        description="Many seeded runs of a scene over a sweep of its settings, or of a game with its players.",
        epilog=EXPERIMENT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scene", nargs="?", default=None, help="scene file (TOML) or shipped scene; or use --game")
    p.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=V1,V2|START:STOP:COUNT",
        help="a setting to sweep; repeatable (all combinations are run); values are TOML: [0.1,0.0],[0.2,0.0]",
    )
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a scene's setting for every run; repeatable"
    )
    p.add_argument("--seeds", type=seed_count, default=10, help="runs per sweep point (default 10)")
    p.add_argument("--first-seed", type=seed_value, default=0, help="first seed (default 0)")
    p.add_argument(
        "--game", type=game_name, default=None, help="a game's number or name instead of a scene (see `pyramid games`)"
    )
    p.add_argument(
        "--players",
        type=player_list,
        default=None,
        help="bots of every seat for --game (default: as `pyramid play` seats them, e.g. greedy,random; "
        "a skill game's own hand)",
    )
    p.add_argument("--fast", action="store_true", help="with --game: exact placement, no physics")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option; repeatable")
    p.add_argument("--out", type=folder_name, default=None, help="folder of the experiment (default experiments/NAME)")
    p.add_argument(
        "--workers", type=worker_count, default=None, help="parallel processes (default: the number of cores)"
    )
    p.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="local processes (default), or Dask (the dask extra): a local cluster or --address",
    )
    p.add_argument("--address", default=None, help="with --engine dask: a running scheduler, e.g. tcp://host:8786")
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="on resume, run again the runs whose row holds an error (default: keep them, and say how many)",
    )
    p.add_argument("--no-plots", action="store_true", help="skip summary.png")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


# -- argument types: each refuses a bad value at parse time, naming the option ------------------------


SEED_LIMIT = 2**63 - 1  # the largest seed, as a scene's own seed
MAX_SEEDS = 1_000_000  # runs per sweep point, soak runs
MAX_WORKERS = 256
MAX_CASES = 10_000  # locality's cases per action kind and seeds per game


def _whole(text: str, low: int, high: int | None = None, what: str = "") -> int:
    what = what or (f"a whole number {low} or more" if high is None else f"a whole number from {low} to {high:,}")
    try:
        if not text.strip().isascii():
            raise ValueError(text)
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
    return value


def _number(text: str, low: float, high: float, open_low: bool = False) -> float:
    """A finite number within [low, high] (above low when ``open_low``); ArgumentTypeError saying so."""
    lower = f"above {low:g}" if open_low else f"{low:g}"
    what = f"a number from {lower} to {high:g}"
    try:
        value = float(text) if text.strip().isascii() else math.nan
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if not math.isfinite(value) or value < low or value > high or (open_low and value == low):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def seed_value(text: str) -> int:
    """An argparse type for a seed: a whole number from 0 to 2**63 - 1 (argparse names the option in the error)."""
    return _whole(text, 0, SEED_LIMIT)


def seed_count(text: str) -> int:
    """An argparse type for ``--seeds`` of an experiment: 1 to MAX_SEEDS."""
    return _whole(text, 1, MAX_SEEDS)


def run_count(text: str) -> int:
    """An argparse type for ``soak --runs``: 1 to MAX_SEEDS."""
    return _whole(text, 1, MAX_SEEDS)


def worker_count(text: str) -> int:
    """An argparse type for ``--workers``: 1 to MAX_WORKERS processes."""
    return _whole(text, 1, MAX_WORKERS)


def action_count(text: str) -> int:
    """An argparse type for ``soak --actions``: 0 to 100 random actions a run."""
    return _whole(text, 0, 100)


def step_count(text: str) -> int:
    """An argparse type for ``soak --steps``: 1 to 10,000 actions an episode."""
    return _whole(text, 1, 10_000)


def case_count(text: str) -> int:
    """An argparse type for ``locality --seeds``: 0 (no action cases: the study figures only) to MAX_CASES."""
    return _whole(text, 0, MAX_CASES)


def game_count(text: str) -> int:
    """An argparse type for ``locality --games``: 0 to MAX_CASES."""
    return _whole(text, 0, MAX_CASES)


def bench_seconds(text: str) -> float:
    """An argparse type for ``bench --seconds``: simulated seconds above 0, to 600."""
    return _number(text, 0.0, 600.0, open_low=True)


def view_seconds(text: str) -> float:
    """An argparse type for ``view --seconds``: simulated seconds above 0, to a day."""
    return _number(text, 0.0, 86_400.0, open_low=True)


def delay_seconds(text: str) -> float:
    """An argparse type for ``play --delay``: 0 to 60 seconds."""
    return _number(text, 0.0, 60.0)


def _throws(text: str) -> int:
    return _whole(text, 0, SPARE_DICE, f"0 to {SPARE_DICE}, the dice left to throw after building the pyramid")


def kind_list(text: str) -> list[str]:
    """An argparse type for action kinds of ``pyramid locality``: known names, comma-separated."""
    from pyramid.lab.locality import KINDS

    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown action kind {unknown[0]!r}; the kinds are {','.join(KINDS)}")
    return kinds


def game_name(text: str) -> str:
    """An argparse type for a game's number or name: a negative number is refused, not read as a name."""
    if re.fullmatch(r"\s*-\s*\d+\s*", text):
        raise argparse.ArgumentTypeError(f"a game's number is 1 or more, got {text.strip()} (see `pyramid games`)")
    if not text.strip():
        raise argparse.ArgumentTypeError("give a game's number or name (see `pyramid games`)")
    return text


def folder_name(text: str) -> str:
    """An argparse type for ``--out``: a folder's name; an empty one (which would mean this folder) is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a folder's name (an empty one would write into the current folder)")
    return text


def player_list(text: str) -> str:
    """An argparse type for ``--players``: comma-separated names, none of them empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("names no player: give one per seat, comma-separated (e.g. greedy,random)")
    try:
        for kind in seat_kinds(text):
            mcts_budget(kind)  # mcts:0 or mcts:x is refused here, before any game is set up
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def _os_message(err: OSError) -> str:
    """An OSError as one line: the path and the reason, without the errno."""
    names = " -> ".join(str(n) for n in (err.filename, err.filename2) if n is not None)
    reason = err.strerror or str(err)
    return f"{names}: {reason}" if names else reason


# -- running a subcommand ---------------------------------------------------------------------------


def handler(args: argparse.Namespace) -> Callable[[argparse.Namespace], int]:
    """The function that runs ``args.command``, its module loaded now (for a window: pyglet and a screen first)."""
    target = WINDOW_PLAY if args.command == "play" and args.view else HANDLERS[args.command]
    module, _, function = target.partition(":")
    if module == WINDOW_MODULE:
        require_window()
    return getattr(load(module), function)  # type: ignore[no-any-return]


def _check_window_match(args: argparse.Namespace) -> None:
    """``play --load`` and ``--no-undo``: the window's, and a saved match that fits the game named; before a window."""
    given = "--load" if args.load is not None else "--no-undo"
    if not args.view:
        raise ValueError(f"{given} is for a match in the window: add --view")
    if args.load is None:
        return
    if args.players or args.option:
        raise ValueError("--load goes on with the saved match's seats and options: give no --players or --option")
    from pyramid.registry import find_game
    from pyramid.ui.saved import load_match

    saved = load_match(args.load)
    wanted = find_game(args.game)
    if type(saved.game) is not wanted:
        number = saved.game.info.number
        raise ValueError(
            f"--load {args.load} holds a match of {saved.title}, not of {wanted.info.title}: play {number}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pyramid`` command."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play" and args.picture is not None and args.view:
            raise ValueError("--picture draws a match played on the terminal; with --view, leave it out")
        if args.command == "play" and args.physics and args.view:
            raise ValueError("--physics goes with a match on the terminal; the window plays with the default physics")
        if args.command == "play" and (args.load is not None or args.no_undo):
            _check_window_match(args)
        if args.command == "play" and args.picture is not None and not args.fast:
            check_output_file(args.picture, "--picture", ".png")
        if args.command == "view" and args.load is not None:
            if args.scene is not None:
                raise ValueError(f"--load opens a saved table; give no scene with it (got {args.scene})")
            load_table(args.load)  # a bad file is named before a window is asked for
        if args.command == "view" and args.scene is not None:
            from pyramid.lab.scene import load_scene

            load_scene(args.scene)  # so is a bad scene file or name
        return int(handler(args)(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except EOFError:
        print(flush=True)  # end the line of the question that was never answered
        print(f"pyramid {args.command}: input ended: the match stops", file=sys.stderr)
        return 1
    except (ValueError, LookupError) as err:
        print(f"pyramid {args.command}: {err}", file=sys.stderr)
        return 2
    except ImpossibleStateError as err:
        print(f"pyramid {args.command}: the physics failed: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``pyramid games | head``): stop quietly, as other commands do.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        print(f"pyramid {args.command}: {_os_message(err)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
