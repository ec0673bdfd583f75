"""The scene files shipped inside the package (``pyramid/scenes/*.toml``), found by name: ``pyramid run die_throw``.

``load_scene`` takes a name where no file of that name exists; a clone's top-level ``scenes/`` is a link to the
same folder, so ``pyramid run scenes/die_throw.toml`` runs the same file there.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

from pyramid.lab.scene_checks import suggestion

SCENES = Path(__file__).resolve().parent.parent / "scenes"


def shipped_scenes() -> dict[str, Path]:
    """Every shipped scene file by name (the file's name without ``.toml``), in alphabetical order."""
    return {path.stem: path for path in sorted(SCENES.glob("*.toml"))}


def is_scene_name(text: str) -> bool:
    """Whether ``text`` reads as a scene's name rather than a path: no folder in it and no suffix."""
    path = Path(text)
    return text == path.name and not path.suffix and text not in ("", ".", "..")


def shipped_scene(name: str) -> Path:
    """The file of the shipped scene ``name``; LookupError naming the shipped scenes (and the nearest) if none."""
    scenes = shipped_scenes()
    if name not in scenes:
        raise LookupError(f"no shipped scene {name!r}{suggestion(name, list(scenes))}; {names_text()}")
    return scenes[name]


def names_text() -> str:
    """The sentence that lists the shipped scenes, for an error message."""
    return f"the shipped scenes are: {', '.join(shipped_scenes())} (pyramid scenes says what each shows)"


def description(path: Path) -> str:
    """A scene file's one-line ``description`` (under ``[scene]``), or "" if it has none."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return " ".join(str(raw.get("scene", {}).get("description", "")).split())


def copy_scene(name: str, folder: str | os.PathLike[str]) -> Path:
    """Copy the shipped scene ``name`` into ``folder`` (made if missing), to edit and run; returns the new file.

    LookupError for an unknown name; FileExistsError if ``folder`` already holds a file of that name.
    """
    source = shipped_scene(name)
    target = Path(folder) / source.name
    if target.exists():
        raise FileExistsError(f"{target} is already there; move it away or copy into another folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target
