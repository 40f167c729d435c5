"""Battles: files arrive one per side, the referee says who holds the field, then it resolves.

A battle opens with its first file and waits for a file from every side whose units appear in
any of its files (a ``<record>`` is one player's view) and for control of the field. When both
are there it resolves in the same decision; the referee may close it earlier on their word.
The deciders here are table entries of the TripWire rule set (:mod:`mekref.rules.tripwire.game`),
listed with their evolvers (``battle_evolve``); what a battle still waits for is asked of
``battle_pending``, and the arithmetic of a resolution lives in ``battle_resolution``.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import battle_correct, battle_correct_save, battle_link, battle_supersede
from mekref.rules.tripwire.battle_book import with_reporting_side
from mekref.rules.tripwire.battle_evolve import (
    evolve_confirmed,
    evolve_control,
    evolve_fate,
    evolve_loadouts,
    evolve_report,
    evolve_resolved,
)
from mekref.rules.tripwire.battle_messages import (
    BattleConfirmed,
    BattleControlSet,
    BattleReportReceived,
    BattleResolved,
    CloseBattle,
    ConfirmBattle,
    LoadoutsRecorded,
    RecordLoadouts,
    SetBattleControl,
    SetUnitFate,
    SubmitBattleReport,
    UnitFateSet,
)
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleFile,
    BattleStatus,
    Fate,
)
from mekref.rules.tripwire.battle_pending import all_reported, battle_of, pending
from mekref.rules.tripwire.battle_resolution import resolve
from mekref.rules.tripwire.campaign import Decider, Evolver, side_of
from mekref.rules.tripwire.file_view import reporting_side
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState

# --- deciders ---------------------------------------------------------------------------------


def _open(state: CampaignState, battle_id: str) -> Battle:
    battle = battle_of(state, battle_id)
    if battle.status is not BattleStatus.OPEN:
        raise Refusal("battle_resolved", f"battle {battle_id!r} is already resolved")
    return battle


def _decide_loadouts(
    state: CampaignState, cmd: RecordLoadouts, dice: Dice, rules: TripWire
) -> list[Event]:
    side_of(state, cmd.side_id)
    for unit_id, _ in cmd.loadouts:
        unit = state.units.get(unit_id)
        if unit is None or unit.side_id != cmd.side_id:
            raise Refusal("unknown_unit", f"no unit {unit_id!r} on side {cmd.side_id!r}")
    return [LoadoutsRecorded(side_id=cmd.side_id, loadouts=cmd.loadouts, actor=cmd.actor)]


def _check_new_file(state: CampaignState, file: BattleFile) -> list[str]:
    """The ids of the file's units; refused when the file is already in a battle (or a copy
    of one that is), or names units this campaign does not have."""
    book = state.battles.battles
    holder = book.battle_of_file(file.sha256)
    if holder is not None:
        raise Refusal("duplicate_file", f"this file is already part of battle {holder}")
    # Ruling BR-13: a copy saved again (other bytes, the same report) is the same file.
    copy = book.copy_of(file)
    if copy is not None:
        battle_id, known = copy
        raise Refusal(
            "duplicate_file",
            f"this file reports exactly what {known.path} (sha256 {known.sha256[:12]}) "
            f"already reported to battle {battle_id}: a copy saved again, not a new battle",
        )
    ids = [u.unit_id for u in file.units]
    unknown = sorted(set(ids) - set(state.units))
    if unknown:
        raise Refusal("unknown_unit", f"units not in this campaign: {unknown}")
    if len(set(ids)) != len(ids):
        raise Refusal("duplicate_unit", "a unit appears twice in one file")
    if not ids:
        raise Refusal("not_for_campaign", "the file names no unit of this campaign")
    return ids


def _decide_submit(
    state: CampaignState, cmd: SubmitBattleReport, dice: Dice, rules: TripWire
) -> list[Event]:
    file = cmd.file
    ids = _check_new_file(state, file)
    book = state.battles.battles
    file = with_reporting_side(file, reporting_side(state, file))
    open_battles = book.open_battles()
    fit = battle_link.link_for(state, frozenset(ids))
    opened = False
    # Ruling SG-7: a later save of a game a battle already holds takes the earlier one's place.
    earlier = battle_supersede.superseding(state, file, cmd.battle_id)
    if earlier is not None and earlier[0].status is BattleStatus.RESOLVED:
        # Revised SG-7: a later save of a resolved battle's game corrects what it booked.
        return _correct_from_save(state, earlier[0], earlier[1], file, cmd, dice, rules)
    if earlier is not None:
        battle_id = earlier[0].battle_id
    elif cmd.battle_id is not None:
        existing = state.battles.battles.get(cmd.battle_id)
        if existing is not None and existing.status is not BattleStatus.OPEN:
            raise Refusal(
                "battle_resolved",
                f"battle {cmd.battle_id!r} is already resolved, and this file is not a later "
                "save of the game it was resolved from (only such a save corrects a resolved "
                "battle, ruling SG-7)",
            )
        battle_id = cmd.battle_id
        opened = existing is None
    else:
        # A wreck of an earlier battle an old list still carried joins no battle (R-VP-7).
        playing = {u for u in ids if in_play(state, u)}
        sharing = [b for b in open_battles if b.unit_ids & playing]
        if fit.engagement_id:
            # A file of an engagement never joins a battle held or confirmed without one, or
            # fought for another one: it would be swallowed by a battle that is not its own.
            sharing = [
                b
                for b in sharing
                if not b.held and b.confirmed is None and b.engagement_id in ("", fit.engagement_id)
            ]
        # The other side's file may share no unit with the first: the engagement joins them.
        fought_for = [
            b for b in open_battles if fit.engagement_id and b.engagement_id == fit.engagement_id
        ]
        if len(sharing) > 1 and not fought_for:
            names = ", ".join(sorted(b.battle_id for b in sharing))
            raise Refusal(
                "ambiguous_battle",
                f"the file shares units with several open battles ({names}); name the battle",
            )
        if fought_for:
            battle_id = fought_for[0].battle_id
        elif sharing:
            battle_id = sharing[0].battle_id
        else:
            battle_id, opened = f"battle-{file.sha256[:12]}", True
    number = len(state.battles.battles) + 1 if opened else state.battles.battles[battle_id].number
    joined = None if opened else state.battles.battles.get(battle_id)
    engagement_id, held = _standing(state, fit, joined, cmd.note)
    received = BattleReportReceived(
        battle_id=battle_id,
        number=number,
        opened=opened,
        file=file,
        actor=cmd.actor,
        engagement_id=engagement_id,
        held=held,
        confirmed=cmd.note if battle_link.linked(state) else None,
        supersedes=earlier[1].sha256 if earlier is not None else "",
    )
    events: list[Event] = [received]
    after = evolve_report(state, received)
    battle = after.battles.battles[battle_id]
    if battle.control_side is not None and _ready(after, battle):
        events.append(_resolution_event(after, battle, battle.control_side, None, dice, cmd.actor))
    return events


def _correct_from_save(
    state: CampaignState,
    battle: Battle,
    earlier: BattleFile,
    file: BattleFile,
    cmd: SubmitBattleReport,
    dice: Dice,
    rules: TripWire,
) -> list[Event]:
    """Ruling SG-7 (revised): the later save joins the resolved battle, superseding the earlier
    one, and corrects its booked condition; each fate it gives otherwise is set as ``mekref
    battle fate`` sets it (the same decider)."""
    found = battle_correct_save.from_save(
        state, battle, earlier, file, dice, actor=cmd.actor, note_by=cmd.note
    )
    events: list[Event] = [found.received, found.corrected]
    state = battle_correct.evolve_corrected(evolve_report(state, found.received), found.corrected)
    for fate in found.fates:
        decided = _decide_fate(state, fate, dice, rules)
        events += decided
        for e in decided:
            assert isinstance(e, UnitFateSet)
            state = evolve_fate(state, e)
    return events


def _decide_correct(
    state: CampaignState, cmd: battle_correct.CorrectCondition, dice: Dice, rules: TripWire
) -> list[Event]:
    return battle_correct.decide_correct(state, cmd, dice)


def _standing(
    state: CampaignState,
    fit: battle_link.Link,
    joined: Battle | None,
    note: RefereeNote | None,
) -> tuple[str, str]:
    """(engagement id, held reason) a file gives its battle (rulings T-E8, T-E9).

    No strategic map: neither. The referee's word (``note``) or a battle already confirmed:
    never held. A file fitting an open engagement links the battle to it, unless the battle
    it joins was fought for another one; a file fitting none holds the battle with the reason.
    """
    if not battle_link.linked(state):
        return "", ""
    if joined is not None and joined.confirmed is not None:
        return "", ""
    if note is not None:
        return fit.engagement_id, ""
    if fit.engagement_id:
        if joined is not None and joined.engagement_id not in ("", fit.engagement_id):
            return "", (
                f"the file fits engagement {fit.engagement_id}, but battle {joined.battle_id} "
                f"is fought for engagement {joined.engagement_id}"
            )
        return fit.engagement_id, ""
    return "", fit.reason


def _ready(state: CampaignState, battle: Battle) -> bool:
    """Every side has reported and the battle is not held for the referee (T-E8)."""
    return not battle.held and all_reported(state, battle)


def _decide_control(
    state: CampaignState, cmd: SetBattleControl, dice: Dice, rules: TripWire
) -> list[Event]:
    battle = _open(state, cmd.battle_id)
    side_of(state, cmd.side_id)
    event = BattleControlSet(
        battle_id=battle.battle_id, side_id=cmd.side_id, note=cmd.note, actor=cmd.actor
    )
    events: list[Event] = [event]
    after = evolve_control(state, event)
    battle = after.battles.battles[battle.battle_id]
    if _ready(after, battle):
        events.append(_resolution_event(after, battle, cmd.side_id, None, dice, cmd.actor))
    return events


def _decide_confirm(
    state: CampaignState, cmd: ConfirmBattle, dice: Dice, rules: TripWire
) -> list[Event]:
    """Ruling T-E8: the referee's word that a held battle stands (who and why recorded),
    optionally naming the open engagement it was fought for."""
    battle = _open(state, cmd.battle_id)
    if not battle.held:
        why = (
            f"it is fought for engagement {battle.engagement_id}"
            if battle.engagement_id
            else "it is not held"
        )
        raise Refusal("not_held", f"battle {battle.battle_id} needs no confirmation: {why}")
    if cmd.engagement_id:
        known = {e.engagement_id for e in battle_link.open_engagements(state)}
        if cmd.engagement_id not in known:
            shown = ", ".join(sorted(known)) or "none"
            raise Refusal(
                "unknown_engagement",
                f"engagement_id: no open engagement {cmd.engagement_id!r} (open: {shown})",
            )
    event = BattleConfirmed(
        battle_id=battle.battle_id,
        note=cmd.note,
        actor=cmd.actor,
        engagement_id=cmd.engagement_id,
    )
    events: list[Event] = [event]
    after = evolve_confirmed(state, event)
    battle = after.battles.battles[battle.battle_id]
    if battle.control_side is not None and _ready(after, battle):
        events.append(_resolution_event(after, battle, battle.control_side, None, dice, cmd.actor))
    return events


def _decide_close(
    state: CampaignState, cmd: CloseBattle, dice: Dice, rules: TripWire
) -> list[Event]:
    battle = _open(state, cmd.battle_id)
    control = cmd.control_side or battle.control_side
    if control is None:
        raise Refusal("no_control", "say which side controls the field to close the battle")
    side_of(state, control)
    missing = pending(state, battle).sides_missing
    if missing and cmd.note is None:
        raise Refusal(
            "waiting_for_files",
            f"battle {battle.battle_id} still waits for a file from {', '.join(missing)}; "
            "a referee may close it anyway (name the referee and the reason)",
        )
    events: list[Event] = []
    if battle.held:
        if cmd.note is None:
            raise Refusal(
                "battle_held",
                f"battle {battle.battle_id} is held: {battle.held}; the referee confirms it "
                "(name the referee and the reason)",
            )
        # Closing a held battle on the referee's word confirms it, recorded as such (T-E8).
        confirmed = BattleConfirmed(battle_id=battle.battle_id, note=cmd.note, actor=cmd.actor)
        events.append(confirmed)
        state = evolve_confirmed(state, confirmed)
        battle = state.battles.battles[battle.battle_id]
    if control != battle.control_side:
        event = BattleControlSet(
            battle_id=battle.battle_id, side_id=control, note=cmd.note, actor=cmd.actor
        )
        events.append(event)
        state = evolve_control(state, event)
        battle = state.battles.battles[battle.battle_id]
    events.append(_resolution_event(state, battle, control, cmd.note, dice, cmd.actor))
    return events


def _decide_fate(
    state: CampaignState, cmd: SetUnitFate, dice: Dice, rules: TripWire
) -> list[Event]:
    unit = state.units.get(cmd.unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {cmd.unit_id!r}")
    if cmd.fate is Fate.CAPTURED:
        if cmd.new_side is None:
            raise Refusal("no_captor", "a captured unit names the side that takes it")
        side_of(state, cmd.new_side)
        if cmd.new_side == unit.side_id:
            raise Refusal("own_side", f"unit {unit.unit_id} already belongs to {unit.side_id}")
    elif cmd.new_side is not None:
        raise Refusal("bad_side", "only a captured unit changes sides")
    return [
        UnitFateSet(
            unit_id=unit.unit_id,
            previous=state.battles.fates.get(unit.unit_id, Fate.OPERATIONAL),
            fate=cmd.fate,
            new_side=cmd.new_side,
            note=cmd.note,
            actor=cmd.actor,
        )
    ]


def _resolution_event(
    state: CampaignState,
    battle: Battle,
    control: str,
    closed_by: RefereeNote | None,
    dice: Dice,
    actor: str,
) -> BattleResolved:
    resolution, rolls = resolve(state, battle, control, dice, closed_by)
    return BattleResolved(
        battle_id=battle.battle_id, resolution=resolution, rolls=rolls, actor=actor
    )


# --- evolvers ---------------------------------------------------------------------------------


DECIDERS: dict[type[Command], Decider] = {
    RecordLoadouts: _decide_loadouts,
    SubmitBattleReport: _decide_submit,
    SetBattleControl: _decide_control,
    CloseBattle: _decide_close,
    SetUnitFate: _decide_fate,
    ConfirmBattle: _decide_confirm,
    battle_correct.CorrectCondition: _decide_correct,
}

EVOLVERS: dict[type[Event], Evolver] = {
    LoadoutsRecorded: evolve_loadouts,
    BattleReportReceived: evolve_report,
    BattleControlSet: evolve_control,
    BattleResolved: evolve_resolved,
    UnitFateSet: evolve_fate,
    BattleConfirmed: evolve_confirmed,
    battle_correct.ConditionCorrected: battle_correct.evolve_corrected,
}
