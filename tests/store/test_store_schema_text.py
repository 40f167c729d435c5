"""A released migration is never edited (daemon/store/schema.py): its SQL text is pinned here.

The PostgreSQL script of version 1 is written from the SQLite one (BIGINT for the seqs); these
digests are of the scripts as released, so a change to either way of writing them fails here.
"""

from __future__ import annotations

import hashlib

from mekref.daemon.store.schema import MIGRATIONS

RELEASED = {
    1: (
        "d46e0bbbb309f480aca144d746009eb353bd0bcfeb7440bf3231a93fa1a73a0c",
        "3e659aa9d667b7330e861d3f0d7bea47a7a30a24ba7d7e3ace7897e9b53e0494",
    ),
    2: (
        "402b1512cdedf595b2be5d4c0dedff8198bacba0f064fd79c1184444691a316f",
        "402b1512cdedf595b2be5d4c0dedff8198bacba0f064fd79c1184444691a316f",
    ),
}


def _digest(script: str) -> str:
    return hashlib.sha256(script.encode("utf-8")).hexdigest()


def test_released_migrations_keep_their_sql_text() -> None:
    for migration in MIGRATIONS:
        if migration.version in RELEASED:
            assert (_digest(migration.sqlite), _digest(migration.postgresql)) == RELEASED[
                migration.version
            ], f"migration {migration.version} was edited; add a new version instead"


def test_postgresql_v1_counts_seqs_in_bigint() -> None:
    postgresql = MIGRATIONS[0].postgresql
    assert "INTEGER" not in postgresql
    assert postgresql.count("BIGINT NOT NULL") == 4
