"""Retreating off a board edge other than the home edge (lines 71-88)."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.random_damage import (
    ARMOR_OR_AMMO,
    PreBattleDamage,
    roll_pre_battle_damage,
)
from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal

#: Modifier rows that are alternatives: a unit leaves by one edge, is on one kind of planet,
#: and is either faster or slower than half the enemy force.
#: What a retreat costs: hours of repair time, all of it, all of it and damage, or the unit
#: (the success and failure bands of tables/retreat.toml).
RETREAT_OUTCOMES = ("hours", "all_repair_time", "all_repair_time_and_damage", "captured")
EXCLUSIVE = (
    ("adjacent_edge", "opposite_edge"),
    ("friendly_planet", "hostile_planet"),
    ("faster_than_half", "slower_than_half"),
)


@record
class RetreatResult(Record):
    unit_id: str
    target: int
    roll: int
    margin: int  # >= 0: margin of success; < 0: margin of failure
    hours_lost: int | None  # None: all repair time
    outcome: str = field(metadata={"allowed": RETREAT_OUTCOMES})
    damage: PreBattleDamage | None


def retreat_target(
    piloting: int, modifiers: tuple[str, ...], tables: HouseTables | None = None
) -> int:
    t = tables or load_tables()
    modifiers = t.choose_each(
        "retreat", "modifier", modifiers, "retreat modifier", "duplicate_modifier"
    )
    chosen = set(modifiers)
    for group in EXCLUSIVE:
        if len(chosen & set(group)) > 1:
            raise Refusal("exclusive_modifiers", f"only one of {group} applies")
    total = piloting
    for key in modifiers:
        total += t.keyed("retreat", "modifier", key).int("modifier")
    return total


def roll_retreat(
    dice: Dice,
    unit_id: str,
    piloting: int,
    modifiers: tuple[str, ...] = (),
    *,
    weapons: tuple[str, ...] = (),
    ammo_types: tuple[str, ...] = (),
    tables: HouseTables | None = None,
) -> tuple[RetreatResult, tuple[Roll, ...], Dice]:
    """A piloting roll (2d6 against piloting + modifiers); the margin reads the tables.

    Ruling HOUSE-10: the success table has lost two row labels; they continue the printed steps
    (4-5: 2 hours, 6 or more: 1 hour). A margin of failure of 5-6 rolls once on the random damage
    table, rerolling any result that is not armor damage or ammunition.
    """
    t = tables or load_tables()
    target = retreat_target(piloting, modifiers, t)
    roll, dice = dice.roll(f"retreat, unit {unit_id}", t.rule("retreat", "roll").int("dice"))
    rolls: list[Roll] = [roll]
    margin = roll.total - target
    damage = None
    if margin >= 0:
        row = t.band("retreat", "success", margin)
        hours: int | None = row.int("hours_lost")
        outcome = "hours"
    else:
        row = t.band("retreat", "failure", -margin)
        outcome = row.text("outcome")
        hours = row.int("hours_lost") if outcome == "hours" else None
        if outcome == "all_repair_time_and_damage":
            damage, more, dice = roll_pre_battle_damage(
                dice,
                unit_id,
                weapons=weapons,
                ammo_types=ammo_types,
                times=1,
                only_kinds=ARMOR_OR_AMMO,
                tables=t,
            )
            rolls += more
    result = RetreatResult(
        unit_id=unit_id,
        target=target,
        roll=roll.total,
        margin=margin,
        hours_lost=hours,
        outcome=outcome,
        damage=damage,
    )
    return result, tuple(rolls), dice


def heavy_woods_modifier(weight_class: str, tables: HouseTables | None = None) -> int:
    """Line 29-33: the piloting roll when a 'Mech jumps into heavy woods, by weight class."""
    t = tables or load_tables()
    for row in t.rows("tactical", "heavy_woods"):
        if row.text("weight") == weight_class:
            return row.int("modifier")
    raise Refusal("unknown_weight_class", f"no weight class {weight_class!r}")
