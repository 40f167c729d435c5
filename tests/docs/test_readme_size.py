"""Issue 31: "A README a newcomer reads in five minutes (under about 200 lines: what it is, the
two commands, a referee's day, the API in one example, where the docs are)"; the measurement
tables live in docs/performance.md, one summary table stays in the README."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
MOST_LINES = 200


def test_the_readme_stays_a_five_minute_read() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MOST_LINES, f"README.md has {len(lines)} lines: move detail to docs/"
    headings = [line for line in lines if line.startswith("## ")]
    for wanted in ("## The two commands", "## A referee's day", "## Where the docs are"):
        assert wanted in headings
    assert sum(line.startswith("<!-- bench-summary:begin") for line in lines) == 1
