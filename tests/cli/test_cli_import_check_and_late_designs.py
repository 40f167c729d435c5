"""``force import --check-only`` answers with its exit code, and ``force designs`` never lets a
condition kept without a design pass for priced (each in a fresh process of the installed
``mekref``).

- ``--check-only`` exits 3 when the force breaks a construction rule (the real import refuses
  it with 3), 0 when it breaks none, a BV limit *not known* included (the import takes such a
  force: ruling R-FORCE-14). docs/campaign.md, docs/cli.md "Exit codes".
- A damaged unit imported without a design keeps the file's armour and structure as its maxima;
  recording its design later (``force designs``) does not measure that condition again, so the
  import and ``force designs`` both name each such unit and what to do (docs/campaign.md).
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref_fresh as mekref

from mekref.daemon.samples.ginestra import LEGAL, LEGAL_MILITIA

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
RECORD = FIXTURES / "clusterstrike-batchall-record.mul"
REPLAY_UNITS = Path(__file__).resolve().parents[2] / "daemon" / "samples" / "replay" / "units"
WIDE = {"COLUMNS": "240"}


def _campaign(tmp_path: Path) -> str:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
                  "--side", "rebel:R", "--side", "red:Red")  # fmt: skip
    assert made.returncode == 0, made.stderr
    return db


def test_check_only_exits_3_with_violations_and_imports_nothing(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    done = mekref("force", "import", "--db", db, "--side", "rebel", "--check-only",
                  str(FIXTURES / "Clan Boxset RS all.mul"), env=WIDE)  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    assert "force construction: 9 violation(s)" in done.stdout
    assert done.stderr.startswith(
        "mekref force import: check only: the force breaks 9 construction rule(s), listed "
        "above; nothing imported"
    ), done.stderr
    listed = mekref("force", "list", "--db", db, "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout) == []


def test_check_only_exits_0_for_a_legal_force_and_for_a_bv_limit_not_known(
    tmp_path: Path,
) -> None:
    db = _campaign(tmp_path)
    base = ["force", "import", "--db", db, "--side", "rebel", str(LEGAL / "rebel.mul"),
            "--units-dir", str(LEGAL / "units"), "--militia", LEGAL_MILITIA["rebel"],
            "--check-only"]  # fmt: skip
    # The sample's table has no BV for the Chippewas: Alpha's and Bravo's limits are not
    # known. The import takes such a force, so does the check (R-FORCE-14).
    unknown = mekref(*base, "--bv-table", str(LEGAL / "Units.txt"), env=WIDE)
    assert unknown.returncode == 0, unknown.stdout + unknown.stderr
    assert "force construction: not known (no violation found; 2 BV limit(s) not known)" in (
        unknown.stdout
    )
    # A table with their BV: a clean verdict.
    table = (LEGAL / "Units.txt").read_text(encoding="utf-8")
    priced = table.replace("Chippewa|CHP-W7|586|90||", "Chippewa|CHP-W7|586|90|1500|")
    assert priced != table
    (tmp_path / "Units.txt").write_text(priced, encoding="utf-8")
    legal = mekref(*base, "--bv-table", str(tmp_path / "Units.txt"), env=WIDE)
    assert legal.returncode == 0, legal.stdout + legal.stderr
    assert "force construction: no violation" in legal.stdout
    assert legal.stderr == ""


def test_a_design_recorded_after_a_damaged_import_says_the_damage_stays_unpriced(
    tmp_path: Path,
) -> None:
    db = _campaign(tmp_path)
    imported = mekref("force", "import", "--db", db, "--side", "red", str(RECORD), "--unchecked",
                      "--referee", "Ann", "--reason", "record test", env=WIDE)  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    said = " ".join(imported.stdout.split())
    assert (
        "Black Knight BL-6-KNT: its condition is kept without a design: the file's armour and "
        "structure are taken as the maxima, so the damage it comes in with stays unpriced, even "
        "after 'mekref force designs'; import the list with --units-dir to price it"
    ) in said

    done = mekref("force", "designs", "--db", db, "--units-dir", str(REPLAY_UNITS), env=WIDE)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert out.startswith("recorded the design of 8 unit(s)")
    units = json.loads(mekref("force", "list", "--db", db, "--json").stdout)
    knight = next(u for u in units if u["chassis"] == "Black Knight")
    assert f"Black Knight BL-6-KNT ({knight['id']}): its kept damage stays unpriced" in out
    assert out.count("its kept damage stays unpriced") == 8
    assert (
        "8 unit(s) keep a condition read without a design (at import or in a battle): the "
        "file's armour and structure were taken as the maxima, and recording the design does "
        "not measure that condition again"
    ) in out
    assert "import the list again with --units-dir into a new campaign" in out
    # What it says is what the books show: the condition is as the file alone gave it, so
    # force list gives no armour or structure figure for it (not known, never 41/41).
    assert knight["design_known"] is False and knight["armor_max"] is knight["armor"] is None
    listed = " ".join(mekref("force", "list", "--db", db).stdout.split())
    assert "? (no design)" in listed and "import its list with --units-dir" in listed
    books = json.loads(mekref("report", "--db", db, "--json").stdout)
    row = next(u for u in books["units"] if u["id"] == knight["id"])
    assert row["repair_priced"] is False and row["repair"]["total_sp"] is None

    # Nothing left to record: nothing said again.
    again = mekref("force", "designs", "--db", db, "--units-dir", str(REPLAY_UNITS))
    assert again.returncode == 0 and "unpriced" not in again.stdout
