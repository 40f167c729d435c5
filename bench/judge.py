"""The verdict of ``make bench-check``: each measure is a ratio taken inside one run, judged
against its goal, and the check fails only when a ratio is past its goal by a wide margin.

Pure: no clock, no I/O. A ratio here is always "lower is better" (the growth of a cost, or
mekref's time over an anchor's), so it fails when it exceeds ``goal * margin``. The margin
(2x by default) leaves room for a busy shared machine, while a change that makes a cost grow
with the campaign (say, a look-up that walks every unit for every formation) lands far past it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

#: A ratio fails the check when it is past this many times its goal.
MARGIN = 2.0


@dataclass(frozen=True)
class Measure:
    """One ratio measured round by round, with what it compares and its goal."""

    name: str
    #: The ratio of each round (both sides of it timed in that round).
    rounds: tuple[float, ...]
    goal: float
    #: The figures behind the ratio, for the reader of a failure (e.g. "800: 1.4 ms/event").
    figures: str


@dataclass(frozen=True)
class Verdict:
    measure: Measure
    ratio: float  # the median of the rounds
    limit: float  # past this, the check fails
    met: bool
    failed: bool

    def line(self) -> str:
        """One line naming the measure, its figures, the ratio and the threshold."""
        m = self.measure
        state = "FAILED" if self.failed else ("met" if self.met else "not met, within margin")
        rounds = f"rounds {min(m.rounds):.2f}-{max(m.rounds):.2f}; " if len(m.rounds) > 1 else ""
        return (
            f"{m.name}: {self.ratio:.2f} ({rounds}{m.figures}); "
            f"goal <= {m.goal:.2f}, fails past {self.limit:.2f}: {state}"
        )


def judge(measure: Measure, margin: float = MARGIN) -> Verdict:
    """The median of the rounds against the goal; failed when past ``goal * margin``."""
    if not measure.rounds:
        raise ValueError(f"{measure.name}: no rounds measured")
    if margin < 1:
        raise ValueError("the margin must be at least 1 (the goal itself)")
    ratio = float(statistics.median(measure.rounds))
    limit = measure.goal * margin
    return Verdict(measure, ratio, limit, met=ratio <= measure.goal, failed=not ratio <= limit)


def decided(rounds: list[float], goal: float, planned: int, margin: float = MARGIN) -> bool:
    """True when more than half of the ``planned`` rounds are already past the limit: the
    median of all of them would be past it whatever the others give, so a check may stop
    there (a regressed cost is also the slowest one to measure)."""
    return sum(1 for r in rounds if not r <= goal * margin) > planned // 2


def failures(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if v.failed]


def exit_code(verdicts: list[Verdict]) -> int:
    """1 when any measure failed (or none was measured: a check that measured nothing must
    not pass), else 0."""
    return 1 if not verdicts or failures(verdicts) else 0
