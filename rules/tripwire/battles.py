"""Battles: files arrive one per side, the referee says who holds the field, then it resolves.

A battle opens with its first file and waits for a file from every side whose units appear in
any of its files (a ``<record>`` is one player's view) and for control of the field. When both
are there it resolves in the same decision; the referee may close it earlier on their word.
The deciders and evolvers here are table entries of the TripWire rule set
(:mod:`mekref.rules.tripwire.game`); the arithmetic of a resolution lives in
``battle_resolution``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.battle_book import with_reporting_side
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
    BattleLedger,
    BattleStatus,
    Fate,
    PersonFate,
    SideOutcome,
    file_views,
    with_file,
)
from mekref.rules.tripwire.battle_resolution import rescored, resolve
from mekref.rules.tripwire.campaign import Decider, Evolver, side_of
from mekref.rules.tripwire.captured_units import engagement_hex, taken
from mekref.rules.tripwire.file_view import reporting_side as reporting_side
from mekref.rules.tripwire.holding import WRECKED, escorts_lost, in_play, leave_formations
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, Person, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.toe import SALVAGE_COMPANY
from mekref.rules.tripwire.victory import RetreatSituation, retreat_conditions


@dataclass(frozen=True, kw_only=True)
class PendingBattle:
    battle_id: str
    sides_expected: tuple[str, ...]
    sides_reported: tuple[str, ...]
    files: tuple[str, ...]  # sha256 of each file received
    control_side: str | None = None
    engagement_id: str = ""  # the strategic map's engagement it is fought for (T-E8)
    held: str = ""  # why it waits for the referee's confirmation (no engagement), or ""

    @property
    def sides_missing(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides_expected if s not in self.sides_reported)


def ledger(state: CampaignState) -> BattleLedger:
    return state.battles


def sides_expected(state: CampaignState, battle: Battle) -> tuple[str, ...]:
    """Every side with a unit in any file of the battle (a side that fought owes a file); a
    unit that left play before it (truly destroyed, R-VP-7) fought in it no more."""
    sides = {state.units[u].side_id for u in battle.unit_ids if in_play(state, u)}
    return tuple(sorted(sides))


def sides_reported(state: CampaignState, battle: Battle) -> tuple[str, ...]:
    owners = {uid: u.side_id for uid, u in state.units.items()}
    return tuple(sorted({side for f in battle.files for side in file_views(f, owners)}))


def pending(state: CampaignState, battle: Battle) -> PendingBattle:
    return PendingBattle(
        battle_id=battle.battle_id,
        sides_expected=sides_expected(state, battle),
        sides_reported=sides_reported(state, battle),
        files=tuple(f.sha256 for f in battle.files),
        control_side=battle.control_side,
        engagement_id=battle.engagement_id,
        held=battle.held,
    )


def pending_battles(state: CampaignState) -> list[PendingBattle]:
    """Open battles, oldest first, with the sides they still wait for."""
    open_battles = state.battles.battles.open_battles()
    return [pending(state, b) for b in sorted(open_battles, key=lambda b: b.number)]


def _all_reported(state: CampaignState, battle: Battle) -> bool:
    return not pending(state, battle).sides_missing


class RetreatNotKnown(Refusal):
    """Ruling R-VP-6 (with R-RETREAT-1): the conditions on BV (lines 341-343) cannot be told
    while a unit of the battle has no BV, and no condition without BV is met.

    Deciding on the partial sum would read such a unit as 0 BV: a side would look outnumbered,
    or an enemy look untouched, when it is not. The units are named so the referee can record
    their BV (``mekref battle bv``) and ask again.
    """

    def __init__(self, units_without_bv: tuple[str, ...], source: SourceRef) -> None:
        super().__init__(
            "bv_not_known",
            "not known: the retreat conditions on BV (lines 341-343) cannot be told while "
            f"{len(units_without_bv)} unit(s) of the battle have no BV "
            f"({', '.join(units_without_bv)}); record each one's BV with 'mekref battle bv "
            "--unit ID --bv N --referee NAME --reason TEXT' (R-VP-6), then ask again",
            source,
        )
        self.units_without_bv = units_without_bv
        self.rule = source

    def __str__(self) -> str:  # "not known: ..." reads as the answer, not as a refusal code
        return f"{self.message} (rule, line {self.rule.line}: {self.rule.source})"


def retreat_check(
    state: CampaignState,
    battle_id: str,
    side_id: str,
    dice: Dice,
    *,
    defended_objectives_destroyed: bool = False,
    ammo_weapons_dry: bool = False,
) -> tuple[SourceRef, ...]:
    """The retreat conditions (line 340) ``side_id`` meets in an open battle, from its files.

    A question, not a command: nothing is recorded. Ruling BR-10: "damage (on BV)" counts the
    BV of units destroyed in the game or captured so far; the force commander is "killed" when
    the files show the commander's pilot dead. Ruling R-VP-6: while a unit of the battle (any
    side: both sides' BV enter the comparisons) has no BV, only the conditions without BV
    (lines 344-346) are told; when none of them is met the answer is not known
    (:class:`RetreatNotKnown`), never a "no" read from the partial sum.
    """
    battle = _battle(state, battle_id)
    side_of(state, side_id)
    if battle.resolution is not None:
        # Ruling BR-16: a resolved battle is read as it stood, from its recorded outcome (the
        # units' owners before it, scored again with the BV now, R-VP-6), never from the
        # state after it (captured units changed sides, wrecks left their formations).
        resolution = battle.resolution
        outcomes = rescored(state, resolution)
    else:
        resolution, _ = resolve(state, battle, side_id, dice, None)
        outcomes = resolution.sides
    sides = {s.side_id: s for s in outcomes}
    own = sides.get(side_id)
    if own is None:
        raise Refusal("not_in_battle", f"side {side_id!r} has no unit in battle {battle_id}")
    enemy_start = sum(s.starting_bv for s in outcomes if s.side_id != side_id)
    enemy_lost = sum(s.destroyed_bv for s in outcomes if s.side_id != side_id)
    commander_killed = any(
        p.side_id == side_id
        and p.fate in (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS)
        and _commanded(state, p.person_id)
        for p in resolution.people
    )
    met = retreat_conditions(
        RetreatSituation(
            own_bv=own.starting_bv - own.destroyed_bv,
            enemy_bv=enemy_start - enemy_lost,
            own_starting_bv=own.starting_bv,
            own_damage_bv=own.destroyed_bv,
            enemy_starting_bv=enemy_start,
            enemy_damage_bv=enemy_lost,
            own_commander_killed=commander_killed,
            defended_objectives_destroyed=defended_objectives_destroyed,
            ammo_weapons_dry=ammo_weapons_dry,
        )
    )
    if not own.units_without_bv:
        return met
    conditions = load_tables().retreat.conditions
    on_bv = {conditions[k].ref for k in ("outnumbered", "enemy_damaged", "own_damaged")}
    certain = tuple(ref for ref in met if ref not in on_bv)
    if certain:  # a condition without BV is met: the retreat may be called whatever the BV
        return certain
    raise RetreatNotKnown(own.units_without_bv, conditions["outnumbered"].ref)


def _commanded(state: CampaignState, person_id: str) -> bool:
    """Whether the person is the pilot of a force commander's unit: in its first seat, or, once
    the battle is resolved and the seat emptied (a captured unit comes without its crew), the
    unit the person last crewed."""
    person = state.people.get(person_id)
    last = state.units.get(person.unit_id or "") if person is not None else None
    return any(
        UnitRole.FORCE_COMMANDER in u.roles and u.crew[:1] == (person_id,)
        for u in state.units.values()
    ) or (last is not None and not last.crew and UnitRole.FORCE_COMMANDER in last.roles)


# --- deciders ---------------------------------------------------------------------------------


def _battle(state: CampaignState, battle_id: str) -> Battle:
    battle = state.battles.battles.get(battle_id)
    if battle is None:
        raise Refusal("unknown_battle", f"no battle {battle_id!r}")
    return battle


def _open(state: CampaignState, battle_id: str) -> Battle:
    battle = _battle(state, battle_id)
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


def _decide_submit(
    state: CampaignState, cmd: SubmitBattleReport, dice: Dice, rules: TripWire
) -> list[Event]:
    file = cmd.file
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
    file = with_reporting_side(file, reporting_side(state, file))
    open_battles = book.open_battles()
    fit = battle_link.link_for(state, frozenset(ids))
    opened = False
    if cmd.battle_id is not None:
        existing = state.battles.battles.get(cmd.battle_id)
        if existing is not None and existing.status is not BattleStatus.OPEN:
            raise Refusal("battle_resolved", f"battle {cmd.battle_id!r} is already resolved")
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
    )
    events: list[Event] = [received]
    after = _evolve_report(state, received)
    battle = after.battles.battles[battle_id]
    if battle.control_side is not None and _ready(after, battle):
        events.append(_resolution_event(after, battle, battle.control_side, None, dice, cmd.actor))
    return events


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
    return not battle.held and _all_reported(state, battle)


def _decide_control(
    state: CampaignState, cmd: SetBattleControl, dice: Dice, rules: TripWire
) -> list[Event]:
    battle = _open(state, cmd.battle_id)
    side_of(state, cmd.side_id)
    event = BattleControlSet(
        battle_id=battle.battle_id, side_id=cmd.side_id, note=cmd.note, actor=cmd.actor
    )
    events: list[Event] = [event]
    after = _evolve_control(state, event)
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
    after = _evolve_confirmed(state, event)
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
        state = _evolve_confirmed(state, confirmed)
        battle = state.battles.battles[battle.battle_id]
    if control != battle.control_side:
        event = BattleControlSet(
            battle_id=battle.battle_id, side_id=control, note=cmd.note, actor=cmd.actor
        )
        events.append(event)
        state = _evolve_control(state, event)
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


def _with_ledger(state: CampaignState, new: BattleLedger) -> CampaignState:
    return replace(state, battles=new)


def _with_battle(state: CampaignState, battle: Battle) -> CampaignState:
    led = state.battles
    return _with_ledger(state, replace(led, battles=led.battles.with_battle(battle)))


def _evolve_loadouts(state: CampaignState, e: LoadoutsRecorded) -> CampaignState:
    led = state.battles
    return _with_ledger(state, replace(led, loadouts={**led.loadouts, **dict(e.loadouts)}))


def _evolve_report(state: CampaignState, e: BattleReportReceived) -> CampaignState:
    battle = state.battles.battles.get(e.battle_id) or Battle(
        battle_id=e.battle_id, number=e.number
    )
    battle = with_file(battle, e.file)
    if e.confirmed is not None:
        battle = replace(battle, confirmed=e.confirmed, held="")
    if e.engagement_id and not battle.engagement_id:
        battle = replace(battle, engagement_id=e.engagement_id)
    if e.held and battle.confirmed is None and not battle.held:
        battle = replace(battle, held=e.held)
    return _with_battle(state, battle)


def _evolve_confirmed(state: CampaignState, e: BattleConfirmed) -> CampaignState:
    battle = state.battles.battles[e.battle_id]
    return _with_battle(
        state,
        replace(
            battle,
            held="",
            confirmed=e.note,
            engagement_id=e.engagement_id or battle.engagement_id,
        ),
    )


def _evolve_control(state: CampaignState, e: BattleControlSet) -> CampaignState:
    battle = state.battles.battles[e.battle_id]
    return _with_battle(state, replace(battle, control_side=e.side_id, control_note=e.note))


def with_battle_vp(vp: Mapping[str, int], sides: Iterable[SideOutcome]) -> dict[str, int]:
    """``vp`` with one battle's VP added side by side: "victory points can't be reduced below
    0" (line 414); a battle's VP not known add nothing (R-VP-6: never counted as 0, the
    standings say what is missing)."""
    out = dict(vp)
    for side in sides:
        if side.vp_known:
            out[side.side_id] = max(0, out.get(side.side_id, 0) + side.vp_delta)
    return out


def _evolve_resolved(state: CampaignState, e: BattleResolved) -> CampaignState:
    res = e.resolution
    battle = state.battles.battles[e.battle_id]
    led = state.battles
    units = dict(state.units)
    damage = dict(led.unit_damage)
    fates = dict(led.fates)
    crew_damage = dict(led.crew_damage)
    for outcome in res.units:
        damage[outcome.unit_id] = outcome.damage
        fates[outcome.unit_id] = outcome.fate
        if outcome.crew_damage:
            crew_damage[outcome.unit_id] = outcome.crew_damage
    salvaged = [(o.unit_id, o.salvaged_by) for o in res.units if o.salvaged_by is not None]
    people = dict(state.people)
    captured = dict(led.captured_people)
    kills = dict(led.kills)
    may_train = dict(led.may_train)
    for p in res.people:
        person = people.get(p.person_id)
        if person is None:
            continue
        people[p.person_id] = _person_after(person, p.hits, p.fate, p.death_roll is not None)
        if p.captured_by is not None:
            captured[p.person_id] = p.captured_by
        if p.kills:
            kills[p.person_id] = kills.get(p.person_id, 0) + p.kills
        if p.may_train:
            may_train[p.person_id] = battle.number
    vp = with_battle_vp(led.victory_points, res.sides)
    new_led = replace(
        led,
        battles=led.battles.with_battle(
            replace(
                battle,
                status=BattleStatus.RESOLVED,
                control_side=res.control_side,
                resolution=res,
            )
        ),
        unit_damage=damage,
        fates=fates,
        crew_damage=crew_damage,
        captured_people=captured,
        kills=kills,
        may_train=may_train,
        victory_points=vp,
    )
    # R-BOMB-2: a fighter that fought comes back without the bombs it took (L84 prices a
    # loadout; what MegaMek says is left is not read back).
    fought = {o.unit_id for o in res.units}
    state = replace(
        state,
        units=units,
        people=people,
        battles=new_led,
        tracks_completed=state.tracks_completed + 1,
        bombs={u: b for u, b in state.bombs.items() if u not in fought},
    )
    # L162: whether the leader's escort fell, read while the formations still hold it (T-L1).
    state = escorts_lost(state, battle.battle_id, ((o.unit_id, o.fate) for o in res.units))
    # L145-L146: a truly destroyed unit leaves play: out of its formation at once (R-VP-7).
    state = leave_formations(state, (o.unit_id for o in res.units if o.fate in WRECKED))
    # Salvage is immobile (L137): it leaves the enemy's formation at once and stays on the
    # battlefield, the engagement's hex (ruling T-F7).
    s = state.strategic
    field_hex = None if s is None else engagement_hex(s, battle.engagement_id)
    state = taken(state, (unit_id for unit_id, _ in salvaged), field_hex)
    for unit_id, side_id in salvaged:
        # Salvaged units join the controlling side's TO&E (line 136).
        state = _change_sides(state, unit_id, side_id)
    return state


def _evolve_fate(state: CampaignState, e: UnitFateSet) -> CampaignState:
    led = replace(state.battles, fates={**state.battles.fates, e.unit_id: e.fate})
    state = replace(state, battles=led)
    if e.fate in WRECKED:
        state = leave_formations(state, (e.unit_id,))
    if e.new_side is not None:
        # Out of the enemy's formation at once, standing where it was (ruling T-F7).
        state = _change_sides(taken(state, (e.unit_id,), None), e.unit_id, e.new_side)
    return state


def _change_sides(state: CampaignState, unit_id: str, side_id: str) -> CampaignState:
    """A captured unit joins its captor's TO&E without its crew (line 136)."""
    unit = state.units[unit_id]
    people = dict(state.people)
    ranks = [r for r in (UnitRole.FORCE_COMMANDER, UnitRole.LANCE_LEADER) if r in unit.roles]
    for seat, pid in enumerate(unit.crew):
        if pid in people:
            # The first seat of a commander's unit keeps the rank it held (L352).
            rank = ranks[0].value if ranks and seat == 0 else people[pid].rank
            people[pid] = replace(people[pid], unit_id=None, rank=rank)
    moved = replace(unit, side_id=side_id, company=SALVAGE_COMPANY, lance=SALVAGE_COMPANY, crew=())
    return replace(state, units={**state.units, unit_id: moved}, people=people)


def _person_after(person: Person, hits: int, fate: PersonFate, rolled: bool) -> Person:
    dead = fate in (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS)
    return replace(
        person,
        hits=6 if dead else hits,
        status=PersonStatus.DEAD if dead else PersonStatus.ACTIVE,
        death_rolled=rolled or (person.death_rolled and hits == person.hits),
    )


DECIDERS: dict[type[Command], Decider] = {
    RecordLoadouts: _decide_loadouts,
    SubmitBattleReport: _decide_submit,
    SetBattleControl: _decide_control,
    CloseBattle: _decide_close,
    SetUnitFate: _decide_fate,
    ConfirmBattle: _decide_confirm,
}

EVOLVERS: dict[type[Event], Evolver] = {
    LoadoutsRecorded: _evolve_loadouts,
    BattleReportReceived: _evolve_report,
    BattleControlSet: _evolve_control,
    BattleResolved: _evolve_resolved,
    UnitFateSet: _evolve_fate,
    BattleConfirmed: _evolve_confirmed,
}
