"""What a side's sensors detect in the air today, and the fighters it wakes (ruling T-RS3).

L268: "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
of the RADAR station detected. Any AeroSpace units on Intercept or on Combat AirPatrol can then
activate."
L211: "Any Radar Station can detect this any AeroSpace assets on Intercept or CAP can activate."
L203: "If the unit remains at an altitude of 1 on the low altitude map they are not detectable by
RADAR, but can be detected by enemy aircraft on Combat Air Patrol."
L316: "No AeroSpace support can be called unless they unit arrives with at leats 100 fuel points
and enough fuel to return to a base."

A detected enemy air mission (Strike, Overflight, Combat Air Patrol) is met where it was first
seen (ruling T-AM4); a detected landing (Orbital Insertion, Suborbital Hop, Combat Drop) at its
landing hex. The fighters fly there from their airfield (Intercept) or the hex they patrol (CAP)
if every unit arrives with the fuel L316 asks for; they burn the trip there and back.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import Hex, Sensor, SensorKind, distance, label, location_sensors, visible_hexes
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.turn import air_missions, fuel, orbit_day
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.events import ResponseMade
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orders import LANDING
from mekref.rules.tripwire.turn.state import IN_ORBIT

L268 = (
    'L268: "Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km '
    "of the RADAR station detected. Any AeroSpace units on Intercept or on Combat AirPatrol can "
    'then activate."'
)
L211 = (
    'L211: "Any Radar Station can detect this any AeroSpace assets on Intercept or CAP can '
    'activate."'
)
L316 = 'L316: "arrives with at leats 100 fuel points and enough fuel to return to a base"'


@record
class Contact(Record):
    """An enemy in the air that ``how`` detected at ``at``."""

    formation_id: str
    action: str
    at: Hex
    how: str  # radar, satellite or deep_space_array


def _held(d: Day, side: str) -> list[str]:
    return [name for name, holder in sorted(d.control.items()) if holder == side]


def _standing(d: Day, side: str) -> list[Sensor]:
    """The side's own presence (its hex) and its held locations' RADAR and arrays."""
    sensors = [
        Sensor(side, SensorKind.PRESENCE, hex_at(f.hex))
        for f in d.formations.values()
        if f.side_id == side and f.hex != IN_ORBIT
    ]
    return sensors + location_sensors(d.hexmap, side, _held(d, side))


def detectors(d: Day, side: str, at: Hex) -> tuple[str, ...]:
    """Which of ``side``'s sensors see an enemy hop, landing or launch at ``at`` (line 213:
    "Radar (in range) or a Deep Space Array/Satellite")."""
    cover = visible_hexes(side, d.hexmap, _standing(d, side))
    region = d.hexmap.region_of(at)
    found = []
    if at in cover.air:
        found.append("radar")
    if region is not None and region.name in cover.orbital_regions:
        found.append("deep_space_array")
    if region is not None:
        # The day's SatLink rolls (line 270), made now so the feed can warn of the hop; the
        # sightings use the same rolls. Own ships in orbit watch too (ruling T-OR4).
        feeds, _ = orbit_day.feed_sensors(d, side, _held(d, side))
        if feeds and region.name in visible_hexes(side, d.hexmap, feeds).orbital_regions:
            found.append("satellite")
    return tuple(found)


def contacts(d: Day, side: str) -> tuple[Contact, ...]:
    """The enemy air missions and landings ``side`` detects today, by enemy formation id.

    A mission at Nape of Earth (``conditions`` with ``altitude_1``) is left out whatever else
    might see it: L203 leaves it to the Combat Air Patrol whose hex it enters (ruling T-AM2)."""
    flown = [m for m in air_missions.missions(d) if m.side_id != side and not m.nape_of_earth]
    landings = [
        (fid, o.action, hex_at(o.target))
        for fid, o in sorted(d.orders.items())
        if o.action in LANDING
        and o.target
        and fid in d.formations
        and d.formations[fid].side_id != side
    ]
    if not flown and not landings:
        return ()  # nothing in the air: no sensor is asked (and no SatLink roll made early)
    out: list[Contact] = []
    if flown:
        standing = _standing(d, side)
        feeds, _ = orbit_day.feed_sensors(d, side, _held(d, side))
        sat = visible_hexes(side, d.hexmap, feeds).orbital_regions if feeds else frozenset()
        seen_by = visible_hexes(side, d.hexmap, standing)
        for m in flown:
            seen = air_missions.first_seen(
                d, m, radar=seen_by.air, sat_regions=sat, dsa_regions=seen_by.orbital_regions
            )
            if seen is not None:
                out.append(
                    Contact(formation_id=m.formation_id, action=m.action, at=seen[0], how=seen[1])
                )
    for fid, action, at in landings:
        how = detectors(d, side, at)
        if how:
            out.append(Contact(formation_id=fid, action=action, at=at, how=how[0]))
    return tuple(sorted(out, key=lambda c: c.formation_id))


def wake(d: Day, fid: str, start: Hex, skip: frozenset[str]) -> tuple[Hex, tuple[str, ...]] | None:
    """Fighters of ``fid`` (on Intercept or Combat Air Patrol, at ``start``) activated by what
    their side detected, enemies in ``skip`` (already met) left out. They fly to the first
    detected enemy they can reach with fuel (L316) and meet there every enemy detected at that
    hex; the day's output says so, quoting L268 (L211 for a Combat Drop). An enemy out of reach
    is noted, never passed over in silence. Returns the encounter, or None."""
    f = d.formations[fid]
    side = f.side_id
    action = d.orders[fid].action
    seen = [c for c in contacts(d, side) if c.formation_id not in skip]
    chosen: int | None = None
    for i, c in enumerate(seen):
        km = distance(start, c.at) * d.hexmap.hex_km
        short = [
            uid
            for uid in f.unit_ids
            if fuel.arrival_fuel(d.mobility.get(uid, d.s.mobility[uid]), km) is None
        ]
        if not short:
            chosen = i
            break
        d.note(
            side,
            f"{fid} ({action}): {c.how} detected enemy {c.formation_id} ({c.action}) over "
            f"{label(c.at)}, {km} km from {label(start)}: out of reach, unit "
            f"{', '.join(short)} would not arrive with the fuel to fight and come home ({L316})",
        )
    if chosen is None:
        return None
    target = seen[chosen].at
    met = [c for c in seen if c.at == target]
    km = distance(start, target) * d.hexmap.hex_km
    for uid in f.unit_ids:
        unit = d.mobility.get(uid, d.s.mobility[uid])
        burn = 2 * fuel.trip_fuel(unit, km)
        if burn:
            d.mobility[uid] = replace(unit, fuel=max(0, unit.fuel - burn))
    d.events.append(
        ResponseMade(
            side_id=side,
            day=d.day,
            formation_id=fid,
            action=action,
            before=label(start),
            hex=label(target),
            against=tuple(c.formation_id for c in met),
            detected_by=tuple(sorted({c.how for c in met})),
        )
    )
    # A Combat Drop's own line says it too (L211).
    rule = f"{L268}; {L211}" if any(c.action == "combat_drop" for c in met) else L268
    for c in met:
        after = "lands" if c.action in LANDING else "flies on"
        text = (
            f"{c.how} detected enemy {c.formation_id} ({c.action}) over {label(target)}; "
            f"{fid} on {action.replace('_', ' ')} at {label(start)} activates and meets it there, "
            f"{km} km out ({rule})"
        )
        d.note(side, f"{fid}: {text}")
        d.engagement_notes.setdefault(label(target), []).append(
            f"{text}: fight this air battle first; what survives {after}"
        )
    for c in seen[chosen + 1 :]:
        if c.at != target:
            d.note(
                side,
                f"{fid}: {c.how} detected enemy {c.formation_id} ({c.action}) over "
                f"{label(c.at)} too; {fid} is already flying to {label(target)}",
            )
    return target, (fid, *(c.formation_id for c in met))
