"""The day's rolled damage on the units: the maintenance critical (line 199), the Despised
bombing (line 401) and the consciousness checks beyond the rations (line 355), each laid on
the unit's stored condition by :mod:`.rolled_damage` and recorded as an event (T-DM1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from mekref.adapters.megamek.design import UnitDesign
from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.holding import WRECKED, leave_formations
from mekref.rules.tripwire.house_seam import PreBattleDamage
from mekref.rules.tripwire.state import CampaignState, PersonStatus
from mekref.rules.tripwire.turn import damage_tables, damage_work
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.events import (
    ConsciousnessCheck,
    ConsciousnessChecked,
    UnitDamageRolled,
)
from mekref.rules.tripwire.turn.state import Formation


def _placeable(
    d: Day, unit_id: str, why: str, bombing: bool = False
) -> tuple[UnitDesign | None, str]:
    """The unit's stored design when rolled damage can be placed on it, else None and a line for
    the referee naming the unit, ``why`` (what was rolled) and the reason (T-DM5: never dropped
    silently)."""
    unit = d.state.units[unit_id]
    design = design_of(d.state, unit_id)
    name = f"{unit.chassis} {unit.model}".strip()
    if design is None:
        reason = "the campaign keeps no design for it (record one with 'mekref force designs')"
    elif not damage_tables.supported(design, bombing):
        kind = design.kind.value.replace("_", " ")
        reason = f"no table places it on this unit kind ({kind}, ruling T-DM5)"
    else:
        return design, ""
    return None, f"{unit_id} ({name}): {why} not applied: {reason}; the referee applies it"


def _design(d: Day, unit_id: str, why: str, bombing: bool = False) -> UnitDesign | None:
    """:func:`_placeable`, its line (if any) noted for the unit's side."""
    design, line = _placeable(d, unit_id, why, bombing)
    if design is None:
        d.note(d.state.units[unit_id].side_id, line)
    return design


def _now(d: Day, unit_id: str, design: UnitDesign) -> tuple[UnitDamage, Fate]:
    led = d.state.battles
    unit = d.state.units[unit_id]
    damage = d.damage.get(unit_id) or rd.condition_of(
        unit, design, led.unit_damage.get(unit_id), led.loadouts.get(unit_id)
    )
    return damage, d.fates.get(unit_id, led.fates.get(unit_id, Fate.OPERATIONAL))


def _hits(d: Day, person_id: str) -> int:
    return d.hits.get(person_id, d.state.people[person_id].hits)


def _record(
    d: Day,
    unit_id: str,
    cause: str,
    applied: damage_work.Applied,
    rolls: tuple[Roll, ...],
    before: UnitDamage,
) -> None:
    if not rolls and not any(x.slot is not None or x.armor or x.internal for x in applied.hits):
        return  # the critical roll came up short: nothing changed, its dice are recorded already
    unit = d.state.units[unit_id]
    head_lost = any(loc.name == "Head" and loc.internal_gone for loc in applied.damage.locations)
    head_was_lost = any(loc.name == "Head" and loc.internal_gone for loc in before.locations)
    crew: list[tuple[str, int]] = []
    if applied.head_hits or (head_lost and not head_was_lost):
        # T-DM4: each head hit is a hit on the crew in the cockpit; a lost head kills them.
        for pid in unit.crew:
            if (
                d.state.people[pid].status is PersonStatus.DEAD
                or _hits(d, pid) >= damage_tables.killed_at()
            ):
                continue
            hits = damage_tables.killed_at() if head_lost else _hits(d, pid) + applied.head_hits
            d.hits[pid] = min(hits, damage_tables.killed_at())
            crew.append((pid, d.hits[pid]))
    d.damage[unit_id] = applied.damage
    d.fates[unit_id] = applied.fate
    d.events.append(
        UnitDamageRolled(
            side_id=unit.side_id,
            day=d.day,
            unit_id=unit_id,
            cause=cause,
            lines=applied.hits,
            damage=applied.damage,
            fate=applied.fate,
            crew_hits=tuple(crew),
            notes=applied.notes,
            rolls=rolls,
        )
    )


#: A rolled-damage function of :mod:`.rolled_damage` with its own arguments bound by keyword:
#: it is called with the unit, design, damage and fate, and ``dice=`` and ``loadout=``.
_Laying = Callable[..., tuple[damage_work.Applied, tuple[Roll, ...], Dice]]


def _lay(
    d: Day,
    unit_id: str,
    design: UnitDesign,
    cause: str,
    laying: _Laying,
    words: tuple[str, ...] = (),
    rolled: tuple[Roll, ...] = (),
) -> None:
    """Lays rolled damage on the unit's condition now and records it; ``words`` head the
    event's notes and ``rolled`` (dice recorded before) head its rolls."""
    damage, fate = _now(d, unit_id, design)
    applied, rolls, d.dice = laying(
        d.state.units[unit_id],
        design,
        damage,
        fate,
        dice=d.dice,
        loadout=d.state.battles.loadouts.get(unit_id, ()),
    )
    if words:
        applied = replace(applied, notes=(*words, *applied.notes))
    _record(d, unit_id, cause, applied, (*rolled, *rolls), damage)


def maintenance(d: Day, unit_id: str, location: Roll, criticals: tuple[Roll, ...]) -> None:
    """Line 199 on one unit, from its location and critical rolls (already recorded)."""
    design = _design(d, unit_id, "the maintenance critical (line 199)")
    if design is not None:
        laying = partial(
            rd.maintenance,
            location_roll=location.total,
            critical_rolls=tuple(r.total for r in criticals),
        )
        _lay(d, unit_id, design, "maintenance", laying)


def bombing(d: Day, unit_id: str, points: int) -> None:
    """Line 401 on the unit the sabotage die picked."""
    design = _design(d, unit_id, f"the bombing's {points} damage (line 401)", bombing=True)
    if design is not None:
        _lay(d, unit_id, design, "sabotage", partial(rd.bombing, points=points))


def pre_battle(
    d: Day,
    unit_id: str,
    design: UnitDesign,
    rolled: PreBattleDamage,
    table_rolls: tuple[Roll, ...],
    table: tuple[str, ...],
) -> None:
    """The house rules' pre-battle damage (their lines 134-152) on one unit: its table rolls
    (``table_rolls``, in words in ``table``) laid on the stored condition (HOUSE-31)."""
    laying = partial(rd.pre_battle, rolled=rolled)
    _lay(d, unit_id, design, "pre-battle damage", laying, table, table_rolls)


def maintenance_check(
    d: Day, unit_id: str, location: Roll, points: int, destroyed: bool, words: str
) -> str:
    """The house rules' maintenance check damage (their line 94) on one unit, from its front
    location roll (HOUSE-42); ``words`` (the check in words) heads the event's notes. Returns
    why it was not laid on the condition ("" when it was): the referee applies it then."""
    design, why_not = _placeable(d, unit_id, "the maintenance check's damage", bombing=True)
    if design is None:
        return why_not
    laying = partial(
        rd.maintenance_check, location_roll=location.total, points=points, destroyed=destroyed
    )
    _lay(d, unit_id, design, "maintenance check", laying, (words,), (location,))
    return ""


def consciousness(d: Day, f: Formation, fatigue: int) -> None:
    """Line 355: each living crew member of the formation's units checks, modified by the
    formation's fatigue; a failure is a hit, or an injured crew/driver of a vehicle (T-DM4)."""
    checks: list[ConsciousnessCheck] = []
    rolls: list[Roll] = []
    vehicle_crew: dict[str, int] = {}
    for uid in f.unit_ids:
        unit = d.state.units.get(uid)
        if unit is None:
            continue
        for pid in unit.crew:
            person = d.state.people[pid]
            if person.status is PersonStatus.DEAD or pid in d.state.battles.captured_people:
                continue
            hits = _hits(d, pid)
            target = rd.consciousness_target(hits, fatigue)
            roll = d.roll(f"consciousness check (rations), {pid}", 2)
            rolls.append(roll)
            passed = roll.total >= target
            vehicle = unit.kind.is_vehicle
            after = hits
            if not passed and vehicle:
                vehicle_crew[uid] = vehicle_crew.get(uid, 0) + 1
            elif not passed:
                after = min(hits + 1, damage_tables.killed_at())
                d.hits[pid] = after
            checks.append(
                ConsciousnessCheck(
                    person_id=pid,
                    unit_id=uid,
                    target=target,
                    total=roll.total,
                    passed=passed,
                    hits_after=after,
                    vehicle_crew=vehicle and not passed,
                )
            )
    if checks:
        d.events.append(
            ConsciousnessChecked(
                side_id=f.side_id,
                day=d.day,
                formation_id=f.formation_id,
                fatigue=fatigue,
                checks=tuple(checks),
                rolls=tuple(rolls),
            )
        )


# --- the evolvers -----------------------------------------------------------------------------


def _person_hits(state: CampaignState, person_id: str, hits: int) -> CampaignState:
    person = state.people[person_id]
    dead = hits >= damage_tables.killed_at()
    after = replace(person, hits=hits, status=PersonStatus.DEAD if dead else person.status)
    return replace(state, people={**state.people, person_id: after})


def evolve_damage(state: CampaignState, e: UnitDamageRolled) -> CampaignState:
    led = state.battles
    led = replace(
        led,
        unit_damage={**led.unit_damage, e.unit_id: e.damage},
        fates={**led.fates, e.unit_id: e.fate},
    )
    state = replace(state, battles=led)
    for pid, hits in e.crew_hits:
        state = _person_hits(state, pid, hits)
    # L145-L146: a unit the roll truly destroyed leaves play and its formation (R-VP-7); during
    # a day's resolution the day's formations record it the same way (resolve.py).
    return leave_formations(state, (e.unit_id,)) if e.fate in WRECKED else state


def evolve_consciousness(state: CampaignState, e: ConsciousnessChecked) -> CampaignState:
    crew_damage = dict(state.battles.crew_damage)
    for c in e.checks:
        if c.passed:
            continue
        if c.vehicle_crew:
            crew_damage[c.unit_id] = crew_damage.get(c.unit_id, 0) + 1
        else:
            state = _person_hits(state, c.person_id, c.hits_after)
    return replace(state, battles=replace(state.battles, crew_damage=crew_damage))
