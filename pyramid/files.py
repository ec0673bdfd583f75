"""Files a person names, read within bounds: regular files only, a size limit, JSON nested to a bounded depth.

A FIFO would make a reader wait forever, /dev/zero would fill the memory, a JSON array nested 100,000 deep
would end in a RecursionError: each is refused here with a ``FileRefused`` saying why, before it is read.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

MAX_JSON_DEPTH = 64  # arrays and objects inside each other: every file of the project needs fewer than 10


class FileRefused(ValueError):
    """A file that is not read: the message says why (not a regular file, too large, too deep, not JSON)."""


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; FileRefused for anything else.

    FileNotFoundError (an OSError) when there is no such file: callers say that in their own words.
    """
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a pipe, a socket or a device)"
            raise FileRefused(f"cannot be read: {what}")
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefused(f"larger than {limit:,} bytes")
    return data


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in the JSON ``text`` (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON ``text`` read; FileRefused if it nests deeper than ``max_depth``, is not JSON, or holds NaN or
    Infinity (Python writes them, JSON has no such numbers)."""
    if json_depth(text) > max_depth:
        raise FileRefused(f"arrays or objects nested too deeply (at most {max_depth})")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise FileRefused(f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except ValueError as error:
        raise FileRefused(f"not valid JSON: {error}") from None


def read_json(path: str | os.PathLike[str], limit: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON file ``path`` read within bounds (``read_bytes``, ``parse_json``); FileRefused saying why not."""
    data = read_bytes(path, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(f"not a text file ({Path(path).name} is not UTF-8)") from None
    return parse_json(text, max_depth)
