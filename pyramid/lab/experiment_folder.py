"""An experiment's folder: owned by one experiment at a time (a lock naming its holder), its rows read back and checked.

Under ``experiments``: before a run starts or resumes, the folder is locked and every line of ``rows.jsonl``
is checked; a line that is not a row of this experiment, or a second row of one run, is set aside in
``rows.set_aside.jsonl`` with its line number and why, and the rows after it are kept.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

LOCK = "lock"  # the file that says which process holds the folder
SET_ASIDE = "rows.set_aside.jsonl"  # lines taken out of rows.jsonl, each with its line number and why
ROW_KEYS = ("key", "point", "seed", "params", "measures", "error")
SHOWN = 5  # set-aside lines named one by one; the rest are counted


class ExperimentError(ValueError):
    """An experiment that cannot start or resume; the message says why and what to do."""


class FolderLock:
    """Holds ``folder`` for one experiment while it runs: a second one is refused, told who holds it.

    The lock is the operating system's (``flock``) on ``folder/lock``, so a holder that died, even
    killed, holds nothing; the file's text (pid, host, start) only names the holder.
    """

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK
        self.fd: int | None = None

    def __enter__(self) -> FolderLock:
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as err:
                folder = self.path.parent
                raise ExperimentError(f"cannot write the experiment to {folder}: {err.strerror or err}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise ExperimentError(
                    f"{self.path.parent} is in use by another experiment ({holder}; {self.path}): wait for it to "
                    "end, or choose another --out"
                ) from None
            # The last holder may have removed the file between our open and our lock: then lock the new one.
            if self.path.exists() and os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                break
            os.close(fd)
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.ftruncate(fd, 0)
        os.write(fd, (json.dumps(me) + "\n").encode())
        self.fd = fd
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)
            self.fd = None


def _holder(fd: int) -> str:
    """Who holds a lock file, from its text: ``pid 123 on host, since ...``."""
    try:
        holder = json.loads(os.pread(fd, 4096, 0).decode())
        return f"pid {int(holder['pid'])} on {holder['host']}, since {holder['started']}"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return "a process that has not yet said who it is"


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The plan saved in ``experiment.json`` (None if there is none); ExperimentError naming the file if unusable."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise ExperimentError(
            f"{path}: not valid JSON ({err}); it holds the experiment's plan: delete the folder or choose another --out"
        ) from None
    if not isinstance(data, dict):
        raise ExperimentError(
            f"{path}: expected a JSON object (the experiment's plan), got {type(data).__name__}: delete the folder "
            "or choose another --out"
        )
    return data


def write_manifest(path: Path, plan: Mapping[str, Any]) -> None:
    """Write the plan to ``experiment.json`` whole or not at all (a new file moved into place)."""
    draft = path.with_name(path.name + ".new")
    draft.write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
    os.replace(draft, path)


# -- rows ---------------------------------------------------------------------------------------


def row_problem(row: Any, plan_params: Mapping[str, Any] | None = None) -> str:
    """What is wrong with ``row`` as a row of an experiment ("" if nothing); ``plan_params``: key -> params."""
    if not isinstance(row, dict):
        return f"not a row (a JSON object), but {type(row).__name__}"
    missing = [k for k in ROW_KEYS if k not in row]
    if missing:
        return f"a row without {', '.join(missing)}"
    whole = {k: row[k] for k in ("point", "seed")}
    if any(type(v) is not int or v < 0 for v in whole.values()):
        return f"point and seed are whole numbers 0 or more, got {whole['point']!r} and {whole['seed']!r}"
    if row["key"] != f"{row['point']}:{row['seed']}":
        return f"key {row['key']!r} is not point:seed ({row['point']}:{row['seed']})"
    if not isinstance(row["params"], dict) or not isinstance(row["measures"], dict):
        return "params and measures are JSON objects"
    if any(isinstance(v, dict | list) for v in row["measures"].values()):
        return "a measure is a number, true/false, a string or null"
    if row["error"] is not None and not isinstance(row["error"], str):
        return f"error is a message or null, got {row['error']!r}"
    if plan_params is not None:
        if row["key"] not in plan_params:
            return f"run {row['key']} is not one of this experiment's"
        if row["params"] != plan_params[row["key"]]:
            return f"run {row['key']} has other settings than this experiment's ({row['params']})"
    return ""


@dataclass
class RowsRead:
    """The rows of ``rows.jsonl``, one per run, and what was set aside: (line number, why, the line)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # each kept row's line as written
    set_aside: list[tuple[int, str, str]] = field(default_factory=list)
    bad: list[tuple[int, str]] = field(default_factory=list)  # lines that are not rows of this experiment: why
    duplicates: int = 0  # rows of a run already read, set aside
    whole: bool = True  # the file ends with an end of line

    def failed(self) -> list[str]:
        """The runs whose row holds an error."""
        return [r["key"] for r in self.rows if r["error"] is not None]


def scan_rows(path: Path, plan_params: Mapping[str, Any] | None = None) -> RowsRead:
    """Read ``rows.jsonl`` line by line, leaving the file as it is: each bad line is set aside, never the rest.

    A second row of one run is set aside as a duplicate, unless the first ended with an error: then the
    later one (a retry) replaces it.
    """
    read = RowsRead()
    if not path.exists():
        return read
    text = path.read_text(encoding="utf-8", errors="replace")
    read.whole = text.endswith("\n") or not text
    where: dict[str, int] = {}  # run -> index in read.rows
    first_line: dict[str, int] = {}
    lines = text.split("\n")  # JSON lines end in "\n" only: a row never holds another line break
    for number, line in enumerate(lines[:-1] if read.whole else lines, start=1):
        try:
            row = json.loads(line)
            problem = row_problem(row, plan_params)
        except (ValueError, RecursionError) as err:
            cut = number == len(lines) and not read.whole
            problem = "cut short (an interrupted write)" if cut else f"not JSON ({err})" if line.strip() else "empty"
        if problem:
            read.set_aside.append((number, problem, line))
            read.bad.append((number, problem))
            continue
        key = row["key"]
        if key not in where:
            where[key], first_line[key] = len(read.rows), number
            read.rows.append(row)
            read.lines.append(line)
        elif read.rows[where[key]]["error"] is not None:
            old = read.lines[where[key]]
            read.set_aside.append((first_line[key], f"run {key} failed here and was run again on line {number}", old))
            read.rows[where[key]], read.lines[where[key]], first_line[key] = row, line, number
        else:
            read.duplicates += 1
            read.set_aside.append((number, f"run {key} written again (first on line {first_line[key]})", line))
    read.set_aside.sort()
    return read


def tidy_rows(
    path: Path, plan_params: Mapping[str, Any] | None = None, say: Callable[[str], None] | None = None
) -> RowsRead:
    """``scan_rows``, then rows.jsonl rewritten with its good rows only, the rest moved to rows.set_aside.jsonl.

    ``say`` is told each line set aside (the first few, then how many more) and the duplicates.
    """
    read = scan_rows(path, plan_params)
    if not read.set_aside and read.whole:
        return read
    aside = path.with_name(SET_ASIDE)
    with aside.open("a", encoding="utf-8") as f:
        for number, why, line in read.set_aside:
            f.write(json.dumps({"file": path.name, "line": number, "why": why, "text": line}) + "\n")
    draft = path.with_name(path.name + ".new")
    with draft.open("w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in read.lines))
        f.flush()
        os.fsync(f.fileno())
    os.replace(draft, path)
    if say is not None:
        _report(read, path, aside, say)
    return read


def _report(read: RowsRead, path: Path, aside: Path, say: Callable[[str], None]) -> None:
    for number, why in read.bad[:SHOWN]:
        say(f"{path} line {number}: {why}: set aside in {aside}")
    if len(read.bad) > SHOWN:
        say(f"{path}: {len(read.bad) - SHOWN} more bad lines set aside in {aside}")
    if read.duplicates:
        say(f"{path}: {read.duplicates} rows of runs already written (duplicates) counted once; copies in {aside}")
