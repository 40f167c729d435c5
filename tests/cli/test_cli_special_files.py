"""Files a person names to ``mekref inspect`` and ``mekref force import`` (the file itself, a
MekHQ campaign, ``--bv-table`` and the designs under ``--units-dir``): a link is followed, but
what it leads to must be a regular file, and no more than the size cap is read.

A FIFO once blocked ``open()`` for good, and a link to ``/dev/zero`` read gigabytes until the
memory ran out; each is now one line and a non-zero exit, at once. The subprocess timeouts are
the test: the old code never returned.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from console_script import mekref_fresh as mekref  # the timeouts are the test: only a process stops

from mekref.daemon.samples.ginestra import FOLDER

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and links")

FIXTURES = Path(__file__).parents[1] / "fixtures" / "megamek"
RECORD = FIXTURES / "bob.mul"
UNITS = FIXTURES / "units"
FORCE = FOLDER / "loyalist.mul"  # a force whose designs are all in UNITS
QUICK = 30.0  # seconds: each refusal is immediate; reading /dev/zero would never end


def _specials(folder: Path, suffix: str) -> dict[str, str]:
    """A FIFO and a link to /dev/zero named ``*suffix``: name -> how the refusal names it."""
    os.mkfifo(folder / f"pipe{suffix}")
    (folder / f"zero{suffix}").symlink_to("/dev/zero")
    return {
        f"pipe{suffix}": "a FIFO (named pipe)",
        f"zero{suffix}": "a device, where its link leads",
    }


def test_inspect_refuses_fifos_and_devices_and_follows_a_link_to_a_file(tmp_path: Path) -> None:
    for name, kind in _specials(tmp_path, ".mul").items():
        done = mekref("inspect", str(tmp_path / name), timeout=QUICK)
        assert done.returncode == 4, (name, done.stderr)
        assert done.stderr.splitlines() == [
            f"mekref inspect: {tmp_path / name}: not read: {kind}; mekref reads regular files only"
        ]
    link = tmp_path / "link.mul"
    link.symlink_to(RECORD)  # a link to a real record is read as the record
    read = mekref("inspect", "--json", str(link), timeout=QUICK)
    assert read.returncode == 0, read.stderr
    assert '"units"' in read.stdout


def test_inspect_reads_nothing_past_the_cap(tmp_path: Path) -> None:
    huge = tmp_path / "huge.mul"
    with huge.open("wb") as out:
        out.truncate(64 << 30)  # 64 GiB, sparse: reading it all would take minutes
    done = mekref("inspect", str(huge), timeout=QUICK)
    assert done.returncode == 4, done.stderr
    assert "file is 68,719,476,736 bytes, over the 33,554,432-byte limit" in done.stderr
    assert "--max-file-mb" in done.stderr and "Traceback" not in done.stderr


def _campaign(tmp_path: Path) -> str:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "C", "--seed", "1",
                  "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    return db


def test_force_import_refuses_fifos_and_devices(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    specials = _specials(tmp_path, ".mul") | _specials(tmp_path, ".cpnx")
    for name, kind in specials.items():
        done = mekref("force", "import", "--db", db, "--side", "a", str(tmp_path / name),
                      timeout=QUICK)  # fmt: skip
        assert done.returncode == 4, (name, done.stderr)
        assert f"{tmp_path / name}: not read: {kind}; mekref reads regular files" in done.stderr
        assert "Traceback" not in done.stderr
    for name, kind in _specials(tmp_path, ".txt").items():
        table = str(tmp_path / name)
        done = mekref("force", "import", "--db", db, "--side", "a", str(RECORD),
                      "--bv-table", table, "--check-only", timeout=QUICK)  # fmt: skip
        assert done.returncode != 0, (name, done.stderr)
        assert f"--bv-table {tmp_path / name}: not read: {kind}" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_units_folder_with_fifos_and_device_links_still_gives_its_designs(
    tmp_path: Path,
) -> None:
    db = _campaign(tmp_path)
    clean = mekref("force", "import", "--db", db, "--side", "a", str(FORCE),
                   "--units-dir", str(UNITS), "--check-only", timeout=QUICK)  # fmt: skip
    # No --militia: the check finds violations and says so with 3; the designs are the point.
    assert clean.returncode == 3, clean.stderr
    units = tmp_path / "units"
    shutil.copytree(UNITS, units)
    for suffix in (".mtf", ".blk", ".zip"):  # loose unit files and archives
        _specials(units, suffix)
    done = mekref("force", "import", "--db", db, "--side", "a", str(FORCE),
                  "--units-dir", str(units), "--check-only", timeout=QUICK)  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert done.stdout == clean.stdout  # the same designs found, the special files left out
