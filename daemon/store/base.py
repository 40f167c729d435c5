"""The one contract both engines implement (tests/store runs the same suite against each), and
the behaviour they share, written once over a minimal transaction interface.

The engines differ only in how they connect, open a write transaction, serialise seq
assignment and hold the writer section; every rule of the contract (exactly once, optimistic
concurrency, validation) lives here so the two cannot drift apart. SQL is written with ``?``
placeholders; the PostgreSQL engine rewrites them to ``%s``.
"""

from __future__ import annotations

import uuid
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from mekref.daemon.store import rows
from mekref.daemon.store.engine import SqlEngine, max_seq
from mekref.daemon.store.errors import (
    CampaignExists,
    CampaignNotFound,
    ConcurrencyError,
)
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
    check_campaign_id,
    check_sha256,
    display_text,
)
from mekref.daemon.store.rows import Row

#: What an append checks before it writes: the campaign exists, the log's last seq, and the
#: seqs of the file when it is already in (NULLs when it is not, or no file is appended).
_APPEND_CHECKS = (
    "SELECT (SELECT COUNT(*) FROM campaigns WHERE id = ?), "
    "(SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?), f.first_seq, f.last_seq "
    "FROM (SELECT 1) AS one LEFT JOIN ingested_files AS f ON f.campaign_id = ? AND f.sha256 = ?"
)


class EventStore(SqlEngine):
    """An append-only, per-campaign event log plus the bookkeeping of the files it ingested.

    Every method is safe to call from several threads; each thread gets its own connection.
    ``at`` arguments let the caller supply the time (timezone-aware); by default the store
    reads its clock. Unknown campaign ids raise ``CampaignNotFound``.
    """

    @contextmanager
    def writer(self, campaign_id: str, *, wait: bool = True) -> Iterator[None]:
        """Single-writer section for one campaign, across threads, processes and replicas.

        Re-entrant within a thread. With ``wait=False`` raises ``WriterBusy`` instead of
        waiting. Appends inside and outside the section stay correct either way (optimistic
        concurrency); the section is what keeps two resolvers from doing the work twice.
        """
        cid = check_campaign_id(campaign_id)
        if self._held.holds(cid):  # this thread is already in the section: enter again
            yield
            return
        with self._writer_lock(cid, wait), self._held.mark(cid):
            yield

    # -- lifecycle ------------------------------------------------------------------------
    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self) -> None:
        """Raise ``StoreDamaged`` when the database's own quick check finds damage (SQLite);
        a server that checks its pages itself (PostgreSQL) has nothing to do here."""
        return None

    def schema_version(self) -> int:
        found = self._read("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(found[0][0])

    # -- campaigns ------------------------------------------------------------------------
    def create_campaign(
        self,
        name: str,
        ruleset: str,
        *,
        campaign_id: str | None = None,
        at: datetime | None = None,
    ) -> Campaign:
        cid = check_campaign_id(campaign_id) if campaign_id is not None else str(uuid.uuid4())
        if not name or not ruleset:
            raise ValueError("a campaign needs a name and a ruleset")
        created = self._now(at)
        with self._tx() as tx:
            # ON CONFLICT keeps a concurrent create of the same id from surfacing as a
            # driver-specific integrity error.
            inserted = tx.run(
                "INSERT INTO campaigns (id, name, ruleset, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                (cid, name, ruleset, created),
            )
        if inserted != 1:
            raise CampaignExists(cid)
        return rows.campaign((cid, name, ruleset, created))

    def get_campaign(self, campaign_id: str) -> Campaign:
        cid = check_campaign_id(campaign_id)
        found = self._read(f"SELECT {rows.CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?", (cid,))
        if not found:
            raise CampaignNotFound(cid)
        return rows.campaign(found[0])

    def list_campaigns(self) -> list[Campaign]:
        found = self._read(f"SELECT {rows.CAMPAIGN_COLUMNS} FROM campaigns ORDER BY created_at, id")
        return [rows.campaign(row) for row in found]

    # -- events ---------------------------------------------------------------------------
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
        cid = check_campaign_id(campaign_id)
        if expected_last_seq < 0:
            raise ValueError(f"expected_last_seq must be >= 0, got {expected_last_seq}")
        events = list(events)
        if not events and ingested_file is None:
            raise ValueError("nothing to append: no events and no file")
        recorded = self._now(at)
        with self._tx() as tx:
            self._serialise_appends(tx, cid)
            # The three checks in one round trip. Exactly once: the file check comes before
            # the seq check, under the same serialisation, so of two racing appends of one
            # file one writes and the other is told it was already applied, never a conflict.
            sha = "" if ingested_file is None else ingested_file.sha256
            exists, last, before_first, before_last = tx.fetch(
                _APPEND_CHECKS, (cid, cid, cid, sha)
            )[0]
            if not int(exists):
                raise CampaignNotFound(cid)
            if before_first is not None:
                return AppendResult(cid, int(before_first), int(before_last), True)
            last = int(last)
            if last != expected_last_seq:
                raise ConcurrencyError(cid, expected_last_seq, last)
            first_seq = last + 1
            if events:
                tx.run_many(
                    "INSERT INTO events (campaign_id, seq, type, payload, recorded_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [
                        (cid, first_seq + i, event.type, event.payload, recorded)
                        for i, event in enumerate(events)
                    ],
                )
            last_seq = last + len(events)
            if ingested_file is not None:
                tx.run(
                    f"INSERT INTO ingested_files ({rows.INGESTED_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        cid,
                        ingested_file.sha256,
                        display_text(ingested_file.path),
                        ingested_file.battle_id,
                        recorded,
                        first_seq,
                        last_seq,
                    ),
                )
                # A held file that is now applied is no longer unmatched; same transaction,
                # so status never shows it as both or as neither.
                tx.run("DELETE FROM unmatched_files WHERE sha256 = ?", (ingested_file.sha256,))
        return AppendResult(cid, first_seq, last_seq, False)

    def read(self, campaign_id: str, after_seq: int = 0, limit: int | None = None) -> list[Event]:
        cid = check_campaign_id(campaign_id)
        if after_seq < 0:
            raise ValueError(f"after_seq must be >= 0, got {after_seq}")
        sql = (
            f"SELECT {rows.EVENT_COLUMNS} FROM events "
            "WHERE campaign_id = ? AND seq > ? ORDER BY seq"
        )
        params: list[Any] = [cid, after_seq]
        if limit is not None:
            if limit < 0:
                raise ValueError(f"limit must be >= 0, got {limit}")
            sql += " LIMIT ?"
            params.append(limit)
        found = self._read(sql, params)
        if not found:
            self._require_campaign(self._read, cid)
        return [rows.event(row) for row in found]

    def iter_events(
        self, campaign_id: str, after_seq: int = 0, page: int = 1000
    ) -> Iterator[Event]:
        """All events after ``after_seq`` in pages, so a long log is never held in memory."""
        while True:
            batch = self.read(campaign_id, after_seq, page)
            yield from batch
            if len(batch) < page:
                return
            after_seq = batch[-1].seq

    def last_seq(self, campaign_id: str) -> int:
        cid = check_campaign_id(campaign_id)
        found = self._read(
            "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?), "
            "(SELECT COUNT(*) FROM campaigns WHERE id = ?)",
            (cid, cid),
        )
        if int(found[0][1]) == 0:
            raise CampaignNotFound(cid)
        return int(found[0][0])

    # -- files ----------------------------------------------------------------------------
    def has_file(self, campaign_id: str, sha256: str) -> bool:
        cid = check_campaign_id(campaign_id)
        found = self._read(
            "SELECT 1 FROM ingested_files WHERE campaign_id = ? AND sha256 = ?",
            (cid, check_sha256(sha256)),
        )
        return bool(found)

    def ingested_files(
        self, campaign_id: str | None = None, sha256: str | None = None
    ) -> list[IngestedFile]:
        """The files taken in (of one campaign, and with one sha256, when given): one file's
        look-up reads its own row, not the campaign's every file."""
        sql = f"SELECT {rows.INGESTED_COLUMNS} FROM ingested_files"
        where: list[str] = []
        params: list[Any] = []
        if campaign_id is not None:
            where.append("campaign_id = ?")
            params.append(check_campaign_id(campaign_id))
        if sha256 is not None:
            where.append("sha256 = ?")
            params.append(check_sha256(sha256))
        if where:
            sql += " WHERE " + " AND ".join(where)
        found = self._read(
            sql + " ORDER BY first_seen, campaign_id, first_seq, sha256", tuple(params)
        )
        return [rows.ingested(row) for row in found]

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
        check_sha256(sha256)
        cid = check_campaign_id(campaign_id) if campaign_id is not None else None
        original_path, quarantine_path = display_text(original_path), display_text(quarantine_path)
        reason = display_text(reason)
        when = self._now(at)
        with self._tx() as tx:
            if cid is not None:
                self._require_campaign(tx.fetch, cid)
            tx.run(
                f"INSERT INTO quarantined_files ({rows.QUARANTINED_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO UPDATE SET "
                "original_path = excluded.original_path, "
                "quarantine_path = excluded.quarantine_path, reason = excluded.reason, "
                "quarantined_at = excluded.quarantined_at, campaign_id = excluded.campaign_id",
                (sha256, original_path, quarantine_path, reason, when, cid),
            )
        return rows.quarantined((sha256, original_path, quarantine_path, reason, when, cid))

    def quarantined_files(self) -> list[QuarantinedFile]:
        found = self._read(
            f"SELECT {rows.QUARANTINED_COLUMNS} FROM quarantined_files "
            "ORDER BY quarantined_at, sha256"
        )
        return [rows.quarantined(row) for row in found]

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
        transaction."""
        check_sha256(sha256)
        cid = check_campaign_id(campaign_id) if campaign_id is not None else None
        when = self._now(at)
        with self._tx() as tx:
            if cid is not None:
                self._require_campaign(tx.fetch, cid)
            tx.run(
                f"INSERT INTO unmatched_files ({rows.UNMATCHED_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (sha256) DO NOTHING",
                (sha256, display_text(path), display_text(reason), when, cid),
            )
            kept = tx.fetch(
                f"SELECT {rows.UNMATCHED_COLUMNS} FROM unmatched_files WHERE sha256 = ?",
                (sha256,),
            )
        return rows.unmatched(kept[0])

    def release_unmatched(self, sha256: str) -> bool:
        check_sha256(sha256)
        with self._tx() as tx:
            return tx.run("DELETE FROM unmatched_files WHERE sha256 = ?", (sha256,)) == 1

    def unmatched_files(self) -> list[UnmatchedFile]:
        found = self._read(
            f"SELECT {rows.UNMATCHED_COLUMNS} FROM unmatched_files ORDER BY first_seen, sha256"
        )
        return [rows.unmatched(row) for row in found]

    # -- snapshots ------------------------------------------------------------------------
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
        cid = check_campaign_id(campaign_id)
        if seq < 0:
            raise ValueError(f"snapshot seq must be >= 0, got {seq}")
        if keep is not None and keep < 1:
            raise ValueError(f"keep at least the snapshot saved, got keep={keep}")
        when = self._now(at)
        with self._tx() as tx:
            self._require_campaign(tx.fetch, cid)
            last = max_seq(tx, cid)
            # A snapshot past the end of the log would claim events that do not exist.
            if seq > last:
                raise ValueError(f"snapshot seq {seq} is past the campaign's last seq {last}")
            tx.run(
                f"INSERT INTO snapshots ({rows.SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (campaign_id, seq) DO UPDATE SET state = excluded.state, "
                "state_hash = excluded.state_hash, saved_at = excluded.saved_at",
                (cid, seq, state, state_hash, when),
            )
            if keep is not None:
                # Only the newest are ever read (a snapshot is a cache of the fold).
                tx.run(
                    "DELETE FROM snapshots WHERE campaign_id = ? AND seq NOT IN "
                    "(SELECT seq FROM snapshots WHERE campaign_id = ? ORDER BY seq DESC LIMIT ?)",
                    (cid, cid, keep),
                )
        return rows.snapshot((cid, seq, state, state_hash, when))

    def latest_snapshot(self, campaign_id: str) -> Snapshot | None:
        cid = check_campaign_id(campaign_id)
        found = self._newest_snapshot(cid, rows.SNAPSHOT_COLUMNS)
        return None if found is None else rows.snapshot(found)

    @abstractmethod
    def latest_snapshot_utf8(self, campaign_id: str) -> SnapshotBytes | None:
        """The latest snapshot's text as its UTF-8 bytes, read without decoding it (each
        engine reads it the cheapest way it has)."""

    def _newest_snapshot(self, cid: str, columns: str) -> Row | None:
        """``columns`` of the campaign's latest snapshot; None when it has none, after
        checking that the campaign exists (an unknown one is refused, not "no snapshot")."""
        found = self._read(
            f"SELECT {columns} FROM snapshots WHERE campaign_id = ? ORDER BY seq DESC LIMIT 1",
            (cid,),
        )
        if found:
            return found[0]
        self._require_campaign(self._read, cid)
        return None

    # -- API tokens (only the sha256 of a secret is stored) ---------------------------------
    def add_token(self, row: TokenRow, token_sha256: str) -> None:
        """Keep a token's grant and the sha256 of its secret (never the secret)."""
        with self._tx() as tx:
            tx.run(
                "INSERT INTO api_tokens (token_id, token_sha256, role, campaign_id, side_id, "
                "label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    row.token_id,
                    token_sha256,
                    row.role,
                    row.campaign_id,
                    row.side_id,
                    row.label,
                    row.created_at,
                ),
            )

    def live_token(self, token_sha256: str) -> TokenRow | None:
        """The unrevoked token whose secret hashes to ``token_sha256``, if any."""
        found = self._read(
            f"SELECT {rows.TOKEN_COLUMNS} FROM api_tokens "
            "WHERE token_sha256 = ? AND revoked_at IS NULL",
            (token_sha256,),
        )
        return rows.token(found[0]) if found else None

    def tokens(self) -> list[TokenRow]:
        return [
            rows.token(r)
            for r in self._read(
                f"SELECT {rows.TOKEN_COLUMNS} FROM api_tokens ORDER BY created_at, token_id"
            )
        ]

    def revoke_token(self, token_id: str, *, at: datetime | None = None) -> bool:
        """Revoke a live token; False when there is none with that id."""
        with self._tx() as tx:
            changed: int = tx.run(
                "UPDATE api_tokens SET revoked_at = ? WHERE token_id = ? AND revoked_at IS NULL",
                (self._now(at), token_id),
            )
        return changed == 1
