"""Every house-rule table row quotes its line verbatim, and its numbers are that line's."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest
from hr_helpers import LINES

from mekref.rules.house_rules.table_loader import TABLE_NAMES, load_tables

TABLES = resources.files("mekref.rules.house_rules.tables")


def _rows(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "source" in node:
            found.append(node)
        for value in node.values():
            found.extend(_rows(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_rows(value))
    return found


@pytest.mark.parametrize("name", TABLE_NAMES)
def test_every_row_quotes_its_source_line(name: str) -> None:
    data = tomllib.loads(TABLES.joinpath(f"{name}.toml").read_text(encoding="utf-8"))
    rows = _rows(data)
    assert rows
    for row in rows:
        assert LINES[row["line"] - 1] == row["source"], (name, row["line"])


def test_every_table_file_is_loaded() -> None:
    shipped = sorted(p.name[:-5] for p in TABLES.iterdir() if p.name.endswith(".toml"))
    assert tuple(shipped) == TABLE_NAMES


def test_morale_rows_print_their_modifiers() -> None:
    t = load_tables()
    for table in ("skill", "nationality"):
        for row in t.rows("morale", table):
            assert row.ref.source == f"{row.text('key')} | {row.int('modifier'):+d} |"
    for row in t.rows("morale", "situation"):
        assert row.ref.source.endswith(f"| {row.int('modifier'):+d} |")


def test_random_damage_rows_are_three_to_eighteen() -> None:
    rows = load_tables().rows("random_damage", "row")
    assert [r.int("roll") for r in rows] == list(range(3, 19))
    for row in rows:
        assert row.ref.source.startswith(f"{row.int('roll')} | ")
    by_roll = {r.int("roll"): r for r in rows}
    assert by_roll[5].int("points") == 20 and "20 points" in by_roll[5].ref.source
    assert by_roll[8].int("points") == 25 and "25 points" in by_roll[8].ref.source
    assert by_roll[12].int("count") == 2 and "Two heat sinks" in by_roll[12].ref.source


def test_mission_and_force_size_rows() -> None:
    t = load_tables()
    for row in t.rows("missions", "mission"):
        cells = [c.strip() for c in row.ref.source.split("|")]
        assert cells[:4] == [
            row.text("key"),
            row.text("loss_rate"),
            row.text("enemy_force"),
            row.text("size_text"),
        ]
    sizes = t.rows("missions", "force_size")
    assert [r.int("roll") for r in sizes] == list(range(-3, 21))
    for row in sizes:
        assert (
            row.ref.source
            == f"{row.int('roll')} | {row.text('percent')} | {row.text('loss_rate')} |"
        )


def test_acquisition_rows() -> None:
    t = load_tables()
    for row in t.rows("acquisition", "availability"):
        assert f"{row.int('target')}+" in row.ref.source
        modifier_line = LINES[row.int("modifier_line") - 1]
        assert modifier_line.endswith(f"| {row.int('logistics_modifier'):+d} |")
    for row in t.rows("acquisition", "bids"):
        assert row.ref.source.endswith(f"| {row.int('bids')} |")
    for row in t.rows("acquisition", "negotiation"):
        assert row.ref.source.endswith(f"| {row.int('percent'):+d}% |".replace("+0%", "0%"))


def test_currency_rows_are_the_printed_values() -> None:
    for row in load_tables().rows("currency", "currency"):
        printed = row.ref.source.split("|")[1].strip()
        assert row.fraction("c_bills") == Fraction(printed)


def test_rank_rows() -> None:
    for row in load_tables().rows("experience", "rank"):
        cells = [c.strip() for c in row.ref.source.split("|")]
        assert cells[:3] == [row.text("name"), str(row.int("piloting")), str(row.int("gunnery"))]
