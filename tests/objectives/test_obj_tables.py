"""Every objective number is data that quotes its line of the rule text verbatim."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from mekref.rules.objectives.table_loader import load_tables

LINES = (Path(__file__).parent / "data" / "objectives.txt").read_text("utf-8").splitlines()
TABLE = resources.files("mekref.rules.objectives.tables").joinpath("objectives.toml")


def _rows() -> list[dict[str, Any]]:
    data = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    return [v for v in data.values() if isinstance(v, dict)]


def test_every_row_quotes_its_line_and_sentence() -> None:
    rows = _rows()
    assert len(rows) == 14
    for row in rows:
        assert LINES[row["line"] - 1] == row["source"]
        assert row["quote"] in row["source"]


def test_numbers_match_the_quoted_sentences() -> None:
    t = load_tables()
    assert t.placement_min_inches == 6 and '6" away' in t.placement_ref.source
    assert t.claim_range_inches == 2 and 'within 2" of the Objective' in t.claim_ref.source
    assert (t.search_dice, t.search_enemy_modifier, t.search_target) == (1, -1, 7)
    assert "roll 1 dice" in t.search_ref.source
    assert "modified by -1" in t.search_ref.source
    assert "7 or more" in t.search_ref.source
    assert t.scan_bonus_per_token == 1 and "+1 to the search roll per token" in t.scan_ref.source
    assert t.scan_max_tokens_per_unit == 1 and "only have 1 Scan Token" in t.scan_ref.source
    assert t.carry_max == 1 and "only carry one Objective" in t.carry_ref.source
    assert t.drop_claim_range_inches == 1 and 'within 1" of this squad' in t.drop_ref.source
    assert "all Objectives in Garrisons are Hidden" in t.hidden_default_ref.source
    assert "all Objectives not in Garrisons are Open" in t.open_default_ref.source
    assert "destroyed whilst in an Aircraft" in t.destroyed_ref.source
