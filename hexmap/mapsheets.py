"""Which MegaMek map sheets a battle in a strategic hex is fought on (house-rules tables).

The dice are the caller's: these functions take the 2d6 total already rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mekref.hexmap.tables import load_data, terrain_table


@dataclass(frozen=True, slots=True)
class SheetRow:
    roll: int
    sheet: str
    source: str


@cache
def _data() -> dict[str, object]:
    return load_data("mapsheets.toml")


@cache
def sheet_tables() -> dict[str, tuple[SheetRow, ...]]:
    """Rows per map-sheet terrain group ("Flatlands", "Hills", …), blank rows left out."""
    tables = _data()["sheet_table"]
    assert isinstance(tables, list)
    return {
        t["terrain"]: tuple(SheetRow(r["roll"], r["sheet"], r["source"]) for r in t["rows"])
        for t in tables
    }


def _check_roll(roll: int) -> None:
    if not 2 <= roll <= 12:
        raise ValueError(f"a 2d6 roll is 2-12, got {roll}")


def sheet_group(terrain_id: str) -> str:
    """The map-sheet table a strategic terrain type uses."""
    return terrain_table()[terrain_id].mapsheet_terrain


def mapsheet_for(terrain_id: str, roll: int) -> str | None:
    """The map sheet for a 2d6 ``roll`` in a hex of ``terrain_id``; ``None`` means roll again
    (the source leaves that row blank)."""
    _check_roll(roll)
    for row in sheet_tables()[sheet_group(terrain_id)]:
        if row.roll == roll:
            return row.sheet
    return None


def random_terrain(roll: int) -> str:
    """The map-sheet terrain group for a 2d6 ``roll`` on the random terrain table."""
    _check_roll(roll)
    section = _data()["random_terrain"]
    assert isinstance(section, dict)
    for row in section["rows"]:
        if row["roll"] == roll:
            return str(row["terrain"])
    raise AssertionError(f"the random terrain table has no row {roll}")
