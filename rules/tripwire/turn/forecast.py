"""The satellites' weather forecast (L385, ruling T-W4).

L385: "Players with access to Satellites can see the results of a roll 1 week in advance of the
weather change." ``ForecastWeather`` is a side's request, between days: with access to the
satellites (L270: a SatLink it holds or a unit with 4+ tons of communications equipment on the
planet, a satellite still working or none placed, and 2d6 at the access target, one try a day)
the next weekly change is rolled now, per region, and kept; the side learns each region's roll
and the weather row it will bring. When the change day is resolved those rolls are used and not
rolled again (:func:`.weather.roll_change`). Without the request nothing changes: the weekly
change is rolled on its day as before.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Command, Event, command_type
from mekref.rules.record_type import record
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import weather
from mekref.rules.tripwire.turn.common import known_side, strategic_of, strategic_today
from mekref.rules.tripwire.turn.comms_gear import uplink_units
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.orbit_events import WeatherForecastSeen
from mekref.rules.tripwire.turn.state import IN_ORBIT, RegionWeather, StrategicState

L385 = (
    'L385: "Players with access to Satellites can see the results of a roll 1 week in advance '
    'of the weather change"'
)
L270 = (
    'L270: "Satellites can be accessed by any location or unit with the SatLink trait ... '
    'rolls 2d6, on a 9+ they are able to access the Satellite"'
)


@command_type("ForecastWeather")
@record
class ForecastWeather(Command):
    """A side asks its satellites for the next weekly weather change (L385, ruling T-W4)."""

    side_id: str
    day: int


def next_change_day(day: int) -> int:
    """The first day, from ``day`` (the day whose orders are being written) on, whose
    resolution rolls the weekly change (days 8, 15, 22, ..., ruling T-W3)."""
    ahead = int(single("weather", "forecast")["days_ahead"])
    for d in range(max(day, 2), day + ahead + 1):
        if weather.weekly_change_due(d):
            return d
    raise AssertionError(f"no weekly change within {ahead} days of day {day}")


def uplink(state: CampaignState, s: StrategicState, side: str) -> str:
    """Where ``side`` reaches the satellites from (a SatLink it holds, else a formation's
    communications equipment, T-OR8), or "" when it cannot."""
    hm = hexmap_of(s)
    for name, holder in sorted(s.control.items()):
        if holder == side and "satlink" in hm.location(name).facilities:
            return f"the SatLink at {name}"
    for fid, f in sorted(s.formations.items()):
        if f.side_id == side and f.hex != IN_ORBIT and uplink_units(state, f.unit_ids):
            return f"the communications equipment of {fid}"
    return ""


def _decide(state: CampaignState, cmd: ForecastWeather, dice: Dice, rules: TripWire) -> list[Event]:
    s = strategic_today(state, cmd.day)
    known_side(state, cmd.side_id, "side_id")
    if s.forecast_tries.get(cmd.side_id) == s.day:
        raise Refusal(
            "tried_today", f"day: {cmd.side_id} has tried the satellites today ({L270}: each turn)"
        )
    where = uplink(state, s, cmd.side_id)
    if not where:
        raise Refusal(
            "no_access",
            f"side_id: {cmd.side_id} holds no SatLink and has no unit with 4+ tons of "
            f"communications equipment on the planet ({L270})",
        )
    if s.satellites and all(sat.destroyed_day for sat in s.satellites.values()):
        raise Refusal("no_access", f"side_id: every satellite is destroyed ({L385})")
    access, dice = dice.roll(f"satellite access (forecast), {cmd.side_id}", 2)
    change = next_change_day(s.day)
    reached = access.total >= int(single("surveillance", "satellite_access")["target"])
    early: list[Roll] = []
    totals = dict(s.forecast) if s.forecast_day == change else {}
    if reached and not totals:
        for name in sorted(s.weather):
            roll, dice = dice.roll(f"weather change, {name}", 2)
            early.append(roll)
            totals[name] = roll.total
    foreseen = tuple(
        RegionWeather(region=n, level=weather.shifted_level(w.level, totals[n]))
        for n, w in sorted(s.weather.items())
        if reached and n in totals
    )
    return [
        WeatherForecastSeen(
            side_id=cmd.side_id,
            day=s.day,
            change_day=change,
            uplink=where,
            reached=reached,
            totals=tuple(sorted(totals.items())) if reached else (),
            regions=foreseen,
            actor=cmd.actor,
            rolls=(access, *early),
        )
    ]


def _seen(state: CampaignState, e: WeatherForecastSeen) -> CampaignState:
    s = strategic_of(state)
    tries = {**s.forecast_tries, e.side_id: e.day}
    s = replace(s, forecast_tries=dict(sorted(tries.items())))
    if e.reached and e.change_day != s.forecast_day:
        s = replace(s, forecast=dict(e.totals), forecast_day=e.change_day)
    return copy_with(state, strategic=s)


SIDE_COMMANDS = (ForecastWeather,)
DECIDERS: dict[type[Command], Decider] = {ForecastWeather: _decide}
EVOLVERS: dict[type[Event], Evolver] = {WeatherForecastSeen: _seen}
