"""The satellites' weather forecast through the installed ``mekref`` console script (ruling
T-W4 in docs/turn.md).

L385: "Players with access to Satellites can see the results of a roll 1 week in advance of the
weather change."
L270: "Each turn a force at the location of a SatLink (or a unit with 4+ tons of communication
equipment) rolls 2d6, on a 9+ they are able to access the Satellite."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_a_forecast_seen_on_day_1_is_the_weather_of_day_8(tmp_path: Path) -> None:
    """Seed 2: the loyalists' SatLink (Bagnorgeio) rolls 11 and sees day 8's change; the rebels'
    (Forward Deployment Base) rolls 6 and sees nothing, and may not try again that day. Day 8
    brings the weather the loyalists were shown."""
    db = day_zero(tmp_path, seed="2")
    seen = ok("satellite", "forecast", "--db", db, "--side", "loyalist", "--day", "1")
    assert "satellite access from the SatLink at Bagnorgeio: 11" in seen
    assert "the weekly change of day 8 (L385):" in seen
    foreseen = [line.strip() for line in seen.splitlines() if ": roll " in line]
    assert len(foreseen) == 4
    missed = ok("satellite", "forecast", "--db", db, "--side", "rebel", "--day", "1")
    assert "out of reach today: no forecast (L270)" in missed
    again = mekref("satellite", "forecast", "--db", db, "--side", "rebel", "--day", "1")
    assert again.returncode == 3 and "rebel has tried the satellites today" in again.stderr
    for day in range(1, 8):
        ok("turn", "resolve", "--db", db, "--day", str(day))
    done = mekref("turn", "resolve", "--db", db, "--day", "8", "--json")
    assert done.returncode == 0, done.stderr
    (rolled,) = [
        e["event"]
        for c in json.loads(done.stdout)["campaigns"]
        for e in c["events"]
        if e["event"]["type"] == "WeatherRolled"
    ]
    assert rolled["weekly_change"]
    assert not [r for r in rolled.get("rolls", ()) if r["name"].startswith("weather change")]
    # Each region has the row the forecast named (the words of the day go to stderr).
    for line in foreseen:
        region, rest = line.split(": roll ")
        assert f"  {region}: {rest.split(', then ')[1]}" in done.stderr
