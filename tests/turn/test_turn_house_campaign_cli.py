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
   the battle gains 1 XP (L154): Alpha's four pilots and Bravo's four, Dieter Lang, the Atlas's
   pilot, included (captured by the side that keeps the field, he survived): 8 gains.
4. The group's price (its own: the text prints none, HOUSE-24): Gunnery 4 -> 3 for 1 XP. Lt.
   Anna Ferri (the Griffin) buys it.
5. The Swarm rounds are not an Ammo Dump type (L272, HOUSE-44): the search (Logistics 6,
   uncommon: 7+) rolls 2d6 6, margin -1: 3 bids (L198); level 2 ammo found: 2d6 8 x 0.5 = 4 t
   (L183). Bid 1: 1d6 1 (lower), -10%: 50 WP/t (L87) + 10% (L173) = 55, -10% = 49.5 WP/t. The
   Griffin's re-arm buys its 2 t at bid 1: 99 WP, the pool 1000 -> 901; the bargain's 2d6 9 is
   under 10 (L206): sound.
6. Day 2: Alpha conducts maintenance (TripWire L199) where it stands; Bravo still stands at 1105:
   they meet again (T-E9). The Griffin takes the house maintenance check (L94): grade D, target
   7 - 3 = 4, 2d6 8, margin +4; D's good effect needs 5 + 1 = 6: the grade stays D, no damage.
   Day 2's export writes the Griffin's Gunnery 3 and its refilled Swarm bins.
7. The battle: the Marauder and the Shadow Hawk are truly destroyed: the rebels keep 8009 -
   1897 - 1363 - 1064 = 3685 of 8009 BV (46.0% < 50%) in operational or repairable units: the
   campaign ends by attrition (L412).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, ok
from scenario_files import assert_playable_scenarios
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

    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105",
       "--order", "r-militia:orbital_insertion::1712")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order",
       "alpha:guard", "--order", "l-guard:guard", "--order", "l-militia:guard")  # fmt: skip
    (engagement,) = _engagements(ok("turn", "resolve", "--db", db, "--day", "1"))
    assert engagement.startswith("day1-1105-")

    # L134: "Utilize the random damage table to represent units that have been engaged in
    # combat before the actual battle." L143: "One weapon is unusable."
    said = _words("battle", "pre-damage", "--db", db, "--unit", atlas)
    assert "count die 3: 1 roll(s) on the Random Damage Table" in said
    assert "3d6 9 (L143): One weapon is unusable." in said
    assert "Left Torso slot 7 (SRM 6) critical hit" in said
    _export(db, tmp_path)
    exported = read_mul_bytes((tmp_path / f"{engagement}-rebel.mul").read_bytes())
    (atlas_out,) = [e for e in exported.entities if e.chassis == "Atlas"]
    (torso,) = [loc for loc in atlas_out.locations if loc.name == "Left Torso"]
    # The hit slot, and the bins beside it at the standard load recorded at import from the
    # design (the sample list writes no <slot> lines).
    assert [(s.index, s.type, s.is_hit, s.shots) for s in torso.slots] == [
        (7, "SRM 6", True, None),
        (9, "IS Ammo LRM-20", False, 6),
        (10, "IS Ammo LRM-20", False, 6),
        (11, "IS Ammo SRM-6", False, 15),
    ]
    # L107: "To test for morale roll 2d6, applying modifiers for unit skill, nationality and
    # situation. ... 3-5 fighting withdrawal"
    said = _words("battle", "morale", "--db", db, "--unit", atlas, "--battle", engagement,
                  "--turn", "3", "--nationality", "Mercenary")  # fmt: skip
    assert "2d6 6 -1 (Regular, Mercenary) = 5: fighting withdrawal" in said

    files = battle_files(tmp_path, engagement, {"rebel:Atlas": (TRULY,)})
    loyal_record = Path(files[0])
    loyal_record.write_text(_with_bins(loyal_record.read_bytes(), 0), encoding="utf-8")
    out = _ingest(db, files)
    assert "the campaign has ended" not in out
    # L154: "Mechwarriors gain 1 experience point for each battle that they survive through."
    assert out.count("+1 XP (L154") == 8
    assert "Dieter Lang (" in out  # the Atlas's pilot, captured: he survived (HOUSE-36)

    # L153: "... that experience may be spent on the piloting and gunnery skill"; the price is
    # the group's (HOUSE-24).
    (tmp_path / "costs.toml").write_text("[gunnery]\n3 = 1\n2 = 5\n", encoding="utf-8")
    ok("spend", "xp-costs", "--db", db, "--file", str(tmp_path / "costs.toml"))
    ferri = next(p["id"] for p in _report(db)["people"] if p["name"] == "Lt. Anna Ferri")
    said = _words("spend", "xp", "--db", db, "--person", ferri, "--skill", "gunnery")
    assert "Lt. Anna Ferri" in said and "Gunnery 4 -> 3 for 1 XP (the group's 1), 0 XP left" in said

    # TripWire L272: "Ammo Dumps only have basic ammo types"; house rules L171: "When a unit
    # wishes to acquire equipment consult the following chart." L173: "| Uncommon Weapons | 8+ |
    # +10% to base cost |"; L198: "| 0 to -2 | 3 |" bids.
    refused = mekref("spend", "rearm", "--db", db, "--unit", griffin, "--pool", POOL)
    assert refused.returncode == 3 and "L272" in refused.stderr, refused.stderr
    said = _words("spend", "acquire", "--db", db, "--side", "loyalist", "--pool", POOL,
                  "--item", SWARM, "--class", "uncommon", "--ammo-level", "2",
                  "--logistics", "6")  # fmt: skip
    assert "2d6 6 against 7+ (uncommon), margin -1: 3 bid(s)" in said
    assert "ammo found 2d6 8 at level 2: 4 t (L183)" in said
    assert "bid 1: 49.5 WP/t (-10%, 1d6 1)" in said  # 50 x 1.10 = 55, -10%
    said = _words("spend", "rearm", "--db", db, "--unit", griffin, "--pool", POOL,
                  "--bid", f"{SWARM}=1")  # fmt: skip
    assert f"bought 2 t of {SWARM}, bid 1 at 49.5 WP/t (a bargain: 2d6 9, under 10: sound" in said
    assert "cost_sp=99" in said and "901 WP" in said  # 2 t x 49.5

    # TripWire L199: "One day in every 7 days of operation standard maintenance must be
    # conducted"; house rules L94: "Maintenance has a -3 TN modifier. Add 1 to the MOS target
    # for all good effects on the Maintenance Check Table."
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2",
       "--order", "alpha:maintenance")  # fmt: skip
    day2 = ok("turn", "resolve", "--db", db, "--day", "2")
    assert "alpha: maintenance conducted; with the house rules each of its units takes" in day2
    (again,) = _engagements(day2)
    assert again.startswith("day2-1105-")
    said = _words("turn", "maintenance-check", "--db", db, "--unit", griffin, "--target", "7",
                  "--quality", "D")  # fmt: skip
    assert "2d6 8 vs TN 4 (base 7, -3 by L94): margin +4; good effect needs margin +6" in said
    assert "quality stays D; no damage" in said
    _export(db, tmp_path / "day2")
    exported = read_mul_bytes((tmp_path / "day2" / f"{again}-loyalist.mul").read_bytes())
    (griffin_out,) = [e for e in exported.entities if e.chassis == "Griffin"]
    assert [(m.name, m.gunnery, m.piloting) for m in griffin_out.crew.members] == [
        ("Lt. Anna Ferri", 3, 5)
    ]
    (torso,) = [loc for loc in griffin_out.locations if loc.name == "Right Torso"]
    assert [(s.index, s.type, s.shots) for s in torso.slots] == [(5, SWARM, 12), (6, SWARM, 12)]

    out = _ingest(db, battle_files(tmp_path / "day2", again, {
        "rebel:Marauder": (TRULY,), "rebel:Shadow Hawk": (TRULY,),
    }))  # fmt: skip
    reason = (
        "rebel fell below 50% of its starting BV: 3685 of 8009 BV (46.0%) in operational or "
        "repairable units"
    )
    assert f"the campaign has ended: {reason}" in out
    _over(db, reason, next_day=3)
    report = _report(db)
    experience = {p["name"]: (p["xp"], p["spent"]) for p in report["house_experience"]["people"]}
    assert {n: experience[n] for n in ("Lt. Anna Ferri", "Giulia Conti", "Capt. Luca Moretti",
                                       "Dieter Lang", "Hptm. Elsa Voss")} == {
        "Lt. Anna Ferri": (1, 1), "Giulia Conti": (2, 0), "Capt. Luca Moretti": (0, 0),
        "Dieter Lang": (1, 0), "Hptm. Elsa Voss": (2, 0),
    }  # fmt: skip
    assert [(q["unit"], q["grade"]) for q in report["house_quality"]] == [(griffin, "D")]
    assert [h["what"] for h in report["house_rules_log"]] == [
        "pre-battle damage", "morale", "acquisition", "acquisition", "maintenance check",
    ]  # fmt: skip


def test_the_house_rules_demo_of_make_demo_plays(tmp_path: Path) -> None:
    # `make demo` runs it: a new user sees every house rule of a TripWire campaign at work.
    done = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.samples.ginestra.house_demo", "--out",
         str(tmp_path)],
        cwd=Path(__file__).parents[2], capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "count die 6: 3 roll(s) on the Random Damage Table" in said  # L134
    assert "= 1: rout; it makes no more morale checks in this battle" in said  # L107
    assert said.count("+1 XP (L154, survived battle") >= 8
    assert "Gunnery 4 -> 3 for 1 XP (the group's 1), 0 XP left" in said
    assert "quality D -> E (better)" in said  # L94
    assert assert_playable_scenarios(tmp_path) >= 1  # every scenario it writes plays as intended
