"""A real MegaMek record (tests/fixtures/megamek/clusterstrike-batchall-record.mul) ingested into
a campaign whose forces were imported from unit lists carrying the same externalIds.

The lists are built from the record itself with the project's writer (builders.pristine: the
same entities, undamaged, crews unhurt). ComStar's player wrote the record: survivors (Atlas III),
allies (Black Knight), salvage (two ComStar wrecks whose pilots are "Demi-Precentor"s, and the
Federated Suns units), devastated (a Rifleman RFL-8D and two ejected pilots). ComStar holds the
field; the Federated Suns never sent a file, so the referee closes the battle. In the second
test the Federated Suns, who lost every unit, send their own record (derived from ComStar's as
MegaMek would write it for them, ``fedsuns_view``): it speaks for them (ruling BR-1) and the
battle resolves without the referee.
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

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


def fedsuns_view(comstar_record: str) -> str:
    """The Federated Suns player's own record of the same battle, derived from ComStar's real
    one (the fixture is never edited; this is a copy, changed only as MegaMek's record writer
    would write it for the other player, reference section 3.2):

    - The units still on the map (ComStar's Atlas III in survivors, its ally's Black Knight in
      allies) are enemies of the Federated Suns player: MegaMek writes them in ``salvage``
      (with no kill line, as they can still escape).
    - Wrecks and devastated units stay where they are: MegaMek puts every owner's there.
    - Kill lines name only the writer's enemies: the four Federated Suns kill lines go, and
      ComStar's two wrecks (Avatar, Flashman) and its two ejected pilots get one each. Who
      killed them is not known, so the killer is "None", as MegaMek writes an unknown killer;
      " (ComStar)" stands for the owner's name newer MegaMek adds.

    Every Federated Suns unit in it is destroyed: no survivor, no kill by a campaign unit."""
    text = comstar_record
    edits = (
        ("\t</survivors>\n\n\t<allies>\n\n", ""),
        ("\t</allies>\n\n\t<salvage>\n\n", ""),
        ("\t<survivors>\n\n", "\t<salvage>\n\n"),
    )
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    kills = text[text.index("\t<kills>\n") : text.index("\t</kills>\n")]
    ours = (
        "Avatar AV1-O Redline",
        "Flashman FLS-8K (Blueshift)",
        "Pilot Demi-Precentor Epsilon XIII Wilford Abiodun",
        "Pilot Demi-Precentor Epsilon XVI Bergljot &quot;Fish Fry&quot; Lönnroth",
    )
    lines = "".join(f'\t\t<kill killed="{n} (ComStar)" killer="None"/>\n' for n in ours)
    return text.replace(kills, "\t<kills>\n\n" + lines)


def test_the_wiped_out_sides_own_record_resolves_the_battle(tmp_path: Path) -> None:
    # Ruling BR-1: "a battle result seen from one player's point of view"; the player who lost
    # every unit writes one too. L145: "A unit may be considered "destroyed" during a game".
    # Through the installed console script: ComStar's real record, then the Federated Suns'
    # own (derived from it, fedsuns_view): the battle resolves with no 'battle close'.
    mul = read_mul_bytes(RECORD.read_bytes(), str(RECORD))
    units = [e for e in mul.entities if not e.is_ejected_crew]
    for side, pick in (("cs", True), ("fs", False)):
        chosen = [pristine(e) for e in units if (e.chassis in COMSTAR) is pick]
        (tmp_path / f"{side}.mul").write_text(unit_list(chosen), encoding="utf-8")
    fs_view = tmp_path / "fedsuns-record.mul"
    fs_view.write_text(fedsuns_view(RECORD.read_text(encoding="utf-8")), encoding="utf-8")
    db = str(tmp_path / "c.db")
    run = ("--db", db)
    done = mekref("campaign", "new", *run, "--name", "Batchall", "--seed", "1",
                  "--side", "cs:ComStar", "--side", "fs:Federated Suns")  # fmt: skip
    assert done.returncode == 0, done.stderr
    for side in ("cs", "fs"):
        done = mekref("force", "import", *run, "--side", side, str(tmp_path / f"{side}.mul"),
                      "--unchecked", "--referee", "Ann", "--reason", "fixture forces")  # fmt: skip
        assert done.returncode == 0, done.stderr
    done = mekref("battle", "ingest", *run, str(RECORD), "--control", "cs")
    assert done.returncode == 0, done.stderr
    assert "view of side cs" in done.stdout and "missing fs" in done.stdout
    done = mekref("battle", "ingest", *run, str(fs_view))
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "view of side fs" in out and "missing" not in out
    done = mekref("report", *run, "--json")
    report = json.loads(done.stdout)
    (battle,) = report["battles"]
    assert battle["status"] == "resolved"  # no referee closed it
    fate = {f"{u['chassis']} {u['model']}": (u["fate"], u["side"]) for u in report["units"]}
    # What the referee's close gave before (test_real_record_ingests_by_external_id), now from
    # both players' own files: each describes its own units (BR-2).
    assert fate["Avatar AV1-O Redline"] == ("destroyed_repairable", "cs")
    assert fate["Bandersnatch BNDR-01B"] == ("captured", "cs")
    assert fate["Penetrator PTR-6M"] == ("captured", "cs")
    assert fate["Rifleman RFL-5D"] == ("truly_destroyed", "cs")
    assert fate["Rifleman RFL-8D"] == ("truly_destroyed", "fs")
    people = {p["name"]: p for p in report["people"]}
    assert people["Demi-Precentor Epsilon IX Tony Liu"]["kills"] == 3  # no "None" kill credited
