"""Force import keeps the condition units and crews come in with (issue 26), through the
installed ``mekref`` console script.

The damaged list is ``tests/fixtures/megamek/derived/damaged-atlas.mul``, made from the real
``mekhq-fixedmuls-aceARC2R.mul`` (each edit in the README beside it): an Atlas AS7-D whose Right
Arm is lost, Right Torso armour at 3, Left Arm armour at 20 with its Medium Laser hit, an AC/20
bin fired down to 2 of 5 shots, and its pilot Hana Kel with 2 hits. It replaces the Atlas of the
Ginestra rebel list; the loyalist list (no ``<slot>`` lines, as MegaMek-less tools write it)
brings the Griffin whose LRM-10 bins then hold the design's standard load, 12 shots each.

What ``inspect`` reads must be what ``report --json``, ``force list`` and ``engagement export``
show; the report prices the damage; a bin fired after an import without a slot line bills its
tons (TripWire line 23: the standard load; L85: "| Re-arm Unit (Introductory, per ton of
ammunition [AC, LRM, SRM, MG]) | 5 |").
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.mms_check import parse_mms
from mekref.adapters.megamek.mul_model import Entity, Location, MulFile, RootKind, Section, Slot
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.samples.ginestra import FOLDER

FIXTURES = Path(__file__).parents[1] / "fixtures"
DAMAGED = FIXTURES / "megamek" / "derived" / "damaged-atlas.mul"
MEKHQ = FIXTURES / "mekhq" / "derived" / "FoxsTeeth-damaged.cpnx"
ENGAGEMENT = "day1-1105-1"
LRM = "IS Ammo LRM-10"


def _atlas_entity_text() -> str:
    text = DAMAGED.read_text(encoding="utf-8")
    start = text.index('\t\t<entity chassis="Atlas"')
    return text[start : text.index("</entity>", start) + len("</entity>\n")]


def _rebel_list(tmp: Path) -> Path:
    """The Ginestra rebel list with its Atlas replaced by the fixture's damaged one."""
    text = (FOLDER / "rebel.mul").read_text(encoding="utf-8")
    start = text.index('\t\t<entity chassis="Atlas" model="AS7-D"')
    end = text.index("</entity>", start) + len("</entity>\n")
    path = tmp / "rebel.mul"
    path.write_text(text[:start] + _atlas_entity_text() + text[end:], encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("import-condition")
    db = str(tmp / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    said = {}
    for side, path in (("loyalist", FOLDER / "loyalist.mul"), ("rebel", _rebel_list(tmp))):
        said[side] = ok("force", "import", "--db", db, "--side", side, str(path),
                        "--units-dir", str(UNITS), "--unchecked", "--referee", "Ref",
                        "--reason", "test forces")  # fmt: skip
    ok("turn", "setup", "--db", db)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp / "before"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out))
    return {"db": db, "tmp": tmp, "said": said, "out": out}


def test_a_note_units_of_one_design_share_prints_once(imported: dict[str, Any]) -> None:
    """A company of one design each taking the standard load printed one identical line per
    unit (85 in the demo); the line now comes once, with how many units it is for."""
    said = imported["said"]["loyalist"].splitlines()
    lines = [line for line in said if "standard load from the design" in line]
    assert len(lines) == len(set(lines))
    mul = read_mul_bytes((FOLDER / "loyalist.mul").read_bytes())
    designs = Counter(f"{e.chassis} {e.model}".strip() for e in mul.entities)
    shared = [line for line in lines if line.endswith(" units)")]
    assert shared, "the loyalist list has several units of one design"
    for line in shared:
        name = line.split(": ", 1)[0]
        assert line.endswith(f"({designs[name]} units)")


def _unit(rows: list[dict[str, Any]], chassis: str) -> dict[str, Any]:
    (row,) = [r for r in rows if r["chassis"] == chassis]
    return row


def _entity(mul: MulFile, chassis: str) -> Entity:
    (e,) = [e for e in mul.entities if e.chassis == chassis]
    return e


def _bins(rows: list[dict[str, Any]]) -> list[tuple[str, int | None, str, int]]:
    return sorted((a["location"], a["slot"], a["type"], a["shots"]) for a in rows)


def test_the_damaged_atlas_reads_the_same_everywhere(imported: dict[str, Any]) -> None:
    db = imported["db"]
    seen = json.loads(ok("inspect", str(DAMAGED), "--units-dir", str(UNITS), "--json"))
    atlas_seen = _unit(seen["units"], "Atlas")
    assert atlas_seen["destroyed_locations"] == ["Right Arm"]
    assert [(c["name"], c["hits"]) for c in atlas_seen["crew"]] == [("Hana Kel", 2)]

    # The import says what came in, and the Griffin's bins are the design's standard load.
    assert "Atlas AS7-D: came in damaged: Right Arm lost" in imported["said"]["rebel"]
    assert "Atlas AS7-D: Hana Kel: 2 hit(s)" in imported["said"]["rebel"]
    assert "standard load from the design" in imported["said"]["loyalist"]

    report = json.loads(ok("report", "--db", db, "--json"))
    atlas = _unit(report["units"], "Atlas")
    assert atlas["fate"] == "damaged" and atlas["repair_priced"] is True
    assert atlas["damage"]["destroyed_locations"] == ["Right Arm"]
    torso = {loc["name"]: loc for loc in atlas["damage"]["locations"]}
    # Front and rear together (the rear as designed, 10): 3 + 10 of 32 + 10.
    assert (torso["Right Torso"]["armor"], torso["Right Torso"]["armor_max"]) == (13, 42)
    assert (torso["Left Arm"]["armor"], torso["Left Arm"]["armor_max"]) == (20, 34)
    assert torso["Right Arm"]["internal"] == 0
    # Priced: armour, structure, the hit slots and 3 of 5 AC/20 shots (0.6 t x 5 = 3 SP).
    assert atlas["repair"]["total_sp"] > 0 and atlas["repair"]["rearm_sp"] == 3
    hana = next(p for p in report["people"] if p["name"] == "Hana Kel")
    assert (hana["hits"], hana["status"], hana["heal_cost_sp"]) == (2, "injured", 30)

    listed = json.loads(ok("force", "list", "--db", db, "--side", "rebel", "--json"))
    atlas_row = _unit(listed, "Atlas")
    assert atlas_row["fate"] == "damaged"
    assert atlas_row["destroyed_locations"] == ["Right Arm"]
    assert _bins(atlas_row["ammo"]) == _bins(atlas_seen["ammo"])
    assert [(c["name"], c["hits"]) for c in atlas_row["crew"]] == [("Hana Kel", 2)]
    griffin_row = _unit(json.loads(ok("force", "list", "--db", db, "--json")), "Griffin")
    assert [(a["shots"], a["full"]) for a in griffin_row["ammo"]] == [(12, 12), (12, 12)]

    # The scenario export writes the same condition back for MegaMek.
    out = imported["out"]
    mul = read_mul_bytes((out / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    sent = _entity(mul, "Atlas")
    given = _entity(read_mul_bytes(DAMAGED.read_bytes()), "Atlas")
    assert [m.hits for m in sent.members] == [2]
    for want in given.locations:
        got = sent.location(want.index)
        assert got is not None, want.name
        assert got.destroyed == want.destroyed, want.name
        if want.armor is not None:
            assert got.armor == want.armor, want.name
        assert sorted((s.index, s.shots) for s in got.slots if s.shots is not None) == sorted(
            (s.index, s.shots) for s in want.slots if s.shots is not None
        )
        assert [s.index for s in got.slots if s.damaged] == [
            s.index for s in want.slots if s.damaged
        ]
    scenario = parse_mms((out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    (key,) = [u.key for u in scenario.units() if u.name.startswith("Atlas AS7-D")]
    assert scenario.unit_value(key, "PilotHits") == "2"


def _record(entities: list[Entity], path: Path) -> str:
    mul = MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=tuple(entities))
    path.write_text(write_mul(mul), encoding="utf-8")
    return str(path)


def test_a_bin_fired_after_an_import_without_slot_lines_bills_its_tons(
    imported: dict[str, Any],
) -> None:
    """The Griffin came in with no <slot> lines: the standard load, 12 + 12 LRM-10 shots. It
    fires 6 of its 24: half a ton, 2.5 -> 3 SP at 5 SP a ton (L85), and the next export sends
    the bin with 6 shots and the other full."""
    tmp: Path = imported["tmp"]
    db = str(tmp / "fought.db")
    shutil.copy(imported["db"], db)
    out = imported["out"]
    loyal = read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    rebel = read_mul_bytes((out / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    fired = []
    for e in loyal.entities:
        if e.chassis == "Griffin":
            torso = Location(
                index=2,
                name="Right Torso",
                slots=(Slot(index=5, type=LRM, shots=6), Slot(index=6, type=LRM, shots=12)),
            )
            e = replace(e, locations=(torso,))
        fired.append(replace(e, section=Section.SURVIVORS))
    files = [
        _record(fired, tmp / "loyalist-record.mul"),
        _record([replace(e, section=Section.SURVIVORS) for e in rebel.entities],
                tmp / "rebel-record.mul"),
    ]  # fmt: skip
    ok("battle", "ingest", "--db", db, *files, "--control", "loyalist")
    griffin = _unit(json.loads(ok("report", "--db", db, "--json"))["units"], "Griffin")
    assert griffin["repair"]["rearm_sp"] == 3
    after = tmp / "after"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(after))
    sent = _entity(read_mul_bytes((after / f"{ENGAGEMENT}-loyalist.mul").read_bytes()), "Griffin")
    (torso_out,) = [loc for loc in sent.locations if loc.index == 2]
    assert [(s.index, s.shots) for s in torso_out.slots] == [(5, 6), (6, 12)]


def test_a_mekhq_campaign_keeps_damage_and_hits_and_says_why_it_cannot_price(
    tmp_path: Path,
) -> None:
    """``FoxsTeeth-damaged.cpnx`` (the real Fox's Teeth campaign with the Commando's Right Arm
    lost, its Right Torso armour at 4 and Sara Lytton's <hits> at 2; README beside it). No
    Commando design is at hand: the damage is kept and the report says it cannot be priced."""
    db = str(tmp_path / "h.db")
    ok("campaign", "new", "--db", db, "--name", "H", "--seed", "1",
       "--side", "blue:B", "--side", "red:R")  # fmt: skip
    said = ok("force", "import", "--db", db, "--side", "blue", str(MEKHQ),
              "--unchecked", "--referee", "Ref", "--reason", "test")  # fmt: skip
    assert "Commando COM-2D: came in damaged: Right Arm lost" in said
    assert "Commando COM-2D: Sara Lytton: 2 hit(s)" in said
    assert "no design found" in said
    report = json.loads(ok("report", "--db", db, "--json"))
    commando = _unit(report["units"], "Commando")
    assert commando["fate"] == "damaged"
    assert commando["damage"]["destroyed_locations"] == ["Right Arm"]
    assert commando["repair_priced"] is False and commando["repair"]["total_sp"] is None
    sara = next(p for p in report["people"] if p["name"] == "Sara Lytton")
    assert (sara["hits"], sara["heal_cost_sp"]) == (2, 30)
    listed = _unit(json.loads(ok("force", "list", "--db", db, "--json")), "Commando")
    assert listed["destroyed_locations"] == ["Right Arm"] and not listed["design_known"]
    assert [(c["name"], c["hits"]) for c in listed["crew"]] == [("Sara Lytton", 2)]


def test_five_hits_make_the_death_roll_at_import_and_six_are_dead(tmp_path: Path) -> None:
    """L125: "A MechWarrior with 5 Damage has a chance of death on the operating table. Roll a
    Death roll on 1D6." A list's pilot at 5 hits rolls at import, as after a battle."""
    text = DAMAGED.read_text(encoding="utf-8")
    five = tmp_path / "five.mul"
    five.write_text(
        text.replace('hits="2"', 'hits="5"').replace(
            'name="Oskar Brand" nick=""', 'name="Oskar Brand" nick="" hits="Dead"'
        ),
        encoding="utf-8",
    )
    db = str(tmp_path / "d.db")
    ok("campaign", "new", "--db", db, "--name", "D", "--seed", "1",
       "--side", "a:A", "--side", "b:B")  # fmt: skip
    said = ok("force", "import", "--db", db, "--side", "a", str(five), "--units-dir",
              str(UNITS), "--unchecked", "--referee", "Ref", "--reason", "test")  # fmt: skip
    assert "Hana Kel: 5 hits, death roll (L125)" in said
    assert "Griffin GRF-1N: Oskar Brand: dead" in said
    people = {p["name"]: p for p in json.loads(ok("report", "--db", db, "--json"))["people"]}
    assert people["Oskar Brand"]["status"] == "dead"
    rolled = "dies" if "dies" in said.split("death roll (L125)")[1].split("\n")[0] else "lives"
    assert people["Hana Kel"]["status"] == ("dead" if rolled == "dies" else "injured")


def test_an_undamaged_list_records_what_it_recorded_before(tmp_path: Path) -> None:
    """A real MegaMek list whose bins are full and whose units are whole keeps its events:
    the force and the load it wrote, no condition and no hits in the payload."""
    from mekref.daemon.store import open_store

    db = str(tmp_path / "u.db")
    ok("campaign", "new", "--db", db, "--name", "U", "--seed", "1",
       "--side", "a:A", "--side", "b:B")  # fmt: skip
    real = FIXTURES / "megamek" / "mekhq-fixedmuls-aceARC2R.mul"
    said = ok("force", "import", "--db", db, "--side", "a", str(real),
              "--unchecked", "--referee", "Ref", "--reason", "test")  # fmt: skip
    assert "came in damaged" not in said
    store = open_store(db)
    try:
        (cid,) = [c.id for c in store.list_campaigns()]
        events = store.read(cid)
    finally:
        store.close()
    assert [e.type for e in events] == ["CampaignCreated", "ForceImported", "LoadoutsRecorded"]
    assert '"hits"' not in events[1].payload
    ((_, bins),) = json.loads(events[2].payload)["loadouts"]
    # The list's own counts: the Archer's design is not at hand, nothing else is assumed.
    assert [(b["slot"], b["shots"]) for b in bins] == [(6, 6), (7, 6), (6, 6), (7, 6)]


def test_the_atlas_entity_of_the_fixture_is_the_one_documented() -> None:
    """The derived fixture stays what its README says (guards against a silent edit)."""
    atlas = _entity(read_mul_bytes(DAMAGED.read_bytes()), "Atlas")
    assert [(loc.index, loc.destroyed, loc.armor) for loc in atlas.locations] == [
        (2, False, 3), (3, False, None), (4, True, None), (5, False, 20),
    ]  # fmt: skip
    assert [(m.name, m.hits) for m in atlas.members] == [("Hana Kel", 2)]
    assert mekref("inspect", str(DAMAGED)).returncode == 0
