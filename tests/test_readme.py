"""The README's and docs/'s Python examples run as written (their ``>>>`` examples are doctests, run by pytest
itself), and every link to a local file (and heading) in them resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
# Examples that need an optional extra run where it is installed and are skipped where it is not.
# Each module such an example imports: (the module it needs, the extra that installs it).
EXTRAS = {
    "gymnasium": ("gymnasium", "gymnasium"),
    "pyramid.gymnasium": ("gymnasium", "gymnasium"),
    "pyspiel": ("pyspiel", "openspiel"),
    "pyramid.openspiel": ("pyspiel", "openspiel"),
    "pettingzoo": ("pettingzoo", "pettingzoo"),
    "pyramid.pettingzoo": ("pettingzoo", "pettingzoo"),
}


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else page.name


def python_blocks(page: Path) -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)
    return [b for b in blocks if ">>>" not in b]


SCRIPTS = [
    pytest.param(page, block, id=f"{name(page)}-{n}") for page in PAGES for n, block in enumerate(python_blocks(page))
]


def test_the_readme_has_a_script_example() -> None:
    assert python_blocks(README), "the README should show the API as a script"


def test_the_docs_have_pages() -> None:
    assert len(PAGES) > 5, "the docs/ pages should be found (docs/*.md)"


@pytest.mark.parametrize(("page", "block"), SCRIPTS)
def test_a_script_runs_as_written(page: Path, block: str, capsys: pytest.CaptureFixture[str]) -> None:
    for imported in re.findall(r"^(?:import|from) ([\w.]+)", block, flags=re.M):
        if imported in EXTRAS:
            module, extra = EXTRAS[imported]
            pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[{extra}]')")
    exec(compile(block, str(page), "exec"), {"__name__": "readme_example"})
    assert capsys.readouterr().out.strip()  # it prints its read-out


def test_the_readme_counts_the_games_the_registry_plays() -> None:
    from pyramid.registry import NOT_YET, numbered

    text = " ".join(README.read_text().split())
    played = re.search(r"(?:all )?(\d+) of the rule book's (?:57 )?games played", text)
    assert played, "the README's opening names how many games are played"
    assert int(played.group(1)) == len(numbered())
    missing = re.search(r"the other (\d+) (?:is|are) named in `pyramid.registry.NOT_YET`", text)
    assert (int(missing.group(1)) if missing else 0) == len(NOT_YET)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    prose = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {anchor(h) for h in re.findall(r"^#+ (.*)$", prose, flags=re.M)}


def local_links(page: Path) -> list[str]:
    """The targets of the page's links and images that are not web addresses (code blocks left out)."""
    prose = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    targets = re.findall(r"\]\(([^)\s]+)\)", prose)
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in local_links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {name(file)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_local_link_resolves(page: Path) -> None:
    assert not broken_links(page), f"{name(page)} links to what is not there"


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading, with `code`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md) [ok](there.md#a-heading-with-code) ![gone](gone.png) [web](https://example.org/x.png)\n"
        "[bad](there.md#nowhere)\n```\n[in code](ignored.md)\n```\n"
    )
    assert broken_links(page) == ["gone.png: no such file", "there.md#nowhere: no heading #nowhere in there.md"]


def demo_lines() -> list[str]:
    """The README's demo output: its first code block after the heading "What the demo shows"."""
    text = README.read_text()
    block = re.search(r"## What the demo shows\s+```\n(.*?)```", text, flags=re.S)
    assert block, "the README shows the demo's output under 'What the demo shows'"
    return block.group(1).splitlines()


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` reads as ``shown``, line by line in order: ``...`` stands for any text, and a
    line of only ``...`` for any number of lines; the wall times (``(0.59 s wall)``) may differ."""
    pattern = ""
    for line in shown:
        if line.strip() == "...":
            pattern += r"(?:.*\n)*?"
            continue
        parts = [re.escape(p) for p in re.sub(r"\d+\.\d+ s wall", "... s wall", line).split("...")]
        pattern += ".*?".join(parts) + r"\n"
    return re.fullmatch(pattern + r"(?:.*\n)*", "\n".join(printed) + "\n") is not None


def test_the_readme_shows_only_what_the_demo_prints(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from pyramid.cli import app as cli

    # Drawn in software: an OpenGL picture drawn in this process would load pyglet headless (the lines are the same).
    assert cli.main(["demo", "--seed", "1", "--renderer", "software"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = demo_lines()
    assert matches(shown, printed), "\n".join(printed)
    # The match is strict where it must be: another seed or a changed face reads differently.
    assert not matches([line.replace("die 180", "die 181") for line in shown], printed)
    assert not matches(shown[:1] + ["threw 4 dice at it; ..."], printed)
