"""Run rules-engine commands against a stored campaign: the one path every entry point takes.

The CLI, the watcher and the gRPC servicers all call :class:`CampaignRunner` (one per process,
built by the composition root, :mod:`mekref.daemon.app`). It loads the folded state (latest
snapshot plus the events after it), lets the campaign's rule set decide under the campaign's
writer lock, and appends the events (with the battle file that caused them, when there is one)
in one transaction. The rules stay pure; this module is the imperative shell.

Group commit: a busy turn has dozens of sides' clients submitting at once, and each append is a
durable (fsync'd) commit. :meth:`CampaignRunner.execute_many` decides several commands one after
the other, each on the state the previous ones left (exactly as if they had been executed one
by one), and appends all their events in one transaction. A refused command is answered alone
and leaves no trace; the others go on. If the append fails, none of the batch was acknowledged,
so none was applied.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from mekref.daemon import logs
from mekref.daemon.store import (
    ConcurrencyError,
    EventStore,
    FileRef,
    NewEvent,
    SnapshotBytes,
)
from mekref.daemon.store import Event as StoredEvent
from mekref.daemon.store.errors import DamagedEvent
from mekref.rules.codec import CodecError
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command, Event, event_text
from mekref.rules.registry import ruleset
from mekref.rules.snapshot import state_from_text, state_text

#: A snapshot at most every this many events keeps start-up fast without writing one per command.
SNAPSHOT_EVERY = 200
#: ...and only once the events since the last snapshot weigh a SNAPSHOT_SHARE-th of that
#: snapshot (at least SNAPSHOT_MIN_BYTES). A snapshot writes the whole state, which grows with
#: the campaign (only the battles changed since the last one are encoded: rules.snapshot): a
#: fixed event interval would make each battle cost more than the one before. Tied to the
#: bytes, the snapshot work stays proportional to the events written (at most SNAPSHOT_SHARE
#: times their text), and opening a campaign folds at most a SNAPSHOT_SHARE-th of its state's
#: worth of events after the snapshot, however long the campaign.
SNAPSHOT_MIN_BYTES = 64 * 1024
SNAPSHOT_SHARE = 8
#: Snapshots kept per campaign (the newest): older ones are never read again.
SNAPSHOTS_KEPT = 2
#: Optimistic-concurrency retries when another writer slipped in between read and append.
MAX_RETRIES = 5


@runtime_checkable
class NamedSetup(Protocol):
    """A set-up command that names its campaign and rule set (TripWire's ``CreateCampaign``)."""

    @property
    def name(self) -> str: ...

    @property
    def ruleset(self) -> str: ...


@dataclass(frozen=True)
class Loaded:
    #: The rule set's own state type: ``CampaignState`` for TripWire campaigns.
    state: Any
    last_seq: int
    #: How this load got there: the seq of the snapshot it started from (None: no snapshot,
    #: or the state this runner already held), and how many events it folded after that.
    snapshot_seq: int | None = None
    folded: int = 0


@dataclass(frozen=True)
class Executed:
    campaign_id: str
    events: tuple[Event, ...]
    first_seq: int
    last_seq: int
    state: Any
    #: The battle file had already been applied: nothing was decided or appended.
    already_applied: bool = False


def event_from_stored(game: RuleSet[Any], stored: StoredEvent) -> Event:
    try:
        return game.events.from_json(json.loads(stored.payload))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        # ValueError covers bad JSON and the codec's refusals; the others a payload of the
        # wrong shape. One line naming the row, never a traceback from deep in the codec.
        problem = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise DamagedEvent(stored.campaign_id, stored.seq, stored.type, problem) from exc


def _restored(game: RuleSet[Any], campaign_id: str, snapshot: SnapshotBytes) -> Any | None:
    """The snapshot's state, or None when this release cannot read it (one written by a
    release whose state had another shape): a snapshot is only a cache, so the campaign is
    folded from its first event instead, and the next snapshot is written in today's shape."""
    try:
        return state_from_text(game.state_type, snapshot.state)
    except CodecError as exc:
        logs.get_logger("mekref.runner").warning(
            "snapshot.unreadable", campaign_id=campaign_id, seq=snapshot.seq, error=str(exc)
        )
        return None


class CampaignRunner:
    def __init__(self, store: EventStore, *, snapshot_every: int | None = SNAPSHOT_EVERY) -> None:
        self.store = store
        #: Least events between snapshots; a long-running server keeps state in memory and may
        #: raise it (a snapshot costs a full serialisation of the state). None: never (a
        #: throw-away store, such as ``mekref replay``'s, is never opened cold again).
        self.snapshot_every = snapshot_every
        # Per campaign: events and bytes of event text this runner appended since its last
        # snapshot, and that snapshot's size (see SNAPSHOT_MIN_BYTES).
        self._since_snapshot: dict[str, tuple[int, int]] = {}
        self._snapshot_bytes: dict[str, int] = {}
        #: Called with the campaign id after every append (wakes the API's live streams).
        self._listeners: list[Callable[[str], None]] = []
        self._games: dict[str, RuleSet[Any]] = {}
        # The newest state this runner folded, per campaign. Events are immutable and the log
        # only grows, so a cached state at seq N stays true: loading folds only what came
        # after it (another replica's appends included) instead of decoding the whole log.
        self._latest: dict[str, Loaded] = {}
        self._latest_lock = threading.Lock()  # the API folds from several threads

    def on_append(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(campaign_id)`` after each append this runner makes."""
        self._listeners.append(listener)

    def _appended(self, campaign_id: str) -> None:
        for listener in self._listeners:
            listener(campaign_id)

    def game(self, campaign_id: str) -> RuleSet[Any]:
        """The campaign's rule set."""
        game = self._games.get(campaign_id)
        if game is None:
            game = ruleset(self.store.get_campaign(campaign_id).ruleset)
            self._games[campaign_id] = game
        return game

    def known_game(self, campaign_id: str) -> RuleSet[Any] | None:
        """The campaign's rule set if it was already looked up (no database access), or None."""
        return self._games.get(campaign_id)

    # -- creating -------------------------------------------------------------------------
    def create(self, command: Command, campaign_id: str | None = None) -> Executed:
        """Create a campaign from a set-up command that names it and its rule set (TripWire's
        ``CreateCampaign``)."""
        assert isinstance(command, NamedSetup), f"{type(command).__name__} names no campaign"
        return self.start(command.name, command.ruleset, command, campaign_id)

    def start(
        self, name: str, ruleset_name: str, command: Command, campaign_id: str | None = None
    ) -> Executed:
        """Create a campaign under any rule set and run the command that sets it up."""
        game = ruleset(ruleset_name)  # refuses an unknown rule set before anything is stored
        # Decide once on the empty state first: a refused set-up must not leave an empty
        # campaign behind in the store.
        empty = game.initial_state()
        game.decide(empty, command, game.dice_for(empty, command))
        campaign_id = campaign_id or str(uuid.uuid4())
        self.store.create_campaign(name, ruleset_name, campaign_id=campaign_id)
        return self.execute(campaign_id, command)

    # -- reading --------------------------------------------------------------------------
    def load(self, campaign_id: str) -> Loaded:
        game = self.game(campaign_id)
        with self._latest_lock:
            cached = self._latest.get(campaign_id)
        snapshot_seq: int | None = None
        if cached is not None:
            state, after = cached.state, cached.last_seq
            events, written = self._since_snapshot.get(campaign_id, (0, 0))
        else:
            state, after = game.initial_state(), 0
            events, written = 0, 0
            # Read as its UTF-8 bytes: the battles it keeps apart are decoded when a rule
            # reads one, not all of them to make one text first.
            snapshot = self.store.latest_snapshot_utf8(campaign_id)
            restored = None if snapshot is None else _restored(game, campaign_id, snapshot)
            if snapshot is not None and restored is not None:
                state = restored
                after = snapshot_seq = snapshot.seq
                # Its size in bytes (as written: in characters; the same for ASCII text).
                self._snapshot_bytes[campaign_id] = len(snapshot.state)
        last, folded = after, 0
        for stored in self.store.iter_events(campaign_id, after_seq=after):
            state = game.evolve(state, event_from_stored(game, stored))
            last, folded = stored.seq, folded + 1
            events, written = events + 1, written + len(stored.payload)
        # Events folded after the snapshot count towards the next one, whoever appended them:
        # a campaign run by short CLI commands gets its snapshots too.
        self._since_snapshot[campaign_id] = (events, written)
        loaded = Loaded(state, last, snapshot_seq, folded)
        self._remember(campaign_id, loaded)
        return loaded

    def _held_or_load(self, campaign_id: str, *, trust: bool) -> tuple[Loaded, bool]:
        """The state this runner holds for ``campaign_id`` without asking the store whether
        events came after it (when ``trust`` and it holds one), else :meth:`load`; and
        whether it was read from the store (True) or taken on trust (False).

        For a writer only: the append checks, in its transaction, that the log still ends
        where this state does, so a state that another process has moved past is refused
        there (ConcurrencyError) and the retry folds what came after it. Decisions that append
        nothing are not checked by an append: the caller decides them again on a state read
        from the store. A busy server thus saves one read of the store per group commit."""
        if trust:
            with self._latest_lock:
                cached = self._latest.get(campaign_id)
            if cached is not None:
                return cached, False
        return self.load(campaign_id), True

    def _remember(self, campaign_id: str, loaded: Loaded) -> None:
        with self._latest_lock:
            current = self._latest.get(campaign_id)
            # Two threads may fold concurrently; keep whichever reached further.
            if current is None or current.last_seq <= loaded.last_seq:
                self._latest[campaign_id] = loaded

    def forget(self, campaign_id: str) -> None:
        """Drop the state held for ``campaign_id`` (the next load folds it again)."""
        with self._latest_lock:
            self._latest.pop(campaign_id, None)

    def replay(self, campaign_id: str) -> Any:
        """State folded from the whole log, ignoring snapshots (what a replay proves)."""
        game = self.game(campaign_id)
        state = game.initial_state()
        for stored in self.store.iter_events(campaign_id):
            state = game.evolve(state, event_from_stored(game, stored))
        return state

    def state_hash(self, campaign_id: str, state: Any) -> str:
        return self.game(campaign_id).state_hash(state)

    def events(self, campaign_id: str, after_seq: int = 0) -> Iterator[tuple[int, Event]]:
        game = self.game(campaign_id)
        for stored in self.store.iter_events(campaign_id, after_seq=after_seq):
            yield stored.seq, event_from_stored(game, stored)

    # -- writing --------------------------------------------------------------------------
    def execute(
        self,
        campaign_id: str,
        command: Command,
        *,
        battle_file: FileRef | None = None,
        check: Callable[[Any, Any], None] | None = None,
    ) -> Executed:
        """Decide ``command`` on the current state and append its events (exactly once per file).

        Raises :class:`mekref.rules.refusal.Refusal` when the rules say no; nothing is stored.
        ``check(state before, state after)`` runs under the writer lock before the append and
        may raise to keep the events out (a policy of the caller's, such as how many held
        battles a side's uploads may open); nothing is stored then either.
        """
        # The writer lock makes a concurrent append unlikely; optimistic concurrency still
        # guards against a writer that does not take the lock (an older mekref, a script).
        last_error: ConcurrencyError | None = None
        with self.store.writer(campaign_id):
            for attempt in range(MAX_RETRIES):
                if battle_file is not None and self.store.has_file(campaign_id, battle_file.sha256):
                    loaded = self.load(campaign_id)
                    return Executed(
                        campaign_id, (), loaded.last_seq + 1, loaded.last_seq, loaded.state, True
                    )
                # The state this runner holds, without a catch-up read (a replay or a busy
                # server asks once per command): the append checks the log still ends there.
                # What no append checks (a refusal, no events, the caller's check) is decided
                # again on a state read from the store; decisions are pure, so that is safe.
                loaded, read = self._held_or_load(campaign_id, trust=attempt == 0 and check is None)
                game = self.game(campaign_id)
                try:
                    events = game.decide(
                        loaded.state, command, game.dice_for(loaded.state, command)
                    )
                except Exception:
                    if read:
                        raise
                    continue
                if not events and not read:
                    continue
                state = loaded.state
                for event in events:
                    state = game.evolve(state, event)
                if check is not None:
                    check(loaded.state, state)
                new = [NewEvent(type(e).TYPE, event_text(e)) for e in events]
                try:
                    result = self.store.append(
                        campaign_id, loaded.last_seq, new, ingested_file=battle_file
                    )
                except ConcurrencyError as exc:
                    last_error = exc
                    continue
                if result.already_applied:
                    return Executed(
                        campaign_id, (), result.first_seq, result.last_seq, loaded.state, True
                    )
                self._remember(campaign_id, Loaded(state, result.last_seq))
                self._maybe_snapshot(campaign_id, loaded.last_seq, result.last_seq, state, new)
                if events:
                    self._appended(campaign_id)
                return Executed(
                    campaign_id, tuple(events), result.first_seq, result.last_seq, state
                )
        assert last_error is not None
        raise last_error

    def execute_many(
        self, campaign_id: str, commands: Sequence[Command]
    ) -> list[Executed | Exception]:
        """Decide ``commands`` in order and append all their events in one commit.

        Returns, per command, its :class:`Executed` or the exception that refused it.
        """
        last_error: ConcurrencyError | None = None
        with self.store.writer(campaign_id):
            game = self.game(campaign_id)
            for attempt in range(MAX_RETRIES):
                loaded, read = self._held_or_load(campaign_id, trust=attempt == 0)
                state = loaded.state
                decided: list[tuple[tuple[Event, ...], int] | Exception] = []
                appended: list[Event] = []
                states = []
                for command in commands:
                    try:
                        events = game.decide(state, command, game.dice_for(state, command))
                    except Exception as exc:  # refused, or a fault of this one command
                        # Decisions are pure: whatever went wrong concerns this command alone.
                        decided.append(exc)
                        continue
                    decided.append((tuple(events), loaded.last_seq + len(appended) + 1))
                    for event in events:
                        state = game.evolve(state, event)
                    states.append(state)
                    appended += events
                if not appended and not read:
                    continue  # no append checked the held state: decide on the store's
                if not appended:
                    return [d if isinstance(d, Exception) else self._empty(campaign_id, d, state)
                            for d in decided]  # fmt: skip
                new = [NewEvent(type(e).TYPE, event_text(e)) for e in appended]
                try:
                    result = self.store.append(campaign_id, loaded.last_seq, new)
                except ConcurrencyError as exc:
                    last_error = exc
                    continue
                self._remember(campaign_id, Loaded(state, result.last_seq))
                self._maybe_snapshot(campaign_id, loaded.last_seq, result.last_seq, state, new)
                self._appended(campaign_id)
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

    @staticmethod
    def _empty(campaign_id: str, decided: tuple[tuple[Event, ...], int], state: Any) -> Executed:
        _, first = decided
        return Executed(campaign_id, (), first, first - 1, state)

    def _maybe_snapshot(
        self, campaign_id: str, before: int, after: int, state: Any, new: Sequence[NewEvent]
    ) -> None:
        every = self.snapshot_every
        if every is None:
            return
        events, written = self._since_snapshot.get(campaign_id, (0, 0))
        events += after - before
        written += sum(len(e.payload) for e in new)
        self._since_snapshot[campaign_id] = (events, written)
        if events < every or written < max(
            SNAPSHOT_MIN_BYTES, self._snapshot_bytes.get(campaign_id, 0) // SNAPSHOT_SHARE
        ):
            return
        text = state_text(state)
        # The hash reads the texts state_text just made (a battle is encoded once).
        digest = self.game(campaign_id).state_hash(state)
        self.store.save_snapshot(campaign_id, after, text, digest, keep=SNAPSHOTS_KEPT)
        self._since_snapshot[campaign_id] = (0, 0)
        self._snapshot_bytes[campaign_id] = len(text)
