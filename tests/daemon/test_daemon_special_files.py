"""Special files in a watched folder, or named to ``mekref battle ingest``, never stop mekref.

A FIFO named ``*.mul`` would block ``open()`` (and the first SIGTERM), a link to ``/dev/zero``
would spin a core, a link to ``/etc/passwd`` would be read and copied into quarantine: each is
skipped without being opened, logged with what it is, and a good file after them is applied.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from daemon_helpers import Serve, battle_bytes, drop, ingested, new_campaign, sha, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import mekref

from mekref.daemon.store import open_store

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and links")

SPECIAL = {
    "pipe.mul": "a FIFO (named pipe)",
    "passwd.mul": "a symbolic link",
    "zero.mul": "a symbolic link",
    "inside.mul": "a symbolic link",
}


def _make_special(folder: Path) -> None:
    os.mkfifo(folder / "pipe.mul")
    (folder / "passwd.mul").symlink_to("/etc/passwd")
    (folder / "zero.mul").symlink_to("/dev/zero")
    real = folder / "real.txt"
    real.write_bytes(battle_bytes(3))
    (folder / "inside.mul").symlink_to(real)  # even a link inside the folder: never followed


def test_the_daemon_skips_fifos_and_links_and_goes_on(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    cid = new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    _make_special(inbox)  # present at the start-up scan, which once blocked on the FIFO
    serve = Serve(db, [inbox], tmp_path / "quarantine", tmp_path / "serve.log").start()
    try:
        skipped = wait_until(
            lambda: (found := serve.events("file.skipped")) and len(found) >= 4 and found,
            "the special files skipped",
        )
        reasons = {Path(line["path"]).name: line["reason"] for line in skipped}
        for name, kind in SPECIAL.items():
            assert reasons[name].startswith(kind), (name, reasons[name])
        good = battle_bytes(6)
        drop(inbox, "good.mul", good)
        wait_until(
            lambda: [f.sha256 for f in ingested(db, cid)] == [sha(good)], "a good file applied"
        )
        quarantine = tmp_path / "quarantine"
        copied = list(quarantine.iterdir()) if quarantine.exists() else []
        assert copied == []  # /etc/passwd was neither read nor copied
    finally:
        assert serve.stop() == 0  # the first SIGTERM stops it: nothing blocks in open()


def test_battle_ingest_refuses_fifos_and_links_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    new_campaign(db)
    _make_special(tmp_path)
    for name, kind in SPECIAL.items():
        done = mekref("battle", "ingest", "--db", db, str(tmp_path / name), timeout=60)
        assert done.returncode != 0, name
        err = [line for line in done.stderr.splitlines() if "mekref battle ingest" in line]
        assert err == [
            f"mekref battle ingest: {tmp_path / name}: not read: {kind}; mekref reads regular "
            "files only and never follows a link"
        ], done.stderr
        assert "Traceback" not in done.stderr
    gone = mekref("battle", "ingest", "--db", db, str(tmp_path / "missing.mul"))
    assert gone.returncode != 0 and "not found: no such file" in gone.stderr


def test_a_file_whose_name_is_not_utf8_is_applied_once(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    cid = new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    good = battle_bytes(6)
    odd = os.fsencode(inbox) + b"/battle-\xff\xfe.mul"  # Latin-1 bytes from an old share
    with open(odd, "wb") as out:
        out.write(good)
    serve = Serve(
        db, [inbox], tmp_path / "quarantine", tmp_path / "serve.log", extra=("--rescan", "0.5")
    ).start()
    try:
        wait_until(lambda: [f.sha256 for f in ingested(db, cid)] == [sha(good)], "applied")
        # Rescans go by without a traceback nor a second look at the file.
        time.sleep(2.0)  # four rescans at --rescan 0.5
        assert "Traceback" not in (tmp_path / "serve.log").read_text(errors="replace")
        assert len(serve.events("file.applied")) == 1
    finally:
        assert serve.stop() == 0


def test_a_broken_file_whose_name_is_not_utf8_is_quarantined_once(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    broken = battle_bytes(7)[:300]  # cut short: never a battle record
    with open(os.fsencode(inbox) + b"/\xff\xfe.mul", "wb") as out:
        out.write(broken)
    quarantine = tmp_path / "quarantine"
    serve = Serve(db, [inbox], quarantine, tmp_path / "serve.log", extra=("--rescan", "0.5"))
    serve.start()
    try:
        found = wait_until(lambda: serve.events("file.quarantined"), "the file quarantined")
        time.sleep(2.0)  # four rescans at --rescan 0.5: none looks at it again
        assert "Traceback" not in (tmp_path / "serve.log").read_text(errors="replace")
        assert len(serve.events("file.quarantined")) == 1
        assert serve.events("file.failed") == []
    finally:
        assert serve.stop() == 0
    shown = str(inbox) + "/\\xff\\xfe.mul"  # the bytes escaped, readable
    assert found[0]["path"] == shown
    assert found[0]["reason"].startswith(f"{shown}:")
    with open_store(db) as store:
        (record,) = store.quarantined_files()
    assert record.sha256 == sha(broken) and record.original_path == shown
    assert record.reason.startswith(f"{shown}:") and "truncated" in record.reason
    assert (quarantine / "%ff%fe.mul").read_bytes() == broken
    note = (quarantine / "%ff%fe.mul.reason.txt").read_text(encoding="utf-8")
    assert f"File:    {shown}\n" in note


def test_battle_ingest_of_a_broken_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    new_campaign(db)
    path = os.fsencode(tmp_path) + b"/battle-\xff.mul"
    with open(path, "wb") as out:
        out.write(battle_bytes(8)[:300])
    done = mekref("battle", "ingest", "--db", db, os.fsdecode(path))
    assert done.returncode == 3, done.stderr
    shown = f"{tmp_path}/battle-\\xff.mul"
    assert done.stderr.startswith(f"mekref battle ingest: {shown}: quarantined: {shown}:6:")
    assert "Traceback" not in done.stderr and "\\udc" not in done.stderr
