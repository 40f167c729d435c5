"""The campaign runner the API uses: the shared one, plus a folded-state cache and a wake-up.

Every API read and every command needs the folded state. Folding from the latest snapshot on
each call would make a busy turn (dozens of order submissions a second) re-read up to a
snapshot interval of events per call; instead the last folded state per campaign is kept and
only the events appended since are read and folded. The log is append-only and seqs have no
gaps, so ``fold(cached, events after cached seq)`` is exactly the state ``load`` would build.
After a successful command the event hub is told, so live streams wake without polling.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from mekref.daemon.campaigns import CampaignRunner, Executed, Loaded, event_from_stored
from mekref.daemon.store import EventStore, FileRef
from mekref.rules.engine import evolve
from mekref.rules.messages import Command


class CachingRunner(CampaignRunner):
    def __init__(self, store: EventStore, *, on_append: Callable[[str], None] | None = None) -> None:
        super().__init__(store)
        self._cache: dict[str, Loaded] = {}
        self._lock = threading.Lock()
        self._on_append = on_append

    def load(self, campaign_id: str) -> Loaded:
        with self._lock:
            cached = self._cache.get(campaign_id)
        if cached is None:
            loaded = super().load(campaign_id)
        else:
            state, last = cached.state, cached.last_seq
            for stored in self.store.iter_events(campaign_id, after_seq=last):
                state = evolve(state, event_from_stored(stored))
                last = stored.seq
            loaded = Loaded(state, last)
        with self._lock:
            current = self._cache.get(campaign_id)
            # Two threads may fold concurrently; keep whichever reached further.
            if current is None or current.last_seq < loaded.last_seq:
                self._cache[campaign_id] = loaded
        return loaded

    def execute(
        self, campaign_id: str, command: Command, *, battle_file: FileRef | None = None
    ) -> Executed:
        executed = super().execute(campaign_id, command, battle_file=battle_file)
        if executed.events and self._on_append is not None:
            self._on_append(campaign_id)
        return executed
