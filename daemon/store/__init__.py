"""The event store: an append-only per-campaign log, on SQLite or PostgreSQL.

``open_store(url)`` gives an ``EventStore``; see docs/store.md for the schema and guarantees.
"""

from mekref.daemon.store.base import EventStore
from mekref.daemon.store.engine import Engine
from mekref.daemon.store.errors import (
    CampaignExists,
    CampaignNotFound,
    ConcurrencyError,
    SchemaTooNew,
    StoreDamaged,
    StoreError,
    StoreMissing,
    StoreUnavailable,
    WriterBusy,
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
)
from mekref.daemon.store.open import open_store
from mekref.daemon.store.schema import LATEST_VERSION

__all__ = [
    "LATEST_VERSION",
    "AppendResult",
    "Campaign",
    "CampaignExists",
    "CampaignNotFound",
    "ConcurrencyError",
    "Engine",
    "Event",
    "EventStore",
    "FileRef",
    "IngestedFile",
    "NewEvent",
    "QuarantinedFile",
    "SchemaTooNew",
    "Snapshot",
    "SnapshotBytes",
    "StoreDamaged",
    "StoreError",
    "StoreMissing",
    "StoreUnavailable",
    "TokenRow",
    "UnmatchedFile",
    "WriterBusy",
    "open_store",
]
