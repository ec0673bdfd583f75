"""Square cuboids thrown in the simulation against a published experiment: how often they land on a square face.

For each side ratio r of the Mathematical Gazette's Table 1 (note 97.16, 2013: 15 steel cuboids, 275 to
1011 throws each; ``pyramid.lab.published``), the shipped scene ``long_dice`` throws a die of box
``physics.proportions = [1, 1, r]`` (square faces 3 and 4) from 10 cm onto the wooden table, ``--throws``
times with seeds 0..N-1, through ``pyramid experiment`` (its progress bar, its rows; a stopped study resumes
where it stopped). Then a table: the published share with its Wilson 95% interval, the simulated one with
its own, whether the published share lies in the simulation's interval (the criterion the study is judged by), Fisher's
exact test of the two samples, and "agree" when it finds no difference at the 5% level.

    nice -n 10 .venv/bin/python examples/cuboid_study.py --throws 1000 --workers 1 --plot cuboid_study.png

The full study (15 ratios x 1000 throws) is for a free core: about 1.5 to 2 h on one (15,000 throws at
0.37 s each, measured with --throws 20 on two ratios, 40 throws in 15 s under nice while two soaks held
both cores; an idle core should be faster; --workers 2 halves it). A quick check that it runs (30 s):

    nice -n 10 .venv/bin/python examples/cuboid_study.py --throws 20 --ratios 0.47,2.65 --workers 1
    .venv/bin/python examples/cuboid_study.py --throws 20 --ratios 0.47,2.65 --report   # the table again, no runs

``--set physics.die_shape=hull --set physics.hull_segments=2`` throws rounded dice (docs/studies/real-dice.md);
give such a run its own ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyramid.cli.app import main as pyramid
from pyramid.lab.experiments import read_rows
from pyramid.lab.published import CUBOID, Comparison, CuboidPoint, compare, find_point

SCENE = "long_dice"
SQUARE_FACES = (3, 4)  # faces along the box's third axis: the square ends of a [1, 1, r] die


def count_square(rows: Sequence[dict[str, Any]]) -> dict[float, tuple[int, int, int]]:
    """Per ratio: (throws landed on a square face, throws read, throws left out: an error, cocked or off the table)."""
    counts: dict[float, list[int]] = {}
    for row in rows:
        ratio = round(float(row["params"]["physics.proportions"][2]), 4)
        tally = counts.setdefault(ratio, [0, 0, 0])
        top = None if row["error"] else row["measures"].get("thrown.0.top")
        if top is None:
            tally[2] += 1
            continue
        tally[0] += top in SQUARE_FACES
        tally[1] += 1
    return {ratio: (square, read, left) for ratio, (square, read, left) in sorted(counts.items())}


def comparisons(points: Sequence[CuboidPoint], counts: dict[float, tuple[int, int, int]]) -> list[Comparison]:
    """Each published point that has simulated throws, compared with them."""
    out = []
    for point in points:
        square, read, _ = counts.get(round(point.ratio, 4), (0, 0, 0))
        if read:
            out.append(compare(point, square, read))
    return out


def table(found: Sequence[Comparison], counts: dict[float, tuple[int, int, int]]) -> str:
    """The comparison as lines: ratio, published and simulated share with intervals, the two verdicts."""
    lines = [
        f"{'x/y':>5}  {'published p [95% CI]':<22} {'N':>5}  {'simulated p [95% CI]':<22} {'n':>5} {'left':>4}  "
        f"{'in sim CI':<9} {'Fisher p':>8}  agree",
    ]
    for c in found:
        left = counts[round(c.point.ratio, 4)][2]
        lines.append(
            f"{c.point.ratio:5.2f}  {c.published!s:<22} {c.point.throws:5d}  {c.simulated!s:<22} "
            f"{counts[round(c.point.ratio, 4)][1]:5d} {left:4d}  {'yes' if c.inside else 'no':<9} "
            f"{c.p_value:8.2g}  {'yes' if c.agrees else 'NO'}"
        )
    differ = sum(not c.agrees for c in found)
    lines.append(
        f"{differ} of {len(found)} ratios differ at the 5% level ({0.05 * len(found):.1f} expected by chance alone "
        f"if the simulation were right); the published share lies in the simulation's interval at "
        f"{sum(c.inside for c in found)} of {len(found)}"
    )
    return "\n".join(lines)


def plot(found: Sequence[Comparison], path: Path) -> Path:
    """Published and simulated shares against the ratio, with their intervals, on a log scale of the share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, pick, shift, marker in (
        ("published (Math. Gazette 97.16, steel)", lambda c: c.published, -0.008, "o"),
        ("simulated (long_dice, 10 cm throws)", lambda c: c.simulated, 0.008, "s"),
    ):
        xs = [c.point.ratio + shift for c in found]
        ys = [pick(c).share for c in found]
        below = [pick(c).share - pick(c).low for c in found]
        above = [pick(c).high - pick(c).share for c in found]
        ax.errorbar(xs, ys, yerr=[below, above], fmt=marker, capsize=3, label=label)
    ax.set_yscale("symlog", linthresh=0.001)
    ax.set_xlabel("x / y (edge across the square faces / side of the square)")
    ax.set_ylabel("share landing on a square face")
    ax.axvline(1.0, color="grey", lw=0.5)
    ax.legend()
    ax.set_title("Square cuboids: published throws against the simulation (Wilson 95%)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def ratios_arg(text: str) -> list[CuboidPoint]:
    """``0.47,2.65`` -> the published points of those ratios."""
    try:
        return [find_point(float(part)) for part in text.split(",") if part.strip()]
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--throws", type=int, default=1000, help="throws per ratio (seeds 0..N-1; default 1000)")
    parser.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--ratios", type=ratios_arg, default=list(CUBOID), help="published ratios to run, e.g. 0.47,2.65 (default all)"
    )
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="experiment folder (default experiments/cuboid_study_N)")
    parser.add_argument("--report", action="store_true", help="only read the folder's rows and print the table")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting for every throw, as pyramid experiment's (e.g. physics.die_shape=hull); repeatable",
    )
    parser.add_argument("--plot", type=Path, default=None, help="also draw the comparison into this PNG")
    args = parser.parse_args(argv)
    if args.throws < 1:
        parser.error(f"--throws must be at least 1, got {args.throws}")
    out = args.out or Path("experiments") / f"cuboid_study_{args.throws}"
    if not args.report:
        sweep = ",".join(f"[1,1,{p.ratio}]" for p in args.ratios)
        code = pyramid(
            [
                "experiment",
                SCENE,
                "--vary",
                f"physics.proportions={sweep}",
                "--seeds",
                str(args.throws),
                "--first-seed",
                str(args.first_seed),
                "--workers",
                str(args.workers),
                "--out",
                str(out),
                *[arg for setting in args.set for arg in ("--set", setting)],
            ]
        )
        if code:
            return code
    rows_file = out / "rows.jsonl"
    if not rows_file.exists():
        print(f"cuboid_study: no rows in {out} (run without --report first)", file=sys.stderr)
        return 2
    counts = count_square(read_rows(rows_file))
    found = comparisons(args.ratios, counts)
    print(table(found, counts))
    if args.plot is not None and found:
        print(f"wrote {plot(found, args.plot)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
