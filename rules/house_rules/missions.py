"""Mission and force-size tables (lines 235-276)."""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, Row, load_tables
from mekref.rules.record_type import Record, record


@record
class MissionRoll(Record):
    mission: str
    enemy_roll: int | None  # None when the mission's column says "Yes" or the target is moot
    enemy_present: bool
    size_roll: int | None
    force_percent: str | None  # "85%": the enemy force as a share of ours
    expected_loss_rate: str | None


def mission(name: str, tables: HouseTables | None = None) -> Row:
    t = tables or load_tables()
    return t.choose("missions", "mission", name, "mission")


def force_size(roll: int, tables: HouseTables | None = None) -> Row:
    t = tables or load_tables()
    rows = t.rows("missions", "force_size")
    low, high = rows[0].int("roll"), rows[-1].int("roll")
    clamped = max(low, min(high, roll))
    return next(r for r in rows if r.int("roll") == clamped)


def roll_mission(
    dice: Dice, name: str, tables: HouseTables | None = None
) -> tuple[MissionRoll, tuple[Roll, ...], Dice]:
    """Ruling HOUSE-9: "Enemy Force" is a 2d6 target ("5+"; "12" is 12+; "Yes" always) and the
    force size is 2d6 plus the mission's column (+1d6 where it says so), read on the force-size
    table (its -3 and 20 are exactly the extremes of Riot Duty and Guerrilla Warfare)."""
    t = tables or load_tables()
    row = mission(name, t)
    name = row.text("key")  # the table's spelling, however it was typed
    rolls: list[Roll] = []
    enemy_text = row.text("enemy_force")
    enemy_roll: int | None = None
    if enemy_text == "Yes":
        present = True
    else:
        roll, dice = dice.roll(f"enemy force, {name}", 2)
        rolls.append(roll)
        enemy_roll = roll.total
        present = roll.total >= int(enemy_text.rstrip("+"))
    if not present or row.text("size_text") == "NA":
        return (
            MissionRoll(
                mission=name,
                enemy_roll=enemy_roll,
                enemy_present=present,
                size_roll=None,
                force_percent=None,
                expected_loss_rate=None,
            ),
            tuple(rolls),
            dice,
        )
    size, dice = dice.roll(f"enemy force size, {name}", 2 + row.int("size_dice"))
    rolls.append(size)
    total = size.total + row.int("size_modifier")
    size_row = force_size(total, t)
    return (
        MissionRoll(
            mission=name,
            enemy_roll=enemy_roll,
            enemy_present=True,
            size_roll=total,
            force_percent=size_row.text("percent"),
            expected_loss_rate=size_row.text("loss_rate"),
        ),
        tuple(rolls),
        dice,
    )
