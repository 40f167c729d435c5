"""Bearer tokens for the API: issued once, stored only as their sha256.

A token is ``mkr_<token id>_<secret>``; the database keeps the token id, the sha256 of the
whole token and what it grants (the referee, or one side of one campaign). A leaked database
therefore yields no usable token. The table lives in the event store's own database (SQLite
file or PostgreSQL), created by this module on first use, so tokens follow the campaign data
across replicas and backups without a second file to keep.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from mekref.daemon.store.errors import StoreError, StoreUnavailable

_PG_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite:///"
_PREFIX = "mkr_"

_CREATE = """
CREATE TABLE IF NOT EXISTS api_tokens (
    token_id TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('referee', 'side')),
    campaign_id TEXT,
    side_id TEXT,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    CHECK ((role = 'side') = (side_id IS NOT NULL)),
    CHECK (role = 'referee' OR campaign_id IS NOT NULL)
)
"""
_COLUMNS = "token_id, role, campaign_id, side_id, label, created_at, revoked_at"


class Role(StrEnum):
    REFEREE = "referee"
    SIDE = "side"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a token speaks for. ``campaign_id`` None: a referee for every campaign."""

    token_id: str
    role: Role
    campaign_id: str | None
    side_id: str | None
    label: str = ""

    @property
    def is_referee(self) -> bool:
        return self.role is Role.REFEREE

    @property
    def actor(self) -> str:
        """How commands record who asked (never the secret)."""
        who = "referee" if self.is_referee else f"side {self.side_id}"
        return f"{who} (token {self.token_id})"


@dataclass(frozen=True, slots=True)
class TokenRecord:
    principal: Principal
    created_at: str
    revoked_at: str | None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A newly issued token: ``secret`` is shown once and never stored."""

    secret: str
    principal: Principal


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class _Db(Protocol):
    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def run(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    def close(self) -> None: ...


class _SqliteDb:
    """Its own connection to the store's SQLite file (WAL: readers never block writers)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self._path, timeout=60, isolation_level=None, check_same_thread=False
            )
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._conn().execute(sql, params).fetchall())

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn().execute(sql, params).rowcount

    def close(self) -> None:
        with self._lock:
            for conn in self._conns:
                conn.close()
            self._conns.clear()


class _PostgresDb:
    def __init__(self, dsn: str) -> None:
        import psycopg

        try:
            self._conn = psycopg.connect(dsn, autocommit=True)
        except psycopg.Error as exc:
            raise StoreUnavailable(f"tokens: postgresql: connection failed: {exc}") from exc
        self._lock = threading.Lock()

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._conn.execute(sql.replace("?", "%s"), params).fetchall())

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return self._conn.execute(sql.replace("?", "%s"), params).rowcount

    def close(self) -> None:
        self._conn.close()


def _open_db(url: str) -> _Db:
    if url.startswith(_PG_SCHEMES):
        return _PostgresDb(url)
    path = url[len(_SQLITE_SCHEME) :] if url.startswith(_SQLITE_SCHEME) else url
    if not path or "://" in path:
        raise ValueError(f"unsupported database url {url!r}: use a path or postgresql://")
    return _SqliteDb(Path(path).expanduser())


def _principal(row: tuple[Any, ...]) -> Principal:
    token_id, role, campaign_id, side_id, label = row[:5]
    return Principal(str(token_id), Role(role), campaign_id, side_id, str(label))


class TokenStore:
    """Issue, look up, list and revoke tokens in the store's database (``url`` as open_store)."""

    def __init__(self, url: str) -> None:
        # Driver errors become StoreError, as from the event store: callers report one line.
        self._db = _open_db(url)
        try:
            self._db.run(_CREATE)
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"tokens: {exc}; name the event store's file in --db") from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TokenStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def issue(
        self,
        role: Role,
        *,
        campaign_id: str | None = None,
        side_id: str | None = None,
        label: str = "",
        now: datetime | None = None,
    ) -> IssuedToken:
        if role is Role.SIDE and (not side_id or not campaign_id):
            raise ValueError("a side token names its campaign and side")
        if role is Role.REFEREE and side_id:
            raise ValueError("a referee token names no side")
        token_id = secrets.token_hex(6)
        secret = f"{_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
        created = (now or datetime.now(UTC)).isoformat()
        self._db.run(
            "INSERT INTO api_tokens (token_id, token_sha256, role, campaign_id, side_id, label, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (token_id, token_sha256(secret), role.value, campaign_id, side_id, label, created),
        )
        return IssuedToken(secret, Principal(token_id, role, campaign_id, side_id, label))

    def lookup(self, token: str) -> Principal | None:
        """The principal of a live token, or None (unknown, malformed or revoked)."""
        if not token.startswith(_PREFIX) or len(token) > 200:
            return None
        found = self._db.fetch(
            f"SELECT {_COLUMNS} FROM api_tokens WHERE token_sha256 = ? AND revoked_at IS NULL",
            (token_sha256(token),),
        )
        return _principal(found[0]) if found else None

    def list(self) -> list[TokenRecord]:
        found = self._db.fetch(f"SELECT {_COLUMNS} FROM api_tokens ORDER BY created_at, token_id")
        return [TokenRecord(_principal(row), str(row[5]), row[6]) for row in found]

    def revoke(self, token_id: str, *, now: datetime | None = None) -> bool:
        when = (now or datetime.now(UTC)).isoformat()
        changed = self._db.run(
            "UPDATE api_tokens SET revoked_at = ? WHERE token_id = ? AND revoked_at IS NULL",
            (when, token_id),
        )
        return changed == 1
