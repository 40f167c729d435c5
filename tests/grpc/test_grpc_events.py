"""EventService: replay then live, resume after a disconnect, slow clients, shutdown."""

from __future__ import annotations

import threading
import time

import grpc
import pytest
from grpc_helpers import Running, error_info, iterate, reason_of, start, stop

from mekref.rules.tripwire.commands import CreditPool, DebitPool
from mekref.v1 import event_pb2


def _credit(api: Running, n: int, side: str = "davion", reason: str = "loot") -> None:
    """``n`` events: credits and debits by turns, so the pool never fills up."""
    for i in range(n):
        kind = CreditPool if i % 2 == 0 else DebitPool
        api.execute(kind(actor="t", pool_id=api.pools[side], amount=1, reason=f"{reason} {i}"))


def test_replay_then_live_then_resume(api: Running) -> None:
    ref = api.as_referee()
    head = api.store.last_seq(api.campaign_id)
    call = ref.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id), metadata=ref.md
    )
    replayed = iterate(call, head)
    assert [a.event.seq for a in replayed] == list(range(1, head + 1))
    threading.Timer(0.3, _credit, (api, 3)).start()
    live = iterate(call, 3)
    assert [a.event.seq for a in live] == [head + 1, head + 2, head + 3]
    assert [a.event.type for a in live] == ["PoolCredited", "PoolDebited", "PoolCredited"]
    call.cancel()
    # Disconnected: events keep coming; a new stream after the last seq misses none.
    _credit(api, 4)
    again = ref.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id, after_seq=head + 3),
        metadata=ref.md,
    )
    resumed = iterate(again, 4)
    assert [a.event.seq for a in resumed] == [head + 4, head + 5, head + 6, head + 7]
    again.cancel()


def test_stream_follows_appends_made_outside_the_server(api: Running) -> None:
    """The watcher or another replica appends through its own runner: the poll finds it."""
    from mekref.daemon.campaigns import CampaignRunner

    side = api.as_side("davion")
    head = api.store.last_seq(api.campaign_id)
    call = side.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id, after_seq=head),
        metadata=side.md,
    )
    outside = CampaignRunner(api.store)

    def append() -> None:
        outside.execute(
            api.campaign_id,
            CreditPool(actor="t", pool_id=api.pools["liao"], amount=1, reason="hidden"),
        )
        outside.execute(
            api.campaign_id,
            CreditPool(actor="t", pool_id=api.pools["davion"], amount=2, reason="seen"),
        )

    threading.Timer(0.2, append).start()
    got = iterate(call, 1)
    assert got[0].event.seq == head + 2  # the liao credit (head + 1) is not davion's to see
    call.cancel()


def test_stop_at_head_ends_the_stream(api: Running) -> None:
    ref = api.as_referee()
    got = list(
        ref.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id, stop_at_head=True),
            metadata=ref.md,
        )
    )
    assert len(got) == api.store.last_seq(api.campaign_id)


def test_deadline_ends_a_live_stream(api: Running) -> None:
    ref = api.as_referee()
    call = ref.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id),
        metadata=ref.md,
        timeout=0.5,
    )
    with pytest.raises(grpc.RpcError) as caught:
        list(call)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_a_client_that_stops_reading_gets_resource_exhausted(tmp_path: object) -> None:
    from pathlib import Path

    api = start(Path(str(tmp_path)) / "slow.db", stream_write_timeout=0.5)
    try:
        _credit(api, 150, reason="x" * 20_000)  # ~3 MB: more than the transport buffers
        ref = api.client(
            api.referee,
            **{"grpc.http2.bdp_probe": 0, "grpc.max_receive_message_length": 1 << 20},
        )
        call = ref.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id), metadata=ref.md
        )
        first = next(call)
        assert first.event.seq == 1
        time.sleep(4)  # not reading: the server's writes time out
        received = 1
        with pytest.raises(grpc.RpcError) as caught:
            for _ in call:
                received += 1
        error = caught.value
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert reason_of(error) == "slow_consumer"
        resume = int(error_info(error).metadata["resume_after_seq"])
        assert f"resume after seq {resume}" in (error.details() or "")
        # The write that timed out may still arrive: resuming can repeat one event, never skip.
        assert received in (resume, resume + 1)
        assert resume < api.store.last_seq(api.campaign_id)
    finally:
        stop(api)


def test_shutdown_ends_live_streams_with_a_resume_point(tmp_path: object) -> None:
    from pathlib import Path

    api = start(Path(str(tmp_path)) / "down.db")
    ref = api.as_referee()
    call = ref.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id), metadata=ref.md
    )
    head = api.store.last_seq(api.campaign_id)
    iterate(call, head)
    threading.Timer(0.3, api.server.stop, (2.0,)).start()
    with pytest.raises(grpc.RpcError) as caught:
        list(call)
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    assert f"resume after seq {head}" in (caught.value.details() or "")
    stop(api)
