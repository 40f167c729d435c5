"""Turn a MegaMek ``.mul`` (battle record or unit list) into a battle report command.

Pure: the shell injects the unit-design lookup (``design_for``) that tells each unit's original
armor and structure. What it hands the rules is plain data (``SubmitBattleReport``
carrying :class:`~mekref.rules.tripwire.battle_model.BattleFile`): unit conditions as the rules'
own dataclasses, crews with hits and ejections and person ids, kills and sections, the file's
sha256. No ``MulFile`` goes into the log.

Matching, in order: the entity's ``externalId`` (a campaign unit id); a crew member's
``externalId`` (a campaign person, whose unit it is); else chassis + model, narrowed by the
pilot's name when several units share a design. Several candidates left is an
:class:`AmbiguousMatch` naming them: a referee resolves it, nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import PurePath

from mekref.adapters.megamek.condition import LEG_NAMES, UnitCondition, merge_condition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.ejections import find_ejections
from mekref.adapters.megamek.mul_model import Entity, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.unit_kinds import location_name
from mekref.rules.battle_files import AmbiguousMatch, FileNotForCampaign
from mekref.rules.messages import Command
from mekref.rules.tripwire.battle_messages import SubmitBattleReport
from mekref.rules.tripwire.battle_model import (
    AmmoBinLoad,
    BattleFile,
    RecordSection,
    ReportedEjection,
    ReportedKill,
    ReportedPerson,
    ReportedUnit,
    SlotDamage,
    UnitDamage,
)
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.file_view import reporting_side
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage, bin_tons
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import CampaignState, CampaignUnit

__all__ = [
    "AmbiguousMatch",
    "FileNotForCampaign",
    "campaign_matches",
    "crew_damage_of",
    "loadout_of",
    "match_units",
    "report_command",
    "unit_damage",
]


def _file_ids(mul: MulFile) -> tuple[set[str], set[str]]:
    units = {e.external_id for e in mul.entities if e.external_id}
    people = {m.external_id for e in mul.entities for m in e.members if m.external_id}
    return units, people


def campaign_matches(state: CampaignState, mul: MulFile) -> bool:
    """True when an entity or crew externalId of the file is a campaign unit or person.

    A file carrying no externalIds at all (a group's first battle) matches when one of its
    entities fits a campaign unit by chassis and model.
    """
    units, people = _file_ids(mul)
    if units & set(state.units) or people & set(state.people):
        return True
    if units or people:
        return False
    designs = {(u.chassis, u.model) for u in state.units.values()}
    return any((e.chassis, e.model) in designs for e in mul.entities if not e.is_ejected_crew)


# --- matching ---------------------------------------------------------------------------------


def _describe(unit: CampaignUnit, state: CampaignState) -> str:
    pilot = "-"
    if unit.crew and unit.crew[0] in state.people:
        pilot = state.people[unit.crew[0]].name
    return f"{unit.unit_id} ({unit.chassis} {unit.model}, {pilot}, side {unit.side_id})"


def _by_person(state: CampaignState, entity: Entity) -> str | None:
    for m in entity.members:
        person = state.people.get(m.external_id or "")
        if person is not None and person.unit_id in state.units:
            return person.unit_id
    return None


def match_units(
    state: CampaignState, mul: MulFile, assigned: Mapping[int, str] | None = None
) -> dict[int, tuple[str, str]]:
    """Entity position in ``mul.entities`` -> (campaign unit id, how it was matched).

    ``assigned`` is the referee's word for entities names cannot settle: the entity's line in
    the file -> the campaign unit id.
    """
    found: dict[int, tuple[str, str]] = {}
    by_line = dict(assigned or {})
    for line, unit_id in by_line.items():
        if unit_id not in state.units:
            raise AmbiguousMatch(f"line {line}", (), f"--assign {line}={unit_id}: no such unit")
        if not any(e.line == line for e in mul.entities):
            raise AmbiguousMatch(f"line {line}", (), f"--assign {line}: no entity starts there")
    for i, e in enumerate(mul.entities):
        if e.is_ejected_crew:
            continue
        if e.line is not None and e.line in by_line:
            found[i] = (by_line[e.line], "referee")
        elif e.external_id and e.external_id in state.units:
            found[i] = (e.external_id, "external_id")
        elif (pid_unit := _by_person(state, e)) is not None:
            found[i] = (pid_unit, "pilot_external_id")
    taken = {uid for uid, _ in found.values()}
    for i, e in enumerate(mul.entities):
        if i in found or e.is_ejected_crew or e.external_id in state.units:
            continue
        candidates = [
            u
            for u in state.units.values()
            if u.chassis == e.chassis and u.model == e.model and u.unit_id not in taken
        ]
        if len(candidates) > 1:
            names = {m.name for m in e.members}
            by_pilot = [
                u
                for u in candidates
                if u.crew and u.crew[0] in state.people and state.people[u.crew[0]].name in names
            ]
            if len(by_pilot) != 1:
                listed = tuple(
                    _describe(u, state) for u in sorted(candidates, key=lambda u: u.unit_id)
                )
                pilots = ", ".join(sorted(names)) or "no pilot"
                raise AmbiguousMatch(
                    e.display_name,
                    listed,
                    f"{e.display_name} (pilot {pilots}, line {e.line}) fits {len(candidates)} "
                    f"campaign units and the pilot's name does not decide: {'; '.join(listed)}. "
                    f"Give the entity its unit's externalId, or have the referee name it "
                    f"(--assign {e.line}=UNIT_ID).",
                )
            candidates = by_pilot
        if len(candidates) == 1:
            found[i] = (candidates[0].unit_id, "name")
            taken.add(candidates[0].unit_id)
    return found


# --- conditions -------------------------------------------------------------------------------


def _lost_without_design(cond: UnitCondition, kind: UnitKind, index: int, destroyed: bool) -> bool:
    """Without a design the maxima are unknown, but the file still says a location is gone: it
    is destroyed, or (a vehicle) its internal structure is written as 0."""
    if cond.design is not None:
        return False
    if destroyed:
        return True
    written = cond.entity.location(index)
    return kind.is_vehicle and written is not None and written.internal == 0


def _locations(cond: UnitCondition, kind: UnitKind) -> tuple[LocationDamage, ...]:
    if kind.is_infantry:
        return ()
    out = [
        LocationDamage(
            name=loc.name,
            armor_max=loc.armor_max + (loc.rear_max or 0),
            armor_now=loc.armor + (loc.rear or 0),
            internal_max=loc.internal_max,
            internal_now=loc.internal,
            is_center_torso=kind is UnitKind.MEK and loc.name == "Center Torso",
            destroyed=_lost_without_design(cond, kind, loc.index, loc.destroyed),
        )
        for loc in cond.locations
    ]
    si_max = cond.structural_integrity_max
    if si_max:
        si_now = min(max(cond.structural_integrity or 0, 0), si_max)
        out.append(
            LocationDamage(
                name="Structural Integrity",
                armor_max=0,
                armor_now=0,
                internal_max=si_max,
                internal_now=si_now,
            )
        )
    return tuple(out)


def _critical_hits(cond: UnitCondition) -> int:
    systems = sum(n for _, n in cond.system_hits) + cond.unidentified_system_hits
    equipment = sum(
        1
        for loc in cond.entity.locations
        if not loc.destroyed
        for s in loc.slots
        if not s.is_system and s.damaged
    )
    tank = sum(1 for name, _ in cond.entity.tank_crits if name in ("engine", "sensors"))
    # <acriticals>: each listed system is hit ("None" = destroyed); the gear is billed apart.
    aero = sum(1 for name, _ in cond.entity.aero_crits if name != "gear")
    return systems + equipment + tank + aero


def loadout_of(cond: UnitCondition) -> tuple[AmmoBinLoad, ...]:
    """Every bin of the unit with the shots the file says it holds now."""
    return tuple(
        AmmoBinLoad(location=a.location, slot=a.slot, ammo_type=a.ammo_type, shots=a.shots)
        for a in cond.ammo
    )


def _ammo_used(cond: UnitCondition, loadout: tuple[AmmoBinLoad, ...] | None) -> tuple[AmmoUse, ...]:
    """Tons to re-arm per ammunition type.

    Ruling BR-6: a bin is one ton (half a ton for MegaMek's half-ton bins, R-AMMO-2); the
    shots it held at import are its full load (the standard load never changes, line 23). A
    bin in a destroyed location is a full bin to replace. Without an import load the design's
    capacity is used when it states one; a bin of unknown capacity costs a bin only when it is
    empty.
    """
    used: dict[str, Fraction] = {}
    # Vehicles write every bin of a location with index "N/A": bins of one location, slot and
    # type are paired in file order.
    now: dict[tuple[str, int | None, str], list[int]] = {}
    for a in cond.ammo:
        now.setdefault((a.location, a.slot, a.ammo_type), []).append(a.shots)
    lost = set(cond.destroyed_locations)
    if loadout:
        for b in loadout:
            left = now.get((b.location, b.slot, b.ammo_type))
            current = left.pop(0) if left else None
            if b.shots <= 0:
                continue
            if current is None:
                spent = b.shots if b.location in lost else 0
            else:
                spent = max(b.shots - current, 0)
            if spent:
                tons = Fraction(spent, b.shots) * bin_tons(b.ammo_type)
                used[b.ammo_type] = used.get(b.ammo_type, Fraction(0)) + tons
    else:
        for a in cond.ammo:
            if a.shots_max:
                spent = max(a.shots_max - a.shots, 0)
                if spent:
                    tons = Fraction(spent, a.shots_max) * bin_tons(a.ammo_type)
                    used[a.ammo_type] = used.get(a.ammo_type, Fraction(0)) + tons
            elif a.shots == 0:
                used[a.ammo_type] = used.get(a.ammo_type, Fraction(0)) + bin_tons(a.ammo_type)
    return tuple(AmmoUse(ammo_type=k, tons=v) for k, v in sorted(used.items()))


def _damaged_slots(cond: UnitCondition) -> tuple[SlotDamage, ...]:
    """Every slot the file marks hit, destroyed or missing, outside lost locations (a lost
    location goes out destroyed as a whole)."""
    out = []
    design = cond.design
    for loc in cond.entity.locations:
        if loc.destroyed:
            continue
        name = loc.name or location_name(cond.kind, loc.index) or f"location {loc.index}"
        for s in loc.slots:
            if not s.damaged:
                continue
            system = (
                design.system_at(loc.index, s.index)
                if design is not None and s.is_system and s.index
                else None
            )
            out.append(
                SlotDamage(
                    location=name,
                    slot=s.index,
                    item=s.type,
                    system=None if system is None else system.value,
                    hit=s.is_hit,
                    destroyed=s.is_destroyed,
                    missing=s.is_missing,
                )
            )
    return tuple(out)


def unit_damage(
    cond: UnitCondition, kind: UnitKind, loadout: tuple[AmmoBinLoad, ...] | None = None
) -> UnitDamage:
    suits_damaged = 0
    if kind is UnitKind.BATTLE_ARMOR:
        suits_damaged = sum(
            1 for loc in cond.locations if loc.index >= 1 and not loc.destroyed and loc.armor_lost
        )
    return UnitDamage(
        locations=_locations(cond, kind),
        critical_hits=_critical_hits(cond),
        ammo_used=_ammo_used(cond, loadout),
        troopers_alive=cond.troopers,
        troopers_max=cond.troopers_max,
        suits_damaged=suits_damaged,
        landing_gear_damaged=kind is UnitKind.DROPSHIP
        and any(name == "gear" for name, _ in cond.entity.aero_crits),
        design_known=cond.design is not None,
        ammo_bins=loadout_of(cond),
        damaged_slots=_damaged_slots(cond),
    )


def _mobility(cond: UnitCondition, kind: UnitKind) -> UnitMobility:
    e = cond.entity
    members = e.members
    crew_dead = bool(members) and all(m.dead for m in members)
    legs: int | None = None
    if kind is UnitKind.MEK:
        leg_locs = [loc for loc in cond.locations if loc.name in LEG_NAMES]
        legs = sum(1 for loc in leg_locs if not loc.destroyed) if leg_locs else None
    head = cond.location("Head")
    tank = dict(e.tank_crits)
    immobile = False
    if kind.is_vehicle:
        walk = cond.design.walk_mp if cond.design else 0
        # Ruling BR-7: a vehicle is immobile when its motive damage takes all its MP or
        # its engine is hit (an engine hit immobilises a vehicle in Total Warfare).
        immobile = (walk > 0 and cond.motive_damage >= walk) or tank.get("engine") == "hit"
    return UnitMobility(
        kind=kind,
        crew_ejected=bool(e.crew and e.crew.ejected),
        legs_remaining=legs,
        gyro_hits=cond.hits(SystemKind.GYRO),
        gyro_destroyed=cond.hits(SystemKind.GYRO) >= 2,
        engine_hits=cond.hits(SystemKind.ENGINE),
        head_destroyed=head is not None and head.destroyed,
        cockpit_hit=cond.hits(SystemKind.COCKPIT) > 0,
        crew_dead=crew_dead,
        vehicle_immobile=immobile,
    )


def _crew(state: CampaignState, e: Entity, unit: CampaignUnit) -> tuple[ReportedPerson, ...]:
    out = []
    for pos, m in enumerate(e.members):
        pid = m.external_id if m.external_id in state.people else None
        if pid is None:
            # Files without person ids: the seat's name must agree with the campaign person.
            seat = unit.crew[pos] if pos < len(unit.crew) else None
            if seat is not None and seat in state.people and state.people[seat].name == m.name:
                pid = seat
            elif seat is not None and len(e.members) == 1 and len(unit.crew) == 1:
                pid = seat  # the one seat of a one-seat unit is its pilot, renamed or not
        out.append(
            ReportedPerson(
                person_id=pid,
                name=m.name,
                hits=min(m.hits, 6),
                ejected=bool(e.crew and e.crew.ejected),
            )
        )
    return tuple(out)


def crew_damage_of(e: Entity) -> int:
    """A vehicle's driver and commander hit results (the Heal Vehicle Crew row)."""
    tank = dict(e.tank_crits)
    return sum(1 for key in ("driver", "commander") if tank.get(key) in ("hit", "console"))


def _killed_ids(killed: str, ids_by_name: dict[str, list[str]]) -> tuple[str, ...]:
    """Kill lines name the victim by display name, newer MegaMek adds " (owner)" after it."""
    out = [
        uid
        for name, ids in ids_by_name.items()
        if killed == name or killed.startswith(name + " (")
        for uid in ids
    ]
    return tuple(sorted(out))


def report_command(
    state: CampaignState,
    mul: MulFile,
    *,
    sha256: str,
    path: str,
    design_for: DesignLookup | None,
    actor: str,
    assigned: Mapping[int, str] | None = None,
) -> Command:
    """The ``SubmitBattleReport`` a file becomes. Raises FileNotForCampaign / AmbiguousMatch.

    ``assigned``: the referee's matches for entities by their line in the file.
    """
    matches = match_units(state, mul, assigned)
    _, people_ids = _file_ids(mul)
    if not matches:
        ids, _ = _file_ids(mul)
        why = (
            f"none of its {len(ids)} unit ids and {len(people_ids)} person ids is in campaign "
            f"{state.name!r}"
            if ids or people_ids
            else f"it carries no externalIds and no entity fits a unit of campaign {state.name!r}"
        )
        raise FileNotForCampaign(f"{path}: not for this campaign: {why}")
    units: list[ReportedUnit] = []
    by_position: dict[int, str] = {}
    for i, (unit_id, how) in sorted(matches.items()):
        e = mul.entities[i]
        unit = state.units[unit_id]
        # The design the campaign kept at import; a units folder only fills in for units
        # imported without one.
        design = design_of(state, unit_id)
        if design is None and design_for is not None:
            design = design_for(e)
        cond = merge_condition(e, design)
        units.append(
            ReportedUnit(
                unit_id=unit_id,
                display_name=e.display_name,
                section=RecordSection(e.section.value),
                kind=unit.kind,
                damage=unit_damage(cond, unit.kind, state.battles.loadouts.get(unit_id)),
                mobility=_mobility(cond, unit.kind),
                crew=_crew(state, e, unit),
                crew_damage=crew_damage_of(e) if unit.kind.is_vehicle else 0,
                move_mp=design.walk_mp if design is not None else None,
                matched_by=how,
            )
        )
        by_position[i] = unit_id
    units_by_entity = {id(mul.entities[i]): uid for i, uid in by_position.items()}
    ejections = []
    for ej in find_ejections(mul):
        pids = tuple(m.external_id for m in ej.crew_entity.members if m.external_id in state.people)
        left = units_by_entity.get(id(ej.left_unit)) if ej.left_unit is not None else None
        if not pids and left is not None:
            pids = state.units[left].crew
        if not pids:
            continue
        rescuer = ej.picked_up_by if ej.picked_up_by in state.units else None
        ejections.append(
            ReportedEjection(
                person_ids=tuple(p for p in pids if p),
                names=tuple(m.name for m in ej.crew_entity.members),
                section=RecordSection(ej.crew_entity.section.value),
                left_unit_id=left,
                picked_up_by=rescuer,
            )
        )
    ids_by_name: dict[str, list[str]] = {}
    for i, uid in by_position.items():
        name = mul.entities[i].display_name
        ids_by_name.setdefault(name, []).append(uid)
    # Kill lines name only the enemies of the file's player: never count the player's own
    # units of the same display name among the victims.
    killers = tuple(
        ReportedKill(killed_name=k.killed, killed_unit_ids=(), killer_unit_id=k.killer)
        for k in mul.kills
        if k.killer in state.units
    )
    unmatched = tuple(
        e.display_name
        for i, e in enumerate(mul.entities)
        if i not in matches and not e.is_ejected_crew
    )
    view = reporting_side(
        state,
        BattleFile(
            sha256=sha256,
            path=path,
            root="",
            reporting_side=None,
            units=tuple(units),
            kills=killers,
            unmatched=unmatched,
        ),
    )
    if view is not None:
        ids_by_name = {
            name: [u for u in ids if state.units[u].side_id != view]
            for name, ids in ids_by_name.items()
        }
    kills = tuple(
        ReportedKill(
            killed_name=k.killed,
            killed_unit_ids=_killed_ids(k.killed, ids_by_name),
            killer_unit_id=k.killer if k.killer in state.units else None,
        )
        for k in sorted(mul.kills, key=lambda k: (k.killed, k.killer or ""))
    )
    file = BattleFile(
        sha256=sha256,
        # Only the file's name: the same files replayed from another folder must fold to the
        # same state (the store keeps the full path with the file's hash).
        path=PurePath(path).name,
        root=mul.root.value if isinstance(mul.root, RootKind) else str(mul.root),
        reporting_side=None,  # the rules decide whose view it is from the campaign's units
        units=tuple(units),
        ejections=tuple(ejections),
        kills=kills,
        unmatched=unmatched,
    )
    return SubmitBattleReport(file=file, actor=actor)


def unpriced_warnings(file: BattleFile) -> tuple[str, ...]:
    """One line per unit of the file whose damage was read without a design."""
    return tuple(
        f"{u.display_name} ({u.unit_id}): no design known, its damage is read from the file "
        "alone and its repair cannot be priced; record the design with 'mekref force designs "
        "--units-dir DIR'"
        for u in file.units
        if not u.damage.design_known
    )


_ = Section  # the adapter's section values are the rules' RecordSection values, by name
