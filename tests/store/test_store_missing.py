"""``open_store(url, create=False)``: a place without a campaign store is refused, untouched,
on both engines; an existing store opens (and is migrated) as before. The command line passes
``create=False`` everywhere but ``campaign new``, ``game start`` and ``serve --create``."""

from __future__ import annotations

import psycopg
import pytest
from console_script import mekref

from mekref.daemon.store import StoreMissing, open_store


def _tables(dsn: str) -> list[str]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
    return sorted(r[0] for r in rows)


def test_a_missing_store_is_refused_and_an_existing_one_opens(store_url: str) -> None:
    with pytest.raises(StoreMissing) as refused:
        open_store(store_url, create=False)
    assert "mekref campaign new --db" in str(refused.value)
    with open_store(store_url) as made:  # the default, create=True, makes it
        cid = made.create_campaign("A", "tripwire").id
    with open_store(store_url, create=False) as store:
        assert [c.id for c in store.list_campaigns()] == [cid]


@pytest.mark.postgres
def test_an_empty_postgresql_database_gets_tables_only_from_campaign_new(pg_dsn: str) -> None:
    refused = mekref("report", "--db", pg_dsn)
    assert refused.returncode == 5, refused.stderr
    assert "has no mekref tables" in refused.stderr and "campaign new" in refused.stderr
    assert _tables(pg_dsn) == []  # not migrated behind the user's back
    made = mekref("campaign", "new", "--db", pg_dsn, "--name", "PG", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert "schema_version" in _tables(pg_dsn)
    shown = mekref("report", "--db", pg_dsn, "--json")
    assert shown.returncode == 0, shown.stderr
