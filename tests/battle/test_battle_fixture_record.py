"""A real MegaMek record (tests/fixtures/megamek/clusterstrike-batchall-record.mul) ingested into
a campaign whose forces were imported from unit lists carrying the same externalIds.

The lists are built from the record itself with the project's writer (builders.pristine: the
same entities, undamaged, crews unhurt). ComStar's player wrote the record: survivors (Atlas III),
allies (Black Knight), salvage (two ComStar wrecks whose pilots are "Demi-Precentor"s, and the
Federated Suns units), devastated (a Rifleman RFL-8D and two ejected pilots). ComStar holds the
field; the Federated Suns never sent a file, so the referee closes the battle.
"""

from __future__ import annotations

import json
from pathlib import Path

from mekref.adapters.megamek.mul_reader import read_mul_bytes

from .builders import FIXTURES, pristine, unit_list
from .conftest import Cli

RECORD = FIXTURES / "megamek" / "clusterstrike-batchall-record.mul"
COMSTAR = ("Atlas III", "Black Knight", "Avatar", "Flashman")


def test_real_record_ingests_by_external_id(cli: Cli, tmp_path: Path) -> None:
    mul = read_mul_bytes(RECORD.read_bytes(), str(RECORD))
    units = [e for e in mul.entities if not e.is_ejected_crew]
    comstar = [pristine(e) for e in units if e.chassis in COMSTAR]
    fedsuns = [pristine(e) for e in units if e.chassis not in COMSTAR]
    (tmp_path / "cs.mul").write_text(unit_list(comstar), encoding="utf-8")
    (tmp_path / "fs.mul").write_text(unit_list(fedsuns), encoding="utf-8")
    db = str(tmp_path / "c.db")
    assert cli("campaign", "new", "--db", db, "--name", "Batchall", "--seed", "1",
               "--side", "cs:ComStar", "--side", "fs:Federated Suns")[0] == 0  # fmt: skip
    for side in ("cs", "fs"):
        code, out, err = cli("force", "import", "--db", db, "--side", side,
                             str(tmp_path / f"{side}.mul"), "--unchecked", "--referee", "Ann",
                             "--reason", "fixture forces")  # fmt: skip
        assert code == 0, err
        assert "no BV" in out  # no --bv-table: every unit is marked
    code, out, err = cli("battle", "ingest", "--db", db, str(RECORD), "--control", "cs")
    assert code == 0, err
    assert "view of side cs" in out and "missing fs" in out
    battle = out.split("for battle ")[1].split()[0]
    why = "the Federated Suns player saved no file"
    code, out, err = cli("battle", "close", "--db", db, "--battle", battle,
                         "--referee", "Ann", "--reason", why)  # fmt: skip
    assert code == 0, err
    code, out, err = cli("report", "--db", db, "--json")
    report = json.loads(out)
    fate = {f"{u['chassis']} {u['model']}": (u["fate"], u["side"]) for u in report["units"]}
    assert fate["Atlas III AS7-D2"] == ("damaged", "cs")  # damaged slots in the record
    assert fate["Avatar AV1-O Redline"] == ("destroyed_repairable", "cs")  # own wreck
    assert fate["Flashman FLS-8K (Blueshift)"] == ("destroyed_repairable", "cs")
    # Enemy 'Mechs left on the field with a dead or ejected pilot: salvage for ComStar.
    assert fate["Bandersnatch BNDR-01B"] == ("captured", "cs")
    assert fate["Penetrator PTR-6M"] == ("captured", "cs")
    # Its centre torso is written isDestroyed: "A 'Mech is only truly destroyed when its center
    # torso internal structure is eliminated" (L146) holds without its design too; the wreck
    # still changes hands (it can be scrapped).
    assert fate["Rifleman RFL-5D"] == ("truly_destroyed", "cs")
    # Devastated: no wreck to recover (BR-3), stays with its owner.
    assert fate["Rifleman RFL-8D"] == ("truly_destroyed", "fs")
    people = {p["name"]: p for p in report["people"]}
    assert people["Fouzia Zand"]["status"] == "dead"
    assert people["Orselina Ríos"]["status"] == "captured by cs"  # ejected, enemy holds field
    assert people["Rauno Kirkcaldie"]["status"] == "captured by cs"
    assert people["Demi-Precentor Epsilon XIII Wilford Abiodun"]["hits"] == 2
    assert people["Demi-Precentor Epsilon XIII Wilford Abiodun"]["status"] == "injured"
    # Kills by externalId: the Atlas III (3) and the Black Knight (1).
    assert people["Demi-Precentor Epsilon IX Tony Liu"]["kills"] == 3
    assert people['Acolyte Epsilon Hayden "Comfort" Megson']["kills"] == 1
    assert report["tracks_completed"] == 1
    # Imported without --units-dir: no tonnage, so armor and structure are not priced, and the
    # report says so instead of showing a bill of 0.
    assert all(u["repair_priced"] is False for u in report["units"])
    code, out, err = cli("report", "--db", db)
    assert code == 0, err
    assert "no design known" in out
