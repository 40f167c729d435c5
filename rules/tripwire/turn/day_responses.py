"""Step 4 of the day: responses. A DropShip formation on Respond hops or lands after an enemy
move its sensors saw; fighters on Intercept meet enemy aircraft (rulings T-RS1, T-RS2); fighters
on Intercept or Combat Air Patrol fly out to what their side's RADAR detected (T-RS3).
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import Hex, label, line
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn import air_missions, landing, radar_wake
from mekref.rules.tripwire.turn.common import AIRFIELD
from mekref.rules.tripwire.turn.day import Day, location_of
from mekref.rules.tripwire.turn.events import ResponseMade
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.orders import LANDING
from mekref.rules.tripwire.turn.state import IN_ORBIT, FormationOrder


def responses(d: Day) -> list[tuple[Hex, tuple[str, ...]]]:
    """Respond, then Intercept (lines 212-213); the encounters they start."""
    extra: list[tuple[Hex, tuple[str, ...]]] = []
    for fid, o in sorted(d.orders.items()):
        if o.action == "respond":
            _respond(d, fid, o, extra)
    for fid, o in sorted(d.orders.items()):
        if o.action == "intercept":
            _intercept(d, fid, extra)
    for fid, o in sorted(d.orders.items()):
        if o.action == "combat_air_patrol" and d.formations[fid].hex != IN_ORBIT:
            _patrol(d, fid, o, extra)
    return extra


def _respond(d: Day, fid: str, o: FormationOrder, extra: list[tuple[Hex, tuple[str, ...]]]) -> None:
    f = d.formations[fid]
    side = f.side_id
    seen: list[tuple[str, str, str, tuple[str, ...]]] = []  # enemy, its action, hex, sensors
    for efid, eo in sorted(d.orders.items()):
        ef = d.formations.get(efid)
        if ef is None or ef.side_id == side:
            continue
        if eo.action in LANDING and eo.target:
            at = label(hex_at(eo.target))
        elif eo.action == "achieve_orbit" and d.s.formations[efid].hex != IN_ORBIT:
            at = d.s.formations[efid].hex  # where it took off
        else:
            continue
        how = radar_wake.detectors(d, side, hex_at(at))
        if how:
            seen.append((efid, eo.action, at, how))
    landings = [x for x in seen if x[1] in LANDING]
    dest = label(hex_at(o.target)) if o.target else (landings[0][2] if landings else None)
    if not seen or dest is None:
        why = "no enemy hop, landing or launch was detected" if not seen else "name a hex"
        d.note(side, f"{fid}: respond stands ready; {why} (line 213)")
        return
    try:  # L409-L410: it lands only where its DropShips may (T-LZ4)
        now = replace(d.s, destroyed={k: tuple(sorted(v)) for k, v in d.destroyed.items()})
        rolls = landing.check(d.state, now, f, dest, fid)
    except Refusal as refusal:
        d.note(side, f"{fid}: respond stands ready; it cannot land in {dest}: {refusal.message}")
        return
    for text in rolls:
        d.note(side, f"{fid}: {text}")
    action = "orbital_insertion" if f.hex == IN_ORBIT else "suborbital_hop"
    d.events.append(
        ResponseMade(
            side_id=side,
            day=d.day,
            formation_id=fid,
            action="respond",
            before=f.hex,
            hex=dest,
            against=tuple(x[0] for x in seen),
            detected_by=tuple(sorted({h for x in seen for h in x[3]})),
        )
    )
    d.formations[fid] = replace(f, hex=dest)
    # It lands like any hop or insertion: in motion (T-E2), seen landing by enemy arrays.
    d.orders[fid] = replace(o, action=action, target=dest, path=())
    enemies = tuple(
        e.formation_id
        for _, e in sorted(d.formations.items())
        if e.hex == dest and e.side_id != side
    )
    if enemies:
        extra.append((hex_at(dest), (fid, *enemies)))


def _intercept(d: Day, fid: str, extra: list[tuple[Hex, tuple[str, ...]]]) -> None:
    f = d.formations[fid]
    side = f.side_id
    loc = location_of(d, f)
    if loc is None or not AIRFIELD & set(loc.facilities):
        d.note(side, f"{fid}: intercept needs an airfield (line 212)")
        return
    here = hex_at(f.hex)
    against = []
    for efid, eo in sorted(d.orders.items()):
        ef = d.formations.get(efid)
        if ef is None or ef.side_id == side or not eo.target:
            continue
        if eo.action in LANDING and hex_at(eo.target) == here:
            against.append(efid)
        elif eo.action in ("overflight", "strike") and ef.hex != IN_ORBIT:
            start = hex_at(d.s.formations[efid].hex)
            if start != here and here in tuple(line(start, hex_at(eo.target))):
                against.append(efid)
    if not against:
        # Nothing entered the airfield's hex: what the side's RADAR detected may wake the
        # fighters (L268, ruling T-RS3).
        woken = radar_wake.wake(d, fid, here, frozenset())
        if woken is None:
            d.note(
                side,
                f"{fid}: intercept stands ready; nothing airborne entered {f.hex} and nothing "
                "detected in the air was within reach (lines 212, 268)",
            )
        else:
            extra.append(woken)
        return
    d.events.append(
        ResponseMade(
            side_id=side,
            day=d.day,
            formation_id=fid,
            action="intercept",
            before=f.hex,
            hex=f.hex,
            against=tuple(against),
            detected_by=("presence",),
        )
    )
    names = ", ".join(against)
    d.engagement_notes.setdefault(f.hex, []).append(
        f"Interception (line 212): {fid} meets {names} before it is close enough to attack "
        f"{loc.name} or the units in {f.hex}: fight the air battle first"
    )
    extra.append((here, (fid, *against)))


def _patrol(d: Day, fid: str, o: FormationOrder, extra: list[tuple[Hex, tuple[str, ...]]]) -> None:
    """A Combat Air Patrol woken by the side's RADAR (L268, ruling T-RS3): the enemy missions
    crossing its hex it meets there anyway (L204, ruling T-AM2); another detected enemy it flies
    out to from the hex it patrols."""
    f = d.formations[fid]
    patrolled = hex_at(o.target) if o.target else hex_at(f.hex)
    crossing = frozenset(m.formation_id for m in air_missions.missions(d) if patrolled in m.path)
    woken = radar_wake.wake(d, fid, patrolled, crossing)
    if woken is not None:
        extra.append(woken)
