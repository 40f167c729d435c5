"""The terrain and map-sheet tables (lines 277-420): the map engine's rows reused, Solaris VII, and
rolling a battlefield (blank rows, the Military Base footnote)."""

from __future__ import annotations

import re

import pytest
from hr_helpers import LINES

from mekref.hexmap.mapsheets import sheet_tables
from mekref.rules.dice import Dice
from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules import events as e
from mekref.rules.house_rules.game import HOUSE_RULES
from mekref.rules.house_rules.mapsheets import (
    MILITARY_BASE,
    SOLARIS,
    map_sheet,
    roll_battlefield,
    terrain_for,
    terrain_groups,
)
from mekref.rules.refusal import Refusal

QUOTE = re.compile(r'^002_09a1c530a2118904\.txt:(\d+) "(.*)"$')


def test_the_map_engines_rows_quote_this_text() -> None:
    # The house rules read the map engine's tables (mekref.hexmap.data/mapsheets.toml): every
    # row it keeps is the line it cites, and no filled row of lines 290-407 is missing.
    kept = set()
    for rows in sheet_tables().values():
        for row in rows:
            match = QUOTE.match(row.source)
            assert match, row.source
            line, text = int(match.group(1)), match.group(2)
            assert LINES[line - 1] == text and text.startswith(f"{row.roll} | {row.sheet} |")
            kept.add(line)
    filled = {
        n
        for n in range(290, 408)
        if re.fullmatch(r"\d+ \| [^|]+ \|", LINES[n - 1]) and not LINES[n - 1].endswith("| |")
    }
    assert filled == kept


def test_random_terrain_rows() -> None:
    # L279 "2 | Badlands |", L284 "7 | Flatlands |", L289 "12 | Mountains |"
    assert LINES[278] == "2 | Badlands |" and terrain_for(2) == "Badlands"
    assert LINES[283] == "7 | Flatlands |" and terrain_for(7) == "Flatlands"
    assert LINES[288] == "12 | Mountains |" and terrain_for(12) == "Mountains"
    assert {terrain_for(r) for r in range(2, 13)} == set(terrain_groups()) - {SOLARIS}


def test_map_sheet_rows() -> None:
    # L297 "7 | Battletech Map (Mixed) |" (Flatlands), L328 "12 | Heavy Forest #1 (Woodlands) |"
    # (Mountain), L334 "5 | |" (Badlands: blank), L401 "6 | Seaport (Coastal) |"
    assert LINES[296] == "7 | Battletech Map (Mixed) |"
    assert map_sheet("Flatlands", 7) == "Battletech Map (Mixed)"
    assert LINES[327] == "12 | Heavy Forest #1 (Woodlands) |"
    assert map_sheet("Mountains", 12) == "Heavy Forest #1 (Woodlands)"
    assert LINES[333] == "5 | |" and map_sheet("Badlands", 5) is None
    assert (
        LINES[400] == "6 | Seaport (Coastal) |" and map_sheet("Coastal", 6) == "Seaport (Coastal)"
    )
    with pytest.raises(ValueError):
        map_sheet("Coastal", 13)
    with pytest.raises(Refusal) as info:
        map_sheet("Moon", 7)
    assert info.value.code == "unknown_terrain"


def test_solaris_rows() -> None:
    # L408 "2d6 | Solaris VII |", L410 "2 | King of the Mountain |", L416 "8 | The Jungle |",
    # L417 "9 | |"
    assert LINES[407] == "2d6 | Solaris VII |"
    assert LINES[409] == "2 | King of the Mountain |"
    assert map_sheet(SOLARIS, 2) == "King of the Mountain"
    assert LINES[415] == "8 | The Jungle |" and map_sheet(SOLARIS, 8) == "The Jungle"
    assert LINES[416] == "9 | |" and map_sheet(SOLARIS, 9) is None
    arenas = {map_sheet(SOLARIS, r) for r in range(2, 13)} - {None}
    assert len(arenas) == 7


def test_ruling_blank_rows_are_rolled_again_and_sheets_may_repeat() -> None:
    # Ruling HOUSE-19. L334 "5 | |": Badlands has five blank rows.
    rerolled = repeated = False
    for i in range(200):
        field, rolls, dice = roll_battlefield(Dice(f"bl-{i}"), "b", terrain="Badlands", maps=3)
        assert field.terrain == "Badlands" and field.terrain_roll == 0
        assert len(field.sheets) == 3 and None not in field.sheets
        assert dice.next_index == len(rolls) and all(r.name.endswith(", b") for r in rolls)
        rerolled |= len(rolls) > 3
        repeated |= len(set(field.sheets)) < 3
    assert rerolled and repeated


def test_the_military_base_comes_in_two_parts() -> None:
    # L394 "*The Military Base is meant to be used with both parts. If one part is rolled the next
    # map is automatically the other part. If the last map is the Military Base, re-roll
    # ignoring any other results of Military Base."
    paired = 0
    for i in range(300):
        one, _, _ = roll_battlefield(Dice(f"mb-{i}"), "b", terrain="Heavy Urban", maps=1)
        assert not set(one.sheets) & set(MILITARY_BASE)
        two, _, _ = roll_battlefield(Dice(f"mb-{i}"), "b", terrain="Heavy Urban", maps=2)
        if set(two.sheets) & set(MILITARY_BASE):
            assert set(two.sheets) == set(MILITARY_BASE)
            paired += 1
    assert paired


def test_a_random_battlefield_rolls_the_terrain_first() -> None:
    field, rolls, _ = roll_battlefield(Dice("rt"), "b")
    assert rolls[0].name == "map sheets terrain, b" and field.terrain_roll == rolls[0].total
    assert field.terrain == terrain_for(rolls[0].total)
    arena, _, _ = roll_battlefield(Dice("rt"), "b", terrain=SOLARIS)
    assert arena.sheets[0] in {map_sheet(SOLARIS, r) for r in range(2, 9)}
    with pytest.raises(Refusal):
        roll_battlefield(Dice("rt"), "b", maps=0)


def test_the_map_sheets_command() -> None:
    _, state = HOUSE_RULES.execute(HOUSE_RULES.initial_state(), c.SetUp(actor="ref", seed="maps"))
    events, after = HOUSE_RULES.execute(
        state, c.MapSheets(actor="ref", battle_id="b1", terrain="Hills", maps=2)
    )
    rolled = events[0]
    assert isinstance(rolled, e.MapSheetsRolled) and rolled.battlefield.terrain == "Hills"
    assert after.rolls_used == len(rolled.rolls) and HOUSE_RULES.fold([rolled], state) == after
