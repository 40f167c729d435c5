"""Hiring personnel at a training level, ransom, and recruiting captured personnel."""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


def hire_price(level: str, vehicle_crew: bool = False, tables: TripWireTables | None = None) -> int:
    """SP to hire a MechWarrior/pilot (or, x2, a vehicle crew) of a training level."""
    t = tables or load_tables()
    row = t.prices.get(level)
    if row is None:
        raise Refusal("no_price", f"personnel of level {level!r} cannot be purchased")
    return row.cost * (t.vehicle_crew_price_multiplier if vehicle_crew else 1)


def ransom_cost(people: int, tables: TripWireTables | None = None) -> int:
    """100 WP per captured MechWarrior or vehicle crew returned at the end of the campaign."""
    if people < 0:
        raise ValueError("people cannot be negative")
    return people * int((tables or load_tables()).cost("ransom.person").factor)


@record
class RecruitAttempt(Record):
    person_id: str
    roll: Roll
    modifier: int
    succeeds: bool


def recruit_modifier(opponent_unrest: int, tables: TripWireTables | None = None) -> int:
    """+1 for each point of unrest over 7 the opponent has (never negative)."""
    r = (tables or load_tables()).recruiting
    return max(0, opponent_unrest - r.unrest_neutral) * r.bonus_per_unrest_point


def roll_recruit_captured(
    dice: Dice, person_id: str, opponent_unrest: int, tables: TripWireTables | None = None
) -> tuple[RecruitAttempt, Dice]:
    """2d6 + unrest modifier; on 8+ the captor may pay to recruit (line 352)."""
    t = tables or load_tables()
    roll, dice = dice.roll(f"recruit captured, person {person_id}", count=t.recruiting.dice)
    modifier = recruit_modifier(opponent_unrest, t)
    return (
        RecruitAttempt(
            person_id=person_id,
            roll=roll,
            modifier=modifier,
            succeeds=roll.total + modifier >= t.recruiting.target,
        ),
        dice,
    )
