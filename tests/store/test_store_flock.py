"""The SQLite store's writer section where flock exists: taken with flock directly.

It must exclude what ``filelock`` takes on the same lock file (another mekref release, a
script using filelock), in both directions, across processes as well as threads; and where
the file system has no flock it falls back to filelock instead of failing. No test measures
time: the assertions are about who gets in.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from mekref.daemon.store import NewEvent, WriterBusy, locks, open_store
from mekref.daemon.store import sqlite as engine
from mekref.daemon.store.sqlite import SqliteEventStore

pytestmark = pytest.mark.skipif(not locks.HAS_FLOCK, reason="flock is POSIX only")

#: Holds filelock's lock on the campaign's lock file until stdin closes (an older mekref).
HOLD_WITH_FILELOCK = r"""
import sys
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("holding", flush=True)
sys.stdin.read()
lock.release()
"""


def _lock_file(store: SqliteEventStore, cid: str) -> Path:
    return store.path.with_name(store.path.name + ".locks") / f"{cid}.lock"


def test_the_writer_section_and_filelock_exclude_each_other(tmp_path: Path) -> None:
    store = SqliteEventStore(tmp_path / "camp.db")
    cid = store.create_campaign("A", "tripwire").id
    with store.writer(cid), pytest.raises(Timeout):
        FileLock(_lock_file(store, cid)).acquire(timeout=0)
    held = FileLock(_lock_file(store, cid))
    held.acquire(timeout=0)
    try:
        with pytest.raises(WriterBusy), store.writer(cid, wait=False):
            pass
    finally:
        held.release()
    with store.writer(cid, wait=False):  # free again once released
        store.append(cid, 0, [NewEvent("after", "{}")])
    assert [e.type for e in store.read(cid)] == ["after"]
    store.close()


def test_a_process_holding_filelock_keeps_the_writer_out(tmp_path: Path) -> None:
    store = SqliteEventStore(tmp_path / "camp.db")
    cid = store.create_campaign("A", "tripwire").id
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_WITH_FILELOCK, str(_lock_file(store, cid))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(WriterBusy), store.writer(cid, wait=False):
            pass
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert holder.returncode == 0
    with store.writer(cid, wait=False):
        pass
    store.close()


def test_without_flock_on_the_file_system_the_writer_falls_back_to_filelock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_flock(path: Path, *, wait: bool, poll_seconds: float) -> int | None:
        raise locks.FlockMissing(str(path))

    monkeypatch.setattr(engine, "take_flock", no_flock)
    store = open_store(str(tmp_path / "camp.db"))
    assert isinstance(store, SqliteEventStore)
    cid = store.create_campaign("A", "tripwire").id
    with store.writer(cid):
        # filelock's own lock is what holds it now: a second filelock waits.
        with pytest.raises(Timeout):
            FileLock(_lock_file(store, cid)).acquire(timeout=0)
        store.append(cid, 0, [NewEvent("inside", "{}")])
    assert [e.type for e in store.read(cid)] == ["inside"]
    store.close()


def test_opening_a_store_waits_for_filelock_on_the_schema_lock(tmp_path: Path) -> None:
    """The schema lock (switch to WAL, migrations) is flock too, taken on the file filelock
    takes: an older mekref migrating the store keeps a new one's opening waiting."""
    import threading

    SqliteEventStore(tmp_path / "camp.db").close()
    held = FileLock(tmp_path / "camp.db.locks" / "schema.lock")
    held.acquire(timeout=0)
    opened: list[SqliteEventStore] = []
    opener = threading.Thread(target=lambda: opened.append(SqliteEventStore(tmp_path / "camp.db")))
    try:
        opener.start()
        opener.join(timeout=0.5)
        assert opener.is_alive() and not opened  # still waiting for the schema lock
    finally:
        held.release()
    opener.join(timeout=60)
    assert len(opened) == 1
    opened[0].close()
