"""Whose view a battle file is (ruling BR-1, docs/rulings.md).

MegaMek writes no player name in a ``<record>``: it is "a battle result seen from one player's
point of view", and who that player is shows only in where it put each unit (the MegaMek
format reference, section 3.2): the player's own units still in the game (or gone off the map)
are its ``survivors``; an enemy still on the map is ``salvage``, an enemy that left it
``retreated``; every wreck is ``salvage`` (or ``devastated``), and only an *enemy's* wreck gets
a ``kill`` line. So the file of a player who lost every unit has no survivors: its own units
are all wrecks, with no kill line naming them.

The same content always gets the same answer, however the file arrived: a file a side uploads
with its token must be that side's view by this rule (the token is a check, never the answer),
so a replay of the stored files gives the same campaign.
"""

from __future__ import annotations

from mekref.rules.tripwire.battle_model import (
    SAVEGAME_ROOT,
    BattleFile,
    RecordSection,
    ReportedUnit,
)
from mekref.rules.tripwire.battle_resolution import subject_for
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.repair import DamageState, damage_state
from mekref.rules.tripwire.salvage import salvage_reasons
from mekref.rules.tripwire.state import CampaignState

#: Where a file puts its own player's units: a record's survivors, a plain list's units.
_OWN_SECTIONS = (RecordSection.SURVIVORS, RecordSection.UNIT)
_GONE_FOR_GOOD = (DamageState.TRULY_DESTROYED, DamageState.UTTERLY_DESTROYED)


def reporting_side(state: CampaignState, file: BattleFile) -> str | None:
    """The one side whose view ``file`` is, or None when the file does not tell (BR-1).

    1. The one side owning its ``survivors`` (or a plain list's units); several: no side.
    2. No survivors: the one side whose units scored its kill lines.
    3. No survivors and no kill scored by a campaign unit: the one side every unit of which
       the file shows destroyed (its player lost them all), when that side alone fits.
    Otherwise the file reports for no side: it still counts as evidence, and the referee may
    close the battle. A savegame a side uploaded is that side's (BR-15), when it lists a unit
    of that side.
    """
    if file.root == SAVEGAME_ROOT and file.uploaded_by is not None:
        listed = {state.units[u.unit_id].side_id for u in file.units if u.unit_id in state.units}
        return file.uploaded_by if file.uploaded_by in listed else None
    sides = {
        state.units[u.unit_id].side_id
        for u in file.units
        if u.section in _OWN_SECTIONS and u.unit_id in state.units
    }
    if sides:
        return sides.pop() if len(sides) == 1 else None
    killers = {
        state.units[k.killer_unit_id].side_id for k in file.kills if k.killer_unit_id in state.units
    }
    if killers:
        return killers.pop() if len(killers) == 1 else None
    return wiped_out_side(state, file)


def wiped_out_side(state: CampaignState, file: BattleFile) -> str | None:
    """The one side the file shows wiped out, read as that side's own view (BR-1, rule 3).

    A side fits when the file lists units of it still in play, every one destroyed (see
    :func:`destroyed_in`), and nothing in the file makes it the writer's enemy: none of its
    units ``retreated`` (an own retreat is a survivor) and no kill line names only units of
    it (an own wreck gets no kill line). Not told (None) when no side or several fit, or when
    the file lists entities that are no campaign unit (they may be its player's survivors).
    """
    if file.unmatched:
        return None
    side_of = {
        u.unit_id: state.units[u.unit_id].side_id for u in file.units if u.unit_id in state.units
    }
    enemies = {side_of[u.unit_id] for u in file.units if u.section is RecordSection.RETREATED}
    for k in file.kills:
        named = {side_of[u] for u in k.killed_unit_ids if u in side_of}
        if len(named) == 1:
            enemies |= named
    listed: dict[str, list[ReportedUnit]] = {}
    for u in file.units:
        if u.unit_id in side_of and in_play(state, u.unit_id):
            listed.setdefault(side_of[u.unit_id], []).append(u)
    fits = [
        side
        for side, units in sorted(listed.items())
        if side not in enemies and all(destroyed_in(state, u) for u in units)
    ]
    return fits[0] if len(fits) == 1 else None


def destroyed_in(state: CampaignState, seen: ReportedUnit) -> bool:
    """Whether the file shows the unit destroyed, whoever wrote it: ``devastated``, or
    ``salvage`` with its damage past repair (L145-L147) or immobile by a row of the salvage
    list (L137-L143: crew ejected or dead, no legs, gyro or engine, head or cockpit, a
    vehicle's crew or motive) — what makes MegaMek take a unit off the map. An enemy still on
    the map is ``salvage`` too, but standing."""
    if seen.section is RecordSection.DEVASTATED:
        return True
    if seen.section is not RecordSection.SALVAGE:
        return False
    if damage_state(subject_for(state.units[seen.unit_id], seen.damage)) in _GONE_FOR_GOOD:
        return True
    return bool(salvage_reasons(seen.mobility))
