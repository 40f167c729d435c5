"""``bench.replay``'s budget: what the goal ratio asks of each battle, from two corpus sizes.

The line is the measured reason the replay goal stands where it does, written into
docs/performance.md by ``make bench``; these tests hold its arithmetic to hand-worked figures.
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

from bench.replay import GOAL_RATIO, Figures, budget, budget_line, markdown  # noqa: E402


def _figures(battles: int, parse: float, replay: float) -> Figures:
    return Figures(
        battles=battles,
        rounds=3,
        corpus_mb=battles * 0.024,
        parse_cpu=[parse * 1.1, parse, parse * 0.9],
        replay_cpu=[replay, replay * 1.2, replay * 0.95],
        replay_wall=[replay] * 3,
        replay_peak_rss_mb=100.0,
        state_hash="0" * 64,
        tenths=None,
    )


def test_budget_cancels_start_up_and_parsing() -> None:
    # 100 battles in 0.55 s, 1,000 in 3.70 s: 3.5 ms a battle, 0.2 s of start-up. Parsing
    # 1,000 files takes 0.45 s, so 0.3 of it allows 1.5 s: 1.3 ms a battle after start-up,
    # 0.85 ms of it beyond parsing (0.45 ms), against 3.05 ms spent now.
    b = budget(_figures(100, 0.045, 0.55), _figures(1000, 0.45, 3.70))
    assert GOAL_RATIO == 0.3
    assert b.per_battle_ms == pytest.approx(3.5)
    assert b.startup_s == pytest.approx(0.2)
    assert b.parse_ms == pytest.approx(0.45)
    assert b.allowed_ms == pytest.approx(0.85)
    assert b.spent_ms == pytest.approx(3.05)
    assert b.cut == pytest.approx(3.05 / 0.85)
    line = budget_line(b)
    assert "3.50 ms" in line and "0.85 ms per battle" in line and "3.6x less" in line


def test_a_goal_out_of_reach_even_without_rules_says_so() -> None:
    # A start-up over what the goal allows in all leaves nothing per battle.
    b = budget(_figures(100, 0.01, 2.1), _figures(1000, 0.1, 3.0))
    assert b.allowed_ms < 0
    assert math.isinf(b.cut)
    assert budget_line(b).endswith("already take more than the goal allows.")


def test_the_sizes_must_differ() -> None:
    with pytest.raises(ValueError, match="more battles"):
        budget(_figures(1000, 0.45, 3.7), _figures(100, 0.045, 0.55))


def test_markdown_carries_the_budget_only_with_two_sizes() -> None:
    small, large = _figures(100, 0.045, 0.55), _figures(1000, 0.45, 3.70)
    assert "What 0.3 of parse-only asks" in markdown([small, large])
    assert "What 0.3 of parse-only asks" not in markdown([large])


def test_the_encoders_floor_is_said_when_it_was_measured() -> None:
    # 0.40 s of the C encoder for 1,000 battles: 0.40 ms of each battle's 3.05 ms.
    large = _figures(1000, 0.45, 3.70)
    measured = Figures(**{**large.__dict__, "encode_cpu": [0.41, 0.40, 0.39], "encoded_mb": 29.2})
    b = budget(_figures(100, 0.045, 0.55), measured)
    assert b.encode_ms == pytest.approx(0.40) and b.encoded_mb == 29.2
    assert budget_line(b).endswith(
        "C encoder alone, writing again the 29.2 MB of canonical JSON the in-process replay "
        "stored, takes 0.40 ms per battle."
    )
    assert "C encoder" not in budget_line(budget(_figures(100, 0.045, 0.55), large))
