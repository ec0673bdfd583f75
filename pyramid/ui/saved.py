"""A match saved in the window (Ctrl+S) and resumed (``pyramid play N --view --load FILE``).

The file keeps what a match is at one moment: the game (its whole state: whose turn, the scores, the
dice in hand), the seats, the seed and options it was set up with, the world's table (every die's pose)
and, in a skill game, the turn's clock. It is a Python pickle read back by an unpickler that builds
nothing but the package's own classes, numpy arrays and generators and plain containers: a file
naming anything else is refused, named, before it is built.
"""

from __future__ import annotations

import io
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramid.physics.tables import Table
from pyramid.rules import GameBase

FORMAT = "pyramid-match 1"
MAX_BYTES = 20_000_000  # a saved match of the full pyramid is about 100 kB
SAFE_BUILTINS = {"set", "frozenset", "list", "dict", "tuple", "complex", "slice", "range", "bytearray", "object"}
# What numpy needs to build arrays, scalars and its random generators again, and nothing else of it.
SAFE_NUMPY = {
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.random._pickle", "__generator_ctor"),
    ("numpy.random._pickle", "__bit_generator_ctor"),
    ("numpy.random._pickle", "__randomstate_ctor"),
    ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence"),
    ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.numeric", "_frombuffer"),
}


@dataclass(eq=False)
class SavedMatch:
    """A match at one moment: ``game`` (its number or key and the game object), ``kinds`` (one per seat),
    ``seed`` and ``options`` as set up, ``table`` (the world's, None in exact play) and ``clock`` (seconds
    of the skill game's turn gone, None between turns or in a board game)."""

    game: GameBase
    kinds: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    table: Table | None = None
    clock: float | None = None

    @property
    def title(self) -> str:
        """The game's number and title, as the window shows them."""
        info = self.game.info
        return f"{info.number}. {info.title}" if info.number is not None else info.title


class _Unpickler(pickle.Unpickler):
    """Builds only the classes of the package, numpy's arrays and generators, and plain containers."""

    def find_class(self, module: str, name: str) -> Any:
        found = None
        if module == "builtins" and name in SAFE_BUILTINS or (module, name) in SAFE_NUMPY:
            found = super().find_class(module, name)
        elif module == "pyramid" or module.startswith("pyramid."):
            found = super().find_class(module, name)
            if not isinstance(found, type):
                found = None  # a function of the package may write files: only classes are built
        elif module.startswith("numpy.random.") or module == "enum":
            found = super().find_class(module, name)
            found = found if isinstance(found, type) else None  # a bit generator's class, an enum's
        if found is None:
            raise pickle.UnpicklingError(f"it names {module}.{name}, which a saved match never holds")
        return found


def save_match(saved: SavedMatch, path: str | Path) -> Path:
    """Write ``saved`` to ``path`` (whole or not at all: a temporary file is renamed); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(pickle.dumps({"format": FORMAT, "match": saved}, protocol=pickle.HIGHEST_PROTOCOL))
    partial.replace(path)
    return path


def load_match(path: str | Path) -> SavedMatch:
    """The match saved in ``path``; ValueError naming the file and what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"--load {path}: no such file (a match is saved in the window with Ctrl+S)")
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"--load {path}: {path.stat().st_size:,} bytes; a saved match is at most {MAX_BYTES:,}")
    try:
        data = _Unpickler(io.BytesIO(path.read_bytes())).load()
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError, IndexError) as err:
        raise ValueError(f"--load {path}: not a match saved with Ctrl+S in the window ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("match"), SavedMatch):
        raise ValueError(f"--load {path}: not a match saved with Ctrl+S in the window (expected {FORMAT!r})")
    saved: SavedMatch = data["match"]
    seats = saved.kinds if isinstance(saved.kinds, list) else None
    if not isinstance(saved.game, GameBase) or seats is None or len(seats) != saved.game.players:
        raise ValueError(f"--load {path}: the saved match's game and seats do not fit together")
    return saved
