"""PyBullet, imported and connected without the lines its C code prints ("pybullet build time", "argv[0]=").

Those lines go straight to the process's standard output and error, past Python, and would land in the middle of
the tables and reports the commands print. Everything else in the package gets PyBullet from here.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@contextlib.contextmanager
def c_output_silenced() -> Iterator[None]:
    """Send what C code writes to file descriptors 1 and 2 to the null device while the block runs.

    Python exceptions still rise as usual. Does nothing where the descriptors cannot be duplicated.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = [os.dup(1), os.dup(2)]
    except (OSError, ValueError):
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        _flush_c_stdio()
        for fd, copy in zip((1, 2), saved, strict=True):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(devnull)


def _flush_c_stdio() -> None:
    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(None).fflush(None)


with c_output_silenced():
    import pybullet as pb
    from pybullet_utils.bullet_client import BulletClient as _BulletClient


@dataclass
class EngineTime:
    """What the engine's steps (``stepSimulation``) of every world in this process took while ``engine_time`` ran."""

    seconds: float = 0.0  # wall seconds inside the steps
    steps: int = 0


_clocks: list[EngineTime] = []  # the open ``engine_time`` blocks, innermost last


@contextlib.contextmanager
def engine_time() -> Iterator[EngineTime]:
    """Time the engine's steps while the block runs: the bench's "engine" column, what a row would reach if the
    code around the engine took no time. Blocks may nest; each counts every step made while it is open. The timer
    (two reads of ``time.perf_counter``, about 0.1 us) runs only inside a block."""
    clock = EngineTime()
    _clocks.append(clock)
    try:
        yield clock
    finally:
        _clocks.remove(clock)


def _counted(name: str) -> Callable[..., Any]:
    """PyBullet's function ``name`` as a method of ``BulletClient`` that counts its calls in ``moves``."""
    function = getattr(pb, name)

    def call(self: BulletClient, *args: Any, **kwargs: Any) -> Any:
        self.moves += 1
        return function(*args, physicsClientId=self._client, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class BulletClient(_BulletClient):  # type: ignore[misc]
    """PyBullet's client, whose functions are looked up once: ``pybullet_utils`` makes a new ``functools.partial``
    at every call (inspecting the function each time), a microsecond that a step calling PyBullet twenty times
    pays twenty times. After ``disconnect`` nothing is kept: a call then fails, as with PyBullet's own client.
    Its engine steps are timed inside ``engine_time`` blocks.

    ``moves`` counts the calls that may move a body (a step, a pose set, a body made or removed): a pose read
    while it stayed the same is still the engine's. ``move_plate`` sets the plate's pose uncounted."""

    moves = 0

    def stepSimulation(self) -> Any:  # noqa: N802  (PyBullet's name)
        self.moves += 1
        if not _clocks:
            return pb.stepSimulation(physicsClientId=self._client)
        tick = time.perf_counter()
        try:
            return pb.stepSimulation(physicsClientId=self._client)
        finally:
            took = time.perf_counter() - tick
            for clock in _clocks:
                clock.seconds += took
                clock.steps += 1

    # The calls but the step that may move a body, under PyBullet's names: each counted in ``moves``.
    resetBasePositionAndOrientation = _counted("resetBasePositionAndOrientation")
    createMultiBody = _counted("createMultiBody")
    removeBody = _counted("removeBody")
    resetSimulation = _counted("resetSimulation")
    restoreState = _counted("restoreState")
    loadURDF = _counted("loadURDF")

    def uncounted(self, name: str) -> Any:
        """PyBullet's function ``name`` for this client, not counted in ``moves``: for the plate, whose moves change no
        die's pose."""
        key = f"_uncounted_{name}"
        function = vars(self).get(key)
        if function is None:
            function = functools.partial(getattr(pb, name), physicsClientId=self._client)
            setattr(self, key, function)  # dropped at ``disconnect``, as the others
        return function

    def __getattr__(self, name: str) -> Any:
        attribute = super().__getattr__(name)
        if name == "disconnect":
            for kept in [k for k, v in vars(self).items() if isinstance(v, functools.partial)]:
                delattr(self, kept)
        elif isinstance(attribute, functools.partial):
            setattr(self, name, attribute)
        return attribute


def connect(gui: bool = False) -> BulletClient:
    """A new PyBullet physics server: headless, or PyBullet's own window (which needs a display).

    RuntimeError, instead of PyBullet ending the process, when a window is asked for on a Linux
    machine without a display.
    """
    if gui and sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise RuntimeError(
            "PyBullet's window needs a display and DISPLAY is not set: run headless (no --gui), "
            "or start a virtual one (xvfb-run pyramid ...)"
        )
    with c_output_silenced():
        return BulletClient(connection_mode=pb.GUI if gui else pb.DIRECT)


__all__ = ["BulletClient", "EngineTime", "c_output_silenced", "connect", "engine_time", "pb"]
