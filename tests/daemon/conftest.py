"""Daemon tests: real ``mekref serve`` subprocesses on temporary folders.

PostgreSQL fixtures come from tests/store/pgfixtures.py (``MEKREF_TEST_PG_DSN``, else
testcontainers, else skip; under ``CI=true`` a missing database fails).
"""

from __future__ import annotations

from store.pgfixtures import pg_dsn, pg_server_dsn

__all__ = ["pg_dsn", "pg_server_dsn"]  # re-exported so pytest sees them as fixtures here
