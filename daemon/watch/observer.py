"""watchdog events to the pending queue: native events, or polling for network drives."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from watchdog.events import (
    FileClosedEvent,
    FileCreatedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from mekref.daemon.watch.readiness import PendingFiles
from mekref.daemon.watch.scan import is_battle_file


class _ToPending(FileSystemEventHandler):
    def __init__(self, pending: PendingFiles) -> None:
        self.pending = pending

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            return
        if isinstance(event, FileMovedEvent):
            # Rename-into: the writer finished elsewhere (a temp name) and moved it in.
            dest = os.fsdecode(event.dest_path)
            if is_battle_file(dest):
                self.pending.notify(Path(dest), complete=True)
            return
        path = os.fsdecode(event.src_path)
        if not is_battle_file(path):
            return
        if isinstance(event, FileClosedEvent):
            # Close-after-write: the writer says it is done.
            self.pending.notify(Path(path), complete=True)
        elif isinstance(event, FileCreatedEvent | FileModifiedEvent):
            # Still being written, or a writer whose close we cannot see: wait until stable.
            self.pending.notify(Path(path), complete=False)


def start_observer(
    folders: Iterable[Path], pending: PendingFiles, *, recursive: bool, poll: float | None
) -> BaseObserver:
    """Start watching; ``poll`` seconds selects the polling observer (network drives)."""
    observer: BaseObserver = PollingObserver(timeout=poll) if poll else Observer()
    handler = _ToPending(pending)
    for folder in folders:
        observer.schedule(handler, str(folder), recursive=recursive)
    observer.daemon = True  # never keep the process alive on its own
    observer.start()
    return observer
