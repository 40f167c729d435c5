"""The embedded engine: one SQLite file in WAL mode, every write in ``BEGIN IMMEDIATE``.

``BEGIN IMMEDIATE`` takes the database's single write lock when the transaction starts, not at
its first write, so two appends can never both read the same last seq; the loser waits
(busy_timeout) instead of failing half-way. WAL lets readers go on while a write is in flight.
The per-campaign writer section is an OS file lock (flock on POSIX, taken directly; elsewhere
``filelock``: msvcrt on Windows) on a file beside the database, so it never holds SQLite's
write lock and other campaigns keep ingesting meanwhile.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mekref.daemon import logs
from mekref.daemon.store.base import EventStore
from mekref.daemon.store.clock import Clock, to_text
from mekref.daemon.store.engine import Engine, Tx
from mekref.daemon.store.errors import (
    SchemaTooNew,
    StoreDamaged,
    StoreError,
    StoreMissing,
    StoreUnavailable,
    WriterBusy,
)
from mekref.daemon.store.locks import HAS_FLOCK, FlockMissing, take_flock
from mekref.daemon.store.model import SnapshotBytes, check_campaign_id
from mekref.daemon.store.rows import Row
from mekref.daemon.store.schema import (
    LATEST_VERSION,
    VERSION_TABLE_SQL,
    Migration,
    pending,
    statements,
    tables_at,
)
from mekref.daemon.store.threads import PerThread

if TYPE_CHECKING:  # filelock loads only where flock is missing (Windows, some network shares)
    from filelock import BaseFileLock

DEFAULT_BUSY_TIMEOUT_MS = 60_000
#: How often a waiting writer retries the campaign lock (filelock polls a non-blocking lock).
_LOCK_POLL_SECONDS = 0.01
#: SQLite's answers for a file it cannot read as a database: a damaged page, a damaged header.
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

T = TypeVar("T")


class _SqliteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(sql, params).fetchall()

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, params)


_TABLES_SQL = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"


class SqliteEventStore(EventStore):
    _unavailable = (sqlite3.OperationalError,)

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Clock | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        create: bool = True,
        durable: bool = True,
    ) -> None:
        super().__init__(clock)
        self._durable = durable
        self.path = Path(path)
        if str(path) == ":memory:":
            # Each thread has its own connection, and each would see its own empty database.
            raise ValueError("the SQLite event store needs a file, not :memory:")
        self._busy_timeout_ms = busy_timeout_ms
        self._lock_dir = self.path.with_name(self.path.name + ".locks")
        self._conns = PerThread(self._connect, sqlite3.Connection.close)
        #: The writer section takes flock itself where it can (see ``_writer_lock``).
        self._flock = HAS_FLOCK
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if not create:
                self._check_exists()
            self._migrate()
        except sqlite3.OperationalError as exc:
            self.close()
            raise StoreUnavailable(f"sqlite {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            # Not SQLite at all (a mistyped --db naming a .mul or a text file): nothing to retry.
            self.close()
            raise StoreError(
                f"sqlite {self.path}: {exc}; name the event store's file (or a new file) in --db"
            ) from exc

    @property
    def engine(self) -> Engine:
        return "sqlite"

    def _check_exists(self) -> None:
        """Raise StoreMissing unless the file exists and holds mekref's tables."""
        if not self.path.is_file():
            detail = "no such file" if not self.path.exists() else "not a file"
            raise StoreMissing(str(self.path), detail)
        # mode=rw: opening never creates the file, even if it vanished since the check above.
        uri = self.path.resolve().as_uri() + "?mode=rw"
        conn = sqlite3.connect(uri, uri=True, timeout=self._busy_timeout_ms / 1000)
        try:
            tables = {str(r[0]) for r in conn.execute(_TABLES_SQL).fetchall()}
        finally:
            conn.close()
        if tables and "schema_version" not in tables:
            raise self._not_ours(tables)
        if not tables:
            raise StoreMissing(str(self.path), "the file holds no campaign store")

    def _not_ours(self, tables: set[str]) -> StoreError:
        """Another application's file (a mistyped --db): adding our tables to it would change a
        database that is not ours, and offering to create a store there would invite that."""
        listed = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        return StoreError(
            f"sqlite {self.path}: not a mekref database (it holds tables {listed}); "
            "mekref leaves it alone: name a mekref database or a new file in --db"
        )

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the driver never opens transactions behind our back; we issue
        # BEGIN IMMEDIATE / COMMIT ourselves. check_same_thread=False only so close() can close
        # every thread's connection; each connection is still used by one thread.
        conn = sqlite3.connect(
            self.path,
            timeout=self._busy_timeout_ms / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        # FULL: a commit that returned is on disk even across power loss (WAL's default,
        # NORMAL, may lose the last transactions, and "applied" must mean applied).
        # OFF only for a throw-away store (mekref replay's temporary database): after a crash
        # it is discarded, so flushing every commit would be time spent for nothing.
        conn.execute(f"PRAGMA synchronous = {'FULL' if self._durable else 'OFF'}")
        return conn

    def _conn(self) -> sqlite3.Connection:
        return self._conns.get()

    def check(self) -> None:
        """``PRAGMA quick_check``: every page read once (0.3 s for a 280 MB store, measured),
        so ``serve`` refuses a damaged store at start instead of failing file after file."""
        try:
            rows = self._conn().execute("PRAGMA quick_check(1)").fetchall()
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(f"sqlite {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise StoreDamaged(f"sqlite {self.path}", _one_line(str(exc))) from None
        found = _one_line(" ".join(str(r[0]) for r in rows)) or "no answer"
        found = found.removeprefix("*** in database main *** ")
        if found != "ok":
            raise StoreDamaged(f"sqlite {self.path}", f"quick_check: {found}")

    def _damaged(self, exc: sqlite3.DatabaseError) -> StoreDamaged | None:
        """A driver error that says the file is damaged, as the store's error (one line for
        each file the daemon takes, not a traceback)."""
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None or code & 0xFF not in _DAMAGE_CODES:
            return None
        return StoreDamaged(f"sqlite {self.path}", _one_line(str(exc)))

    def close(self) -> None:
        self._conns.close_all()

    def _migrate(self) -> None:
        conn = self._conn()
        # Before anything writes (even the switch to WAL rewrites the file's header).
        tables = {str(r[0]) for r in conn.execute(_TABLES_SQL).fetchall()}
        if tables and "schema_version" not in tables:
            raise self._not_ours(tables)
        # One process at a time switches the journal and migrates: several daemons or commands
        # opening a new file at once would otherwise race for the journal-mode change, which
        # SQLite may answer "database is locked" without waiting for its busy timeout.
        self._lock_dir.mkdir(exist_ok=True)
        with self._os_lock(self._lock_dir / "schema.lock", wait=True):
            self._switch_and_migrate(conn)

    def _switch_and_migrate(self, conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise StoreError(f"{self.path}: could not switch SQLite to WAL mode (got {mode!r})")
        with self._transaction() as tx:
            tables = {str(r[0]) for r in tx.fetch(_TABLES_SQL)}
            tx.run(VERSION_TABLE_SQL)
            current = self._version(tx)
            if current > LATEST_VERSION:
                raise SchemaTooNew(current, LATEST_VERSION)
            missing = sorted(tables_at(current) - tables)
            if missing:
                raise StoreError(
                    f"sqlite {self.path}: damaged: table {', '.join(missing)} is missing; "
                    "restore the database from a backup"
                )
        upgrades = pending(current)
        if current and upgrades:
            self._back_up(current)
        # One transaction per version: a crash between two leaves the store at a whole version,
        # and the next open carries on from there. The schema lock keeps other processes out.
        for migration in upgrades:
            with self._transaction() as tx:
                self._apply(tx, migration)
        if current and upgrades:
            logs.get_logger("mekref.store").warning(
                "store upgraded",
                path=str(self.path),
                from_version=current,
                to_version=upgrades[-1].version,
                copy_before=str(self.backup_path(current)),
            )

    @staticmethod
    def _version(tx: _SqliteTx) -> int:
        return int(tx.fetch("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0][0])

    def _apply(self, tx: _SqliteTx, migration: Migration) -> None:
        for statement in statements(migration.sqlite):
            tx.run(statement)
        tx.run(
            "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.description, to_text(self._clock())),
        )

    def backup_path(self, version: int) -> Path:
        """Where the copy of a store taken before upgrading it from ``version`` is kept."""
        return self.path.with_name(f"{self.path.name}.v{version}.bak")

    def _back_up(self, version: int) -> None:
        """Copy the whole store before its first migration, with SQLite's online backup (a
        consistent copy, WAL included). An existing copy is kept: it is the older one."""
        target = self.backup_path(version)
        if target.exists():
            return
        partial = target.with_name(target.name + ".partial")
        dest = sqlite3.connect(partial)
        try:
            self._conn().backup(dest)
        finally:
            dest.close()
        os.replace(partial, target)

    @contextmanager
    def _transaction(self) -> Iterator[_SqliteTx]:
        conn = self._conn()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteTx(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            damaged = self._damaged(exc)
            if damaged is None:
                raise
            raise damaged from exc

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._checked(lambda: self._conn().execute(sql, params).fetchall())

    def _checked(self, read: Callable[[], T]) -> T:
        """``read()``, a damaged database file raised as the store's own error."""
        try:
            return read()
        except sqlite3.DatabaseError as exc:
            damaged = self._damaged(exc)
            if damaged is None:
                raise
            raise damaged from exc

    def latest_snapshot_utf8(self, campaign_id: str) -> SnapshotBytes | None:
        # SQLite's incremental blob reader copies the text's bytes (UTF-8: the store is made
        # so) once, into the bytes object; a SELECT copies them into its row first, and a long
        # campaign's snapshot is tens of MB.
        cid = check_campaign_id(campaign_id)
        found = self._reading(lambda: self._checked(lambda: self._latest_blob(cid)))
        if found is None:
            self._require_campaign(self._read, cid)
            return None
        return SnapshotBytes(cid, *found)

    def _latest_blob(self, cid: str) -> tuple[int, bytes] | None:
        conn = self._conn()
        own = not conn.in_transaction
        if own:
            conn.execute("BEGIN")  # one read: the row cannot go between finding and reading it
        try:
            rows = conn.execute(
                "SELECT rowid, seq FROM snapshots WHERE campaign_id = ? ORDER BY seq DESC LIMIT 1",
                (cid,),
            ).fetchall()
            if not rows:
                return None
            with conn.blobopen("snapshots", "state", rows[0][0], readonly=True) as blob:
                return int(rows[0][1]), blob.read()
        finally:
            if own:
                conn.execute("COMMIT")

    def _serialise_appends(self, tx: Tx, campaign_id: str) -> None:
        # Nothing to add: BEGIN IMMEDIATE already made this the only write transaction.
        return None

    @contextmanager
    def _writer_lock(self, cid: str, wait: bool) -> Iterator[None]:
        with self._os_lock(self._lock_dir / f"{cid}.lock", wait=wait):
            yield

    @contextmanager
    def _os_lock(self, path: Path, *, wait: bool) -> Iterator[None]:
        """An exclusive OS lock on ``path`` (the schema's, or a campaign's writer section);
        WriterBusy naming the file's stem when it is held and ``wait`` is false."""
        if self._flock:
            try:
                fd = self._take_flock(path, wait)
            except FlockMissing:
                self._flock = False  # this file system has no flock: filelock's way from now on
            else:
                try:
                    yield
                finally:
                    os.close(fd)  # releases the flock
                return
        # Where fcntl is missing (Windows) or flock is not supported: filelock picks the OS
        # lock (msvcrt.locking on Windows, released by the OS when a process dies) or a lock
        # file with its owner's pid (taken over when that process is gone). A fresh lock
        # object per call: two threads of one process exclude each other as two processes do.
        from filelock import Timeout

        self._lock_dir.mkdir(exist_ok=True)
        lock = _file_lock(path)
        try:
            lock.acquire(timeout=-1 if wait else 0, poll_interval=_LOCK_POLL_SECONDS)
        except Timeout:
            raise WriterBusy(path.stem) from None
        try:
            yield
        finally:
            lock.release()

    def _take_flock(self, path: Path, wait: bool) -> int:
        """The descriptor holding the flock on ``path`` (see :func:`locks.take_flock`)."""
        try:
            fd = take_flock(path, wait=wait, poll_seconds=_LOCK_POLL_SECONDS)
        except FileNotFoundError:  # the lock folder was removed while the store was open
            self._lock_dir.mkdir(exist_ok=True)
            fd = take_flock(path, wait=wait, poll_seconds=_LOCK_POLL_SECONDS)
        if fd is None:
            raise WriterBusy(path.stem)
        return fd


def _file_lock(path: Path | str) -> BaseFileLock:
    """filelock's lock on ``path``, imported here: with its asyncio support it costs 10-25 ms
    of start-up, and where flock works (POSIX) no command needs it."""
    from filelock import FileLock

    return FileLock(path)


def _one_line(text: str) -> str:
    return " ".join(text.split())
