"""Day Zero to a missed maintenance, through the installed console script: the critical hits
rolled on day 7 are on the units in ``mekref report`` (damage and repair bill) and in the next
``mekref engagement export`` (the unit lists read back with the project's MUL reader, and the
scenario file). Rulings T-DM1 to T-DM3.

L199: "Maintenance – One day in every 7 days of operation standard maintenance must be
conducted (6 hours per unit). If this is not done, roll for location (using front) and roll a
critical hit (2 if a floating grit is rolled). this can be ignored by the Rugged quirk."

Hand-worked from the campaign's dice (seed "4"; the faces are the report's dice table):
- Day 1: the rebels' bravo lands on alpha in 1105: a meeting engagement, set up again every day
  the two stand there (T-E7). Nobody orders Maintenance, so on day 7 every formation has gone
  seven days without it.
- Locust LCT-1V (alpha): location 1+1 = 2, Center Torso and the floating critical, so two
  critical rolls: 2+6 = 8 (one critical, Determining Critical Hits Table 8-9) and 1+6 = 7 (none).
  The Center Torso has 12 slots: half 2 (upper, slots 1-6), slot 4: the Gyro.
- Wolverine WVR-6R (alpha): location 2+3 = 5, Right Leg; critical 2+6 = 8, one. Half 4 (lower)
  slot 2 is slot 8, empty: roll again; half 3 (upper) slot 6: the Jump Jet.
- Jenner JR7-D (bravo): location 3+3 = 6, Right Torso; critical 4+6 = 10, two. Its Right Torso
  holds two Jump Jets and the SRM-4 ammunition, the rest empty: rolls again until slot 3 (the
  ammunition bin: emptied, not exploded, T-DM3) and slot 1 (a Jump Jet).
- The bill: a critical is the "Repair Internal Structure/Criticals" task (L70, 6 hours, no SP of
  its own: R-REPAIR-2), which needs a repair facility (L277); the Jenner's lost ton of SRM
  ammunition re-arms at 5 SP (L84) and 1 hour (L67): 7 hours.
"""

from __future__ import annotations

import json
from pathlib import Path

from ginestra_cli import UNITS, day_zero, ok

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import SystemKind, UnitDesign
from mekref.adapters.megamek.mms_check import parse_mms
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_reader import read_mul_bytes

ENGAGEMENT = "day7-1105-1"


def _design(name: str) -> UnitDesign:
    return parse_mtf((UNITS / f"{name}.mtf").read_text(encoding="utf-8"), name)


def test_a_missed_maintenance_reaches_the_report_and_the_next_export(tmp_path: Path) -> None:
    db = day_zero(tmp_path, seed="4")
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order", "alpha:guard")
    for day in range(1, 7):
        out = ok("turn", "resolve", "--db", db, "--day", str(day))
        assert "(maintenance)" not in out, day
    out = ok("turn", "resolve", "--db", db, "--day", "7")
    assert "Center Torso slot 4 (gyro) critical hit" in out
    assert "Right Leg slot 6 (Jump Jet) critical hit" in out
    assert "Right Torso slot 3 (IS Ammo SRM-4) critical hit; Right Torso slot 1 (Jump Jet)" in out

    report = json.loads(ok("report", "--db", db, "--json"))
    units = {u["chassis"]: u for u in report["units"]}
    locust, wolverine, jenner = units["Locust"], units["Wolverine"], units["Jenner"]
    assert locust["fate"] == "damaged" and locust["damage"]["critical_hits"] == 1
    assert [(s["location"], s["slot"], s["system"]) for s in locust["damage"]["slots"]] == [
        ("Center Torso", 4, "gyro")
    ]
    assert locust["repair"] == {
        "armor_sp": 0, "internal_sp": 0, "rearm_sp": 0, "total_sp": 0, "tech_hours": 6,
        "repairable": True, "needs_repair_facility": True,
    }  # fmt: skip
    assert [(s["location"], s["slot"], s["item"]) for s in wolverine["damage"]["slots"]] == [
        ("Right Leg", 6, "Jump Jet")
    ]
    assert [(s["location"], s["slot"], s["item"]) for s in jenner["damage"]["slots"]] == [
        ("Right Torso", 3, "IS Ammo SRM-4"),
        ("Right Torso", 1, "Jump Jet"),
    ]
    assert (jenner["repair"]["rearm_sp"], jenner["repair"]["tech_hours"]) == (5, 7)
    assert units["Griffin"]["fate"] == "operational" and units["Griffin"]["damage"]["slots"] == []
    text = ok("report", "--db", db)
    assert "Center Torso slot 4 (gyro)" in " ".join(text.split())

    out_dir = tmp_path / "out"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out_dir))
    loyal = read_mul_bytes((out_dir / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    rebel = read_mul_bytes((out_dir / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    by_id = {e.external_id: e for e in (*loyal.entities, *rebel.entities)}
    gyro = merge_condition(by_id[locust["id"]], _design("Locust LCT-1V"))
    assert gyro.hits(SystemKind.GYRO) == 1 and gyro.internal_lost == 0 and gyro.armor_lost == 0
    wolf = by_id[wolverine["id"]].location(6)  # Right Leg
    assert wolf is not None
    assert [(s.index, s.is_hit, s.is_destroyed) for s in wolf.slots] == [(6, True, True)]
    rt = by_id[jenner["id"]].location(2)  # Right Torso
    assert rt is not None
    assert [(s.index, s.type, s.shots, s.is_hit) for s in rt.slots] == [
        (1, "Jump Jet", None, True),
        (3, "IS Ammo SRM-4", 0, True),
    ]
    scenario = parse_mms((out_dir / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    keys = {scenario.get(k): k.removesuffix("_ExternalID") for k in scenario.values
            if k.endswith("_ExternalID")}  # fmt: skip
    assert scenario.get(f"{keys[locust['id']]}_CritHit") == "1:4"
    assert scenario.get(f"{keys[wolverine['id']]}_CritHit") == "6:6"
    # The emptied bin goes out as ammunition 0, never as a critical hit MegaMek would explode.
    assert scenario.get(f"{keys[jenner['id']]}_CritHit") == "2:1"
    assert scenario.get(f"{keys[jenner['id']]}_SetAmmoTo") == "2:3-0"
