"""A TripWire campaign played with the house rules on, from ``campaign new --house-rules`` to
its end, through the installed ``mekref`` console script only: the Ginestra sample (the
Griffin's two LRM-10 bins loaded with Swarm rounds), battles fed back as MegaMek end-of-game
files built from the engagement exports (as in test_turn_campaign_endings_cli.py). Every house
rule that is an option of a TripWire campaign (docs/house-rules.md, HOUSE-31 to HOUSE-47) is
played on the way: pre-battle damage, morale, experience, acquisition and the maintenance check.

Hand-worked (seed "1"; BV from the endings tests' Units.txt; the dice are the report's):
1. Day 1: Bravo (Jenner 875, Marauder 1363, Atlas 1897, Shadow Hawk 1064: 5199) lands on the
   Manufacturing Facility (1105) held by Alpha: an assault.
2. Before the battle the Atlas's pre-battle damage (L134): count die 3, one roll (3 // 2); 3d6
   9 (L143 "One weapon is unusable"): the die picks the SRM 6, Left Torso slot 7 is hit, and the
   export says so. In turn 3 the Atlas tests its morale (L107): 2d6 6, -1 (Regular 0, Mercenary
   -1) = 5: fighting withdrawal.
3. The battle: the Atlas loses its centre torso (truly destroyed), the Griffin fires both Swarm
   tons. The rebels lost 1897 of 5199 (36.5%, >= 25%): loyalist +1 (L419). Every survivor of
   the battle, four loyalists and three rebels, gains 1 XP (L154); Dieter Lang, the Atlas's
   pilot, survives too (captured by the side that keeps the field): 8 gains.
4. The group's price (its own: the text prints none, HOUSE-24): Gunnery 4 -> 3 for 1 XP. Lt.
   Anna Ferri (the Griffin) buys it.
5. The Swarm rounds are not an Ammo Dump type (L272, HOUSE-44): the search (Logistics 6,
   uncommon: 7+) finds them, and the Griffin's re-arm buys 2 t at a bid's price.
6. Day 2: Alpha conducts maintenance (TripWire L199) where it stands; Bravo still stands at 1105:
   they meet again (T-E9). The Griffin takes the house maintenance check (L94, target 7 - 3).
   Day 2's export writes the Griffin's Gunnery 3 and its refilled Swarm bins.
7. The battle: the Marauder and the Shadow Hawk are truly destroyed: the rebels keep 8009 -
   1897 - 1363 - 1064 = 3685 of 8009 BV (46.0% < 50%) in operational or repairable units: the
   campaign ends by attrition (L412).
"""

from __future__ import annotations

from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, ok
from test_turn_campaign_endings_cli import (
    TRULY,
    _engagements,
    _export,
    _ingest,
    _names,
    _over,
    _report,
    battle_files,
)
from test_turn_endings_cli import BV_TABLE
from test_turn_house_acquisition_cli import SWARM, _with_bins

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.samples.ginestra import FOLDER

POOL = "combat-systems-manufacturing-facility"  # Alpha's, at 1105


def _unit(names: dict[str, tuple[str, str]], side: str, chassis: str) -> str:
    (uid,) = [u for u, (s, c) in names.items() if s == side and c == chassis]
    return uid


def _words(*args: str) -> str:
    return " ".join(ok(*args).split())


def _day_zero(tmp_path: Path) -> str:
    db = str(tmp_path / "g.db")
    (tmp_path / "Units.txt").write_text(BV_TABLE, encoding="utf-8")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R", "--house-rules")  # fmt: skip
    loyal = tmp_path / "loyalist.mul"
    loyal.write_text(_with_bins((FOLDER / "loyalist.mul").read_bytes(), 12), encoding="utf-8")
    for side, path in (("loyalist", loyal), ("rebel", FOLDER / "rebel.mul")):
        ok("force", "import", "--db", db, "--side", side, str(path), "--units-dir", str(UNITS),
           "--bv-table", str(tmp_path / "Units.txt"), "--unchecked", "--referee", "Ref",
           "--reason", "the sample forces")  # fmt: skip
    ok("turn", "setup", "--db", db)
    return db


def test_a_house_rules_campaign_from_day_zero_to_its_end(tmp_path: Path) -> None:
    db = _day_zero(tmp_path)
    names = _names(db)
    atlas, griffin = _unit(names, "rebel", "Atlas"), _unit(names, "loyalist", "Griffin")
    assert _report(db)["house_rules"] is True
    print(_words("report", "--db", db))

    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105",
       "--order", "r-militia:orbital_insertion::1712")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard", "--order", "l-guard:guard", "--order", "l-militia:guard")  # fmt: skip
    (engagement,) = _engagements(ok("turn", "resolve", "--db", db, "--day", "1"))
    assert engagement.startswith("day1-1105-")

    # L134: "Utilize the random damage table to represent units that have been engaged in
    # combat before the actual battle."
    print(_words("battle", "pre-damage", "--db", db, "--unit", atlas))
    _export(db, tmp_path)
    exported = read_mul_bytes((tmp_path / f"{engagement}-rebel.mul").read_bytes())
    (atlas_out,) = [e for e in exported.entities if e.chassis == "Atlas"]
    print(atlas_out.locations)
    # L107: "To test for morale roll 2d6, applying modifiers for unit skill, nationality and
    # situation."
    print(_words("battle", "morale", "--db", db, "--unit", atlas, "--battle", engagement,
                 "--turn", "3", "--nationality", "Mercenary"))  # fmt: skip

    files = battle_files(tmp_path, engagement, {"rebel:Atlas": (TRULY,)})
    loyal_record = Path(files[0])
    loyal_record.write_text(_with_bins(loyal_record.read_bytes(), 0), encoding="utf-8")
    out = _ingest(db, files)
    print(out)
    assert "the campaign has ended" not in out

    # L153: "... that experience may be spent on the piloting and gunnery skill"
    (tmp_path / "costs.toml").write_text("[gunnery]\n3 = 1\n2 = 5\n", encoding="utf-8")
    print(_words("spend", "xp-costs", "--db", db, "--file", str(tmp_path / "costs.toml")))
    report = _report(db)
    ferri = next(p["id"] for p in report["people"] if p["name"] == "Lt. Anna Ferri")
    print(_words("spend", "xp", "--db", db, "--person", ferri, "--skill", "gunnery"))

    # TripWire L272: "Ammo Dumps only have basic ammo types"; house rules L171: "When a unit
    # wishes to acquire equipment consult the following chart."
    print(_words("spend", "acquire", "--db", db, "--side", "loyalist", "--pool", POOL,
                 "--item", SWARM, "--class", "uncommon", "--ammo-level", "2",
                 "--logistics", "6"))  # fmt: skip
    print(_words("spend", "rearm", "--db", db, "--unit", griffin, "--pool", POOL,
                 "--bid", f"{SWARM}=1"))  # fmt: skip

    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2",
       "--order", "alpha:maintenance")  # fmt: skip
    day2 = ok("turn", "resolve", "--db", db, "--day", "2")
    print(day2)
    (again,) = _engagements(day2)
    assert again.startswith("day2-1105-")
    # L94: "Maintenance has a -3 TN modifier."
    print(_words("turn", "maintenance-check", "--db", db, "--unit", griffin, "--target", "7",
                 "--quality", "D"))  # fmt: skip
    _export(db, tmp_path / "day2")
    exported = read_mul_bytes((tmp_path / "day2" / f"{again}-loyalist.mul").read_bytes())
    (griffin_out,) = [e for e in exported.entities if e.chassis == "Griffin"]
    print(griffin_out.crew, griffin_out.locations)
    out = _ingest(db, battle_files(tmp_path / "day2", again, {
        "rebel:Marauder": (TRULY,), "rebel:Shadow Hawk": (TRULY,),
    }))  # fmt: skip
    reason = (
        "rebel fell below 50% of its starting BV: 3685 of 8009 BV (46.0%) in operational or "
        "repairable units"
    )
    assert f"the campaign has ended: {reason}" in out
    _over(db, reason, next_day=3)
    print(ok("report", "--db", db))
    assert mekref("report", "--db", db).returncode == 0
    assert 0
