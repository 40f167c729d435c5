"""Never a silent 0: a battle fought by units imported without a BV (no --bv-table) cannot be
scored. L417: "Each time a battle occurs victory points are gained or lost for each side per
formation involved in the battle", by the share of the enemy's BV destroyed (L419-L424); with no
BV that share is unknown, and the report says so instead of showing a plausible "+0"; the VP
end waits, and ``mekref battle bv`` records the BV, scoring the battle again (ruling R-VP-6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from console_script import mekref

PROJECT = Path(__file__).parents[2]


def test_a_battle_of_units_without_a_bv_has_vp_not_known_until_their_bv_is_recorded(
    tmp_path: Path,
) -> None:
    # The Ginestra demo on the skirmish sample imports the forces without a BV table and fights
    # one battle.
    done = mekref("report", "--db", str(_played(tmp_path)), "--json")
    assert done.returncode == 0, done.stderr
    (battle,) = json.loads(done.stdout)["battles"]
    # Alpha 4 and Bravo 4 (the wrecked Jenner is in both records).
    assert len(battle["units_without_bv"]) == 8
    text = mekref("report", "--db", str(tmp_path / "ginestra.db"))
    assert text.returncode == 0, text.stderr
    assert "lost ? of ? BV, VP not known" in " ".join(text.stdout.split())
    assert "VP not known: 8 unit(s) of this battle have no BV" in " ".join(text.stdout.split())
    overview = mekref("report", "--db", str(tmp_path / "ginestra.db"), "--overview")
    assert overview.returncode == 0, overview.stderr
    assert "VP not known" in overview.stdout
    # R-VP-6: not known is not 0. L414: "Once a force reaches 10 Victory Points the campaign is
    # over": the VP end is not decided on them, and the report says what to record.
    assert "loyalist not known (? + 4)" in " ".join(overview.stdout.split())
    ending = json.loads(done.stdout)["ending"]
    assert {x["side"]: (x["battle_vp"], x["total_vp"]) for x in ending["sides"]} == {
        "loyalist": (None, None),
        "rebel": (None, None),
    }
    assert "the 10-VP end (L414) cannot be told" in ending["unknown"]
    assert "mekref battle bv" in ending["unknown"]
    # L413 "When a force reaches 50% of its starting BV, it retires": not told on a partial sum.
    assert [x["retires"] for x in battle["sides"]] == [None, None]
    db = str(tmp_path / "ginestra.db")
    # L341 "The enemy outnumbers the attacker (attacker is 150% of defenders BV)" (R-RETREAT-1)
    # and the damage on BV (L342-L343): not decided on the partial sum either; exit 3.
    check = ("battle", "retreat-check", "--db", db, "--battle", battle["id"], "--side", "rebel")
    unknown = mekref(*check, "--json")
    assert unknown.returncode == 3, unknown.stderr
    answer = json.loads(unknown.stdout)
    assert answer["may_retreat"] is None
    assert answer["units_without_bv"] == battle["units_without_bv"]
    said = mekref(*check)
    assert said.returncode == 3 and "whether rebel may call a retreat is not known" in said.stderr
    assert "mekref battle bv --unit ID --bv N" in " ".join(said.stderr.split())
    _record_every_bv(db)
    known = mekref(*check, "--json")
    assert known.returncode == 0, known.stderr
    assert json.loads(known.stdout)["may_retreat"] is True  # the Jenner lost: 25% of its BV


def _record_every_bv(db: str) -> None:
    # R-VP-6: the referee records each unit's BV (on the map: held when it started, L412);
    # with the last one the battle scores again. L419: "| 25% of Enemy force destroyed | 1 |",
    # L422: "| 25% of friendly force destroyed | -1 |": the Jenner is one of the rebels' four.
    (battle,) = json.loads(mekref("report", "--db", db, "--json").stdout)["battles"]
    first, *rest = battle["units_without_bv"]
    refused = mekref("battle", "bv", "--db", db, "--unit", first, "--bv", "1000",
                     "--referee", "Ann", "--reason", "Units.txt")  # fmt: skip
    assert refused.returncode == 3 and "--held-at-start" in refused.stderr
    for unit in (first, *rest):
        done = mekref("battle", "bv", "--db", db, "--unit", unit, "--bv", "1000",
                      "--held-at-start", "--referee", "Ann", "--reason", "Units.txt")  # fmt: skip
        assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "scored again: loyalist +1, rebel -1" in said
    assert "battle VP now: loyalist 1, rebel 0" in said
    report = json.loads(mekref("report", "--db", db, "--json").stdout)
    assert report["victory_points"] == {"loyalist": 1, "rebel": 0}
    (battle,) = report["battles"]
    assert battle["units_without_bv"] == []
    assert {x["side"]: x["vp"] for x in battle["sides"]} == {"loyalist": 1, "rebel": -1}
    # The end by attrition is still not known: units of the sides that never fought lack a BV.
    assert "the 10-VP end" not in report["ending"]["unknown"]
    assert "the end by attrition (L412) cannot be told" in report["ending"]["unknown"]


def _played(out: Path) -> Path:
    # The Ginestra walk-through of `make demo` on the skirmish sample, in a process of its own,
    # from the project folder (it reads the fixture unit designs there).
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mekref.daemon.samples.ginestra.demo",
            "--out",
            str(out),
            "--sample",
            "skirmish",
        ],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out / "ginestra.db"
