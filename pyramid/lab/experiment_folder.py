"""An experiment's folder: owned by one experiment at a time (a lock naming its holder), its rows read back and checked.

Under ``experiments``: before a run starts or resumes, the folder is locked and every line of ``rows.jsonl``
is checked; a line that is not a row of this experiment, or a second row of one run, is set aside in
``rows.set_aside.jsonl`` with its line number and why, and the rows after it are kept.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from pyramid.files import FileRefused, read_json
from pyramid.lab.row_checks import Expected

LOCK = "lock"  # the file that says which process holds the folder
SET_ASIDE = "rows.set_aside.jsonl"  # lines taken out of rows.jsonl, each with its line number and why
ROW_KEYS = ("key", "point", "seed", "params", "measures", "error")
SHOWN = 5  # set-aside lines named one by one; the rest are counted
MAX_ROW = 1_000_000  # characters of one line of rows.jsonl: a run's row is a few hundred
SHOWN_CHARS = 1000  # characters kept of a line longer than that, in the set-aside file
MAX_MANIFEST_BYTES = 100_000_000  # experiment.json: the plan, a scene (at most 1 MB) and up to 10,000 settings


class ExperimentError(ValueError):
    """An experiment that cannot start or resume; the message says why and what to do."""


class FolderLock:
    """Holds ``folder`` for one experiment while it runs: a second one is refused, told who holds it.

    The lock is the operating system's (``flock``) on ``folder/lock``, so a holder that died, even
    killed, holds nothing; the file's text (pid, host, start) only names the holder. A lock file left by
    a holder that died is taken over with a line to ``say``; so is a lock still held after its holder's
    death on this host (by a process that inherited it): the file is replaced by a new one.
    """

    def __init__(self, folder: Path, say: Callable[[str], None] | None = None) -> None:
        self.path = folder / LOCK
        self.say = say or (lambda text: None)
        self.fd: int | None = None

    def __enter__(self) -> FolderLock:
        folder = self.path.parent
        with _folder_mutex(folder):  # two experiments taking over one stale lock at once: one after the other
            while True:
                fd = _open(self.path)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    holder = _holder(fd)
                    os.close(fd)
                    if holder is not None and _dead_here(holder):
                        self.say(f"{folder}: {_named(holder)} ended without letting go of it; the lock is taken over")
                        self.path.unlink(missing_ok=True)  # what still holds the old file keeps an unlinked file
                        continue
                    raise ExperimentError(
                        f"{folder} is in use by another experiment ({_named(holder)}; {self.path}): wait for it to "
                        "end, or choose another --out"
                    ) from None
                # The last holder may have removed the file between our open and our lock: then lock the new one.
                if self.path.exists() and os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                    break
                os.close(fd)
            left = _holder(fd)
            if left is not None:  # a holder that ended cleanly removes the file: this one died
                self.say(f"{folder}: {_named(left)} ended without letting go of it; the lock is taken over")
            me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
        self.fd = fd
        HELD.add(fd)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            HELD.discard(self.fd)
            os.close(self.fd)
            self.fd = None


HELD: set[int] = set()  # the lock files this process holds open: a forked worker closes its copies


def close_inherited_locks() -> None:
    """In a worker forked by an experiment: close its copies of the experiment's lock, so that the lock ends with
    the experiment's own process (a worker outliving it would otherwise hold the folder)."""
    for fd in list(HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    HELD.clear()


def _open(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise ExperimentError(f"cannot write the experiment to {path.parent}: {err.strerror or err}") from None


@contextlib.contextmanager
def _folder_mutex(folder: Path) -> Iterator[None]:
    """The folder itself locked (``flock`` on its directory) while a lock file is taken: a moment, never a run."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as err:
        raise ExperimentError(f"cannot write the experiment to {folder}: {err.strerror or err}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _holder(fd: int) -> dict[str, Any] | None:
    """The holder a lock file names (pid, host, started), None if it names none (yet)."""
    try:
        holder = json.loads(os.pread(fd, 4096, 0).decode())
        return {"pid": int(holder["pid"]), "host": str(holder["host"]), "started": str(holder["started"])}
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def _named(holder: dict[str, Any] | None) -> str:
    """``pid 123 on host, since ...``."""
    if holder is None:
        return "a process that has not yet said who it is"
    return f"pid {holder['pid']} on {holder['host']}, since {holder['started']}"


def _dead_here(holder: dict[str, Any]) -> bool:
    """Whether the holder ran on this machine and has ended (a holder elsewhere cannot be asked)."""
    if holder["host"] != socket.gethostname() or holder["pid"] <= 0:
        return False
    try:
        os.kill(holder["pid"], 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The plan saved in ``experiment.json`` (None if there is none); ExperimentError naming the file if unusable
    (not a regular file, larger than MAX_MANIFEST_BYTES, nested too deeply, not JSON)."""
    if not path.exists():
        return None
    try:
        data = read_json(path, MAX_MANIFEST_BYTES)
    except (FileRefused, OSError) as err:
        why = err if isinstance(err, FileRefused) else f"cannot be read: {err.strerror or err}"
        raise ExperimentError(
            f"{path}: {why}; it holds the experiment's plan: delete the folder or choose another --out"
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


def row_problem(row: Any, expected: Expected | None = None) -> str:
    """What is wrong with ``row`` as a row of an experiment ("" if nothing); with ``expected``, as a row of that
    experiment (its runs' settings, its spec's digest, its measures' types and ranges: ``row_checks``)."""
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
    return expected.problem(row) if expected is not None else ""


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


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def scan_rows(path: Path, expected: Expected | None = None) -> RowsRead:
    """Read ``rows.jsonl`` line by line, leaving the file as it is: each bad line is set aside, never the rest.

    A line longer than MAX_ROW characters, NaN or Infinity, a row nested too deeply are bad lines. A second row
    of one run is set aside as a duplicate, unless the first ended with an error: then the later one (a retry)
    replaces it.
    """
    read = RowsRead()
    if not path.exists():
        return read
    if not path.is_file():
        raise ExperimentError(f"{path}: not a regular file; the rows of an experiment are a JSON-lines file")
    where: dict[str, int] = {}  # run -> index in read.rows
    first_line: dict[str, int] = {}
    with path.open("rb") as file:
        for number, (line, ended, long) in enumerate(_lines(file), start=1):
            read.whole = ended
            try:
                if long:
                    raise ValueError(f"a line longer than {MAX_ROW:,} characters")
                row = json.loads(line, parse_constant=_no_constant)
                problem = row_problem(row, expected)
            except (ValueError, RecursionError) as err:
                problem = f"not JSON ({err})" if line.strip() else "empty"
                problem = "cut short (an interrupted write)" if not ended and not long else problem
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
                why = f"run {key} failed here and was run again on line {number}"
                read.set_aside.append((first_line[key], why, old))
                read.rows[where[key]], read.lines[where[key]], first_line[key] = row, line, number
            else:
                read.duplicates += 1
                read.set_aside.append((number, f"run {key} written again (first on line {first_line[key]})", line))
    read.set_aside.sort()
    return read


def _lines(file: BinaryIO) -> Iterator[tuple[str, bool, bool]]:
    """Each line of ``file`` (ended by "\n" only: a JSON row never holds another line break) as text: the line,
    whether an end of line ends it, whether it was longer than MAX_ROW (then only its start is kept)."""
    while chunk := file.readline(MAX_ROW + 1):
        ended = chunk.endswith(b"\n")
        if ended or len(chunk) <= MAX_ROW:  # a whole line, or the file's last piece
            yield (chunk[:-1] if ended else chunk).decode("utf-8", errors="replace"), ended, False
            continue
        while rest := file.readline(MAX_ROW + 1):  # the rest of a line too long to read
            if rest.endswith(b"\n"):
                ended = True
                break
        yield chunk[:SHOWN_CHARS].decode("utf-8", errors="replace"), ended, True


def tidy_rows(path: Path, expected: Expected | None = None, say: Callable[[str], None] | None = None) -> RowsRead:
    """``scan_rows``, then rows.jsonl rewritten with its good rows only, the rest moved to rows.set_aside.jsonl.

    ``say`` is told each line set aside (the first few, then how many more) and the duplicates.
    """
    read = scan_rows(path, expected)
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
