"""The house rules' acquisition in a TripWire campaign, through the installed console script:
``campaign new --house-rules`` -> the Griffin's two LRM-10 bins loaded with Swarm rounds -> day
1's battle empties them -> ``spend rearm`` refused until they are found -> ``spend acquire`` ->
``mekref report`` shows the offer -> ``spend rearm --bid`` buys it -> the offer is gone.
Rulings HOUSE-44 to HOUSE-47.

TripWire L272: "Ammo Dumps only have basic ammo types (AC, LAC, UAC, RAC, SRM, MRM, LRM, MG,
Gauss)." Swarm LRM rounds are not one of them (HOUSE-44); L87 prices them at 50 a ton ("Any ammo
types found in Tech Manual or TacOps"), so the two empty tons read 100 SP before the search.

Hand-read from the campaign's dice (seed "1"; the faces are in the report's dice table):
- search, uncommon, Logistics 6: target 6 + 1 = 7+ (L175, L177 "Uncommon Weapons | +1 |");
  2d6 2 2 = 4, margin -3: 2 bids (L197 "-3 to -5 | 2 |").
- bid 1: 1d6 1, lower (L203 "On a 1-2 the price is lower"); 3d6 6 4 3 = 13: -13 %. 50 WP/t
  +10 % (L173 "Uncommon Weapons | 8+ | +10% to base cost |") = 55, -13 % = 47.85 WP/t.
- bid 2: 1d6 1, lower; 3d6 3 2 2 = 7: 55 x 0.93 = 51.15 WP/t.
- ammo found, level 2: 2d6 2 6 = 8, x 0.5 = 4 t (L183), enough for the 2 t spent.
- the re-arm buys bid 1: 2 t x 47.85 = 95.7, rounded up once: 96 WP (HOUSE-46); the pool at
  the facility goes 1000 -> 904. A bargain rolls its 2d6 when bought (L206, HOUSE-23): 1 4 = 5,
  under 10, sound.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.mul_model import Entity, Location, Slot
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul
from mekref.daemon.exit_codes import REFUSED
from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records

ENGAGEMENT = "day1-1105-1"
SWARM = "IS Ammo LRM-10 Swarm"
#: The Griffin's two LRM-10 bins (its design: Right Torso, MUL location 2, slots 5 and 6), 12 shots
#: a ton.
RIGHT_TORSO = 2
BINS = (Slot(index=5, type=SWARM, shots=12), Slot(index=6, type=SWARM, shots=12))


def _with_bins(mul: bytes, shots: int) -> str:
    """``mul`` with the Griffin's LRM-10 bins holding ``shots`` Swarm rounds each; what the list
    says of the Right Torso otherwise is kept."""
    read = read_mul_bytes(mul)
    bins = tuple(replace(s, shots=shots) for s in BINS)

    def griffin(e: Entity) -> Entity:
        torso = next((loc for loc in e.locations if loc.index == RIGHT_TORSO), None)
        kept = tuple(s for s in (torso.slots if torso else ()) if s.index not in (5, 6))
        torso = replace(torso or Location(index=RIGHT_TORSO), slots=(*kept, *bins))
        others = tuple(loc for loc in e.locations if loc.index != RIGHT_TORSO)
        return replace(e, locations=(*others, torso))

    entities = tuple(griffin(e) if e.chassis == "Griffin" else e for e in read.entities)
    return write_mul(replace(read, entities=entities))


def test_swarm_rounds_are_found_then_bought_by_the_rearm(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R", "--house-rules")  # fmt: skip
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
    gid = griffin["id"]
    assert griffin["repair"]["rearm_sp"] == 100
    assert report["house_offers"] == []
    pool = "combat-systems-manufacturing-facility"  # the Griffin guards the facility, hex 1105

    refused = mekref("spend", "rearm", "--db", db, "--unit", gid, "--pool", pool)
    assert refused.returncode == REFUSED
    assert "not_found" in refused.stderr and "L272" in refused.stderr
    assert "mekref spend acquire --side loyalist" in refused.stderr

    said = " ".join(
        ok("spend", "acquire", "--db", db, "--side", "loyalist", "--pool", pool, "--item", SWARM,
           "--class", "uncommon", "--ammo-level", "2", "--logistics", "6").split()
    )  # fmt: skip
    assert "2d6 4 against 7+ (uncommon), margin -3: 2 bid(s)" in said
    assert "ammo found 2d6 8 at level 2: 4 t (L183)" in said
    assert "bid 1: 47.85 WP/t (-13%, 1d6 1); bid 2: 51.15 WP/t (-7%, 1d6 1)" in said

    report = json.loads(ok("report", "--db", db, "--json"))
    (offer,) = report["house_offers"]
    assert (offer["side"], offer["pool"], offer["item"], offer["tons"]) == (
        "loyalist", pool, SWARM, 4,
    )  # fmt: skip
    assert [(b["percent"], b["wp_per_ton"]) for b in offer["bids"]] == [
        (-13, "957/20"),
        (-7, "1023/20"),
    ]
    text = " ".join(ok("report", "--db", db).split())
    assert f"open offer: loyalist at pool {pool}: 4 t of {SWARM}" in text

    unchosen = mekref("spend", "rearm", "--db", db, "--unit", gid, "--pool", pool)
    assert unchosen.returncode == REFUSED and "choose_bid" in unchosen.stderr

    said = " ".join(
        ok("spend", "rearm", "--db", db, "--unit", gid, "--pool", pool,
           "--bid", f"{SWARM}=1").split()
    )  # fmt: skip
    assert f"bought 2 t of {SWARM}, bid 1 at 47.85 WP/t (a bargain: 2d6 5, under 10" in said
    assert "cost_sp=96" in said
    assert f"pool {pool} (Combat Systems Manufacturing Facility): 904 WP" in said

    report = json.loads(ok("report", "--db", db, "--json"))
    griffin = next(u for u in report["units"] if u["id"] == gid)
    assert griffin["repair"]["rearm_sp"] == 0
    assert report["house_offers"] == []
    assert [h["what"] for h in report["house_rules_log"]] == ["acquisition", "acquisition"]
    assert any(
        r["name"] == f"bargain damage, {SWARM}, bid 1" and r["faces"] == [1, 4]
        for r in report["dice"]
    )
