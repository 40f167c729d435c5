"""Contract: campaigns, append and read, optimistic concurrency, payload fidelity."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mekref.daemon.store import (
    CampaignExists,
    CampaignNotFound,
    ConcurrencyError,
    EventStore,
    NewEvent,
)


def ev(n: int) -> NewEvent:
    return NewEvent("test.counted", json.dumps({"n": n}, sort_keys=True, separators=(",", ":")))


def test_store_satisfies_the_protocol(store: EventStore) -> None:
    assert isinstance(store, EventStore)
    assert store.engine in ("sqlite", "postgresql")


def test_campaigns_are_created_listed_and_fetched(store: EventStore) -> None:
    at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    first = store.create_campaign("Operation TripWire", "tripwire", at=at)
    second = store.create_campaign("Other", "tripwire", at=at + timedelta(seconds=1))
    assert str(uuid.UUID(first.id)) == first.id
    assert first.created_at == at
    assert store.get_campaign(first.id) == first
    assert store.list_campaigns() == [first, second]
    assert store.last_seq(first.id) == 0
    assert store.read(first.id) == []


def test_campaign_id_can_be_given_and_is_unique(store: EventStore) -> None:
    cid = str(uuid.uuid4())
    assert store.create_campaign("A", "tripwire", campaign_id=cid.upper()).id == cid
    with pytest.raises(CampaignExists):
        store.create_campaign("B", "tripwire", campaign_id=cid)
    with pytest.raises(ValueError):
        store.create_campaign("C", "tripwire", campaign_id="not-a-uuid")


def test_unknown_campaign_is_an_error_everywhere(store: EventStore) -> None:
    missing = str(uuid.uuid4())
    with pytest.raises(CampaignNotFound):
        store.get_campaign(missing)
    with pytest.raises(CampaignNotFound):
        store.last_seq(missing)
    with pytest.raises(CampaignNotFound):
        store.read(missing)
    with pytest.raises(CampaignNotFound):
        store.append(missing, 0, [ev(1)])
    with pytest.raises(CampaignNotFound):
        store.latest_snapshot(missing)
    with pytest.raises(CampaignNotFound):
        store.latest_snapshot_utf8(missing)


def test_append_assigns_gap_free_seqs_and_read_returns_them_in_order(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    first = store.append(cid, 0, [ev(1), ev(2), ev(3)])
    assert (first.first_seq, first.last_seq, first.count, first.already_applied) == (1, 3, 3, False)
    second = store.append(cid, 3, [ev(4)])
    assert (second.first_seq, second.last_seq) == (4, 4)
    events = store.read(cid)
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert [json.loads(e.payload)["n"] for e in events] == [1, 2, 3, 4]
    assert all(e.campaign_id == cid and e.type == "test.counted" for e in events)
    assert store.last_seq(cid) == 4
    assert [e.seq for e in store.read(cid, after_seq=2)] == [3, 4]
    assert [e.seq for e in store.read(cid, after_seq=1, limit=2)] == [2, 3]
    assert store.read(cid, after_seq=4) == []
    assert store.read(cid, limit=0) == []


def test_campaigns_have_independent_logs(store: EventStore) -> None:
    a = store.create_campaign("A", "tripwire").id
    b = store.create_campaign("B", "tripwire").id
    store.append(a, 0, [ev(1), ev(2)])
    store.append(b, 0, [ev(10)])
    assert [e.seq for e in store.read(a)] == [1, 2]
    assert [(e.seq, e.campaign_id) for e in store.read(b)] == [(1, b)]


def test_iter_events_pages_through_a_long_log(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev(n) for n in range(1, 26)])
    seqs = [e.seq for e in store.iter_events(cid, after_seq=3, page=7)]
    assert seqs == list(range(4, 26))


def test_stale_expected_seq_raises_and_writes_nothing(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev(1), ev(2)])
    with pytest.raises(ConcurrencyError) as stale:
        store.append(cid, 1, [ev(99)])
    assert (stale.value.expected_last_seq, stale.value.actual_last_seq) == (1, 2)
    assert "re-read" in str(stale.value)
    with pytest.raises(ConcurrencyError):
        store.append(cid, 5, [ev(99)])  # ahead of the log is as wrong as behind it
    assert [e.seq for e in store.read(cid)] == [1, 2]


def test_bad_arguments_are_refused(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    with pytest.raises(ValueError):
        store.append(cid, 0, [])
    with pytest.raises(ValueError):
        store.append(cid, -1, [ev(1)])
    with pytest.raises(ValueError):
        store.read(cid, after_seq=-1)
    with pytest.raises(ValueError):
        NewEvent("", "{}")
    with pytest.raises(ValueError):
        NewEvent("t", '{"a":"\x00"}')
    with pytest.raises(ValueError):
        NewEvent("t", '{"a":"\ud800"}')  # a lone surrogate is not text


def test_timestamps_come_from_the_caller_or_the_clock_in_utc(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    plus_two = timezone(timedelta(hours=2))
    given_at = datetime(2026, 5, 4, 14, 30, 0, 123456, tzinfo=plus_two)
    store.append(cid, 0, [ev(1)], at=given_at)
    before = datetime.now(UTC)
    store.append(cid, 1, [ev(2)])
    after = datetime.now(UTC)
    first, second = store.read(cid)
    assert first.recorded_at == given_at
    assert first.recorded_at.utcoffset() == timedelta(0)  # stored and returned as UTC
    assert before <= second.recorded_at <= after
    with pytest.raises(ValueError):
        store.append(cid, 2, [ev(3)], at=datetime(2026, 1, 1))  # naive: refused


def test_large_payload_round_trips(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    payload = json.dumps({"salvage": ["Atlas AS7-D ✓ " * 40] * 20_000})  # about 9 MB
    store.append(cid, 0, [NewEvent("battle.resolved", payload)])
    (event,) = store.read(cid)
    assert event.payload == payload


def test_unicode_payload_bytes_are_kept_exactly(store: EventStore) -> None:
    cid = store.create_campaign("Ωperation Tripwire — 鉄の嵐", "tripwire").id
    # Key order, spacing and escapes are the rules engine's; the store must not touch them.
    payload = '{"z":1, "a":"Kurita 龍 \\u00e9 é 🤖","m":[3,2,1]}'
    store.append(cid, 0, [NewEvent("pilot.named ✓", payload)])
    (event,) = store.read(cid)
    assert event.payload == payload
    assert event.type == "pilot.named ✓"
    assert store.get_campaign(cid).name == "Ωperation Tripwire — 鉄の嵐"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    payloads=st.lists(
        st.text(
            alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]),
            max_size=200,
        ),
        min_size=1,
        max_size=5,
    )
)
def test_any_text_round_trips(store: EventStore, payloads: list[str]) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [NewEvent("t", p) for p in payloads])
    assert [e.payload for e in store.read(cid)] == payloads
