"""Output paths of the commands (``--out``, ``--picture``), checked before anything is simulated."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _folder_problem(folder: Path) -> str | None:
    """Create ``folder`` (and its parents) and try a file in it: None if that works, else why not."""
    for part in (folder, *folder.parents):
        if part.exists() and not part.is_dir():
            return f"{part} is a file, not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return err.strerror or str(err)
    return None


def check_output_folder(path: str | os.PathLike[str], option: str) -> None:
    """Create the folder ``path`` and try a file in it; ValueError naming ``option``, the path and why not."""
    problem = _folder_problem(Path(path))
    if problem:
        raise ValueError(f"{option} {path}: cannot write there: {problem}")


def check_output_file(path: str | os.PathLike[str], option: str, suffix: str | None = None) -> None:
    """Make sure the file ``path`` can be written (its folder is created); ValueError naming ``option`` if not.

    ``suffix`` (e.g. ``.png``) is the ending the file's format needs.
    """
    if not str(path).strip():
        raise ValueError(f"{option}: give a file name" + (f" ending in {suffix}" if suffix else ""))
    file = Path(path)
    if file.is_dir():
        problem: str | None = f"{file} is a folder; give a file name"
    elif file.exists() and not file.is_file():
        problem = f"{file} is not a regular file (a device or a pipe)"
    elif suffix and file.suffix.lower() != suffix:
        kind = suffix[1:].upper()
        raise ValueError(f"{option} {path}: the file is written as {kind}: give a name ending in {suffix}")
    else:
        problem = _folder_problem(file.parent)
    if problem is None:
        existed = file.exists()
        try:
            with file.open("ab"):
                pass
        except OSError as err:
            problem = err.strerror or str(err)
        else:
            if not existed:
                file.unlink()
    if problem:
        raise ValueError(f"{option} {path}: cannot write there: {problem}")


def inside(folder: str | os.PathLike[str], name: str) -> Path:
    """``folder / name``; ValueError if that would lie outside ``folder`` (a name with a path in it)."""
    base = Path(folder).resolve()
    path = (base / name).resolve()
    if path.parent != base:
        raise ValueError(f"{name!r} would be written outside {folder}; a name is a plain file name")
    return Path(folder) / name
