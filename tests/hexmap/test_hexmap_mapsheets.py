"""Map-sheet tables from the house rules, row by row as quoted."""

from __future__ import annotations

import pytest

from mekref.hexmap.mapsheets import mapsheet_for, random_terrain, sheet_group, sheet_tables
from mekref.hexmap.tables import terrain_table


@pytest.mark.parametrize(
    ("terrain_id", "quoted_row", "roll", "sheet"),
    [
        ("plains", "7 | Battletech Map (Mixed) |", 7, "Battletech Map (Mixed)"),
        ("plains", "2 | Dropport #1 (Military) |", 2, "Dropport #1 (Military)"),
        ("hills", "10 | River Valley (Wetlands) |", 10, "River Valley (Wetlands)"),
        ("mountains", "12 | Heavy Forest #1 (Woodlands) |", 12, "Heavy Forest #1 (Woodlands)"),
        ("badlands", "4 | Box Canyon (Badlands) |", 4, "Box Canyon (Badlands)"),
        ("swamp", "3 | Lake Area (Wetlands) |", 3, "Lake Area (Wetlands)"),
        ("heavy_woods", "11 | Battletech (Mixed) |", 11, "Battletech (Mixed)"),
        (
            "light_urban",
            "6 | City Street Grid #1 (Build-It Urban) |",
            6,
            "City Street Grid #1 (Build-It Urban)",
        ),
        ("heavy_urban", "8 | City Downtown (Premade Urban) |", 8, "City Downtown (Premade Urban)"),
        ("coastal", "6 | Seaport (Coastal) |", 6, "Seaport (Coastal)"),
    ],
)
def test_sheet_rows(terrain_id: str, quoted_row: str, roll: int, sheet: str) -> None:
    assert mapsheet_for(terrain_id, roll) == sheet
    rows = sheet_tables()[sheet_group(terrain_id)]
    assert any(quoted_row in r.source for r in rows)


def test_blank_rows_mean_roll_again() -> None:
    # "5 | |" in the Badlands table, and 9-12 blank in the Wetlands table.
    assert mapsheet_for("badlands", 5) is None
    assert mapsheet_for("swamp", 12) is None


def test_random_terrain_row() -> None:
    # "12 | Mountains |" and "7 | Flatlands |"
    assert random_terrain(12) == "Mountains"
    assert random_terrain(7) == "Flatlands"
    with pytest.raises(ValueError):
        random_terrain(13)


def test_every_terrain_type_has_a_sheet_table() -> None:
    assert {t.mapsheet_terrain for t in terrain_table().values()} <= set(sheet_tables())
