"""The campaign runner the API uses: the shared one, plus group commit and a wake-up for live
streams. (The shared runner already keeps the newest folded state per campaign, so API reads
fold only the events appended since.)

Group commit: a busy turn has dozens of sides' clients submitting at once, and each append is
a durable (fsync'd) commit. :meth:`CachingRunner.execute_many` decides several commands one
after the other, each on the state the previous ones left (exactly as if they had been
executed one by one), and appends all their events in one transaction. A refused command is
answered alone and leaves no trace; the others go on. If the append fails, none of the batch
was acknowledged, so none was applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mekref.daemon.campaigns import (
    MAX_RETRIES,
    CampaignRunner,
    Executed,
    Loaded,
    event_to_json,
)
from mekref.daemon.store import ConcurrencyError, EventStore, FileRef, NewEvent
from mekref.rules.messages import Command, Event


class CachingRunner(CampaignRunner):
    #: The API keeps folded state in memory, so snapshots only speed up a cold start; taking
    #: one costs a full serialisation of the state, so the API takes them less often.
    snapshot_every = 1000

    def __init__(
        self, store: EventStore, *, on_append: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(store)
        self._on_append = on_append

    def execute(
        self, campaign_id: str, command: Command, *, battle_file: FileRef | None = None
    ) -> Executed:
        executed = super().execute(campaign_id, command, battle_file=battle_file)
        if executed.events and self._on_append is not None:
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
            game = self.game(campaign_id)
            for _ in range(MAX_RETRIES):
                loaded = self.load(campaign_id)
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

    @staticmethod
    def _empty(campaign_id: str, decided: tuple[tuple[Event, ...], int], state: Any) -> Executed:
        _, first = decided
        return Executed(campaign_id, (), first, first - 1, state)
