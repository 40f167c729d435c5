"""The day's upkeep (maintenance clock, rations, refuelling) and location control."""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import label
from mekref.rules.dice import Roll
from mekref.rules.tripwire.turn import day_damage, unrest
from mekref.rules.tripwire.turn.common import AEROSPACE
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.day import Day, location_of
from mekref.rules.tripwire.turn.events import LocationControlChanged, MaintenanceMissed
from mekref.rules.tripwire.turn.state import IN_ORBIT
from mekref.rules.tripwire.turn.victory import garrisoning
from mekref.rules.tripwire.whereabouts import pool_location


def upkeep(d: Day) -> None:
    rules = single("upkeep", "maintenance")
    rations = single("upkeep", "rations")
    for fid, f in sorted(d.formations.items()):
        loc = location_of(d, f)
        held = loc is not None and d.control.get(loc.name) == f.side_id
        # Maintenance: one day in every 7 (line 199).
        days = 0 if fid in d.maintained else f.days_since_maintenance + 1
        if days >= int(rules["every_days"]):
            units = tuple(u for u in f.unit_ids if not d.s.mobility[u].rugged)
            rolls: list[Roll] = []
            rolled: list[tuple[str, Roll, tuple[Roll, ...]]] = []
            for uid in units:
                where = d.roll(f"maintenance location (front), {uid}", 2)
                criticals = [d.roll(f"maintenance critical, {uid}", 2)]
                if where.total == 2:  # a floating critical: a second critical roll (line 199)
                    criticals.append(d.roll(f"maintenance critical 2, {uid}", 2))
                rolls += [where, *criticals]
                rolled.append((uid, where, tuple(criticals)))
            d.events.append(
                MaintenanceMissed(
                    side_id=f.side_id,
                    day=d.day,
                    formation_id=fid,
                    unit_ids=units,
                    exempt=tuple(u for u in f.unit_ids if u not in units),
                    rolls=tuple(rolls),
                )
            )
            # T-DM1: each unit's rolls laid on its stored condition (slot rolls after these).
            for uid, located, crits in rolled:
                day_damage.maintenance(d, uid, located, crits)
            days = 0
        # Rations: 7 days carried; a supply dump restocks; a baggage train feeds the crews.
        crew = sum(d.s.mobility[u].crew_slots for u in f.unit_ids)
        baggage, on_rations, fatigue = f.baggage_person_days, f.days_on_rations, f.fatigue
        if held and loc is not None and "supply_dump" in loc.facilities:
            on_rations = 0
        elif baggage >= crew:
            baggage -= crew
        else:
            on_rations += 1
            week = int(rations["days"])
            if on_rations > week and (on_rations - week) % week == 0:
                fatigue += int(rations["fatigue_per_week"])
                d.note(
                    f.side_id,
                    f"{fid}: a week beyond its rations: +1 fatigue and a consciousness "
                    "check per person (line 355)",
                )
                day_damage.consciousness(d, f, fatigue)
        d.formations[fid] = replace(
            f,
            days_since_maintenance=days,
            baggage_person_days=baggage,
            days_on_rations=on_rations,
            fatigue=fatigue,
        )
        if held and loc is not None and "fuel_dump" in loc.facilities:
            for uid in f.unit_ids:
                unit = d.mobility.get(uid, d.s.mobility[uid])
                if unit.mode == AEROSPACE and unit.fuel < unit.max_fuel:
                    d.mobility[uid] = replace(unit, fuel=unit.max_fuel)


def control(d: Day) -> None:
    seat = str(single("strategic_victory", "seat_of_power")["location"])
    by_hex: dict[str, set[str]] = {}
    for f in d.formations.values():
        # A formation of wrecks neither takes nor contests a location (R-VP-4).
        if f.hex != IN_ORBIT and garrisoning(d.state, (f,)):
            by_hex.setdefault(f.hex, set()).add(f.side_id)
    for loc in sorted(d.hexmap.locations, key=lambda loc: loc.name):
        sides = by_hex.get(label(loc.hex), set())
        if len(sides) != 1:
            continue  # empty keeps its holder; contested changes hands only after the battle
        (side,) = sides
        before = d.control.get(loc.name)
        if before == side:
            continue
        pools = tuple(
            p.pool_id for _, p in sorted(d.state.pools.items()) if pool_location(p) == loc.name
        )
        d.control[loc.name] = side
        d.events.append(
            LocationControlChanged(location=loc.name, before=before, after=side, pools=pools)
        )
        if loc.name == seat:
            d.change_unrest(
                side,
                unrest.delta("government_building"),
                f"control of the government building in {seat} (line 404)",
            )
