"""Every TripWire table row quotes its source line verbatim (tests/rules/data holds the text)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mekref.rules.tripwire.table_loader import load_tables

SOURCE = (Path(__file__).parent / "data" / "operation_tripwire.txt").read_text(encoding="utf-8")
LINES = SOURCE.splitlines()
TABLES = resources.files("mekref.rules.tripwire.tables")
TABLE_FILES = sorted(p.name for p in TABLES.iterdir() if p.name.endswith(".toml"))


def _rows_with_source(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "source" in node:
            found.append(node)
        for value in node.values():
            found.extend(_rows_with_source(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_rows_with_source(value))
    return found


def test_there_are_table_files() -> None:
    assert len(TABLE_FILES) >= 12


@pytest.mark.parametrize("name", TABLE_FILES)
def test_every_row_quotes_its_source_line_verbatim(name: str) -> None:
    data = tomllib.loads(TABLES.joinpath(name).read_text(encoding="utf-8"))
    rows = _rows_with_source(data)
    assert rows, f"{name} has no rows with a source"
    for row in rows:
        assert isinstance(row.get("line"), int), row
        assert LINES[row["line"] - 1] == row["source"], (name, row["line"])


def test_loaded_tables_keep_their_source_refs() -> None:
    t = load_tables()
    refs = [r.ref for r in t.costs.values()] + list(t.footnotes.values())
    for ref in refs:
        assert LINES[ref.line - 1] == ref.source
