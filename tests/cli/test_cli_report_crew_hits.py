"""``report --json``'s ``units[].crew_hits`` is a vehicle's crew damage (``force list``'s
``crew_damage``); a pilot's hits are the person's, under ``people`` (docs/cli.md)."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref_fresh

EXAMPLE = Path(__file__).parents[1] / "fixtures" / "megamek" / "mekhq-Example.mul"


def test_a_pilots_hits_are_the_persons_not_the_units_crew_hits(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    for argv in (
        ("campaign", "new", "--db", db, "--name", "T", "--side", "a:A", "--side", "b:B"),
        ("force", "import", "--db", db, "--side", "a", str(EXAMPLE), "--unchecked",
         "--referee", "Ref", "--reason", "x"),
    ):  # fmt: skip
        run = mekref_fresh(*argv)
        assert run.returncode == 0, run.stderr
    report = json.loads(mekref_fresh("report", "--db", db, "--json").stdout)
    listed = json.loads(mekref_fresh("force", "list", "--db", db, "--json").stdout)
    people = {p["id"]: p for p in report["people"]}
    (knight,) = [u for u in listed if u["model"] == "BL-9-KNT"]
    (pilot,) = knight["crew"]
    assert (pilot["hits"], people[pilot["id"]]["hits"]) == (1, 1)
    (row,) = [u for u in report["units"] if u["id"] == knight["id"]]
    assert row["crew_hits"] == knight["crew_damage"] == 0
