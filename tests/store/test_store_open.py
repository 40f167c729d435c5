"""open_store: URLs, migrations on open, and refusing a schema from the future."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from mekref.daemon.store import (
    LATEST_VERSION,
    NewEvent,
    SchemaTooNew,
    StoreDamaged,
    StoreError,
    StoreUnavailable,
    open_store,
)
from mekref.daemon.store.schema import MIGRATIONS

WORKER = Path(__file__).with_name("store_worker.py")


def versions(url: str) -> list[int]:
    if url.startswith("postgresql://"):
        with psycopg.connect(url) as conn:
            found = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    else:
        import sqlite3

        conn2 = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            found = conn2.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
        finally:
            conn2.close()
    return [int(row[0]) for row in found]


def test_sqlite_urls_and_paths(tmp_path: Path) -> None:
    for url in (
        f"sqlite:///{tmp_path / 'a.db'}",
        str(tmp_path / "b.db"),
        str(tmp_path / "new" / "dir" / "c.db"),
    ):
        with open_store(url) as store:
            assert store.engine == "sqlite"
            assert store.schema_version() == LATEST_VERSION


def test_unusable_urls_are_refused() -> None:
    for url in (":memory:", "sqlite:///", "mysql://x/y", ""):
        with pytest.raises(ValueError):
            open_store(url)


def test_opening_again_is_idempotent(store_url: str) -> None:
    for _ in range(3):
        with open_store(store_url) as store:
            campaign = store.create_campaign("A", "tripwire")
            assert store.schema_version() == LATEST_VERSION
    assert versions(store_url) == [m.version for m in MIGRATIONS]
    with open_store(store_url) as store:
        assert len(store.list_campaigns()) == 3
        assert campaign in store.list_campaigns()


def test_a_closed_store_refuses_work(store_url: str) -> None:
    store = open_store(store_url)
    store.close()
    with pytest.raises(StoreError):
        store.list_campaigns()


def test_concurrent_opens_migrate_exactly_once(store_url: str, tmp_path: Path) -> None:
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "open", store_url, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    go.touch()  # all four are waiting on this; they race to migrate the empty database
    outputs = [w.communicate(timeout=120) for w in workers]
    assert [w.returncode for w in workers] == [0] * 4, outputs
    assert [out.strip() for out, _ in outputs] == [str(LATEST_VERSION)] * 4
    assert versions(store_url) == [m.version for m in MIGRATIONS]


def test_a_newer_schema_is_refused(store_url: str) -> None:
    with open_store(store_url) as store:
        store.create_campaign("A", "tripwire")
    future = LATEST_VERSION + 1
    if store_url.startswith("postgresql://"):
        with psycopg.connect(store_url) as conn:
            conn.execute(
                "INSERT INTO schema_version VALUES (%s, 'from the future', 'x')", (future,)
            )
    else:
        import sqlite3

        conn2 = sqlite3.connect(store_url.removeprefix("sqlite:///"))
        with conn2:
            conn2.execute(
                "INSERT INTO schema_version VALUES (?, 'from the future', 'x')", (future,)
            )
        conn2.close()
    with pytest.raises(SchemaTooNew):
        open_store(store_url)


def test_connections_of_finished_threads_are_closed(store_url: str) -> None:
    import threading

    with open_store(store_url) as store:
        cid = store.create_campaign("A", "tripwire").id
        for _ in range(5):
            worker = threading.Thread(target=store.last_seq, args=(cid,))
            worker.start()
            worker.join()
        store.last_seq(cid)  # a new connection for this thread sweeps the finished ones
        assert len(store._conns) <= 2  # type: ignore[attr-defined]


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    # A mistyped --db (a .mul, a text file) must be a StoreError callers report, not a crash.
    not_a_db = tmp_path / "force.mul"
    not_a_db.write_text("<unit>" + "x" * 200 + "</unit>\n", encoding="utf-8")
    with pytest.raises(StoreError, match="not a database"):
        open_store(str(not_a_db))


def test_an_unreachable_postgresql_is_store_unavailable() -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    with pytest.raises(StoreUnavailable):
        open_store("postgresql://postgres@127.0.0.1:1/test?connect_timeout=5")


def test_a_locked_sqlite_database_is_store_unavailable_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    import sqlite3

    from mekref.daemon.store.sqlite import SqliteEventStore

    path = tmp_path / "locked.db"
    store = SqliteEventStore(path, busy_timeout_ms=50)
    cid = store.create_campaign("A", "tripwire").id
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holding the write lock
    try:
        with pytest.raises(StoreUnavailable):
            store.append(cid, 0, [NewEvent("e", "{}")])
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert store.last_seq(cid) == 0
    assert store.append(cid, 0, [NewEvent("e", "{}")]).last_seq == 1  # and it recovers
    store.close()


def test_check_passes_a_sound_store(store_url: str) -> None:
    with open_store(store_url) as store:
        store.create_campaign("C", "tripwire")
        store.check()  # nothing raised


def test_check_and_reads_name_a_damaged_sqlite_page(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "campaign.db"
    with open_store(str(path)) as store:
        cid = store.create_campaign("C", "tripwire").id
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(path, "r+b") as f:  # the campaigns table's page
        f.seek(4096 * 2)
        f.write(b"\xde\xad" * 2048)
    with open_store(str(path)) as store:
        with pytest.raises(StoreDamaged, match="restore it from a backup"):
            store.check()
        with pytest.raises(StoreDamaged, match=r"the database is damaged \(.*malformed"):
            store.get_campaign(cid)
