"""The maintenance check with the house modifiers (line 94) on the standard table."""

from __future__ import annotations

import pytest
from hr_helpers import LINES

from mekref.rules.dice import Dice
from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules import events as e
from mekref.rules.house_rules.game import HOUSE_RULES
from mekref.rules.house_rules.maintenance import (
    GRADES,
    MaintenanceResult,
    maintenance_check,
    standard_table,
)
from mekref.rules.house_rules.table_loader import load_tables
from mekref.rules.refusal import Refusal

# L94: "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the
# Maintenance Check Table."
L94 = (
    "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the "
    "Maintenance Check Table."
)


def test_line_94_is_quoted_and_read_as_data() -> None:
    row = load_tables().rule("repairs", "maintenance")
    assert LINES[93] == L94 == row.ref.source
    assert (row.int("tn_modifier"), row.int("good_effect_mos_bonus")) == (-3, 1)


def test_the_standard_table_as_mekhq_plays_it() -> None:
    # Ruling HOUSE-30: the table the house text modifies, as
    # mekhq.campaign.unit.Maintenance.doMaintenanceOnUnitPart applies it.
    table = standard_table()
    assert tuple(table.rows) == GRADES
    assert [table.rows[g].improve_at for g in GRADES] == [4, 4, 5, 5, 6, None]
    assert [table.rows[g].reduce_at for g in GRADES] == [None, -6, -5, -4, -3, -3]
    a = table.rows["A"].damage
    assert [(b.low, b.high, b.points) for b in a] == [
        (-99, -7, 4),
        (-6, -5, 3),
        (-4, -4, 2),
        (-3, -2, 1),
    ]
    assert table.destroyed_at == 4


def _with_margin(grade: str, target: int, margin: int) -> MaintenanceResult:
    """The check of the first seed whose 2d6 gives ``margin`` against the house target."""
    for i in range(2000):
        result, _, _ = maintenance_check(Dice(f"m{i}", 0), "u", grade, target, 1)
        if result.margin == margin:
            return result
    raise AssertionError(f"no seed gives margin {margin}")


def test_ruling_the_target_is_three_lower_and_good_effects_need_one_more() -> None:
    # Target 10 -> 7 with the house -3.
    r = _with_margin("D", 10, 0)
    assert (r.base_target, r.target) == (10, 7)
    # Standard D improves at margin 5; the house rule needs 6.
    five = _with_margin("D", 10, 5)
    assert five.quality_after == "D" and five.improve_needed == 6
    assert _with_margin("D", 10, 5).damage == 0
    # A grade-A part improves at 4 + 1 = 5 (target 10 - 3 = 7: rolls of 11 and 12).
    assert _with_margin("A", 10, 4).quality_after == "A"
    assert _with_margin("A", 10, 5).quality_after == "B"
    # F is the best grade: no good effect to reach.
    assert _with_margin("F", 9, 3).improve_needed is None


def test_bad_effects_are_the_standard_tables() -> None:
    # "Add 1 ... for all good effects": the bad ones are unchanged.
    d = _with_margin("D", 14, -4)
    assert (d.quality_after, d.damage) == ("C", 0)
    d5 = _with_margin("D", 14, -5)
    assert (d5.quality_after, d5.damage) == ("C", 1)
    a = _with_margin("A", 14, -7)
    assert a.damage == 4 and a.destroyed and a.quality_after == "A"
    b = _with_margin("B", 14, -3)
    assert (b.quality_after, b.damage) == ("B", 1)


def test_every_margin_reads_the_table_plus_one_for_good_effects() -> None:
    table = standard_table()
    for i in range(300):
        grade = GRADES[i % len(GRADES)]
        r, roll, _ = maintenance_check(Dice(f"s{i}", 0), "u", grade, 3 + i % 11, 1)
        assert roll.name == "maintenance check 1, u" and len(roll.faces) == 2
        row = table.rows[grade]
        index = GRADES.index(grade)
        if row.improve_at is not None and r.margin >= row.improve_at + 1:
            assert r.quality_after == GRADES[index + 1]
        elif row.reduce_at is not None and r.margin <= row.reduce_at:
            assert r.quality_after == GRADES[index - 1]
        else:
            assert r.quality_after == grade
        bands = [b.points for b in row.damage if b.low <= r.margin <= b.high]
        assert r.damage == (bands[0] if bands else 0)


def test_maintenance_as_a_command_keeps_the_grade() -> None:
    _, state = HOUSE_RULES.execute(HOUSE_RULES.initial_state(), c.SetUp(actor="ref", seed="maint"))
    with pytest.raises(Refusal) as info:
        HOUSE_RULES.execute(
            state, c.MaintenanceCheck(actor="ref", unit_id="griffin", target_number=7)
        )
    assert info.value.code == "no_quality" and info.value.source is not None
    assert info.value.source.line == 94
    with pytest.raises(Refusal) as bad:
        HOUSE_RULES.execute(
            state, c.MaintenanceCheck(actor="ref", unit_id="griffin", target_number=7, quality="G")
        )
    assert bad.value.code == "unknown_quality"
    events, state = HOUSE_RULES.execute(
        state, c.MaintenanceCheck(actor="ref", unit_id="griffin", target_number=7, quality="d")
    )
    checked = events[0]
    assert isinstance(checked, e.MaintenanceChecked) and checked.rolls
    assert checked.result.target == 4
    assert state.quality["griffin"] == checked.result.quality_after
    words = HOUSE_RULES.outcome(checked)
    assert words.startswith(f"griffin maintenance: {checked.result.roll} against 4 (7, house -3)")
    # The next check reads the grade the last one left, on the next named roll.
    events, state = HOUSE_RULES.execute(
        state, c.MaintenanceCheck(actor="ref", unit_id="griffin", target_number=7)
    )
    second = events[0]
    assert isinstance(second, e.MaintenanceChecked)
    assert second.result.quality_before == checked.result.quality_after
    assert second.rolls[0].name == "maintenance check 2, griffin"
    report = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}
    assert report["maintenance"] == (f"griffin: quality {second.result.quality_after}",)
