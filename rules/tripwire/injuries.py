"""Injured pilots and crews: what healing a hit costs, where it can be done, the death roll."""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


def is_dead(hits: int, tables: TripWireTables | None = None) -> bool:
    """6 hits is KIA (MegaMek writes a dead pilot as hits="6" or "Dead")."""
    return hits >= (tables or load_tables()).injury_rules.kia_hits


def heal_cost(hits: int, tables: TripWireTables | None = None) -> int:
    """SP to heal one hit from a person now carrying ``hits`` hits.

    Ruling R-HEAL-1: the row used is the person's *current* injury level: healing a Heavily
    Wounded (3 hits) pilot to 2 hits costs 60. Each further hit is paid separately, at its
    own row, in a later track ("Only 1 hit can be healed per Track").
    """
    t = tables or load_tables()
    if hits <= 0:
        raise Refusal("not_injured", "the person has no hits to heal")
    row = t.injuries.get(hits)
    if row is None or row.cost is None:
        source = row.ref if row else None
        raise Refusal("cannot_heal", f"{hits} hits cannot be healed (KIA)", source)
    return row.cost


def needs_hospital(hits: int, tables: TripWireTables | None = None) -> bool:
    """1-2 hits: first aid in the field; 3 or more: a MASH unit or Hospital (line 126)."""
    return hits >= (tables or load_tables()).injury_rules.hospital_from_hits


def vehicle_crew_heal_cost(damage: int, tables: TripWireTables | None = None) -> int:
    """Heal Vehicle Crew: 60 per driver/commander hit result. Always needs a MASH or Hospital."""
    if damage < 0:
        raise ValueError("damage cannot be negative")
    return damage * (tables or load_tables()).injury_rules.vehicle_crew_cost_per_damage


def death_roll_due(hits: int, tables: TripWireTables | None = None) -> bool:
    """A MechWarrior with 5 damage rolls for death on the operating table."""
    return hits == (tables or load_tables()).injury_rules.death_roll_hits


@record
class DeathRoll(Record):
    person_id: str
    roll: Roll
    dies: bool


def death_roll_name(person_id: str) -> str:
    return f"death roll, pilot {person_id}"


def roll_death(
    dice: Dice, person_id: str, tables: TripWireTables | None = None
) -> tuple[DeathRoll, Dice]:
    """Roll 1D6 for a person at 5 hits: on 4-6 they die (line 125)."""
    t = tables or load_tables()
    roll, dice = dice.roll(death_roll_name(person_id), count=t.injury_rules.death_roll_dice)
    dies = roll.total >= t.injury_rules.death_roll_dies_from
    return DeathRoll(person_id=person_id, roll=roll, dies=dies), dice
