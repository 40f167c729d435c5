"""No wreck fights twice, and kept salvage holds ground: the legal Ginestra sample played through
the installed ``mekref`` console script only (orders, days, the engagement exported for MegaMek,
the battles written back as MegaMek end-of-game files built from the exported lists, as in
test_turn_legal_campaign_cli.py). Rulings R-VP-7 and R-VP-4 (docs/rulings.md).

BV (the sample's Units.txt): the loyalists' alpha at the Facility (1105) is a Griffin 1272, a
Wolverine 1101, a Shadow Hawk 1064 and a Locust 432 (3869); the rebels' bravo an Atlas 1897, a
Marauder 1363, a Shadow Hawk 1064 and a Jenner 875 (5199); r-alpha-battle a Griffin, two
Wolverines and a Locust (3906).

1. Day 1: bravo lands on the Facility. The battle truly destroys alpha's Locust (its centre
   torso) and wrecks the Atlas and the Marauder. The Locust leaves play: out of alpha, out of
   day 2's scenario files, and when a file of the next battle still names it (an old list kept
   it, MegaMek wrote it back as a wreck) its 432 BV count neither in alpha's force nor as a
   loss: 3437 BV, none destroyed. r-alpha-battle loses both Wolverines (2202 of 3906, 56.4%):
   loyalist +2.
2. Day 1: bravo lands on the Facility; the Atlas's pilot ejects and the loyalists keep the
   field: the Atlas is their salvage; the Locust is truly destroyed. The loyalists keep the
   Atlas in the Locust's lance, seat the Locust's pilot in it and form it at the Facility. Day
   2: alpha's three standing 'Mechs and the Atlas garrison it unopposed: 1 VP (strategic 5,
   not 4), while the Atlas's fate is still "captured".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ginestra_cli import legal_day_zero, legal_export, legal_ingest, ok
from test_turn_campaign_endings_cli import TRULY, WRECK, _engagements, _report, battle_files

from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul


def _day(db: str, day: int, *orders: str) -> str:
    given = [x for order in orders for x in ("--order", order)]
    if given:
        ok("orders", "submit", "--db", db, "--side", "rebel", "--day", str(day), *given)
    return ok("turn", "resolve", "--db", db, "--day", str(day))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _battle(report: dict[str, Any], engagement: str) -> dict[str, Any]:
    (battle,) = [b for b in report["battles"] if b["engagement_id"] == engagement]
    assert battle["status"] == "resolved"
    return dict(battle)


def _sides(battle: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    return {x["side"]: (x["starting_bv"], x["destroyed_bv"], x["vp"]) for x in battle["sides"]}


def _alpha(db: str) -> list[str]:
    """The units of the loyalists' alpha formation, as ``formation list`` prints them."""
    text = ok("formation", "list", "--db", db, "--side", "loyalist")
    units: list[str] = []
    for line in text.split("\nalpha (")[1].splitlines()[1:]:
        if not line.startswith("  "):
            break
        units.append(line.split()[0])
    return units


def _unit(report: dict[str, Any], side: str, chassis: str, company_lance: str) -> str:
    (unit,) = [u["id"] for u in report["units"] if u["side"] == side and u["chassis"] == chassis
               and f"{u['company']}/{u['lance']}" == company_lance]  # fmt: skip
    return str(unit)


def _rewrite(path: str, change: Any) -> None:
    mul = read_mul_bytes(Path(path).read_bytes())
    entities = tuple(change(e) for e in mul.entities)
    Path(path).write_text(write_mul(replace(mul, entities=entities)), encoding="utf-8")


def test_a_truly_destroyed_unit_leaves_play_on_the_legal_sample(tmp_path: Path) -> None:
    # L146: "A 'Mech is only truly destroyed when its center torso internal structure is
    # eliminated. In that instance, as noted on the SP Unit Activity Cost Table, it cannot be
    # repaired." L419-L424: the battle rows read the BV of each side's force and of its units
    # destroyed: a wreck of an earlier battle is neither.
    db = legal_day_zero(tmp_path)
    locust = _unit(_report(db), "loyalist", "Locust", "Alpha Company/Battle Lance")
    assert locust in _alpha(db)
    (day1,) = _engagements(_day(db, 1, "bravo:orbital_insertion::1105"))
    legal_export(db, tmp_path)
    first = battle_files(tmp_path, day1, {
        "loyalist:Locust": (TRULY,), "rebel:Atlas": (WRECK,), "rebel:Marauder": (WRECK,),
    })  # fmt: skip
    legal_ingest(db, first)
    report = _report(db)
    assert _sides(_battle(report, day1)) == {"loyalist": (3869, 432, 2), "rebel": (5199, 3260, -2)}
    # Out of its formation at once; the report still shows it, for the books and its wreck.
    assert locust not in _alpha(db)
    (fate,) = [u["fate"] for u in report["units"] if u["id"] == locust]
    assert fate == "truly_destroyed"
    ok("turn", "reposition", "--db", db, "--formation", "bravo", "--hex", "1106",
       "--referee", "Ann", "--reason", "beaten, falls back")  # fmt: skip

    day2 = _day(db, 2, "r-alpha-battle:orbital_insertion::1105")
    (again,) = _engagements(day2)
    legal_export(db, tmp_path / "day2")
    for name in (f"{again}-loyalist.mul", f"{again}.mms"):
        assert locust not in (tmp_path / "day2" / name).read_text(encoding="utf-8"), name
    files = battle_files(tmp_path / "day2", again, {"rebel:Wolverine": (WRECK, WRECK)})
    # An old list kept the Locust: MegaMek writes it back to the loyalists' record as a wreck.
    old = read_mul_bytes((tmp_path / f"{day1}-loyalist-record.mul").read_bytes())
    (wreck,) = [e for e in old.entities if e.external_id == locust]
    record = read_mul_bytes(Path(files[0]).read_bytes())
    with_wreck: MulFile = replace(record, entities=(*record.entities, wreck))
    Path(files[0]).write_text(write_mul(with_wreck), encoding="utf-8")
    legal_ingest(db, files)
    battle = _battle(_report(db), again)
    assert _sides(battle) == {"loyalist": (3437, 0, 2), "rebel": (3906, 2202, -2)}
    assert locust not in {u["id"] for u in battle["units"]}
    assert any(c.startswith("Locust LCT-1V: out of play before this battle") and "R-VP-7" in c
               for c in battle["conflicts"])  # fmt: skip


def test_kept_and_crewed_salvage_holds_the_facility_on_the_legal_sample(tmp_path: Path) -> None:
    # L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
    # unopposed scores 1 Victory Point." L136: players who control the field "take control of
    # the the 'Mech and may either keep it (only if they have space in there TO&E) or sell it."
    db = legal_day_zero(tmp_path)
    report = _report(db)
    locust = _unit(report, "loyalist", "Locust", "Alpha Company/Battle Lance")
    atlas = _unit(report, "rebel", "Atlas", "Alpha Company/Command Lance")
    (pilot,) = [p["id"] for p in report["people"] if p["unit"] == locust]
    day1 = _day(db, 1, "bravo:orbital_insertion::1105")
    assert "strategic VP: loyalist 4, rebel 0" in _flat(day1)  # the Facility is opposed
    (fight,) = _engagements(day1)
    legal_export(db, tmp_path)
    files = battle_files(tmp_path, fight, {"loyalist:Locust": (TRULY,), "rebel:Atlas": (WRECK,)})
    for path in files:  # the Atlas's pilot ejected: an immobile 'Mech (L138)
        _rewrite(path, lambda e: replace(e, crew=replace(e.crew, ejected=True))
                 if e.external_id == atlas and e.crew is not None else e)  # fmt: skip
    legal_ingest(db, files)
    report = _report(db)
    (captured,) = [(u["side"], u["fate"], u["company"]) for u in report["units"]
                   if u["id"] == atlas]  # fmt: skip
    assert captured == ("loyalist", "captured", "Salvage")
    ok("turn", "reposition", "--db", db, "--formation", "bravo", "--hex", "1106",
       "--referee", "Ann", "--reason", "beaten, falls back")  # fmt: skip
    ok("salvage", "keep", "--db", db, "--unit", atlas, "--company", "Alpha Company",
       "--lance", "Battle Lance")  # fmt: skip
    ok("salvage", "seat", "--db", db, "--unit", atlas, "--person", pilot)
    ok("formation", "create", "--db", db, "--side", "loyalist", "--day", "2", "--id",
       "l-salvage", "--unit", atlas, "--hex", "1105")  # fmt: skip

    day2 = _day(db, 2)
    # Bagnorgeio 1, the seat of power 2, the Space Port 1, and now the Facility 1: alpha's
    # Griffin, Wolverine and Shadow Hawk, and the kept and crewed Atlas, a lance of four.
    assert "strategic VP: loyalist 5, rebel 0" in _flat(day2)
    report = _report(db)
    (atlas_now,) = [u["fate"] for u in report["units"] if u["id"] == atlas]
    assert atlas_now == "captured"
    listed = ok("formation", "list", "--db", db, "--side", "loyalist")
    assert f"l-salvage (l-salvage) in 1105, fatigue 0\n  {atlas}  Atlas AS7-D" in listed
