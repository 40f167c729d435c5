"""Contract: snapshots of folded state."""

from __future__ import annotations

import pytest

from mekref.daemon.store import EventStore, NewEvent


def test_latest_snapshot_is_the_highest_seq(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    assert store.latest_snapshot(cid) is None
    store.append(cid, 0, [NewEvent("e", "{}")] * 3)
    empty = store.save_snapshot(cid, 0, "{}", "h0")
    assert store.latest_snapshot(cid) == empty
    later = store.save_snapshot(cid, 3, '{"units":["Atlas ✓"]}', "h3")
    store.save_snapshot(cid, 2, '{"units":[]}', "h2")  # an older one saved late is not latest
    assert store.latest_snapshot(cid) == later
    assert later.state == '{"units":["Atlas ✓"]}'


def test_saving_the_same_seq_again_replaces_it(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [NewEvent("e", "{}")])
    store.save_snapshot(cid, 1, "old", "h-old")
    store.save_snapshot(cid, 1, "new", "h-new")
    latest = store.latest_snapshot(cid)
    assert latest is not None and (latest.state, latest.state_hash) == ("new", "h-new")


def test_a_snapshot_cannot_run_past_the_log(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [NewEvent("e", "{}")])
    with pytest.raises(ValueError):
        store.save_snapshot(cid, 2, "{}", "h")
    with pytest.raises(ValueError):
        store.save_snapshot(cid, -1, "{}", "h")
    assert store.latest_snapshot(cid) is None


def test_large_snapshot_round_trips(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [NewEvent("e", "{}")])
    state = '{"log":"' + "ÄÖÜ" * 1_000_000 + '"}'
    store.save_snapshot(cid, 1, state, "h")
    latest = store.latest_snapshot(cid)
    assert latest is not None and latest.state == state
