"""``mekref battle correct --unit``: a unit's booked damage corrected by the referee's figures
(ruling BR-18, under the revised SG-7), through the installed console script.

The battle of ``fought_record``: the loyalist Griffin GRF-1N came back with 16 of its right
torso's 26 armour points (front and rear together) and 6 LRM shots fired. The referee finds
MegaMek's report says 6 points are left and corrects that one figure.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from fought_record import resolved_battle
from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_reader import read_mul_bytes

#: The repair's price follows this line, shared by the points lost (ruling R-COST-1).
L74 = "L74: | Repair ‘Mechs Entire Armor* # | Tonnage |"
REFEREE = ("--referee", "Ref", "--reason", "MegaMek's report shows 6 points left")


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return resolved_battle(tmp_path_factory.mktemp("correct-unit"))


def _copy(battle: dict[str, Any], tmp_path: Path) -> str:
    db = str(tmp_path / "g.db")
    shutil.copy(battle["db"], db)
    return db


def _griffin(report: dict[str, Any]) -> dict[str, Any]:
    [unit] = [u for u in report["units"] if u["chassis"] == "Griffin" and u["damage"]["locations"]]
    return unit


def _unit(report: dict[str, Any], unit_id: str) -> dict[str, Any]:
    [unit] = [u for u in report["units"] if u["id"] == unit_id]
    return unit


def _torso(entity_locations: Any) -> tuple[int | None, int | None]:
    [torso] = [loc for loc in entity_locations if loc.index == 2]
    return torso.armor, torso.rear


def test_ruling_br18_one_figure_corrected_is_priced_reported_and_exported(
    battle: dict[str, Any], tmp_path: Path
) -> None:
    """L74 prices the repair of the armour by tonnage, shared by the points lost (R-COST-1):
    the Griffin's right torso at 6 points left (20 of its 152 lost) costs ceil(55 x 20 / 152)
    = 8 SP; the re-arm stays as booked. Only the right torso changes."""
    assert "Tonnage" in L74
    db = _copy(battle, tmp_path)
    before = _griffin(battle["report"])
    # The torso's armour is front and rear together; the file said the rear is whole (T-X2).
    assert before["damage"]["locations"] == [
        {"name": "Right Torso", "armor": 16, "armor_max": 26, "rear": 6, "rear_max": 6,
         "internal": 13, "internal_max": 13}
    ]  # fmt: skip
    design = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
    total = sum((loc.armor or 0) + (loc.rear_armor or 0) for loc in design.locations)
    armor_sp = math.ceil(55 * 20 / total)
    fought = battle["battle"]
    said = ok("battle", "correct", "--db", db, "--battle", fought["id"][:11],
              "--unit", before["id"][:8], "--armor", "RT=6", *REFEREE)  # fmt: skip
    total_sp = armor_sp + before["repair"]["rearm_sp"]
    assert f"battle {fought['id']}: booked condition corrected (ruling SG-7)" in said, said
    assert (
        f"Griffin GRF-1N ({before['id'][:8]}): damage now armour lost 20, structure lost 0, "
        f"critical hits 0; repair {total_sp} SP (was {before['repair']['total_sp']} SP)"
    ) in said, said
    assert "Right Torso: armour 6/26, structure 13/13 (booked 16/26, 13/13)" in said, said
    report = json.loads(ok("report", "--db", db, "--json"))
    after = _griffin(report)
    assert after["repair"]["armor_sp"] == armor_sp == 8
    assert after["repair"]["total_sp"] == total_sp
    assert after["damage"]["locations"] == [{**before["damage"]["locations"][0], "armor": 6}]
    [row] = [b for b in report["battles"] if b["id"] == fought["id"]]
    assert any(r.startswith("line 74:") for o in row["units"] if o["id"] == after["id"]
               for r in o["repair_rules"])  # fmt: skip
    # The record of the battle and the next day's scenario export write the corrected torso:
    # 20 points lost, from the front's 20 first, the rear's 6 left (ruling T-X2).
    ok("battle", "export-record", "--db", db, "--battle", fought["id"],
       "--side", "loyalist", "-o", str(tmp_path))  # fmt: skip
    record = read_mul_bytes((tmp_path / f"{fought['id']}-loyalist-record.mul").read_bytes())
    [entity] = [e for e in record.entities if e.external_id == after["id"]]
    # The record writes a figure only where it differs from the design (the rear, at 6, not).
    assert _torso(entity.locations) == (0, None)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "2", "--order", "bravo:guard")
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2", "--order", "alpha:guard")
    ok("turn", "resolve", "--db", db, "--day", "2")
    out = tmp_path / "next"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out), "--format", "mul")
    written = [e for path in out.glob("*-loyalist.mul")
               for e in read_mul_bytes(path.read_bytes()).entities
               if e.external_id == after["id"]]  # fmt: skip
    assert [_torso(e.locations) for e in written] == [(0, 6)]


def test_a_location_is_named_by_megameks_name_or_short_name(
    battle: dict[str, Any], tmp_path: Path
) -> None:
    """The name as the report prints it (any case) and MegaMek's short name are the same
    location; an unknown one is refused naming the unit's locations (exit 3)."""
    db = _copy(battle, tmp_path)
    griffin = _griffin(battle["report"])
    args = ("battle", "correct", "--db", db, "--battle", battle["battle"]["id"])
    done = mekref(*args, "--unit", "Griffin GRF-1N", "--armor", "XT=6", *REFEREE)
    assert done.returncode == 3, done.stderr
    assert f"Griffin GRF-1N ({griffin['id'][:8]}) has no location 'XT'; its locations: Head " \
           "(HD), Center Torso (CT), Right Torso (RT)" in done.stderr  # fmt: skip
    done = mekref(*args, "--unit", "Griffin GRF-1N", "--armor", "right torso=26",
                  "--internal", "RT=13", *REFEREE)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Right Torso: armour 26/26, structure 13/13 (booked 16/26, 13/13)" in done.stdout
    after = _unit(json.loads(ok("report", "--db", db, "--json")), griffin["id"])
    assert after["damage"]["armor_lost"] == 0 and after["repair"]["armor_sp"] == 0


def test_refusals_say_why_and_change_nothing(battle: dict[str, Any], tmp_path: Path) -> None:
    """No --referee/--reason (exit 2); a figure out of range; a unit re-armed since the
    resolution: its booked condition no longer stands (ruling SG-7, exit 3)."""
    db = _copy(battle, tmp_path)
    griffin = _griffin(battle["report"])
    args = ("battle", "correct", "--db", db, "--battle", battle["battle"]["id"],
            "--unit", griffin["id"][:8])  # fmt: skip
    unsigned = mekref(*args, "--armor", "RT=6")
    assert unsigned.returncode == 2
    assert "a correction is the referee's word: add --referee NAME --reason TEXT" in unsigned.stderr
    bare = mekref(*args, *REFEREE)
    assert bare.returncode == 2 and "--unit needs the corrected figures" in bare.stderr
    high = mekref(*args, "--armor", "RT=27", *REFEREE)
    assert high.returncode == 3
    assert "Right Torso: armour left runs from 0 to 26, got 27" in high.stderr
    ok("spend", "rearm", "--db", db, "--unit", griffin["id"][:8],
       "--pool", "combat-systems-manufacturing-facility")  # fmt: skip
    late = mekref(*args, "--armor", "RT=6", *REFEREE)
    assert late.returncode == 3
    assert "its booked condition is not corrected: its condition changed since" in late.stderr
    report = json.loads(ok("report", "--db", db, "--json"))
    [fought] = [b for b in report["battles"] if b["id"] == battle["battle"]["id"]]
    assert _unit(report, griffin["id"])["damage"]["locations"][0]["armor"] == 16
    assert fought == battle["battle"]


def test_a_location_destroyed_by_hand_says_its_ammunition_stays_as_booked(
    battle: dict[str, Any], tmp_path: Path
) -> None:
    """BR-18: critical hits and ammunition have no hand form. The Griffin's right torso holds
    its LRM bins: destroyed by hand, the structure is priced (L75) and the output says the
    bins and the re-arm stay as booked, never silently."""
    db = _copy(battle, tmp_path)
    griffin = _griffin(battle["report"])
    said = ok("battle", "correct", "--db", db, "--battle", battle["battle"]["id"],
              "--unit", "Griffin GRF-1N", "--destroyed", "Right Torso", *REFEREE)  # fmt: skip
    assert "Right Torso: armour 0/26, structure 0/13 (booked 16/26, 13/13)" in said, said
    assert "note: Right Torso holds ammunition; its bins and the re-arm stay as booked" in said
    after = _unit(json.loads(ok("report", "--db", db, "--json")), griffin["id"])
    assert after["damage"]["destroyed_locations"] == ["Right Torso"]
    assert after["repair"]["internal_sp"] > 0
    assert after["repair"]["rearm_sp"] == griffin["repair"]["rearm_sp"]
