"""The fuzz corpus: hostile input, drawn by hypothesis, over every game's options, every subcommand's
arguments, typed lines and damaged rows.jsonl files. Each draw is refused in one line (exit 2), asked again, or set
aside with its line number: no traceback, no hang, no silent acceptance. Seeded (``derandomize``), so the same
corpus runs every time; ``pytest -k fuzz`` runs it alone, in well under a minute."""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening import SIMULATIONS

from pyramid.agents.terminal import TypedMoveError, read_move, read_option
from pyramid.cli import app as cli
from pyramid.lab.experiment_folder import scan_rows, tidy_rows
from pyramid.lab.experiments import Job, Plan
from pyramid.lab.row_checks import Expected, measure_rules, spec_digest
from pyramid.lab.scene import load_scene
from pyramid.registry import GAMES
from pyramid.rules import GameBase, Place
from pyramid.rules.options import ListOf, Name, Number, OneOf, Option, OptionError, PerPlayer, Whole, YesNo

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
HANG = 10.0  # seconds one draw may take before it counts as a hang


class Hang(Exception):
    """A draw took longer than HANG seconds."""


@contextlib.contextmanager
def no_hang(seconds: float = HANG) -> Iterator[None]:
    """Raise Hang if the body runs longer than ``seconds`` (a blocked read is interrupted too)."""

    def alarm(number: int, frame: object) -> None:
        raise Hang(f"no answer in {seconds} s")

    before = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


# -- hostile text ----------------------------------------------------------------------------------------------------

WORDS = [
    "",
    " ",
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "1e999",
    "-1e999",
    "1e-999",
    "-1",
    "-0",
    "0",
    "1",
    "1.5",
    "1e3",
    "0x10",
    "1_000",
    "+",
    "-",
    "  7  ",
    "²",
    "¹²",
    "١٢",
    "３",
    "٣.٥",
    "9" * 5000,
    "1" + "0" * 40,
    ",",
    "1,",
    ",1",
    "1,,2",
    "1;2",
    "x",
    "yes please",
    "maybe",
    "\x00",
    "a\nb",
    "../../x",
    "/dev/zero",
    "🎲",
    "é",
    "None",
    "true",
    "[1]",
    "{}",
    "'1'",
    '"1"',
]
hostile = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=24),
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.lists(st.sampled_from(["1", "-1", "0.5", "nan", "inf", "x", "", "100", "6", "2"]), min_size=1, max_size=9).map(
        ",".join
    ),
)


# -- an oracle of what each kind of option takes, written apart from pyramid.rules.options ----------------------------


def _whole_ok(text: str, option: Whole) -> bool:
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,30}", t):
        return False
    n = int(t)
    return option.low <= n <= option.high and (not option.among or n in option.among)


def _number_ok(text: str, option: Number) -> bool:
    t = text.strip()
    if not re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", t) or len(t) > 60:
        return False
    x = float(t)
    return math.isfinite(x) and option.low <= x <= option.high and not (option.above and x == option.low)


def text_ok(text: str, option: Option, players: int) -> bool:
    """Whether ``option`` should take ``text`` (an oracle of the declarations' words)."""
    if len(text) > 1000:
        return False
    if isinstance(option, Whole):
        return _whole_ok(text, option)
    if isinstance(option, Number):
        return _number_ok(text, option)
    if isinstance(option, YesNo):
        return text.strip().lower() in {"1", "0", "true", "false", "yes", "no", "on", "off"}
    if isinstance(option, OneOf):
        return text.strip().lower() in {c.lower() for c in option.choices}
    if isinstance(option, Name):
        return bool(re.fullmatch(rf"[A-Za-z0-9' -]{{1,{option.longest}}}", text.strip()))
    items = [v.strip() for v in text.split(",")]
    if isinstance(option, PerPlayer):
        return len(items) in (1, players) and all(text_ok(v, option.item, players) for v in items)
    if isinstance(option, ListOf):
        count = len(items) == option.count if option.count else bool(items)
        distinct = len(set(items)) == len(items) or not option.distinct
        return count and all(text_ok(v, option.item, players) for v in items) and distinct
    raise AssertionError(type(option))


def value_ok(value: Any, option: Option, players: int) -> bool:
    """Whether ``value``, as read, is of the option's type and in its range."""
    if isinstance(option, Whole):
        ranged = type(value) is int and option.low <= value <= option.high
        return ranged and (not option.among or value in option.among)
    if isinstance(option, Number):
        finite = type(value) is float and math.isfinite(value)
        return finite and option.low <= value <= option.high and not (option.above and value == option.low)
    if isinstance(option, YesNo):
        return type(value) is bool
    if isinstance(option, OneOf):
        return value in option.choices
    if isinstance(option, Name):
        return isinstance(value, str) and 1 <= len(value) <= option.longest
    if isinstance(option, PerPlayer):
        return isinstance(value, tuple) and len(value) == players and all(value_ok(v, option.item, 1) for v in value)
    if isinstance(option, ListOf):
        counted = not option.count or len(value) == option.count
        return isinstance(value, tuple) and counted and all(value_ok(v, option.item, 1) for v in value)
    raise AssertionError(type(option))


DECLARED = [(game, key, option) for game in GAMES for key, option in game.option_specs.items()]
declared = st.sampled_from(DECLARED)


def _seats(game: type[GameBase]) -> int:
    return game.info.players[-1] if game.info.players[-1] < 10 else 4


@FUZZ
@given(declared, hostile)
def test_fuzz_every_option_of_every_game(case: tuple[type[GameBase], str, Option], text: str) -> None:
    game, key, option = case
    players = _seats(game)
    with no_hang():
        try:
            read = game.read_options({key: text}, players)[key]
        except OptionError as refusal:
            message = str(refusal)
            assert message.startswith(f"option {key} of ") and "\n" not in message and len(message) < 700
            assert not text_ok(text, option, players), f"{game.info.title} {key}={text!r} refused: {message}"
            return
        assert text_ok(text, option, players), f"{game.info.title} {key}={text!r} silently taken as {read!r}"
        assert value_ok(read, option, players), f"{game.info.title} {key}={text!r} read as {read!r}"
        names = {"names": [f"p{n}" for n in range(players)]} if game.kind == "table" else {}
        try:  # and the game is built with it, or refused in one line (a box that holds fewer dice)
            game(players, rng=np.random.default_rng(0), **names, **{key: text})
        except ValueError as refusal:
            assert "\n" not in str(refusal) and str(refusal)


# -- every subcommand, one hostile argument at a time ------------------------------------------------------------


def _whole_arg(text: str, low: int, high: int) -> bool:
    t = text.strip()
    return t.isascii() and bool(re.fullmatch(r"[+-]?[0-9_]+", t)) and low <= int(t.replace("_", "") or 0) <= high


def bad_whole(low: int, high: int) -> st.SearchStrategy[str]:
    outside = st.one_of(st.integers(max_value=low - 1), st.integers(min_value=high + 1)).map(str)
    return st.one_of(hostile, outside).filter(lambda t: not _whole_arg(t, low, high) or t.strip() == "")


def bad_number(low: float, high: float, above: bool = False) -> st.SearchStrategy[str]:
    def ok(t: str) -> bool:
        try:
            x = float(t) if t.strip().isascii() else math.nan
        except ValueError:
            return False
        return math.isfinite(x) and low <= x <= high and not (above and x == low)

    outside = st.one_of(st.floats(max_value=low, exclude_max=not above), st.floats(min_value=high, exclude_min=True))
    return st.one_of(hostile, outside.map(repr)).filter(lambda t: not ok(t))


def bad_option(game: type[GameBase]) -> st.SearchStrategy[list[str]]:
    """``--option KEY=VALUE`` with a value the option does not take."""
    keys = st.sampled_from(sorted(game.option_specs))
    return (
        st.tuples(keys, hostile)
        .filter(lambda kv: not text_ok(kv[1], game.option_specs[kv[0]], 3))
        .map(lambda kv: ["--option", f"{kv[0]}={kv[1]}"])
    )


def _game(number: str) -> type[GameBase]:
    return next(g for g in GAMES if g.info.key == number)


SEED = bad_whole(0, 2**63 - 1)
ARGV = st.one_of(
    SEED.map(lambda v: ["demo", f"--seed={v}"]),
    bad_whole(0, 116).map(lambda v: ["demo", f"--throws={v}"]),
    st.sampled_from(["", " ", "x.jpg", "noext", "/dev/full", "a/b.PNG.txt"]).map(lambda v: ["demo", f"--picture={v}"]),
    bad_number(0.0, 600.0, above=True).map(lambda v: ["bench", f"--seconds={v}"]),
    bad_whole(1, 1_000_000).map(lambda v: ["soak", f"--runs={v}"]),
    bad_whole(0, 100).map(lambda v: ["soak", f"--actions={v}"]),
    bad_whole(1, 10_000).map(lambda v: ["soak", "--mode", "envs", f"--steps={v}"]),
    hostile.filter(lambda v: v not in ("scenes", "games", "envs")).map(lambda v: ["soak", f"--mode={v}"]),
    bad_whole(1, 10_000).map(lambda v: ["locality", f"--seeds={v}"]),
    bad_whole(0, 10_000).map(lambda v: ["locality", f"--games={v}"]),
    SEED.map(lambda v: ["locality", f"--first={v}"]),
    st.integers(1, 10**6).map(lambda n: ["rules", f"-{n}"]),
    st.sampled_from(["zzz", "", " ", "0", "999", "game 10", "🎲"]).map(lambda v: ["rules", v]),
    SEED.map(lambda v: ["play", "10", "--fast", f"--seed={v}"]),
    bad_number(0.0, 60.0).map(lambda v: ["play", "10", f"--delay={v}"]),
    st.sampled_from(["", ",", "greedy,,random", "zebra,greedy", "mcts:0,greedy", "mcts:99999999,greedy", "mcts:²"]).map(
        lambda v: ["play", "30", "--fast", f"--players={v}"]
    ),
    bad_option(_game("14")).map(lambda o: ["play", "14", "--fast", "--players", "greedy,greedy", *o]),
    bad_option(_game("18")).map(lambda o: ["play", "18", "--fast", *o]),
    bad_option(_game("21")).map(lambda o: ["play", "21", "--fast", *o]),
    bad_option(_game("57")).map(lambda o: ["play", "57", "--fast", *o]),
    bad_option(_game("5")).map(lambda o: ["play", "5", *o]),
    bad_option(_game("17")).map(lambda o: ["play", "17", *o]),
    bad_option(_game("knights")).map(lambda o: ["play", "knights", "--fast", *o]),
    bad_option(_game("sport-is-murder")).map(lambda o: ["play", "sport-is-murder", "--fast", *o]),
    SEED.map(lambda v: ["view", f"--seed={v}"]),
    bad_number(0.0, 86_400.0, above=True).map(lambda v: ["view", f"--seconds={v}"]),
    SEED.map(lambda v: ["run", "die_throw", f"--seed={v}"]),
    st.sampled_from(["", " ", "   "]).map(lambda v: ["run", "die_throw", f"--out={v}"]),
    st.sampled_from(["", "  "]).map(lambda v: ["assets", f"--out={v}"]),
    st.tuples(st.sampled_from(["throw.height", "throw.target", "physics.edge", "throw.speed"]), hostile)
    .map(lambda kv: ["run", "die_throw", "--set", f"{kv[0]}={kv[1] or 'nan'}"])
    .filter(lambda argv: not re.fullmatch(r".*=[+-]?[0-9.e]+", argv[-1]) or "e999" in argv[-1]),
    bad_whole(1, 1_000_000).map(lambda v: ["experiment", "--game", "10", "--fast", f"--seeds={v}"]),
    bad_whole(1, 256).map(lambda v: ["experiment", "--game", "10", "--fast", f"--workers={v}"]),
    SEED.map(lambda v: ["experiment", "--game", "10", "--fast", f"--first-seed={v}"]),
    bad_option(_game("14")).map(lambda o: ["experiment", "--game", "14", "--fast", "--vary", o[1].replace(",", ";")]),
    bad_option(_game("14")).map(lambda o: ["experiment", "--game", "14", "--fast", *o]),
    st.sampled_from(["nan", "inf", "-1", "1e999", "[nan, 0.0]", "x"]).map(
        lambda v: ["experiment", "die_throw", "--vary", f"throw.height=0.1,{v}"]
    ),
    st.sampled_from(["scene.seed=1,2", "scene.name=a,b", "throw.height=0.1,0.1"]).map(
        lambda v: ["experiment", "die_throw", "--vary", v]
    ),
)


@pytest.fixture(scope="module")
def quiet_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty working folder; every way the commands simulate fails the draw if reached."""
    mp = pytest.MonkeyPatch()

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a simulation ran although the input was refused")

    for target in SIMULATIONS:
        mp.setattr(target, never)
    mp.setattr("pyramid.cli.extras.require_window", never)
    mp.setattr("pyramid.cli.lab.write_assets", never)
    work = tmp_path_factory.mktemp("fuzz_work")
    mp.chdir(work)
    yield work
    mp.undo()


def refused_in_one_line(argv: list[str]) -> str:
    """Run the command: exit 2 and one line (argparse's usage before it aside), no traceback. Returns the line."""
    err = io.StringIO()
    with no_hang(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(argv)
        except SystemExit as stop:
            code = stop.code  # type: ignore[assignment]
    said = err.getvalue()
    assert code == 2, (argv, code, said)
    assert "Traceback" not in said and said.strip(), (argv, said)
    last = said.strip().splitlines()[-1]
    assert last.startswith(f"pyramid {argv[0]}"), (argv, said)
    return last


@FUZZ
@given(ARGV)
def test_fuzz_every_subcommand_refuses_hostile_arguments_in_one_line(quiet_world: Path, argv: list[str]) -> None:
    refused_in_one_line(argv)
    assert list(quiet_world.iterdir()) == [], f"{argv} left files behind"


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Files no command should read: a FIFO, a device, a folder, JSON nested 100,000 deep, 11 MB, NaN, binary."""
    folder = tmp_path_factory.mktemp("bad_files")
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with (folder / "big.json").open("w") as f:
        f.truncate(11_000_000)
    (folder / "nan.json").write_text('{"dice": NaN}')
    (folder / "binary.json").write_bytes(bytes(range(256)) * 10)
    (folder / "list.json").write_text("[1, 2, 3]")
    return [fifo, Path("/dev/zero"), Path("/dev/urandom"), folder, *sorted(folder.glob("*.json"))]


@settings(FUZZ, max_examples=40)
@given(st.data())
def test_fuzz_files_a_command_reads(quiet_world: Path, bad_files: list[Path], data: st.DataObject) -> None:
    path = str(data.draw(st.sampled_from(bad_files)))
    argv = data.draw(st.sampled_from([["view", "--load", path], ["run", path], ["experiment", path, "--seeds", "1"]]))
    refused_in_one_line(argv)


# -- typed lines -----------------------------------------------------------------------------------------------------

LEGAL = [Place((0, 0, 8), "red"), Place((0, 0, 8), "green"), Place((1, 0, 7), "red")]
OPTIONS = ["stop with 5-5+3", "keep 3,3,5,5 and roll 1 die", "roll all 6 dice"]


@FUZZ
@given(
    st.one_of(hostile, st.text(min_size=180, max_size=400), st.from_regex(r"[a-i][0-9]{1,4}( \w+)?", fullmatch=True))
)
def test_fuzz_typed_lines_name_a_move_or_are_answered_with_a_line(text: str) -> None:
    with no_hang():
        for read, legal in ((lambda t: read_move(t, LEGAL), LEGAL), (lambda t: read_option(t, OPTIONS)[0], OPTIONS)):
            try:
                chosen = read(text)
            except TypedMoveError as answer:
                assert str(answer).startswith("please type") and "\n" not in str(answer)
                continue
            assert chosen in legal or chosen in range(len(legal)), (text, chosen)
            assert len(text) <= 200 and all(c.isascii() or not (c.isdigit() or c.isnumeric()) for c in text)


# -- damaged rows.jsonl ----------------------------------------------------------------------------------------------

SEEDS = 6
# Values no measure of die_throw takes: each damage below makes a row that lies.
LIES = [
    '"3"',
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1",
    "-0.5",
    "1000000000000000",
    "[]",
    "{}",
    "[1]",
    '{"a": 1}',
    '"lying\\u0000"',
]


def _thrown(job: Job) -> dict[str, Any]:
    measures = {
        "at_rest": True,
        "start_time_to_rest": 0.0,
        "thrown.0.die": 0,
        "thrown.0.kept_top": job.seed % 2 == 0,
        "thrown.0.slot": None,
        "thrown.0.start_top": 1 + job.seed % 6,
        "thrown.0.status": "lying",
        "thrown.0.top": 1 + (job.seed * 5) % 6,
        "time_to_rest": 0.5 + job.seed / 10,
    }
    row = {"key": job.key, "point": job.point, "seed": job.seed, "params": job.params, "measures": measures}
    return {**row, "error": None}


@pytest.fixture(scope="module")
def good_rows() -> tuple[list[str], Expected]:
    scene = load_scene("die_throw")
    plan = Plan({"scene": dict(scene.raw), "source": "die_throw"}, {}, SEEDS)
    digest = spec_digest(plan.spec)
    lines = [json.dumps({**_thrown(job), "spec": digest}, sort_keys=True) for job in plan.jobs()]
    return lines, Expected({job.key: {} for job in plan.jobs()}, digest, measure_rules(plan.spec))


def _damage(line: str, kind: str, data: st.DataObject) -> str:
    """One way a row is made to lie, or to be no row."""
    row = json.loads(line)
    if kind == "measure":
        key = data.draw(st.sampled_from(sorted(row["measures"])))
        lie = data.draw(st.sampled_from(LIES))
        return line.replace(f'"{key}": {json.dumps(row["measures"][key])}', f'"{key}": {lie}', 1)
    if kind == "unknown measure":
        return json.dumps({**row, "measures": {**row["measures"], data.draw(st.sampled_from(["seated", "x", ""])): 1}})
    if kind == "spec":
        return json.dumps({**row, "spec": data.draw(st.sampled_from(["", "0" * 16, None, 5]))})
    if kind == "no key":
        drop = data.draw(st.sampled_from(["key", "point", "seed", "params", "measures", "error", "spec"]))
        return json.dumps({k: v for k, v in row.items() if k != drop})
    if kind == "seed":
        return json.dumps({**row, "seed": data.draw(st.sampled_from([-1, 99, "1", 1.0, None, True]))})
    if kind == "cut":
        return line[: data.draw(st.integers(0, len(line) - 1))]
    if kind == "bytes":
        at = data.draw(st.integers(0, len(line)))
        return line[:at] + data.draw(st.sampled_from(["\x00", "}", "{", "\ufffd", "[" * 2000, ",", '"'])) + line[at:]
    return "x" * data.draw(st.sampled_from([0, 1, 1_000_001]))  # "long": empty, a word, a line too long


@settings(FUZZ, max_examples=120)
@given(st.data())
def test_fuzz_damaged_rows_are_set_aside_and_no_lie_is_counted(
    tmp_path_factory: pytest.TempPathFactory, good_rows: tuple[list[str], Expected], data: st.DataObject
) -> None:
    lines, expected = good_rows
    kinds = ["measure", "unknown measure", "spec", "no key", "seed", "cut", "bytes", "long"]
    damaged = data.draw(st.sets(st.integers(0, SEEDS - 1), min_size=1, max_size=3))
    text = [
        _damage(line, data.draw(st.sampled_from(kinds)), data) if n in damaged else line for n, line in enumerate(lines)
    ]
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_text("\n".join(text) + data.draw(st.sampled_from(["\n", ""])))
    with no_hang():
        read = tidy_rows(path, expected)
    originals = {json.loads(line)["key"]: json.loads(line) for line in lines}
    for row in read.rows:  # every row counted is a row as its run wrote it
        assert row == originals[row["key"]], f"a lie was counted: {row}"
    untouched = {json.loads(lines[n])["key"] for n in range(SEEDS) if n not in damaged}
    assert {r["key"] for r in read.rows} == untouched  # nothing good lost, nothing damaged counted
    assert all(1 <= n <= SEEDS and why for n, why in read.bad) and read.duplicates == 0
    assert scan_rows(path, expected).set_aside == []  # what is left is only good rows, each once
