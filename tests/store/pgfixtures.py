"""Reusable PostgreSQL fixtures for any test that needs a real database.

Where PostgreSQL comes from, in order:
1. ``MEKREF_TEST_PG_DSN`` (a ``postgresql://`` URL); if set, it must answer.
2. A throw-away testcontainers ``PostgresContainer``, if a Docker engine answers.
3. Otherwise tests using these fixtures skip, except under ``CI=true``, where they fail: CI
   promised a database, and a silent skip would pass code nobody tested against it.

``pg_dsn`` gives each test a freshly created schema (via ``search_path`` in the URL) and
drops it afterwards, so tests never see each other's rows and need no cleanup.

To use them from another test folder, import both fixtures into that folder's conftest.py::

    from store.pgfixtures import pg_dsn, pg_server_dsn  # noqa: F401  (fixtures)
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

PG_DSN_ENV = "MEKREF_TEST_PG_DSN"


def _no_database(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and no PostgreSQL for these tests: {reason}", pytrace=False)
    pytest.skip(reason)


def _docker_answers() -> bool:
    try:
        import docker  # type: ignore[import-untyped]

        client = docker.from_env(timeout=5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # any failure here means "no usable Docker", which is not an error
        return False


def with_search_path(url: str, schema: str) -> str:
    """``url`` with ``options=-c search_path=<schema>`` added (kept with any other options)."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError(f"{PG_DSN_ENV} must be a postgresql:// URL, got {url!r}")
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    extra = f"-c search_path={schema}"
    query["options"] = f"{query['options']} {extra}" if "options" in query else extra
    # quote, not quote_plus: libpq decodes %20 in URLs but leaves "+" as it is.
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


@pytest.fixture(scope="session")
def pg_server_dsn() -> Iterator[str]:
    """URL of a PostgreSQL server for the whole session (no schema isolation: see pg_dsn)."""
    dsn = os.environ.get(PG_DSN_ENV)
    if dsn:
        try:
            psycopg.connect(dsn, connect_timeout=10).close()
        except psycopg.Error as exc:
            pytest.fail(f"{PG_DSN_ENV}={dsn} does not answer: {exc}", pytrace=False)
        yield dsn
        return
    if not _docker_answers():
        _no_database(f"no PostgreSQL: set {PG_DSN_ENV} or start a Docker engine")
    try:
        from testcontainers.community.postgres import PostgresContainer
    except ImportError:  # testcontainers before the "community" package split
        from testcontainers.postgres import PostgresContainer

    with PostgresContainer("postgres:16-alpine", driver=None) as container:
        yield container.get_connection_url()


@pytest.fixture
def pg_dsn(pg_server_dsn: str) -> Iterator[str]:
    """URL of an empty schema of its own on the test PostgreSQL, dropped after the test."""
    schema = f"mekref_test_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(pg_server_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield with_search_path(pg_server_dsn, schema)
    finally:
        with psycopg.connect(pg_server_dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
