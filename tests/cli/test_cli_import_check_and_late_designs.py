"""``force import --check-only`` answers with its exit code (each in a fresh process of the
installed ``mekref``).

- ``--check-only`` exits 3 when the force breaks a construction rule (the real import refuses
  it with 3), 0 when it breaks none, a BV limit *not known* included (the import takes such a
  force: ruling R-FORCE-14). docs/campaign.md, docs/cli.md "Exit codes".
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref_fresh as mekref

from mekref.daemon.samples.ginestra import LEGAL, LEGAL_MILITIA

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
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
