"""The daemon's main loop: watch, scan, and feed ready files through the pipeline.

One thread (the main one) processes files, one at a time, so "the file in hand" is always
well defined for a graceful stop; watchdog's threads only queue paths. The observer starts
before the first scan, so a file landing during the scan is seen by one or the other (and
if by both, its sha256 makes the second look a no-op).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from mekref.daemon import logs
from mekref.daemon.config import ServeConfig
from mekref.daemon.ingest import Outcome, Pipeline
from mekref.daemon.ingest_held import release_vanished
from mekref.daemon.shutdown import Shutdown
from mekref.daemon.store import StoreError
from mekref.daemon.store.model import display_text
from mekref.daemon.store.open import redact
from mekref.daemon.watch.observer import start_observer
from mekref.daemon.watch.readiness import PendingFiles, Ready
from mekref.daemon.watch.scan import scan_folders

#: How long the loop waits for a ready file before checking whether a rescan is due.
TICK = 0.5


@dataclass
class Daemon:
    config: ServeConfig
    pipeline: Pipeline
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.pending = PendingFiles(settle=self.config.settle)
        self.log = logs.get_logger("mekref.serve")

    def scan(self) -> int:
        present: set[str] = set()
        for path in scan_folders(self.config.watch, recursive=self.config.recursive):
            self.pending.found(path)
            present.add(display_text(str(path)))
        try:
            # MegaMek deletes old rolling autosaves: they leave the waiting list.
            release_vanished(self.pipeline.store, self.config.watch, self.log, present)
        except StoreError as exc:
            self.log.error("scan.store_error", error=str(exc))
        return len(present)

    def open_campaigns(self) -> None:
        """Fold every campaign once before taking files: its latest snapshot, then the events
        after it (the rule set's code is loaded on the way). The first file after a restart
        then waits only for itself; one arriving meanwhile is queued by the observer."""
        runner = self.pipeline.runner
        for campaign in self.pipeline.store.list_campaigns():
            start = self.clock()
            try:
                loaded = runner.load(campaign.id)
            except StoreError as exc:
                # The first file for it meets the same fault and says what to do about it.
                self.log.error("campaign.open_failed", campaign_id=campaign.id, error=str(exc))
                continue
            except Exception:
                self.log.exception("campaign.open_failed", campaign_id=campaign.id)
                continue
            self.log.info(
                "campaign.opened",
                campaign_id=campaign.id,
                last_seq=loaded.last_seq,
                snapshot_seq=loaded.snapshot_seq,
                events_folded=loaded.folded,
                ms=round((self.clock() - start) * 1000),
            )

    def handle(self, ready: Ready) -> None:
        try:
            result = self.pipeline.process(ready.path, settled=ready.settled)
        except StoreError as exc:
            # A damaged database (a missing table, an event row that is not an event): one
            # line saying so, not a traceback per file; the file is tried again later.
            self.log.error(
                "file.store_error",
                path=str(ready.path),
                sha256=None,
                error=str(exc),
                todo="restore the database from a backup",
            )
            return
        except Exception:
            # A bug or an unexpected outage must not stop the referee: the file stays where
            # it is, is not marked done, and the next rescan tries it again.
            self.log.exception("file.failed", path=str(ready.path), sha256=None)
            return
        if result.outcome is Outcome.RETRY:
            self.pending.retry_later(ready.path)

    def run(self, shutdown: Shutdown) -> int:
        config = self.config
        observer = start_observer(
            config.watch, self.pending, recursive=config.recursive, poll=config.poll or None
        )
        self.log.info(
            "serve.started",
            db=redact(config.db),
            engine=self.pipeline.store.engine,
            watch=[str(f) for f in config.watch],
            recursive=config.recursive,
            polling=config.poll or None,
            quarantine=str(config.quarantine_dir()),
        )
        try:
            self.open_campaigns()
            self.log.info("scan.done", files=self.scan(), reason="startup")
            next_scan = self.clock() + config.rescan
            while not shutdown.requested.is_set():
                ready = self.pending.take(timeout=min(TICK, config.rescan))
                if ready is not None:
                    self.handle(ready)
                if self.clock() >= next_scan and not shutdown.requested.is_set():
                    self.log.debug("scan.done", files=self.scan(), reason="periodic")
                    next_scan = self.clock() + config.rescan
        finally:
            self.log.info("serve.stopping", signal=shutdown.signal_name, waiting=len(self.pending))
            observer.stop()
            observer.join(timeout=10)
        return 0
