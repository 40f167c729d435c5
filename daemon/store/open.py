"""``open_store(url)``: the one way the rest of the daemon gets an event store."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from mekref.daemon.store.base import EventStore
from mekref.daemon.store.clock import Clock

_PG_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite:///"


def is_postgres(url: str) -> bool:
    return url.startswith(_PG_SCHEMES)


def redact(url: str) -> str:
    """The database URL without its password, for log lines and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    user = f"{parts.username}:***@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))


def sqlite_path(url: str) -> Path:
    """The file a SQLite store URL (``sqlite:///x.db`` or a plain path) names, ``~`` expanded."""
    path = url[len(_SQLITE_SCHEME) :] if url.startswith(_SQLITE_SCHEME) else url
    if not path:
        raise ValueError(f"no database path in {url!r}")
    if "://" in path:
        raise ValueError(f"unsupported database url {url!r}: use a path or postgresql://")
    return Path(path).expanduser()


def open_store(
    url: str, *, clock: Clock | None = None, create: bool = True, durable: bool = True
) -> EventStore:
    """Open (and migrate) the store at ``url``.

    ``postgresql://...`` (or ``postgres://``) selects PostgreSQL; ``sqlite:///relative.db``,
    ``sqlite:////absolute.db`` or a plain path selects SQLite (``~`` is expanded).

    ``create=True`` makes the store when there is none (missing parent folders too, or the
    tables in an empty PostgreSQL database). ``create=False`` raises ``StoreMissing`` instead,
    creating nothing: the command line passes it everywhere but ``campaign new`` and
    ``serve --create``, so a typo in ``--db`` never starts an empty campaign store. An existing
    store is still migrated to the current schema either way.

    ``durable=False`` (SQLite only) skips flushing each commit to disk: for a throw-away
    store that nobody reads after a crash, such as ``mekref replay``'s temporary database.
    """
    # Each engine's module is imported only when it is used: a SQLite user never loads the
    # PostgreSQL driver (it costs start-up time and may be missing on a minimal install).
    if is_postgres(url):
        from mekref.daemon.store.postgres import PostgresEventStore

        return PostgresEventStore(url, clock=clock, create=create)
    from mekref.daemon.store.sqlite import SqliteEventStore

    return SqliteEventStore(sqlite_path(url), clock=clock, create=create, durable=durable)
