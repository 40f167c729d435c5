"""Orbit: satellites and their feeds, Anti-Satellite Operations, Reposition Orbit, suborbital
hop fatigue and a landed DropShip's weekly hot standby (lines 207, 209, 210, 213, 270, 408).

Satellites are the referee's to place (``PlaceSatellite``, ruling T-OR1); a side moves its
own (``RepositionSatellite``, T-OR3) and chooses each week whether its landed DropShips stay
on hot standby or power down (``ChooseDropShipReadiness``, T-OR5). The day's part runs inside
``resolve`` and lives in :mod:`.orbit_day`: Anti-Satellite and Reposition Orbit orders after
the moves (``orbital_actions``), the SatLink and ship feeds for sightings and responses
(``feed_sensors``, T-OR4), and the standby fatigue with the upkeep (``standby_fatigue``).
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import label
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type
from mekref.rules.record_type import record
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import DROPSHIP, known_side, strategic_of, strategic_today
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of, map_label
from mekref.rules.tripwire.turn.orbit_events import (
    DropShipReadinessChosen,
    SatelliteDestroyed,
    SatellitePlaced,
    SatelliteRepositioned,
    StandbyFatigue,
)
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    DropShipReadiness,
    Formation,
    FormationOrder,
    Satellite,
    StrategicState,
)

#: Quoted by refusals and notes (line numbers of 000_02b6ea58a819e287.txt).
L207 = (
    'L207: "each trip after the first adds 1 fatigue point to the DropShip and all units being '
    'carried"'
)
L208 = 'L208: "A DropShip or Aerospace Fighter may reach orbit"'
L209 = (
    'L209: "An AeroSpace Fighter or DropShip may move and destroy an enemy satellite on the '
    'high altitude map"'
)
L210 = (
    'L210: "A Satellite is Geostationary Orbit may move its position by 1 planetary region per day"'
)
L210_PATH = 'L210: "To change the path takes 1 day"'
L211 = (
    'L211: "A DropShip can only perform this action when in a GeoStationary orbit above the '
    'target hex"'
)
L213 = 'L213: "A DropShip (and the loaded units) that is on standby ... may make a move action"'
L270_GEAR = 'L270: "DropShips have the same equipment as Satellites but AeroSpace fighters do not"'
L408 = 'L408: "DropShips must also decide each week if they remain on hot standby or power down"'
ORBITS = ("geostationary", "lpo")
READINESS = ("hot_standby", "power_down")
#: The imagers a satellite carries (L270); a surveillance order from space claims them only
#: with a DropShip in the formation (ruling T-OR4).
SATELLITE_GEAR = frozenset({"satellite_imager", "high_resolution_imager"})


def week_of(day: int) -> int:
    """Days 1-7 are week 1, 8-14 week 2 (the weekly weather change falls on 8, 15, ...)."""
    return (day - 1) // 7 + 1


# --- commands --------------------------------------------------------------------------------


@command_type("PlaceSatellite")
@record
class PlaceSatellite(Command):
    """Referee: a side's surveillance satellite in orbit (L270, ruling T-OR1)."""

    satellite_id: str
    owner: str
    orbit: str  # geostationary or lpo
    hex: str  # the hex it is above (geostationary) or whose track it crosses (lpo)
    note: RefereeNote


@command_type("RepositionSatellite")
@record
class RepositionSatellite(Command):
    """A side moves its own satellite (L210, ruling T-OR3)."""

    side_id: str
    day: int
    satellite_id: str
    hex: str


@command_type("ChooseDropShipReadiness")
@record
class ChooseDropShipReadiness(Command):
    """A side's weekly choice for one of its DropShips (L408, ruling T-OR5)."""

    side_id: str
    day: int
    unit_id: str
    mode: str  # hot_standby or power_down
    extra_crew: bool = False


SIDE_COMMANDS = (RepositionSatellite, ChooseDropShipReadiness)


def _decide_place(
    state: CampaignState, cmd: PlaceSatellite, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    known_side(state, cmd.owner, "owner")
    if not cmd.satellite_id.strip() or cmd.satellite_id in s.satellites:
        raise Refusal("bad_target", f"satellite_id: {cmd.satellite_id!r} is empty or taken")
    if cmd.orbit not in ORBITS:
        raise Refusal("bad_param", f"orbit: one of {', '.join(ORBITS)}, not {cmd.orbit!r}")
    sat = Satellite(
        satellite_id=cmd.satellite_id,
        owner=cmd.owner,
        orbit=cmd.orbit,
        hex=map_label(s, cmd.hex, "hex"),
    )
    return [
        SatellitePlaced(
            satellite=sat, referee=cmd.note.referee, reason=cmd.note.reason, actor=cmd.actor
        )
    ]


def _decide_reposition(
    state: CampaignState, cmd: RepositionSatellite, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_today(state, cmd.day)
    sat = s.satellites.get(cmd.satellite_id)
    if sat is None or sat.owner != cmd.side_id:
        raise Refusal(
            "bad_target",
            f"satellite_id: {cmd.satellite_id!r} is not a satellite of {cmd.side_id!r}",
        )
    if sat.destroyed_day:
        raise Refusal("bad_target", f"satellite_id: {sat.satellite_id} was destroyed (L209)")
    if sat.moved_day == s.day:
        raise Refusal("moved", f"satellite_id: {sat.satellite_id} has moved today ({L210})")
    after = map_label(s, cmd.hex, "hex")
    if sat.orbit == "geostationary":
        hm = hexmap_of(s)
        here, there = hm.region_of(hex_at(sat.hex)), hm.region_of(hex_at(after))
        near = {here.name, *(r.name for r in hm.adjacent_regions(here))} if here else set()
        if there is None or there.name not in near:
            raise Refusal(
                "too_far",
                f"hex: {after} is not in the region of {sat.hex} or one next to it ({L210})",
            )
    return [
        SatelliteRepositioned(
            satellite_id=sat.satellite_id,
            owner=sat.owner,
            before=sat.hex,
            after=after,
            day=s.day,
            actor=cmd.actor,
        )
    ]


def _decide_readiness(
    state: CampaignState, cmd: ChooseDropShipReadiness, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_today(state, cmd.day)
    unit = state.units.get(cmd.unit_id)
    mob = s.mobility.get(cmd.unit_id)
    if unit is None or unit.side_id != cmd.side_id or mob is None or mob.mode != DROPSHIP:
        raise Refusal(
            "wrong_units", f"unit_id: {cmd.unit_id!r} is not a DropShip of {cmd.side_id!r}"
        )
    if cmd.mode not in READINESS:
        raise Refusal("bad_param", f"mode: one of {', '.join(READINESS)}, not {cmd.mode!r}")
    week = week_of(s.day)
    old = s.readiness.get(cmd.unit_id)
    if old is not None and old.week == week:
        raise Refusal(
            "already_chosen",
            f"unit_id: {cmd.unit_id} chose {old.mode} for week {week} already ({L408})",
        )
    return [built_from(DropShipReadinessChosen, cmd, day=s.day, week=week)]


# --- orders ----------------------------------------------------------------------------------


def has_mode(s: StrategicState, f: Formation, *modes: str) -> bool:
    """Whether one of the formation's units moves in one of ``modes``."""
    return any(s.mobility.get(u) is not None and s.mobility[u].mode in modes for u in f.unit_ids)


def powered_down(s: StrategicState, f: Formation) -> tuple[str, ...]:
    """The formation's DropShips that chose to power down this week."""
    week = week_of(s.day)
    return tuple(
        u
        for u in f.unit_ids
        if (r := s.readiness.get(u)) is not None and r.week == week and r.mode == "power_down"
    )


def check_order(s: StrategicState, f: Formation, order: FormationOrder, field: str) -> None:
    """The orbital orders' own checks (called from the orders' validation)."""
    if order.action == "anti_satellite":
        if f.hex != IN_ORBIT:
            raise Refusal(
                "not_in_orbit",
                f"{field}.action: {f.formation_id} is not in orbit; reach it first "
                f"(achieve_orbit, {L208})",
            )
        sat = s.satellites.get(order.target or "")
        if sat is None or sat.owner == f.side_id or sat.destroyed_day:
            raise Refusal(
                "bad_target",
                f"{field}.target: {order.target!r} is not an enemy satellite in orbit ({L209})",
            )
    elif order.action == "reposition_orbit":
        if f.hex != IN_ORBIT:
            raise Refusal(
                "not_in_orbit", f"{field}.action: {f.formation_id} is not in orbit ({L208})"
            )
        kind = order.param("orbit")
        if kind not in ORBITS:
            raise Refusal(
                "bad_param",
                f"{field}.params.orbit: name the orbit, geostationary or lpo, not {kind!r} "
                '(L210: "change to a different geostationary orbit, or move to a Low Planetary '
                'Orbit")',
            )
        if order.target is None:
            raise Refusal("bad_target", f"{field}.target: the hex the orbit is above or crosses")
        map_label(s, order.target, f"{field}.target")
    elif order.action == "surveillance":
        claimed = SATELLITE_GEAR & set(order.param("conditions").split(","))
        if claimed and not has_mode(s, f, DROPSHIP):
            raise Refusal(
                "wrong_units",
                f"{field}.params.conditions: {', '.join(sorted(claimed))} need a DropShip in "
                f"the formation ({L270_GEAR})",
            )
    elif order.action == "combat_drop":
        _check_drop_orbit(f, order, field)
    elif order.action == "suborbital_hop":
        raw = order.param("trips", "1")
        if not raw.isdigit() or int(raw) < 1:
            raise Refusal("bad_param", f"{field}.params.trips: a whole number from 1, got {raw!r}")
    elif order.action == "respond":
        down = powered_down(s, f)
        if down:
            raise Refusal(
                "powered_down",
                f"{field}.action: DropShip {', '.join(down)} is powered down this week ({L213})",
            )


def _check_drop_orbit(f: Formation, order: FormationOrder, field: str) -> None:
    """Combat Drop (L211, ruling T-OR7): only from the geostationary orbit above the target hex,
    named by a Reposition Orbit (T-OR3). An orbit not named (the pirate point of Day Zero, or a
    ship that reached orbit and has not repositioned) is above no hex: no drop from there."""
    if order.target is None:  # the landing's own check asks for the hex first
        return
    there = label(hex_at(order.target))
    if f.orbit == f"geostationary:{there}":
        return
    where = (
        f"in {f.orbit.replace(':', ' orbit above ')}"
        if f.orbit
        else "in no named orbit (the pirate point, or an orbit not yet repositioned)"
    )
    raise Refusal(
        "not_above_target",
        f"{field}.action: {f.formation_id} is {where}, not in the geostationary orbit above "
        f"{there} ({L211}); reposition its orbit first (reposition_orbit, orbit=geostationary, "
        f"target {there}) and drop the next day, or land with orbital_insertion",
    )


# --- the day ---------------------------------------------------------------------------------


# --- evolvers --------------------------------------------------------------------------------


def _with(state: CampaignState, s: StrategicState) -> CampaignState:
    return replace(state, strategic=s)


def _placed(state: CampaignState, e: SatellitePlaced) -> CampaignState:
    s = strategic_of(state)
    sats = {**s.satellites, e.satellite.satellite_id: e.satellite}
    return _with(state, replace(s, satellites=dict(sorted(sats.items()))))


def _sat_destroyed(state: CampaignState, e: SatelliteDestroyed) -> CampaignState:
    s = strategic_of(state)
    sat = replace(s.satellites[e.satellite_id], destroyed_day=e.day)
    return _with(state, replace(s, satellites={**s.satellites, e.satellite_id: sat}))


def _sat_moved(state: CampaignState, e: SatelliteRepositioned) -> CampaignState:
    s = strategic_of(state)
    sat = replace(s.satellites[e.satellite_id], hex=e.after, moved_day=e.day)
    return _with(state, replace(s, satellites={**s.satellites, e.satellite_id: sat}))


def _readiness(state: CampaignState, e: DropShipReadinessChosen) -> CampaignState:
    s = strategic_of(state)
    old = s.readiness.get(e.unit_id)
    r = built_from(DropShipReadiness, e, fatigue=old.fatigue if old is not None else 0)
    ready = {**s.readiness, e.unit_id: r}
    return _with(state, replace(s, readiness=dict(sorted(ready.items()))))


def _fatigued(state: CampaignState, e: StandbyFatigue) -> CampaignState:
    s = strategic_of(state)
    ready = dict(s.readiness)
    for uid, n in e.fatigue:
        ready[uid] = replace(ready[uid], fatigue=n)
    return _with(state, replace(s, readiness=ready))


DECIDERS: dict[type[Command], Decider] = {
    PlaceSatellite: _decide_place,
    RepositionSatellite: _decide_reposition,
    ChooseDropShipReadiness: _decide_readiness,
}

EVOLVERS: dict[type[Event], Evolver] = {
    SatellitePlaced: _placed,
    SatelliteDestroyed: _sat_destroyed,
    SatelliteRepositioned: _sat_moved,
    DropShipReadinessChosen: _readiness,
    StandbyFatigue: _fatigued,
}
