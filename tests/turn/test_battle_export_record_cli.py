"""``mekref battle export-record``: a resolved battle handed back as the end-of-game record
MegaMek would have written for a side (issue 26), through the installed console script.

The battle: the Ginestra sample with the rebel Atlas replaced by the damaged one of
``tests/fixtures/megamek/derived/damaged-atlas.mul`` (README beside it), fought at the first
engagement. Each side sends its own record, made from its scenario export: a loyalist Griffin
loses armour, fires 6 LRM shots and its pilot takes 1 hit; the rebel Atlas loses its centre
torso (a wreck, salvage) with its pilot at 3 hits; one rebel unit retreats, one loses a leg (a
wreck the rebels keep), and one loyalist unit is devastated.
The loyalists hold the field. What ``mekref inspect --json`` reads in each side's exported
record must be the fates, condition and hits ``report --json`` gives for that battle; read by
mekref's own MUL reader and merged with the designs, it gives back each unit's armour and
structure in numbers.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from fought_record import DAMAGED, resolved_battle
from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mul_model import (
    CrewMember,
    MulFile,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.design_lookup import catalog_lookup

#: Ruling R-REC-1, as the record of each side must show it: (own unit?, fate) -> section.
OWN = {
    "operational": "survivors",
    "damaged": "survivors",
    "retreated": "survivors",
    "destroyed_repairable": "salvage",
    "truly_destroyed": "salvage",
    "captured": "salvage",
    "utterly_destroyed": "devastated",
}
ENEMY = {**OWN, "operational": "salvage", "damaged": "salvage", "retreated": "retreated"}


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return resolved_battle(tmp_path_factory.mktemp("export-record"))


def _inspect(path: Path) -> dict[str, Any]:
    seen: dict[str, Any] = json.loads(ok("inspect", str(path), "--units-dir", str(UNITS), "--json"))
    return seen


@pytest.mark.parametrize("side", ["rebel", "loyalist"])
def test_the_record_reads_back_with_the_battles_fates_condition_and_hits(
    battle: dict[str, Any], side: str
) -> None:
    tmp: Path = battle["tmp"]
    fought = battle["battle"]
    said = ok("battle", "export-record", "--db", battle["db"], "--battle", fought["id"],
              "--side", side, "-o", str(tmp))  # fmt: skip
    path = tmp / f"{fought['id']}-{side}-record.mul"
    assert f"wrote {path}" in said
    held = "yes" if side == "loyalist" else "no"
    assert f"loyalist holds the field: answer MekHQ's 'did your side control the battlefield?' " \
           f"with {held}" in said  # fmt: skip
    seen = _inspect(path)
    assert seen["root"] == "record" and not seen["notices"]
    units = {u["id"]: u for u in battle["report"]["units"]}
    kept_wrecks = [
        o
        for o in fought["units"]
        if o["side"] == side and o["fate"] == "destroyed_repairable" and not o["salvaged_by"]
    ]
    for o in kept_wrecks:
        name = f"{units[o['id']]['chassis']} {units[o['id']]['model']}"
        said_lost = f"note: {name}: a wreck the side keeps (destroyed_repairable); MekHQ counts"
        assert (said_lost in said) is (side == "rebel"), said
    assert kept_wrecks or side == "loyalist"
    # The loyalists' devastated unit: its pilot lived, which MekHQ would not read (R-REC-2).
    if side == "loyalist":
        assert "note: Locust LCT-1V: devastated, but " in said and " lived (mekref" in said
    by_id = {u["external_id"]: u for u in seen["units"]}
    # R-REC-4: the side's own units and the enemy units it takes, as its report shows them.
    outcomes = [o for o in fought["units"] if side in (o["side"], o["salvaged_by"])]
    assert sorted(by_id) == sorted(o["id"] for o in outcomes)
    for o in outcomes:
        row = by_id[o["id"]]
        table = OWN if o["side"] == side else ENEMY
        # A unit a file wrote as devastated is truly destroyed (BR-3), and devastated again.
        devastated = any("devastated" in why for why in o["reasons"])
        want = "devastated" if devastated else table[o["fate"]]
        assert row["section"] == want, (o["id"], o["fate"])
        damage = units[o["id"]]["damage"]
        assert row["destroyed_locations"] == damage["destroyed_locations"], o["id"]
        lost = {
            loc["name"]
            for loc in damage["locations"]
            if loc["armor"] < loc["armor_max"] or loc["internal"] < loc["internal_max"]
        }
        assert set(row["damaged_locations"]) == lost - set(damage["destroyed_locations"])
    # The numbers too: mekref's own reader, merged with the design, gives back each unit's
    # armour and structure as the battle left them.
    mul = read_mul_bytes(path.read_bytes())
    lookup = catalog_lookup(UNITS, progress=False)
    for entity in mul.entities:
        damage = units[entity.external_id or ""]["damage"]
        condition = merge_condition(entity, lookup(entity))
        assert (condition.armor_lost, condition.internal_lost) == (
            damage["armor_lost"],
            damage["internal_lost"],
        ), entity.display_name
        lost = {c.name: (c.armor + (c.rear or 0), c.internal) for c in condition.locations
                if c.armor_lost or c.internal < c.internal_max}  # fmt: skip
        assert lost == {loc["name"]: (loc["armor"], loc["internal"])
                        for loc in damage["locations"]}, entity.display_name  # fmt: skip
    hits = {p["id"]: p for p in fought["people"]}
    crew = {c["external_id"]: c for u in seen["units"] for c in u["crew"]}
    assert {p for p, person in hits.items() if person["side"] == side} <= set(crew)
    for pid, c in crew.items():
        person = hits[pid]
        dead = person["fate"] in ("kia", "died_of_wounds")
        assert c["dead"] is dead, pid
        if not dead:
            assert c["hits"] == person["hits"], pid


def test_the_fates_of_the_battle_are_the_ones_the_files_set_up(battle: dict[str, Any]) -> None:
    """The battle gives every section a unit: so the comparison above covers each of them."""
    fates = {o["fate"] for o in battle["battle"]["units"]}
    assert {"damaged", "retreated"} <= fates
    assert fates & {"destroyed_repairable", "captured", "truly_destroyed"}
    assert fates & {"truly_destroyed", "utterly_destroyed"}
    people = {p["hits"] for p in battle["battle"]["people"]}
    assert {1, 3} <= people


def test_the_record_carries_the_griffins_ammunition_and_the_kill(battle: dict[str, Any]) -> None:
    fought = battle["battle"]
    # Without --battle: the side's last resolved battle, this one.
    done = mekref("battle", "export-record", "--db", battle["db"], "--side", "loyalist",
                  "-o", "-")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "holds the field" in done.stderr and "holds the field" not in done.stdout
    mul = read_mul_bytes(done.stdout.encode("utf-8"))
    griffin = next(e for e in mul.entities if e.chassis == "Griffin" and e.locations)
    (torso,) = [loc for loc in griffin.locations if loc.index == 2]
    assert [(s.index, s.shots) for s in torso.slots] == [(5, 6), (6, 12)]
    assert torso.armor == 10
    assert [(k.killed, k.killer) for k in mul.kills if k.killed == "Atlas AS7-D"] == [
        ("Atlas AS7-D", griffin.external_id)
    ]
    # A kill line for every enemy wreck, also one the record does not hold (R-REC-4): the
    # rebels' wreck they keep, killer unknown.
    units = {u["id"]: u for u in battle["report"]["units"]}
    wrecks = {
        f"{units[o['id']]['chassis']} {units[o['id']]['model']}"
        for o in fought["units"]
        if o["side"] == "rebel" and o["fate"] not in ("operational", "damaged", "retreated")
    }
    assert {k.killed for k in mul.kills} == wrecks and len(wrecks) == 2
    held = {e.external_id for e in mul.entities}
    kept = [o for o in fought["units"] if o["side"] == "rebel" and o["id"] not in held]
    assert any(o["fate"] == "destroyed_repairable" for o in kept)


def test_a_battle_not_resolved_is_refused_with_what_to_do(battle: dict[str, Any]) -> None:
    db = battle["unresolved"]
    pending = json.loads(ok("report", "--db", db, "--json"))["battles"]
    (open_battle,) = pending
    done = mekref("battle", "export-record", "--db", db, "--battle", open_battle["id"],
                  "--side", "loyalist", "-o", str(battle["tmp"] / "nothing.mul"))  # fmt: skip
    assert done.returncode == 3  # refused by the rules (docs/cli.md, "Exit codes")
    assert "is not resolved yet" in done.stderr and "mekref battle control" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (battle["tmp"] / "nothing.mul").exists()
    done = mekref("battle", "export-record", "--db", db, "--side", "loyalist",
                  "-o", str(battle["tmp"] / "nothing.mul"))  # fmt: skip
    assert done.returncode != 0
    assert "'loyalist' has no resolved battle yet" in done.stderr
    assert not (battle["tmp"] / "nothing.mul").exists()


def test_a_unit_without_a_design_is_named_not_written_pristine(
    battle: dict[str, Any], tmp_path: Path
) -> None:
    """A campaign imported without designs (no --units-dir): the damage was read without
    them, so the record refuses, naming the units (ruling R-REC-3)."""
    db = str(tmp_path / "n.db")
    ok("campaign", "new", "--db", db, "--name", "N", "--seed", "1",
       "--side", "blue:B", "--side", "red:R")  # fmt: skip
    mul = read_mul_bytes(DAMAGED.read_bytes())
    atlas = next(e for e in mul.entities if e.chassis == "Atlas")
    blue = MulFile(root=RootKind.UNIT, version=DEFAULT_WRITE_VERSION, entities=(atlas,))
    red_unit = replace(atlas, crew=replace(atlas.crew, members=(CrewMember(name="Red One"),)))
    red = MulFile(root=RootKind.UNIT, version=DEFAULT_WRITE_VERSION, entities=(red_unit,))
    for side, m in (("blue", blue), ("red", red)):
        path = tmp_path / f"{side}.mul"
        path.write_text(write_mul(m), encoding="utf-8")
        ok("force", "import", "--db", db, "--side", side, str(path), "--unchecked",
           "--referee", "Ref", "--reason", "test")  # fmt: skip
    ids = {u["side"]: u["id"] for u in json.loads(ok("report", "--db", db, "--json"))["units"]}
    records = []
    for side in ("blue", "red"):
        unit = replace(atlas, external_id=ids[side], section=Section.SURVIVORS, crew=None)
        path = tmp_path / f"{side}-record.mul"
        path.write_text(write_mul(MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION,
                                          entities=(unit,))), encoding="utf-8")  # fmt: skip
        records.append(str(path))
    ok("battle", "ingest", "--db", db, records[0])
    (fought,) = json.loads(ok("report", "--db", db, "--json"))["battles"]
    ok("battle", "ingest", "--db", db, records[1], "--battle", fought["id"], "--control", "blue")
    done = mekref("battle", "export-record", "--db", db, "--battle", fought["id"],
                  "--side", "blue", "-o", str(tmp_path))  # fmt: skip
    assert done.returncode != 0
    assert "would write these units as undamaged" in done.stderr
    assert f"Atlas AS7-D ({ids['blue']})" in done.stderr
    assert not (tmp_path / f"{fought['id']}-blue-record.mul").exists()


def test_output_is_a_mul_file_a_folder_or_stdout(battle: dict[str, Any], tmp_path: Path) -> None:
    """Issue 32: "output formats follow the file suffix or refuse it". The record is a MegaMek
    unit file, so -o takes a .mul name, a folder (made when the name ends in a slash) or -."""
    db = battle["db"]
    text = tmp_path / "record.txt"
    done = mekref("battle", "export-record", "--db", db, "--side", "loyalist", "-o", str(text))
    assert done.returncode == 2
    assert "give a name ending in .mul (record.mul)" in done.stderr and not text.exists()
    folder = tmp_path / "new" / "records"
    done = mekref("battle", "export-record", "--db", db, "--side", "loyalist",
                  "-o", f"{folder}/")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (written,) = folder.glob("battle-*-loyalist-record.mul")
    assert written.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    wrong_side = mekref("battle", "export-record", "--db", db, "--side", "wobb", "-o", "-")
    assert wrong_side.returncode == 2 and "no such side in this campaign" in wrong_side.stderr


def test_a_corrected_hit_count_is_what_the_report_and_the_record_write(
    battle: dict[str, Any], tmp_path: Path
) -> None:
    """Revised ruling SG-7: ``mekref battle correct --person ID --hits N`` replaces the hits the
    battle booked; the report, the exported record and the next day's engagement export carry
    the corrected count."""
    db = str(tmp_path / "g.db")
    shutil.copy(battle["db"], db)
    fought = battle["battle"]
    [hurt] = [p for p in fought["people"] if p["side"] == "loyalist" and p["hits"] == 1]
    said = ok("battle", "correct", "--db", db, "--battle", fought["id"][:11],
              "--person", hurt["id"][:8], "--hits", "2",
              "--referee", "Ref", "--reason", "MegaMek's report shows a second hit")  # fmt: skip
    assert f"battle {fought['id']}: booked condition corrected (ruling SG-7)" in said, said
    assert ": 2 hit(s), was 1" in said, said
    report = json.loads(ok("report", "--db", db, "--json"))
    [person] = [p for p in report["people"] if p["id"] == hurt["id"]]
    assert person["hits"] == 2
    [after] = [b for b in report["battles"] if b["id"] == fought["id"]]
    assert [p["hits"] for p in after["people"] if p["id"] == hurt["id"]] == [2]
    ok("battle", "export-record", "--db", db, "--battle", fought["id"],
       "--side", "loyalist", "-o", str(tmp_path))  # fmt: skip
    seen = _inspect(tmp_path / f"{fought['id']}-loyalist-record.mul")
    crew = {c["external_id"]: c for u in seen["units"] for c in u["crew"]}
    assert crew[hurt["id"]]["hits"] == 2
    # The next day's engagement export writes the corrected hits into the side's unit list.
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "2", "--order", "bravo:guard")
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2", "--order", "alpha:guard")
    ok("turn", "resolve", "--db", db, "--day", "2")
    out = tmp_path / "next"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out), "--format", "mul")
    written = {
        m.external_id: m.hits
        for path in out.glob("*-loyalist.mul")
        for e in read_mul_bytes(path.read_bytes()).entities
        if e.crew is not None
        for m in e.crew.members
    }
    assert written[hurt["id"]] == 2, written
