"""The battle-file pipeline's quarantine: a bad file's copy and reason, its store record, and
which bytes this process has already quarantined (a rescan does not judge them again)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from mekref.daemon.ingest_model import IngestResult, Outcome
from mekref.daemon.store import EventStore
from mekref.daemon.watch.quarantine import Reason, quarantine_copy
from mekref.daemon.watch.reading import FileBytes
from mekref.rules.refusal import Refusal


class Quarantine:
    def __init__(self, store: EventStore, folder: Path, now: Callable[[], datetime]) -> None:
        self.store = store
        self.folder = folder
        self._now = now
        # sha256 -> the code why, for the files quarantined by this process (a restart judges
        # them again).
        self._known: dict[str, str] = {}

    def known(self, sha256: str) -> str | None:
        """Why this process quarantined these bytes (the code), or None."""
        return self._known.get(sha256)

    def put(
        self,
        where: str,
        name: str,
        read: FileBytes,
        log: Any,
        reason: Reason,
        campaign_id: str | None = None,
        *,
        code: str,
        remember: bool = True,
    ) -> IngestResult:
        """Keep a copy of ``read`` and ``reason`` (a file beside it), record it in the store;
        ``remember``: this process answers the same bytes ALREADY_QUARANTINED from now on."""
        when = self._now()
        try:
            # A file too large to hold gets only its reason file: nothing worth a copy (and
            # copying it again on every restart would fill the disk).
            written = quarantine_copy(
                self.folder,
                name,
                read.sha256,
                reason,
                data=read.data,
                original=where,
                when=when,
            )
            copy = (
                str(written)
                if read.data is not None
                else "(no copy: the file is over the size limit)"
            )
        except OSError as exc:
            # The record and the log line still say what is wrong; the copy is a convenience.
            copy = f"(no copy: {exc.strerror or exc})"
            log.error("quarantine.copy_failed", folder=str(self.folder), error=str(exc))
        self.store.quarantine_file(
            read.sha256, where, copy, reason.one_line(), campaign_id=campaign_id, at=when
        )
        if remember:
            self._known[read.sha256] = code
        log.warning(
            "file.quarantined", reason=reason.one_line(), quarantine_path=copy, what=reason.what
        )
        return IngestResult(
            Outcome.QUARANTINED,
            where,
            read.sha256,
            campaign_id,
            reason=reason.one_line(),
            code=code,
        )

    def refused(
        self,
        where: str,
        name: str,
        read: FileBytes,
        log: Any,
        exc: Refusal,
        campaign_id: str,
        *,
        remember: bool = True,
    ) -> IngestResult:
        """Quarantined because the rules refused the file's command. ``remember`` False for a
        side's upload: the referee may bring the same bytes (ruling SG-7) and be answered."""
        return self.put(
            where,
            name,
            read,
            log,
            Reason(
                what=f"the rules refused it: {exc}",
                where=where,
                todo="fix the campaign (or the file) as the message says; the referee can "
                "override with a recorded reason",
            ),
            campaign_id,
            code="rules_refused",
            remember=remember,
        )
