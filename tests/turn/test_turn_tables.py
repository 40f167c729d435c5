"""Every row of the turn tables quotes its line of the rule text verbatim; the key rows are
checked against the quoted text."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from mekref.rules.tripwire.turn.data import (
    lookup,
    range_table,
    table_rows,
)

# The TripWire text vendored for the tests (tests/rules/data), so CI never depends on shared/.
SOURCE = Path(__file__).parents[1] / "rules" / "data" / "operation_tripwire.txt"
TABLES = resources.files("mekref.rules.tripwire.turn.tables")
NAMES = sorted(p.name for p in TABLES.iterdir() if p.name.endswith(".toml"))


def _source_lines() -> list[str]:
    return SOURCE.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", NAMES)
def test_every_row_quotes_its_line(name: str) -> None:
    lines = _source_lines()
    data = tomllib.loads(TABLES.joinpath(name).read_text(encoding="utf-8"))
    count = 0
    for kind, rows in data.items():
        for row in rows:
            assert lines[row["line"] - 1] == row["source"], (name, kind, row)
            count += 1
    assert count > 0


def test_weather_rows() -> None:
    # "| 2-6 | Clear, no cloud. |" ... "| 12 | Stormy Heavy Rain/Snow – Dense (+4) Cloud ..."
    assert [(r.low, r.high, r.get("cloud")) for r in range_table("weather")] == [
        (2, 6, 0), (7, 7, 1), (8, 8, 2), (9, 9, 3), (10, 10, 4), (11, 11, 4), (12, 12, 4),
    ]  # fmt: skip
    assert lookup(range_table("weather"), 9).ref.source == (
        "| 9 | Light Rain and wind/Snow – Heavy (+3) Cloud |"
    )
    # "| 2 | Move 2 places up |", "| 3-4 | Move 1 place up |", "| 5-9 | No change |", ...
    assert [(r.low, r.high, r.get("shift")) for r in range_table("weather_change")] == [
        (2, 2, -2), (3, 4, -1), (5, 9, 0), (10, 11, 1), (12, 12, 2),
    ]  # fmt: skip


def test_arrival_rows() -> None:
    # "| 11-12 | 1 |", "| 9-10 | 2 |", "| 7-8 | 3 |", "| 5-6 | 4 |", "| 3-4 | 3 |", "| 1-2 | 2 |"
    assert [(r.low, r.high, r.get("turn")) for r in range_table("arrival")] == [
        (11, 12, 1), (9, 10, 2), (7, 8, 3), (5, 6, 4), (3, 4, 3), (1, 2, 2),
    ]  # fmt: skip
    assert lookup(range_table("arrival"), 5).ref.source == "| 5-6 | 4 |"


def test_scatter_rows() -> None:
    assert (
        lookup(range_table("scatter"), 2).ref.source == "| 2 | Shot strikes another random unit |"
    )
    assert lookup(range_table("scatter"), 12).ref.source == "| 12 | Shot strikes target |"
    assert [(r.low, r.high, r.get("result"), r.get("hexes")) for r in range_table("scatter")] == [
        (2, 2, "other_unit", 0), (3, 3, "other_unit", 1), (4, 5, "other_unit", 2),
        (6, 7, "miss", 0), (8, 9, "target", 2), (10, 11, "target", 1), (12, 12, "target", 0),
    ]  # fmt: skip


def test_unrest_rows() -> None:
    row = lookup(range_table("unrest"), 10)
    assert row.ref.source.startswith("| 10-11 | Hated – Recruitment not possible.")
    assert (row.get("recruit_allowed"), row.get("recruit_mod")) == (False, -2)
    assert [(r.low, r.high, r.get("recruit_mod")) for r in range_table("unrest")] == [
        (2, 2, 4), (3, 4, 2), (5, 6, 1), (7, 7, 0), (8, 9, -1), (10, 11, -2), (12, 12, -4),
    ]  # fmt: skip


def test_recruit_rows() -> None:
    # "| 8-9 | 1D6-3 | 1D6-2 | 1D6-3 | 1D6 | 1D6-3 | 1D6-3 |"
    row = lookup(range_table("recruit"), 8)
    assert row.ref.source == "| 8-9 | 1D6-3 | 1D6-2 | 1D6-3 | 1D6 | 1D6-3 | 1D6-3 |"
    assert (row.get("mechwarrior"), row.get("infantry"), row.get("admin")) == (-3, 0, -3)
    # "| 6-7 | – | 1D6-3 | – | 1D6-2 | – | – |": the dashes yield nobody.
    row = lookup(range_table("recruit"), 7)
    assert row.get("mechwarrior") is None and row.get("vehicle_crew") == -3


def test_action_rows_name_free_and_response_actions() -> None:
    kinds = {str(r["key"]): str(r["kind"]) for r in table_rows("actions", "action")}
    assert kinds["suborbital_hop"] == kinds["orbital_insertion"] == kinds["combat_drop"] == "free"
    assert kinds["intercept"] == kinds["respond"] == "response"
    assert kinds["move"] == "standard"
