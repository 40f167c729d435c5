"""Contract: snapshots of folded state."""

from __future__ import annotations

import pytest

from mekref.daemon.store import EventStore, NewEvent, SnapshotBytes


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


def test_the_latest_snapshot_as_its_utf8_bytes(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    assert store.latest_snapshot_utf8(cid) is None
    store.append(cid, 0, [NewEvent("e", "{}")] * 3)
    store.save_snapshot(cid, 3, '{"units":["Atlas ✓"]}', "h3")
    store.save_snapshot(cid, 2, '{"units":[]}', "h2")  # an older one saved late is not latest
    latest = store.latest_snapshot_utf8(cid)
    assert latest == SnapshotBytes(cid, 3, '{"units":["Atlas ✓"]}'.encode())


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
    utf8 = store.latest_snapshot_utf8(cid)
    assert utf8 is not None and utf8.state == state.encode()


def _kept(store: EventStore, campaign_id: str) -> list[int]:
    # The contract lists no snapshot but the latest; both engines' shared SQL base reads them.
    found = store._read(  # type: ignore[attr-defined]
        "SELECT seq FROM snapshots WHERE campaign_id = ? ORDER BY seq", (campaign_id,)
    )
    return [int(row[0]) for row in found]


def test_keep_deletes_all_but_the_newest_snapshots(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    other = store.create_campaign("B", "tripwire").id
    for campaign in (cid, other):
        store.append(campaign, 0, [NewEvent("e", "{}")] * 5)
    store.save_snapshot(other, 1, "{}", "h-other")
    for seq in (1, 2, 3):
        store.save_snapshot(cid, seq, f'{{"seq":{seq}}}', f"h{seq}")
    assert _kept(store, cid) == [1, 2, 3]
    saved = store.save_snapshot(cid, 5, '{"seq":5}', "h5", keep=2)
    assert _kept(store, cid) == [3, 5]
    assert store.latest_snapshot(cid) == saved
    store.save_snapshot(cid, 4, '{"seq":4}', "h4", keep=2)  # an older one saved late goes
    assert _kept(store, cid) == [4, 5]
    assert _kept(store, other) == [1]  # another campaign's are its own
    with pytest.raises(ValueError):
        store.save_snapshot(cid, 5, "{}", "h", keep=0)
