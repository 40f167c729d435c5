"""Faults and bad input at the command line: one line saying what to do, never a traceback.

Damaged databases (a damaged page, a missing table, an event row that is not an event),
another application's SQLite file, bad ``--grpc`` addresses, missing or wrong TLS files, a
listening address others can reach without TLS, and file names carrying terminal escapes.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import MEKREF, mekref, mekref_fresh


def _one_line_error(done: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("mekref")]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _campaign(tmp_path: Path) -> str:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "X", "--seed", "1",
                  "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    return db


def _tables(db: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master"))


def test_status_refuses_another_applications_database_and_leaves_it_alone(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "notes.db")
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    before = Path(db).read_bytes()
    done = mekref("status", "--db", db)
    assert done.returncode != 0
    assert "not a mekref database (it holds tables notes)" in done.stderr
    assert "Traceback" not in done.stderr
    assert _tables(db) == ["notes"]
    assert Path(db).read_bytes() == before


def test_a_missing_table_is_named(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE events")
    done = mekref("status", "--db", db)
    assert done.returncode == 5 and "Traceback" not in done.stderr
    assert "damaged: table events is missing; restore the database from a backup" in done.stderr


def test_a_damaged_page_is_one_line(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(db, "r+b") as f:  # overwrite a page in the middle of the file
        f.seek(4096 * 2)
        f.write(b"\xde\xad" * 2048)
    for command in (("status",), ("report",)):
        line = _one_line_error(mekref(*command, "--db", db), 5, "the database is damaged (")
        assert "malformed" in line or "not a database" in line, line
        assert "restore it from a backup" in line


def test_serve_refuses_a_damaged_page_at_start(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(db, "r+b") as f:  # a page of a table no start-up read touches (snapshots)
        f.seek(4096 * 12)
        f.write(b"\xde\xad" * 2048)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    done = mekref_fresh(
        "serve", "--db", db, "--watch", str(inbox), "--log-format", "json", timeout=60
    )
    line = _one_line_error(done, 5, f"sqlite {db}: the database is damaged (quick_check: ")
    assert line.endswith("restore it from a backup (mekref never repairs a database in place)")
    assert done.stdout == ""


@pytest.mark.parametrize("payload", ["not json", '{"type": "CampaignCreated", "name": 5}'])
def test_an_event_row_that_is_not_an_event_is_named(tmp_path: Path, payload: str) -> None:
    db = _campaign(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE seq = 1", (payload,))
    line = _one_line_error(mekref("report", "--db", db), 5, "event 1 (CampaignCreated)")
    assert "is not a valid event" in line and "restore it from a backup" in line


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("127.0.0.1:99999", "not a number from 0 to 65535"),
        ("127.0.0.1:-1", "not a number from 0 to 65535"),
        ("127.0.0.1:", "not a number from 0 to 65535"),
        ("localhost", "no port"),
        ("::1:50051", "put an IPv6 address in brackets"),
    ],
)
def test_a_bad_grpc_address_is_refused_not_replaced(
    tmp_path: Path, address: str, words: str
) -> None:
    db = _campaign(tmp_path)
    done = mekref_fresh("serve", "--db", db, "--grpc", address, timeout=60)
    _one_line_error(done, 2, words)


def test_missing_or_wrong_tls_files_are_named(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    missing = tmp_path / "nope.pem"
    done = mekref_fresh("serve", "--db", db, "--grpc", "127.0.0.1:0",
                  "--tls-cert", str(missing), "--tls-key", str(missing))  # fmt: skip
    _one_line_error(done, 2, f"--tls-cert {missing}: no such file")
    wrong = tmp_path / "wrong.pem"
    wrong.write_text("not a certificate\n")
    done = mekref_fresh("serve", "--db", db, "--grpc", "127.0.0.1:0",
                  "--tls-cert", str(wrong), "--tls-key", str(wrong))  # fmt: skip
    _one_line_error(done, 2, "not a certificate in PEM form")


def test_listening_beyond_loopback_without_tls_warns(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(MEKREF), "serve", "--db", db, "--grpc", "0.0.0.0:0", "--log-format", "json"],
            stdout=out, stderr=out, env={**os.environ, "NO_COLOR": "1"},
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "listening on" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        text = log.read_text()
        assert "mekref serve: warning: the API listens on 0.0.0.0:" in text
        assert "without TLS: tokens cross the network in clear" in text
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    # On loopback there is nothing to warn about.
    log2 = tmp_path / "serve2.log"
    with log2.open("wb") as out:
        proc = subprocess.Popen(
            [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json"],
            stdout=out, stderr=out,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "listening on" not in log2.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "warning" not in log2.read_text().lower()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0


def test_file_names_cannot_drive_the_terminal(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    evil = tmp_path / "evil\x1b]0;pwned\x07\x1b[2J.mul"
    evil.write_bytes(b"<record><entity")  # cut short: quarantined with its name
    done = mekref("battle", "ingest", "--db", db, str(evil))
    assert done.returncode != 0
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "evil\\x1b]0;pwned\\x07\\x1b[2J.mul" in done.stderr
    shown = mekref("status", "--db", db, env={"COLUMNS": "400"})
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    assert "evil\\x1b]0;pwned\\x07\\x1b[2J.mul" in shown.stdout


def test_serve_on_a_damaged_event_logs_one_line_per_file(tmp_path: Path) -> None:
    db = _campaign(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = 'not json' WHERE seq = 1")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "bob.mul"
    (inbox / "bob.mul").write_bytes(fixture.read_bytes())
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(MEKREF), "serve", "--db", db, "--watch", str(inbox), "--log-format", "json"],
            stdout=out, stderr=out,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "file.store_error" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        text = log.read_text()
        assert "event 1 (CampaignCreated) is not a valid event" in text
        assert "Traceback" not in text
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
