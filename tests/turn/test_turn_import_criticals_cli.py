"""A vehicle's results outside its slots (motive damage, turret lock, stabiliser, vehicle
criticals) are kept from import to the record handed back (issue 26, ruling R-IMP-6), through
the installed ``mekref`` console script.

The damaged list is ``tests/fixtures/megamek/derived/damaged-bulldog.mul``, made from the real
``mekhq-fixedmuls-VTOLApocalypse.mul`` (each edit in the README beside it): a Bulldog Medium
Tank with 2 points of motive damage (penalty 2), its turret locked facing 3, one sensor hit, its
Front stabiliser hit, Front armour 12 of 24, and its commander hit (the crew's damage). It
replaces a Bulldog of the Ginestra loyalist list (the Loyalist Militia, which guards 0508 when
the rebels' Bravo Lance lands there).
``inspect --json``, ``report --json``, ``force list --json``, ``engagement export`` (the unit
list written as MegaMek's ``EntityListFile`` writes them; the scenario file with the sensor hit
as the vehicle critical type 4, the rest named in its notes and in the command's output) and
``battle export-record`` must agree.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.mms_check import parse_mms
from mekref.adapters.megamek.mul_model import Entity, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.samples.ginestra import FOLDER

FIXTURES = Path(__file__).parents[1] / "fixtures"
DAMAGED = FIXTURES / "megamek" / "derived" / "damaged-bulldog.mul"
ENGAGEMENT = "day1-0508-1"
BULLDOG = "Bulldog Medium Tank"
CREW = "Ghaidaa Abdul-Samad"
#: What every reading must show (the fixture's README).
CRITICALS = {
    "motive_damage": 2,
    "motive_penalty": 2,
    "turret_lock": 3,
    "stabilisers": ["Front"],
    "vehicle": {"sensors": "1"},
    "aero": {},
    "dropship": {},
}


def _said(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def _entity_text() -> str:
    text = DAMAGED.read_text(encoding="utf-8")
    start = text.index('\t<entity chassis="Bulldog Medium Tank"')
    return text[start : text.index("</entity>", start) + len("</entity>\n")]


def _loyalist_list(tmp: Path) -> Path:
    """The Ginestra loyalist list with its first Bulldog replaced by the fixture's damaged one."""
    text = (FOLDER / "loyalist.mul").read_text(encoding="utf-8")
    start = text.index('\t\t<entity chassis="Bulldog Medium Tank"')
    end = text.index("</entity>", start) + len("</entity>\n")
    path = tmp / "loyalist.mul"
    path.write_text(text[:start] + _entity_text() + text[end:], encoding="utf-8")
    return path


def _mine(entities: tuple[Entity, ...]) -> Entity:
    (e,) = [e for e in entities if e.chassis == BULLDOG and e.members[0].name == CREW]
    return e


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("import-criticals")
    db = str(tmp / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    said = {}
    for side, path in (("loyalist", _loyalist_list(tmp)), ("rebel", FOLDER / "rebel.mul")):
        said[side] = ok("force", "import", "--db", db, "--side", side, str(path),
                        "--units-dir", str(UNITS), "--unchecked", "--referee", "Ref",
                        "--reason", "test forces")  # fmt: skip
    ok("turn", "setup", "--db", db)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::0508")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "l-militia:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp / "scenario"
    # What each export said: the files written (stdout) and its warnings (stderr).
    exported = {
        side: _said("engagement", "export", "--db", db, "--side", side, "-o", str(out))
        for side in ("loyalist", "rebel")
    }
    return {"db": db, "tmp": tmp, "said": said, "out": out, "exported": exported}


def _bulldog_id(db: str) -> str:
    report = json.loads(ok("report", "--db", db, "--json"))
    people = {p["id"]: p["name"] for p in report["people"]}
    listed = json.loads(ok("force", "list", "--db", db, "--side", "loyalist", "--json"))
    (row,) = [
        r for r in listed
        if r["chassis"] == BULLDOG and [c["name"] for c in r["crew"]] == [CREW]
    ]  # fmt: skip
    assert people
    return str(row["id"])


def test_inspect_import_report_and_list_show_the_same_results(campaign: dict[str, Any]) -> None:
    seen = json.loads(ok("inspect", str(DAMAGED), "--units-dir", str(UNITS), "--json"))
    (unit,) = seen["units"]
    assert unit["state"] == "damaged" and unit["criticals"] == CRITICALS

    said = campaign["said"]["loyalist"]
    line = next(s for s in said.splitlines() if s.startswith(f"{BULLDOG}: came in damaged"))
    for words in ("Front 12/24 armour", "motive damage 2 (penalty 2)",
                  "turret locked (facing 3)", "stabiliser hit (Front)",
                  "vehicle criticals sensors=1"):  # fmt: skip
        assert words in line, line
    assert "not kept" not in said

    db = campaign["db"]
    uid = _bulldog_id(db)
    report = json.loads(ok("report", "--db", db, "--json"))
    (row,) = [u for u in report["units"] if u["id"] == uid]
    assert row["fate"] == "damaged"
    assert row["damage"]["criticals"] == CRITICALS
    # The sensor hit is a critical to repair (the count prices it, R-REPAIR-2).
    assert row["damage"]["critical_hits"] == 1
    printed = ok("report", "--db", db)
    assert "motive damage 2 (penalty 2)" in printed
    listed = json.loads(ok("force", "list", "--db", db, "--side", "loyalist", "--json"))
    (mine,) = [r for r in listed if r["id"] == uid]
    assert mine["criticals"] == CRITICALS
    assert mine["crew_damage"] == 1  # the commander hit: the Heal Vehicle Crew row


def test_the_export_writes_them_or_names_them(campaign: dict[str, Any]) -> None:
    out: Path = campaign["out"]
    sent = _mine(read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes()).entities)
    # The unit list: every result as MegaMek's EntityListFile writes it.
    assert (sent.motive_damage, sent.motive_penalty, sent.turret_lock) == (2, 2, 3)
    assert sent.tank_crits == (("sensors", "1"),)
    front = sent.location(1)
    assert front is not None and front.stabilizer_hit and front.armor == 12
    # The scenario file: the sensor hit as vehicle critical type 4 (Tank.CRIT_SENSOR) under
    # both keys (MMS-8, MMS-9); motive damage, the turret lock and the stabiliser named.
    text = (out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8")
    scenario = parse_mms(text)
    keys = [u.key for u in scenario.units() if u.name.startswith(BULLDOG) and u.pilot == CREW]
    (key,) = keys
    assert scenario.unit_value(key, "CritHit") == "0:4"
    assert scenario.unit_value(key, "CriticalHit") == "0:4"
    notes = [line for line in text.splitlines() if line.startswith("#")]
    said = campaign["exported"]["loyalist"]
    for words in ("motive damage 2 (penalty 2) not carried", "turret lock not carried",
                  "stabiliser hit in Front not carried"):  # fmt: skip
        assert any(words in n for n in notes), words
        assert words in said, said
    # The commander hit is the crew's (kept as a count, not a seat): said, not written.
    assert "1 driver/commander hit(s) of its crew not written" in said, said


def test_the_record_handed_back_writes_them(campaign: dict[str, Any]) -> None:
    """The game is played from the exported lists (MegaMek writes the results back as it read
    them); the resolved battle's record for the loyalists carries them, and ``inspect`` reads them
    back the same."""
    tmp: Path = campaign["tmp"]
    db = str(tmp / "fought.db")
    Path(db).write_bytes(Path(campaign["db"]).read_bytes())
    out: Path = campaign["out"]
    files = []
    for side in ("loyalist", "rebel"):
        mul = read_mul_bytes((out / f"{ENGAGEMENT}-{side}.mul").read_bytes())
        record = MulFile(
            root=RootKind.RECORD,
            version=DEFAULT_WRITE_VERSION,
            entities=tuple(replace(e, section=Section.SURVIVORS) for e in mul.entities),
        )
        path = tmp / f"{side}-record.mul"
        path.write_text(write_mul(record), encoding="utf-8")
        files.append(str(path))
    ok("battle", "ingest", "--db", db, *files, "--control", "loyalist")
    uid = _bulldog_id(db)
    report = json.loads(ok("report", "--db", db, "--json"))
    (fought,) = report["battles"]
    (row,) = [u for u in report["units"] if u["id"] == uid]
    assert row["damage"]["criticals"] == CRITICALS
    ok("battle", "export-record", "--db", db, "--battle", fought["id"], "--side", "loyalist",
       "-o", str(tmp))  # fmt: skip
    path = tmp / f"{fought['id']}-loyalist-record.mul"
    back = read_mul_bytes(path.read_bytes())
    e = next(e for e in back.entities if e.external_id == uid)
    assert (e.motive_damage, e.motive_penalty, e.turret_lock) == (2, 2, 3)
    assert e.tank_crits == (("sensors", "1"),)
    front = e.location(1)
    assert front is not None and front.stabilizer_hit
    seen = json.loads(ok("inspect", str(path), "--units-dir", str(UNITS), "--json"))
    (unit,) = [u for u in seen["units"] if u["external_id"] == uid]
    assert unit["criticals"] == CRITICALS


def test_the_internal_repair_puts_them_right(campaign: dict[str, Any]) -> None:
    """Ruling R-IMP-6: they are repaired with the critical hits (R-REPAIR-2: the internal
    structure task, no SP of their own); after it the next export writes none."""
    tmp: Path = campaign["tmp"]
    db = str(tmp / "repaired.db")
    Path(db).write_bytes(Path(campaign["db"]).read_bytes())
    uid = _bulldog_id(db)
    report = json.loads(ok("report", "--db", db, "--json"))
    pool = next(p["id"] for p in report["pools"] if p["side"] == "loyalist")
    ok("spend", "repair", "--db", db, "--unit", uid, "--task", "internal", "--pool", pool)
    after = json.loads(ok("report", "--db", db, "--json"))
    (row,) = [u for u in after["units"] if u["id"] == uid]
    assert row["damage"]["criticals"] is None and row["damage"]["critical_hits"] == 0
