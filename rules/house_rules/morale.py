"""Morale tests for 'Mechs and vehicles (lines 105-133)."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record

#: Situation rows that grade one condition: only the worst of a group applies (ruling HOUSE-4).
EXCLUSIVE_GROUPS = (("force_50", "force_75"),)
#: The result bands' keys, worst first (line 107; tables/morale.toml).
MORALE_RESULTS = ("rout", "fighting_withdrawal", "stand_ground", "advance", "fight_to_the_death")


@record
class MoraleTest(Record):
    unit_id: str
    die_total: int
    modifier: int
    total: int
    result: str = field(metadata={"allowed": MORALE_RESULTS})  # a band key
    exempt_from_now: bool  # "the unit no longer makes morale checks"
    reasons: tuple[str, ...]


def morale_modifier(
    skill: str, nationality: str, situations: tuple[str, ...], tables: HouseTables | None = None
) -> tuple[int, tuple[str, ...]]:
    """The sum of the skill, nationality and situation rows (added to the 2d6 roll).

    Ruling HOUSE-4: the "Target Modifier" is added to the roll (better troops advance, a rout is
    2 or less). Every situation applies once; of "Force at 50%" and "Force at 75%" only the worse.
    """
    t = tables or load_tables()
    reasons: list[str] = []
    total = 0
    for table, key in (("skill", skill), ("nationality", nationality)):
        row = t.choose("morale", table, key, table)
        total += row.int("modifier")
        reasons.append(row.text("key"))
    chosen = set(
        t.choose_each("morale", "situation", situations, "situation", "duplicate_situation")
    )
    for group in EXCLUSIVE_GROUPS:
        present = [key for key in group if key in chosen]
        for weaker in present[:-1]:
            chosen.discard(weaker)
    for key in sorted(chosen):
        row = t.keyed("morale", "situation", key)
        total += row.int("modifier")
        reasons.append(key)
    return total, tuple(reasons)


def morale_roll_name(unit_id: str, turn: int) -> str:
    return f"morale test, unit {unit_id}, turn {turn}"


def morale_test(
    dice: Dice,
    unit_id: str,
    turn: int,
    skill: str,
    nationality: str,
    situations: tuple[str, ...] = (),
    tables: HouseTables | None = None,
) -> tuple[MoraleTest, Roll, Dice]:
    """Line 107: roll 2d6 plus the modifiers and read the band.

    Ruling HOUSE-5: the conditions that call for a test are missing from the text (line 106);
    the referee calls it.
    """
    t = tables or load_tables()
    modifier, reasons = morale_modifier(skill, nationality, situations, t)
    roll, dice = dice.roll(morale_roll_name(unit_id, turn), t.rule("morale", "test").int("dice"))
    total = roll.total + modifier
    band = t.band("morale", "band", total)
    exempt = t.rule("morale", "exempt")
    test = MoraleTest(
        unit_id=unit_id,
        die_total=roll.total,
        modifier=modifier,
        total=total,
        result=band.text("key"),
        exempt_from_now=total < exempt.int("below") or total > exempt.int("above"),
        reasons=reasons,
    )
    return test, roll, dice
