"""The house rules' maintenance check in a TripWire campaign (their line 94): ``mekref turn
maintenance-check``, an option of a campaign created with ``--house-rules``.

TripWire's maintenance (its line 199) is a day's action: a formation that conducts it resets its
seven-day clock (:mod:`.day_upkeep`). With the house rules, each unit of a formation maintained
takes the standard maintenance check with the house modifiers, rolled by
:func:`~mekref.rules.house_rules.maintenance.maintenance_check` (HOUSE-30). TripWire keeps no
technicians' skills, so the referee gives the target number the standard rules make (HOUSE-40).
The unit's quality grade is kept in the state (HOUSE-41); the damage the table does is laid on
its stored condition by the TripWire rolled-damage code (HOUSE-42), so the report prices it and
the next engagement export writes it. Rulings HOUSE-40 to HOUSE-43 in docs/house-rules.md.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.house_option import require_house_rules, unit_in_play
from mekref.rules.tripwire.house_seam import (
    GRADES,
    MaintenanceResult,
    check_quality,
    maintenance_check,
)
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, MaintenanceQuality
from mekref.rules.tripwire.turn import day_damage
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.state import Formation

#: House rules L94, quoted in the refusal of a campaign without them.
L94 = (
    "L94: 'Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on "
    "the Maintenance Check Table.'"
)
#: TripWire L199, quoted when the formation has conducted no maintenance.
L199 = (
    "L199: 'One day in every 7 days of operation standard maintenance must be conducted (6 "
    "hours per unit).'"
)


@command_type("CheckMaintenance")
@record
class CheckMaintenance(Command):
    """Referee: the house maintenance check (line 94) of one unit whose formation conducted
    maintenance on the last day resolved. ``target_number``: the standard rules' TN (the
    technician's skill and modifiers) before the house -3; ``quality``: the unit's grade
    (A-F), needed on its first check only."""

    unit_id: str
    target_number: int
    quality: str = ""


@event_type("HouseMaintenanceChecked")
@record
class HouseMaintenanceChecked(Event):
    """A unit's house maintenance check after its formation's maintenance day ``day``; its
    damage, if any, follows as a ``UnitDamageRolled`` with cause "maintenance check".
    ``notes``: why the damage was not laid on the condition (the referee applies it)."""

    side_id: str
    day: int
    formation_id: str
    check: MaintenanceResult
    notes: tuple[str, ...] = ()


def formation_of(state: CampaignState, unit_id: str) -> Formation | None:
    s = strategic_of(state)
    return next((f for _, f in sorted(s.formations.items()) if unit_id in f.unit_ids), None)


def maintained_day(state: CampaignState, f: Formation) -> int | None:
    """The day the formation conducted maintenance, when it was the last day resolved (its
    action then, HOUSE-41); None otherwise."""
    s = strategic_of(state)
    action, days = f.action_streak
    return s.day - 1 if action == "maintenance" and days > 0 else None


def _quality(state: CampaignState, cmd: CheckMaintenance) -> str:
    kept = state.house_quality.get(cmd.unit_id)
    if not cmd.quality.strip():
        if kept is None:
            raise Refusal(
                "no_quality",
                f"{cmd.unit_id} takes its first maintenance check: give its quality grade "
                "with --quality (A worst .. F best; the Maintenance Check Table's rows, "
                "HOUSE-41)",
            )
        return kept.grade
    grade = check_quality(cmd.quality)
    if kept is not None and grade != kept.grade:
        raise Refusal(
            "quality_kept",
            f"{cmd.unit_id} is quality {kept.grade} since its check on day {kept.last_day}: "
            "leave --quality out (the grade is kept, HOUSE-41)",
        )
    return grade


def words(c: MaintenanceResult) -> str:
    """The check in words: roll, TN, margin, the good effect's margin, grade, damage."""
    good = (
        "no better grade"
        if c.improve_needed is None
        else f"good effect needs margin {c.improve_needed:+d} (table {c.improve_needed - 1:+d}, "
        "+1 by L94)"
    )
    better = GRADES.index(c.quality_after) > GRADES.index(c.quality_before)
    change = (
        f"quality {c.quality_before} -> {c.quality_after} ({'better' if better else 'worse'})"
        if c.quality_after != c.quality_before
        else f"quality stays {c.quality_before}"
    )
    if c.destroyed:
        hurt = f"{c.damage} damage points: the part is destroyed"
    elif c.damage:
        hurt = f"{c.damage} damage point(s)"
    else:
        hurt = "no damage"
    return (
        f"2d6 {c.roll} vs TN {c.target} (base {c.base_target}, -3 by L94): margin "
        f"{c.margin:+d}; {good}; {change}; {hurt}"
    )


def decide(state: CampaignState, cmd: CheckMaintenance, dice: Dice, _: TripWire) -> list[Event]:
    require_house_rules(state, "the maintenance check", L94)
    unit = unit_in_play(state, cmd.unit_id, "no maintenance is conducted on it (HOUSE-40)")
    f = formation_of(state, cmd.unit_id)
    if f is None:
        raise Refusal(
            "no_formation", f"{cmd.unit_id} is in no formation on the map: no maintenance day"
        )
    day = maintained_day(state, f)
    if day is None:
        raise Refusal(
            "not_maintained",
            f"{f.formation_id} did not conduct maintenance on the last day resolved ({L199}): "
            f"order '{f.formation_id}:maintenance', resolve the day, then check its units "
            "before the next day resolves (HOUSE-41)",
        )
    kept = state.house_quality.get(cmd.unit_id)
    if kept is not None and kept.last_day == day:
        raise Refusal(
            "already_checked",
            f"{cmd.unit_id} took its maintenance check for day {day} already (one check per "
            "maintenance day, HOUSE-41)",
        )
    grade = _quality(state, cmd)
    number = 1 + (kept.checks if kept is not None else 0)
    result, roll, dice = maintenance_check(dice, cmd.unit_id, grade, cmd.target_number, number)
    checked = HouseMaintenanceChecked(
        side_id=unit.side_id, day=day, formation_id=f.formation_id, check=result, rolls=(roll,)
    )
    if not result.damage:
        return [checked]
    d = Day(state, strategic_of(state), dice)
    where = d.roll(f"maintenance check location (front), {cmd.unit_id}", 2)
    said = f"maintenance check: {words(result)}"
    why = day_damage.maintenance_check(d, cmd.unit_id, where, result.damage, result.destroyed, said)
    if why:
        # Nowhere to lay it: the location die is not used, so it is not spent either.
        return [replace(checked, notes=(why,))]
    return [checked, *d.events]


def evolve(state: CampaignState, e: HouseMaintenanceChecked) -> CampaignState:
    c = e.check
    kept = state.house_quality.get(c.unit_id)
    record = MaintenanceQuality(
        grade=c.quality_after, checks=1 + (kept.checks if kept else 0), last_day=e.day
    )
    return replace(state, house_quality={**state.house_quality, c.unit_id: record})


def describe(e: HouseMaintenanceChecked) -> str:
    """The check in words, after the maintenance day it belongs to."""
    notes = "".join(f"; {n}" for n in e.notes)
    return f"{words(e.check)} (maintenance of {e.formation_id} on day {e.day}){notes}"
