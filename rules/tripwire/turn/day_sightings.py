"""End-of-day sightings (what each side's sensors identify) and step 5, the engagements."""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import (
    Hex,
    Sensor,
    SensorKind,
    distance,
    label,
    line,
    location_sensors,
    visible_hexes,
)
from mekref.rules.dice import Roll
from mekref.rules.messages import Event
from mekref.rules.tripwire.turn import air_missions, engagement, orbit_day, surveillance, weather
from mekref.rules.tripwire.turn.common import AEROSPACE
from mekref.rules.tripwire.turn.day import Day, raise_mobs
from mekref.rules.tripwire.turn.events import EngagementDetermined, SightingsMade
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orders import LANDING
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    FormationOrder,
    Sighting,
)

DEFAULT_PILOTING = 5  # when a unit's crew is not on the roster (ruling T-S1)


def _piloting(d: Day, f: Formation) -> int:
    best = None
    for uid in f.unit_ids:
        unit = d.state.units.get(uid)
        for pid in unit.crew if unit is not None else ():
            person = d.state.people.get(pid)
            if person is not None:
                best = person.piloting if best is None else min(best, person.piloting)
    return DEFAULT_PILOTING if best is None else best


def _surveillance(d: Day, fid: str, o: FormationOrder, target: Hex) -> tuple[Roll, str, Sensor]:
    """An overflight or a surveillance order's roll, what it learns, and the sensor it used."""
    f = d.formations[fid]
    if o.action == "overflight" and f.hex != IN_ORBIT:
        sensor = Sensor(
            f.side_id,
            SensorKind.OVERFLIGHT,
            hex_at(f.hex),
            tuple(line(hex_at(f.hex), target))[1:],
        )
    else:
        sensor = Sensor(f.side_id, SensorKind.SATELLITE, target)
    region = d.hexmap.region_of(target)
    wx = d.s.weather.get(region.name) if region is not None else None
    cloud = weather.cloud_of(wx.level) if wx is not None else 0
    # The altitude row is where the formation flies (ruling T-S3), checked at submission.
    space = not (o.action == "overflight" and f.hex != IN_ORBIT)
    mod = surveillance.flight_modifier(o, from_space=space, cloud=cloud, field="params")
    roll, margin, d.dice = surveillance.roll_check(
        d.dice, f"surveillance, {fid}", _piloting(d, f), mod
    )
    info = surveillance.surveillance_info(margin)
    d.note(
        f.side_id,
        f"{fid}: surveillance roll {roll.total} against {_piloting(d, f) + mod}: {info}",
    )
    return roll, info, sensor


def sightings(d: Day) -> None:
    sides = sorted(d.state.sides)
    found: dict[str, dict[str, Sighting]] = {side: {} for side in sides}
    ground: dict[str, list[Formation]] = {}
    for f in d.formations.values():
        if f.hex != IN_ORBIT:
            ground.setdefault(f.hex, []).append(f)

    def reveal(side: str, hexes: frozenset[Hex], info: str) -> None:
        for h in sorted(hexes):
            for other in ground.get(label(h), ()):
                if other.side_id == side:
                    continue
                units = len(other.unit_ids) if info not in ("presence",) else None
                old = found[side].get(other.formation_id)
                if old is None or _rank(info) > _rank(old.info):
                    found[side][other.formation_id] = Sighting(
                        formation_id=other.formation_id, side_id=other.side_id, hex=other.hex,
                        day=d.day, info=info, units=units,
                    )  # fmt: skip

    surveyed: dict[str, list[Roll]] = {}
    landed = sorted(fid for fid, o in d.orders.items() if o.action in LANDING)
    flown = air_missions.missions(d)
    for side in sides:
        held = [name for name, holder in sorted(d.control.items()) if holder == side]
        sensors = [
            Sensor(side, SensorKind.PRESENCE, hex_at(f.hex))
            for f in d.formations.values()
            if f.side_id == side and f.hex != IN_ORBIT
        ]
        standing = location_sensors(d.hexmap, side, held)
        sensors += standing
        # The SatLink roll for the satellites (9+) and the enemy ships' feeds (11+), and the
        # side's own ships in orbit (line 270, ruling T-OR4).
        feeds, rolls = orbit_day.feed_sensors(d, side, held)
        sensors += feeds
        if rolls:
            surveyed.setdefault(side, []).extend(rolls)
        cover = visible_hexes(side, d.hexmap, sensors)
        reveal(side, cover.ground, "unit_type")
        # A Deep Space Array or a satellite detects landings in the sectors it watches.
        for fid in landed:
            f = d.formations[fid]
            region = d.hexmap.region_of(hex_at(f.hex)) if f.hex != IN_ORBIT else None
            if f.side_id != side and region is not None and region.name in cover.orbital_regions:
                reveal(side, frozenset({hex_at(f.hex)}), "presence")
        if any(m.side_id != side for m in flown):
            _air_sightings(d, side, flown, cover.air, feeds, standing, found)
    for fid, o in sorted(d.orders.items()):
        if o.action not in ("overflight", "surveillance") or o.target is None:
            continue
        f = d.formations[fid]
        roll, info, sensor = _surveillance(d, fid, o, hex_at(o.target))
        surveyed.setdefault(f.side_id, []).append(roll)
        if info != surveillance.NOTHING:
            reveal(f.side_id, visible_hexes(f.side_id, d.hexmap, [sensor]).ground, info)
    for fid, o in sorted(d.orders.items()):
        if o.action == "identify":
            _identify(d, fid, o, found, surveyed)
    for side in sides:
        d.events.append(
            SightingsMade(
                side_id=side,
                day=d.day,
                sightings=tuple(v for _, v in sorted(found[side].items())),
                rolls=tuple(surveyed.get(side, ())),
            )
        )


def _air_sightings(
    d: Day,
    side: str,
    flown: tuple[air_missions.Mission, ...],
    air: frozenset[Hex],
    feeds: list[Sensor],
    standing: list[Sensor],
    found: dict[str, dict[str, Sighting]],
) -> None:
    """Enemy air missions seen anywhere along their path, not where they end the day (ruling
    T-AM4, L268: "Any aerospace asset that is not flying above level 1 (Nape of Earth) within
    400 km of the RADAR station detected")."""
    sat = visible_hexes(side, d.hexmap, feeds).orbital_regions if feeds else frozenset()
    dsa = visible_hexes(side, d.hexmap, standing).orbital_regions
    for m in flown:
        if m.side_id == side:
            continue
        seen = air_missions.first_seen(d, m, radar=air, sat_regions=sat, dsa_regions=dsa)
        if seen is None:
            continue
        at, how = seen
        d.note(side, f"{how} detected enemy {m.formation_id} ({m.action}) over {label(at)}")
        if m.formation_id not in found[side]:
            found[side][m.formation_id] = Sighting(
                formation_id=m.formation_id,
                side_id=m.side_id,
                hex=label(at),
                day=d.day,
                info="presence",
                units=None,
            )


def _identify(
    d: Day,
    fid: str,
    o: FormationOrder,
    found: dict[str, dict[str, Sighting]],
    surveyed: dict[str, list[Roll]],
) -> None:
    """Identify/Scan (lines 359-372, ruling T-S2): the best pilot's Piloting roll with the range,
    probe and sensors-only modifiers against one enemy formation in the same or an adjacent
    hex; the margin says how much is learned (-4 unit type ... +2 markings and damage)."""
    f = d.formations[fid]
    target = d.formations.get(o.target or "")
    if (
        target is None
        or f.hex == IN_ORBIT
        or target.hex == IN_ORBIT
        or distance(hex_at(f.hex), hex_at(target.hex)) > 1
    ):
        d.note(f.side_id, f"{fid}: identify: nothing in sight (the same or an adjacent hex)")
        return
    mod = surveillance.identify_conditions(o)
    piloting = _piloting(d, f)
    roll, margin, d.dice = surveillance.roll_check(d.dice, f"identify, {fid}", piloting, mod)
    surveyed.setdefault(f.side_id, []).append(roll)
    info = surveillance.identify_info(margin)
    d.note(f.side_id, f"{fid}: identify roll {roll.total} against {piloting + mod}: {info}")
    if info == surveillance.NOTHING:
        return
    old = found[f.side_id].get(target.formation_id)
    if old is None or _rank(info) > _rank(old.info):
        found[f.side_id][target.formation_id] = Sighting(
            formation_id=target.formation_id,
            side_id=target.side_id,
            hex=target.hex,
            day=d.day,
            info=info,
            units=len(target.unit_ids),
        )


_INFO_ORDER = (
    "nothing",
    "presence",
    "unit_type",
    "weight_class",
    "model",
    "loadout",
    "markings_and_damage",
)


def _rank(info: str) -> int:
    return _INFO_ORDER.index(info) if info in _INFO_ORDER else 0


def engagements(d: Day, encounters: list[tuple[Hex, tuple[str, ...]]]) -> None:
    air: tuple[Formation, ...] | None = None  # fighters where they ended the day, found once
    busy = engagement.air_missions(d.orders) if encounters else frozenset()
    for i, (at, names) in enumerate(encounters):
        eid = f"day{d.day}-{label(at)}-{i + 1}"
        forms = [d.formations[n] for n in names]
        if air is None:
            air = tuple(
                f
                for _, f in sorted(d.formations.items())
                if any(d.s.mobility[u].mode == AEROSPACE for u in f.unit_ids)
            )
        setup, rolls, d.dice = engagement.set_up(
            d.state,
            d.s,
            d.hexmap,
            eid=eid,
            day=d.day,
            at=at,
            formations=forms,
            orders=d.orders,
            dice=d.dice,
            air=air,
            busy=busy,
        )
        notes = list(d.engagement_notes.get(label(at), ()))
        mobs: list[Event] = []
        loc = d.hexmap.location_at(at)
        if loc is not None:
            # A battle in a population centre (any strategic location, ruling T-L1) raises mobs.
            for side in sorted(setup.sides):
                before = len(d.events)
                note = raise_mobs(
                    d, side, d.rating(side, loc.name), loc.name, f"battle, {eid}", eid
                )
                mobs += d.events[before:]
                del d.events[before:]
                if note:
                    notes.append(note)
        if notes:
            setup = replace(setup, notes=(*setup.notes, *notes))
        d.events.append(EngagementDetermined(engagement=setup, rolls=tuple(rolls)))
        d.events.extend(mobs)
