"""Battles link to the engagements of the strategic map, through the installed console script.

TripWire L280: "Whenever two formations occupy the same hex (or cross a hex with another
formation) a scenario begins in that hex and no further movement occurs." A battle fought in
MegaMek is such a scenario: its units are those of one engagement's formations (the export
writes their ids). A record of a battle that never happened on the map is held until the
referee confirms it (ruling T-E8, docs/turn.md); a resolved battle closes its engagement and
says which formations still share its hex (L179: "If at any time during that formation's
movement they share a hex with an enemy formation, movement is stopped at that hex and a
scenario begins"; ruling T-E9). A campaign with no strategic map takes its battles as before.

The Ginestra sample, day 1: the rebels' Bravo lands on the loyalists' Alpha guarding the
Facility (hex 1105), engagement ``day1-1105-1``. The sample's own loyalist unit list (every
loyalist unit, matched by name) is the "battle that never happened": its units stand in four
formations in four hexes, only one of them engaged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok

from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records

ENGAGEMENT = "day1-1105-1"
REFEREE = ("--referee", "Ann", "--reason", "we fought it at the club; it counts")


def _never_happened(tmp_path: Path) -> str:
    """The sample loyalist unit list as a battle file (a copy: the pipeline reads no link)."""
    path = tmp_path / "never-happened.mul"
    path.write_bytes((FOLDER / "loyalist.mul").read_bytes())
    return str(path)


def _day_one(tmp_path: Path) -> tuple[str, Path]:
    """Day 1 resolved with the one engagement in 1105, both sides' scenarios exported."""
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    assert f"engagement {ENGAGEMENT}" in ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp_path / "out"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(UNITS))  # fmt: skip
    return db, out


def _json(*args: str) -> Any:
    return json.loads(ok(*args, "--json"))


def test_ruling_t_e9_the_battle_of_the_engagement_closes_it_and_says_who_still_shares_the_hex(
    tmp_path: Path,
) -> None:
    db, out = _day_one(tmp_path)
    loyal, rebel = battle_records(out, ENGAGEMENT)
    said = ok("battle", "ingest", "--db", db, str(loyal), str(rebel), "--control", "loyalist")
    assert said.count(f"fought for engagement {ENGAGEMENT}") == 2
    assert f"engagement {ENGAGEMENT} closed by battle" in said
    # L179/L280: Alpha and the beaten Bravo (two units left) still stand in 1105.
    assert "alpha (loyalist), bravo (rebel) still share hex 1105: they meet again on day 2" in said
    assert "mekref turn reposition" in said
    status = _json("status", "--db", db)
    assert status["waiting"] == []
    (after,) = status["after_battles"]
    assert (after["engagement_id"], after["hex"]) == (ENGAGEMENT, "1105")
    assert after["formations"] == [
        {"formation": "alpha", "side": "loyalist"},
        {"formation": "bravo", "side": "rebel"},
    ]
    report = _json("report", "--db", db)
    (battle,) = report["battles"]
    assert battle["engagement_id"] == ENGAGEMENT and battle["held"] is None
    (engagement,) = report["strategic"]["engagements"]
    assert engagement["status"] == "closed" and engagement["battle"] == battle["id"]
    assert report["strategic"]["still_together"][0]["hex"] == "1105"
    # The referee's overview says the same in words, with the VP total.
    overview = " ".join(ok("report", "--db", db, "--overview").split())
    assert f"engagement {ENGAGEMENT}: assault in 1105, loyalist, rebel; closed (battle" in overview
    assert "alpha (loyalist), bravo (rebel) still share hex 1105" in overview
    assert "VP total (battle + strategic): loyalist" in overview
    # Another record of the same units: the engagement was fought, so it is held (T-E8).
    again = mekref("battle", "ingest", "--db", db, str(out / f"{ENGAGEMENT}-rebel.mul"))
    assert again.returncode == 0, again.stderr
    assert "is held" in again.stderr and "already fought" in again.stderr
    # The referee moves the beaten side away (T-E7): nobody shares the hex any more.
    ok("turn", "reposition", "--db", db, "--formation", "bravo", "--hex", "1106",
       "--referee", "Ann", "--reason", "Bravo falls back")  # fmt: skip
    assert _json("status", "--db", db)["after_battles"] == []


def test_ruling_t_e8_a_record_of_a_battle_that_never_happened_is_held_until_confirmed(
    tmp_path: Path,
) -> None:
    db, _ = _day_one(tmp_path)
    bogus = _never_happened(tmp_path)
    done = mekref("battle", "ingest", "--db", db, bogus, "--control", "loyalist")
    assert done.returncode == 0, done.stderr
    assert "is held" in done.stderr and "matches no open engagement" in done.stderr
    assert "resolved" not in done.stdout
    (pending,) = _json("battle", "pending", "--db", db)
    battle = pending["battle_id"]
    assert pending["held"] and pending["engagement_id"] is None
    assert pending["sides_missing"] == [] and pending["control"] == "loyalist"
    (waiting,) = _json("status", "--db", db)["waiting"]
    assert waiting["held"] == pending["held"]
    shown = " ".join(ok("status", "--db", db).split())
    assert f"battle {battle} is held until the referee confirms it: it matches no open" in shown
    # Control and every side's file are there, yet it does not resolve; closing it needs the
    # referee's word.
    refused = mekref("battle", "close", "--db", db, "--battle", battle, "--control", "loyalist")
    assert refused.returncode != 0 and "is held" in refused.stderr
    said = ok("battle", "confirm", "--db", db, "--battle", battle, *REFEREE)
    assert "confirmed by the referee Ann, without an engagement" in said
    assert f"battle {battle} resolved" in said
    (recorded,) = _json("report", "--db", db)["battles"]
    assert recorded["status"] == "resolved" and recorded["held"] is None
    assert recorded["confirmed"] == {"referee": "Ann", "reason": REFEREE[3]}
    # The engagement of 1105 was not fought: it stays open.
    (engagement,) = _json("report", "--db", db)["strategic"]["engagements"]
    assert engagement["status"] == "open"


def test_ruling_t_e8_battle_ingest_with_the_referees_word_confirms_at_once(
    tmp_path: Path,
) -> None:
    db, _ = _day_one(tmp_path)
    bogus = _never_happened(tmp_path)
    said = ok("battle", "ingest", "--db", db, bogus, "--control", "loyalist", *REFEREE)
    assert "confirmed by the referee Ann, without an engagement" in said
    assert "resolved" in said
    (recorded,) = _json("report", "--db", db)["battles"]
    assert recorded["confirmed"]["referee"] == "Ann" and recorded["status"] == "resolved"


def test_ruling_t_e8_ingesting_a_held_file_again_with_the_referees_word_confirms_it(
    tmp_path: Path,
) -> None:
    db, _ = _day_one(tmp_path)
    bogus = _never_happened(tmp_path)
    assert mekref("battle", "ingest", "--db", db, bogus).returncode == 0
    ok("battle", "control", "--db", db, "--battle", _json("battle", "pending", "--db", db)[0]
       ["battle_id"], "--side", "loyalist")  # fmt: skip
    said = ok("battle", "ingest", "--db", db, bogus, *REFEREE)
    assert "already ingested" in said and "confirmed by the referee Ann" in said
    assert "resolved" in said
    assert _json("battle", "pending", "--db", db) == []


def test_ruling_t_e8_a_campaign_without_a_map_takes_its_battles_as_before(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "books.db")
    ok("campaign", "new", "--db", db, "--name", "Books", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    bogus = _never_happened(tmp_path)
    ok("force", "import", "--db", db, "--side", "loyalist", bogus,
       "--units-dir", str(UNITS), "--unchecked", "--referee", "Ref", "--reason", "x")  # fmt: skip
    done = mekref("battle", "ingest", "--db", db, bogus, "--control", "loyalist")
    assert done.returncode == 0, done.stderr
    assert "held" not in done.stderr and "resolved" in done.stdout
    (battle,) = _json("report", "--db", db)["battles"]
    assert battle["engagement_id"] is None and battle["confirmed"] is None
