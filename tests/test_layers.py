"""The layers contract in pyproject.toml names every part of the package (``lint-imports``, in the README's test
command and so in CI, checks that it holds), and CI runs the README's test command."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def contracts() -> list[dict[str, object]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def layered_modules() -> list[str]:
    """Every module the layers contract names, in order, top to bottom."""
    (layers,) = [c["layers"] for c in contracts() if c["type"] == "layers"]
    assert isinstance(layers, list)
    return [name.strip() for layer in layers for name in re.split(r"[|:]", layer)]


def package_parts() -> set[str]:
    """The modules and subpackages directly under pyramid/."""
    package = ROOT / "pyramid"
    modules = {f"pyramid.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    packages = {f"pyramid.{p.parent.name}" for p in package.glob("*/__init__.py")}
    return modules | packages


def test_every_part_of_the_package_has_a_layer() -> None:
    named = layered_modules()
    assert len(named) == len(set(named)), "a module is named in two layers"
    # Data folders (the shipped scenes) hold no Python and so are no layer.
    assert set(named) == package_parts()


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```\n(python3 -m venv .*?)\n```", readme)
    assert len(commands) >= 2, "the README opens with two commands"
    assert commands[1] in (ROOT / ".ci" / "run").read_text()
