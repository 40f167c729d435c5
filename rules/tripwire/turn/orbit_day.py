"""What the satellites and the DropShips in orbit do in a day's resolution: Anti-Satellite
Operations (L209), the sensor feeds of working satellites (L270) and their uplinks, and the
fatigue of hot standby (L408)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mekref.hexmap import Hex, Sensor, SensorKind, label
from mekref.rules.dice import Roll
from mekref.rules.tripwire.turn.common import AEROSPACE, DROPSHIP
from mekref.rules.tripwire.turn.comms_gear import uplink_units
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orbit import L207, L209, has_mode, week_of
from mekref.rules.tripwire.turn.orbit_events import (
    SatelliteDestroyed,
    StandbyFatigue,
)
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    Satellite,
)


def working_satellites(d: Day) -> tuple[Satellite, ...]:
    """Satellites that monitor today: not destroyed, and not a low-orbit one changing its
    path today (L210: "To change the path takes 1 day")."""
    return tuple(
        sat
        for _, sat in sorted(d.satellites.items())
        if not sat.destroyed_day and not (sat.orbit == "lpo" and sat.moved_day == d.day)
    )


def orbital_actions(d: Day) -> None:
    """Anti-Satellite Operations and Reposition Orbit (L209, L210), repeated hops (L207)."""
    for fid, o in sorted(d.orders.items()):
        f = d.formations.get(fid)
        if f is None:
            continue
        if o.action == "anti_satellite" and o.target:
            sat = d.satellites.get(o.target)
            if sat is None or sat.destroyed_day:
                d.note(f.side_id, f"{fid}: satellite {o.target} is already gone")
                continue
            d.satellites[sat.satellite_id] = replace(sat, destroyed_day=d.day)
            d.events.append(
                SatelliteDestroyed(
                    satellite_id=sat.satellite_id, owner=sat.owner, by_force=f.side_id, day=d.day
                )
            )
            d.note(f.side_id, f"{fid}: destroyed satellite {sat.satellite_id} ({L209})")
        elif o.action == "reposition_orbit" and o.target:
            where = label(hex_at(o.target))
            d.formations[fid] = replace(f, orbit=f"{o.param('orbit')}:{where}")
        elif o.action == "suborbital_hop":
            extra = int(o.param("trips", "1")) - 1
            if extra > 0:
                d.formations[fid] = replace(f, fatigue=f.fatigue + extra)
                d.note(f.side_id, f"{fid}: {extra + 1} hops today, +{extra} fatigue ({L207})")
        elif f.orbit and f.hex != IN_ORBIT:
            d.formations[fid] = replace(f, orbit="")  # landed: no longer in any orbit


def _ships(d: Day) -> list[Formation]:
    """Formations in a named orbit with a DropShip or fighter: they "can also act as
    satellites" (L270)."""
    return [
        f
        for _, f in sorted(d.formations.items())
        if f.hex == IN_ORBIT and f.orbit and has_mode(d.s, f, DROPSHIP, AEROSPACE)
    ]


def feed_sensors(d: Day, side: str, held: Sequence[str]) -> tuple[list[Sensor], list[Roll]]:
    """The orbital watch ``side`` has today, and the rolls it made for it (ruling T-OR4).

    A SatLink location, or a formation with a unit carrying 4+ tons of communications
    equipment (T-OR8), rolls 2d6 once a day: 9+ reaches the satellites (L270); while the
    referee placed none, the planet's network as before (T-S1); once every placed satellite is
    gone, there is nothing to reach and no roll. A geostationary satellite reached also shows
    the ground of the hex below and its six neighbours (its imagers, L270; L242). The side's
    own ships in a named orbit watch for it without a roll; an enemy's ships' feed is hacked
    from such an uplink on 11+.
    """
    sensors: list[Sensor] = []
    rolls: list[Roll] = []
    uplink = uplinks(d, side, held)
    working = working_satellites(d)
    listed = bool(d.satellites)
    if uplink and (working or not listed):
        if side not in d.satellite:
            d.satellite[side] = d.roll(f"satellite access, {side}", 2)
        access = d.satellite[side]
        rolls.append(access)
        if access.total >= int(single("surveillance", "satellite_access")["target"]):
            for sat in working:
                sensors.append(Sensor(side, SensorKind.SATELLITE_MONITOR, hex_at(sat.hex)))
                if sat.orbit == "geostationary":
                    # Its imagers (L270) see the hex below and the six around it (L242).
                    sensors.append(Sensor(side, SensorKind.SATELLITE, hex_at(sat.hex)))
            if not listed:
                sensors.append(Sensor(side, SensorKind.SATELLITE_MONITOR, uplink[0]))
    elif side in d.satellite:
        rolls.append(d.satellite[side])  # the uplink fell (or the last satellite) today
    ships = _ships(d)
    for f in ships:
        if f.side_id == side:
            sensors.append(Sensor(side, SensorKind.SATELLITE_MONITOR, hex_at(_orbit_hex(f))))
    enemy = [f for f in ships if f.side_id != side]
    if uplink and enemy:
        if side not in d.ship_feed:
            d.ship_feed[side] = d.roll(f"ship feed hack, {side}", 2)
        hack = d.ship_feed[side]
        rolls.append(hack)
        if hack.total >= int(single("surveillance", "satellite_access")["dropship_feed_target"]):
            sensors += [
                Sensor(side, SensorKind.SATELLITE_MONITOR, hex_at(_orbit_hex(f))) for f in enemy
            ]
    return sensors, rolls


def uplinks(d: Day, side: str, held: Sequence[str]) -> list[Hex]:
    """Where ``side`` can reach the satellites from today (L270): each SatLink it holds, then
    each hex on the planet where one of its formations has a unit with 4+ tons of
    communications equipment (ruling T-OR8). One roll a day serves them all."""
    found = [d.hexmap.location(n).hex for n in held if "satlink" in d.hexmap.location(n).facilities]
    for _, f in sorted(d.formations.items()):
        if f.side_id == side and f.hex != IN_ORBIT and uplink_units(d.state, f.unit_ids):
            found.append(hex_at(f.hex))
    return found


def _orbit_hex(f: Formation) -> str:
    return f.orbit.split(":", 1)[1]


def standby_fatigue(d: Day) -> None:
    """A landed DropShip on hot standby this week gains 1 fatigue a day, unless it has an extra
    full crew (L408); a formation that rested clears its DropShips' fatigue (L205)."""
    week = week_of(d.day)
    where = {u: f for f in d.formations.values() for u in f.unit_ids}
    changed: dict[str, list[tuple[str, int]]] = {}
    rested: dict[str, list[str]] = {}
    for uid, r in sorted(d.s.readiness.items()):
        f = where.get(uid)
        if f is None:
            continue
        if d.action(f.formation_id) == "rest":
            if r.fatigue:
                changed.setdefault(r.side_id, []).append((uid, 0))
                rested.setdefault(r.side_id, []).append(uid)
            continue
        on_ground = f.hex != IN_ORBIT
        if r.week == week and r.mode == "hot_standby" and on_ground and not r.extra_crew:
            changed.setdefault(r.side_id, []).append((uid, r.fatigue + 1))
    for side in sorted(changed):
        d.events.append(
            StandbyFatigue(
                side_id=side,
                day=d.day,
                fatigue=tuple(changed[side]),
                rested=tuple(rested.get(side, ())),
            )
        )
