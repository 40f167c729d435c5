"""``make bench-check``'s verdict (``bench.judge``): a ratio past twice its goal fails the check.

The guard in CI is only as good as this judgement: these tests make sure a bad ratio makes the
check fail (exit 1) and says which measure and figures, and that a check that measured
nothing does not pass.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

# The benchmarks live at the repository's root, beside tests/ (not in the installed package).
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.judge import MARGIN, Measure, decided, exit_code, failures, judge  # noqa: E402


def _measure(*rounds: float, goal: float = 1.2) -> Measure:
    return Measure("replay CPU per file, last vs first tenth", rounds, goal, "8.8 vs 16.8 ms")


def test_a_ratio_past_twice_its_goal_fails_the_check() -> None:
    # The commander look-up that walked every unit: the day's cost per event went x4.
    verdict = judge(_measure(3.9, 4.1, 4.0, goal=1.21))
    assert verdict.failed and not verdict.met
    assert verdict.ratio == 4.0
    assert verdict.limit == pytest.approx(2.42)
    assert exit_code([verdict]) == 1
    line = verdict.line()
    assert "replay CPU per file" in line and "8.8 vs 16.8 ms" in line
    assert "4.00" in line and "2.42" in line and "FAILED" in line


def test_one_bad_measure_among_good_ones_fails_the_check() -> None:
    good = judge(_measure(1.0, 1.1, 0.9))
    bad = judge(_measure(2.5, 2.6, 2.7))
    assert exit_code([good, bad]) == 1
    assert failures([good, bad]) == [bad]


def test_the_median_of_the_rounds_is_judged_not_the_best_round() -> None:
    # One quiet round below the limit does not hide two rounds past it.
    verdict = judge(_measure(1.0, 3.0, 3.1))
    assert verdict.ratio == 3.0 and verdict.failed
    # One disturbed round past it does not fail two good ones.
    verdict = judge(_measure(1.1, 1.15, 9.0))
    assert verdict.met and not verdict.failed


def test_within_the_margin_is_not_met_but_passes() -> None:
    verdict = judge(_measure(1.5, 1.6, 1.7))
    assert not verdict.met and not verdict.failed
    assert exit_code([verdict]) == 0
    assert judge(_measure(1.2 * MARGIN)).failed is False  # at the limit itself: passes
    assert judge(_measure(1.2 * MARGIN * 1.01)).failed


def test_nothing_measured_or_an_impossible_figure_does_not_pass() -> None:
    assert exit_code([]) == 1
    assert judge(_measure(math.nan)).failed
    assert judge(_measure(math.inf)).failed
    with pytest.raises(ValueError):
        judge(_measure())


def test_a_check_stops_early_only_when_its_failure_is_decided() -> None:
    # Two of three planned rounds past the limit (2.42): the median will be past it.
    assert decided([4.0, 3.9], goal=1.21, planned=3)
    assert judge(_measure(4.0, 3.9, goal=1.21)).failed
    # One round past it, or two within it, decides nothing.
    assert not decided([4.0], goal=1.21, planned=3)
    assert not decided([4.0, 1.0], goal=1.21, planned=3)
    assert not decided([1.0, 1.1], goal=1.21, planned=3)


def test_bench_help_explains_and_runs_nothing() -> None:
    """``python -m bench --help`` prints what the benchmarks are and how to run one, at once
    (without it every benchmark ran, minutes of work, before the help was looked at)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "bench", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert "python -m bench NAME" in done.stdout and "## bench." not in done.stdout
