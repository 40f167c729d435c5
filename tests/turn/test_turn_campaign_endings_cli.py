"""Each ending of a TripWire campaign, played on the Ginestra sample from Day Zero through the
installed ``mekref`` console script only: orders, the day resolved, the engagement exported for
MegaMek, the battle written back as MegaMek end-of-game files (built from the exported lists
with the project's MUL model and writer, so every entity keeps its externalId) and ingested.

BV (the test's own Units.txt, as in test_turn_endings_cli.py). Rebels: Jenner 875, Marauder
1363, Atlas 1897, Shadow Hawk 1064 (Bravo Lance 5199); Rebel Militia: 2 Bulldogs 2 x 722,
2 Maxims 2 x 600, 2 Foot Platoons 2 x 83 (2810). Rebels in all 8009. Loyalists: Griffin 1272,
Wolverine 1101, Shadow Hawk 1064, Locust 432 (Alpha Lance 3869); Loyalist Militia: 2 Bulldogs,
2 Maxims (2644); Government Guard: 2 Foot Platoons (166, the leader's escort, line 162);
Rapier 1500. Loyalists in all 8179.

1. Attrition (L412). Day 1: Bravo lands on the Manufacturing Facility (1105) held by Alpha.
   The battle: the Atlas, the Marauder and the Shadow Hawk lose their centre torso (truly
   destroyed), the Jenner gets away. Battle VP: the rebels lost 1897 + 1363 + 1064 = 4324 of
   5199 (83.2% >= 50%): loyalist +2, rebel -2 (floored at 0, L414). The rebels keep
   8009 - 4324 = 3685 BV in operational or repairable units: 3685 / 8009 = 46.0% < 50%: the
   battle ends the campaign by attrition.
2. 10 VP (L414). Day 1: Bravo lands on 1105 (Alpha), the Rebel Militia on Bagnorgeio (0508:
   the Loyalist Militia and the Guard with the leader). Both locations are opposed: loyalist
   strategic 0. Battle at 1105: the Atlas and the Marauder wrecked (3260 of 5199 = 62.7%):
   loyalist +2. Battle at 0508 (the Guard fights beside the militia: 2644 + 166 = 2810 on each
   side): the Bulldogs and the Maxims wrecked (2644 of 2810 = 94.1%): loyalist +2, battle VP 4.
   The referee moves the beaten militia back to 0509 (T-E7). Day 2: Bagnorgeio is held
   unopposed by six units with the leader in the seat: 1 + 2 = 3 strategic (total 7); Bravo
   still stands at 1105, so they meet again (T-E9). That battle: Bravo's list carries the two
   unrepaired wrecks, which stay wrecks, and the Shadow Hawk is wrecked too: 4324 of 5199 =
   83.2%: loyalist +2, battle VP 6, total 9. The referee moves Bravo back to 1106. Day 3: the
   Facility is Alpha's unopposed again: strategic 1 + 3 = 4, total 10: the campaign ends. Every
   wreck can be repaired, so the rebels keep 8009 BV (100%) and no other ending comes first.
3. Leader captured (L162, L413). Day 1: Bravo lands on its Forward Deployment Base (1712), the
   Rebel Militia on Bagnorgeio (0508). The battle: both loyalist Foot Platoons (the leader's
   escort) lose every trooper (truly destroyed) and a Maxim is wrecked: the loyalists lost
   83 + 83 + 600 = 766 of 2810 = 27.3% (>= 25%): rebel +1, loyalist -1 (floored at 0).
   Strategic: Alpha holds the Facility (loyalist 1), Bravo the Base (rebel 1). Loyalist BV
   8179 - 166 = 8013 (98.0%). The referee rules the leader captured and carried to the rebels'
   DropShip: the campaign ends.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok
from test_turn_endings_cli import BV_TABLE  # the endings tests' own Units.txt

from mekref.adapters.megamek.mul_model import Entity, Location, MulFile, RootKind, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul

#: What a battle did to a unit, as MegaMek writes it.
SURVIVED = "survived"  # in the survivors' section, untouched
WRECK = "wreck"  # left on the field, repairable: a 'Mech's right leg (6) gone, a tank's armour
TRULY = "truly"  # truly destroyed: a 'Mech's centre torso (1), every trooper (0)
_MEK = "Biped"
_INFANTRY = "Leg"


def _after(e: Entity, what: str) -> Entity:
    if what == SURVIVED:
        return replace(e, section=Section.SURVIVORS)
    if what == WRECK and e.movement_mode == _MEK:
        gone = Location(index=6, armor=0, internal=0, destroyed=True)
    elif what == WRECK and e.movement_mode != _INFANTRY:
        gone = Location(index=1, armor=0)  # front armour shot away, the structure whole
    elif what == TRULY and e.movement_mode == _MEK:
        gone = Location(index=1, armor=0, internal=0, destroyed=True)
    elif what == TRULY and e.movement_mode == _INFANTRY:
        gone = Location(index=0, internal=0, destroyed=True)
    else:
        raise AssertionError(f"{what} {e.chassis}: not written by this test")
    return replace(e, section=Section.SALVAGE, locations=(gone,))


def battle_files(out: Path, engagement: str, fates: dict[str, tuple[str, ...]]) -> list[str]:
    """Both sides' end-of-game files of ``engagement``, from its exported lists. ``fates`` gives,
    per "side:chassis", what became of each unit of that chassis in the exported order; a unit
    not named survived. Each file lists its own units and the enemy's wrecks (MegaMek's salvage
    section), as MegaMek writes them for the side that keeps the field."""
    after: dict[str, list[Entity]] = {}
    for side in ("loyalist", "rebel"):
        exported = read_mul_bytes((out / f"{engagement}-{side}.mul").read_bytes())
        seen: dict[str, int] = {}
        units = []
        for e in exported.entities:
            n = seen.get(e.chassis, 0)
            seen[e.chassis] = n + 1
            named = fates.get(f"{side}:{e.chassis}", ())
            units.append(_after(e, named[n] if n < len(named) else SURVIVED))
        after[side] = units
    files = []
    for side, units in after.items():
        wrecks = [e for other, es in after.items() if other != side for e in es
                  if e.section is Section.SALVAGE]  # fmt: skip
        record = MulFile(
            root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=(*units, *wrecks)
        )
        path = out / f"{engagement}-{side}-record.mul"
        path.write_text(write_mul(record), encoding="utf-8")
        files.append(str(path))
    return files


def _report(db: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(ok("report", "--db", db, "--json"))
    return report


def _standing(report: dict[str, Any]) -> dict[str, tuple[int, int, int, int, float]]:
    """Per side: battle, strategic and total VP, BV in operational or repairable units, % of
    the starting BV (the report's ``ending``)."""
    return {
        x["side"]: (x["battle_vp"], x["strategic_vp"], x["total_vp"], x["effective_bv"],
                    x["percent_of_start"])
        for x in report["ending"]["sides"]
    }  # fmt: skip


def _names(db: str) -> dict[str, tuple[str, str]]:
    """Unit id -> (side, chassis), at Day Zero."""
    return {u["id"]: (u["side"], u["chassis"]) for u in _report(db)["units"]}


def _battle(
    report: dict[str, Any], engagement: str, names: dict[str, tuple[str, str]]
) -> tuple[dict[str, tuple[int, int, int]], list[tuple[str, str, str]]]:
    """The resolved battle of ``engagement``: per side (its BV in the battle, the BV destroyed,
    its battle VP), and every loyalist unit hurt and every rebel unit, as (side, chassis, fate)."""
    (battle,) = [b for b in report["battles"] if b["engagement_id"] == engagement]
    assert battle["status"] == "resolved"
    sides = {x["side"]: (x["starting_bv"], x["destroyed_bv"], x["vp"]) for x in battle["sides"]}
    fates = sorted((*names[u["id"]], u["fate"]) for u in battle["units"]
                   if u["side"] == "rebel" or u["fate"] != "operational")  # fmt: skip
    return sides, fates


def _day_one(db: str, *rebel_orders: str) -> str:
    """The rebels' landing orders (``--order`` values) and the loyalists' (each formation
    guards where it stands; the Rapier is left without orders); the day resolved."""
    rebel = [x for order in rebel_orders for x in ("--order", order)]
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1", *rebel)
    guard = ("--order", "alpha:guard", "--order", "l-guard:guard", "--order", "l-militia:guard")
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", *guard)
    return ok("turn", "resolve", "--db", db, "--day", "1")


def _export(db: str, out: Path) -> None:
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(UNITS))  # fmt: skip


def _ingest(db: str, files: list[str], control: str = "loyalist") -> str:
    """``battle ingest`` of both files; ``control``: the side that kept the field."""
    out = ok("battle", "ingest", "--db", db, *files, "--control", control,
             "--units-dir", str(UNITS))  # fmt: skip
    return " ".join(out.split())


def _engagements(resolved: str) -> list[str]:
    """The engagement ids a resolved day printed ("engagement ID: ...")."""
    return [line.split()[1].rstrip(":") for line in resolved.splitlines()
            if line.startswith("engagement ")]  # fmt: skip


def _over(db: str, reason: str, next_day: int) -> None:
    """The campaign has ended with ``reason``: the report says so, the next day is refused."""
    text = " ".join(ok("report", "--db", db).split())
    assert f"the campaign has ended: {reason}" in text
    refused = mekref("turn", "resolve", "--db", db, "--day", str(next_day))
    assert refused.returncode == 3 and "campaign_over" in refused.stderr, refused.stderr


def test_attrition_a_battle_that_truly_destroys_most_of_bravo_ends_the_campaign(
    tmp_path: Path,
) -> None:
    # L412: "The campaign is a success when all the opponents forces are reduced to less than
    # 50% of their starting combat effectiveness, based on the BV of operational units, or
    # units that could be repaired."
    db = day_zero(tmp_path, bv_table=BV_TABLE)
    names = _names(db)
    day1 = _day_one(db, "bravo:orbital_insertion::1105", "r-militia:orbital_insertion::1712")
    (engagement,) = _engagements(day1)
    assert engagement.startswith("day1-1105-")
    _export(db, tmp_path)
    files = battle_files(tmp_path, engagement, {
        "rebel:Atlas": (TRULY,), "rebel:Marauder": (TRULY,), "rebel:Shadow Hawk": (TRULY,),
    })  # fmt: skip
    out = _ingest(db, files)
    reason = (
        "rebel fell below 50% of its starting BV: 3685 of 8009 BV (46.0%) in operational or "
        "repairable units"
    )
    assert f"the campaign has ended: {reason}" in out
    report = _report(db)
    assert report["ending"]["ended"] == reason
    assert _battle(report, engagement, names) == (
        {"loyalist": (3869, 0, 2), "rebel": (5199, 4324, -2)},
        [("rebel", "Atlas", "truly_destroyed"), ("rebel", "Jenner", "operational"),
         ("rebel", "Marauder", "truly_destroyed"), ("rebel", "Shadow Hawk", "truly_destroyed")],
    )  # fmt: skip
    # Loyalist: battle 2, strategic 3 (Bagnorgeio: 1 + the seat 2; the Facility is opposed);
    # rebel: the Rebel Militia garrisons its Forward Deployment Base (1).
    standing = _standing(report)
    assert standing == {"loyalist": (2, 3, 5, 8179, 100.0), "rebel": (0, 1, 1, 3685, 46.0)}
    _over(db, reason, next_day=2)


def test_ten_vp_battles_and_held_locations_end_the_campaign(tmp_path: Path) -> None:
    # L414: "Once a force reaches 10 Victory Points the campaign is over and the player with
    # the most victory points wins." L420: "| 50% of Enemy force destroyed | 2 |". L426: "Each
    # location which has at least a subforce (e.g. Lance) of units garrisoning it unopposed
    # scores 1 Victory Point." L428: "If the players VIP is present in the main government
    # building in the capital city, they achieve 2 Victory Points."
    db = day_zero(tmp_path, bv_table=BV_TABLE)
    names = _names(db)
    day1 = _day_one(db, "bravo:orbital_insertion::1105", "r-militia:orbital_insertion::0508")
    # Bravo opposes Alpha at the Facility, the Rebel Militia the garrison of Bagnorgeio.
    assert _standing(_report(db)) == {
        "loyalist": (0, 0, 0, 8179, 100.0), "rebel": (0, 0, 0, 8009, 100.0),
    }  # fmt: skip
    (at_facility,) = [e for e in _engagements(day1) if e.startswith("day1-1105-")]
    (at_capital,) = [e for e in _engagements(day1) if e.startswith("day1-0508-")]
    _export(db, tmp_path)
    _ingest(db, battle_files(tmp_path, at_facility,
                             {"rebel:Atlas": (WRECK,), "rebel:Marauder": (WRECK,)}))  # fmt: skip
    _ingest(db, battle_files(tmp_path, at_capital, {
        "rebel:Bulldog Medium Tank": (WRECK, WRECK),
        "rebel:Maxim Heavy Hover Transport": (WRECK, WRECK),
    }))  # fmt: skip
    report = _report(db)
    assert _battle(report, at_facility, names) == (
        {"loyalist": (3869, 0, 2), "rebel": (5199, 3260, -2)},
        [("rebel", "Atlas", "destroyed_repairable"), ("rebel", "Jenner", "operational"),
         ("rebel", "Marauder", "destroyed_repairable"), ("rebel", "Shadow Hawk", "operational")],
    )  # fmt: skip
    # The Guard (166) fought beside the Loyalist Militia: 2644 + 166 = 2810 on each side. L417
    # "for each side per formation involved": the two formations score once, as one force
    # (ruling R-VP-5).
    wrecked = [("rebel", "Bulldog Medium Tank", "destroyed_repairable")] * 2
    standing = [("rebel", "Foot Platoon", "operational")] * 2
    maxims = [("rebel", "Maxim Heavy Hover Transport", "destroyed_repairable")] * 2
    assert _battle(report, at_capital, names) == (
        {"loyalist": (2810, 0, 2), "rebel": (2810, 2644, -2)},
        [*wrecked, *standing, *maxims],
    )
    assert _standing(report) == {
        "loyalist": (4, 0, 4, 8179, 100.0),
        "rebel": (0, 0, 0, 8009, 100.0),
    }
    # The beaten militia falls back (the referee decides where, T-E7); Bravo stays.
    ok("turn", "reposition", "--db", db, "--formation", "r-militia", "--hex", "0509",
       "--referee", "Ann", "--reason", "lost the assault on Bagnorgeio")  # fmt: skip

    day2 = ok("turn", "resolve", "--db", db, "--day", "2")
    assert "strategic VP: loyalist 3, rebel 0" in day2
    (again,) = _engagements(day2)
    assert again.startswith("day2-1105-")
    _export(db, tmp_path / "day2")
    # The unrepaired wrecks of day 1 are in Bravo's list again and stay wrecks. L155: "If these
    # forces are later deployed in a scenario they do so in a damaged state".
    _ingest(db, battle_files(tmp_path / "day2", again, {
        "rebel:Atlas": (WRECK,), "rebel:Marauder": (WRECK,), "rebel:Shadow Hawk": (WRECK,),
    }))  # fmt: skip
    report = _report(db)
    assert _battle(report, again, names) == (
        {"loyalist": (3869, 0, 2), "rebel": (5199, 4324, -2)},
        [("rebel", "Atlas", "destroyed_repairable"), ("rebel", "Jenner", "operational"),
         ("rebel", "Marauder", "destroyed_repairable"),
         ("rebel", "Shadow Hawk", "destroyed_repairable")],
    )  # fmt: skip
    assert report["ending"]["ended"] is None
    assert _standing(report) == {
        "loyalist": (6, 3, 9, 8179, 100.0),
        "rebel": (0, 0, 0, 8009, 100.0),
    }
    ok("turn", "reposition", "--db", db, "--formation", "bravo", "--hex", "1106",
       "--referee", "Ann", "--reason", "lost the second fight for the Facility")  # fmt: skip

    day3 = " ".join(ok("turn", "resolve", "--db", db, "--day", "3").split())
    assert "strategic VP: loyalist 4, rebel 0" in day3
    reason = "loyalist reached 10 VP; most VP: loyalist"
    assert f"CAMPAIGN OVER: {reason}" in day3
    report = _report(db)
    assert report["ending"]["ended"] == reason
    assert _standing(report) == {
        "loyalist": (6, 4, 10, 8179, 100.0),
        "rebel": (0, 0, 0, 8009, 100.0),
    }
    _over(db, reason, next_day=4)


def test_the_leaders_escort_destroyed_and_the_leader_captured_ends_the_campaign(
    tmp_path: Path,
) -> None:
    # L162: "Each leader can be escorted by a platoon of infantry or a squad of BattleArmor
    # (becoming part of that unit). If the unit is destroyed the leader can be captured. If a
    # leader is captured and returned to the opposinng players DropShip the campaign ends."
    # L413: "The campaign can also end with the capture (but not death) of the opposing leader."
    db = day_zero(tmp_path, bv_table=BV_TABLE)
    names = _names(db)
    day1 = _day_one(db, "bravo:orbital_insertion::1712", "r-militia:orbital_insertion::0508")
    (engagement,) = _engagements(day1)
    assert engagement.startswith("day1-0508-")
    _export(db, tmp_path)
    files = battle_files(tmp_path, engagement, {
        "loyalist:Foot Platoon": (TRULY, TRULY),
        "loyalist:Maxim Heavy Hover Transport": (WRECK,),
    })  # fmt: skip
    out = _ingest(db, files, control="rebel")
    assert "the campaign has ended" not in out
    report = _report(db)
    assert _battle(report, engagement, names) == (
        {"loyalist": (2810, 766, -1), "rebel": (2810, 0, 1)},
        [("loyalist", "Foot Platoon", "truly_destroyed"),
         ("loyalist", "Foot Platoon", "truly_destroyed"),
         ("loyalist", "Maxim Heavy Hover Transport", "destroyed_repairable"),
         *[("rebel", "Bulldog Medium Tank", "operational")] * 2,
         *[("rebel", "Foot Platoon", "operational")] * 2,
         *[("rebel", "Maxim Heavy Hover Transport", "operational")] * 2],
    )  # fmt: skip
    # Strategic (day 1): Bagnorgeio is opposed; Alpha holds the Facility (loyalist 1); Bravo
    # garrisons the rebels' Forward Deployment Base (rebel 1). Loyalist BV: 8179 - 166 = 8013
    # (98.0%), the wrecked Maxim still counts (it can be repaired).
    assert _standing(report) == {"loyalist": (0, 1, 1, 8013, 98.0), "rebel": (1, 1, 2, 8009, 100.0)}
    assert report["ending"]["ended"] is None
    out = ok("campaign", "capture-leader", "--db", db, "--side", "loyalist", "--referee", "Ann",
             "--reason", "the Guard destroyed in Bagnorgeio; the leader carried to the rebels' "
             "DropShip")  # fmt: skip
    reason = "the leader of loyalist was captured"
    assert f"the campaign has ended: {reason}" in " ".join(out.split())
    report = _report(db)
    assert report["ending"]["ended"] == reason
    (loyal,) = [x for x in report["ending"]["sides"] if x["side"] == "loyalist"]
    assert loyal["leader_captured"]
    _over(db, reason, next_day=2)
