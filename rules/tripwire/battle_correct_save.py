"""Ruling SG-7 (revised, issue 26): a later save of a resolved battle's game corrects it.

The later save joins the battle's files and supersedes the earlier save (as it does while the
battle is open: its bytes are "already applied" from then on, so it is applied once); what it
says otherwise of the units and people the resolution booked becomes a
:class:`~.battle_correct.ConditionCorrected` (damage, hits, the death roll of L125), and each fate
it gives otherwise a ``SetUnitFate`` the caller decides as ``mekref battle fate`` does.

Each unit's view is read from the later save the way the resolution reads a file (BR-2, BR-15,
SG-1: ``trusted_views``, ``authoritative``), with the unit on the side it had in the battle,
and its fate decided by the resolution's own ``settled``: the same answer the resolution would
have given from that save. What the correction does not redo, and says so in its notes: VP,
kills, training and salvage stay as booked; a unit that changed hands is not given back.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import RefereeNote
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_correct import (
    ConditionCorrected,
    correction,
    unit_acted_on,
)
from mekref.rules.tripwire.battle_evolve import evolve_report
from mekref.rules.tripwire.battle_messages import BattleReportReceived, SetUnitFate
from mekref.rules.tripwire.battle_model import Battle, BattleFile, Fate, PersonFate, UnitDamage
from mekref.rules.tripwire.battle_resolution import settled
from mekref.rules.tripwire.battle_supersede import correction_note
from mekref.rules.tripwire.claims import authoritative, trusted_views, views_by_unit
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.table_loader import load_tables


@record
class SaveCorrection(Record):
    received: BattleReportReceived
    corrected: ConditionCorrected
    fates: tuple[SetUnitFate, ...]


def _views(
    state: CampaignState, battle: Battle
) -> tuple[dict[str, UnitDamage], dict[str, int], dict[str, tuple[Fate, str | None]]]:
    """What the battle's files in force say of each unit and person the resolution booked:
    damage, hits and the fate (with the side that salvages it) the resolution would give."""
    res = battle.resolution
    assert res is not None
    t = load_tables()
    views = views_by_unit(battle)
    owners = {uid: u.side_id for uid, u in state.units.items()}
    owners.update({o.unit_id: o.side_id for o in res.units})  # the sides in the battle
    killed = {uid for f in battle.in_force for k in f.kills for uid in k.killed_unit_ids}
    kia = t.injury_rules.kia_hits
    damage: dict[str, UnitDamage] = {}
    hits: dict[str, int] = {}
    fates: dict[str, tuple[Fate, str | None]] = {}
    for o in res.units:
        if o.unit_id not in views or o.unit_id not in state.units:
            continue
        unit = replace(state.units[o.unit_id], side_id=o.side_id)
        trusted = trusted_views(unit, views[o.unit_id], owners)
        _, chosen = authoritative(o.side_id, trusted, owners)
        outcome = settled(unit, chosen, trusted, killed, owners, res.control_side, t)
        damage[o.unit_id] = chosen.damage
        fates[o.unit_id] = (outcome.fate, outcome.salvaged_by)
        for p in chosen.crew:
            if p.person_id:
                hits[p.person_id] = min(p.hits, kia)
    return damage, hits, fates


def from_save(
    state: CampaignState,
    battle: Battle,
    earlier: BattleFile,
    file: BattleFile,
    dice: Dice,
    *,
    actor: str,
    note_by: RefereeNote | None,
) -> SaveCorrection:
    """``file``, a later save of the game ``battle`` was resolved from (``earlier``), as a
    correction of what the battle booked; refused when a changed unit or person was acted on
    after the resolution (see :func:`~.battle_correct.correction`)."""
    received = BattleReportReceived(
        battle_id=battle.battle_id,
        number=battle.number,
        opened=False,
        file=file,
        actor=actor,
        supersedes=earlier.sha256,
    )
    after = evolve_report(state, received).battles.battles[battle.battle_id]
    res = battle.resolution
    assert res is not None
    damage, hits, fates = _views(state, after)
    booked = {o.unit_id: o for o in res.units}
    units = {u: d for u, d in damage.items() if d != booked[u].damage}
    notes = [correction_note(battle.battle_id, earlier, file)]
    people: dict[str, int] = {}
    for p in res.people:
        if p.person_id not in hits or hits[p.person_id] == p.hits:
            continue
        if p.fate in (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS):
            who = state.people[p.person_id].name if p.person_id in state.people else p.person_id
            notes.append(
                f"{who}: the later save says {hits[p.person_id]} hit(s); booked "
                f"{p.fate.value.replace('_', ' ')}, a death that stands (L125)"
            )
            continue
        people[p.person_id] = hits[p.person_id]
    set_fates = _fate_commands(state, battle, fates, notes, note_by, actor)
    corrected = correction(
        state,
        battle,
        units,
        people,
        dice,
        actor=actor,
        note=note_by,
        source=file.path,
        notes=notes,
    )
    corrected = replace(corrected, file_sha256=file.sha256)
    return SaveCorrection(received=received, corrected=corrected, fates=set_fates)


def _fate_commands(
    state: CampaignState,
    battle: Battle,
    fates: dict[str, tuple[Fate, str | None]],
    notes: list[str],
    note_by: RefereeNote | None,
    actor: str,
) -> tuple[SetUnitFate, ...]:
    """A ``SetUnitFate`` for each unit whose fate by the later save differs from both the
    booked one and the one it has now (a fate the referee set since stands)."""
    res = battle.resolution
    assert res is not None
    word = note_by or RefereeNote(
        referee=actor, reason=f"the final save of battle {battle.battle_id} (ruling SG-7)"
    )
    out: list[SetUnitFate] = []
    for o in res.units:
        if o.unit_id not in fates:  # only units the later save shows (and the campaign has)
            continue
        fate, salvaged_by = fates[o.unit_id]
        now = state.battles.fates.get(o.unit_id, o.fate)
        if fate in (o.fate, now):
            continue
        name = f"{state.units[o.unit_id].chassis} {state.units[o.unit_id].model}"
        why = unit_acted_on(state, battle, o)
        if why:
            raise Refusal(
                "acted_on_since",
                f"{name}: the later save gives it {fate.value}, booked {o.fate.value}; not "
                f"corrected: {why} (ruling SG-7)",
            )
        if o.salvaged_by is not None:
            notes.append(
                f"{name}: the later save gives it {fate.value}; it changed hands in the booked "
                f"result ({o.fate.value}, taken by {o.salvaged_by}) and is not given back"
            )
            continue
        new_side = salvaged_by if fate is Fate.CAPTURED else None
        if salvaged_by is not None and fate is not Fate.CAPTURED:
            notes.append(
                f"{name}: {fate.value} by the later save, a wreck {salvaged_by} would salvage; "
                "it stays with its side (a fate set afterwards moves only a captured unit)"
            )
        out.append(
            SetUnitFate(unit_id=o.unit_id, fate=fate, note=word, new_side=new_side, actor=actor)
        )
        notes.append(f"{name}: fate {fate.value}, was {now.value} (as 'mekref battle fate')")
    if out:
        notes.append("the battle's VP, kills, training and salvage stay as booked (ruling SG-7)")
    return tuple(out)
