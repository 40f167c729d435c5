"""Resolve one battle from all its files and control of the field: pure arithmetic.

Order of work: merge the files into one view per unit (the owner's own file wins, conflicts are
listed), decide each unit's fate, salvage for the side holding the field, price repairs, people
(hits, deaths, death rolls, ejected crews), kills and training, and each side's victory points.
"""

from __future__ import annotations

from collections.abc import Mapping

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire import injuries
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleResolution,
    Conflict,
    Fate,
    PersonFate,
    PersonOutcome,
    RecordSection,
    RepairLine,
    ReportedPerson,
    ReportedUnit,
    SideOutcome,
    UnitDamage,
    UnitOutcome,
    file_views,
)
from mekref.rules.tripwire.claims import (
    Seen,
    authoritative,
    credited_kills,
    damage_conflicts,
    file_sides,
    held_conflict,
    overruled_claims,
    trusted_views,
    unconfirmed_claims,
    views_by_unit,
)
from mekref.rules.tripwire.holding import out_of_play
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.repair import (
    DamageState,
    RepairSubject,
    damage_state,
    repair_bill,
    scrap_value,
)
from mekref.rules.tripwire.salvage import can_retreat, salvage_reasons
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables
from mekref.rules.tripwire.victory import (
    BattleOutcome,
    battle_vp,
    infantry_must_surrender,
    must_retire,
)

#: Fates that count as "destroyed" for the victory rows and the 50% retirement (a salvaged
#: truly destroyed wreck is counted once, as truly destroyed).
DESTROYED_FATES = frozenset(
    {Fate.DESTROYED_REPAIRABLE, Fate.TRULY_DESTROYED, Fate.UTTERLY_DESTROYED, Fate.CAPTURED}
)


def cite(ref: SourceRef) -> str:
    return f"line {ref.line}: {ref.source}"


def subject_for(unit: CampaignUnit, damage: UnitDamage) -> RepairSubject:
    suits = damage.troopers_max or 0
    return RepairSubject(
        unit_id=unit.unit_id,
        kind=unit.kind,
        tonnage=unit.tonnage,
        tech_base=unit.tech_base,
        locations=damage.locations,
        critical_hits=damage.critical_hits,
        ammo_used=damage.ammo_used,
        suits=suits,
        suits_damaged=damage.suits_damaged,
        troopers_alive=damage.troopers_alive if unit.kind.is_infantry else None,
        landing_gear_damaged=damage.landing_gear_damaged,
    )


def repair_line(unit: CampaignUnit, damage: UnitDamage, t: TripWireTables) -> RepairLine:
    bill = repair_bill(subject_for(unit, damage), t)
    return RepairLine(
        armor_sp=bill.armor_sp,
        armor_deferred_sp=bill.armor_deferred_sp,
        internal_sp=bill.internal_sp + bill.landing_gear_sp,
        rearm_sp=bill.rearm_sp,
        total_sp=bill.total_sp,
        tech_hours=bill.tech_hours,
        repairable=bill.repairable,
        needs_repair_facility=bill.needs_repair_facility,
        rules=tuple(cite(r) for r in bill.rules),
    )


# --- merging the files ------------------------------------------------------------------------


def _gone_conflict(unit: CampaignUnit, why: str) -> Conflict:
    return Conflict(
        subject=unit.unit_id,
        detail=f"{unit.chassis} {unit.model}: out of play before this battle ({why}, "
        "L145-L146); what the files say of it is not applied, and its BV counts neither in "
        "its side's force nor as a loss (R-VP-7)",
    )


# --- fates ------------------------------------------------------------------------------------


def _has_damage(damage: UnitDamage) -> bool:
    return bool(
        damage.armor_lost
        or damage.internal_lost
        or damage.critical_hits
        or damage.suits_damaged
        or damage.landing_gear_damaged
        or (
            damage.troopers_alive is not None
            and damage.troopers_max is not None
            and damage.troopers_alive < damage.troopers_max
        )
    )


def _fate(
    unit: CampaignUnit,
    chosen: ReportedUnit,
    views: list[Seen],
    killed_ids: set[str],
    owners: Mapping[str, str],
) -> tuple[Fate, list[str]]:
    """Fate from the sections the trusted files put the unit in (its owner's own files when
    there are any, BR-15), and its damage.

    Ruling BR-3: a unit MegaMek wrote as ``devastated`` (no wreck to recover) is at least
    truly destroyed. An enemy's ``salvage`` section mixes wrecks with units still on the map, so
    there it counts as a wreck only with a kill entry or when the owner's view agrees.
    """
    sections = {(unit.side_id in file_views(f, owners), u.section) for f, u in views}
    own_sections = {s for own, s in sections if own}
    any_sections = {s for _, s in sections}
    state = damage_state(subject_for(unit, chosen.damage))
    why = [f"sections: {', '.join(sorted(s.value for s in any_sections))}"]
    if state is DamageState.UTTERLY_DESTROYED:
        return Fate.UTTERLY_DESTROYED, [*why, "every internal location destroyed"]
    if state is DamageState.TRULY_DESTROYED:
        return Fate.TRULY_DESTROYED, [*why, "truly destroyed by the glossary rows"]
    if RecordSection.DEVASTATED in any_sections:
        return Fate.TRULY_DESTROYED, [*why, "devastated: no wreck to recover (BR-3)"]
    if own_sections:
        wreck = RecordSection.SALVAGE in own_sections
    else:
        wreck = RecordSection.SALVAGE in any_sections and (
            unit.unit_id in killed_ids or bool(salvage_reasons(chosen.mobility))
        )
    if wreck:
        return Fate.DESTROYED_REPAIRABLE, [*why, "destroyed in the game, repairable"]
    if RecordSection.RETREATED in any_sections:
        return Fate.RETREATED, why
    # A unit its own side's file does not name while that side reported never gets here: the
    # other files' word on it is an unconfirmed claim, held (BR-12, which replaced BR-4's
    # "missing").
    if _has_damage(chosen.damage):
        return Fate.DAMAGED, why
    return Fate.OPERATIONAL, why


# --- the resolution ---------------------------------------------------------------------------


def resolve(
    state: CampaignState,
    battle: Battle,
    control: str,
    dice: Dice,
    closed_by: RefereeNote | None,
    tables: TripWireTables | None = None,
) -> tuple[BattleResolution, tuple[Roll, ...]]:
    t = tables or load_tables()
    views = views_by_unit(battle)
    killed_ids = {uid for f in battle.in_force for k in f.kills for uid in k.killed_unit_ids}
    owners = {uid: u.side_id for uid, u in state.units.items()}
    conflicts: list[Conflict] = []
    units: list[UnitOutcome] = []
    chosen_views: dict[str, ReportedUnit] = {}
    held = unconfirmed_claims(state, battle)
    # R-VP-7: a unit that left play before this battle (truly destroyed, L145-L146; sold,
    # scrapped) is no force and no loss in it, whatever a file still says of it.
    gone = {u: reason for u in views if (reason := out_of_play(state, u))}
    for unit_id in sorted(views):
        unit = state.units[unit_id]
        if unit_id in gone:
            conflicts.append(_gone_conflict(unit, gone[unit_id]))
            continue
        if unit_id in held:
            conflicts.append(held_conflict(state, unit_id, held[unit_id]))
            continue
        # BR-15: the owner's own file decides; other files' contrary claims are conflicts.
        trusted = trusted_views(unit, views[unit_id], owners)
        conflicts.extend(overruled_claims(unit, views[unit_id], owners, killed_ids))
        _, chosen = authoritative(unit.side_id, trusted, owners)
        chosen_views[unit_id] = chosen
        conflicts.extend(damage_conflicts(unit_id, chosen, views[unit_id]))
        units.append(settled(unit, chosen, trusted, killed_ids, owners, control, t))
    by_id = {u.unit_id: u for u in units}
    kills, kill_conflicts = credited_kills(state, battle, {*held, *gone}, by_id)
    conflicts.extend(kill_conflicts)
    people, rolls = _people(state, battle, control, chosen_views, by_id, dice, t, kills)
    sides = _sides(state, units, people, t)
    return (
        BattleResolution(
            control_side=control,
            track=state.tracks_completed + 1,
            units=tuple(units),
            people=tuple(people),
            sides=tuple(sides),
            conflicts=tuple(conflicts),
            closed_by=closed_by,
        ),
        tuple(rolls),
    )


def settled(
    unit: CampaignUnit,
    chosen: ReportedUnit,
    trusted: list[Seen],
    killed_ids: set[str],
    owners: Mapping[str, str],
    control: str,
    t: TripWireTables,
) -> UnitOutcome:
    """One unit's outcome from the views trusted for it: fate, salvage, repair."""
    fate, why = _fate(unit, chosen, trusted, killed_ids, owners)
    reasons = tuple(cite(r) for r in salvage_reasons(chosen.mobility))
    salvaged_by: str | None = None
    if (
        unit.side_id != control
        and reasons
        and fate not in (Fate.UTTERLY_DESTROYED, Fate.RETREATED)
        and RecordSection.DEVASTATED not in {u.section for _, u in trusted}
    ):
        salvaged_by = control
        # A truly destroyed wreck changes hands too (it can still be scrapped), but its
        # fate stays what it is; a repairable one is captured.
        if fate is not Fate.TRULY_DESTROYED:
            fate = Fate.CAPTURED
        why.append(f"salvaged by {control}, who controls the field")
    return _unit_outcome(unit, chosen, fate, why, salvaged_by, reasons, t)


def _unit_outcome(
    unit: CampaignUnit,
    chosen: ReportedUnit,
    fate: Fate,
    why: list[str],
    salvaged_by: str | None,
    reasons: tuple[str, ...],
    t: TripWireTables,
) -> UnitOutcome:
    subject = subject_for(unit, chosen.damage)
    try:
        scrap: int | None = scrap_value(subject, t)
    except Refusal:
        scrap = None
    crew_heal = injuries.vehicle_crew_heal_cost(chosen.crew_damage, t) if chosen.crew_damage else 0
    return UnitOutcome(
        unit_id=unit.unit_id,
        side_id=unit.side_id,
        fate=fate,
        damage=chosen.damage,
        repair=repair_line(unit, chosen.damage, t),
        salvaged_by=salvaged_by,
        salvage_reasons=reasons,
        must_withdraw=fate in (Fate.DAMAGED, Fate.OPERATIONAL, Fate.RETREATED)
        and not can_retreat(chosen.mobility),
        scrap_wp=scrap,
        crew_heal_sp=crew_heal,
        crew_damage=chosen.crew_damage,
        # "Infantry with a move of 1 and no transport have to lay down arms and surrender."
        # The files do not say who carries whom: a foot unit of move 1 is flagged.
        surrenders_if_retreating=unit.kind is UnitKind.CONVENTIONAL_INFANTRY
        and chosen.move_mp is not None
        and infantry_must_surrender(chosen.move_mp, has_transport=False, tables=t),
        reasons=tuple(why),
    )


def _ejections(state: CampaignState, battle: Battle) -> tuple[set[str], set[str]]:
    """The people of the campaign who ejected in the battle, and those of them rescued."""
    # Ejected crews on foot: who picked them up, and whether they left the map. BR-15: when
    # the crew's own side sent a file, only its own files say whether its people ejected.
    views_of, reporting = file_sides(state, battle)
    rescued: set[str] = set()
    ejected: set[str] = set()
    for f in battle.in_force:
        for ej in f.ejections:
            for pid in ej.person_ids:
                if pid not in state.people:
                    continue
                side = state.people[pid].side_id
                if side in reporting and side not in views_of[id(f)]:
                    continue
                ejected.add(pid)
                own = state.people[pid].side_id
                rescuer = state.units.get(ej.picked_up_by or "")
                if ej.section is RecordSection.RETREATED or (
                    rescuer is not None and rescuer.side_id == own
                ):
                    rescued.add(pid)
    return ejected, rescued


def _people(
    state: CampaignState,
    battle: Battle,
    control: str,
    chosen: dict[str, ReportedUnit],
    outcomes: dict[str, UnitOutcome],
    dice: Dice,
    t: TripWireTables,
    kills: Mapping[str, int],
) -> tuple[list[PersonOutcome], list[Roll]]:
    seen: dict[str, tuple[ReportedPerson, str]] = {}  # person -> (as reported, unit id)
    for unit_id, view in chosen.items():
        for p in view.crew:
            if p.person_id and p.person_id in state.people:
                seen[p.person_id] = (p, unit_id)
    ejected, rescued = _ejections(state, battle)
    people: list[PersonOutcome] = []
    rolls: list[Roll] = []
    for pid in sorted(seen):
        reported, unit_id = seen[pid]
        person = state.people[pid]
        hits = min(reported.hits, injuries_kia(t))
        fate = PersonFate.ACTIVE if hits == 0 else PersonFate.INJURED
        roll: Roll | None = None
        captured_by: str | None = None
        if injuries.is_dead(hits, t):
            fate = PersonFate.KIA
        elif injuries.death_roll_due(hits, t):
            result, dice = injuries.roll_death(dice, pid, t)
            roll = result.roll
            rolls.append(roll)
            if result.dies:
                fate = PersonFate.DIED_OF_WOUNDS
        alive = fate in (PersonFate.ACTIVE, PersonFate.INJURED)
        outcome = outcomes[unit_id]
        was_ejected = reported.ejected or pid in ejected
        # Ruling BR-5: the side holding the field recovers ejected crews; the other side's
        # ejected crews are captured unless a friendly unit picked them up or they left the
        # map; a crew still inside a unit the enemy salvages is captured too.
        stranded = (was_ejected and pid not in rescued) or (
            outcome.salvaged_by is not None and not was_ejected
        )
        if alive and person.side_id != control and stranded:
            fate, captured_by = PersonFate.CAPTURED, control
        if alive and was_ejected and captured_by is None:
            fate = PersonFate.RECOVERED
        heal: int | None = None
        if alive and 0 < hits < injuries_kia(t):
            heal = injuries.heal_cost(hits, t)
        n_kills = kills.get(pid, 0)
        people.append(
            PersonOutcome(
                person_id=pid,
                side_id=person.side_id,
                hits_before=person.hits,
                hits=hits,
                fate=fate,
                heal_cost_sp=heal,
                needs_hospital=alive and injuries.needs_hospital(hits, t),
                captured_by=captured_by,
                kills=n_kills,
                may_train=n_kills > 0 and fate is not PersonFate.CAPTURED and alive,
                death_roll=roll,
            )
        )
    return people, rolls


def injuries_kia(t: TripWireTables) -> int:
    return t.injury_rules.kia_hits


def _sides(
    state: CampaignState,
    units: list[UnitOutcome],
    people: list[PersonOutcome],
    t: TripWireTables,
) -> list[SideOutcome]:
    fallen = {p.person_id for p in people if p.fate in _LOST_PERSON}
    commander_lost = {
        side: any(
            state.units[u.unit_id].side_id == side
            and UnitRole.FORCE_COMMANDER in state.units[u.unit_id].roles
            and state.units[u.unit_id].crew
            and state.units[u.unit_id].crew[0] in fallen
            for u in units
        )
        for side in sorted({u.side_id for u in units})
    }
    return _scored(state, units, commander_lost, t)


def rescored(
    state: CampaignState, resolution: BattleResolution, tables: TripWireTables | None = None
) -> tuple[SideOutcome, ...]:
    """The sides' outcomes of a resolved battle scored again with the units' BV now (R-VP-6:
    a BV recorded after the battle). Who lost a commander stays as the battle recorded it."""
    lost = {x.side_id: x.commander_lost for x in resolution.sides}
    return tuple(_scored(state, list(resolution.units), lost, tables or load_tables()))


def _scored(
    state: CampaignState,
    units: list[UnitOutcome],
    commander_lost: dict[str, bool],
    t: TripWireTables,
) -> list[SideOutcome]:
    # A unit no longer in the campaign has no BV to read: unknown, like one without a BV.
    bv = {u.unit_id: state.battles.bv_override.get(u.unit_id, state.units[u.unit_id].bv)
          if u.unit_id in state.units else 0 for u in units}  # fmt: skip
    start: dict[str, int] = {}
    lost: dict[str, int] = {}
    for u in units:
        start[u.side_id] = start.get(u.side_id, 0) + bv[u.unit_id]
        if u.fate in DESTROYED_FATES:
            lost[u.side_id] = lost.get(u.side_id, 0) + bv[u.unit_id]
    without_bv = tuple(sorted(u for u, v in bv.items() if v <= 0))
    out: list[SideOutcome] = []
    for side in sorted(start):
        enemy_start = sum(v for s, v in start.items() if s != side)
        enemy_lost = sum(v for s, v in lost.items() if s != side)
        own_commander = commander_lost.get(side, False)
        outcome = BattleOutcome(
            own_starting_bv=start[side],
            own_destroyed_bv=lost.get(side, 0),
            enemy_starting_bv=enemy_start,
            enemy_destroyed_bv=enemy_lost,
            enemy_commander_lost=any(v for s, v in commander_lost.items() if s != side),
            own_commander_lost=own_commander,
        )
        # R-VP-6: a unit without a BV makes every share of this battle unknown (its own side's
        # and its enemy's): no VP are scored on a partial sum, the units are named instead.
        awards = () if without_bv else battle_vp(outcome, t)
        out.append(
            SideOutcome(
                side_id=side,
                starting_bv=start[side],
                destroyed_bv=lost.get(side, 0),
                vp_awards=tuple(f"{a.key}: {a.vp:+d} ({cite(a.source)})" for a in awards),
                vp_delta=sum(a.vp for a in awards),
                commander_lost=own_commander,
                # R-VP-6: "reaches 50% of its starting BV" (L413) cannot be told while one of
                # the side's own units has no BV: not known (None), never a partial-sum answer.
                retires=None
                if any(u.side_id == side and bv[u.unit_id] <= 0 for u in units)
                else start[side] > 0
                and must_retire(start[side] - lost.get(side, 0), start[side], t),
                units_without_bv=without_bv,
            )
        )
    return out


_LOST_PERSON = frozenset({PersonFate.KIA, PersonFate.DIED_OF_WOUNDS, PersonFate.CAPTURED})
