"""The one contract both engines implement; tests/store runs the same suite against each."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from mekref.daemon.store.model import (
    AppendResult,
    Campaign,
    Event,
    FileRef,
    IngestedFile,
    NewEvent,
    QuarantinedFile,
    Snapshot,
    SnapshotBytes,
    TokenRow,
    UnmatchedFile,
)

Engine = Literal["sqlite", "postgresql"]


@runtime_checkable
class EventStore(Protocol):
    """An append-only, per-campaign event log plus the bookkeeping of the files it ingested.

    Every method is safe to call from several threads; each thread gets its own connection.
    ``at`` arguments let the caller supply the time (timezone-aware); by default the store
    reads its clock. Unknown campaign ids raise ``CampaignNotFound``.
    """

    @property
    def engine(self) -> Engine: ...

    def close(self) -> None: ...

    def __enter__(self) -> EventStore: ...

    def __exit__(self, *exc: object) -> None: ...

    def schema_version(self) -> int: ...

    def check(self) -> None:
        """Raise ``StoreDamaged`` when the database's own quick check finds damage (SQLite);
        a server that checks its pages itself (PostgreSQL) has nothing to do here."""
        ...

    # Campaigns
    def create_campaign(
        self,
        name: str,
        ruleset: str,
        *,
        campaign_id: str | None = None,
        at: datetime | None = None,
    ) -> Campaign: ...

    def get_campaign(self, campaign_id: str) -> Campaign: ...

    def list_campaigns(self) -> list[Campaign]: ...

    # Events
    def append(
        self,
        campaign_id: str,
        expected_last_seq: int,
        events: Sequence[NewEvent],
        ingested_file: FileRef | None = None,
        *,
        at: datetime | None = None,
    ) -> AppendResult:
        """Append ``events`` as seqs ``expected_last_seq + 1 ...`` in one transaction.

        With ``ingested_file``, the file's sha256 commits in the same transaction; if that
        sha256 was already applied to the campaign nothing is written and the result says
        ``already_applied`` (checked before the seq, so a duplicate is never a conflict).
        Otherwise a stale ``expected_last_seq`` raises ``ConcurrencyError``.
        """
        ...

    def read(
        self, campaign_id: str, after_seq: int = 0, limit: int | None = None
    ) -> list[Event]: ...

    def iter_events(
        self, campaign_id: str, after_seq: int = 0, page: int = 1000
    ) -> Iterator[Event]:
        """Every event after ``after_seq``, read in pages so a long log is never all in memory."""
        ...

    def last_seq(self, campaign_id: str) -> int: ...

    def writer(self, campaign_id: str, *, wait: bool = True) -> AbstractContextManager[None]:
        """Single-writer section for one campaign, across threads, processes and replicas.

        Re-entrant within a thread. With ``wait=False`` raises ``WriterBusy`` instead of
        waiting. Appends inside and outside the section stay correct either way (optimistic
        concurrency); the section is what keeps two resolvers from doing the work twice.
        """
        ...

    # Files
    def has_file(self, campaign_id: str, sha256: str) -> bool: ...

    def ingested_files(self, campaign_id: str | None = None) -> list[IngestedFile]: ...

    def quarantine_file(
        self,
        sha256: str,
        original_path: str,
        quarantine_path: str,
        reason: str,
        *,
        campaign_id: str | None = None,
        at: datetime | None = None,
    ) -> QuarantinedFile:
        """Record a quarantined file; the same sha256 again replaces the reason (latest wins)."""
        ...

    def quarantined_files(self) -> list[QuarantinedFile]: ...

    def hold_unmatched(
        self,
        sha256: str,
        path: str,
        reason: str,
        *,
        campaign_id: str | None = None,
        at: datetime | None = None,
    ) -> UnmatchedFile:
        """Hold a file that matches no battle yet; idempotent (the first record is kept).

        Applying the file later (``append`` with its sha256) releases it in the same
        transaction.
        """
        ...

    def release_unmatched(self, sha256: str) -> bool: ...

    def unmatched_files(self) -> list[UnmatchedFile]: ...

    # Snapshots
    def save_snapshot(
        self,
        campaign_id: str,
        seq: int,
        state: str,
        state_hash: str,
        *,
        at: datetime | None = None,
        keep: int | None = None,
    ) -> Snapshot:
        """Keep folded state after ``seq`` (0 <= seq <= last seq); same seq again replaces it.
        ``keep``: then delete all but the ``keep`` newest snapshots of the campaign."""
        ...

    def latest_snapshot(self, campaign_id: str) -> Snapshot | None: ...

    def latest_snapshot_utf8(self, campaign_id: str) -> SnapshotBytes | None:
        """The latest snapshot's seq and state as UTF-8 bytes (no text decoded)."""
        ...

    # API tokens
    def add_token(self, row: TokenRow, token_sha256: str) -> None:
        """Keep a token's grant and the sha256 of its secret (never the secret)."""
        ...

    def live_token(self, token_sha256: str) -> TokenRow | None:
        """The unrevoked token whose secret hashes to ``token_sha256``, if any."""
        ...

    def tokens(self) -> list[TokenRow]: ...

    def revoke_token(self, token_id: str, *, at: datetime | None = None) -> bool:
        """Revoke a live token; False when there is none with that id."""
        ...
