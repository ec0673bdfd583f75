"""Each test module leaves pyglet as it found it (conftest's ``pyglet_as_found``), even when a window object of
an unloaded pyglet is deleted later, in another module: its ``__del__`` reaches pyglet's lazy modules, and with
no display such a load fails midway and leaves the lazy proxy holding a half-made module, in no
``sys.modules``. The next module's windows were then made of two pyglets ("Canvas must be an instance of
XlibCanvas", seen after test_viewer and test_camera on one xdist worker)."""

from __future__ import annotations

import sys
import types

import pytest


def test_a_lazy_module_the_proxy_holds_but_sys_modules_does_not_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pyglet = pytest.importorskip("pyglet")
    from conftest import _lazy_modules_as_loaded

    monkeypatch.delitem(sys.modules, "pyglet.gl", raising=False)
    proxy = pyglet._ModuleProxy("gl")
    object.__setattr__(proxy, "_module", types.ModuleType("pyglet.gl"))  # what the failed load left
    monkeypatch.setitem(vars(pyglet), "gl", proxy)
    _lazy_modules_as_loaded()
    assert "_module" not in proxy.__dict__

    monkeypatch.setitem(vars(pyglet), "gl", types.ModuleType("pyglet.gl"))  # an unloaded module, not a proxy
    _lazy_modules_as_loaded()
    assert type(vars(pyglet)["gl"]) is pyglet._ModuleProxy and "_module" not in vars(pyglet)["gl"].__dict__


def test_a_lazy_module_that_is_loaded_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    pyglet = pytest.importorskip("pyglet")
    from conftest import _lazy_modules_as_loaded

    loaded = types.ModuleType("pyglet.gl")
    monkeypatch.setitem(sys.modules, "pyglet.gl", loaded)
    proxy = pyglet._ModuleProxy("gl")
    object.__setattr__(proxy, "_module", loaded)
    monkeypatch.setitem(vars(pyglet), "gl", proxy)
    _lazy_modules_as_loaded()
    assert proxy.__dict__["_module"] is loaded
