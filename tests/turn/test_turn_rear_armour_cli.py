"""Front and rear armour kept apart where the file says them (ruling T-X2), through the installed
``mekref`` console script.

The Word of Blake record ``tests/fixtures/megamek/clusterstrike-batchall-record.mul`` (the same
bytes as ``daemon/samples/replay/02-clusterstrike.mul``) writes the Atlas III AS7-D2::

    <location index="1"> Center Torso
        <armor points="35"/>
        <armor points="21" type="Internal"/>
        <armor points="Destroyed" type="Rear"/>
    <location index="3"> Left Torso
        <armor points="1"/>
        <armor points="20" type="Internal"/>
        <armor points="Destroyed" type="Rear"/>

and the Avatar AV1-O Redline::

    <location index="2"> Right Torso
        <armor points="4"/>
        <armor points="14" type="Internal"/>
        <armor points="Destroyed" type="Rear"/>

The campaign keeps one armour figure per location (front and rear together: the Atlas III's
centre torso 35 of 62), and now the rear's share beside it. What the campaign writes back must
say what the file said: the front at 35 and the rear shot away (0 of its 12), not the loss taken
from the front first (front 23, rear 12), and not the rear left out (read by MekHQ as whole).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref_fresh
from ginestra_cli import UNITS

from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.samples.ginestra import FOLDER

ROOT = Path(__file__).parents[2]
RECORD = ROOT / "tests" / "fixtures" / "megamek" / "clusterstrike-batchall-record.mul"
REPLAY = ROOT / "daemon" / "samples" / "replay"
ATLAS3, AVATAR = "Atlas III AS7-D2", "Avatar AV1-O Redline"
#: (unit, location index, name) -> (front, rear) as the file says them.
SAID = {
    (ATLAS3, 1, "Center Torso"): (35, 0),
    (ATLAS3, 3, "Left Torso"): (1, 0),
    (AVATAR, 2, "Right Torso"): (4, 0),
}
#: The rear's maximum in each design (daemon/samples/replay/units).
REAR_MAX = {(ATLAS3, "Center Torso"): 12, (ATLAS3, "Left Torso"): 10, (AVATAR, "Right Torso"): 8}


def ok(*args: str) -> str:
    """``mekref ARGS`` in a fresh process of the installed console script; it must succeed."""
    done = mekref_fresh(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _entity_text(text: str, chassis: str) -> str:
    start = text.index(f'\t\t<entity chassis="{chassis}"')
    return text[start : text.index("</entity>", start) + len("</entity>\n")]


def _locations_json(rows: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (f"{r['chassis']} {r['model']}", loc["name"]): loc
        for r in rows
        if f"{r['chassis']} {r['model']}" in (ATLAS3, AVATAR)
        for loc in r["locations"]
    }


def _check_force_list(db: str) -> None:
    """``force list --json``: the armour stays front and rear together (the totals every price
    reads); the rear's share is given beside it."""
    locations = _locations_json(json.loads(ok("force", "list", "--db", db, "--json")))
    for (unit, _, name), (front, rear) in SAID.items():
        loc = locations[(unit, name)]
        assert (loc["rear"], loc["rear_max"]) == (rear, REAR_MAX[(unit, name)]), (unit, name)
        assert loc["armor"] - loc["rear"] == front, (unit, name)
    centre = locations[(ATLAS3, "Center Torso")]
    assert (centre["armor"], centre["armor_max"]) == (35, 62)


def _check_entities(entities: list[Entity], *, whole_rear_omitted: bool) -> None:
    by_name = {f"{e.chassis} {e.model}": e for e in entities}
    for (unit, index, name), (front, rear) in SAID.items():
        [loc] = [loc for loc in by_name[unit].locations if loc.index == index]
        assert (loc.armor, loc.rear) == (front, rear), (unit, name)
    # A rear the battle left whole: written only where a figure differs (the record), else
    # as designed (the Avatar's left torso rear, 2 of 8, is written as 2 either way).
    [left] = [loc for loc in by_name[AVATAR].locations if loc.index == 3]
    assert (left.armor, left.rear) == (7, 2)
    [centre] = [loc for loc in by_name[AVATAR].locations if loc.index == 1]
    assert centre.rear == (None if whole_rear_omitted else 9)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("rear-replay")
    db = str(tmp / "r.db")
    said = ok("replay", str(REPLAY), "--ruleset", "tripwire", "--seed", "7", "--db", db)
    assert said.strip().splitlines()[-1].startswith("state-hash: ")
    return {"db": db, "tmp": tmp}


def test_the_replayed_record_keeps_the_rear_apart(replayed: dict[str, Any]) -> None:
    _check_force_list(replayed["db"])


def test_the_record_handed_back_writes_the_rear_shot_away(replayed: dict[str, Any]) -> None:
    """``battle export-record`` writes each figure that differs from the design, as MegaMek's
    ``EntityListFile.getLocString`` does: the centre torso's front 35 and its rear at 0 (the
    file's "Destroyed"), not front 23 with the rear left out (read by MekHQ as whole)."""
    tmp: Path = replayed["tmp"]
    reports = json.loads(ok("report", "--db", replayed["db"], "--json"))["battles"]
    battle = next(b["id"] for b in reports if any(u["side"] == "wob" for u in b["units"]))
    ok("battle", "export-record", "--db", replayed["db"], "--battle", battle,
       "--side", "wob", "-o", str(tmp))  # fmt: skip
    record = read_mul_bytes((tmp / f"{battle}-wob-record.mul").read_bytes())
    _check_entities(list(record.entities), whole_rear_omitted=True)


def test_an_imported_unit_goes_out_to_the_scenario_with_its_rear_as_the_file_said(
    tmp_path: Path,
) -> None:
    """The Ginestra rebels with the record's Atlas III and Avatar in place of the Atlas and
    Marauder: ``force list --json``, and the ``engagement export`` scenario (``.mul`` and the
    ``.mms`` ``DamageSpecific`` line: ``N1:35,R1:0``), give the front and rear as the file did."""
    record = RECORD.read_text(encoding="utf-8")
    rebel = (FOLDER / "rebel.mul").read_text(encoding="utf-8")
    for old, new in (("Atlas", ATLAS3.split(" AS7")[0]), ("Marauder", "Avatar")):
        was = _entity_text(rebel, old)
        rebel = rebel.replace(was, _entity_text(record, new))
    (tmp_path / "rebel.mul").write_text(rebel, encoding="utf-8")
    units = tmp_path / "units"
    shutil.copytree(UNITS, units)
    for name in (ATLAS3, AVATAR):
        shutil.copy(REPLAY / "units" / f"{name}.mtf", units)
    setup = (FOLDER / "strategic.toml").read_text(encoding="utf-8")
    setup = setup.replace('"Atlas AS7-D"', f'"{ATLAS3}"').replace("Marauder MAD-3R", AVATAR)
    (tmp_path / "strategic.toml").write_text(setup, encoding="utf-8")
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side, path in (("loyalist", FOLDER / "loyalist.mul"), ("rebel", tmp_path / "rebel.mul")):
        ok("force", "import", "--db", db, "--side", side, str(path), "--units-dir", str(units),
           "--unchecked", "--referee", "Ref", "--reason", "test forces")  # fmt: skip
    _check_force_list(db)
    ok("turn", "setup", "--db", db, "--file", str(tmp_path / "strategic.toml"))
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "rebel", "-o", str(out))
    [mul] = out.glob("*-rebel.mul")
    _check_entities(list(read_mul_bytes(mul.read_bytes()).entities), whole_rear_omitted=False)
    [mms] = out.glob("*.mms")
    lines = mms.read_text(encoding="utf-8").splitlines()
    for unit, want in ((ATLAS3, {"N1": "35", "R1": "0", "N3": "1", "R3": "0"}),
                       (AVATAR, {"N2": "4", "R2": "0", "N3": "7", "R3": "2"})):  # fmt: skip
        [key] = [ln.split("=")[0] for ln in lines if ln.split("=", 1)[-1].startswith(unit + ",")]
        [damage] = [ln.split("=", 1)[1] for ln in lines if ln.startswith(f"{key}_DamageSpecific=")]
        given = dict(part.split(":") for part in damage.split(","))
        assert {k: given[k] for k in want} == want, (unit, damage)
