"""The summary figure of an experiment: a game's seats on common axes, named by their players; faces as bars."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pyramid.lab.summaries import plot_summary, seat_columns, seat_labels, summarise

matplotlib = pytest.importorskip("matplotlib", reason="the summary figure needs the plots extra")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402


def _game_rows(points: int = 1, seeds: int = 20) -> list[dict[str, Any]]:
    """Rows of a three-seat game: seat 0 wins about two games in three, seat 2 never."""
    rng = np.random.default_rng(1)
    rows = []
    for p in range(points):
        for seed in range(seeds):
            winner = 0 if rng.random() < 0.66 else 1
            scores = {f"score.{n}": float(rng.integers(20, 70)) for n in range(3)}
            wins = {f"win.{n}": n == winner for n in range(3)}
            measures = {**scores, **wins, "turns": 165, "termination": "pyramid_complete"}
            rows.append({"error": None, "point": p, "seed": seed, "params": {"rounds": p + 1}, "measures": measures})
    return rows


def _figure(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The figures ``plot_summary`` saves, kept for a look at their axes."""
    saved: list[Figure] = []
    original = Figure.savefig

    def savefig(self: Figure, *args: Any, **kwargs: Any) -> None:
        saved.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    return saved


def test_seat_columns_come_in_seat_order_and_seats_are_named_by_their_players() -> None:
    assert seat_columns(["win.10", "win.2", "score.0", "wins.1", "win.0"], "win") == ["win.0", "win.2", "win.10"]
    assert seat_labels(3, ["greedy", "random", "random"]) == ["0: greedy", "1: random", "2: random"]
    assert seat_labels(2) == ["seat 0", "seat 1"] and seat_labels(2, ["greedy"]) == ["seat 0", "seat 1"]


def test_a_game_plots_win_rate_and_score_per_seat_with_the_players_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures = _figure(monkeypatch)
    rows = _game_rows()
    summary = summarise(rows, [{}])
    path = plot_summary(rows, summary, tmp_path / "summary.png", "10: 20 runs", players=["greedy", "random", "random"])
    assert path is not None and path.read_bytes()[:4] == b"\x89PNG"
    axes = [ax for ax in figures[0].axes if ax.get_visible()]
    titles = [ax.get_title() for ax in axes]
    assert titles[:2] == ["win rate per seat, 95% CI", "mean score per seat, 95% CI"]
    wins = axes[0]
    assert [t.get_text() for t in wins.get_xticklabels()] == ["0: greedy", "1: random", "2: random"]
    assert wins.get_ylim() == (0.0, 1.0), "a win rate is a share: the axis runs from 0 to 1"
    heights = [bar.get_height() for bar in wins.patches if isinstance(bar, Rectangle)]
    assert heights[2] == 0 and heights[0] > 0.5, "seat 2, which never won, keeps its bar of 0"


def test_a_swept_game_draws_a_line_per_seat_and_a_swept_throw_its_faces_as_bars(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures = _figure(monkeypatch)
    rows = _game_rows(points=2)
    summary = summarise(rows, [{"rounds": 1}, {"rounds": 2}])
    plot_summary(rows, summary, tmp_path / "game.png", players=["greedy", "random", "random"])
    legend = figures[-1].axes[0].get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == ["0: greedy", "1: random", "2: random"]
    # A die thrown from two heights: the faces at rest, a bar per face and height.
    rng = np.random.default_rng(2)
    throws = [
        {"error": None, "point": p, "seed": s, "params": {"throw.height": h}, "measures": {"thrown.0.top": int(f)}}
        for p, h in enumerate((0.01, 0.1))
        for s, f in enumerate(rng.integers(1, 7, size=30))
    ]
    summary = summarise(throws, [{"throw.height": 0.01}, {"throw.height": 0.1}])
    plot_summary(throws, summary, tmp_path / "faces.png")
    faces = next(ax for ax in figures[-1].axes if ax.get_title() == "faces at rest by setting")
    assert len(faces.patches) == 12, "six faces, two heights"
    shares = [bar.get_height() for bar in faces.patches if isinstance(bar, Rectangle)]
    assert sum(shares) == pytest.approx(2.0), "each height's shares add up to 1"
