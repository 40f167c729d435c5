"""Stores of an earlier schema version upgrade in place, on both engines (issue 33, 4).

The rows come from the previous release's SQLite store (tests/fixtures/stores/v1-7490af6). On
PostgreSQL the same rows are loaded into that version's own tables (migration 1's script, which
is never edited once released), which is what that release made there. Both upgraded stores
must then fold to the same state, read through the installed console script."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import psycopg
import pytest
from console_script import mekref

from mekref.daemon.store import open_store
from mekref.daemon.store.schema import MIGRATIONS, VERSION_TABLE_SQL, statements

OLD = Path(__file__).parents[1] / "fixtures" / "stores" / "v1-7490af6" / "ginestra.db"
#: Parents first, for the foreign keys.
TABLES = ("campaigns", "events", "ingested_files", "quarantined_files", "unmatched_files",
          "snapshots", "schema_version")  # fmt: skip


def _load_v1_into_postgresql(dsn: str) -> None:
    with sqlite3.connect(OLD) as old, psycopg.connect(dsn) as pg:
        for statement in statements(MIGRATIONS[0].postgresql):
            pg.execute(statement)
        pg.execute(VERSION_TABLE_SQL)
        for table in TABLES:
            cursor = old.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            marks = ", ".join(["%s"] * len(columns))
            with pg.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    cursor.fetchall(),
                )


def _state(db: str) -> dict[str, object]:
    shown = mekref("game", "state", "--db", db, "--json")
    assert shown.returncode == 0, shown.stderr
    state: dict[str, object] = json.loads(shown.stdout)
    return state


@pytest.mark.postgres
def test_both_engines_upgrade_the_old_store_and_fold_it_alike(tmp_path: Path, pg_dsn: str) -> None:
    sqlite_db = tmp_path / "ginestra.db"
    shutil.copyfile(OLD, sqlite_db)
    _load_v1_into_postgresql(pg_dsn)
    for url in (f"sqlite:///{sqlite_db}", pg_dsn):
        with open_store(url) as store:
            assert store.schema_version() == MIGRATIONS[-1].version, url
            campaigns = store.list_campaigns()
            assert len(campaigns) == 1 and store.last_seq(campaigns[0].id) == 29
            assert len(store.ingested_files(campaigns[0].id)) == 2
    assert _state(str(sqlite_db)) == _state(pg_dsn)


def test_opening_an_upgraded_store_again_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ginestra.db"
    shutil.copyfile(OLD, db)
    with open_store(f"sqlite:///{db}"):
        pass
    first = (tmp_path / "ginestra.db.v1.bak").stat().st_mtime_ns
    with open_store(f"sqlite:///{db}") as store:
        assert store.schema_version() == MIGRATIONS[-1].version
    # The copy is taken once, before the first migration; it is never overwritten.
    assert (tmp_path / "ginestra.db.v1.bak").stat().st_mtime_ns == first
