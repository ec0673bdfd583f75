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


def test_rows_carry_what_each_table_game_counts(tmp_path: Path) -> None:
    # Knights has no score: its rows carry castles and tournaments per seat, and who won; Sport is
    # murder's rows carry its score (sports x longest chain) and its tie-break (accidents).
    spec = {"table_game": "knights", "players": ["strong", "random"], "fast": True, "options": {}}
    run_experiment(Plan(spec, {}, 3), tmp_path / "knights", workers=1, plots=False)
    for row in read_rows(tmp_path / "knights" / "rows.jsonl"):
        measures = row["measures"]
        assert not any(key.startswith("score.") for key in measures)
        castles = [measures["castles.0"], measures["castles.1"]]
        tournaments = [measures["tournaments.0"], measures["tournaments.1"]]
        winners = [seat for seat in (0, 1) if measures[f"win.{seat}"] is True]
        assert winners and measures["termination"] in ("goal_reached", "turn_limit")
        for seat in winners:  # four castles, two and three tournaments, or three and the king
            assert castles[seat] >= 2 and (castles[seat] >= 3 or tournaments[seat] >= 3)
    spec = {"table_game": "sport-is-murder", "players": ["strong", "random", "random"], "fast": True}
    spec["options"] = {"max-rounds": "12"}
    run_experiment(Plan(spec, {}, 2), tmp_path / "sport", workers=1, plots=False)
    for row in read_rows(tmp_path / "sport" / "rows.jsonl"):
        measures = row["measures"]
        key = [(measures[f"score.{seat}"], measures[f"accidents.{seat}"]) for seat in range(3)]
        assert [measures[f"win.{seat}"] for seat in range(3)] == [k == max(key) for k in key]
        assert measures["termination"] in ("rounds_played", "turn_limit")
