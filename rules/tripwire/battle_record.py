"""The end-of-game record MegaMek would have written for one side, from a resolved battle.

MekHQ resolves a scenario from such a file ("Resolve Manually" with a unit file:
``ResolveScenarioTracker.loadUnitsAndPilots`` through MegaMek's ``MULParser``): a ``<record>``
whose sections follow MegaMek's ``EntityListFile.saveTo`` from that side's seat, each entity
carrying our ``externalId`` (the unit's id; each crew member's, the person's id), its condition
after the battle and its crew's hits. Ruling R-REC-1 (docs/megamek-adapter.md) maps our fates on
the sections; R-REC-2 says how ejected and dead people are written; R-REC-3 refuses what the
record could only write as pristine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import (
    DEAD_HITS,
    Crew,
    CrewMember,
    Entity,
    Kill,
    MulFile,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleResolution,
    Fate,
    PersonFate,
    PersonOutcome,
    RecordSection,
    ReportedPerson,
    UnitOutcome,
)
from mekref.rules.tripwire.claims import authoritative, trusted_views, views_by_unit
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.megamek_crew import member_of
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.export import lay_damage, with_criticals

#: Fates of a unit still standing at the end (on the map or gone off it under its own power).
_STANDING = frozenset({Fate.OPERATIONAL, Fate.DAMAGED})
#: People the record writes "Dead": killed outright, or dead of their wounds (R-REC-2).
_DEAD = frozenset({PersonFate.KIA, PersonFate.DIED_OF_WOUNDS})


@record
class BattleRecord(Record):
    """One side's record: the file's text, a name for it, and what the referee must know."""

    battle_id: str
    side_id: str
    file_name: str
    text: str
    control_side: str
    notes: tuple[str, ...]


def _battle(state: CampaignState, battle_id: str) -> Battle:
    battle = state.battles.battles.get(battle_id)
    if battle is None:
        known = ", ".join(sorted(state.battles.battles)) or "none yet"
        raise Refusal("unknown_battle", f"no battle {battle_id!r} (battles: {known})")
    return battle


def _resolution(battle: Battle) -> BattleResolution:
    if battle.resolution is None:
        raise Refusal(
            "battle_not_resolved",
            f"battle {battle.battle_id} is not resolved yet, so no unit's fate is known: ingest "
            "every side's file and say who holds the field ('mekref battle control --battle "
            f"{battle.battle_id} --side SIDE'), or close it on the referee's word ('mekref "
            f"battle close --battle {battle.battle_id} --control SIDE --referee NAME "
            "--reason TEXT'); 'mekref battle pending' says what it waits for",
        )
    return battle.resolution


def section_for(outcome: UnitOutcome, side_id: str, devastated: bool) -> Section:
    """Ruling R-REC-1: the section MegaMek's record for ``side_id`` puts the unit in.

    Own units standing or retreated are survivors; enemy units still on the map are salvage,
    enemy retreats are retreated; wrecks of any side (a unit captured by the enemy is one) are
    salvage; a unit without a wreck (devastated, or utterly destroyed) is devastated.
    """
    own = outcome.side_id == side_id
    if devastated or outcome.fate is Fate.UTTERLY_DESTROYED:
        return Section.DEVASTATED
    if outcome.fate is Fate.RETREATED:
        return Section.SURVIVORS if own else Section.RETREATED
    if outcome.fate in _STANDING and own:
        return Section.SURVIVORS
    return Section.SALVAGE


def _reported_crew(
    state: CampaignState, battle: Battle, outcome: UnitOutcome
) -> tuple[ReportedPerson, ...]:
    """The crew as the file the resolution trusted for the unit saw it (BR-2, BR-15)."""
    owners = {uid: u.side_id for uid, u in state.units.items()}
    views = views_by_unit(battle).get(outcome.unit_id, [])
    if not views:
        return ()
    unit = replace(state.units[outcome.unit_id], side_id=outcome.side_id)
    _, chosen = authoritative(outcome.side_id, trusted_views(unit, views, owners), owners)
    return chosen.crew


def _member(
    state: CampaignState, reported: ReportedPerson, outcome: PersonOutcome | None
) -> CrewMember:
    person = state.people.get(reported.person_id or "")
    base = member_of(person) if person is not None else CrewMember(name=reported.name, hits=0)
    if outcome is None:
        return replace(base, hits=reported.hits)
    hits = DEAD_HITS if outcome.fate in _DEAD else outcome.hits
    return replace(base, hits=hits)


def _crew(
    state: CampaignState,
    reported: tuple[ReportedPerson, ...],
    people: Mapping[str, PersonOutcome],
    notes: list[str],
    label: str,
) -> Crew | None:
    if not reported:
        return None
    members = []
    for r in reported:
        outcome = people.get(r.person_id or "")
        members.append(_member(state, r, outcome))
        if r.ejected or (outcome is not None and outcome.fate is PersonFate.RECOVERED):
            fate = outcome.fate.value if outcome is not None else "ejected"
            notes.append(
                f"{label}: {r.name} ejected ({fate}); written in the unit, not as an "
                "ejected-crew entity (R-REC-2)"
            )
        if outcome is not None and outcome.fate is PersonFate.DIED_OF_WOUNDS:
            notes.append(f"{label}: {r.name} died of wounds (death roll): written hits=Dead")
    if len(members) == 1:
        return Crew(members=tuple(members))
    seated = tuple(replace(m, slot=n) for n, m in enumerate(members))
    return Crew(members=seated, crew_type="crew", size=len(members))


def _devastated(battle: Battle, unit_id: str) -> bool:
    return any(
        u.unit_id == unit_id and u.section is RecordSection.DEVASTATED
        for f in battle.files
        for u in f.units
    )


def _unknown(
    state: CampaignState, outcomes: tuple[UnitOutcome, ...], designs: Mapping[str, UnitDesign]
) -> list[str]:
    """Units whose condition the record could only write as pristine (ruling R-REC-3)."""
    out = []
    for o in outcomes:
        unit = state.units[o.unit_id]
        name = f"{unit.chassis} {unit.model} ({o.unit_id})"
        if not o.damage.design_known:
            out.append(f"{name}: its damage was read without its design")
        elif design_of(state, o.unit_id) is None and o.unit_id not in designs:
            out.append(f"{name}: no design kept for it")
    return out


def _kills(
    battle: Battle, outcomes: tuple[UnitOutcome, ...], side_id: str, names: Mapping[str, str]
) -> tuple[Kill, ...]:
    """MegaMek writes a kill for each enemy wreck (killer's externalId, or "None")."""
    killers: dict[str, str | None] = {}
    for f in battle.files:
        for k in f.kills:
            for uid in k.killed_unit_ids:
                if k.killer_unit_id is not None:
                    killers.setdefault(uid, k.killer_unit_id)
    kills: dict[str, str | None] = {}
    for o in outcomes:
        wreck = o.fate not in _STANDING and o.fate is not Fate.RETREATED
        if o.side_id != side_id and wreck:
            # Keyed by display name, as MegaMek's own table is (duplicates collapse there too).
            kills.setdefault(names[o.unit_id], killers.get(o.unit_id))
    return tuple(Kill(killed=k, killer=v) for k, v in kills.items())


def _mekhq_differs(
    o: UnitOutcome,
    section: Section,
    crew: Crew | None,
    side_id: str,
    control: str,
    label: str,
) -> list[str]:
    """Where MekHQ's resolver would read the record otherwise than mekref decided, said."""
    notes: list[str] = []
    if o.side_id != side_id:
        return notes
    alive = [m.name for m in crew.members if not m.dead] if crew is not None else []
    if section is Section.DEVASTATED and alive:
        # MekHQ reads a devastated unit's crew as dead unless they ejected (R-REC-2).
        notes.append(
            f"{label}: devastated, but {', '.join(alive)} lived (mekref's fate); MekHQ counts "
            "the crew of a devastated unit dead: set their hits in MekHQ's resolution wizard"
        )
    if section is Section.SALVAGE and o.salvaged_by is None and control != side_id:
        # MekHQ loses an own wreck on a field the enemy holds; TripWire keeps it (R-REC-1).
        notes.append(
            f"{label}: a wreck the side keeps ({o.fate.value}); MekHQ counts an own unit in "
            "salvage lost when the side did not hold the field: untick 'Totaled' for it in "
            "MekHQ's resolution wizard"
        )
    return notes


def last_battle_of(state: CampaignState, side_id: str) -> str:
    """The side's last resolved battle (the default of ``battle export-record``)."""
    fought: list[Battle] = [
        b
        for b in state.battles.battles.values()
        if b.resolution is not None and any(o.side_id == side_id for o in b.resolution.units)
    ]
    if not fought:
        raise Refusal(
            "no_resolved_battle",
            f"side {side_id!r} has no resolved battle yet ('mekref battle pending' lists the "
            "battles waiting for files or control of the field)",
        )
    return max(fought, key=lambda b: b.number).battle_id


def battle_record(
    state: CampaignState,
    battle_id: str,
    side_id: str,
    designs: Mapping[str, UnitDesign] | None = None,
) -> BattleRecord:
    """The record of ``battle_id`` as ``side_id``'s MegaMek client would have saved it.

    ``designs``: unit designs by unit id for units the campaign keeps no design for.
    Refuses a battle not resolved, a side without a unit in it, and units whose condition is
    not known (named, with what to do).
    """
    battle = _battle(state, battle_id)
    resolution = _resolution(battle)
    if side_id not in state.sides:
        raise Refusal("unknown_side", f"no side {side_id!r}; sides: {', '.join(state.sides)}")
    outcomes = resolution.units
    if not any(o.side_id == side_id for o in outcomes):
        raise Refusal("not_in_battle", f"side {side_id!r} had no unit in battle {battle_id}")
    known = designs or {}
    # Ruling R-REC-4: the side's cut of the battle, as its report shows it.
    kept = tuple(o for o in outcomes if side_id in (o.side_id, o.salvaged_by))
    unknown = _unknown(state, kept, known)
    if unknown:
        raise Refusal(
            "condition_unknown",
            "the record would write these units as undamaged: "
            + "; ".join(unknown)
            + ". Give their designs with --units-dir DIR (the .mtf/.blk files); a unit whose "
            "damage was read without its design can only be entered in MekHQ's resolution "
            "wizard by hand ('mekref force designs --units-dir DIR' keeps designs for the next "
            "battles)",
        )
    people = {p.person_id: p for p in resolution.people}
    notes: list[str] = []
    names = {
        o.unit_id: f"{state.units[o.unit_id].chassis} {state.units[o.unit_id].model}".strip()
        for o in outcomes
    }
    entities: list[Entity] = []
    for o in kept:
        unit = state.units[o.unit_id]
        design = design_of(state, o.unit_id) or known[o.unit_id]
        label = names[o.unit_id]
        bins = o.damage.ammo_bins or state.battles.loadouts.get(o.unit_id, ())
        section = section_for(o, side_id, _devastated(battle, o.unit_id))
        crew = _crew(state, _reported_crew(state, battle, o), people, notes, label)
        notes.extend(_mekhq_differs(o, section, crew, side_id, resolution.control_side, label))
        entity = Entity(
            chassis=unit.chassis,
            model=unit.model,
            movement_mode=design.movement_mode,
            external_id=o.unit_id,
            crew=crew,
            locations=lay_damage(o.damage, bins, design, only_changes=True),
            section=section,
        )
        # Motive damage, turret lock, stabilisers, vehicle and aerospace criticals, SI (R-IMP-6).
        entities.append(with_criticals(entity, o.damage, design))
    mul = MulFile(
        root=RootKind.RECORD,
        version=DEFAULT_WRITE_VERSION,
        entities=tuple(entities),
        kills=_kills(battle, outcomes, side_id, names),
    )
    return BattleRecord(
        battle_id=battle_id,
        side_id=side_id,
        file_name=f"{battle_id}-{side_id}-record.mul",
        text=write_mul(mul),
        control_side=resolution.control_side,
        notes=tuple(notes),
    )
