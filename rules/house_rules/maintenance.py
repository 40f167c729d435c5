"""The maintenance check with the house modifiers (line 94).

Line 94: "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the
Maintenance Check Table." The table itself is the standard one, which the house text does not
print: :mod:`.standard` ships it as data (ruling HOUSE-30). The referee gives the target number
the standard rules make (the technician's skill and every standard modifier); this module adds
the house -3, rolls 2d6 on the kernel's named dice and reads the table, with every good effect
(a better quality grade) needing one more point of margin.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.repairs import maintenance_modifiers
from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import TableError, int_field, load_toml, str_field

GRADES = ("A", "B", "C", "D", "E", "F")  # worst to best


@record
class DamageBand(Record):
    low: int
    high: int
    points: int


@record
class QualityRow(Record):
    """One quality grade's row of the standard Maintenance Check Table."""

    grade: str
    improve_at: int | None  # the margin for the good effect (None: the best grade, never)
    reduce_at: int | None  # the margin at or below which the grade drops (None: never)
    damage: tuple[DamageBand, ...]


@record
class MaintenanceTable(Record):
    origin: str
    destroyed_at: int
    rows: dict[str, QualityRow]


def _optional_int(node: dict[str, Any], name: str) -> int | None:
    return int_field(node, name) if name in node else None


@cache
def standard_table() -> MaintenanceTable:
    data = load_toml("mekref.rules.house_rules.standard", "maintenance_check.toml")
    rows: dict[str, QualityRow] = {}
    for node in data.get("quality", []):
        grade = str_field(node, "grade")
        bands = tuple(
            DamageBand(
                low=int_field(b, "low"), high=int_field(b, "high"), points=int_field(b, "points")
            )
            for b in node.get("damage", [])
        )
        rows[grade] = QualityRow(
            grade=grade,
            improve_at=_optional_int(node, "improve_at"),
            reduce_at=_optional_int(node, "reduce_at"),
            damage=bands,
        )
    if tuple(rows) != GRADES:
        raise TableError(f"maintenance_check.toml: grades {tuple(rows)}, expected {GRADES}")
    return MaintenanceTable(
        origin=str_field(data, "origin"), destroyed_at=int_field(data, "destroyed_at"), rows=rows
    )


@record
class MaintenanceResult(Record):
    unit_id: str
    quality_before: str
    quality_after: str
    base_target: int  # the referee's target number (standard rules)
    target: int  # with the house -3 (line 94)
    roll: int
    margin: int  # roll - target
    improve_needed: int | None  # the margin the good effect needed, +1 by line 94 (None: never)
    damage: int  # damage points to the part (0: none)
    destroyed: bool


def check_quality(grade: str) -> str:
    value = grade.strip().upper()
    if value not in GRADES:
        raise Refusal("unknown_quality", f"no quality grade {grade!r}: one of {', '.join(GRADES)}")
    return value


def maintenance_roll_name(unit_id: str, check: int) -> str:
    return f"maintenance check {check}, {unit_id}"


def maintenance_check(
    dice: Dice,
    unit_id: str,
    quality: str,
    target_number: int,
    check: int,
    tables: HouseTables | None = None,
) -> tuple[MaintenanceResult, Roll, Dice]:
    """Line 94 on the standard table: TN -3, and +1 to the margin each good effect needs."""
    t = tables or load_tables()
    tn_modifier, good_bonus = maintenance_modifiers(t)
    grade = check_quality(quality)
    row = standard_table().rows[grade]
    target = target_number + tn_modifier
    roll, dice = dice.roll(maintenance_roll_name(unit_id, check), 2)
    margin = roll.total - target
    improve_needed = None if row.improve_at is None else row.improve_at + good_bonus
    index = GRADES.index(grade)
    after = grade
    if improve_needed is not None and margin >= improve_needed:
        after = GRADES[min(index + 1, len(GRADES) - 1)]
    elif row.reduce_at is not None and margin <= row.reduce_at:
        after = GRADES[max(index - 1, 0)]
    damage = next((b.points for b in row.damage if b.low <= margin <= b.high), 0)
    result = MaintenanceResult(
        unit_id=unit_id,
        quality_before=grade,
        quality_after=after,
        base_target=target_number,
        target=target,
        roll=roll.total,
        margin=margin,
        improve_needed=improve_needed,
        damage=damage,
        destroyed=damage >= standard_table().destroyed_at,
    )
    return result, roll, dice
