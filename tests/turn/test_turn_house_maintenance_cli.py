"""The house rules' maintenance check in a TripWire campaign, through the installed console script:
``campaign new --house-rules`` -> force import -> turn setup -> day 1 (alpha conducts
maintenance; the rebels land on it) -> ``turn maintenance-check`` -> ``mekref report`` shows the
grade and the damage -> ``engagement export`` carries the damage. Rulings HOUSE-40 to HOUSE-43.

House rules L94: "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects
on the Maintenance Check Table."
TripWire L199: "Maintenance – One day in every 7 days of operation standard maintenance must be
conducted (6 hours per unit). If this is not done, roll for location (using front) ..."

Hand-read from the campaign's dice (seed "2"; the faces are the report's dice table): the
Griffin's check "maintenance check 1, UNIT" rolls 1+5 = 6 against the referee's 14 less 3 = 11:
margin -5. Grade C (maintenance_check.toml): reduce_at -5, so C becomes B (worse); damage band
-6..-4 is 1 point; the good effect would have needed +5, +1 by L94 = +6. The front location roll
4+5 = 9 is the Left Leg: 1 armour lost (18 -> 17), priced 1 SP, and written by the export.
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.exit_codes import REFUSED

GRIFFIN = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")


def test_a_maintained_unit_checks_and_the_damage_reaches_report_and_export(
    tmp_path: Path,
) -> None:
    db = day_zero(tmp_path, seed="2", house_rules=True)
    units = json.loads(ok("report", "--db", db, "--json"))["units"]
    griffin = next(u["id"] for u in units if u["chassis"] == "Griffin")
    atlas = next(u["id"] for u in units if u["chassis"] == "Atlas")
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:maintenance")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    resolved = " ".join(ok("turn", "resolve", "--db", db, "--day", "1").split())
    assert "alpha: maintenance conducted; with the house rules each of its units takes" in resolved

    check = ("turn", "maintenance-check", "--db", db, "--target", "14")
    idle = mekref(*check, "--unit", atlas, "--quality", "C")
    assert idle.returncode == REFUSED and "not_maintained" in idle.stderr and "L199" in idle.stderr
    first = mekref(*check, "--unit", griffin)
    assert first.returncode == REFUSED and "no_quality" in first.stderr
    assert "--quality" in first.stderr

    out = " ".join(ok(*check, "--unit", griffin, "--quality", "C").split())
    assert out == (
        f"maintenance check of {griffin}: 2d6 6 vs TN 11 (base 14, -3 by L94): margin -5; "
        "good effect needs margin +6 (table +5, +1 by L94); quality C -> B (worse); 1 damage "
        "point(s) (maintenance of alpha on day 1) Left Leg -1 armour, -0 structure now damaged"
    )
    again = mekref(*check, "--unit", griffin)
    assert again.returncode == REFUSED and "already_checked" in again.stderr

    report = json.loads(ok("report", "--db", db, "--json"))
    assert report["house_quality"] == [{"unit": griffin, "grade": "B", "checks": 1, "last_day": 1}]
    unit = next(u for u in report["units"] if u["id"] == griffin)
    assert unit["fate"] == "damaged"
    assert unit["damage"]["locations"] == [
        {"name": "Left Leg", "armor": 17, "armor_max": 18, "internal": 13, "internal_max": 13}
    ]
    assert unit["repair"]["armor_sp"] == 1
    assert [h["what"] for h in report["house_rules_log"]] == [
        "maintenance check",
        "maintenance check damage",
    ]
    dice = [(d["name"], d["faces"]) for d in report["dice"] if "maintenance check" in d["name"]]
    assert dice == [
        (f"maintenance check 1, {griffin}", [1, 5]),
        (f"maintenance check location (front), {griffin}", [4, 5]),
    ]
    text = " ".join(ok("report", "--db", db).split())
    assert "'mekref turn maintenance-check', line 94" in text
    assert f"maintenance quality of {griffin[:8]}: B (1 check(s)" in text

    out_dir = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out_dir))
    mul = read_mul_bytes((out_dir / "day1-1105-1-loyalist.mul").read_bytes())
    (entity,) = [e for e in mul.entities if e.external_id == griffin]
    condition = merge_condition(entity, GRIFFIN)
    assert {loc.name: loc.armor_lost for loc in condition.locations if loc.armor_lost} == {
        "Left Leg": 1
    }
