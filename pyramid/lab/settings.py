"""Settings named on the command line: ``KEY=VALUE`` (``--set``) and ``KEY=V1,V2`` or ``KEY=START:STOP:COUNT``
(``--vary``) -> a key and its values, each read as a TOML value (a bare word is a string).

Sits before ``scene`` in the flow: the keys and values are checked against a scene as it loads (``load_scene``).
"""

from __future__ import annotations

import tomllib
from typing import Any

import numpy as np


class SettingError(ValueError):
    """A ``--set`` or ``--vary`` that cannot be read; the message names the option and the text."""


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` or ``KEY=START:STOP:COUNT`` (COUNT evenly spaced numbers) -> (key, values)."""
    key, sep, values = text.partition("=")
    if not sep or not key.strip() or not values.strip():
        raise SettingError(f"--vary takes KEY=V1,V2 or KEY=START:STOP:COUNT, got {text!r}")
    parts = values.split(":")
    if len(parts) == 3:
        start, stop, count = (_literal(p, text) for p in parts)
        if not _is_number(start) or not _is_number(stop) or not isinstance(count, int) or isinstance(count, bool):
            raise SettingError(f"--vary {text!r}: START:STOP:COUNT takes two numbers and a whole count")
        if count < 1:
            raise SettingError(f"--vary {text!r}: the COUNT of START:STOP:COUNT must be at least 1, got {count}")
        return key.strip(), [round(float(v), 10) for v in np.linspace(start, stop, count)]
    return key.strip(), [_literal(v, text) for v in values.split(",")]


def parse_setting(text: str, option: str = "--set") -> tuple[str, Any]:
    """``KEY=VALUE`` (one value) -> (key, value); SettingError naming ``option`` when it is not that."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise SettingError(f"{option} takes KEY=VALUE, e.g. throw.height=0.02, got {text!r}")
    return key.strip(), _literal(value, text, option)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _literal(text: str, whole: str, option: str = "--vary") -> Any:
    try:
        return tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        if text.strip().replace("_", "").replace("-", "").isalnum():
            return text.strip()  # a bare word, e.g. a colour
        raise SettingError(f"{option} {whole!r}: cannot read the value {text!r}") from None
