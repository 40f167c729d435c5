"""Wakes live event streams when a campaign's log grows.

Streams read events from the store, never from here: the hub only says "look again", so a
stream holds no queue and a burst of events costs no memory per subscriber. Appends made
elsewhere (the folder watcher, another replica on PostgreSQL) are found by each stream's
periodic poll; appends made through this server wake streams at once.
"""

from __future__ import annotations

import asyncio
import contextlib


class EventHub:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiters: dict[str, asyncio.Event] = {}
        self.closed = asyncio.Event()

    def notify_threadsafe(self, campaign_id: str) -> None:
        """Wake the streams of ``campaign_id``; callable from any thread."""
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._notify, campaign_id)

    def _notify(self, campaign_id: str) -> None:
        event = self._waiters.pop(campaign_id, None)
        if event is not None:
            event.set()

    def close(self) -> None:
        """Wake every stream for shutdown (call on the hub's loop)."""
        self.closed.set()
        for event in self._waiters.values():
            event.set()
        self._waiters.clear()

    async def wait(self, campaign_id: str, timeout: float) -> None:
        """Return when the campaign is notified, the hub closes, or ``timeout`` passes."""
        if self.closed.is_set():
            return
        event = self._waiters.setdefault(campaign_id, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
