"""The campaign runner the API uses: the shared one, plus a folded-state cache, group commit
and a wake-up for live streams.

Every API read and every command needs the folded state. Folding from the latest snapshot on
each call would re-read up to a snapshot interval of events per call; instead the last folded
state per campaign is kept and only the events appended since are read and folded. The log is
append-only and seqs have no gaps, so ``fold(cached, events after cached seq)`` is exactly the
state ``load`` would build.

Group commit: a busy turn has dozens of sides' clients submitting at once, and each append is
a durable (fsync'd) commit. :meth:`CachingRunner.execute_many` decides several commands one
after the other, each on the state the previous ones left (exactly as if they had been
executed one by one), and appends all their events in one transaction. A refused command is
answered alone and leaves no trace; the others go on. If the append fails, none of the batch
was acknowledged, so none was applied.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence

from mekref.daemon.campaigns import (
    MAX_RETRIES,
    CampaignRunner,
    Executed,
    Loaded,
    event_from_stored,
    event_to_json,
)
from mekref.daemon.store import ConcurrencyError, EventStore, FileRef, NewEvent
from mekref.rules.campaign_state import CampaignState, state_to_text
from mekref.rules.engine import decide, dice_for, evolve, fold
from mekref.rules.messages import Command, Event

#: The API keeps folded state in memory, so snapshots only speed up a cold start; taking one
#: costs a full serialisation of the state, so the API takes them less often than the CLI.
SNAPSHOT_EVERY = 1000


class CachingRunner(CampaignRunner):
    def __init__(
        self, store: EventStore, *, on_append: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(store)
        self._cache: dict[str, Loaded] = {}
        self._lock = threading.Lock()
        self._on_append = on_append

    def _remember(self, campaign_id: str, loaded: Loaded) -> None:
        with self._lock:
            current = self._cache.get(campaign_id)
            # Two threads may fold concurrently; keep whichever reached further.
            if current is None or current.last_seq < loaded.last_seq:
                self._cache[campaign_id] = loaded

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
        self._remember(campaign_id, loaded)
        return loaded

    def execute(
        self, campaign_id: str, command: Command, *, battle_file: FileRef | None = None
    ) -> Executed:
        executed = super().execute(campaign_id, command, battle_file=battle_file)
        if executed.events:
            self._remember(campaign_id, Loaded(executed.state, executed.last_seq))
            if self._on_append is not None:
                self._on_append(campaign_id)
        return executed

    def execute_many(
        self, campaign_id: str, commands: Sequence[Command]
    ) -> list[Executed | Exception]:
        """Decide ``commands`` in order and append all their events in one commit.

        Returns, per command, its :class:`Executed` or the exception that refused it.
        """
        last_error: ConcurrencyError | None = None
        with self.store.writer(campaign_id):
            for _ in range(MAX_RETRIES):
                loaded = self.load(campaign_id)
                state = loaded.state
                decided: list[tuple[tuple[Event, ...], int] | Exception] = []
                appended: list[Event] = []
                states = []
                for command in commands:
                    try:
                        events = decide(state, command, dice_for(state))
                    except Exception as exc:  # refused, or a fault of this one command
                        # Decisions are pure: whatever went wrong concerns this command alone.
                        decided.append(exc)
                        continue
                    decided.append((tuple(events), loaded.last_seq + len(appended) + 1))
                    state = fold(events, state)
                    states.append(state)
                    appended += events
                if not appended:
                    return [d if isinstance(d, Exception) else self._empty(campaign_id, d, state)
                            for d in decided]  # fmt: skip
                new = [NewEvent(type(e).TYPE, event_to_json(e)) for e in appended]
                try:
                    result = self.store.append(campaign_id, loaded.last_seq, new)
                except ConcurrencyError as exc:
                    last_error = exc
                    continue
                self._remember(campaign_id, Loaded(state, result.last_seq))
                self._maybe_snapshot(campaign_id, loaded.last_seq, result.last_seq, state)
                if self._on_append is not None:
                    self._on_append(campaign_id)
                out: list[Executed | Exception] = []
                after = iter(states)
                for d in decided:
                    if isinstance(d, Exception):
                        out.append(d)
                        continue
                    produced, first = d
                    out.append(
                        Executed(
                            campaign_id, produced, first, first + len(produced) - 1, next(after)
                        )
                    )
                return out
        assert last_error is not None
        raise last_error

    def _maybe_snapshot(
        self, campaign_id: str, before: int, after: int, state: CampaignState
    ) -> None:
        if after // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY:
            # One serialisation: the state hash is the sha256 of exactly this text.
            text = state_to_text(state)
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            self.store.save_snapshot(campaign_id, after, text, digest)

    @staticmethod
    def _empty(
        campaign_id: str, decided: tuple[tuple[Event, ...], int], state: CampaignState
    ) -> Executed:
        _, first = decided
        return Executed(campaign_id, (), first, first - 1, state)
