"""A battle file over the 32 MiB cap, through the installed console script: refused with what to
do, then read with ``--max-file-mb`` (``inspect`` and ``battle ingest``), streamed past 4 MiB.

The file is a real record with 34 MB of comments before its root: MegaMek never writes
comments, so the padding changes nothing the reader keeps, and the test stays quick."""

from __future__ import annotations

import json
import re
from pathlib import Path

from console_script import mekref, mekref_fresh

RECORD = Path(__file__).parents[1] / "fixtures" / "megamek" / "bob.mul"


def _large(tmp_path: Path) -> Path:
    data = RECORD.read_bytes()
    head, rest = data.split(b"<record", 1)
    padding = (b"<!--" + b"x" * 65_000 + b"-->\n") * 540
    path = tmp_path / "huge-game.mul"
    path.write_bytes(head + padding + b"<record" + rest)
    assert path.stat().st_size > 32 * 1024 * 1024
    return path


def test_inspect_refuses_a_huge_file_then_reads_it_with_the_flag(tmp_path: Path) -> None:
    path = _large(tmp_path)
    refused = mekref("inspect", str(path))
    assert refused.returncode == 4, refused.stderr
    assert "over the 33,554,432-byte limit" in refused.stderr
    assert "--max-file-mb" in refused.stderr

    read = mekref("inspect", "--max-file-mb", "64", "--json", str(path))
    assert read.returncode == 0, read.stderr
    small = mekref("inspect", "--json", str(RECORD))
    assert small.returncode == 0, small.stderr
    huge, plain = json.loads(read.stdout), json.loads(small.stdout)
    assert huge["units"] == plain["units"]  # streamed, the same units as the small file's
    assert len(huge["units"]) > 0

    wrong = mekref("inspect", "--max-file-mb", "0", str(path))
    assert wrong.returncode == 2
    assert "--max-file-mb must be more than zero" in wrong.stderr


def test_battle_ingest_takes_the_limit_from_the_flag(tmp_path: Path) -> None:
    path = _large(tmp_path)
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "C", "--seed", "1",
                  "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    refused = mekref("battle", "ingest", "--db", db, str(path))
    assert refused.returncode != 0
    assert "over the 33554432 byte limit" in refused.stderr
    assert "--max-file-mb" in refused.stderr
    # With the flag the file is read (the campaign has none of its units, which says so).
    read = mekref("battle", "ingest", "--db", db, "--max-file-mb", "64", str(path))
    assert "no unit or person in this file belongs to this campaign" in read.stderr
    assert "byte limit" not in read.stderr


def test_the_daemon_takes_the_limit_from_its_settings_file(tmp_path: Path) -> None:
    settings = tmp_path / "mekref.toml"
    settings.write_text("max_file_mb = 256\n")
    shown = mekref("config", "show", env={"MEKREF_CONFIG": str(settings)})
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"^\s*max_file_mb\s+= 256(\.0)?\s", shown.stdout, re.M), shown.stdout
    settings.write_text("max_file_mb = 0\n")
    refused = mekref_fresh("serve", "--watch", str(tmp_path), env={"MEKREF_CONFIG": str(settings)})
    assert refused.returncode != 0
    assert "max_file_mb must be more than zero" in refused.stderr
