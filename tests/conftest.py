"""The suite's options: ``--jitter S`` runs every world nudged by seed S (``Physics.jitter``).

A physical test asserts what survives a nudge of its start by a hair (1e-9 m, 1e-9 rad), as another
machine's rounding would give: run the physics tests under several seeds, e.g.
``pytest tests/test_actions.py --jitter 3``.
"""

from __future__ import annotations

import os

import pytest

JITTERS = (1, 2, 3, 4, 5)  # the seeds the jittered tests of the default suite run under


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--jitter",
        type=int,
        default=None,
        metavar="S",
        help="nudge every die put into a world by a seeded hair (seed S): the physics tests must still pass",
    )


def pytest_configure(config: pytest.Config) -> None:
    seed = config.getoption("--jitter")
    if seed is not None:
        if seed < 0:
            raise pytest.UsageError(f"--jitter takes a seed >= 0, got {seed}")
        os.environ["PYRAMID_JITTER"] = str(seed)


@pytest.fixture(params=JITTERS, ids=[f"jitter{s}" for s in JITTERS])
def jitter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Run the test once per seed in JITTERS, every world in it nudged by that seed."""
    seed = int(request.param)
    monkeypatch.setenv("PYRAMID_JITTER", str(seed))
    return seed
