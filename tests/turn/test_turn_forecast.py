"""The satellites' weather forecast (ruling T-W4 in docs/turn.md).

L385: "Each week, roll 2d6 and adjust the conditions my moving up and down the table. Players
with access to Satellites can see the results of a roll 1 week in advance of the weather
change."
L270: "Satellites can be accessed by any location or unit with the SatLink trait. ... Each turn
a force at the location of a SatLink (or a unit with 4+ tons of communication equipment) rolls
2d6, on a 9+ they are able to access the Satellite."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import REFEREE, placed, run, started

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.forecast import ForecastWeather, next_change_day
from mekref.rules.tripwire.turn.orbit_events import WeatherForecastSeen
from mekref.rules.tripwire.turn.orders import ResolveTurn
from mekref.rules.tripwire.turn.setup import FormationSpec

ASK = ForecastWeather(actor="loyalist", side_id="loyalist", day=1)
ALPHA = FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0508")
BRAVO = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",), hex="")


def _world(control: tuple[tuple[str, str], ...] = ()) -> CampaignState:
    return placed(started(control=control), (ALPHA,), (BRAVO,))


def _asked(reached: bool) -> tuple[CampaignState, WeatherForecastSeen]:
    """The loyalists (the SatLink of Bagnorgeio) ask on day 1, under the first seed whose
    access roll reaches the satellites (or fails to, as ``reached`` says)."""
    base = _world()
    for n in range(60):
        state, events = run(replace(base, seed=f"forecast-{n}"), ASK)
        (seen,) = [e for e in events if isinstance(e, WeatherForecastSeen)]
        if seen.reached == reached:
            return state, seen
    raise AssertionError("no seed gave that access roll")


def _resolve_to(state: CampaignState, last: int) -> tuple[CampaignState, list[Event]]:
    events: list[Event] = []
    assert state.strategic is not None
    for day in range(state.strategic.day, last + 1):
        state, new = run(state, ResolveTurn(actor=REFEREE, day=day))
        events += new
    return state, events


def test_t_w4_the_next_change_is_the_first_change_day_from_today() -> None:
    """L385 "1 week in advance": days 1-8 see day 8's change, days 9-15 day 15's (T-W3)."""
    assert [next_change_day(d) for d in (1, 7, 8, 9, 15)] == [8, 8, 8, 15, 15]


def test_l385_a_side_with_access_sees_the_roll_that_the_change_then_uses() -> None:
    """L385: the forecast is "the results of a roll": the change of day 8 is rolled when the
    loyalists reach their satellites on day 1 (9+, L270), and day 8 applies those rolls."""
    state, seen = _asked(reached=True)
    assert seen.rolls[0].total >= 9 and seen.uplink == "the SatLink at Bagnorgeio"
    assert seen.change_day == 8
    assert [r.name for r in seen.rolls[1:]] == [f"weather change, {n}" for n, _ in seen.totals]
    assert state.strategic is not None and state.strategic.forecast == dict(seen.totals)
    state, events = _resolve_to(state, 8)
    (change,) = [e for e in events if isinstance(e, ev.WeatherRolled) and e.weekly_change]
    assert not [r for r in change.rolls if r.name.startswith("weather change")]
    assert [(w.region, w.level) for w in change.regions] == [
        (w.region, w.level) for w in seen.regions
    ]
    assert state.strategic is not None and state.strategic.forecast == {}


def test_l270_a_failed_access_roll_sees_nothing_and_waits_for_the_next_day() -> None:
    """L270 "Each turn ... on a 9+": below 9 nothing is rolled for the weather; a second try
    the same day is refused, the next day may try again."""
    state, seen = _asked(reached=False)
    assert seen.rolls[0].total < 9 and not seen.regions and len(seen.rolls) == 1
    assert state.strategic is not None and state.strategic.forecast == {}
    with pytest.raises(Refusal, match="tried the satellites today"):
        run(state, ASK)
    state, _ = _resolve_to(state, 1)
    run(state, replace(ASK, day=2))


def test_l270_no_satlink_and_no_communications_gear_no_forecast() -> None:
    """L270 "accessed by any location or unit with the SatLink trait": the rebels of this
    world hold the Forward Deployment Base (a SatLink); without it they cannot ask."""
    state = _world(control=(("Bagnorgeio", "loyalist"),))
    with pytest.raises(Refusal, match="holds no SatLink"):
        run(state, ForecastWeather(actor="rebel", side_id="rebel", day=1))


def test_without_a_forecast_the_weekly_change_is_rolled_on_its_day() -> None:
    """T-W3 unchanged: nobody asked, day 8 rolls the change itself."""
    _, events = _resolve_to(_world(), 8)
    (change,) = [e for e in events if isinstance(e, ev.WeatherRolled) and e.weekly_change]
    assert [r.name for r in change.rolls if r.name.startswith("weather change")]
