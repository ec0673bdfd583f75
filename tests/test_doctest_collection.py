"""The suite collects every module's doctests (``--doctest-modules``), and with no display a module that opens
one as it loads cannot be imported: pyglet's ``pyglet.window`` makes a hidden window at import. Such modules,
and every module that loads one at its top, must be in the ``--ignore`` list of ``addopts``; otherwise their
collection fails with no display and leaves pyglet half loaded for the window tests after it."""

from __future__ import annotations

import ast
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
OPENS_A_DISPLAY = ("pyglet.window", "pyglet.gl", "pyglet.app")


def _top_level_imports(path: Path) -> set[str]:
    """The modules ``path`` imports at its top (not inside functions, nor under ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Try):  # an optional extra: try: import x / except ModuleNotFoundError
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
                    out.add(inner.module)
                elif isinstance(inner, ast.Import):
                    out.update(alias.name for alias in inner.names)
    return out


def _modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "pyramid").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _open_a_display(modules: dict[str, Path]) -> set[str]:
    """The project's modules whose import opens a display, directly or through another project module."""
    imports = {name: _top_level_imports(path) for name, path in modules.items()}
    opening = {n for n, names in imports.items() if any(i.startswith(OPENS_A_DISPLAY) for i in names)}
    grew = True
    while grew:
        more = {n for n, names in imports.items() if n not in opening and names & opening}
        opening |= more
        grew = bool(more)
    return opening


def test_every_module_that_opens_a_display_at_import_is_kept_out_of_doctest_collection() -> None:
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    ignored = {arg.removeprefix("--ignore=") for arg in shlex.split(addopts) if arg.startswith("--ignore=")}
    modules = _modules()
    opening = _open_a_display(modules)
    assert "pyramid.ui.viewer" in opening  # the window itself: the check finds what it is for
    missing = sorted(
        str(modules[name].relative_to(ROOT))
        for name in opening
        if str(modules[name].relative_to(ROOT)) not in ignored
        and not any(str(modules[name].relative_to(ROOT)).startswith(folder.rstrip("/") + "/") for folder in ignored)
    )
    assert not missing, f"add to addopts' --ignore list (they open a display as they load): {missing}"
