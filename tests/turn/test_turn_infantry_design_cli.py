"""A conventional infantry platoon whose design the campaign keeps is priced and shown as known,
through the installed ``mekref`` console script on the legal Ginestra sample (its Foot Platoon
(Rifle) units are imported with the sample's units folder). A platoon's file gives no tonnage,
and no row of the cost table prices conventional infantry by tons: the kept design is what
makes its bill known. The sample has no Manticore file: the Manticores stay unpriced."""

from __future__ import annotations

import json
from pathlib import Path

from ginestra_cli import legal_day_zero, ok


def test_a_platoon_with_a_kept_design_is_priced_in_the_report(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    listed = json.loads(ok("force", "list", "--db", db, "--json"))
    listed_units = listed["units"] if isinstance(listed, dict) else listed
    platoons = [u for u in listed_units if u["chassis"] == "Foot Platoon"]
    assert platoons and all(u["design_known"] for u in platoons)

    report = json.loads(ok("report", "--db", db, "--json"))
    priced = {u["chassis"]: u["repair_priced"] for u in report["units"]}
    assert priced["Foot Platoon"] is True
    assert priced["Manticore Heavy Tank"] is False
    for u in report["units"]:
        if u["chassis"] == "Foot Platoon":
            assert u["repair_priced"] and u["repair"]["total_sp"] == 0

    text = ok("report", "--db", db)
    rows = [line for line in text.splitlines() if "Foot Platoon" in line]
    assert rows and not any("?" in line for line in rows)
    assert any("Manticore" in line and "?" in line for line in text.splitlines())
