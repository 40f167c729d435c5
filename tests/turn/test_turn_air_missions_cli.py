"""An air strike through the installed console script: orders, resolution, scenario export.

L203: "Strike (AeroSpace units only) – The AeroSpace unit travels to a specific hex/location and
initiates a battle vs either ground units or enemy AeroSpace fighters." (ruling T-AM1)

The Ginestra sample, day 1: the rebels' Bravo lands in 0812, two hexes from the Space Port, and
the loyalists' Rapier Flight strikes it there the same day.
"""

from __future__ import annotations

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
