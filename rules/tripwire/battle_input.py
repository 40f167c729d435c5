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
from pathlib import PurePath

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.ejections import find_ejections
from mekref.adapters.megamek.mul_model import Entity, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.rules.battle_files import AmbiguousMatch, FileNotForCampaign
from mekref.rules.messages import Command
from mekref.rules.tripwire.battle_damage import crew_damage_of, mobility, unit_damage
from mekref.rules.tripwire.battle_messages import SubmitBattleReport
from mekref.rules.tripwire.battle_model import (
    BattleFile,
    RecordSection,
    ReportedEjection,
    ReportedKill,
    ReportedPerson,
    ReportedUnit,
)
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.file_view import reporting_side
from mekref.rules.tripwire.state import CampaignState, CampaignUnit

__all__ = [
    "AmbiguousMatch",
    "FileNotForCampaign",
    "campaign_matches",
    "match_units",
    "report_command",
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


def _killed_ids(killed: str, ids_by_name: dict[str, list[str]]) -> tuple[str, ...]:
    """Kill lines name the victim by display name, newer MegaMek adds " (owner)" after it."""
    out = [
        uid
        for name, ids in ids_by_name.items()
        if killed == name or killed.startswith(name + " (")
        for uid in ids
    ]
    return tuple(sorted(out))


def _not_for_campaign(state: CampaignState, mul: MulFile, path: str) -> FileNotForCampaign:
    """The refusal of a file none of whose units is the campaign's, saying why."""
    ids, people_ids = _file_ids(mul)
    why = (
        f"none of its {len(ids)} unit ids and {len(people_ids)} person ids is in campaign "
        f"{state.name!r}"
        if ids or people_ids
        else f"it carries no externalIds and no entity fits a unit of campaign {state.name!r}"
    )
    return FileNotForCampaign(f"{path}: not for this campaign: {why}")


def _reported_units(
    state: CampaignState,
    mul: MulFile,
    matches: Mapping[int, tuple[str, str]],
    design_for: DesignLookup | None,
) -> tuple[list[ReportedUnit], dict[int, str]]:
    """Each matched entity as the campaign unit it is, and unit id by the entity's position."""
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
                mobility=mobility(cond, unit.kind),
                crew=_crew(state, e, unit),
                crew_damage=crew_damage_of(e) if unit.kind.is_vehicle else 0,
                move_mp=design.walk_mp if design is not None else None,
                matched_by=how,
            )
        )
        by_position[i] = unit_id
    return units, by_position


def _reported_ejections(
    state: CampaignState, mul: MulFile, by_position: Mapping[int, str]
) -> list[ReportedEjection]:
    """The file's ejected crews of campaign people (or of a matched unit's crew)."""
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
    return ejections


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
    if not matches:
        raise _not_for_campaign(state, mul, path)
    units, by_position = _reported_units(state, mul, matches, design_for)
    ejections = _reported_ejections(state, mul, by_position)
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
        game_round=mul.game_round,
        game_phase=mul.game_phase or "",
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
