"""The shared engine: PostgreSQL, for several ``mekref serve`` replicas on one database.

Appends take a transaction-scoped advisory lock on the campaign before reading its last seq,
so seqs are assigned one transaction at a time and a subscriber polling ``seq > N`` can never
see N+2 committed while N+1 is still in flight (no gaps, no late arrivals). The writer
section is a session-scoped advisory lock on a dedicated connection, under a different key,
so an append inside the section does not wait on the section itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import psycopg
from psycopg import IsolationLevel

from mekref.daemon.store.base import EventStore
from mekref.daemon.store.clock import Clock, to_text
from mekref.daemon.store.engine import Engine, Tx
from mekref.daemon.store.errors import (
    SchemaTooNew,
    StoreError,
    StoreMissing,
    StoreUnavailable,
    WriterBusy,
)
from mekref.daemon.store.locks import advisory_key
from mekref.daemon.store.model import SnapshotBytes, check_campaign_id
from mekref.daemon.store.open import redact
from mekref.daemon.store.rows import Row
from mekref.daemon.store.schema import LATEST_VERSION, VERSION_TABLE_SQL, pending, statements
from mekref.daemon.store.threads import PerThread

Connection = psycopg.Connection[tuple[Any, ...]]


def _pg(sql: str) -> str:
    # Shared SQL uses sqlite's "?" placeholders; none of it contains a literal "?" or "%".
    return sql.replace("?", "%s")


class _PgTx:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(_pg(sql), params).fetchall()

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(_pg(sql), params).rowcount

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cur:
            cur.executemany(_pg(sql), params)


class PostgresEventStore(EventStore):
    _unavailable = (psycopg.OperationalError,)

    def __init__(self, dsn: str, *, clock: Clock | None = None, create: bool = True) -> None:
        super().__init__(clock)
        self._dsn = dsn
        self._create = create
        # A broken connection (server restart, network) is replaced on next use; the
        # transaction it carried was rolled back by the server, so nothing half-done survives.
        self._conns: PerThread[Connection] = PerThread(
            self._connect, Connection.close, lambda conn: not (conn.closed or conn.broken)
        )
        try:
            self._migrate()
        except psycopg.OperationalError as exc:
            self.close()
            raise StoreUnavailable(f"postgresql: {exc}") from exc

    @property
    def engine(self) -> Engine:
        return "postgresql"

    def _connect(self) -> Connection:
        conn: Connection = psycopg.connect(self._dsn, autocommit=True)
        # READ COMMITTED on purpose, whatever the server default: after an append waits on
        # the campaign lock, its next statement must see the commit it waited for. Under
        # REPEATABLE READ the snapshot would predate the wait and the seq would be stale.
        conn.isolation_level = IsolationLevel.READ_COMMITTED
        return conn

    def _conn(self) -> Connection:
        return self._conns.get()

    def close(self) -> None:
        self._conns.close_all()

    def _migrate(self) -> None:
        with psycopg.connect(self._dsn, autocommit=True) as conn:
            found = conn.execute("SELECT current_schema()").fetchone()
            if found is None or found[0] is None:
                raise StoreError("no schema to create tables in: check search_path")
            # Serialise migrations of this schema across processes and replicas; the
            # session lock is released when this connection closes, even on an error.
            conn.execute("SELECT pg_advisory_lock(%s)", (advisory_key("migrate", str(found[0])),))
            if not self._create:
                # Only 'campaign new' and 'serve --create' make the tables: a DSN naming the
                # wrong database must not turn it into an empty campaign store.
                table = conn.execute("SELECT to_regclass('schema_version')").fetchone()
                if table is None or table[0] is None:
                    raise StoreMissing(redact(self._dsn), f"schema {found[0]} has no mekref tables")
            with conn.transaction():
                conn.execute(VERSION_TABLE_SQL)
            row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            current = int(row[0]) if row is not None else 0
            if current > LATEST_VERSION:
                raise SchemaTooNew(current, LATEST_VERSION)
            for migration in pending(current):
                with conn.transaction():
                    for statement in statements(migration.postgresql):
                        conn.execute(statement)
                    conn.execute(
                        "INSERT INTO schema_version (version, description, applied_at) "
                        "VALUES (%s, %s, %s)",
                        (migration.version, migration.description, to_text(self._clock())),
                    )

    @contextmanager
    def _transaction(self) -> Iterator[_PgTx]:
        conn = self._conn()
        with conn.transaction():
            yield _PgTx(conn)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn().execute(_pg(sql), params).fetchall()

    def latest_snapshot_utf8(self, campaign_id: str) -> SnapshotBytes | None:
        cid = check_campaign_id(campaign_id)
        found = self._newest_snapshot(cid, "seq, convert_to(state, 'UTF8')")
        return None if found is None else SnapshotBytes(cid, int(found[0]), bytes(found[1]))

    def _serialise_appends(self, tx: Tx, campaign_id: str) -> None:
        tx.fetch("SELECT pg_advisory_xact_lock(?)", (advisory_key("append", campaign_id),))

    @contextmanager
    def _writer_lock(self, cid: str, wait: bool) -> Iterator[None]:
        key = advisory_key("writer", cid)
        # A connection of its own: the lock lives exactly as long as this session, and if
        # this process dies the server drops the session and the lock with it.
        try:
            conn = psycopg.connect(self._dsn, autocommit=True)
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"postgresql: {exc}") from exc
        with conn:
            if wait:
                conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            else:
                got = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                if got is None or not got[0]:
                    raise WriterBusy(cid)
            try:
                yield
            finally:
                # Released in this session before it closes: the server ends a closed session
                # (and frees its locks) a moment after the client has gone, so a writer that
                # tries at once after this one could still find the lock held.
                # A broken connection has lost the lock with its session: nothing to release.
                with suppress(psycopg.Error):
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
