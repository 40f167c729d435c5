"""A store written by the previous release opens, upgrades in place and goes on (issue 33, 4).

The fixture (tests/fixtures/stores/v1-7490af6, see its ORIGIN.md) is a SQLite store made by the
release at commit 7490af6: schema version 1, one battle resolved, no ``api_tokens`` table. Every
test works on a copy, through the installed console script."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from console_script import MEKREF, mekref

OLD = Path(__file__).parents[1] / "fixtures" / "stores" / "v1-7490af6"
BATTLE = "battle-dd489c3039f5"
#: The two files that release ingested (status --json at that release listed these).
OLD_FILES = {
    "dd489c3039f5a70190882bca56dcbdd3394abcde3acf6f14978f621673b4dbf6",
    "22fe352cce32fde6ab1c6d240a3309d9a755190b25e7ea0dc0babc9977d1d473",
}


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "ginestra.db"
    shutil.copyfile(OLD / "ginestra.db", db)
    return db


def _old_fates() -> dict[str, str]:
    """Unit id prefix → fate, as the old release's report printed them."""
    text = (OLD / "report-at-7490af6.txt").read_text(encoding="utf-8")
    rows = re.findall(r"^│ ([0-9a-f]{8}) │[^│]+│ (\w+)\s+│ ([a-z ]+?)\s+│", text, re.M)
    return {unit: fate for unit, _side, fate in rows}


def test_report_upgrades_the_store_keeps_a_copy_and_the_books_agree(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    done = mekref("report", "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    # The upgrade says so on stderr (stdout is the report's JSON) and keeps the old file.
    assert "store upgraded" in done.stderr and "from_version=1" in done.stderr
    backup = tmp_path / "ginestra.db.v1.bak"
    with sqlite3.connect(backup) as conn:
        assert [row[0] for row in conn.execute("SELECT version FROM schema_version")] == [1]
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (29,)
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "api_tokens" not in names
    report = json.loads(done.stdout)
    fates = {unit["id"][:8]: unit["fate"].replace("_", " ") for unit in report["units"]}
    old = _old_fates()
    assert len(old) == 21 and fates == old
    battle = next(b for b in report["battles"] if b["id"] == BATTLE)
    assert battle["status"] == "resolved" and battle["control"] == "loyalist"
    with sqlite3.connect(db) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_version")]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert versions == [1, 2] and "api_tokens" in tables
    # Opened again: nothing more to upgrade, nothing said.
    again = mekref("report", "--db", str(db))
    assert again.returncode == 0 and "store upgraded" not in again.stderr


def test_status_keeps_the_ingested_files_identity(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    status = mekref("status", "--db", str(db), "--json")
    assert status.returncode == 0, status.stderr
    assert {row["sha256"] for row in json.loads(status.stdout)["ingested"]} == OLD_FILES
    # Off a terminal the tables are 120 columns wide, as every table the CLI prints: a battle
    # id is never cut across two lines (issue 32: "status wraps at 80 columns").
    plain = {k: v for k, v in os.environ.items() if k != "COLUMNS"}  # the default width
    words = subprocess.run([str(MEKREF), "status", "--db", str(db)], env=plain,
                           capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    battles = {row["battle_id"] for row in json.loads(status.stdout)["ingested"]}
    assert battles and all(b in words.stdout for b in battles), words.stdout


def test_the_upgraded_campaign_takes_new_orders_and_a_new_day(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    orders = mekref("orders", "submit", "--db", str(db), "--side", "loyalist", "--day", "3",
                    "--order", "alpha:guard")  # fmt: skip
    assert orders.returncode == 0, orders.stderr
    resolved = mekref("turn", "resolve", "--db", str(db), "--day", "3")
    assert resolved.returncode == 0, resolved.stderr
    assert "day 3 resolved" in resolved.stdout


def test_a_token_can_be_made_on_the_upgraded_store(tmp_path: Path) -> None:
    # The table the old release lacked is the one the API needs first.
    db = _copy(tmp_path)
    made = mekref("token", "create", "--db", str(db), "--referee", "--label", "ref")
    assert made.returncode == 0, made.stderr
    listed = mekref("token", "list", "--db", str(db))
    assert listed.returncode == 0 and "ref" in listed.stdout


def test_a_store_missing_a_table_of_its_own_version_is_damaged(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE unmatched_files")
    refused = mekref("report", "--db", str(db))
    assert refused.returncode != 0
    assert "damaged: table unmatched_files is missing" in refused.stderr
    assert not (tmp_path / "ginestra.db.v1.bak").exists()


def test_serve_opens_the_old_store_and_stops_cleanly(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    log = tmp_path / "serve.log"
    argv = [str(MEKREF), "serve", "--db", str(db), "--watch", str(inbox), "--log-format", "json"]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=out)
        try:
            deadline = time.monotonic() + 60
            while b'"scan.done"' not in log.read_bytes() and proc.poll() is None:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            assert proc.poll() is None, log.read_text()
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=60)
    lines = [json.loads(raw) for raw in log.read_text().splitlines() if raw.startswith("{")]
    assert code == 0, log.read_text()
    assert any(line["event"] == "store upgraded" for line in lines)
    assert not any(line.get("level") == "error" for line in lines), log.read_text()


def test_a_snapshot_this_release_cannot_read_is_folded_past(tmp_path: Path) -> None:
    # A snapshot is a cache of the fold: one in a shape this release does not know (written by
    # another release) is set aside with a warning and the campaign folded from its start.
    db = _copy(tmp_path)
    before = mekref("report", "--db", str(db), "--json")
    assert before.returncode == 0, before.stderr
    with sqlite3.connect(db) as conn:
        (campaign,) = conn.execute("SELECT id FROM campaigns").fetchone()
        conn.execute(
            "INSERT INTO snapshots (campaign_id, seq, state, state_hash, saved_at) "
            "VALUES (?, 29, ?, 'x', '2026-12-01')",
            (campaign, '{"shape": "of another release"}'),
        )
    after = mekref("report", "--db", str(db), "--json")
    assert after.returncode == 0, after.stderr
    assert "snapshot.unreadable" in after.stderr
    assert json.loads(after.stdout) == json.loads(before.stdout)
