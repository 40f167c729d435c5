"""Versioned schema migrations, one SQL script per engine per version.

Rules: a migration, once released, is never edited; a change is a new version. Each version
and its ``schema_version`` row commit in one transaction, so a crash leaves the schema at a
whole version. Payloads and states are TEXT on both engines (not PostgreSQL JSONB), because
JSONB re-orders keys and the canonical JSON bytes must come back exactly as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    sqlite: str
    postgresql: str


_V1_SQLITE = """
CREATE TABLE campaigns (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE events (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    type        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    CONSTRAINT events_campaign_seq_key UNIQUE (campaign_id, seq)
);
CREATE TABLE ingested_files (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id),
    sha256      TEXT NOT NULL CHECK (length(sha256) = 64),
    path        TEXT NOT NULL,
    battle_id   TEXT,
    first_seen  TEXT NOT NULL,
    first_seq   INTEGER NOT NULL CHECK (first_seq >= 1),
    last_seq    INTEGER NOT NULL CHECK (last_seq >= first_seq - 1),
    CONSTRAINT ingested_files_campaign_sha256_key UNIQUE (campaign_id, sha256)
);
CREATE TABLE quarantined_files (
    sha256          TEXT PRIMARY KEY CHECK (length(sha256) = 64),
    campaign_id     TEXT REFERENCES campaigns (id),
    original_path   TEXT NOT NULL,
    quarantine_path TEXT NOT NULL,
    reason          TEXT NOT NULL,
    quarantined_at  TEXT NOT NULL
);
CREATE TABLE unmatched_files (
    sha256      TEXT PRIMARY KEY CHECK (length(sha256) = 64),
    campaign_id TEXT REFERENCES campaigns (id),
    path        TEXT NOT NULL,
    reason      TEXT NOT NULL,
    first_seen  TEXT NOT NULL
);
CREATE TABLE snapshots (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id),
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    state       TEXT NOT NULL,
    state_hash  TEXT NOT NULL,
    saved_at    TEXT NOT NULL,
    PRIMARY KEY (campaign_id, seq)
);
"""

# Same shape; BIGINT seqs because a long campaign's log must never overflow. Written from the
# SQLite script, whose only INTEGER columns are the seqs, so the two cannot drift apart.
_V1_POSTGRESQL = _V1_SQLITE.replace(" INTEGER NOT NULL", " BIGINT NOT NULL")

# API tokens (stored as the sha256 of the secret). IF NOT EXISTS: stores made before this
# version created the same table outside the migrations, on first use of the API.
_V2 = """
CREATE TABLE IF NOT EXISTS api_tokens (
    token_id     TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    role         TEXT NOT NULL CHECK (role IN ('referee', 'side')),
    campaign_id  TEXT,
    side_id      TEXT,
    label        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    revoked_at   TEXT,
    CHECK ((role = 'side') = (side_id IS NOT NULL)),
    CHECK (role = 'referee' OR campaign_id IS NOT NULL)
)
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "campaigns, events, files, snapshots", _V1_SQLITE, _V1_POSTGRESQL),
    Migration(2, "API tokens", _V2, _V2),
)

LATEST_VERSION = MIGRATIONS[-1].version

# Created before any migration runs, with IF NOT EXISTS: it is how a store learns where it is.
VERSION_TABLE_SQL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at  TEXT NOT NULL
)
"""


def statements(script: str) -> list[str]:
    """Split a migration script on ``;`` (migrations hold no semicolons inside literals)."""
    return [part.strip() for part in script.split(";") if part.strip()]


def pending(current: int) -> list[Migration]:
    return [m for m in MIGRATIONS if m.version > current]


def tables_at(version: int) -> frozenset[str]:
    """The tables a store at ``version`` holds: those its migrations up to then create.

    A store one release old lacks the tables of later versions, and that is not damage: the
    pending migrations are about to create them. Only a table its own version made, gone
    missing, is."""
    scripts = "".join(m.sqlite for m in MIGRATIONS if m.version <= version)
    return frozenset(re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", scripts))
