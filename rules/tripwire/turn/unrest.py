"""Unrest and war crimes (lines 392-404, 215-219): levels, recruiting modifiers, changes."""

from __future__ import annotations

from collections.abc import Mapping

from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.turn.data import RangeRow, keyed, lookup, range_table, single

LOW, HIGH = 2, 12  # the table runs from Devoted (2) to Despised (12)


def clamp(level: int) -> int:
    """Unrest stays on the table's 2..12 (ruling T-U1)."""
    return min(HIGH, max(LOW, level))


def level_row(level: int) -> RangeRow:
    return lookup(range_table("unrest"), clamp(level))


def recruit_modifier(level: int) -> int | None:
    """The recruitment roll modifier, or None where recruitment is not possible (Hated and
    worse: line 400 says "Recruitment not possible")."""
    row = level_row(level)
    return int(row.get("recruit_mod")) if row.get("recruit_allowed") else None


def delta(key: str) -> int:
    return keyed("unrest", "delta", "amount")[key]


def military_targets() -> frozenset[str]:
    return frozenset(single("unrest", "military_target")["facilities"])


def destruction_unrest(facility: str) -> int:
    """+2 for a civilian feature; ammo dumps, fuel dumps and turrets are military (line 219)."""
    return 0 if facility in military_targets() else delta("destruction_civilian")


def peacekeeping_roll(dice: Dice, formation_id: str) -> tuple[Roll, int, Dice]:
    """A week of peacekeeping: 1D6, on 4-6 unrest falls by 1 (line 215)."""
    roll, dice = dice.roll(f"peacekeeping, {formation_id}", 1)
    change = delta("peacekeeping") if roll.total >= delta("peacekeeping_roll_min") else 0
    return roll, change, dice


def loot_roll(dice: Dice, formation_id: str) -> tuple[Roll, int, Dice]:
    """Looting: 1D6 x 100 WP (line 218)."""
    roll, dice = dice.roll(f"looting, {formation_id}", 1)
    return roll, roll.total * delta("looting_wp_per_pip"), dice


def mob_roll(dice: Dice, force: str, level: int, cause: str) -> tuple[str, int, Roll, Dice] | None:
    """Mobs of one battle or peacekeeping action in a population centre (lines 395-401):
    1d3, doubled when Devoted or Despised; None at a level that raises none (no die rolled).
    Returns (``supportive`` or ``angry``, how many, the roll, the dice)."""
    row = level_row(level)
    kind = str(row.get("mobs") or "")
    if not kind:
        return None
    roll, dice = dice.roll(f"mobs, {force}, {cause}", 1, 3)
    return kind, roll.total * int(row.get("multiplier")), roll, dice


NEUTRAL = 7


def rating(
    base: Mapping[str, int],
    local: Mapping[str, Mapping[str, int]],
    force: str,
    location: str = "",
) -> int:
    """A force's unrest in a population centre: the centre's own rating once the force's deeds
    there changed it, else the force's rating (ruling T-U6)."""
    if location and force in local.get(location, {}):
        return local[location][force]
    return base.get(force, NEUTRAL)


def apply(
    base: dict[str, int],
    local: dict[str, dict[str, int]],
    force: str,
    location: str,
    before: int,
    after: int,
) -> None:
    """Record a change (in place): in one centre, or everywhere (the force's rating and each
    centre's own rating move by the same amount, kept on the table)."""
    if location:
        local.setdefault(location, {})[force] = after
        return
    base[force] = after
    for ratings in local.values():
        if force in ratings:
            ratings[force] = clamp(ratings[force] + after - before)
