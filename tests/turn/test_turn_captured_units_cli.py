"""Captured units and the repair day, played on the legal Ginestra sample through the installed
``mekref`` console script only (rulings T-F7 in docs/turn.md, R-WHERE-6 in docs/rulings.md).

Day 1: the rebels' bravo (Atlas, Marauder, Shadow Hawk, Jenner) lands on the Manufacturing
Facility (1105), where the loyalists' alpha stands. In the battle the Marauder loses both legs:
L137 "‘Mechs are immobile and can be salvaged if:" L139 "- The ‘Mech has no legs." The
loyalists hold the field (L136: they "take control of the the ‘Mech").

1. The Marauder leaves bravo when the battle resolves and stands in 1105; it is repaired there
   and formed into a formation there, never at Bagnorgeio (0508), 300 km away.
2. L178 "each separate formation can take one of the following Actions per standard day" and
   L198 "Reload/Repair/Rearm/Salvage – Players may spend WarChest points to repair units": its
   booked repair is worked only on a day its formation's order is repair. Ordered to guard, the
   work waits (and the report and the day say why) and the loyalists' ambush roll takes Guard's
   +4 (L281); ordered to repair, the work is done and there is no +4.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import test_turn_campaign_endings_cli as endings
from console_script import mekref
from ginestra_cli import legal_day_zero, legal_export, legal_ingest, ok
from test_turn_campaign_endings_cli import battle_files

from mekref.adapters.megamek.mul_model import Entity, Location, Section

FACILITY = "1105"
POOL = "combat-systems-manufacturing-facility"
LEGLESS = "legless"


def _after(e: Entity, what: str) -> Entity:
    """The endings tests' fates, and a 'Mech with both legs (6, 7) shot off (L139)."""
    if what != LEGLESS:
        return _plain_after(e, what)
    legs = tuple(Location(index=i, armor=0, internal=0, destroyed=True) for i in (6, 7))
    return replace(e, section=Section.SALVAGE, locations=legs)


_plain_after = endings._after


def _report(db: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(ok("report", "--db", db, "--json"))
    return report


def _unit(db: str, unit_id: str) -> dict[str, Any]:
    (unit,) = [u for u in _report(db)["units"] if u["id"] == unit_id]
    return unit


@pytest.fixture(scope="module")
def captured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The store after the day 1 battle, and the captured Marauder's id."""
    tmp = tmp_path_factory.mktemp("captured")
    db = legal_day_zero(tmp)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    day1 = ok("turn", "resolve", "--db", db, "--day", "1")
    assert "engagement day1-1105-1" in day1
    legal_export(db, tmp)
    endings._after = _after  # the battle_files helper writes what _after says
    try:
        out = legal_ingest(db, battle_files(tmp, "day1-1105-1", {"rebel:Marauder": (LEGLESS,)}))
    finally:
        endings._after = _plain_after
    assert "loyalist holds the field" in out
    (marauder,) = [u for u in _report(db)["units"] if u["fate"] == "captured"]
    assert (marauder["chassis"], marauder["side"], marauder["company"]) == (
        "Marauder", "loyalist", "Salvage")  # fmt: skip
    return Path(db), marauder["id"]


def _copy(captured: tuple[Path, str], tmp_path: Path) -> str:
    db = tmp_path / "c.db"
    shutil.copyfile(captured[0], db)
    return str(db)


def test_a_captured_unit_stays_where_the_battle_was(
    captured: tuple[Path, str], tmp_path: Path
) -> None:
    db, mad = _copy(captured, tmp_path), captured[1]
    # Out of the rebels' formation at once: it no longer moves with bravo.
    rebels = ok("formation", "list", "--db", db, "--side", "rebel")
    after = rebels.split("bravo (Alpha Command Lance) in 1105, fatigue 0\n")[1].splitlines()
    bravo = [line.split(maxsplit=1)[1] for line in after[: next(
        i for i, line in enumerate(after) if not line.startswith("  "))]]  # fmt: skip
    assert bravo == ["Atlas AS7-D", "Shadow Hawk SHD-2H", "Jenner JR7-D"]
    assert mad not in rebels
    # Its captor repairs it where it stands: Alpha's technicians and the Facility's WP are in
    # 1105 (L58, L63), and its formation is yet to be made.
    paid = ok("spend", "repair", "--db", db, "--unit", mad, "--pool", POOL, "--task", "internal")
    assert f"at_hex={FACILITY}" in paid and "work_days=((2, 6),)" in paid
    assert "it is in no formation: form one of it in 1105 and order it to repair" in paid
    # 300 km away at Bagnorgeio, which the loyalists hold: refused, in one line (T-F7).
    far = mekref("formation", "create", "--db", db, "--side", "loyalist", "--day", "2",
                 "--id", "prize", "--unit", mad, "--hex", "0508")  # fmt: skip
    assert far.returncode != 0 and len(far.stderr.strip().splitlines()) == 1
    assert f"{mad} in 1105" in far.stderr and "not in 0508 (ruling T-F7)" in far.stderr
    assert "L137" in far.stderr
    here = ok("formation", "create", "--db", db, "--side", "loyalist", "--day", "2",
              "--id", "prize", "--unit", mad, "--hex", FACILITY)  # fmt: skip
    assert f"prize (prize) in {FACILITY}: {mad}" in here
    loyal = ok("formation", "list", "--db", db, "--side", "loyalist")
    assert f"prize (prize) in {FACILITY}" in loyal


def test_booked_repair_is_worked_only_on_the_formations_repair_day(
    captured: tuple[Path, str], tmp_path: Path
) -> None:
    db, mad = _copy(captured, tmp_path), captured[1]
    ok("spend", "repair", "--db", db, "--unit", mad, "--pool", POOL, "--task", "internal")
    ok("formation", "create", "--db", db, "--side", "loyalist", "--day", "2", "--id", "prize",
       "--unit", mad, "--hex", FACILITY)  # fmt: skip
    assert "waits unless prize is ordered to repair" in _unit(db, mad)["repair_waits"]
    # The same day twice from here (the same dice): once guarding, once repairing.
    guard, repair = db, str(tmp_path / "repair.db")
    shutil.copyfile(db, repair)
    totals = {}
    for store, action in ((guard, "guard"), (repair, "repair")):
        ok("orders", "submit", "--db", store, "--side", "loyalist", "--day", "2",
           "--order", f"prize:{action}")  # fmt: skip
        waits = _unit(store, mad)["repair_waits"]
        if action == "guard":
            assert waits.startswith("day 2: waits: prize's order is guard, not repair (L178")
            text = ok("report", "--db", store)
            assert "Marauder MAD-3R: day 2: waits: prize's order is guard" in text
        else:
            assert waits is None
        day2 = " ".join(ok("turn", "resolve", "--db", store, "--day", "2").split())
        state = json.loads(ok("game", "state", "--db", store, "--json"))["state"]["strategic"]
        (engagement,) = [e for e in state["engagements"] if e["engagement_id"] == "day2-1105-1"]
        assert "prize" in engagement["formations"]
        totals[action] = dict(engagement["ambush_totals"])
        unit = _unit(store, mad)
        if action == "guard":
            assert (
                "prize: the booked work on Marauder MAD-3R waits: prize's order for day 2 was "
                "guard, not repair (L178" in day2
            )
            assert "now ready day 3" in day2
            assert unit["repair_ready_day"] == 3
            assert unit["repair_work"] == [{"day": 3, "hours": 6}]
        else:
            assert "prize: repair: the technicians worked the booked hours (Marauder MAD-3R " in (
                day2
            )
            assert unit["repair_ready_day"] is None and unit["repair_work"] == []
    # L281: "Forces at “Guard” receive a +4 to their ambush roll": not a formation repairing.
    assert totals["guard"]["loyalist"] == totals["repair"]["loyalist"] + 4
    assert totals["guard"]["rebel"] == totals["repair"]["rebel"]


def test_retreat_check_reads_a_resolved_battle_as_it_stood(
    captured: tuple[Path, str], tmp_path: Path
) -> None:
    # L340-L343: "A retreat may only be called if: ... The enemy force has suffered 25% damage
    # (on BV) ... The players force has suffered 25% damage (on BV)". Ruling BR-16: the resolved
    # battle is read as it stood, the captured Marauder (1363 of bravo's 5199, 26.2%) still the
    # rebels' loss, never the loyalists' unit it became after the battle.
    db = _copy(captured, tmp_path)
    (battle,) = _report(db)["battles"]
    lines = {}
    for side in ("rebel", "loyalist"):
        answer = json.loads(ok("battle", "retreat-check", "--db", db, "--battle", battle["id"],
                               "--side", side, "--json"))  # fmt: skip
        lines[side] = [c["line"] for c in answer["conditions"]]
    assert lines == {"rebel": [343], "loyalist": [342]}
