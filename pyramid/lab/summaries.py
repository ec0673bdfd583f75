"""Rows of an experiment -> a summary: means with 95% confidence intervals, faces chi-square tested; its text and plot.

Sits after ``experiments`` in the flow: it reads plain rows (dicts with ``point``, ``params``,
``measures`` and ``error``) and knows nothing of how they were run.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

FACE_KEYS = ("top", "start_top")  # columns ending so hold a face 1..6: counted, with a chi-square test
ID_KEYS = ("die", "slot", "key", "point", "seed")  # columns that name things: not summarised
CAUSE_KEYS = ("termination",)  # columns of a word per run (why a game ended): counted, most common first


def plural(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: "1 run", "3 runs", "0 settings"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def is_share(values: Sequence[Any]) -> bool:
    """Whether a measure is a yes/no outcome (booleans): its mean is a share of runs."""
    return len(values) > 0 and all(isinstance(v, bool | np.bool_) for v in values)


def mean_interval(values: Sequence[float], share: bool | None = None) -> dict[str, float]:
    """Mean and its 95% confidence interval: Student's t; Wilson's interval for a share of yes/no outcomes.

    ``share`` None: a share when the values are booleans, or 0 and 1 with both present (a column that is
    0 in every run may be a time or a count, not a share). A constant column that is not a share gets [v, v].
    """
    if share is None:
        share = is_share(values) or (len(set(values)) == 2 and set(map(float, values)) == {0.0, 1.0})
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return {"n": 0, "mean": math.nan, "low": math.nan, "high": math.nan}
    mean = float(x.mean())

    if share:
        wilson = stats.binomtest(round(float(x.sum())), n).proportion_ci(method="wilson")
        # Clipped so that rounding never puts an end on the wrong side of the mean.
        return {"n": n, "mean": mean, "low": min(mean, float(wilson.low)), "high": max(mean, float(wilson.high))}
    if n == 1:
        return {"n": 1, "mean": mean, "low": math.nan, "high": math.nan}
    if np.all(x == x[0]):  # no spread: the interval is the value itself
        return {"n": n, "mean": mean, "low": mean, "high": mean}
    # Student's t quantile times the standard error, in this order (stats.t.interval's low end
    # comes out one unit in the last place away, from its 0.025 = (1 - 0.95) / 2).
    half = float(stats.t.ppf(0.975, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half}


def chi_square_uniform(counts: Sequence[int]) -> dict[str, float]:
    """Pearson's chi-square test of ``counts`` against equal probabilities: statistic, degrees of freedom, p."""
    c = np.asarray(counts, dtype=float)
    expected = c.sum() / len(c)
    df = len(c) - 1
    if expected <= 0:
        return {"chi2": math.nan, "df": df, "p": math.nan}
    test = stats.chisquare(c)
    return {"chi2": float(test.statistic), "df": df, "p": float(test.pvalue)}


def _numeric(value: Any) -> bool:
    return isinstance(value, bool | int | float) and not (isinstance(value, float) and math.isnan(value))


def summarise(rows: Sequence[dict[str, Any]], points: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per sweep point (``points``: their settings, in order): each numeric measure's mean with its 95% interval;
    faces counted and chi-square tested."""
    out: dict[str, Any] = {"runs": len(rows), "errors": sum(r["error"] is not None for r in rows), "points": []}
    for p, params in enumerate(points):
        mine = [r for r in rows if r["point"] == p and r["error"] is None]
        entry: dict[str, Any] = {"params": params, "runs": len(mine), "measures": {}, "faces": {}, "causes": {}}
        columns = sorted({k for r in mine for k in r["measures"]})
        for col in columns:
            values = [r["measures"].get(col) for r in mine]
            if _last(col) in ID_KEYS:
                continue
            if _last(col) in CAUSE_KEYS:
                entry["causes"][col] = dict(Counter(str(v) for v in values).most_common())
                continue
            if _last(col) in FACE_KEYS:
                entry["faces"][col] = _face_summary(values)
                continue
            # None is a measure that has no value in that run (the top of a die that rolled away).
            known = [v for v in values if v is not None]
            if known and all(_numeric(v) for v in known):
                interval = mean_interval([float(v) for v in known], share=is_share(known))
                entry["measures"][col] = {**interval, "missing": len(values) - len(known)}
        out["points"].append(entry)
    # Faces pooled over the sweep points; with one point that is the point itself. (The same seeds
    # repeat at every point, so pooled counts of several points are not independent throws.)
    pooled = {}
    for col in sorted({k for r in rows for k in r["measures"] if _last(k) in FACE_KEYS}):
        pooled[col] = _face_summary([r["measures"].get(col) for r in rows if r["error"] is None])
    out["faces_pooled"] = pooled if len(points) == 1 else {}
    return out


def _last(column: str) -> str:
    return column.rsplit(".", 1)[-1]


def _face_summary(values: Sequence[Any]) -> dict[str, Any]:
    counts = [sum(v == f for v in values) for f in range(1, 7)]
    return {"counts": counts, "none": sum(v is None for v in values), **chi_square_uniform(counts)}


def summary_text(summary: dict[str, Any], limit: int = 12) -> str:
    """An experiment's summary as lines for the terminal, a block per sweep point (a run's: ``report_text``)."""
    aside = summary.get("set_aside", 0)
    aside_text = f"; {plural(aside, 'line')} of rows.jsonl set aside (rows.set_aside.jsonl)" if aside else ""
    lines = [f"{plural(summary['runs'], 'run')}, {summary['errors']} with errors{aside_text}"]
    for entry in summary["points"]:
        head = ", ".join(f"{k}={v}" for k, v in entry["params"].items()) or "all runs"
        lines.append(f"{head}  ({plural(entry['runs'], 'run')})")
        for col, m in list(entry["measures"].items())[:limit]:
            missing = f"   ({plural(m['missing'], 'run')} without a value)" if m.get("missing") else ""
            lines.append(f"  {col:<24} {m['mean']:10.4g}   95% CI [{m['low']:.4g}, {m['high']:.4g}]{missing}")
        for col, counts in entry.get("causes", {}).items():
            lines.append(f"  {col:<24} " + ", ".join(f"{word} {n}" for word, n in counts.items()))
        for col, f in entry["faces"].items():
            lines.append(f"  {col:<24} faces 1-6 {f['counts']} none {f['none']}   chi2 {f['chi2']:.2f}, p {f['p']:.3f}")
    for col, f in summary.get("faces_pooled", {}).items():
        lines.append(f"all points: {col} faces 1-6 {f['counts']}  chi2 {f['chi2']:.2f} (df {f['df']}), p {f['p']:.3f}")
    return "\n".join(lines)


# -- plots ------------------------------------------------------------------------------------


# Readable axis labels of common columns; any other column is labelled by its name.
LABELS = {
    "thrown.0.kept_top": "P(the start's top face ends on top)",
    "thrown.0.top": "face up at rest",
    "time_to_rest": "seconds until at rest",
    "at_rest": "share of runs at rest",
    "throw.height": "release height, m (lowest corner)",
    "moved": "dice moved",
    "fallen": "dice fallen out of their slots",
    "faces_total": "faces showing",
}


def _label(column: str) -> str:
    return LABELS.get(column, column)


SEAT_MEASURES = ("win", "score")  # a game's columns per seat, "win.N" and "score.N": one panel each, seats together


def seat_columns(columns: Sequence[str], measure: str) -> list[str]:
    """The columns ``measure``.N of ``columns``, by seat N."""
    found = [c for c in columns if re.fullmatch(rf"{measure}\.\d+", c)]
    return sorted(found, key=lambda c: int(_last(c)))


def seat_labels(count: int, players: Sequence[str] | None = None) -> list[str]:
    """Names of ``count`` seats: "0: greedy", "1: random" when the players are known, else "seat 0", "seat 1"."""
    if players is not None and len(players) == count:
        return [f"{n}: {name}" for n, name in enumerate(players)]
    return [f"seat {n}" for n in range(count)]


def plot_summary(
    rows: Sequence[dict[str, Any]],
    summary: dict[str, Any],
    path: Path,
    title: str | None = None,
    say: Callable[[str], None] | None = None,
    players: Sequence[str] | None = None,
) -> Path | None:
    """A figure of the summary: a game's win rate and score per seat (named by ``players``) on common axes, the
    other measures against the first swept setting (or their spread), the faces at rest as bars.

    Returns None (with a note to ``say``) when matplotlib is not installed: it is the ``plots`` extra.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if say is not None:
            say("no plots: they need matplotlib, pip install 'pyramid[plots]'")
        return None
    points = summary["points"]
    swept = [k for k in (points[0]["params"] if points else {}) if all(_numeric(p["params"][k]) for p in points)]
    along = swept[0] if swept and len(points) > 1 else None
    good = [r for r in rows if r["error"] is None]
    columns = [c for c in (points[0]["measures"] if points else {}) if not c.startswith("thrown.") or "kept" in c]
    # A game's seats: all of them in one panel per measure, even a seat that never won.
    seated = [m for m in SEAT_MEASURES if seat_columns(columns, m)]
    columns = [c for c in columns if not any(c in seat_columns(columns, m) for m in seated)]
    # Leave out measures that came out the same in every run: nothing to see.
    columns = [c for c in columns if len({r["measures"].get(c) for r in good}) > 1]
    pooled = summary.get("faces_pooled", {})
    # The face shown at rest (the start face is the thrower's draw, not the outcome).
    face_column = next((c for c in (points[0]["faces"] if points else {}) if _last(c) == "top"), None)
    panels: list[tuple[str, str]] = [("seats", m) for m in seated]
    panels += [("measure", c) for c in columns[: max(1, 4 - len(seated))]]
    if face_column is not None:
        panels.append(("faces" if face_column in pooled else "faces by setting", face_column))
        if face_column not in pooled and along is not None:
            panels.append(("fairness", face_column))
    if not panels:
        return None
    # One row of up to three panels, else two rows.
    ncols = len(panels) if len(panels) <= 3 else math.ceil(len(panels) / 2)
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 3.8 * nrows + 0.4), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    for ax, (kind, col) in zip(axes.flat, panels, strict=False):
        if kind == "seats":
            _plot_seats(ax, points, seat_columns(list(points[0]["measures"]), col), col, along, players)
        elif kind == "faces by setting":
            _plot_faces_by_setting(ax, points, col, along)
        elif kind == "faces":
            f = pooled[col]
            ax.bar(range(1, 7), f["counts"], color="#b33")
            ax.axhline(sum(f["counts"]) / 6, color="k", lw=1, ls="--", label="fair: 1/6 each")
            ax.set(
                xlabel="face up at rest",
                ylabel="runs",
                title=f"{sum(f['counts'])} runs: chi2 {f['chi2']:.1f}, p {f['p']:.2f}",
            )
            ax.set_ylim(0, 1.3 * max(max(f["counts"]), 1))
            ax.legend(loc="upper right")
        elif kind == "fairness" and along is not None:
            xs = [p["params"][along] for p in points]
            ax.plot(xs, [p["faces"][col]["p"] for p in points], marker="o", color="#b33")
            ax.axhline(0.05, color="k", lw=1, ls="--", label="p = 0.05")
            ax.set(xlabel=_label(along), ylabel="p, chi-square against 1/6 each", title="is the face at rest fair?")
            ax.set_ylim(0, 1)
            ax.legend()
            _log_if_wide(ax, xs)
        elif along is not None:
            present = [p for p in points if col in p["measures"]]
            xs = [p["params"][along] for p in present]
            ms = [p["measures"][col] for p in present]
            mean = np.array([m["mean"] for m in ms])
            err = np.array([[m["mean"] - m["low"] for m in ms], [m["high"] - m["mean"] for m in ms]])
            ax.errorbar(xs, mean, yerr=np.clip(np.nan_to_num(err), 0.0, None), marker="o", capsize=3)
            if col.endswith("kept_top"):
                ax.axhline(1 / 6, color="k", lw=1, ls="--", label="1/6: no memory of the start")
                ax.set_ylim(0, 1)
                ax.legend()
            ax.set(xlabel=_label(along), ylabel=_label(col), title="mean and 95% confidence interval")
            _log_if_wide(ax, xs)
        elif {float(r["measures"][col]) for r in good if _numeric(r["measures"].get(col))} <= {0.0, 1.0}:
            m = points[0]["measures"][col]
            share_err = [[max(0.0, m["mean"] - m["low"])], [max(0.0, m["high"] - m["mean"])]]
            ax.bar([0], [m["mean"]], yerr=share_err, capsize=6, color="#36a", width=0.5)
            if col.endswith("kept_top"):
                ax.axhline(1 / 6, color="k", lw=1, ls="--", label="1/6: no memory of the start")
                ax.legend()
            ax.set(xticks=[], xlim=(-1, 1), ylim=(0, 1), ylabel=_label(col), title=f"{m['mean']:.3f}, 95% CI")
        else:
            values = [float(r["measures"][col]) for r in good if _numeric(r["measures"].get(col))]
            ax.hist(values, bins=min(20, max(1, len(set(values)))), color="#36a")
            ax.set(xlabel=_label(col), ylabel="runs", title="spread over the runs")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_seats(
    ax: Any,
    points: Sequence[dict[str, Any]],
    columns: Sequence[str],
    measure: str,
    along: str | None,
    players: Sequence[str] | None,
) -> None:
    """One measure of every seat on common axes: bars with 95% intervals, or a line per seat along a sweep."""
    labels = seat_labels(len(columns), players)
    what = "win rate" if measure == "win" else "mean score"
    if along is None:
        ms = [points[0]["measures"][c] for c in columns]
        mean = np.array([m["mean"] for m in ms])
        err = np.array([[m["mean"] - m["low"] for m in ms], [m["high"] - m["mean"] for m in ms]])
        ax.bar(range(len(columns)), mean, yerr=np.clip(np.nan_to_num(err), 0.0, None), capsize=6, color="#36a")
        ax.set_xticks(range(len(columns)), labels)
    else:
        for column, label in zip(columns, labels, strict=True):
            present = [p for p in points if column in p["measures"]]
            xs = [p["params"][along] for p in present]
            ms = [p["measures"][column] for p in present]
            mean = np.array([m["mean"] for m in ms])
            err = np.array([[m["mean"] - m["low"] for m in ms], [m["high"] - m["mean"] for m in ms]])
            ax.errorbar(xs, mean, yerr=np.clip(np.nan_to_num(err), 0.0, None), marker="o", capsize=3, label=label)
        ax.set_xlabel(_label(along))
        ax.legend()
        _log_if_wide(ax, [p["params"][along] for p in points])
    if measure == "win":
        ax.axhline(1 / len(columns), color="k", lw=1, ls="--")
        ax.set_ylim(0, 1)
    ax.set(ylabel=what, title=f"{what} per seat, 95% CI")


def _plot_faces_by_setting(ax: Any, points: Sequence[dict[str, Any]], column: str, along: str | None) -> None:
    """The faces at rest as bars, a group per face and a bar per sweep point (shares of its runs)."""
    width = 0.8 / max(1, len(points))
    for n, point in enumerate(points):
        counts = np.array(point["faces"][column]["counts"], dtype=float)
        share = counts / max(1.0, counts.sum())
        label = ", ".join(f"{_last(k)} {v:g}" if _numeric(v) else f"{_last(k)} {v}" for k, v in point["params"].items())
        ax.bar(np.arange(1, 7) - 0.4 + (n + 0.5) * width, share, width, label=label or None)
    ax.axhline(1 / 6, color="k", lw=1, ls="--", label="fair: 1/6 each")
    ax.set(xlabel="face up at rest", ylabel="share of runs", title="faces at rest by setting", xticks=range(1, 7))
    ax.legend(fontsize="small")


def _log_if_wide(ax: Any, xs: Sequence[float]) -> None:
    """A logarithmic axis for settings that span more than a factor of 20."""
    if min(xs) > 0 and max(xs) / min(xs) > 20:
        ax.set_xscale("log")
