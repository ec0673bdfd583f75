"""Experiments run the table dice games in bulk: one row per seeded game, the same rows for the same seeds."""

from __future__ import annotations

from pathlib import Path

from pyramid.lab.experiments import Plan, read_rows, run_experiment


def test_decathlon_games_in_bulk_are_rows_reproducible_from_their_seeds(tmp_path: Path) -> None:
    spec = {"table_game": "decathlon", "players": ["optimal", "random"], "fast": True, "options": {}}
    plan = Plan(spec, {}, 4)
    rows = {}
    for name in ("a", "b"):
        run_experiment(plan, tmp_path / name, workers=1, plots=False)
        rows[name] = sorted(read_rows(tmp_path / name / "rows.jsonl"), key=lambda r: r["seed"])
    assert len(rows["a"]) == 4
    strip = [{k: v for k, v in r.items() if "time" not in k and "wall" not in k} for r in rows["a"]]
    assert strip == [{k: v for k, v in r.items() if "time" not in k and "wall" not in k} for r in rows["b"]]
    # The optimal player outscores the random one in almost every Decathlon.
    assert sum(r["measures"]["score.0"] > r["measures"]["score.1"] for r in rows["a"]) >= 3
