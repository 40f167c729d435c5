"""Resolving a day (lines 167-173): weather, actions, player actions, responses, engagements.

1. Weather: the weekly change on days 8, 15, ... (day 1 keeps the starting roll).
2. Actions: free actions first (landing from orbit, hops, reaching orbit), then every
   formation's movement at once (encounters stop movement, hexmap ruling R6), shadowing,
   fatigue, aerospace fuel.
3. Player actions: looting, destruction, peacekeeping, recruiting, maintenance, surveillance;
   the technicians' booked hours, worked only for formations taking the repair action (L178,
   L198, ruling R-WHERE-6), the others re-booked from the next day.
4. Responses: a DropShip formation on Respond hops or lands after an enemy hop, landing or
   launch its sensors saw; fighters on Intercept at an airfield meet enemy aircraft and landings
   in their hex (rulings T-RS1, T-RS2), and fighters on Intercept or Combat Air Patrol fly out to
   those their side's RADAR detected (T-RS3). Either may start an engagement. Then the air missions:
   a Strike or Attack Mission on enemy formations, enemy missions meeting over one hex, a
   mission crossing an enemy Combat Air Patrol (rulings T-AM1, T-AM2).
5. Engagements: a scenario set-up for every encounter; a battle in a population centre raises
   mobs at the unrest levels that have them (ruling T-U5).
Then the day's upkeep (maintenance clock, rations, refuelling), location control, sightings,
strategic VP and the end of the day.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import Hex
from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.holding import WRECKED
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import air_missions, orbit_day, repair_days, weather
from mekref.rules.tripwire.turn.common import strategic_today
from mekref.rules.tripwire.turn.day import Day, prune
from mekref.rules.tripwire.turn.day_actions import formation_actions, player_actions, sabotage
from mekref.rules.tripwire.turn.day_responses import responses
from mekref.rules.tripwire.turn.day_sightings import engagements, sightings
from mekref.rules.tripwire.turn.day_upkeep import control, upkeep
from mekref.rules.tripwire.turn.events import (
    DayEnded,
    FormationsUpdated,
    StrategicVictoryScored,
    TransportCargoCaptured,
    WeatherRolled,
)
from mekref.rules.tripwire.turn.orders import ResolveTurn
from mekref.rules.tripwire.turn.victory import end_reason, strategic_vp


def _captured_cargo(d: Day) -> None:
    """Capturing a transport gives the captor its cargo (the issue, line 53)."""
    by_unit: dict[str, list[str]] = {}
    for pool_id, unit_id in sorted(d.s.transports.items()):
        by_unit.setdefault(unit_id, []).append(pool_id)
    for unit_id, pools in sorted(by_unit.items()):
        unit = d.state.units.get(unit_id)
        if unit is None:
            continue
        moved = tuple(
            p for p in pools if p in d.state.pools and d.state.pools[p].side_id != unit.side_id
        )
        if moved:
            d.events.append(
                TransportCargoCaptured(unit_id=unit_id, pools=moved, after=unit.side_id)
            )


def decide_resolve(
    state: CampaignState, cmd: ResolveTurn, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_today(state, cmd.day)
    missing = sorted({s.attacker, s.defender} - set(s.placed))
    if missing:
        raise Refusal("not_placed", f"day: {', '.join(missing)} must place formations first")
    d = Day(state, s, dice)
    _captured_cargo(d)
    _weather(d)
    encounters = formation_actions(d)
    orbit_day.orbital_actions(d)
    player_actions(d)
    # Booked repair work is done only by formations taking the repair action (R-WHERE-6).
    repair_days.work_the_day(d)
    encounters = _merge(encounters, responses(d))
    # Strikes, attack missions and air battles (rulings T-AM1, T-AM2): the hex a battle is
    # fought in holds one engagement, as for responses.
    encounters = _merge(encounters, air_missions.encounters(d))
    sabotage(d)
    upkeep(d)
    orbit_day.standby_fatigue(d)
    control(d)
    sightings(d)
    # Units the day's rolls truly destroyed leave their formations (L145-L146, R-VP-7); the
    # day's engagements were found with them and read the state's formations from now on.
    standing = prune(d.state, d.formations, (u for u, f in d.fates.items() if f in WRECKED))
    for side in sorted({f.side_id for f in s.formations.values()}):
        mine = tuple(f for _, f in sorted(standing.items()) if f.side_id == side)
        owned = {u for f in mine for u in f.unit_ids}
        fuel_changed = tuple(m for uid, m in sorted(d.mobility.items()) if uid in owned)
        d.events.append(
            FormationsUpdated(
                side_id=side,
                day=d.day,
                formations=mine,
                mobility=fuel_changed,
                notes=tuple(d.notes.get(side, ())),
            )
        )
    engagements(d, encounters)
    _victory(d)
    d.events.append(DayEnded(day=d.day))
    return d.events


def _weather(d: Day) -> None:
    if weather.weekly_change_due(d.day):
        early = d.s.forecast if d.s.forecast_day == d.day else None  # L385, T-W4
        regions, rolls, d.dice = weather.roll_change(d.s.weather, d.dice, early)
        d.events.append(
            WeatherRolled(day=d.day, regions=regions, weekly_change=True, rolls=tuple(rolls))
        )
    else:
        regions = tuple(w for _, w in sorted(d.s.weather.items()))
        d.events.append(WeatherRolled(day=d.day, regions=regions, weekly_change=False))


def _merge(
    encounters: list[tuple[Hex, tuple[str, ...]]], extra: list[tuple[Hex, tuple[str, ...]]]
) -> list[tuple[Hex, tuple[str, ...]]]:
    """Responses join the encounter already in their hex, or start one there."""
    out = list(encounters)
    for at, names in extra:
        for i, (h, old) in enumerate(out):
            if h == at:
                out[i] = (h, tuple(dict.fromkeys((*old, *names))))
                break
        else:
            out.append((at, tuple(dict.fromkeys(names))))
    return out


def _victory(d: Day) -> None:
    s = replace(d.s, destroyed={k: tuple(sorted(v)) for k, v in d.destroyed.items()})
    vp = strategic_vp(d.state, s, d.hexmap, d.formations, d.control)
    ended = end_reason(d.state, s, vp)
    if vp != d.s.vp or ended:
        d.events.append(
            StrategicVictoryScored(day=d.day, vp=tuple(sorted(vp.items())), ended=ended)
        )
