"""The README's Python examples run as written (its ``>>>`` examples are doctests, run by pytest itself)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    return [b for b in blocks if ">>>" not in b]


def test_the_readme_has_a_script_example() -> None:
    assert python_blocks(), "the README should show the API as a script"


@pytest.mark.parametrize("block", python_blocks())
def test_a_readme_script_runs_as_written(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(block, str(README), "exec"), {"__name__": "readme_example"})
    assert capsys.readouterr().out.strip()  # it prints its read-out


def test_the_readme_counts_the_games_the_registry_plays() -> None:
    from pyramid.registry import NOT_YET, numbered

    text = " ".join(README.read_text().split())
    played = re.search(r"(?:all )?(\d+) of the rule book's (?:57 )?games played", text)
    assert played, "the README's opening names how many games are played"
    assert int(played.group(1)) == len(numbered())
    missing = re.search(r"the other (\d+) (?:is|are) named in `pyramid.registry.NOT_YET`", text)
    assert (int(missing.group(1)) if missing else 0) == len(NOT_YET)
