"""Air missions that fight, and the sensors that see them on the way (rulings T-AM1..T-AM4).

L203: "Strike (AeroSpace units only) – The AeroSpace unit travels to a specific hex/location and
initiates a battle vs either ground units or enemy AeroSpace fighters. ... If the unit remains at
an altitude of 1 on the low altitude map they are not detectable by RADAR, but can be detected by
enemy aircraft on Combat Air Patrol."
L204: "Any enemy unit that enters the hex (even of flying at Altitude 1/NOE) is detected and can
be intercepted at a distance of half the size of a strategic hex."
L289: "Attack Mission (AeroSpace) – An AeroSpace fighter on an overflight mission may engage the
enemy ground forces through strafing, strike or bombing attacks but will take enemy fire."
L268: "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
of the RADAR station detected."

A mission flies the straight line from its base to its target hex (the hex it overflies,
strikes or patrols; its own hex when it names none) and comes home the same way: the fuel is
already reckoned that way (``fuel.mission_fuel``).
"""

from __future__ import annotations

from mekref.hexmap import Hex, label, line
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.engagement import AIR_MISSIONS, strikes, under_fire
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.state import IN_ORBIT

#: The ``conditions`` entry (the surveillance table's key) that puts a mission at Nape of Earth.
NAPE_OF_EARTH = "altitude_1"


@record
class Mission(Record):
    formation_id: str
    side_id: str
    action: str
    path: tuple[Hex, ...]  # base first, target last
    nape_of_earth: bool  # flying at altitude 1 (L203: not detectable by RADAR)
    high_altitude: bool  # on the high altitude map (L201; a Deep Space Array sees it, L269)
    striking: bool  # Strike (L203) or an overflight on an Attack Mission (L289)
    under_fire: bool  # an overflight at altitude 8 or below (L290, ruling T-AM5)

    @property
    def target(self) -> Hex:
        return self.path[-1]


def missions(d: Day) -> tuple[Mission, ...]:
    """Today's air missions flown from the ground, by formation id."""
    out: list[Mission] = []
    for fid, o in sorted(d.orders.items()):
        f = d.formations.get(fid)
        if o.action not in AIR_MISSIONS or f is None or f.hex == IN_ORBIT:
            continue
        base = hex_at(f.hex)
        target = hex_at(o.target) if o.target else base
        out.append(
            Mission(
                formation_id=fid,
                side_id=f.side_id,
                action=o.action,
                path=tuple(line(base, target)),
                nape_of_earth=NAPE_OF_EARTH in o.param("conditions").split(","),
                high_altitude=o.param("altitude") == "high",
                striking=strikes(o),
                under_fire=under_fire(o),
            )
        )
    return tuple(out)


def encounters(d: Day) -> list[tuple[Hex, tuple[str, ...]]]:
    """The encounters today's air missions start (rulings T-AM1, T-AM2).

    - Air-to-air, Combat Air Patrol (L204): an enemy mission whose line crosses the patrolled
      hex meets the patrol there, at any altitude.
    - Air-to-air, same hex: enemy missions with the same target hex meet there.
    - Air-to-ground (L203, L289): a Strike, or an overflight on an Attack Mission, whose target
      hex holds an enemy formation (not itself away on an air mission) fights it there; an
      overflight at altitude 8 or below over one comes under its fire (L290, ruling T-AM5).
    A mission met on its way still flies on to its target (the note says which battle is first).
    """
    flown = missions(d)
    away = {m.formation_id for m in flown}
    out: list[tuple[Hex, tuple[str, ...]]] = []
    for cap in flown:
        if cap.action != "combat_air_patrol":
            continue
        met = tuple(
            m.formation_id for m in flown if m.side_id != cap.side_id and cap.target in m.path
        )
        if met:
            out.append((cap.target, (cap.formation_id, *met)))
            for fid in met:
                d.engagement_notes.setdefault(label(cap.target), []).append(
                    f"Combat Air Patrol (line 204): {cap.formation_id} detects {fid} entering "
                    f"{label(cap.target)} and intercepts it"
                )
    by_target: dict[Hex, list[Mission]] = {}
    for m in flown:
        by_target.setdefault(m.target, []).append(m)
    for at, there in sorted(by_target.items()):
        if len({m.side_id for m in there}) > 1:
            out.append((at, tuple(m.formation_id for m in there)))
    for m in flown:
        if not (m.striking or m.under_fire):
            continue
        enemies = tuple(
            fid
            for fid, f in sorted(d.formations.items())
            if f.hex == label(m.target) and f.side_id != m.side_id and fid not in away
        )
        if not enemies and m.under_fire:
            continue  # nobody below to fire: the overflight only looks
        if not enemies:
            d.note(
                m.side_id,
                f"{m.formation_id}: {m.action} on {label(m.target)} found no enemy formation "
                "there (line 203)",
            )
            continue
        out.append((m.target, (m.formation_id, *enemies)))
        crossed = [cap for cap in flown if cap.side_id != m.side_id and cap.target in m.path]
        for cap in crossed:
            if cap.target != m.target:
                d.engagement_notes.setdefault(label(m.target), []).append(
                    f"{m.formation_id} met {cap.formation_id} on Combat Air Patrol over "
                    f"{label(cap.target)} on its way (line 204): fight that air battle first; "
                    "what survives flies on to this strike"
                )
    return out


def first_seen(
    d: Day,
    m: Mission,
    *,
    radar: frozenset[Hex],
    sat_regions: frozenset[str],
    dsa_regions: frozenset[str],
) -> tuple[Hex, str] | None:
    """Where along its path ``m`` is first seen, and by what (ruling T-AM4): RADAR (L268) in
    its air cover unless the mission flies at Nape of Earth (L203); a satellite feed (its Look
    Down Radar, L270) in the sectors it watches; a Deep Space Array (L269) when the mission
    flies on the high altitude map."""
    for h in m.path:
        if h in radar and not m.nape_of_earth:
            return h, "radar"
        region = d.hexmap.region_of(h)
        if region is None:
            continue
        if region.name in sat_regions:
            return h, "satellite"
        if m.high_altitude and region.name in dsa_regions:
            return h, "deep_space_array"
    return None
