"""``bench.sizes``: the rate of repeated code fails ``make lint`` over 5 pairs per 1,000 lines.

Issue 31: "`duplicates` on the source at or below 5 pairs per 1,000 lines ... measured by a
script in the repository that CI runs."
"""

from __future__ import annotations

import sys
from pathlib import Path

# The benchmarks live at the repository's root, beside tests/ (not in the installed package).
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.sizes import DUPLICATES_LIMIT, duplicates_problem  # noqa: E402


def test_the_limit_is_the_issues_five_per_thousand() -> None:
    assert DUPLICATES_LIMIT == 5.0


def test_at_the_limit_passes_and_one_pair_over_fails() -> None:
    assert duplicates_problem(500, 100_000) is None
    problem = duplicates_problem(501, 100_000)
    assert problem is not None
    assert "5.01 pairs per 1,000 lines, over the limit of 5.0" in problem
    assert "duplicates --most 40" in problem


def test_no_lines_is_no_rate() -> None:
    assert duplicates_problem(0, 0) is None
