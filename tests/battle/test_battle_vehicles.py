"""End to end with a vehicle and battle armor, through real MUL files and the fixture designs.

Red: a Bulldog Medium Tank (60 t, Inner Sphere; armor Front 24, Right/Left/Rear/Turret 20 =
104 points; internal 6 in each of the five locations = 30) carrying two SRM-4 bins of 25 shots
and a half-ton MG bin of 100; an Elemental Battle Armor squad (5 suits, Clan, weight class
Medium: 1 t per suit by ruling BR-11; each suit 10 armor). Blue: a Locust LCT-1V. Red holds the
field; only Red sends a file (the referee closes the battle).

What happened:
- Bulldog: Front armor 24 -> 10; Turret armor 20 -> 0, internal 6 -> 3; driver hit; one SRM-4
  bin fired down to 10 shots.
- Elementals: suits 3 and 4 killed; suit 1 armor 10 -> 4.
- Locust: Center Torso destroyed, pilot dead; the Bulldog killed it.

Hand arithmetic:
- "| Repair Vehicles Entire Armor* # | Tonnage/2 |": Front 14 x 30/104 = 4.04 -> 5 SP now;
  Turret 20 x 30/104 = 5.77 -> 6 SP after the internal repair (footnote *).
- "| Repair Vehicles Entire Internal Structure** # | Tonnage |": 3 x 60/30 = 6 SP.
- "| Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5 |": 15/25 t = 0.6
  x 5 = 3 SP. Bulldog total 5 + 6 + 6 + 3 = 20 SP; 3 + 6 + 1 = 10 hours.
- "| Heal Vehicle Crew (Driver and/or Commander hit results) | 60 per damage |": 60 SP.
- "| Repair Battle Armor # | No. of suits x tonnage per suit x 2.5 |" with "#Unit has Clan or
  Clan Mixed Technology Base | Cost x 2": 1 damaged suit x 1 t x 2.5 x 2 = 5 SP; 3 hours.
- The Locust: "'Mechs are only truly destroyed if their Central Torso reaches 0 internal
  structure."; its dead pilot makes it immobile ("the pilot has died of damage"): Red takes the
  wreck; "Truly Destroyed – Tonnage/10" = 2 WP if scrapped.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from mekref.adapters.megamek.mul_model import Entity, Kill, Location, Section, Slot

from .builders import FIXTURES, UNITS_DIR, loc, mek, pilot, record, unit_list
from .conftest import Cli

SRM = "IS Ammo SRM-4"
MG = "IS Machine Gun Ammo - Half"


def _body(srm: tuple[int, int], mg: int) -> tuple[Location, ...]:
    slots = (
        Slot(index=None, type=SRM, shots=srm[0]),
        Slot(index=None, type=SRM, shots=srm[1]),
        Slot(index=None, type=MG, shots=mg),
    )
    return (Location(index=0, name="Body", slots=slots),)


def _tank(section: Section, *, damaged: bool) -> Entity:
    locations = _body((10, 25), 100) if damaged else _body((25, 25), 100)
    if damaged:
        locations = (
            *locations,
            loc(1, "Front", armor=10),
            loc(5, "Turret", armor=0, internal=3),
        )
    entity = mek("Bulldog Medium Tank", "", "t1", pilot("Tank Crew", "p-t1"),
                 section=section, movement="Tracked", locations=locations)  # fmt: skip
    if damaged:
        entity = replace(entity, tank_crits=(("driver", "hit"),))
    return entity


def _elementals(section: Section, *, damaged: bool) -> Entity:
    locations = (
        (
            loc(1, "Trooper 1", armor=4),
            loc(3, "Trooper 3", destroyed=True),
            loc(4, "Trooper 4", destroyed=True),
        )
        if damaged
        else ()
    )
    return mek("Elemental Battle Armor", "[Laser](Sqd5)", "e1", pilot("Star", "p-e1"),
               section=section, movement="Jump", locations=locations)  # fmt: skip


def test_vehicle_and_battle_armor_bills(cli: Cli, tmp_path: Path) -> None:
    locust = mek("Locust", "LCT-1V", "l1", pilot("Lea", "p-l1"))
    (tmp_path / "red.mul").write_text(
        unit_list([_tank(Section.UNIT, damaged=False), _elementals(Section.UNIT, damaged=False)]),
        encoding="utf-8",
    )
    (tmp_path / "blue.mul").write_text(unit_list([locust]), encoding="utf-8")
    dead_locust = replace(
        mek("Locust", "LCT-1V", "l1", pilot("Lea", "p-l1", hits=6),
            locations=(loc(1, "Center Torso", destroyed=True),)),
        section=Section.SALVAGE,
    )  # fmt: skip
    (tmp_path / "Red.mul").write_text(
        record(
            [
                _tank(Section.SURVIVORS, damaged=True),
                _elementals(Section.SURVIVORS, damaged=True),
                dead_locust,
            ],
            kills=(Kill("Locust LCT-1V", "t1"),),
        ),
        encoding="utf-8",
    )
    db = str(tmp_path / "c.db")
    units = ("--units-dir", str(UNITS_DIR))
    bv = ("--bv-table", str(FIXTURES / "battles" / "Units.txt"))
    ok = ("--unchecked", "--referee", "Ann", "--reason", "test forces")
    assert cli("campaign", "new", "--db", db, "--name", "V", "--seed", "v",
               "--side", "red:Red", "--side", "blue:Blue")[0] == 0  # fmt: skip
    for side in ("red", "blue"):
        code, out, err = cli("force", "import", "--db", db, "--side", side,
                             str(tmp_path / f"{side}.mul"), *units, *bv, *ok)  # fmt: skip
        assert code == 0, err
    code, out, err = cli("battle", "ingest", "--db", db, str(tmp_path / "Red.mul"), *units,
                         "--control", "red")  # fmt: skip
    assert code == 0, err
    battle = out.split("for battle ")[1].split()[0]
    code, _, err = cli("battle", "close", "--db", db, "--battle", battle,
                       "--referee", "Ann", "--reason", "Blue's bot saves no record")  # fmt: skip
    assert code == 0, err
    report = json.loads(cli("report", "--db", db, "--json")[1])
    by_id = {u["id"]: u for u in report["units"]}
    tank = by_id["t1"]
    assert tank["fate"] == "damaged"
    assert tank["repair"] == {
        "armor_sp": 5 + 6, "internal_sp": 6, "rearm_sp": 3, "total_sp": 20, "tech_hours": 10,
        "repairable": True, "needs_repair_facility": True,
    }  # fmt: skip
    assert tank["crew_hits"] == 1
    ba = by_id["e1"]
    assert ba["fate"] == "damaged"
    assert (ba["repair"]["armor_sp"], ba["repair"]["total_sp"], ba["repair"]["tech_hours"]) == (
        5,
        5,
        3,
    )
    assert by_id["l1"]["fate"] == "truly_destroyed" and by_id["l1"]["side"] == "red"
    assert by_id["l1"]["scrap_wp"] == 2
    people = {p["id"]: p for p in report["people"]}
    assert people["p-t1"]["kills"] == 1 and people["p-t1"]["may_train"]
    assert people["p-l1"]["status"] == "dead"
