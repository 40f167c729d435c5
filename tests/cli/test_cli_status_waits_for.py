"""`mekref status` says what each waiting battle waits for, and the command that gives it: a
battle whose every side has reported waits for who holds the field (`battle control`)."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref, mekref_fresh

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "daemon" / "samples" / "ginestra"
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"


def test_a_battle_with_every_file_in_waits_for_who_holds_the_field(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    made = mekref("campaign", "new", "--db", db, "--name", "S", "--seed", "1",
                  "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    assert made.returncode == 0, made.stderr
    for side in ("rebel", "loyalist"):
        imported = mekref("force", "import", "--db", db, "--side", side,
                          str(SAMPLE / f"{side}.mul"), "--units-dir", str(UNITS),
                          "--unchecked", "--referee", "A", "--reason", "a test")  # fmt: skip
        assert imported.returncode == 0, imported.stderr
    ingested = mekref("battle", "ingest", "--db", db, str(SAMPLE / "rebel.mul"),
                      "--units-dir", str(UNITS))  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    battle = ingested.stdout.split("for battle ")[1].split()[0]
    shown = mekref_fresh("status", "--db", db, env={"COLUMNS": "250"})
    assert shown.returncode == 0, shown.stderr
    assert "waits for" in shown.stdout
    assert f"who holds the field: mekref battle control --battle {battle} --side SIDE" in (
        shown.stdout
    )
