"""What one side's file may say of another side's units (rulings BR-12 and BR-15).

A battle file speaks for its own side's units. What it says of an enemy unit (devastated,
retreated, a wreck, a kill, a crew that ejected) is a claim: it counts only when the unit's own
side sent no file for the battle, and then only on the referee's word (``battle close``). When
the owner's own file is there, the owner's file decides; a claim that contradicts it is listed
as a conflict for the referee with both versions, and never applied. The referee settles it with
``mekref battle fate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mekref.rules.tripwire.battle_model import (
    SAVEGAME_ROOT,
    Battle,
    BattleFile,
    Conflict,
    Fate,
    RecordSection,
    ReportedUnit,
    UnitOutcome,
    file_views,
)
from mekref.rules.tripwire.salvage import salvage_reasons
from mekref.rules.tripwire.state import CampaignState, CampaignUnit

Seen = tuple[BattleFile, ReportedUnit]

#: Sections where a player's record puts units still standing (its own retreats included:
#: MegaMek's own record lists them among survivors, the format reference section 3.2).
_STANDING_SECTIONS = frozenset({RecordSection.SURVIVORS, RecordSection.UNIT, RecordSection.ALLIES})
#: Fates under which a unit was not killed: a kill line naming it is a claim its owner denies.
_NOT_KILLED = frozenset({Fate.OPERATIONAL, Fate.DAMAGED, Fate.RETREATED})


def views_by_unit(battle: Battle) -> dict[str, list[Seen]]:
    views: dict[str, list[Seen]] = {}
    for f in battle.in_force:
        for u in f.units:
            views.setdefault(u.unit_id, []).append((f, u))
    return views


def own_views(side: str, seen: Sequence[Seen], owners: Mapping[str, str]) -> list[Seen]:
    """The views of ``seen`` written by ``side`` itself (its record, a savegame it vouches for)."""
    return [(f, u) for f, u in seen if side in file_views(f, owners)]


def trusted_views(
    unit: CampaignUnit, seen: Sequence[Seen], owners: Mapping[str, str]
) -> list[Seen]:
    """Ruling BR-15: the owner's own views when it sent one; else every file's (the referee
    closed the battle without the owner's file, or the owner's side was not in it)."""
    return own_views(unit.side_id, seen, owners) or list(seen)


def authoritative(owner: str, views: Sequence[Seen], owners: Mapping[str, str]) -> Seen:
    """Ruling BR-2: the owner's own file describes its units; else the first file. Ruling
    SG-1: a savegame (the server's whole game) is every owner's own file and comes first."""
    for f, u in views:
        if f.root == SAVEGAME_ROOT and owner in file_views(f, owners):
            return f, u
    for f, u in views:
        if f.reporting_side == owner:
            return f, u
    return views[0]


def damage_conflicts(unit_id: str, chosen: ReportedUnit, views: Sequence[Seen]) -> list[Conflict]:
    out: list[Conflict] = []
    for f, u in views:
        if u is chosen:
            continue
        if u.damage.locations != chosen.damage.locations or (
            u.damage.troopers_alive != chosen.damage.troopers_alive
        ):
            out.append(
                Conflict(
                    subject=unit_id,
                    detail=f"{chosen.display_name}: damage differs in file {f.sha256[:12]} "
                    f"({u.damage.armor_lost} armor / {u.damage.internal_lost} internal lost "
                    f"there, {chosen.damage.armor_lost} / {chosen.damage.internal_lost} used)",
                )
            )
        theirs = {p.person_id: p.hits for p in u.crew if p.person_id}
        for p in chosen.crew:
            if p.person_id in theirs and theirs[p.person_id] != p.hits:
                out.append(
                    Conflict(
                        subject=p.person_id,
                        detail=f"{p.name}: {theirs[p.person_id]} hits in file {f.sha256[:12]}, "
                        f"{p.hits} used",
                    )
                )
    return out


def overruled_claims(
    unit: CampaignUnit, seen: Sequence[Seen], owners: Mapping[str, str], killed_ids: set[str]
) -> list[Conflict]:
    """Claims of other sides' files that contradict the owner's own file (BR-15)."""
    own = own_views(unit.side_id, seen, owners)
    if not own:
        return []
    own_sections = {u.section for _, u in own}
    standing = own_sections <= _STANDING_SECTIONS
    own_files = {id(f) for f, _ in own}
    out: list[Conflict] = []
    for f, u in seen:
        if id(f) in own_files:
            continue
        says = _contradiction(u, own_sections, standing, unit.unit_id in killed_ids)
        if says is None:
            continue
        writer = f.reporting_side or "a file of no side"
        theirs = ", ".join(sorted(s.value for s in own_sections))
        out.append(
            Conflict(
                subject=unit.unit_id,
                detail=f"{unit.chassis} {unit.model}: {writer} says {says} (file "
                f"{f.sha256[:12]}), but {unit.side_id}'s own file lists it in {theirs}; "
                f"{unit.side_id}'s file applied (BR-15: a side's file speaks only for its own "
                "units; the referee may set its fate with 'mekref battle fate')",
            )
        )
    return out


def _contradiction(
    claim: ReportedUnit, own_sections: set[RecordSection], standing: bool, killed: bool
) -> str | None:
    """What ``claim`` says that the owner's sections deny, or None when they agree."""
    if claim.section is RecordSection.DEVASTATED and RecordSection.DEVASTATED not in own_sections:
        return "devastated"
    if claim.section is RecordSection.RETREATED and standing:
        # The owner's survivors may hold its retreats, so they do not deny it; they do not
        # confirm it either, and a retreat on the enemy's word alone is not applied.
        return "retreated"
    wreck = killed or bool(salvage_reasons(claim.mobility))
    if claim.section is RecordSection.SALVAGE and standing and wreck:
        return "destroyed (salvage" + (", a kill line" if killed else "") + ")"
    return None


def file_sides(state: CampaignState, battle: Battle) -> tuple[dict[int, frozenset[str]], set[str]]:
    """Whose own view each file of ``battle`` is (by the file's ``id``), and every side that
    sent one."""
    owners = {uid: u.side_id for uid, u in state.units.items()}
    views_of = {id(f): file_views(f, owners) for f in battle.in_force}
    return views_of, {side for sides in views_of.values() for side in sides}


def unconfirmed_claims(state: CampaignState, battle: Battle) -> dict[str, tuple[Seen, ...]]:
    """Units that only another side's file speaks for, while their own side's file is silent.

    Ruling BR-12: a side's record may only speak for what that side could know. When a unit's
    own side has sent its file for the battle and that file does not list the unit, what other
    files say of it (devastated, salvage, damage, kills) is an unconfirmed claim: it is held as
    a conflict and never applied; the referee settles it ('mekref battle fate'). When the owner
    sent no file, the battle resolves only on the referee's word (``battle close``), which
    takes the other files as they are.
    """
    views_of, reported = file_sides(state, battle)
    out: dict[str, tuple[Seen, ...]] = {}
    for unit_id, seen in views_by_unit(battle).items():
        unit = state.units.get(unit_id)
        if unit is None or unit.side_id not in reported:
            continue
        if not any(unit.side_id in views_of[id(f)] for f, _ in seen):
            out[unit_id] = tuple(seen)
    return out


def held_conflict(state: CampaignState, unit_id: str, seen: tuple[Seen, ...]) -> Conflict:
    unit = state.units[unit_id]
    claims = ", ".join(
        sorted({f"{f.reporting_side or 'no side'} says {u.section.value}" for f, u in seen})
    )
    return Conflict(
        subject=unit_id,
        detail=f"{unit.chassis} {unit.model}: {claims}, but {unit.side_id}'s own file does "
        "not list it; not applied (BR-12: a side's file speaks only for what it could know; "
        "the referee may set its fate with 'mekref battle fate')",
    )


def credited_kills(
    state: CampaignState, battle: Battle, held: set[str], outcomes: Mapping[str, UnitOutcome]
) -> tuple[dict[str, int], list[Conflict]]:
    """Kills credited to every crew member of the killer unit (by its externalId), and a
    conflict for each kill line its victim's fate denies.

    Files of both sides may list the same kill; a kill counts once per (victim, killer). A
    kill of a unit whose fate is an unconfirmed claim (BR-12), or which the battle left
    standing (BR-15: its owner's own file shows it operational, damaged or retreated), is not
    credited.
    """
    standing = {uid for uid, o in outcomes.items() if o.fate in _NOT_KILLED}
    credited: set[tuple[str, str]] = set()
    denied: dict[tuple[str, str], str] = {}
    for f in battle.in_force:
        for k in f.kills:
            if not (k.killer_unit_id and k.killer_unit_id in state.units):
                continue
            victims = set(k.killed_unit_ids)
            if victims and victims <= held:
                continue
            if victims and victims <= standing | held:
                denied[(k.killed_name, k.killer_unit_id)] = f.sha256[:12]
                continue
            credited.add((k.killed_name, k.killer_unit_id))
    out: dict[str, int] = {}
    for _, killer in sorted(credited):
        for pid in state.units[killer].crew:
            out[pid] = out.get(pid, 0) + 1
    conflicts = [
        Conflict(
            subject=killer,
            detail=f"kill of {name} by {killer} (file {sha}): the battle left no {name} "
            "killed, as its own side's file shows; not credited (BR-15)",
        )
        for (name, killer), sha in sorted(denied.items())
        if (name, killer) not in credited
    ]
    return out, conflicts
