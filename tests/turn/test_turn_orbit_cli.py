"""Satellites, Anti-Satellite Operations, Reposition Orbit, Hold the Line and a DropShip's hot
standby through the installed ``mekref`` console script (a fresh process each call).

L209: "An AeroSpace Fighter or DropShip may move and destroy an enemy satellite on the high
altitude map."
L210: "A Satellite is Geostationary Orbit may move its position by 1 planetary region per day."
L270: "If any of the Satellites are destroyed then that region is not monitored."
L319: "Units that have chosen the Hold the Line combat order deploy at turn 0 anywhere up to
half way across the closest mapsheets (no more than 8 hexes from their deployment edge)."
L408: "Each day on hot standby adds a point of fatigue to the DropShip."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, ok

from mekref.daemon.samples.ginestra import FOLDER

UNION = (
    '\t\t<entity chassis="Union" model="(2708)" type="Dropship">\n'
    '\t\t\t<pilot name="Kpt. Rolf Hagen" nick="" gunnery="4" piloting="4" ejected="false"/>\n'
    "\t\t</entity>\n\n</unit>"
)
DS_FORMATION = """
[[formation]]
side = "rebel"
id = "ds"
name = "Union"
hex = ""
units = ["Union (2708)"]
"""


def _campaign(tmp_path: Path) -> str:
    """Ginestra at Day Zero with a rebel Union DropShip at the pirate point."""
    rebel = (FOLDER / "rebel.mul").read_text(encoding="utf-8").replace("</unit>", UNION)
    (tmp_path / "rebel.mul").write_text(rebel, encoding="utf-8")
    setup = (FOLDER / "strategic.toml").read_text(encoding="utf-8") + DS_FORMATION
    (tmp_path / "strategic.toml").write_text(setup, encoding="utf-8")
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side, mul in (("loyalist", FOLDER / "loyalist.mul"), ("rebel", tmp_path / "rebel.mul")):
        ok("force", "import", "--db", db, "--side", side, str(mul), "--units-dir", str(UNITS),
           "--unchecked", "--referee", "Ref", "--reason", "x")  # fmt: skip
    ok("turn", "setup", "--db", db, "--file", str(tmp_path / "strategic.toml"))
    return db


def test_satellites_anti_satellite_and_reposition_orbit_from_the_console(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    said = ok("satellite", "place", "--db", db, "--id", "sat-1", "--owner", "loyalist",
              "--orbit", "geostationary", "--hex", "0508", "--referee", "Ref",
              "--reason", "the planet's network")  # fmt: skip
    assert "sat-1 (loyalist) in geostationary orbit over 0508" in said
    # L210: one planetary region a day: Castell'Arquato to the Eastern Highlands is too far.
    far = mekref("satellite", "move", "--db", db, "--side", "loyalist", "--day", "1",
                 "--id", "sat-1", "--hex", "1712")  # fmt: skip
    assert far.returncode == 3 and "1 planetary region per day" in far.stderr
    ok("satellite", "move", "--db", db, "--side", "loyalist", "--day", "1",
       "--id", "sat-1", "--hex", "0905")  # fmt: skip
    # L209: only from orbit; 'Mechs cannot; the Union in orbit can.
    refused = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                     "--order", "l-air:anti_satellite::sat-1")  # fmt: skip
    assert refused.returncode == 3 and "not in orbit" in refused.stderr
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "ds:anti_satellite::sat-1",
       "--order", "bravo:orbital_insertion::1612")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    listed = json.loads(ok("satellite", "list", "--db", db, "--json"))
    assert listed == [{"id": "sat-1", "owner": "loyalist", "orbit": "geostationary",
                       "hex": "0905", "destroyed_day": 1, "monitoring": False}]  # fmt: skip
    assert "destroyed on day 1" in ok("satellite", "list", "--db", db)
    # L210: Reposition Orbit wants the orbit named; then the Union stands over 1105.
    no_orbit = mekref("orders", "submit", "--db", db, "--side", "rebel", "--day", "2",
                      "--order", "ds:reposition_orbit::1105")  # fmt: skip
    assert no_orbit.returncode == 3 and "name the orbit" in no_orbit.stderr
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "2",
       "--order", "ds:reposition_orbit::1105", "--param", "ds:orbit=geostationary")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "2")
    forms = json.loads(ok("formation", "list", "--db", db, "--side", "rebel", "--json"))
    (ds,) = [f for f in forms["formations"] if f["formation"] == "ds"]
    assert (ds["hex"], ds["orbit"]) == ("", "geostationary:1105")
    assert "ds (Union) in geostationary orbit over 1105" in ok(
        "formation", "list", "--db", db, "--side", "rebel"
    )


def test_hold_the_line_reaches_the_scenario_export(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    air = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", "l-air:overflight::0609",
                 "--param", "l-air:objective=hold_the_line")  # fmt: skip
    assert air.returncode == 3 and "L319" in air.stderr
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard", "--param", "alpha:objective=hold_the_line")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out))
    (mms,) = out.glob("*.mms")
    text = mms.read_text(encoding="utf-8")
    # Deployed at round 0: no DeploymentRound for a loyalist unit; the 8 hexes for the host.
    assert "holds the line (line 319)" in text and "no more than 8 hexes from its N edge" in text
    (sheet,) = out.glob("*-loyalist.md")
    assert "no more than 8 hexes from their deployment edge" in sheet.read_text(encoding="utf-8")


def test_hot_standby_fatigue_in_the_report(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "ds:orbital_insertion::1612")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    union = next(
        d["id"] for d in json.loads(ok("dropship", "list", "--db", db, "--side", "rebel", "--json"))
    )
    mech = mekref("dropship", "readiness", "--db", db, "--side", "rebel", "--day", "2",
                  "--unit", "nobody", "--mode", "hot_standby")  # fmt: skip
    assert mech.returncode == 3 and "is not a DropShip of 'rebel'" in mech.stderr
    said = ok("dropship", "readiness", "--db", db, "--side", "rebel", "--day", "2",
              "--unit", union, "--mode", "hot_standby")  # fmt: skip
    assert "hot_standby for week 1" in said
    again = mekref("dropship", "readiness", "--db", db, "--side", "rebel", "--day", "2",
                   "--unit", union, "--mode", "power_down")  # fmt: skip
    assert again.returncode == 3 and "L408" in again.stderr
    for day in (2, 3):
        ok("orders", "submit", "--db", db, "--side", "rebel", "--day", str(day),
           "--order", "ds:guard")  # fmt: skip
        ok("turn", "resolve", "--db", db, "--day", str(day))
    report = json.loads(ok("report", "--db", db, "--side", "rebel", "--json"))
    (ship,) = report["dropships"]
    assert (ship["readiness"], ship["fatigue"], ship["landed"]) == ("hot_standby", 2, True)
    text = ok("report", "--db", db, "--side", "rebel")
    assert "hot_standby; fatigue 2" in text
