"""``open_store(url)``: the one way the rest of the daemon gets an event store."""

from __future__ import annotations

from pathlib import Path

from mekref.daemon.store.clock import Clock
from mekref.daemon.store.contract import EventStore
from mekref.daemon.store.postgres import PostgresEventStore
from mekref.daemon.store.sqlite import SqliteEventStore

_PG_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite:///"


def open_store(url: str, *, clock: Clock | None = None) -> EventStore:
    """Open (and migrate) the store at ``url``.

    ``postgresql://...`` (or ``postgres://``) selects PostgreSQL; ``sqlite:///relative.db``,
    ``sqlite:////absolute.db`` or a plain path selects SQLite (``~`` is expanded, missing
    parent folders are created).
    """
    if url.startswith(_PG_SCHEMES):
        return PostgresEventStore(url, clock=clock)
    path = url[len(_SQLITE_SCHEME) :] if url.startswith(_SQLITE_SCHEME) else url
    if not path:
        raise ValueError(f"no database path in {url!r}")
    if "://" in path:
        raise ValueError(f"unsupported database url {url!r}: use a path or postgresql://")
    return SqliteEventStore(Path(path).expanduser(), clock=clock)
