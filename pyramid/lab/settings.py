"""Settings named on the command line: ``KEY=VALUE`` (``--set``) and ``KEY=V1,V2`` or ``KEY=START:STOP:COUNT``
(``--vary``) -> a key and its values, each read as a TOML value (a list, a quoted string; a bare word is a string).

Sits before ``scene`` in the flow: the keys and values are checked against a scene as it loads (``load_scene``).
"""

from __future__ import annotations

import math
import tomllib
from typing import Any

import numpy as np

MAX_VALUES = 1000  # values of one --vary key
WORD = "a bare word, e.g. red"


class SettingError(ValueError):
    """A ``--set`` or ``--vary`` that cannot be read; the message names the option and the text."""


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` (TOML values) or ``KEY=START:STOP:COUNT`` (COUNT evenly spaced numbers) -> (key, values).

    >>> parse_vary('throw.target=[0.1,0.0],[0.2,0.0]')
    ('throw.target', [[0.1, 0.0], [0.2, 0.0]])
    >>> parse_vary('scene.description="a, b",c')
    ('scene.description', ['a, b', 'c'])
    """
    key, sep, values = text.partition("=")
    if not sep or not key.strip() or not values.strip():
        raise SettingError(f"--vary takes KEY=V1,V2 or KEY=START:STOP:COUNT, got {text!r}")
    parts = values.split(":")
    if len(parts) == 3 and not any(c in values for c in "[]{}\"'"):
        start, stop, count = (_literal(p, text) for p in parts)
        if not _is_number(start) or not _is_number(stop) or not isinstance(count, int) or isinstance(count, bool):
            raise SettingError(f"--vary {text!r}: START:STOP:COUNT takes two numbers and a whole count")
        if not math.isfinite(start) or not math.isfinite(stop):
            raise SettingError(f"--vary {text!r}: START and STOP must be finite numbers")
        if not 1 <= count <= MAX_VALUES:
            raise SettingError(
                f"--vary {text!r}: the COUNT of START:STOP:COUNT must be at least 1 and at most {MAX_VALUES}, "
                f"got {count}"
            )
        return key.strip(), [round(float(v), 10) for v in np.linspace(start, stop, count)]
    listed = _values(values, text)
    if len(listed) > MAX_VALUES:
        raise SettingError(f"--vary {text!r}: {len(listed)} values; a swept key takes at most {MAX_VALUES}")
    return key.strip(), listed


def parse_setting(text: str, option: str = "--set") -> tuple[str, Any]:
    """``KEY=VALUE`` (one TOML value, e.g. a list ``[0.1, 0.0]``) -> (key, value); SettingError naming ``option``."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise SettingError(f"{option} takes KEY=VALUE, e.g. throw.height=0.02, got {text!r}")
    return key.strip(), _literal(value, text, option)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _values(text: str, whole: str) -> list[Any]:
    """``V1,V2,...``: TOML values separated by commas (a comma inside a list or a quoted string is the value's)."""
    try:
        return list(_toml_value(f"[{text}]"))
    except (tomllib.TOMLDecodeError, RecursionError):
        pass  # bare words among them: split where no list or string is open
    pieces, depth, quote, start = [], 0, "", 0
    for n, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            pieces.append(text[start:n])
            start = n + 1
    pieces.append(text[start:])
    return [_literal(piece, whole) for piece in pieces]


def _toml_value(text: str) -> Any:
    return tomllib.loads(f"v = {text.strip()}")["v"]


def _literal(text: str, whole: str, option: str = "--vary") -> Any:
    try:
        return _toml_value(text)
    except RecursionError:
        raise SettingError(f"{option} {whole!r}: the value is nested too deeply") from None
    except tomllib.TOMLDecodeError:
        if text.strip().replace("_", "").replace("-", "").isalnum():
            return text.strip()  # a bare word, e.g. a colour
        raise SettingError(
            f'{option} {whole!r}: cannot read the value {text!r}; a value is TOML (0.02, [0.1, 0.0], "a, b") or {WORD}'
        ) from None
