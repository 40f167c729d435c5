"""The Recruit action (lines 220-231): 2D6 + the unrest modifier on the availability table,
then 1D6 + the row's modifier per column, and 1D6 per person for the speciality columns."""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.turn import unrest
from mekref.rules.tripwire.turn.data import lookup, range_table, table_rows

COLUMNS = ("mechwarrior", "vehicle_crew", "aerospace_pilot", "infantry", "technician", "admin")


def specialities() -> dict[str, tuple[str, ...]]:
    return {str(r["column"]): tuple(r["faces"]) for r in table_rows("recruit", "speciality")}


def roll_recruits(
    dice: Dice, formation_id: str, unrest_level: int
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, str], ...], list[Roll], Dice] | None:
    """``(available per column, speciality per person, rolls, dice)``; None when unrest forbids
    recruiting. Devoted (2) doubles recruit actions (line 395): every column is rolled twice."""
    mod = unrest.recruit_modifier(unrest_level)
    if mod is None:
        return None
    rolls: list[Roll] = []
    roll, dice = dice.roll(f"recruit availability, {formation_id}", 2)
    rolls.append(roll)
    # Rows run 2-5 up to 14+; a modified total below 2 reads the lowest row (ruling T-R1).
    row = lookup(range_table("recruit"), max(2, roll.total + mod))
    times = int(unrest.level_row(unrest_level).get("multiplier"))
    available: list[tuple[str, int]] = []
    special: list[tuple[str, str]] = []
    faces = specialities()
    for column in COLUMNS:
        col_mod = row.get(column)
        if col_mod is None:
            available.append((column, 0))
            continue
        count = 0
        for n in range(times):
            r, dice = dice.roll(f"recruits {column} {n + 1}, {formation_id}", 1)
            rolls.append(r)
            count += max(0, r.total + int(col_mod))
        available.append((column, count))
        if column in faces:
            for i in range(count):
                r, dice = dice.roll(f"{column} speciality {i + 1}, {formation_id}", 1)
                rolls.append(r)
                special.append((column, faces[column][r.total - 1]))
    return tuple(available), tuple(special), rolls, dice
