"""The house rules' experience in a TripWire campaign, through the installed console script:
``campaign new --house-rules`` -> day 1 (Bravo lands on the Facility Alpha guards) -> the
battle's MegaMek files ingested -> every survivor "+1 XP (L154)" in the battle's output and in
``mekref report`` -> ``spend xp-costs`` (the group's prices) -> ``spend xp`` -> day 2's
``engagement export`` writes the new Gunnery. Rulings HOUSE-36 to HOUSE-38.

House rules L154: "Mechwarriors gain 1 experience point for each battle that they survive
through." L153: "... Once starting experience is determined that experience may be spent on the
piloting and gunnery skill and on special abilities as described below."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok
from test_turn_campaign_endings_cli import battle_files

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.exit_codes import REFUSED

#: The group's prices for this test (its own choice: the text prints none, HOUSE-24).
COSTS = """\
[gunnery]
3 = 1
2 = 5
"""


def _report(db: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(ok("report", "--db", db, "--json"))
    return report


def _export(db: str, out: Path) -> None:
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(UNITS))  # fmt: skip


def test_survivors_gain_xp_and_spend_it_on_the_exported_skill(tmp_path: Path) -> None:
    db = day_zero(tmp_path, seed="2", house_rules=True)
    report = _report(db)
    ferri = next(p for p in report["people"] if p["name"] == "Lt. Anna Ferri")
    assert report["house_experience"]["costs"] == []
    xp = {p["id"]: (p["xp"], p["spent"]) for p in report["house_experience"]["people"]}
    assert xp[ferri["id"]] == (0, 0)  # imported: her MegaMek skills, no XP (HOUSE-37)

    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order", "alpha:guard")
    day1 = ok("turn", "resolve", "--db", db, "--day", "1")
    assert "engagement day1-1105-1" in day1
    _export(db, tmp_path)
    files = battle_files(tmp_path, "day1-1105-1", {})  # every unit survives
    out = " ".join(
        ok("battle", "ingest", "--db", db, *files, "--control", "loyalist",
           "--units-dir", str(UNITS)).split()
    )  # fmt: skip
    assert f"Lt. Anna Ferri ({ferri['id']}): +1 XP (L154, survived battle" in out
    assert out.count("+1 XP (L154") == 8  # Alpha's four pilots and Bravo's four

    report = _report(db)
    people = {p["id"]: p for p in report["house_experience"]["people"]}
    assert (people[ferri["id"]]["xp"], people[ferri["id"]]["gunnery"]) == (1, 4)
    assert sum(p["xp"] for p in people.values()) == 8
    text = " ".join(ok("report", "--db", db).split())
    assert "experience (house rules L153-L154)" in text
    assert f"Lt. Anna Ferri ({ferri['id']}): +1 XP (L154" in text
    assert "XP costs: none entered yet: 'mekref spend xp-costs --file COSTS.toml'" in text

    # Before the group's prices: refused, saying how to enter them.
    spend = ("spend", "xp", "--db", db, "--person", ferri["id"], "--skill", "gunnery")
    done = mekref(*spend)
    assert done.returncode == REFUSED and "no_xp_costs" in done.stderr
    assert "mekref spend xp-costs --file" in done.stderr
    (tmp_path / "costs.toml").write_text(COSTS, encoding="utf-8")
    out = ok("spend", "xp-costs", "--db", db, "--file", str(tmp_path / "costs.toml"))
    assert "gunnery 4 -> 3: 1 XP" in out

    out = " ".join(ok(*spend).split())
    assert f"Lt. Anna Ferri ({ferri['id']}): Gunnery 4 -> 3 for 1 XP" in out
    assert "0 XP left" in out
    done = mekref(*spend)  # 3 -> 2 costs 5: short
    assert done.returncode == REFUSED and "not_enough_xp" in done.stderr
    assert "has 0 XP; gunnery 3 -> 2 costs 5" in done.stderr
    assert "L154: 'Mechwarriors gain 1 experience point" in done.stderr
    person = next(p for p in _report(db)["house_experience"]["people"] if p["id"] == ferri["id"])
    assert (person["gunnery"], person["xp"], person["spent"]) == (3, 0, 1)

    # Bravo still stands on the Facility: they meet again on day 2 (T-E9); the export writes
    # her new Gunnery.
    day2 = ok("turn", "resolve", "--db", db, "--day", "2")
    assert "engagement day2-1105-1" in day2
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(tmp_path / "day2"))
    mul = read_mul_bytes((tmp_path / "day2" / "day2-1105-1-loyalist.mul").read_bytes())
    crews = [m for e in mul.entities if e.crew for m in e.crew.members]
    (her,) = [m for m in crews if m.name == "Lt. Anna Ferri"]
    assert (her.gunnery, her.piloting) == (3, 5)
