"""What a row of one experiment may hold: the digest of the experiment's spec, the settings of its run, and each
measure with the type and range its scene (or game) gives it. ``experiment_folder`` sets aside any other row.

A row from another experiment (another throw height set with ``--set``: the swept keys alike, the spec not), a
game's row in a scene's experiment, a face of 9, a measure that is a string, NaN or one the scene does not
measure: each is named with what was expected.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pyramid.dice import DICE
from pyramid.lab.scene import scene_from_dict
from pyramid.perception import Status
from pyramid.rules import Termination

Check = Callable[[Any], bool]
MOST = 10**9  # the largest count a row may hold where nothing smaller bounds it (rolls, turns)


def spec_digest(spec: Mapping[str, Any]) -> str:
    """A short digest of what an experiment runs: its scene as read (with ``--set``) or its game, players and
    options; not the path its scene file was named by."""
    what = {k: v for k, v in spec.items() if k != "source"}
    return hashlib.sha256(json.dumps(what, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Rule:
    """The measures whose key matches ``pattern``: what ``check`` accepts, in words (``allowed``)."""

    pattern: str
    check: Check
    allowed: str


def _count(high: int) -> Rule:
    return Rule("", lambda v: type(v) is int and 0 <= v <= high, f"a whole number from 0 to {high:,}")


def _face() -> Rule:
    return Rule("", lambda v: type(v) is int and 1 <= v <= 6, "a face, 1 to 6")


def _real(low: float, high: float) -> Rule:
    def check(v: Any) -> bool:
        return type(v) in (int, float) and math.isfinite(v) and low <= v <= high

    return Rule("", check, f"a finite number from {low:g} to {high:g}")


def _flag() -> Rule:
    return Rule("", lambda v: type(v) is bool, "true or false")


def _word(words: Sequence[str]) -> Rule:
    return Rule("", lambda v: v in words, "one of " + ", ".join(words))


def _text(longest: int) -> Rule:
    return Rule("", lambda v: isinstance(v, str) and len(v) <= longest, f"a text of at most {longest:,} characters")


def _maybe(rule: Rule) -> Rule:
    return Rule("", lambda v: v is None or rule.check(v), f"{rule.allowed}, or null")


def _at(pattern: str, rule: Rule) -> Rule:
    return Rule(pattern, rule.check, rule.allowed)


def scene_rules(measures: Sequence[str], plate: bool) -> list[Rule]:
    """The measures a scene's runs give (``runner``'s ``scene.measure``: readout, score, moved, fallen, ...)."""
    dice = len(DICE)
    n = r"(?:[0-9]|[1-9][0-9]{1,2})"  # an index into a list: 0 to 999
    rules: list[Rule] = []
    if "readout" in measures:
        rules += [_at(k, _count(dice)) for k in ("seated", "lying", "cocked", "off_plate", "off_table")]
        rules.append(_at("pyramid", _text(10_000)))
    if "score" in measures:
        rules += [_at(r"faces\.[a-z]+", _count(6 * dice)), _at("faces_total", _count(6 * dice))]
        rules.append(_at("pips", _count(36 * dice)))
    rules += [_at(k, _count(dice)) for k in ("moved", "fallen") if k in measures]
    if "time_to_rest" in measures:
        rules += [_at(k, _real(0.0, 1e6)) for k in ("time_to_rest", "start_time_to_rest")]
        rules.append(_at("at_rest", _flag()))
    if "thrown" in measures:
        statuses = [s.value for s in Status] + ["off_table"]
        rules += [
            _at(rf"thrown\.{n}\.die", _count(dice - 1)),
            _at(rf"thrown\.{n}\.start_top", _face()),
            _at(rf"thrown\.{n}\.top", _maybe(_face())),
            _at(rf"thrown\.{n}\.kept_top", _maybe(_flag())),
            _at(rf"thrown\.{n}\.status", _word(statuses)),
            _at(rf"thrown\.{n}\.slot", Rule("", lambda v: v is None, "null (a die in no slot)")),
            _at(rf"thrown\.{n}\.slot\.[012]", _count(8)),
        ]
        rules += [_at(rf"thrown\.{n}\.on_plate", _flag())] if plate else []
    return rules


def game_rules(players: int, table: bool) -> list[Rule]:
    """The measures a game's runs give: each seat's score and win, why it ended, and its turns (table games: what
    the game counts of each seat, rolls and re-rolls)."""
    seat = "(?:" + "|".join(str(p) for p in range(players)) + ")"
    rules = [
        _at(rf"score\.{seat}", _real(-1e12, 1e12)),
        _at(rf"win\.{seat}", _flag()),
        _at("termination", _word([t.name.lower() for t in Termination])),
    ]
    if table:
        rules += [
            _at(rf"[a-z_]+\.{seat}", _real(-1e12, 1e12)),
            _at("rolls", _count(MOST)),
            _at("rerolls", _count(MOST)),
        ]
    else:
        rules.append(_at("turns", _maybe(_count(MOST))))
    return rules


def measure_rules(spec: Mapping[str, Any]) -> list[Rule]:
    """The rules of the measures of an experiment's ``spec`` (a scene's, read again, or a game's)."""
    if "scene" in spec:
        scene = scene_from_dict(spec["scene"], str(spec.get("source", "the experiment's scene")))
        return scene_rules(scene.measures, scene.plate)
    return game_rules(len(spec["players"]), "table_game" in spec)


def measure_problem(measures: Mapping[str, Any], rules: Sequence[Rule]) -> str:
    """What is wrong with a row's ``measures`` under ``rules`` ("" if nothing): an unknown measure, or a value of
    another type or out of its range."""
    for key, value in measures.items():
        rule = next((r for r in rules if re.fullmatch(r.pattern, key)), None)
        if rule is None:
            return f"measure {key!r} is not one this experiment measures"
        if not rule.check(value):
            return f"measure {key} is {value!r}; expected {rule.allowed}"
    return ""


@dataclass(frozen=True)
class Expected:
    """What every row of one experiment holds: the settings of each run (key -> params), the spec's digest and the
    rules of its measures."""

    params: Mapping[str, Any]
    digest: str
    rules: Sequence[Rule]

    def problem(self, row: Mapping[str, Any]) -> str:
        """What in ``row`` (a row in form) is not of this experiment ("" if nothing)."""
        if row["key"] not in self.params:
            return f"run {row['key']} is not one of this experiment's"
        if row["params"] != self.params[row["key"]]:
            return f"run {row['key']} has other settings than this experiment's ({row['params']})"
        if "spec" not in row:
            return "a row without spec (the digest of its experiment's scene or game): written by another version"
        if row["spec"] != self.digest:
            return f"a row of another experiment (its spec digest {row['spec']!r}, this one's {self.digest!r})"
        return measure_problem(row["measures"], self.rules) if row["error"] is None else ""
