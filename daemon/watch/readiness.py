"""When is a file finished? A queue of candidate paths with stability checks.

MegaMek writes a file and closes it, or writes elsewhere and renames it in: those events mean
"complete" and the file is taken at once (no fixed debounce: the close says the writer is
done). A writer that closes after every chunk is still safe: a file taken on its close event
is not "settled", so if it fails to parse it waits to settle instead of being quarantined
(see ``Pipeline.process``). Events for one path that arrive before it is taken merge into one
entry. Other writers (a copy over a network share, an editor) only show creation and
modification, and polling observers see nothing else either: such a file is taken once its
size and mtime stayed the same for ``settle`` seconds. A file seen by a folder scan whose mtime
is already older than ``settle`` is taken at once.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: (size, mtime_ns, inode): a file renamed in over another of the same size and time (a copy
#: that kept its time) is a different file.
Stat = tuple[int, int, int]


def file_stat(path: Path) -> Stat | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


@dataclass
class _Entry:
    due: float
    complete: bool
    stat: Stat | None
    settled: bool = False  # unchanged for a whole settle period (not just closed)
    ticket: int = 0  # which of the queue's records for its path is the live one


@dataclass(frozen=True)
class Ready:
    path: Path
    #: The file has not changed for ``settle`` seconds; a file taken on its close event has
    #: not proven that (its writer may close after every chunk).
    settled: bool


class PendingFiles:
    """Paths waiting to be processed; thread-safe (watchdog threads add, the daemon takes)."""

    def __init__(
        self,
        *,
        debounce: float = 0.0,
        settle: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        #: Seconds to wait after a close or rename-into event (none by default).
        self.debounce = debounce
        self.settle = settle
        self._clock = clock
        self._wall = wall_clock
        self._cond = threading.Condition()
        self._entries: dict[Path, _Entry] = {}
        # (due, ticket, path) for each entry, earliest first: taking a file looks at the files
        # that are due, never at all the others (a burst of files once cost a sort of every
        # waiting file for each file taken). A record whose ticket is no longer its entry's
        # (the entry was replaced or taken) is dropped when it comes up.
        self._queue: list[tuple[float, int, Path]] = []
        self._tickets = itertools.count()
        self._woken = False

    def __len__(self) -> int:
        with self._cond:
            return len(self._entries)

    def notify(self, path: Path, *, complete: bool) -> None:
        """An event for ``path``: ``complete`` for close-after-write and rename-into."""
        stat = file_stat(path)
        with self._cond:
            wait = self.debounce if complete else self.settle
            self._put(path, _Entry(self._clock() + wait, complete, stat))
            self._cond.notify_all()

    def found(self, path: Path) -> None:
        """A folder scan saw ``path``: take it now if it has not changed for ``settle``."""
        stat = file_stat(path)
        if stat is None:
            return
        quiet = self._wall() - stat[1] / 1e9 >= self.settle
        with self._cond:
            if path in self._entries:
                return  # an event already queued it; its timing wins
            due = self._clock() + (0.0 if quiet else self.settle)
            self._put(path, _Entry(due, quiet, stat, settled=quiet))
            self._cond.notify_all()

    def _put(self, path: Path, entry: _Entry) -> None:
        entry.ticket = next(self._tickets)
        self._entries[path] = entry
        heapq.heappush(self._queue, (entry.due, entry.ticket, path))

    def retry_later(self, path: Path) -> None:
        """The file looked unfinished when read: wait until it is stable for ``settle``."""
        self.notify(path, complete=False)

    def wake(self) -> None:
        """Make a waiting ``take`` return now (shutdown, a rescan is due)."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def take(self, timeout: float) -> Ready | None:
        """The next path that is ready, or None after ``timeout`` seconds (or a wake-up)."""
        deadline = self._clock() + timeout
        with self._cond:
            while True:
                now = self._clock()
                ready = self._pop_ready(now)
                if ready is not None:
                    return ready
                if now >= deadline or self._woken:
                    self._woken = False
                    return None
                # A replaced record may wake it early: it finds nothing due and waits again.
                next_due = self._queue[0][0] if self._queue else deadline
                self._cond.wait(max(0.0, min(deadline, next_due) - now))

    def _pop_ready(self, now: float) -> Ready | None:
        queue = self._queue
        while queue and queue[0][0] <= now:
            _, ticket, path = heapq.heappop(queue)
            entry = self._entries.get(path)
            if entry is None or entry.ticket != ticket:
                continue  # replaced by a later event, or already taken
            stat = file_stat(path)
            if stat is None:  # gone (renamed away, deleted): nothing to do
                del self._entries[path]
                continue
            if entry.complete or stat == entry.stat:
                del self._entries[path]
                return Ready(path, entry.settled or (not entry.complete and stat == entry.stat))
            # Still changing: look again once it has been quiet for a whole settle period.
            entry.stat = stat
            entry.due = now + self.settle
            heapq.heappush(queue, (entry.due, ticket, path))
        return None
