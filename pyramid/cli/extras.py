"""The optional extras (``pip install -e '.[view]'`` and the others): loaded when a command needs one, and when
one is missing, one line saying which extra to install."""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

# A module of an extra -> the extra that installs it.
EXTRAS = {
    "pyglet": "view",
    "imageio_ffmpeg": "film",
    "mujoco": "bench",
    "dask": "dask",
    "matplotlib": "plots",
    "pyspiel": "openspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
}


def load(module: str) -> ModuleType:
    """Import ``module``; LookupError saying which extra to install when it needs one that is missing."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        missing = (err.name or "").partition(".")[0]
        if missing not in EXTRAS:
            raise
        extra = EXTRAS[missing]
        raise LookupError(
            f"{missing} is not installed; install the {extra} extra: pip install -e '.[{extra}]'"
        ) from None


def require_window() -> None:
    """Raise LookupError, saying what to do instead, without pyglet (the view extra) or a screen for a window."""
    load("pyglet")  # the package loads without a screen; its window module opens one as it loads
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        raise LookupError("no display for a window; use xvfb-run, or `pyramid run SCENE --picture --video gif`")


def require_display(option: str) -> None:
    """ValueError naming ``option`` when PyBullet's own window is asked for on a Linux machine without a display."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise ValueError(
            f"{option}: PyBullet's window needs a display and DISPLAY is not set; leave out {option} "
            "(everything else runs headless), or run under xvfb-run"
        )
