"""The records the event store keeps, as frozen dataclasses shared by both engines."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime

_SHA256 = re.compile(r"[0-9a-f]{64}")


def check_sha256(sha256: str) -> str:
    """Return ``sha256`` if it is 64 lowercase hex digits; the store never guesses a spelling."""
    if not _SHA256.fullmatch(sha256):
        raise ValueError(f"sha256 must be 64 lowercase hex digits, got {sha256!r}")
    return sha256


def check_campaign_id(campaign_id: str) -> str:
    """Return the canonical text form of a campaign UUID (lowercase, hyphenated)."""
    try:
        return str(uuid.UUID(campaign_id))
    except (ValueError, AttributeError, TypeError):
        raise ValueError(f"campaign id must be a UUID, got {campaign_id!r}") from None


def display_text(text: str) -> str:
    """Make text that people read (paths, reasons) storable on both engines.

    A file name that is not valid UTF-8 reaches Python with lone surrogates
    (surrogateescape), and a reason may quote a NUL from a hostile file; neither fits in a
    database text column. Such characters become visible escapes (``\\xff``, ``\\x00``):
    the watcher must still record the file, and a file's identity is its sha256, not this.
    """
    text = text.replace("\x00", "\\x00")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raw = text.encode("utf-8", "backslashreplace")
        text = raw.decode("utf-8", "backslashreplace")
    return text


@dataclass(frozen=True, slots=True)
class Campaign:
    id: str
    name: str
    ruleset: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event the rules engine produced and wants appended.

    ``payload`` is the rules engine's canonical JSON text; the store keeps it byte for byte
    (no re-encoding), because the state hash of a replay depends on those exact bytes.
    """

    type: str
    payload: str

    def __post_init__(self) -> None:
        if not self.type:
            raise ValueError("event type must not be empty")
        # PostgreSQL TEXT cannot hold NUL; refusing it on both engines keeps one contract
        # (canonical JSON writes NUL as the escape \u0000, so real payloads never contain it).
        if "\x00" in self.type or "\x00" in self.payload:
            raise ValueError("event type and payload must not contain NUL characters")
        # A lone surrogate is not text; neither database can store it. Refuse it here with
        # a clear error instead of a driver's encoding error half-way through an append.
        try:
            self.type.encode("utf-8")
            self.payload.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"event type and payload must be valid Unicode: {exc}") from None


@dataclass(frozen=True, slots=True)
class Event:
    """An event as stored: ``seq`` runs 1, 2, 3, ... without gaps within its campaign."""

    campaign_id: str
    seq: int
    type: str
    payload: str
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class FileRef:
    """The battle file whose events an append carries; its sha256 is its identity."""

    sha256: str
    path: str
    battle_id: str | None = None

    def __post_init__(self) -> None:
        check_sha256(self.sha256)


@dataclass(frozen=True, slots=True)
class IngestedFile:
    """A file applied to a campaign, and the events it produced.

    The events are ``first_seq..last_seq`` inclusive; a file that produced no events has
    ``last_seq == first_seq - 1`` (an empty range) and is still recorded, so it is never
    processed again.
    """

    campaign_id: str
    sha256: str
    path: str
    battle_id: str | None
    first_seen: datetime
    first_seq: int
    last_seq: int


@dataclass(frozen=True, slots=True)
class QuarantinedFile:
    sha256: str
    original_path: str
    quarantine_path: str
    reason: str
    quarantined_at: datetime
    campaign_id: str | None = None


@dataclass(frozen=True, slots=True)
class UnmatchedFile:
    """A good file that belongs to no known battle yet: held and listed, never dropped."""

    sha256: str
    path: str
    reason: str
    first_seen: datetime
    campaign_id: str | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Folded campaign state after event ``seq``, so start-up need not replay everything."""

    campaign_id: str
    seq: int
    state: str
    state_hash: str
    saved_at: datetime


@dataclass(frozen=True, slots=True)
class SnapshotBytes:
    """A snapshot's state text as its UTF-8 bytes, as the store keeps it: what opening a
    campaign reads. A long campaign's is tens of MB; as a Python text it would first be
    decoded whole (and one character outside ASCII makes every character two bytes), while
    ``rules.snapshot`` decodes only the lines it reads."""

    campaign_id: str
    seq: int
    state: bytes


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append did.

    ``already_applied`` is true when the file given to the append had been applied before:
    nothing was written, and ``first_seq``/``last_seq`` are the range it produced back then.
    """

    campaign_id: str
    first_seq: int
    last_seq: int
    already_applied: bool = False

    @property
    def count(self) -> int:
        return self.last_seq - self.first_seq + 1


@dataclass(frozen=True, slots=True)
class TokenRow:
    token_id: str
    role: str  # "referee" | "side"
    campaign_id: str | None
    side_id: str | None
    label: str
    created_at: str
    revoked_at: str | None = None
