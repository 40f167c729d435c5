"""The two endings of a TripWire campaign (lines 412 and 162) and the VP total, played on the
Ginestra sample through the installed ``mekref`` console script only (no JSON commands).

The BV table below is the test's own Units.txt (the Griffin, Locust, Jenner and Bulldog rows are
those of tests/fixtures/battles/Units.txt). The rebels start the map with Jenner 875 + Marauder
1363 + Atlas 1897 + Shadow Hawk 1064 + 2 Bulldogs 2 x 722 + 2 Maxims 2 x 600 + 2 Foot Platoons
2 x 83 = 8009 BV. Losing for good the Atlas (6112, 76.3%), the Marauder (4749, 59.3%) and a
Bulldog (4027, 50.3%) leaves them in the campaign; the Shadow Hawk destroyed but repairable
still counts (50.3%); once truly destroyed, 2963 of 8009 = 37.0% < 50%: the campaign ends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref

from mekref.daemon.samples.ginestra import FOLDER

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
BV_TABLE = """\
Chassis|Model|MUL ID|Tonnage|BV|Cost
Griffin|GRF-1N|1330|55|1272|4996580
Locust|LCT-1V|1925|20|432|1506000
Jenner|JR7-D|1603|35|875|3173950
Bulldog Medium Tank||449|60|722|1842500
Atlas|AS7-D||100|1897|
Marauder|MAD-3R||75|1363|
Shadow Hawk|SHD-2H||55|1064|
Wolverine|WVR-6R||55|1101|
Rapier|RPR-300||85|1500|
Maxim Heavy Hover Transport|(Fire Support)||50|600|
Foot Platoon|(Rifle)||3|83|
"""


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _ginestra(tmp_path: Path) -> str:
    db = str(tmp_path / "g.db")
    table = tmp_path / "Units.txt"
    table.write_text(BV_TABLE, encoding="utf-8")
    _ok("campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side in ("loyalist", "rebel"):
        _ok("force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
            "--units-dir", str(UNITS), "--bv-table", str(table), "--unchecked",
            "--referee", "Ref", "--reason", "the sample forces")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    _ok("turn", "resolve", "--db", db, "--day", "1")
    return db


def _report(db: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(_ok("report", "--db", db, "--json"))
    return report


def _rebel(report: dict[str, Any]) -> dict[str, Any]:
    (rebel,) = [x for x in report["ending"]["sides"] if x["side"] == "rebel"]
    return rebel


def test_a_side_below_half_its_starting_bv_ends_the_campaign(tmp_path: Path) -> None:
    # L412: "The campaign is a success when all the opponents forces are reduced to less than
    # 50% of their starting combat effectiveness, based on the BV of operational units, or
    # units that could be repaired."
    db = _ginestra(tmp_path)
    report = _report(db)
    ids = {u["chassis"]: u["id"] for u in report["units"] if u["side"] == "rebel"}
    start = _rebel(report)
    assert (start["starting_bv"], start["effective_bv"], start["percent_of_start"]) == (
        8009, 8009, 100.0,
    )  # fmt: skip
    # Day 1: Bagnorgeio garrisoned with the leader in the seat (1 + 2), the Manufacturing
    # Facility garrisoned (1): the VP total shown is battle 0 + strategic 4.
    (loyal,) = [x for x in report["ending"]["sides"] if x["side"] == "loyalist"]
    assert (loyal["battle_vp"], loyal["strategic_vp"], loyal["total_vp"]) == (0, 4, 4)

    def fate(chassis: str, what: str) -> str:
        return _ok("battle", "fate", "--db", db, "--unit", ids[chassis], "--fate", what,
                   "--referee", "Ann", "--reason", "after the day 3 battle")  # fmt: skip

    fate("Atlas", "truly_destroyed")
    fate("Marauder", "truly_destroyed")
    fate("Bulldog Medium Tank", "utterly_destroyed")
    out = fate("Shadow Hawk", "destroyed_repairable")
    assert "ended" not in out
    rebel = _rebel(_report(db))
    assert (rebel["effective_bv"], rebel["percent_of_start"]) == (4027, 50.3)
    assert not rebel["below_attrition_line"]
    out = fate("Shadow Hawk", "truly_destroyed")
    reason = (
        "rebel fell below 50% of its starting BV: 2963 of 8009 BV (37.0%) in operational or "
        "repairable units"
    )
    assert f"the campaign has ended: {reason}" in " ".join(out.split())
    report = _report(db)
    assert report["ending"]["ended"] == reason
    assert _rebel(report)["below_attrition_line"]
    text = " ".join(_ok("report", "--db", db).split())
    assert f"the campaign has ended: {reason}" in text
    refused = mekref("turn", "resolve", "--db", db, "--day", "2")
    assert refused.returncode == 3 and "campaign_over" in refused.stderr


def test_capturing_the_leader_ends_the_campaign(tmp_path: Path) -> None:
    # L162: "If a leader is captured and returned to the opposinng players DropShip the
    # campaign ends." L413: "The campaign can also end with the capture (but not death) of the
    # opposing leader."
    db = _ginestra(tmp_path)
    missing = mekref("campaign", "capture-leader", "--db", db, "--side", "rebel")
    assert missing.returncode != 0 and "--referee" in missing.stderr
    assert _report(db)["ending"]["ended"] is None
    # No battle on record destroyed the escort: the referee's override (ruling T-L1).
    out = _ok("campaign", "capture-leader", "--db", db, "--side", "rebel", "--referee", "Ann",
              "--reason", "militia APC destroyed; the leader carried to the Union",
              "--override")  # fmt: skip
    assert "the campaign has ended: the leader of rebel was captured" in out
    report = _report(db)
    assert report["ending"]["ended"] == "the leader of rebel was captured"
    assert _rebel(report)["leader_captured"]
    again = mekref("campaign", "capture-leader", "--db", db, "--side", "rebel",
                   "--referee", "Ann", "--reason", "twice")  # fmt: skip
    assert again.returncode == 3 and "already" in again.stderr
    refused = mekref("turn", "resolve", "--db", db, "--day", "2")
    assert refused.returncode == 3 and "campaign_over" in refused.stderr


def test_units_without_a_bv_leave_the_attrition_share_unknown(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    _ok("campaign", "new", "--db", db, "--name", "G", "--side", "loyalist:L", "--side", "rebel:R")
    for side in ("loyalist", "rebel"):
        _ok("force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
            "--units-dir", str(UNITS), "--unchecked",
            "--referee", "Ref", "--reason", "x")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    rebel = _rebel(_report(db))
    assert rebel["percent_of_start"] is None and rebel["units_without_bv"] == 10
    text = " ".join(_ok("report", "--db", db).split())
    assert (
        "rebel: 10 unit(s) without a BV (the '+ ?' above), so the end by attrition cannot be told"
        in text
    )


def test_wrecks_do_not_garrison_a_location(tmp_path: Path) -> None:
    # L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
    # unopposed scores 1 Victory Point." Day 1: Bagnorgeio (militia and guard: 1, the leader in
    # the seat of power: 2) and Alpha Lance at the Manufacturing Facility (1): 4 VP. With three
    # of Alpha's four 'Mechs truly destroyed, the one working Griffin is no lance: 3 VP.
    db = _ginestra(tmp_path)
    report = _report(db)
    ids = {u["chassis"]: u["id"] for u in report["units"] if u["side"] == "loyalist"}
    for chassis in ("Wolverine", "Shadow Hawk", "Locust"):
        _ok("battle", "fate", "--db", db, "--unit", ids[chassis], "--fate", "truly_destroyed",
            "--referee", "Ann", "--reason", "the day 1 raid")  # fmt: skip
    out = _ok("turn", "resolve", "--db", db, "--day", "2")
    assert "strategic VP: loyalist 3, rebel 0" in out
    (loyal,) = [x for x in _report(db)["ending"]["sides"] if x["side"] == "loyalist"]
    assert (loyal["strategic_vp"], loyal["total_vp"]) == (3, 3)
