"""The terrain and map-sheet tables (lines 277-420): which MegaMek map sheets a battle is fought on.

The random terrain table and the nine terrain map-sheet tables are the map engine's data
(``mekref.hexmap.data/mapsheets.toml``, the same quoted rows); this module reuses them through
:mod:`mekref.hexmap.mapsheets` and adds the one table the map engine has no use for, the Solaris
VII arenas (``tables/mapsheets.toml``), plus the rolling rules around the tables: a blank row is
rolled again, and the Military Base footnote (line 394).
"""

from __future__ import annotations

from mekref.hexmap.mapsheets import random_terrain, sheet_tables
from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal

SOLARIS = "Solaris VII"
MILITARY_BASE = ("Military Base #1 (Military)*", "Military Base #2 (Military)*")
MAX_REROLLS = 64  # every table has at least six filled rows: 64 blank rolls in a row never happen


def terrain_groups() -> tuple[str, ...]:
    """The map-sheet tables by name: the nine terrain groups, then Solaris VII."""
    return (*sheet_tables(), SOLARIS)


def terrain_for(roll: int) -> str:
    """Line 277: the terrain group for a 2d6 ``roll`` on the random terrain table."""
    return random_terrain(roll)


def map_sheet(group: str, roll: int, tables: HouseTables | None = None) -> str | None:
    """The map sheet (or Solaris VII arena) for a 2d6 ``roll`` on ``group``'s table.

    ``None`` is a row the text leaves blank ("5 | |"): the caller rolls again.
    """
    if not 2 <= roll <= 12:
        raise ValueError(f"a 2d6 roll is 2-12, got {roll}")
    if group == SOLARIS:
        t = tables or load_tables()
        for row in t.rows("mapsheets", "solaris_row"):
            if row.int("roll") == roll:
                return row.values.get("arena")
        raise AssertionError(f"the Solaris VII table has no row {roll}")
    if group not in sheet_tables():
        raise Refusal("unknown_terrain", f"no map-sheet table for {group!r}")
    for sheet in sheet_tables()[group]:
        if sheet.roll == roll:
            return sheet.sheet
    return None


@record
class Battlefield(Record):
    terrain: str
    terrain_roll: int  # 0 when the referee named the terrain
    sheets: tuple[str, ...]


def roll_battlefield(
    dice: Dice,
    label: str,
    *,
    terrain: str | None = None,
    maps: int = 1,
    tables: HouseTables | None = None,
) -> tuple[Battlefield, tuple[Roll, ...], Dice]:
    """The terrain (2d6 on line 277's table unless named) and ``maps`` sheets from its table.

    Ruling HOUSE-19: a blank row is rolled again; sheets may repeat (the text does not forbid
    it). Line 394: a Military Base part with another map still to pick brings the other part as
    the next map; as the last map it is rolled again, ignoring Military Base results.
    """
    if maps < 1:
        raise Refusal("no_maps", "a battlefield has at least one map sheet")
    rolls: list[Roll] = []

    def roll(what: str) -> int:
        nonlocal dice
        r, dice = dice.roll(f"map sheets {what}, {label}", 2)
        rolls.append(r)
        return r.total

    terrain_roll = 0
    if terrain is None:
        terrain_roll = roll("terrain")
        terrain = terrain_for(terrain_roll)
    elif terrain not in terrain_groups():
        raise Refusal("unknown_terrain", f"no map-sheet table for {terrain!r}")
    sheets: list[str] = []
    while len(sheets) < maps:
        last = len(sheets) == maps - 1
        for attempt in range(1, MAX_REROLLS + 1):
            suffix = "" if attempt == 1 else f" again {attempt}"
            sheet = map_sheet(terrain, roll(f"sheet {len(sheets) + 1}{suffix}"), tables)
            if sheet is not None and not (last and sheet in MILITARY_BASE):
                break
        else:  # pragma: no cover - see MAX_REROLLS
            raise AssertionError("no map sheet after many rolls")
        sheets.append(sheet)
        if sheet in MILITARY_BASE:
            sheets.append(MILITARY_BASE[1 - MILITARY_BASE.index(sheet)])
    field = Battlefield(terrain=terrain, terrain_roll=terrain_roll, sheets=tuple(sheets))
    return field, tuple(rolls), dice
