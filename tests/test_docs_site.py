"""The documentation site (mkdocs.yml): every page of docs/ is in its navigation, the links the pages write for a
clone lead to the same pages on the site (mkdocs_hooks.py), and ``mkdocs build --strict`` passes where the docs
extra is installed (CI installs it). The pages' examples run in test_readme.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import mkdocs_hooks  # noqa: E402 - at the top of the clone, beside mkdocs.yml

DOCS = ROOT / "docs"


def test_every_page_is_in_the_navigation() -> None:
    listed = set(re.findall(r"([\w/-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), flags=re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")} | {mkdocs_hooks.HOME}
    # Pages of the clone outside docs/ that a page links to (CHANGELOG.md) are on the site too.
    linked = mkdocs_hooks.outside_files([ROOT / "README.md", *DOCS.rglob("*.md")])
    assert listed == pages | {mkdocs_hooks.site_path(f) for f in linked if f.suffix == ".md"}


def test_the_readme_is_home_and_its_links_point_into_the_site() -> None:
    readme = "![the demo](docs/pyramid.png) [playing](docs/playing.md#the-lattice-and-the-notation) [up](#top)"
    assert mkdocs_hooks.rewrite_links(readme, "index.md") == (
        "![the demo](pyramid.png) [playing](playing.md#the-lattice-and-the-notation) [up](#top)"
    )


def test_links_from_the_pages_reach_the_home_page_and_files_outside_docs() -> None:
    page = "[Back](../../README.md) [tour](../../README.md#a-short-tour) [lock](../../requirements-lock.txt)"
    assert mkdocs_hooks.rewrite_links(page, "studies/fair-die.md") == (
        "[Back](../index.md) [tour](../index.md#a-short-tour) [lock](../repo/requirements-lock.txt)"
    )
    assert mkdocs_hooks.rewrite_links("[p](physics.md) [w](https://example.org/a.md)", "playing.md") == (
        "[p](physics.md) [w](https://example.org/a.md)"
    )
    code = "```\n[in code](../README.md)\n```\n"
    assert mkdocs_hooks.rewrite_links(code, "playing.md") == code


def test_the_files_outside_docs_that_pages_link_to_are_found() -> None:
    found = mkdocs_hooks.outside_files([ROOT / "README.md", *DOCS.rglob("*.md")])
    assert all(not f.is_relative_to(DOCS) and f != ROOT / "README.md" for f in found)
    assert all(mkdocs_hooks.site_path(f) == f"repo/{f.relative_to(ROOT).as_posix()}" for f in found)


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[docs]')")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)]
    quiet = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's notice of its successor, not a warning
    done = subprocess.run(command, capture_output=True, text=True, env=quiet, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    home = (tmp_path / "index.html").read_text()
    assert "Set everything up and run the main job" in home and 'href="playing/' in home
    world = (tmp_path / "api" / "world" / "index.html").read_text()
    assert 'id="pyramid.physics.world.World.settle"' in world, "the API reference is made from the docstrings"
