"""Event store fixtures: ``store_url`` / ``store`` run a test once per engine.

The PostgreSQL side comes from ``pg_dsn`` (see pgfixtures.py: ``MEKREF_TEST_PG_DSN``, else
testcontainers, else skip, and under ``CI=true`` fail instead of skipping).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mekref.daemon.store import EventStore, open_store
from store.pgfixtures import pg_dsn, pg_server_dsn

__all__ = ["pg_dsn", "pg_server_dsn"]  # re-exported so pytest sees them as fixtures here


@pytest.fixture(
    params=[
        pytest.param("sqlite"),
        pytest.param("postgresql", marks=pytest.mark.postgres),
    ]
)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database URL, once per engine."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'campaign.db'}"
    url: str = request.getfixturevalue("pg_dsn")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    with open_store(store_url) as opened:
        yield opened
