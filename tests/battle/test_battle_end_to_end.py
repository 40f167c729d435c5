"""End to end: two forces imported, one battle seen by both players, the books checked by hand.

Red (Kai's Griffin GRF-1N, commander; Ria's Locust LCT-1V) meets Blue (Jon's Jenner JR7-D,
commander; Lea's Locust LCT-1V; Gus's Griffin GRF-1N). Red holds the field. The designs are
the fixture unit files; BV comes from tests/fixtures/battles/Units.txt (Griffin 1272, Locust
432, Jenner 875). Both records were built with the project's MUL writer (builders.py).

What happened (Red's record, the owner's view of Red's units):
- Griffin r1: Right Torso armor 20 -> 8, internal 13 -> 10; Left Arm armor 14 -> 4; LRM-10
  bins at 0 and 6 shots of 12 (MegaMek's full bin); Kai 2 hits. It killed the Jenner and
  Blue's Locust.
- Locust r2: Center Torso destroyed; Ria ejected with 3 hits.
- Jenner b1: both legs destroyed; Jon 5 hits (death roll).
- Locust b2: head destroyed; Lea dead.
- Griffin b3: retreated, Left Arm armor 14 -> 10; Gus 1 hit. (Blue's record: it killed r2.)
  Blue's own record lists it among its survivors, where MegaMek also puts a player's own
  retreats; Red's record alone says it retreated. Ruling BR-15: Blue's file speaks for Blue's
  units, so b3 is "damaged" and Red's "retreated" is a conflict for the referee.
Blue's record shows r1's Left Arm at 6, not 4: a conflict; Red's own view is used.

Hand arithmetic (rows of the TripWire text quoted):
- "| Repair ‘Mechs Entire Armor* # | Tonnage |": Griffin 55 t, 152 armor points in all.
  Left Arm: 10 x 55/152 = 3.62 -> 4 SP now. Right Torso: 12 x 55/152 = 4.34 -> 5 SP, deferred
  ("* Armor is restored only to locations which do not have internal structure damage.").
- "| Repair ‘Mechs Entire Internal Structure** # | Tonnage x 2 |": 3 of 91 points:
  3 x 110/91 = 3.63 -> 4 SP.
- "| Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5 |": 12/12 +
  6/12 = 1.5 t x 5 = 7.5 -> 8 SP. Griffin total 4 + 5 + 4 + 8 = 21 SP.
- Tasks: "| Repair Armour | 3 hours |" + "| Repair Internal Structure/Criticals | 6 hours |" +
  "| Reload | 1 hour |" = 10 hours.
- Jenner (35 t, 64 armor, 58 internal): legs 12 armor deferred 12 x 35/64 = 6.56 -> 7;
  internal 16 x 70/58 = 19.3 -> 20; 27 SP, 9 hours.
- Locust b2 (20 t, 64 armor, 33 internal): head 8 x 20/64 = 2.5 -> 3; 3 x 40/33 = 3.6 -> 4.
- Griffin b3: 4 x 55/152 = 1.45 -> 2 SP, 3 hours.
- Locust r2: "** ’Mechs whose center torso internal structure has been reduced to 0 cannot be
  repaired."; scrap "Truly Destroyed – Tonnage/10" = 2 WP.
- Injuries: "| 1 Hit (Lightly Wounded) | 10 |", "| 2 Hits (Moderately Wounded) | 30 |",
  "| 3 Hits (Heavily Wounded) | 60 |"; 3+ hits need a MASH or hospital.
- VP: Red started 1,704 BV and lost r2 (432, 25.4%): "| 25% of friendly force destroyed | -1 |".
  Blue started 2,579 and lost b1 + b2 (875 + 432 = 1,307, 50.7%, both salvaged by Red):
  "| 50% of Enemy force destroyed | 2 |"; Jon (Blue's commander) is captured or dead:
  "| Enemy Force Commander captured/killed | 1* |". Red: +2 +1 -1 = +2. Blue: +1 (25% of Red)
  -2 -1 = -2, floored at 0. Blue is down to 1,272 of 2,579 BV: at most 50%, it retires.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.mul_model import Kill, Section
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import open_store
from mekref.rules.dice import Dice
from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.injuries import roll_death

from .builders import FIXTURES, UNITS_DIR, loc, mek, pilot, record, unit_list
from .conftest import Cli

SEED = "tripwire-e2e"
LRM = "IS Ammo LRM-10"


def _entities() -> dict[str, Any]:
    griffin_ammo = ((5, LRM, 12), (6, LRM, 12))  # full: 12 shots a ton (MegaMek)
    return {
        "r1": mek("Griffin", "GRF-1N", "r1", pilot("Kai", "p-r1", 3, 4), commander=True,
                  locations=(loc(2, "Right Torso", ammo=griffin_ammo),)),
        "r2": mek("Locust", "LCT-1V", "r2", pilot("Ria", "p-r2"),
                  locations=(loc(1, "Center Torso", ammo=((12, "IS Ammo MG - Full", 200),)),)),
        "b1": mek("Jenner", "JR7-D", "b1", pilot("Jon", "p-b1", 3, 4), commander=True,
                  locations=(loc(2, "Right Torso", ammo=((3, "IS Ammo SRM-4", 25),)),)),
        "b2": mek("Locust", "LCT-1V", "b2", pilot("Lea", "p-b2"),
                  locations=(loc(1, "Center Torso", ammo=((12, "IS Ammo MG - Full", 200),)),)),
        "b3": mek("Griffin", "GRF-1N", "b3", pilot("Gus", "p-b3"),
                  locations=(loc(2, "Right Torso", ammo=griffin_ammo),)),
    }  # fmt: skip


def _after(left_arm: int) -> dict[str, Any]:
    """Each unit at the end of the battle (sections are set per record)."""
    return {
        "r1": mek("Griffin", "GRF-1N", "r1", pilot("Kai", "p-r1", 3, 4, hits=2), commander=True,
                  locations=(loc(2, "Right Torso", armor=8, internal=10,
                                 ammo=((5, LRM, 0), (6, LRM, 6))),
                             loc(5, "Left Arm", armor=left_arm))),
        "r2": mek("Locust", "LCT-1V", "r2", pilot("Ria", "p-r2", hits=3), ejected=True,
                  locations=(loc(1, "Center Torso", destroyed=True),)),
        "b1": mek("Jenner", "JR7-D", "b1", pilot("Jon", "p-b1", 3, 4, hits=5), commander=True,
                  locations=(loc(2, "Right Torso", ammo=((3, "IS Ammo SRM-4", 25),)),
                             loc(6, "Right Leg", destroyed=True),
                             loc(7, "Left Leg", destroyed=True))),
        "b2": mek("Locust", "LCT-1V", "b2", pilot("Lea", "p-b2", hits=6),
                  locations=(loc(0, "Head", destroyed=True),
                             loc(1, "Center Torso", ammo=((12, "IS Ammo MG - Full", 200),)))),
        "b3": mek("Griffin", "GRF-1N", "b3", pilot("Gus", "p-b3", hits=1),
                  locations=(loc(2, "Right Torso", ammo=((5, LRM, 12), (6, LRM, 12))),
                             loc(5, "Left Arm", armor=10))),
    }  # fmt: skip


def _in(entity: Any, section: Section) -> Any:
    from dataclasses import replace

    return replace(entity, section=section)


def write_inputs(tmp: Path) -> dict[str, Path]:
    e = _entities()
    (tmp / "red.mul").write_text(unit_list([e["r1"], e["r2"]]), encoding="utf-8")
    (tmp / "blue.mul").write_text(unit_list([e["b1"], e["b2"], e["b3"]]), encoding="utf-8")
    red = _after(left_arm=4)
    red_record = record(
        [
            _in(red["r1"], Section.SURVIVORS),
            _in(red["r2"], Section.SALVAGE),
            _in(red["b1"], Section.SALVAGE),
            _in(red["b2"], Section.SALVAGE),
            _in(red["b3"], Section.RETREATED),
        ],
        kills=(Kill("Jenner JR7-D", "r1"), Kill("Locust LCT-1V", "r1")),
    )
    blue = _after(left_arm=6)
    blue_record = record(
        [
            _in(blue["b3"], Section.SURVIVORS),
            _in(blue["r1"], Section.SALVAGE),
            _in(blue["r2"], Section.SALVAGE),
            _in(blue["b1"], Section.SALVAGE),
            _in(blue["b2"], Section.SALVAGE),
        ],
        kills=(Kill("Locust LCT-1V", "b3"),),
    )
    (tmp / "Red.mul").write_text(red_record, encoding="utf-8")
    (tmp / "Blue.mul").write_text(blue_record, encoding="utf-8")
    return {"red": tmp / "Red.mul", "blue": tmp / "Blue.mul"}


def setup_campaign(cli: Cli, tmp: Path, db: str) -> dict[str, Path]:
    files = write_inputs(tmp)
    code, out, err = cli("campaign", "new", "--db", db, "--name", "E2E", "--seed", SEED,
                         "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    assert code == 0, err
    for side in ("red", "blue"):
        code, out, err = cli(
            "force", "import", "--db", db, "--side", side, str(tmp / f"{side}.mul"),
            "--units-dir", str(UNITS_DIR), "--bv-table", str(FIXTURES / "battles" / "Units.txt"),
            "--unchecked", "--referee", "Ann", "--reason", "a small test force",
        )  # fmt: skip
        assert code == 0, err
        assert "force construction:" in out
    return files


def test_two_records_resolve_the_battle(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    files = setup_campaign(cli, tmp_path, db)
    code, out, err = cli("battle", "ingest", "--db", db, str(files["red"]),
                         "--units-dir", str(UNITS_DIR), "--control", "red")  # fmt: skip
    assert code == 0, err
    assert "missing blue" in out  # waits for Blue's file
    code, out, err = cli("battle", "ingest", "--db", db, str(files["blue"]),
                         "--units-dir", str(UNITS_DIR))  # fmt: skip
    assert code == 0, err
    assert "resolved" in out

    code, out, err = cli("report", "--db", db, "--json")
    assert code == 0, err
    report = json.loads(out)
    units = {u["id"]: u for u in report["units"]}
    assert units["r1"]["fate"] == "damaged"
    assert units["r1"]["repair"] == {
        "armor_sp": 4 + 5, "internal_sp": 4, "rearm_sp": 8, "total_sp": 21, "tech_hours": 10,
        "repairable": True, "needs_repair_facility": True,
    }  # fmt: skip
    assert units["r2"]["fate"] == "truly_destroyed"
    assert units["r2"]["repair"]["repairable"] is False
    assert units["r2"]["scrap_wp"] == 2  # "Truly Destroyed – Tonnage/10": 20/10
    assert (
        units["r1"]["sell_wp"] is None
    )  # "*** A ’Mech must be fully repaired before it can be sold."
    assert units["r1"]["scrap_wp"] == 55  # "Internal Damage – Tonnage"
    assert units["b1"]["fate"] == "captured" and units["b1"]["side"] == "red"
    assert units["b1"]["repair"]["armor_sp"] == 7
    assert units["b1"]["repair"]["internal_sp"] == 20
    assert units["b1"]["repair"]["total_sp"] == 27
    assert units["b1"]["repair"]["tech_hours"] == 9
    assert units["b2"]["fate"] == "captured" and units["b2"]["side"] == "red"
    assert units["b2"]["repair"]["total_sp"] == 3 + 4
    # BR-15: "retreated" on Red's word alone is not applied; the referee sees both versions.
    assert units["b3"]["fate"] == "damaged" and units["b3"]["side"] == "blue"
    (said,) = [c for c in report["battles"][0]["conflicts"] if "retreated" in c]
    assert "red says retreated" in said and "blue's own file lists it in survivors" in said
    assert units["b3"]["repair"]["total_sp"] == 2

    people = {p["id"]: p for p in report["people"]}
    assert (people["p-r1"]["hits"], people["p-r1"]["heal_cost_sp"]) == (2, 30)
    assert people["p-r1"]["kills"] == 2 and people["p-r1"]["may_train"]
    assert (people["p-r2"]["hits"], people["p-r2"]["heal_cost_sp"]) == (3, 60)
    assert people["p-r2"]["status"] == "injured"  # ejected, recovered by Red
    assert people["p-b2"]["status"] == "dead"
    assert (people["p-b3"]["hits"], people["p-b3"]["heal_cost_sp"]) == (1, 10)
    assert people["p-b3"]["kills"] == 1 and people["p-b3"]["may_train"]
    roll, _ = Dice(SEED, 0).roll("death roll, pilot p-b1")
    if roll.total >= 4:  # "Roll a Death roll on 1D6. On a 4 – 6 they die."
        assert people["p-b1"]["status"] == "dead"
    else:
        assert people["p-b1"]["status"] == "captured by red"
        assert people["p-b1"]["heal_cost_sp"] == 150
    assert [d["name"] for d in report["dice"]] == ["death roll, pilot p-b1"]
    assert report["dice"][0]["faces"] == list(roll.faces)

    assert report["victory_points"] == {"blue": 0, "red": 2}
    assert report["tracks_completed"] == 1
    assert report["battles"][0]["status"] == "resolved"
    sides_json = {x["side"]: x for x in report["battles"][0]["sides"]}
    assert sides_json["red"]["vp"] == 2 and sides_json["blue"]["retires"]
    fates_json = {u["id"]: u for u in report["battles"][0]["units"]}
    assert fates_json["b1"]["salvaged_by"] == "red" and fates_json["b1"]["salvage_rows"]
    assert any("r1" in c or "Griffin" in c for c in report["battles"][0]["conflicts"])

    # The resolution event itself: Blue retires at half strength, the conflict is named.
    store = open_store(db)
    try:
        runner = CampaignRunner(store)
        cid = store.list_campaigns()[0].id
        resolved = [e for _, e in runner.events(cid) if isinstance(e, BattleResolved)]
        assert len(resolved) == 1
        sides = {s.side_id: s for s in resolved[0].resolution.sides}
        assert (sides["red"].starting_bv, sides["red"].destroyed_bv) == (1704, 432)
        assert (sides["blue"].starting_bv, sides["blue"].destroyed_bv) == (2579, 1307)
        assert sides["blue"].retires and not sides["red"].retires
        assert sides["red"].vp_delta == 2 and sides["blue"].vp_delta == -2
        scrap = {u.unit_id: u.scrap_wp for u in resolved[0].resolution.units}
        assert scrap["r2"] == 2
        # Replay: the same log folds to the same state.
        assert TRIPWIRE.state_hash(runner.replay(cid)) == TRIPWIRE.state_hash(
            runner.load(cid).state
        )
    finally:
        store.close()
    _ = (roll_death, TRIPWIRE.fold)


def test_same_files_same_seed_same_state_hash(cli: Cli, tmp_path: Path) -> None:
    hashes = []
    for run in ("one", "two"):
        folder = tmp_path / run
        folder.mkdir()
        db = str(folder / "c.db")
        files = setup_campaign(cli, folder, db)
        for side, extra in (("red", ("--control", "red")), ("blue", ())):
            code, _, err = cli("battle", "ingest", "--db", db, str(files[side]),
                               "--units-dir", str(UNITS_DIR), *extra)  # fmt: skip
            assert code == 0, err
        store = open_store(db)
        try:
            runner = CampaignRunner(store)
            cid = store.list_campaigns()[0].id
            hashes.append(TRIPWIRE.state_hash(runner.replay(cid)))
        finally:
            store.close()
    assert hashes[0] == hashes[1]


def test_a_file_is_applied_once(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    files = setup_campaign(cli, tmp_path, db)
    assert cli("battle", "ingest", "--db", db, str(files["red"]))[0] == 0
    code, out, _ = cli("battle", "ingest", "--db", db, str(files["red"]))
    assert code == 0 and "already ingested" in out


def test_closing_early_needs_the_referee(cli: Cli, tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    files = setup_campaign(cli, tmp_path, db)
    code, out, _ = cli("battle", "ingest", "--db", db, str(files["red"]), "--control", "red")
    battle = out.split("battle ")[1].split()[0].rstrip(",")
    code, _, err = cli("battle", "close", "--db", db, "--battle", battle)
    assert code == 3 and "waits for a file from blue" in err
    code, _, err = cli("battle", "close", "--db", db, "--battle", battle,
                       "--referee", "Ann", "--reason", "Blue's file was lost")  # fmt: skip
    assert code == 0, err
    code, out, _ = cli("battle", "pending", "--db", db)
    assert "no battle is waiting" in out


def test_spending_from_the_command_line(cli: Cli, tmp_path: Path) -> None:
    """After the battle: a Union pool (250 WP, "Each Union DropShip carries 250 WP"), the
    Griffin's restorable armor (4 SP), healing Kai's 2 hits (30 SP, first aid)."""
    db = str(tmp_path / "c.db")
    files = setup_campaign(cli, tmp_path, db)
    units = ("--units-dir", str(UNITS_DIR))
    assert (
        cli("battle", "ingest", "--db", db, str(files["red"]), "--control", "red", *units)[0] == 0
    )
    assert cli("battle", "ingest", "--db", db, str(files["blue"]), *units)[0] == 0
    code, out, err = cli("pool", "open", "--db", db, "--side", "red", "--id", "union",
                         "--name", "Union", "--dropship", "Union")  # fmt: skip
    assert code == 0, err
    code, out, err = cli("spend", "repair", "--db", db, "--unit", "r1", "--pool", "union",
                         "--task", "armor")  # fmt: skip
    # No strategic map: where r1 stands is the referee's word (R-WHERE-1).
    assert code == 3 and "R-WHERE-1" in err and "no strategic map" in err
    books = ("--referee", "Ann", "--reason", "books only")
    code, out, err = cli("spend", "repair", "--db", db, "--unit", "r1", "--pool", "union",
                         "--task", "armor", *books)  # fmt: skip
    assert code == 0, err
    assert "pool union (Union): 246 WP" in out
    code, out, err = cli("spend", "heal", "--db", db, "--person", "p-r1", "--pool", "union",
                         *books)  # fmt: skip
    assert code == 0, err
    assert "pool union (Union): 216 WP" in out
    code, out, err = cli("spend", "heal", "--db", db, "--person", "p-r2", "--pool", "union",
                         *books)  # fmt: skip
    assert code == 3 and "MASH" in err  # 3 hits need a MASH unit or a hospital
    code, out, err = cli("spend", "sell", "--db", db, "--unit", "r1", "--pool", "union")
    assert code == 3 and "repair it fully before selling" in err
