"""The suite's options: ``--jitter S`` runs every world nudged by seed S (``Physics.jitter``).

A physical test asserts what survives a nudge of its start by a hair (1e-9 m, 1e-9 rad), as another
machine's rounding would give: run the physics tests under several seeds, e.g.
``pytest tests/test_actions.py --jitter 3``.

Every test closes the windows it left open (``windows_closed``), and every test module leaves pyglet as it
found it (``pyglet_as_found``): the pyglet it loaded is unloaded, so that the next module's windows open on
the screen named then.
"""

from __future__ import annotations

import copy
import gc
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

JITTERS = (1, 2, 3, 4, 5)  # the seeds the jittered tests of the default suite run under


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--jitter",
        type=int,
        default=None,
        metavar="S",
        help="nudge every die put into a world by a seeded hair (seed S): the physics tests must still pass",
    )


def pytest_configure(config: pytest.Config) -> None:
    seed = config.getoption("--jitter")
    if seed is not None:
        if seed < 0:
            raise pytest.UsageError(f"--jitter takes a seed >= 0, got {seed}")
        os.environ["PYRAMID_JITTER"] = str(seed)


@pytest.fixture(params=JITTERS, ids=[f"jitter{s}" for s in JITTERS])
def jitter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Run the test once per seed in JITTERS, every world in it nudged by that seed."""
    seed = int(request.param)
    monkeypatch.setenv("PYRAMID_JITTER", str(seed))
    return seed


def _refers_to(module: ModuleType, gone: set[str]) -> bool:
    """Whether ``module`` holds a module in ``gone``, or a class or function defined in one."""
    for value in list(vars(module).values()):
        if isinstance(value, ModuleType):
            if value.__name__ in gone:
                return True
        elif getattr(value, "__module__", None) in gone:
            return True
    return False


def _close_windows() -> None:
    app = sys.modules.get("pyglet.app")
    for window in list(getattr(app, "windows", ())):
        window.close()
    gc.collect()  # the closed windows' GL objects go while their pyglet is still the one loaded


@pytest.fixture(autouse=True)
def windows_closed() -> Iterator[None]:
    """After each test: every pyglet window it left open closed."""
    yield
    _close_windows()


@pytest.fixture(autouse=True, scope="module")
def pyglet_as_found() -> Iterator[None]:
    """After each test module: pyglet as it was before it.

    pyglet's window module opens the display named as it loads and keeps it: a window opened by one module's
    test (the Gymnasium human mode, on xvfb-run's screen) would leave the next module's windows on that screen,
    not on its own (the window tests start a private Xvfb). So the pyglet modules the module's tests loaded,
    and the modules that hold them (``pyramid.ui.viewer`` and those that import it), are unloaded again,
    pyglet's lazy modules reset and its options (headless or not) restored. Once a module, not once a test:
    the tests of one module share one pyglet, on one screen. What cannot be unloaded is the GL library pyglet
    opened: a test that draws the window's look with no display (headless, EGL) must do it in a process of its
    own (as tests/test_film.py does), or a later module's window draws nothing on its Xvfb screen.
    """
    _lazy_modules_as_loaded()
    before = set(sys.modules)
    pyglet = sys.modules.get("pyglet")
    names: dict[str, Any] = dict(vars(pyglet)) if pyglet is not None else {}
    options = copy.copy(pyglet.options) if pyglet is not None else None
    yield
    _close_windows()
    new = [name for name in sys.modules if name not in before]
    gone = {name for name in new if name == "pyglet" or name.startswith("pyglet.")}
    if not gone:
        _lazy_modules_as_loaded()
        return
    grew = True
    while grew:  # the modules that hold pyglet's, and those that hold theirs
        held = {name for name in new if name not in gone and _refers_to(sys.modules[name], gone)}
        gone |= held
        grew = bool(held)
    for name in gone:
        del sys.modules[name]
    if pyglet is not None:
        namespace = vars(pyglet)
        for key in set(namespace) - set(names):
            del namespace[key]
        namespace.update(names)
        for key, value in names.items():
            if type(value).__name__ == "_ModuleProxy" and f"pyglet.{key}" in gone:
                # A new proxy, which loads its module afresh when next used. The old one stays bound to the
                # unloaded module: the unloaded modules hold it (``pyglet.gl.base`` uses ``pyglet.gl`` through
                # it), and their GL objects deleted later, in another module, must not load pyglet again.
                namespace[key] = type(value)(key)
        vars(pyglet.options).update(vars(options))  # headless or not, as it was
    gc.collect()  # the GL objects only the unloaded modules held go now, through the old proxies
    _lazy_modules_as_loaded()


def _lazy_modules_as_loaded() -> None:
    """pyglet's lazy modules (``pyglet.gl`` and the like) point to what ``sys.modules`` holds, or load afresh.

    A window object of an unloaded pyglet, deleted in a later module, can load one of them through the lazy
    proxy; when that load fails midway (no display) the proxy keeps the half-made module, which is in no
    ``sys.modules``, and the next module's windows are made of two pyglets ("Canvas must be an instance of
    XlibCanvas"). Checked before and after each module.
    """
    pyglet = sys.modules.get("pyglet")
    if pyglet is None:
        return
    proxy = getattr(pyglet, "_ModuleProxy", None)
    namespace = vars(pyglet)
    for key, value in list(namespace.items()):
        loaded = sys.modules.get(f"pyglet.{key}")
        if type(value).__name__ == "_ModuleProxy":
            if value.__dict__.get("_module") not in (None, loaded):
                value.__dict__.pop("_module")
        elif isinstance(value, ModuleType) and value.__name__ == f"pyglet.{key}" and value is not loaded:
            if proxy is not None:
                namespace[key] = proxy(key)


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private Xvfb screen for a module of window tests; they skip where Xvfb is missing."""
    if shutil.which("Xvfb") is None:
        pytest.skip("the window tests need a virtual screen, and Xvfb is not installed: apt-get install xvfb xdotool")
    # Each pytest-xdist worker takes its own range of screen numbers, so that two workers never start the same one.
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    first = 91 + 40 * worker
    number = next(n for n in range(first, first + 40) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{number}"
    yield f":{number}"
    if old is None:
        del os.environ["DISPLAY"]
    else:
        os.environ["DISPLAY"] = old
    server.terminate()
    server.wait(5)
