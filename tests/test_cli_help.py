"""What the command line teaches: the players of `play`, the picture flags of `run`, rules cards, the progress bar."""

from __future__ import annotations

import re
import tomllib
from io import StringIO
from pathlib import Path

import pytest

from pyramid.agents.seats import BOARD_PLAYERS, SKILL_PLAYERS, TABLE_PLAYERS
from pyramid.cli import app as cli
from pyramid.cli.experiment import Progress

ROOT = Path(__file__).resolve().parents[1]


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    return capsys.readouterr().out


def test_play_help_lists_every_kind_of_player(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help("play", capsys)
    for table in (BOARD_PLAYERS, SKILL_PLAYERS, TABLE_PLAYERS):
        for kind in table:
            assert re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", text), f"{kind} is not in pyramid play --help"
    assert "mcts:N" in text and "--picture FILE.png" in text


def test_run_has_one_pictures_flag_and_its_renderer_is_refused_alone(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help("run", capsys)
    assert "--pictures" in text and not re.search(r"--picture\b(?!s)", text), "only --pictures, never --picture"
    assert "how --pictures and --video are drawn" in text
    assert cli.main(["run", str(ROOT / "scenes/die_throw.toml"), "--renderer", "software"]) == 2
    assert "--renderer software draws --pictures and --video" in capsys.readouterr().err


def test_rules_cards_print_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    for game in ("6", "8", "decathlon", "10"):
        assert cli.main(["rules", game]) == 0
        card = capsys.readouterr().out
        assert "``" not in card and "seeds/" not in card, card[:300]
    assert cli.main(["rules", "6"]) == 0
    assert "(option layers: a smaller pyramid" in capsys.readouterr().out


class _Terminal(StringIO):
    """A terminal of one line: a carriage return goes back to its start, what is written then overwrites."""

    def __init__(self) -> None:
        super().__init__()
        self.line = ""
        self.shown: list[str] = []

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        for part in re.split(r"(\r|\n)", text):
            if part == "\r":
                self.cursor = 0
            elif part == "\n":
                self.line, self.cursor = "", 0
            elif part:
                cursor = getattr(self, "cursor", 0)
                self.line = self.line[:cursor] + part + self.line[cursor + len(part) :]
                self.cursor = cursor + len(part)
                self.shown.append(self.line)
        return len(text)


def test_the_progress_bar_leaves_no_letters_behind_and_a_resumed_run_waits_for_its_own_pace() -> None:
    clock = [0.0]
    terminal = _Terminal()
    bar = Progress(100, done=40, stream=terminal)
    bar._time = lambda: clock[0]  # type: ignore[attr-defined]  # a clock the test moves
    bar.start_t = bar.last_print_t = 0.0
    assert "left" not in terminal.line, "before this session's first run there is no pace to tell"
    for seconds in (12.0, 12.5, 13.0, 30.0, 31.0):
        clock[0] = seconds
        bar.update(1 if seconds < 30 else 20)
        bar.refresh()
    bar.close()
    pattern = r"\[[# ]+\] \d+/100 runs +\d+%  \d+ s(, ~\d+ s left)? *"
    for line in terminal.shown:
        assert re.fullmatch(pattern, line), f"the terminal shows {line!r}"
    assert any(re.search(r"~\d{3} s left", line) for line in terminal.shown)
    assert any(re.search(r", ~\d{1,2} s left *$", line) for line in terminal.shown), "a shorter estimate later"


def test_version_is_written_once_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import pyramid

    with pytest.raises(SystemExit) as exit_code:
        cli.main(["--version"])
    assert exit_code.value.code == 0
    assert capsys.readouterr().out.strip() == f"pyramid {pyramid.__version__}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", pyramid.__version__)
    assert version("pyramid") == pyramid.__version__, "pip install -e . again: the installed version is stale"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" in project["dynamic"] and "version" not in project, "pyproject.toml reads pyramid.__version__"
    assert f"## {pyramid.__version__}" in (ROOT / "CHANGELOG.md").read_text(), "CHANGELOG.md has its section"
