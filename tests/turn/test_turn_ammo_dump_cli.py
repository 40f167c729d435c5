"""What the Ammo Dump's list does in a TripWire campaign without the house rules (ruling
R-AMMO-3 in docs/rulings.md), through the installed ``mekref`` console script.

L272: "Ammo Dump – Any standard ammo type can be purchased with WarChest points. ... Ammo Dumps
only have basic ammo types (AC, LAC, UAC, RAC, SRM, MRM, LRM, MG, Gauss)."
L87: "| Re-arm Unit (Advanced/Experimental, per ton of ammunition – Any ammo types found in Tech
Manual or TacOps) | 50 |"
"""

from __future__ import annotations

import json
from pathlib import Path

from ginestra_cli import UNITS, ok
from test_turn_house_acquisition_cli import ENGAGEMENT, _with_bins

from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records


def test_ruling_r_ammo_3_swarm_rounds_rearm_at_the_l87_price_without_a_search(
    tmp_path: Path,
) -> None:
    """The Griffin's two LRM-10 Swarm bins (not a basic type) are emptied in day 1's battle; in
    a campaign without ``--house-rules`` the re-arm buys them at once at L87's 50 a ton: 100 WP
    from the pool where the Griffin stands, no search, no offer."""
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    loyal = tmp_path / "loyalist.mul"
    loyal.write_text(_with_bins((FOLDER / "loyalist.mul").read_bytes(), 12), encoding="utf-8")
    for side, path in (("loyalist", loyal), ("rebel", FOLDER / "rebel.mul")):
        ok("force", "import", "--db", db, "--side", side, str(path), "--units-dir", str(UNITS),
           "--unchecked", "--referee", "Ref", "--reason", "x")  # fmt: skip
    ok("turn", "setup", "--db", db)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order", "alpha:guard")
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp_path / "out"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(UNITS))  # fmt: skip
    loyal_record, rebel_record = battle_records(out, ENGAGEMENT)
    loyal_record.write_text(_with_bins(loyal_record.read_bytes(), 0), encoding="utf-8")
    ok("battle", "ingest", "--db", db, str(loyal_record), str(rebel_record),
       "--control", "loyalist")  # fmt: skip
    report = json.loads(ok("report", "--db", db, "--json"))
    griffin = next(u for u in report["units"] if u["chassis"] == "Griffin")
    assert griffin["repair"]["rearm_sp"] == 100  # 2 t x 50 (L87)
    pool = "combat-systems-manufacturing-facility"
    said = " ".join(
        ok("spend", "rearm", "--db", db, "--unit", griffin["id"], "--pool", pool).split()
    )
    assert "cost_sp=100" in said
    report = json.loads(ok("report", "--db", db, "--json"))
    griffin = next(u for u in report["units"] if u["id"] == griffin["id"])
    assert griffin["repair"]["rearm_sp"] == 0
    assert "house_offers" not in report or report["house_offers"] == []
