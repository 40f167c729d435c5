"""The one way every benchmark reports a series of rounds: the median, and the range beside it.

The median of the rounds is the figure judged against a goal (not the fastest round, which
flatters, nor the mean, which one disturbed round on a shared machine drags). The range shows
how much the rounds disagreed. A ratio between two measures is taken round by round, each
round timing both, so a busy machine slows both sides of one ratio alike.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def median(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("no rounds to take the median of")
    return float(statistics.median(values))


def spread(values: Sequence[float], fmt: str = ".2f", unit: str = "") -> str:
    """``median (low-high)``, e.g. ``0.42 (0.40-0.45)``; a single round shows alone."""
    mid = f"{median(values):{fmt}}{unit}"
    if len(values) < 2:
        return mid
    return f"{mid} ({min(values):{fmt}}-{max(values):{fmt}}{unit})"


def ratios(tops: Sequence[float], bottoms: Sequence[float]) -> list[float]:
    """Round by round ``top / bottom`` (both measured in the same round)."""
    if len(tops) != len(bottoms):
        raise ValueError("the two series must have one figure per round each")
    return [t / b if b else float("inf") for t, b in zip(tops, bottoms, strict=True)]
