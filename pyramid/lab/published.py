"""Published measurements of thrown dice, as data, to check the simulation against (``docs/studies/published-dice.md``).

Sits beside the experiments: a study (``examples/cuboid_study.py``) runs the scene, counts its rows and compares
them here with a published share, each with its Wilson 95% interval (scipy's, never written by hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from scipy import stats

CONFIDENCE = 0.95  # the intervals of the studies: 95%, Wilson's score interval for a share
ALPHA = 0.05  # a point disagrees when the two samples differ at this level (Fisher's exact test)


@dataclass(frozen=True)
class Source:
    """Where published figures come from, and under which conditions they were measured."""

    key: str
    title: str
    authors: str
    year: int
    url: str
    conditions: str


@dataclass(frozen=True)
class Interval:
    """A share and its confidence interval, all in [0, 1]."""

    share: float
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high

    def __str__(self) -> str:
        return f"{self.share:.3f} [{self.low:.3f}, {self.high:.3f}]"


@dataclass(frozen=True)
class CuboidPoint:
    """One published square cuboid: how often it landed on one of its two square faces.

    ``ratio`` is x / y: the edge across the square faces over the square's side, so the die's box is
    ``Physics(proportions=(1, 1, ratio))`` and its square faces are faces 3 and 4.
    """

    ratio: float
    p_square: float  # the share as printed
    throws: int
    source: str  # a key of SOURCES

    @property
    def landed(self) -> int:
        """Throws that landed on a square face: the printed share times the throws, to the nearest whole throw."""
        return round(self.p_square * self.throws)

    @property
    def proportions(self) -> tuple[float, float, float]:
        """The die's box for ``Physics.proportions``."""
        return (1.0, 1.0, self.ratio)

    def interval(self) -> Interval:
        """The published share with its Wilson interval (from the whole throws it stands for)."""
        return wilson(self.landed, self.throws)


GAZETTE = Source(
    key="gazette-97.16",
    title="97.16 Probability analysis for rolls of a square cuboidal die",
    authors="The Mathematical Gazette 97 (March 2013), note 97.16 (U.S. Naval Academy; the author is not named in "
    "the excerpts read), Table 1, quoting a steel-bar experiment published over 30 years before",
    year=2013,
    url="https://studylib.net/doc/11118377/97.16-probability-analysis-for-rolls-of-a-square-cuboidal...",
    conditions="15 square cuboids cut from a steel bar, each rolled N times by students; die size, throw height "
    "and surface are not stated in the excerpt read",
)

SOURCES: dict[str, Source] = {GAZETTE.key: GAZETTE}

# Table 1 of the Gazette note: x/y, p (a square face lands up; 1/3 for a cube), N throws.
CUBOID: tuple[CuboidPoint, ...] = tuple(
    CuboidPoint(ratio, p, n, GAZETTE.key)
    for ratio, p, n in (
        (0.47, 0.916, 332),
        (0.63, 0.738, 840),
        (0.75, 0.548, 799),
        (0.81, 0.496, 740),
        (0.93, 0.399, 516),
        (0.97, 0.385, 530),
        (1.16, 0.148, 1011),
        (1.23, 0.154, 532),
        (1.44, 0.052, 654),
        (1.55, 0.040, 606),
        (1.60, 0.017, 702),
        (1.71, 0.031, 609),
        (1.87, 0.009, 680),
        (2.12, 0.007, 275),
        (2.65, 0.006, 503),
    )
)


def wilson(successes: int, trials: int) -> Interval:
    """The share ``successes / trials`` and its Wilson score interval at ``CONFIDENCE`` (scipy.stats.binomtest).

    >>> str(wilson(304, 332))
    '0.916 [0.881, 0.941]'
    """
    if trials <= 0:
        raise ValueError(f"a share needs at least one trial, got {trials}")
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return Interval(successes / trials, float(ci.low), float(ci.high))


@dataclass(frozen=True)
class Comparison:
    """A published share against a simulated one, each with its Wilson interval.

    ``inside``: the published share lies within the simulation's interval (the study's criterion; it ignores the
    published sample's own noise, so with a few hundred published throws it fails often by chance alone).
    ``p_value``: Fisher's exact test of the two samples (both counts and both sample sizes); ``agrees`` when it is
    at least ``ALPHA``.
    """

    point: CuboidPoint
    published: Interval
    simulated: Interval
    inside: bool
    p_value: float

    @property
    def agrees(self) -> bool:
        """The two samples do not differ at the level ``ALPHA``."""
        return self.p_value >= ALPHA


def compare(point: CuboidPoint, landed: int, throws: int) -> Comparison:
    """``point`` against ``landed`` of ``throws`` simulated throws that came to rest on a square face."""
    simulated = wilson(landed, throws)
    table = [[point.landed, point.throws - point.landed], [landed, throws - landed]]
    p_value = float(stats.fisher_exact(table).pvalue)
    return Comparison(point, point.interval(), simulated, point.p_square in simulated, p_value)


def find_point(ratio: float) -> CuboidPoint:
    """The published point of ``ratio`` (to 0.005); ValueError naming the published ratios."""
    for point in CUBOID:
        if abs(point.ratio - ratio) < 0.005:
            return point
    raise ValueError(f"no published cuboid of ratio {ratio:g}; published: {', '.join(f'{p.ratio:g}' for p in CUBOID)}")
