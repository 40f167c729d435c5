"""The house rules' random pre-battle damage in a TripWire campaign, through the installed console
script: ``campaign new --house-rules`` -> force import -> turn setup -> day 1 (an engagement) ->
``battle pre-damage`` -> ``mekref report`` shows it -> ``engagement export`` carries it.
Rulings HOUSE-31 to HOUSE-34.

House rules L134: "Utilize the random damage table to represent units that have been engaged in
combat before the actual battle. For each unit roll 1d6 and divide the result by 2 rounding down.
This result is the number of times to roll on the Random Damage Table for that unit. Roll 3d6 when
consulting the Random Damage Table."

Hand-read from the campaign's dice (seed "2"; the faces are the report's dice table): the
Griffin's count die is a 6, three rolls (6 // 2):
- 9, L143: "One weapon is unusable. Determine at random if more than one." The die picks the
  PPC (Right Arm slot 5): its slot is hit (HOUSE-33).
- 5, L139: "20 points of damage applied in 5 point clusters using the front hit location
  table." Four clusters of 5: Right Leg twice, Left Leg, Left Arm; armour only (HOUSE-31).
- 12, L146: "Two heat sinks damaged." The Griffin has one heat sink with a critical slot (Center
  Torso slot 11): it is hit; the other is in the engine, so the referee applies it (a note).
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.exit_codes import REFUSED

ENGAGEMENT = "day1-1105-1"
GRIFFIN = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")


def test_pre_battle_damage_reaches_the_report_and_the_next_export(tmp_path: Path) -> None:
    db = day_zero(tmp_path, seed="2", house_rules=True)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order", "alpha:guard")
    ok("turn", "resolve", "--db", db, "--day", "1")
    before = json.loads(ok("report", "--db", db, "--json"))
    assert before["house_rules"] is True
    griffin_id = next(u["id"] for u in before["units"] if u["chassis"] == "Griffin")

    out = " ".join(ok("battle", "pre-damage", "--db", db, "--unit", griffin_id).split())
    assert "count die 6: 3 roll(s) on the Random Damage Table" in out
    assert "3d6 9 (L143): One weapon is unusable." in out
    assert "3d6 5 (L139): 20 points of damage applied in 5 point clusters" in out
    assert "3d6 12 (L146): Two heat sinks damaged." in out
    assert "1 heat sink(s) damaged (L141/L146): none left with a critical slot" in out
    assert "Right Arm slot 5 (PPC) critical hit" in out
    assert "Center Torso slot 11 (Heat Sink) critical hit" in out
    assert "now damaged" in out

    report = json.loads(ok("report", "--db", db, "--json"))
    griffin = next(u for u in report["units"] if u["id"] == griffin_id)
    assert griffin["fate"] == "damaged"
    lost = {
        loc["name"]: (loc["armor_max"] - loc["armor"], loc["internal_max"] - loc["internal"])
        for loc in griffin["damage"]["locations"]
    }
    assert lost == {"Right Leg": (10, 0), "Left Leg": (5, 0), "Left Arm": (5, 0)}
    assert [(s["location"], s["slot"], s["item"]) for s in griffin["damage"]["slots"]] == [
        ("Right Arm", 5, "PPC"),
        ("Center Torso", 11, "Heat Sink"),
    ]
    assert griffin["repair"]["armor_sp"] > 0
    text = " ".join(ok("report", "--db", db).split())
    assert "house rules: on" in text
    assert "Right Arm slot 5 (PPC)" in text
    # The rolls in words and the note left for the referee, in the report's house-rules log.
    assert f"pre-battle damage of {griffin_id[:8]}: count die 6: 3 roll(s)" in text
    (logged,) = report["house_rules_log"]
    assert logged["unit"] == griffin_id and logged["what"] == "pre-battle damage"
    assert any("none left with a critical slot" in line for line in logged["lines"])
    # Every die is named and in the report's dice table (the kernel's named dice).
    assert any(
        r["name"] == f"random damage count, unit {griffin_id}" and r["total"] == 6
        for r in report["dice"]
    )

    out_dir = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out_dir))
    mul = read_mul_bytes((out_dir / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    (entity,) = [e for e in mul.entities if e.external_id == griffin_id]
    condition = merge_condition(entity, GRIFFIN)
    exported = {loc.name: loc.armor_lost for loc in condition.locations if loc.armor_lost}
    assert exported == {"Right Leg": 10, "Left Leg": 5, "Left Arm": 5}
    right_arm = entity.location(4)
    center = entity.location(1)
    assert right_arm is not None and center is not None
    assert [(s.index, s.is_hit) for s in right_arm.slots] == [(5, True)]
    assert [(s.index, s.is_hit) for s in center.slots] == [(11, True)]


def test_a_campaign_without_the_house_rules_refuses_pre_battle_damage(tmp_path: Path) -> None:
    db = day_zero(tmp_path, seed="2")
    report = json.loads(ok("report", "--db", db, "--json"))
    assert report["house_rules"] is False
    unit = report["units"][0]["id"]
    done = mekref("battle", "pre-damage", "--db", db, "--unit", unit)
    assert done.returncode == REFUSED
    assert "no_house_rules" in done.stderr and "L134" in done.stderr
    assert "mekref campaign new --house-rules" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_morale_test_through_the_console_script(tmp_path: Path) -> None:
    """House rules L107: "To test for morale roll 2d6, applying modifiers for unit skill,
    nationality and situation. On a result of 2 or less they route, ... If a unit gets a result
    of less than 2 or greater than 12, the unit no longer makes morale checks." (HOUSE-35)

    The Griffin's pilot, Lt. Anna Ferri, has Piloting 5 and Gunnery 4: combined 9, Regular (L162
    "Regular | 5 | 4 | 8 or 9 |", +0). Steiner +0; Pirate -2; Force at 75% casualties -2, Hit
    with Cruise Missile -2, Force commander incapacitated/dead -2, Lance/Star/Level I
    incapacitated/dead -2.

    From the campaign's dice (seed "2"): turn 3 rolls 3, +0 = 3, fighting withdrawal (3-5);
    turn 4 rolls 7, -10 = -3, a rout, and below 2: no more checks in that battle."""
    db = day_zero(tmp_path, seed="2", house_rules=True)
    report = json.loads(ok("report", "--db", db, "--json"))
    griffin = next(u["id"] for u in report["units"] if u["chassis"] == "Griffin")
    base = ("battle", "morale", "--db", db, "--unit", griffin, "--battle", "day1-1105-1")
    out = ok(*base, "--turn", "3", "--nationality", "Steiner")
    assert out.strip() == (
        f"{griffin} morale (day1-1105-1, turn 3): 2d6 3 +0 (Regular, Steiner) = 3: "
        "fighting withdrawal"
    )
    keys = ("force_75", "cruise_missile", "force_commander_out", "lance_commander_out")
    worst = tuple(a for k in keys for a in ("--situation", k))
    out = ok(*base, "--turn", "4", "--nationality", "Pirate", *worst)
    assert "2d6 7 -10 (Regular, Pirate, cruise_missile, force_75, force_commander_out," in out
    assert "= -3: rout; it makes no more morale checks in this battle" in " ".join(out.split())
    done = mekref(*base, "--turn", "5", "--nationality", "Steiner")
    assert done.returncode == REFUSED and "no_more_morale" in done.stderr and "L107" in done.stderr
    # Its next battle tests it again (HOUSE-35).
    ok("battle", "morale", "--db", db, "--unit", griffin, "--battle", "day2-0508-1",
       "--turn", "1", "--nationality", "Steiner")  # fmt: skip
    report = json.loads(ok("report", "--db", db, "--json"))
    assert [h["what"] for h in report["house_rules_log"]] == ["morale", "morale", "morale"]
    dice = report["dice"]
    assert [d["name"] for d in dice if d["name"].startswith("morale test")][:2] == [
        f"morale test, unit {griffin}, turn 3",
        f"morale test, unit {griffin}, turn 4",
    ]
