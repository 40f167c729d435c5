"""docs/campaign.md, "Worked example: a battle's bill with a half-ton bin, a battle armour bin
and a Clan squad": the figures of the bill, through the installed console script.

Red: a Bulldog Medium Tank (60 t, Inner Sphere; armor 104 points, internal 30) carrying two
SRM-4 bins of 25 shots and a half-ton MG bin ("IS Machine Gun Ammo - Half") of 100 shots; an
Elemental Battle Armor squad (Clan, 5 suits of 1 t, ruling BR-11) with its SRM-2 bin
("BA-SRM2 Ammo:Body:Shots2#" in the design) of 2 shots. Blue: a Locust, killed.

L76: "| Repair Vehicles Entire Armor* # | Tonnage/2 |"
L77: "| Repair Vehicles Entire Internal Structure** # | Tonnage |"
L78: "| Repair Battle Armor # | No. of suits x tonnage per suit x 2.5 |"
L85: "| Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5 |"
L93: "| #Unit has Clan or Clan Mixed Technology Base | Cost x 2 |"
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from console_script import mekref

from mekref.adapters.megamek.mul_model import Entity, Kill, Location, Section, Slot

from .builders import FIXTURES, UNITS_DIR, loc, mek, pilot, record, unit_list

SRM = "IS Ammo SRM-4"
MG = "IS Machine Gun Ammo - Half"
BA_SRM = "BA-SRM2 Ammo"


def tank(section: Section, *, fought: bool) -> Entity:
    # One SRM-4 bin 25 -> 10 shots, the half-ton MG bin 100 -> 50; Front armor 24 -> 10;
    # Turret armor 20 -> 0 and internal 6 -> 3.
    srm, mg = ((10, 25), 50) if fought else ((25, 25), 100)
    body = Location(index=0, name="Body", slots=(
        Slot(index=None, type=SRM, shots=srm[0]),
        Slot(index=None, type=SRM, shots=srm[1]),
        Slot(index=None, type=MG, shots=mg),
    ))  # fmt: skip
    locations: tuple[Location, ...] = (body,)
    if fought:
        locations += (loc(1, "Front", armor=10), loc(5, "Turret", armor=0, internal=3))
    return mek("Bulldog Medium Tank", "", "t1", pilot("Tank Crew", "p-t1"),
               section=section, movement="Tracked", locations=locations)  # fmt: skip


def squad(section: Section, *, fought: bool) -> Entity:
    # The SRM-2 bin 2 -> 0 shots; suit 1 armor 10 -> 4.
    squad = Location(index=0, name="Squad",
                     slots=(Slot(index=None, type=BA_SRM, shots=0 if fought else 2),))  # fmt: skip
    locations: tuple[Location, ...] = (squad,)
    if fought:
        locations += (loc(1, "Trooper 1", armor=4),)
    return mek("Elemental Battle Armor", "[Laser](Sqd5)", "e1", pilot("Star", "p-e1"),
               section=section, movement="Jump", locations=locations)  # fmt: skip


def _run(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_worked_battle_bill_in_campaign_md(tmp_path: Path) -> None:
    (tmp_path / "red.mul").write_text(
        unit_list([tank(Section.UNIT, fought=False), squad(Section.UNIT, fought=False)]),
        encoding="utf-8",
    )
    (tmp_path / "blue.mul").write_text(
        unit_list([mek("Locust", "LCT-1V", "l1", pilot("Lea", "p-l1"))]), encoding="utf-8"
    )
    dead_locust = replace(
        mek("Locust", "LCT-1V", "l1", pilot("Lea", "p-l1", hits=6),
            locations=(loc(1, "Center Torso", destroyed=True),)),
        section=Section.SALVAGE,
    )  # fmt: skip
    (tmp_path / "Red.mul").write_text(
        record(
            [tank(Section.SURVIVORS, fought=True), squad(Section.SURVIVORS, fought=True),
             dead_locust],
            kills=(Kill("Locust LCT-1V", "t1"),),
        ),
        encoding="utf-8",
    )  # fmt: skip
    db = str(tmp_path / "c.db")
    ok = ("--unchecked", "--referee", "Ann", "--reason", "test forces")
    _run("campaign", "new", "--db", db, "--name", "V", "--seed", "v",
         "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    for side in ("red", "blue"):
        _run("force", "import", "--db", db, "--side", side, str(tmp_path / f"{side}.mul"),
             "--units-dir", str(UNITS_DIR),
             "--bv-table", str(FIXTURES / "battles" / "Units.txt"), *ok)  # fmt: skip
    # Ingested without --units-dir: the designs kept at import price the bill.
    out = _run("battle", "ingest", "--db", db, str(tmp_path / "Red.mul"), "--control", "red")
    battle = out.split("for battle ")[1].split()[0]
    _run("battle", "close", "--db", db, "--battle", battle,
         "--referee", "Ann", "--reason", "Blue's bot saves no record")  # fmt: skip
    report = json.loads(_run("report", "--db", db, "--json"))
    by_id = {u["id"]: u for u in report["units"]}
    # The Bulldog. L76: Front 14 x 30/104 = 4.04 -> 5 now; Turret 20 x 30/104 = 5.77 -> 6 once
    # the structure is mended (footnote *). L77: 3 x 60/30 = 6. L85: (15/25 t of SRM + 50/100
    # of a half-ton MG bin = 1/4 t) = 17/20 t x 5 = 4.25 -> 5 (R-AMMO-2, R-COST-2).
    figures = ("armor_sp", "internal_sp", "rearm_sp", "total_sp")
    bulldog = by_id["t1"]["repair"]
    assert [bulldog[k] for k in figures] == [5 + 6, 6, 5, 22]
    # L69 "Repair Armour | 3 hours" (the bill counts the task once), L70 "Repair Internal
    # Structure/Criticals | 6 hours", L68 "Reload | 1 hour".
    assert bulldog["tech_hours"] == 3 + 6 + 1
    # The Elementals. L78 with L93: 1 suit x 1 t x 2.5 x 2 = 5; L85: the BA SRM-2 bin is SRM
    # (Introductory), one bin of one ton: 5 SP, no tech-base multiplier on re-arming.
    elementals = by_id["e1"]["repair"]
    assert [elementals[k] for k in figures] == [5, 0, 5, 10]
    assert elementals["tech_hours"] == 3 + 1  # L69 "Repair Armour | 3 hours", L68 "Reload | 1 hour"
