"""An air strike through the installed console script: orders, resolution, scenario export.

L203: "Strike (AeroSpace units only) – The AeroSpace unit travels to a specific hex/location and
initiates a battle vs either ground units or enemy AeroSpace fighters." (ruling T-AM1)

The Ginestra sample, day 1: the rebels' Bravo lands in 0812, two hexes from the Space Port, and
the loyalists' Rapier Flight strikes it there the same day.
"""

from __future__ import annotations

import json
from pathlib import Path

from ginestra_cli import UNITS, day_zero, ok

ENGAGEMENT = "day1-0812-1"


def test_a_strike_makes_an_engagement_the_export_writes(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::0812")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "l-air:strike::0812")  # fmt: skip
    said = ok("turn", "resolve", "--db", db, "--day", "1")
    assert f"engagement {ENGAGEMENT}" in said
    out = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out),
       "--units-dir", str(UNITS))  # fmt: skip
    sheet = (out / f"{ENGAGEMENT}-loyalist.md").read_text()
    assert "**Kind:** air-to-ground strike" in sheet
    assert "Attack mission" in sheet  # the strike's objective (L289)
    assert "Rapier" in (out / f"{ENGAGEMENT}-loyalist.mul").read_text()
    mms = (out / f"{ENGAGEMENT}.mms").read_text()
    assert "air-to-ground strike" in mms
    assert "Rapier" in mms and "Marauder" in mms  # both sides, for the host


def test_an_air_mission_is_seen_along_its_path(tmp_path: Path) -> None:
    """Ruling T-AM4, L269: a Deep Space Array detects "Any AeroSpace unit ... on the High
    Atmosphere Sheet row 1-4". The Rapier flies high from the Space Port (0610) to 1310 and is
    home again by nightfall; the rebels' Forward Deployment Base array sees it on the way, over
    0810, although nothing of theirs stands near the Space Port (Bravo lands in 0310)."""
    db = day_zero(tmp_path, seed="2")
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::0310")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "l-air:overflight::1310",
       "--param", "l-air:altitude=high", "--param", "l-air:row=1")  # fmt: skip
    said = ok("turn", "resolve", "--db", db, "--day", "1")
    assert "loyalist l-air: 0610" in said  # where it ends the day
    assert "deep_space_array detected enemy l-air (overflight) over 0810" in said
    report = json.loads(ok("report", "--db", db, "--json"))
    assert report["strategic"]["sightings"]["rebel"] == 1
