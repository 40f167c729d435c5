"""MekHQ campaign import: the real Fox's Teeth campaign (MegaMek/mekhq @020a5b78) read by the
reader and imported through the installed console script; counts agree with an independent
count taken with a plain regular expression over the file; hostile inputs refused in one line."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest
from console_script import mekref

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mekhq_reader import (
    campaign_as_mul,
    read_campaign_bytes,
    target_number,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mekhq" / "FoxsTeeth.cpnx"


def _independent_counts(text: str) -> tuple[int, int]:
    units = len(re.findall(r'<unit id="\d+" type="mekhq\.campaign\.Unit">', text))
    people = len(re.findall(r'<person id="\d+" type="mekhq\.campaign\.personnel\.Person">', text))
    return units, people


def test_reader_matches_an_independent_count_and_skill_arithmetic() -> None:
    data = FIXTURE.read_bytes()
    units, people = _independent_counts(data.decode("utf-8"))
    assert (units, people) == (12, 12)
    c = read_campaign_bytes(data, str(FIXTURE))
    assert (len(c.units), len(c.people)) == (units, people)
    # TO&E: the company and its three lances, four units each.
    [company] = c.forces
    assert company.name == "McKinnon's Company (The Fox's Teeth)"
    assert [(f.name, len(f.unit_ids)) for f in company.children] == [
        ("Command Lance", 4), ("Medium Lance", 4), ("Recon Lance", 4)]  # fmt: skip
    # Skill.getFinalSkillValue: target - level - bonus; Gunnery/Mech target 7, Piloting/Mech 8.
    grey = next(p for p in c.people if p.name == "Robert Grey")
    assert grey.skill("Gunnery/Mech") == (6, 0)
    assert target_number(grey, "Gunnery/Mech", c.skill_types) == 1
    assert target_number(grey, "Piloting/Mech", c.skill_types) == 2
    assert target_number(grey, "Tactics", c.skill_types) is None  # counts up: not a target
    mul = campaign_as_mul(c, str(FIXTURE))
    hornet = next(e for e in mul.entities if e.chassis == "Hornet")
    assert hornet.members[0].name == "Robert Grey"
    assert (hornet.members[0].gunnery, hornet.members[0].piloting) == (1, 2)
    assert hornet.force is not None and hornet.force.endswith("Recon Lance|4")
    # Condition carried from the embedded entity: the LRM-5 bin's 24 shots in the left torso.
    lt = hornet.location(3)
    assert lt is not None and [(s.type, s.shots) for s in lt.slots] == [("IS Ammo LRM-5", 24)]


def test_gzipped_campaign_reads_the_same(tmp_path: Path) -> None:
    data = FIXTURE.read_bytes()
    plain = read_campaign_bytes(data, "a.cpnx")
    zipped = read_campaign_bytes(gzip.compress(data), "a.cpnx.gz")
    assert campaign_as_mul(plain) == campaign_as_mul(zipped)


def test_force_import_through_the_console_script(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    r = mekref("campaign", "new", "--db", db, "--name", "MHQ", "--seed", "7",
               "--side", "blue:Blue", "--side", "red:Red")  # fmt: skip
    assert r.returncode == 0, r.stderr
    src = tmp_path / "Fox's Teeth.cpnx"
    shutil.copy(FIXTURE, src)
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src), "--check-only")
    assert r.returncode == 3, r.stdout + r.stderr  # the violations below: as the import's own
    assert "check only: the force breaks 11 construction rule(s)" in r.stderr
    out = r.stdout
    for lance in ("Command Lance", "Medium Lance", "Recon Lance"):
        assert lance in out
    assert "Robert Grey 1/2" in out
    assert "force construction:" in out
    # The same construction checks as for a MUL: Fox's Teeth has no aerospace pair, no Force
    # Commander and Elite pilots, and is one company, not a battalion of three (L8, and no
    # Charlie: L9), so a plain import is refused with the rules listed.
    assert "force construction: 11 violation(s)" in out
    assert "battalion.companies: the battalion has 1 company" in out
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src))
    assert r.returncode != 0
    assert "refused: the force breaks 11 construction rule(s)" in r.stderr + r.stdout
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src),
               "--unchecked", "--referee", "Ann", "--reason", "MekHQ campaign test")  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "imported 12 units and 12 people for side blue" in r.stdout


@pytest.mark.parametrize(
    "payload",
    [
        b'<?xml version="1.0"?><!DOCTYPE campaign [<!ENTITY a "aa">]><campaign>&a;</campaign>',
        b"<campaign><units>",
        b'<?xml version="1.0"?>\n<campaign>',
    ],
)
def test_hostile_campaigns_refused(tmp_path: Path, payload: bytes) -> None:
    with pytest.raises(MulReadError):
        read_campaign_bytes(payload, "bad.cpnx")
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "X", "--seed", "1",
                  "--side", "blue:Blue", "--side", "red:Red").returncode == 0  # fmt: skip
    bad = tmp_path / "bad.cpnx"
    bad.write_bytes(payload)
    r = mekref("force", "import", "--db", db, "--side", "blue", str(bad))
    assert r.returncode != 0
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_truncated_and_bomb_gzip_refused(tmp_path: Path) -> None:
    zipped = gzip.compress(FIXTURE.read_bytes())
    with pytest.raises(MulReadError):
        read_campaign_bytes(zipped[: len(zipped) // 2], "cut.cpnx.gz")
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "X", "--seed", "1",
                  "--side", "blue:Blue", "--side", "red:Red").returncode == 0  # fmt: skip
    cut = tmp_path / "cut.cpnx.gz"
    cut.write_bytes(zipped[: len(zipped) // 2])
    r = mekref("force", "import", "--db", db, "--side", "blue", str(cut))
    assert r.returncode != 0
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    bomb = gzip.compress(b"<campaign>" + b" " * (200 * 1024 * 1024) + b"</campaign>")
    with pytest.raises(MulReadError) as info:
        read_campaign_bytes(bomb, "bomb.cpnx.gz")
    assert "limit" in str(info.value) or "over" in str(info.value)
