"""Column lists and row-to-record mapping, identical for both engines (same column order)."""

from __future__ import annotations

from typing import Any

from mekref.daemon.store.clock import from_text
from mekref.daemon.store.model import (
    Campaign,
    Event,
    IngestedFile,
    QuarantinedFile,
    Snapshot,
    TokenRow,
    UnmatchedFile,
)

Row = tuple[Any, ...]

CAMPAIGN_COLUMNS = "id, name, ruleset, created_at"
EVENT_COLUMNS = "campaign_id, seq, type, payload, recorded_at"
INGESTED_COLUMNS = "campaign_id, sha256, path, battle_id, first_seen, first_seq, last_seq"
QUARANTINED_COLUMNS = "sha256, original_path, quarantine_path, reason, quarantined_at, campaign_id"
UNMATCHED_COLUMNS = "sha256, path, reason, first_seen, campaign_id"
SNAPSHOT_COLUMNS = "campaign_id, seq, state, state_hash, saved_at"
TOKEN_COLUMNS = "token_id, role, campaign_id, side_id, label, created_at, revoked_at"


def campaign(row: Row) -> Campaign:
    return Campaign(id=row[0], name=row[1], ruleset=row[2], created_at=from_text(row[3]))


def event(row: Row) -> Event:
    return Event(
        campaign_id=row[0],
        seq=int(row[1]),
        type=row[2],
        payload=row[3],
        recorded_at=from_text(row[4]),
    )


def ingested(row: Row) -> IngestedFile:
    return IngestedFile(
        campaign_id=row[0],
        sha256=row[1],
        path=row[2],
        battle_id=row[3],
        first_seen=from_text(row[4]),
        first_seq=int(row[5]),
        last_seq=int(row[6]),
    )


def quarantined(row: Row) -> QuarantinedFile:
    return QuarantinedFile(
        sha256=row[0],
        original_path=row[1],
        quarantine_path=row[2],
        reason=row[3],
        quarantined_at=from_text(row[4]),
        campaign_id=row[5],
    )


def unmatched(row: Row) -> UnmatchedFile:
    return UnmatchedFile(
        sha256=row[0], path=row[1], reason=row[2], first_seen=from_text(row[3]), campaign_id=row[4]
    )


def snapshot(row: Row) -> Snapshot:
    return Snapshot(
        campaign_id=row[0],
        seq=int(row[1]),
        state=row[2],
        state_hash=row[3],
        saved_at=from_text(row[4]),
    )


def token(row: Row) -> TokenRow:
    token_id, role, campaign_id, side_id, label, created_at, revoked_at = row
    return TokenRow(
        str(token_id), str(role), campaign_id, side_id, str(label), str(created_at), revoked_at
    )
