"""Errors the event store raises; callers catch these, never driver exceptions."""

from __future__ import annotations


class StoreError(Exception):
    """Base class for every error the event store raises on purpose."""


class ConcurrencyError(StoreError):
    """An append named a last seq that is no longer the campaign's last seq."""

    def __init__(self, campaign_id: str, expected_last_seq: int, actual_last_seq: int) -> None:
        super().__init__(
            f"campaign {campaign_id}: append expected last seq {expected_last_seq}, "
            f"but the log is at {actual_last_seq}; another writer got there first: "
            "re-read the log, re-run the rules and append again"
        )
        self.campaign_id = campaign_id
        self.expected_last_seq = expected_last_seq
        self.actual_last_seq = actual_last_seq


class CampaignNotFound(StoreError):
    def __init__(self, campaign_id: str) -> None:
        super().__init__(f"no campaign with id {campaign_id}")
        self.campaign_id = campaign_id


class CampaignExists(StoreError):
    def __init__(self, campaign_id: str) -> None:
        super().__init__(f"a campaign with id {campaign_id} already exists")
        self.campaign_id = campaign_id


class WriterBusy(StoreError):
    """``writer(..., wait=False)`` found another writer holding the campaign."""

    def __init__(self, campaign_id: str) -> None:
        super().__init__(f"campaign {campaign_id}: another writer holds the campaign lock")
        self.campaign_id = campaign_id


class SchemaTooNew(StoreError):
    """The database was migrated by a newer mekref; this one must not write to it."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"database schema is version {found}, this mekref knows up to {known}: upgrade mekref"
        )
        self.found = found
        self.known = known


class StoreUnavailable(StoreError):
    """The database could not be reached or used (down, locked past the busy timeout, disk
    error). Nothing was committed by the call that raised it; retrying later is safe."""


class StoreMissing(StoreError):
    """``open_store(url, create=False)`` found no campaign store there: no file, or a database
    without mekref's tables. Nothing was created; the message names the place and what to do."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(
            f"no campaign store at {where} ({detail}): create one with "
            f"'mekref campaign new --db {where} --name NAME' or check the path"
        )
        self.where = where


class StoreDamaged(StoreError):
    """The database file is damaged (a page SQLite cannot read): nothing can be trusted in it,
    and mekref never repairs a database in place."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(
            f"{where}: the database is damaged ({problem}); stop every mekref that uses it and "
            "restore it from a backup (mekref never repairs a database in place)"
        )
        self.where = where
        self.problem = problem


class DamagedEvent(StoreError):
    """A stored event row that is not an event of its campaign's rule set (edited by hand, or
    the file was damaged): the campaign cannot be folded past it."""

    def __init__(self, campaign_id: str, seq: int, type_: str, problem: str) -> None:
        super().__init__(
            f"campaign {campaign_id} event {seq} ({type_}) is not a valid event: {problem}; "
            "if the database is damaged, restore it from a backup (mekref never repairs it in "
            "place)"
        )
        self.campaign_id = campaign_id
        self.seq = seq
