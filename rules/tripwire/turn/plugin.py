"""The daily turn's deciders and evolvers: table entries of the TripWire rule set."""

from __future__ import annotations

from dataclasses import field, replace
from typing import Any

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type
from mekref.rules.record_type import record
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import (
    artillery,
    cargo,
    day_damage,
    forecast,
    house_maintenance,
    house_morale,
    orbit,
    orders,
    pre_damage,
    reorganise,
    repair_days,
    setup,
    transports,
    turrets,
    unrest,
)
from mekref.rules.tripwire.turn.common import known_side, strategic_of
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.events import (
    CampaignEnded,
    ConsciousnessChecked,
    DayEnded,
    EngagementDetermined,
    FacilityDestroyed,
    FacilityRestored,
    FormationRepositioned,
    FormationsPlaced,
    FormationsReorganised,
    FormationsUpdated,
    FormationTrainingBegun,
    LeaderCaptured,
    LocationControlChanged,
    LocationLooted,
    MaintenanceMissed,
    MobsRaised,
    OrdersSubmitted,
    OrdersWithdrawn,
    RecruitsFound,
    ResponseMade,
    RunwayPrepared,
    SabotageRolled,
    SightingsMade,
    StrategicMapStarted,
    StrategicVictoryScored,
    TransportCargoCaptured,
    TurretDamageRecorded,
    TurretRepaired,
    UnguidedArtilleryFired,
    UnitDamageRolled,
    UnrestChanged,
    UnrestSuppressed,
    WarChestLoaded,
    WeatherRolled,
)
from mekref.rules.tripwire.turn.mapdata import map_label
from mekref.rules.tripwire.turn.state import IN_ORBIT


@command_type("RecordLeaderCaptured")
@record
class RecordLeaderCaptured(Command):
    """Referee: a side's leader was captured and returned to the captor's DropShip (line 162).
    ``mekref campaign capture-leader`` gives the note (who decided it, on what evidence)."""

    force: str
    note: RefereeNote | None = None
    # The referee rules the capture without a resolved battle that destroyed the leader's
    # escort on record (ruling T-L1): the event says so, and the report lists the override.
    override: bool = field(default=False, metadata=OMIT_IF_DEFAULT)


@command_type("RepositionFormation")
@record
class RepositionFormation(Command):
    """Referee: move a formation to a hex (or orbit, ""), e.g. the loser's retreat after a
    battle. The rules do not say where a beaten force goes; the referee does (ruling T-E7)."""

    formation_id: str
    hex: str
    note: RefereeNote


def _decide_reposition(
    state: CampaignState, cmd: RepositionFormation, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    f = s.formations.get(cmd.formation_id)
    if f is None:
        raise Refusal("unknown_formation", f"formation_id: no formation {cmd.formation_id!r}")
    where = cmd.hex if cmd.hex == IN_ORBIT else map_label(s, cmd.hex, "hex")
    return [
        FormationRepositioned(
            side_id=f.side_id,
            formation_id=f.formation_id,
            before=f.hex,
            after=where,
            referee=cmd.note.referee,
            reason=cmd.note.reason,
            actor=cmd.actor,
        )
    ]


def _repositioned(state: CampaignState, e: FormationRepositioned) -> CampaignState:
    s = strategic_of(state)
    f = s.formations[e.formation_id]
    return _with(state, formations={**s.formations, f.formation_id: replace(f, hex=e.after)})


def _decide_leader(
    state: CampaignState, cmd: RecordLeaderCaptured, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    known_side(state, cmd.force, "force")
    if cmd.force in s.leader_captured:
        raise Refusal("already_captured", f"force: the leader of {cmd.force} is already captured")
    if s.ended:
        raise Refusal("campaign_over", f"force: the campaign has already ended ({s.ended})")
    battle_id = s.escorts_lost.get(cmd.force, "")
    note = cmd.note
    if not battle_id and not (cmd.override and note is not None):
        raise Refusal(
            "escort_not_destroyed",
            f"force: no resolved battle destroyed the escort of {cmd.force}'s leader (L162: "
            '"If the unit is destroyed the leader can be captured"); resolve that battle first, '
            "or give the referee's override (--override with --referee NAME --reason TEXT)",
        )
    return [
        LeaderCaptured(
            force=cmd.force,
            actor=cmd.actor,
            referee=note.referee if note else "",
            reason=note.reason if note else "",
            battle_id=battle_id,
            override=None if battle_id else note,
        )
    ]


def _with(state: CampaignState, **changes: Any) -> CampaignState:
    return copy_with(state, strategic=copy_with(strategic_of(state), **changes))


def _weather(state: CampaignState, e: WeatherRolled) -> CampaignState:
    # The first event of a day's resolution: yesterday's engagements are closed by now.
    weather = {w.region: w for w in e.regions}
    if e.weekly_change and strategic_of(state).forecast_day:
        # The forecast change has come (L385, ruling T-W4): nothing is foreseen any more.
        return _with(state, weather=weather, engagements=(), forecast={}, forecast_day=0)
    return _with(state, weather=weather, engagements=())


def _updated(state: CampaignState, e: FormationsUpdated) -> CampaignState:
    s = strategic_of(state)
    formations = {k: f for k, f in s.formations.items() if f.side_id != e.side_id}
    formations.update({f.formation_id: f for f in e.formations})
    mobility = {**s.mobility, **{m.unit_id: m for m in e.mobility}}
    return _with(state, formations=dict(sorted(formations.items())), mobility=mobility)


def _sighted(state: CampaignState, e: SightingsMade) -> CampaignState:
    s = strategic_of(state)
    return _with(state, sightings={**s.sightings, e.side_id: e.sightings})


def _unrest(state: CampaignState, e: UnrestChanged) -> CampaignState:
    s = strategic_of(state)
    base = dict(s.unrest)
    local = {loc: dict(v) for loc, v in s.local_unrest.items()}
    unrest.apply(base, local, e.force, e.location, e.before, e.after)
    return _with(state, unrest=base, local_unrest=local)


def _looted(state: CampaignState, e: LocationLooted) -> CampaignState:
    s = strategic_of(state)
    state = _with(state, looted=tuple(sorted({*s.looted, e.location})))
    pool = state.pools.get(e.pool_id)
    if pool is None or e.wp == 0:
        return state
    pools = {**state.pools, pool.pool_id: replace(pool, balance=pool.balance + e.wp)}
    return replace(state, pools=pools)


def _listed(by: dict[str, tuple[str, ...]], key: str, item: str) -> dict[str, tuple[str, ...]]:
    """``by`` with ``item`` in the sorted set listed under ``key``."""
    return {**by, key: tuple(sorted({*by.get(key, ()), item}))}


def _destroyed(state: CampaignState, e: FacilityDestroyed) -> CampaignState:
    return _with(state, destroyed=_listed(strategic_of(state).destroyed, e.location, e.facility))


def _restored(state: CampaignState, e: FacilityRestored) -> CampaignState:
    s = strategic_of(state)
    left = tuple(x for x in s.destroyed.get(e.location, ()) if x != e.facility)
    destroyed = {k: v for k, v in s.destroyed.items() if k != e.location}
    if left:
        destroyed[e.location] = left
    return _with(state, destroyed=destroyed)


def _runway(state: CampaignState, e: RunwayPrepared) -> CampaignState:
    return _with(state, runways=_listed(strategic_of(state).runways, e.side_id, e.hex))


def _control(state: CampaignState, e: LocationControlChanged) -> CampaignState:
    s = strategic_of(state)
    control = {k: v for k, v in s.control.items() if k != e.location}
    if e.after is not None:
        control[e.location] = e.after
    state = _with(state, control=dict(sorted(control.items())))
    if e.after is None:
        return state
    # Holding a location gives access to its WarChest pool (line 57): the pool changes hands.
    pools = dict(state.pools)
    for pid in e.pools:
        if pid in pools:
            pools[pid] = replace(pools[pid], side_id=e.after)
    return replace(state, pools=pools)


def _engaged(state: CampaignState, e: EngagementDetermined) -> CampaignState:
    s = strategic_of(state)
    return _with(state, engagements=(*s.engagements, e.engagement))


def _scored(state: CampaignState, e: StrategicVictoryScored) -> CampaignState:
    return _with(state, vp=dict(e.vp), ended=e.ended)


def _captured(state: CampaignState, e: LeaderCaptured) -> CampaignState:
    s = strategic_of(state)
    reason = s.ended or f"the leader of {e.force} was captured"
    return _with(state, leader_captured=tuple(sorted({*s.leader_captured, e.force})), ended=reason)


def _campaign_ended(state: CampaignState, e: CampaignEnded) -> CampaignState:
    return _with(state, ended=strategic_of(state).ended or e.reason)


def _suppressed(state: CampaignState, e: UnrestSuppressed) -> CampaignState:
    s = strategic_of(state)
    held = {k: v for k, v in s.suppressed.items() if k != e.formation_id}
    where = {k: v for k, v in s.suppressed_at.items() if k != e.formation_id}
    if e.active:
        held[e.formation_id] = (e.force, e.action, e.amount)
        if e.location:
            where[e.formation_id] = e.location
    return _with(
        state, suppressed=dict(sorted(held.items())), suppressed_at=dict(sorted(where.items()))
    )


def _cargo(state: CampaignState, e: TransportCargoCaptured) -> CampaignState:
    pools = dict(state.pools)
    for pid in e.pools:
        pools[pid] = replace(pools[pid], side_id=e.after)
    return replace(state, pools=pools)


def _day_ended(state: CampaignState, e: DayEnded) -> CampaignState:
    s = strategic_of(state)
    # A day of training done: the new Formation Type counts from the next day (ruling T-F6).
    trained = {
        k: replace(f, formation_type=f.training_type, training_type="", training_day=0)
        if f.training_type and f.training_day <= e.day
        else f
        for k, f in s.formations.items()
    }
    return _with(state, day=e.day + 1, orders={}, formations=trained)


def _recruits_found(state: CampaignState, e: RecruitsFound) -> CampaignState:
    """What the side may hire (R-HIRE-2). Line 221: "At the start of each week make a new
    random test for availability": a roll a week or more after the one that opened the side's
    availability replaces it; another formation's roll within that week adds to it."""
    s = strategic_of(state)
    since = s.recruits_day.get(e.side_id)
    week = int(single("recruit", "weekly")["every_days"])
    fresh = since is None or e.day - since >= week
    mine = {} if fresh else dict(s.recruits.get(e.side_id, {}))
    for column, count in e.available:
        if count:
            mine[column] = mine.get(column, 0) + count
    return _with(
        state,
        recruits={**s.recruits, e.side_id: mine},
        recruits_day={**s.recruits_day, e.side_id: e.day if fresh else since or e.day},
    )


def _decide_resolve(
    state: CampaignState, cmd: orders.ResolveTurn, dice: Dice, rules: TripWire
) -> list[Event]:
    # The day's resolution (movement, engagements, sightings, upkeep, orbit) is imported with
    # the first day resolved: no other command needs it, and every command that opens a
    # TripWire campaign (status, a battle file, an order) paid for loading it.
    from mekref.rules.tripwire.turn import resolve

    return resolve.decide_resolve(state, cmd, dice, rules)


def _no_change(state: CampaignState, e: Event) -> CampaignState:
    return state  # a record for the log (rolls, availability); the state keeps nothing of it


DECIDERS: dict[type[Command], Decider] = {
    setup.StartStrategicMap: setup.decide_start,
    setup.PlaceFormations: setup.decide_place,
    orders.SubmitOrders: orders.decide_submit,
    orders.WithdrawOrders: orders.decide_withdraw,
    orders.ResolveTurn: _decide_resolve,
    artillery.FireUnguidedArtillery: artillery.decide_fire,
    RecordLeaderCaptured: _decide_leader,
    RepositionFormation: _decide_reposition,
    pre_damage.RollPreBattleDamage: pre_damage.decide,
    house_morale.TestMorale: house_morale.decide,
    house_maintenance.CheckMaintenance: house_maintenance.decide,
    turrets.RecordTurretDamage: turrets.decide_record,
    turrets.RepairTurret: turrets.decide_repair,
    **reorganise.DECIDERS,
    **orbit.DECIDERS,
    **transports.DECIDERS,
    **forecast.DECIDERS,
}

EVOLVERS: dict[type[Event], Evolver] = {
    FormationRepositioned: _repositioned,
    StrategicMapStarted: setup.evolve_started,
    FormationsPlaced: setup.evolve_placed,
    FormationsReorganised: reorganise.evolve_reorganised,
    FormationTrainingBegun: reorganise.evolve_training,
    OrdersSubmitted: orders.evolve_submitted,
    OrdersWithdrawn: orders.evolve_withdrawn,
    WeatherRolled: _weather,
    FormationsUpdated: _updated,
    SightingsMade: _sighted,
    UnrestChanged: _unrest,
    LocationLooted: _looted,
    WarChestLoaded: cargo.moved,
    TurretDamageRecorded: turrets.evolve_recorded,
    TurretRepaired: turrets.evolve_repaired,
    FacilityDestroyed: _destroyed,
    FacilityRestored: _restored,
    RunwayPrepared: _runway,
    LocationControlChanged: _control,
    EngagementDetermined: _engaged,
    StrategicVictoryScored: _scored,
    LeaderCaptured: _captured,
    CampaignEnded: _campaign_ended,
    DayEnded: _day_ended,
    MaintenanceMissed: _no_change,
    RecruitsFound: _recruits_found,
    TransportCargoCaptured: _cargo,
    SabotageRolled: _no_change,
    ResponseMade: _no_change,
    MobsRaised: _no_change,
    UnrestSuppressed: _suppressed,
    UnguidedArtilleryFired: _no_change,
    UnitDamageRolled: day_damage.evolve_damage,
    house_morale.HouseMoraleTested: house_morale.evolve,
    house_maintenance.HouseMaintenanceChecked: house_maintenance.evolve,
    ConsciousnessChecked: day_damage.evolve_consciousness,
    repair_days.RepairWorkWaited: repair_days.evolve_waited,
    **orbit.EVOLVERS,
    **transports.EVOLVERS,
    **forecast.EVOLVERS,
}
