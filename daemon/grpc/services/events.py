"""EventService: the campaign log as a resumable live stream, filtered per caller.

The stream reads pages from the store (replay), then waits on the hub or a short poll and reads
again (live), so it never buffers more than one page: memory per subscriber is bounded whatever
the log size. Each write waits at most ``stream_write_timeout`` for the client to take it; a
client that does not read gets RESOURCE_EXHAUSTED carrying the seq to resume after, rather than
the server queueing for it. Shutdown ends streams with UNAVAILABLE and the same resume seq.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import grpc
from grpc import aio
from grpc_status import rpc_status

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.errors import ApiError, invalid
from mekref.daemon.grpc.services.base import (
    Context,
    Services,
    campaign_caller,
    log,
    to_api_error,
    wants_legacy_json,
)
from mekref.daemon.grpc.services.campaign import timestamp
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.store import Event as StoredEvent
from mekref.rules.codec import canonical_json
from mekref.rules.kernel import RuleSet
from mekref.v1 import event_pb2, event_pb2_grpc

PAGE = 200


def _resume(code: grpc.StatusCode, message: str, reason: str, after_seq: int) -> ApiError:
    return ApiError(code, message, reason, metadata={"resume_after_seq": str(after_seq)})


class EventServicer(event_pb2_grpc.EventServiceServicer):
    def __init__(self, services: Services) -> None:
        self.s = services

    # A coroutine writing with context.write (not a generator) so each write can time out;
    # grpc.aio accepts both forms, the generated stub names only the generator one.
    async def SubscribeEvents(  # type: ignore[override]
        self, request: event_pb2.SubscribeEventsRequest, context: Context
    ) -> None:
        try:
            await self._stream(request, context)
        except (asyncio.CancelledError, aio.AbortError):
            raise
        except Exception as exc:
            error = to_api_error(exc)
            if error is None:
                # Internals stay in the server log; the client gets an incident to quote.
                incident = uuid.uuid4().hex[:12]
                log.exception("stream.failed", incident=incident)
                error = ApiError(
                    grpc.StatusCode.INTERNAL, f"internal error (incident {incident})", "internal"
                )
            await context.abort_with_status(rpc_status.to_status(error.to_status()))

    async def _stream(self, request: event_pb2.SubscribeEventsRequest, context: Context) -> None:
        cid, principal = campaign_caller(request)
        if request.after_seq < 0:
            raise invalid("after_seq", "must be 0 or more")
        legacy = wants_legacy_json(context)
        await self.s.run(context, self.s.store.last_seq, cid)  # NOT_FOUND before any write
        after = request.after_seq
        hub = self.s.hub
        while True:
            if hub.closed.is_set():
                raise _resume(
                    grpc.StatusCode.UNAVAILABLE,
                    f"the server is shutting down; resume after seq {after}",
                    "shutting_down",
                    after,
                )
            page = await self.s.run(context, self._page, principal, cid, after, legacy)
            for seq, message in page:
                if message is not None:
                    await self._write(context, message, after)
                after = seq
            if len(page) < PAGE:
                if request.stop_at_head:
                    return
                await hub.wait(cid, self.s.stream_poll_seconds)

    def _page(
        self, principal: Principal, cid: str, after: int, legacy: bool
    ) -> list[tuple[int, event_pb2.SubscribeEventsResponse | None]]:
        batch = self.s.store.read(cid, after, PAGE)
        if not batch:
            return []
        state = self.s.runner.load(cid).state
        game = self.s.runner.game(cid)
        return [(e.seq, self._message(principal, game, e, state, legacy)) for e in batch]

    @staticmethod
    def _message(
        principal: Principal, game: RuleSet[Any], stored: StoredEvent, state: Any, legacy: bool
    ) -> event_pb2.SubscribeEventsResponse | None:
        # The campaign's rule set says what each side may see (one rule for every channel).
        payload = game.event_for(state, json.loads(stored.payload), principal.side_id)
        if payload is None:
            return None
        text = None
        if legacy:  # the referee's is the stored text itself
            text = stored.payload if principal.is_referee else canonical_json(payload)
        return event_pb2.SubscribeEventsResponse(
            event=event_pb2.CampaignEvent(
                seq=stored.seq,
                type=stored.type,
                payload_json=text or "",
                recorded_at=timestamp(stored.recorded_at),
                event=typed.ruleset_event(game, payload, stored.type),
            )
        )

    async def _write(
        self, context: Context, message: event_pb2.SubscribeEventsResponse, after: int
    ) -> None:
        try:
            await asyncio.wait_for(context.write(message), self.s.stream_write_timeout)
        except TimeoutError:
            raise _resume(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the client is not reading the stream; resume after seq {after}",
                "slow_consumer",
                after,
            ) from None
