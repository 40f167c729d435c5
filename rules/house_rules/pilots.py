"""MechWarrior experience, rank and the campaign injury variant (lines 104, 153-164)."""

from __future__ import annotations

from enum import StrEnum

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, Row, load_tables
from mekref.rules.record_type import Record, record


class PilotStatus(StrEnum):
    ACTIVE = "active"
    REHABILITATION = (
        "rehabilitation"  # 4 points: "will not be able to fight for approximately a year"
    )
    RETIRED = "retired"  # 5 points: "permanently crippled and must be retired from play"
    KILLED = "killed"  # 6 points: dead, as in MegaMek


def status_for(hits: int, tables: HouseTables | None = None) -> PilotStatus:
    rules = (tables or load_tables()).rule("experience", "injuries")
    if hits >= 6:
        return PilotStatus.KILLED
    if hits >= rules.int("retire_at"):
        return PilotStatus.RETIRED
    if hits >= rules.int("rehabilitation_at"):
        return PilotStatus.REHABILITATION
    return PilotStatus.ACTIVE


@record
class StartingExperience(Record):
    tens: int
    units: int
    xp: int


def starting_xp_roll_name(pilot_id: str, die: str, attempt: int) -> str:
    return f"starting experience {die} die, pilot {pilot_id}, try {attempt}"


def roll_starting_xp(
    dice: Dice, pilot_id: str, tables: HouseTables | None = None
) -> tuple[StartingExperience, tuple[Roll, ...], Dice]:
    """Line 153: 2d6, one the tens die (a 1 on it is rolled again), the other the units.

    Ruling HOUSE-6: the experience is 10 x tens + units, so 21 to 66; the tens die is rolled
    again until it is not a 1.
    """
    t = tables or load_tables()
    reroll = t.rule("experience", "start").int("reroll_tens")
    rolls: list[Roll] = []
    attempt = 0
    while True:
        attempt += 1
        tens, dice = dice.roll(starting_xp_roll_name(pilot_id, "tens", attempt))
        rolls.append(tens)
        if tens.total != reroll:
            break
    units, dice = dice.roll(starting_xp_roll_name(pilot_id, "units", 1))
    rolls.append(units)
    start = StartingExperience(tens=tens.total, units=units.total, xp=10 * tens.total + units.total)
    return start, tuple(rolls), dice


def base_skill(tables: HouseTables | None = None) -> int:
    return (tables or load_tables()).rule("experience", "start").int("base_skill")


def xp_per_battle(tables: HouseTables | None = None) -> int:
    return (tables or load_tables()).rule("experience", "per_battle").int("xp")


def rank_for(piloting: int, gunnery: int, tables: HouseTables | None = None) -> Row:
    """Lines 160-164 by the combined skill. Ruling HOUSE-14: 14 (7/7, the untrained base) is
    Untrained, so Green is 10 to 13."""
    t = tables or load_tables()
    combined = piloting + gunnery
    for row in t.rows("experience", "rank"):
        if row.int("combined_min") <= combined <= row.int("combined_max"):
            return row
    # Worse than 7/7 is still untrained.
    return t.rows("experience", "rank")[0]


def lam_piloting_cost(steps: int = 1, tables: HouseTables | None = None) -> int:
    """Line 104: a LAM pilot spends 6 experience points per point of Piloting improved."""
    if steps < 0:
        raise ValueError("steps cannot be negative")
    return steps * (tables or load_tables()).rule("experience", "lam").int("xp_per_piloting_step")
