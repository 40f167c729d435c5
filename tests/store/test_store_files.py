"""Contract: exactly once per file, and the listings `mekref status` shows."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest

from mekref.daemon.store import CampaignNotFound, EventStore, FileRef, NewEvent


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def ev(kind: str) -> NewEvent:
    return NewEvent(kind, "{}")


def test_a_file_applies_once_and_a_second_append_reports_already_applied(
    store: EventStore,
) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev("setup")])
    battle = FileRef(sha("battle 1"), "/logs/battle1.mul", battle_id="b-1")
    assert not store.has_file(cid, battle.sha256)
    first = store.append(cid, 1, [ev("unit.destroyed"), ev("salvage")], battle)
    assert (first.first_seq, first.last_seq, first.already_applied) == (2, 3, False)
    assert store.has_file(cid, battle.sha256)

    # Same bytes under another name, with whatever expected seq: nothing is written, and the
    # answer points at the events the first application produced.
    again = store.append(cid, 3, [ev("unit.destroyed")], FileRef(battle.sha256, "/inbox/copy.mul"))
    stale = store.append(cid, 0, [ev("unit.destroyed")], battle)
    for result in (again, stale):
        assert (result.first_seq, result.last_seq, result.already_applied) == (2, 3, True)
    assert store.last_seq(cid) == 3
    (ingested,) = store.ingested_files(cid)
    assert (ingested.sha256, ingested.path, ingested.battle_id) == (
        battle.sha256,
        "/logs/battle1.mul",
        "b-1",
    )
    assert (ingested.first_seq, ingested.last_seq) == (2, 3)


def test_exactly_once_is_per_campaign(store: EventStore) -> None:
    a = store.create_campaign("A", "tripwire").id
    b = store.create_campaign("B", "tripwire").id
    shared = FileRef(sha("shared"), "/logs/x.mul")
    assert not store.append(a, 0, [ev("x")], shared).already_applied
    assert not store.append(b, 0, [ev("x")], shared).already_applied
    assert store.has_file(a, shared.sha256) and store.has_file(b, shared.sha256)
    assert sorted(f.campaign_id for f in store.ingested_files()) == sorted([a, b])
    assert [f.campaign_id for f in store.ingested_files(b)] == [b]


def test_one_files_row_is_read_by_its_sha256(store: EventStore) -> None:
    # An upload's answer gives the seqs of its file's events: it reads that file's row, not
    # every file of the campaign.
    cid = store.create_campaign("A", "tripwire").id
    one, two = FileRef(sha("one"), "/logs/1.mul"), FileRef(sha("two"), "/logs/2.mul")
    store.append(cid, 0, [ev("x")], one)
    store.append(cid, 1, [ev("y"), ev("z")], two)
    (found,) = store.ingested_files(cid, sha256=two.sha256)
    assert (found.sha256, found.first_seq, found.last_seq) == (two.sha256, 2, 3)
    assert store.ingested_files(cid, sha256=sha("never")) == []
    assert [f.path for f in store.ingested_files(sha256=one.sha256)] == ["/logs/1.mul"]


def test_a_file_with_no_events_is_still_recorded(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev("setup")])
    empty = FileRef(sha("nothing happened"), "/logs/empty.mul")
    result = store.append(cid, 1, [], empty)
    assert (result.first_seq, result.last_seq, result.count) == (2, 1, 0)
    assert store.has_file(cid, empty.sha256)
    assert store.append(cid, 1, [], empty).already_applied
    assert store.last_seq(cid) == 1


def test_a_conflicting_append_records_no_file(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev("setup")])
    late = FileRef(sha("late"), "/logs/late.mul")
    with pytest.raises(Exception, match="expected last seq 0"):
        store.append(cid, 0, [ev("x")], late)
    assert not store.has_file(cid, late.sha256)  # events and file are one transaction
    assert store.ingested_files(cid) == []


def test_sha256_must_be_lowercase_hex() -> None:
    with pytest.raises(ValueError):
        FileRef("ABC", "/x")
    with pytest.raises(ValueError):
        FileRef(sha("x").upper(), "/x")


def test_quarantine_listing_keeps_the_latest_reason(store: EventStore) -> None:
    at = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
    bad = sha("not xml")
    store.quarantine_file(bad, "/logs/a.mul", "/q/a.mul", "not XML: line 1, column 1", at=at)
    other = store.quarantine_file(
        sha("truncated"), "/logs/b.mul", "/q/b.mul", "truncated", at=at + timedelta(minutes=1)
    )
    again = store.quarantine_file(
        bad, "/logs/a.mul", "/q/a-2.mul", "unknown unit 'Atlas X'", at=at + timedelta(minutes=2)
    )
    listed = store.quarantined_files()
    assert listed == [other, again]
    assert (again.reason, again.quarantine_path, again.original_path) == (
        "unknown unit 'Atlas X'",
        "/q/a-2.mul",
        "/logs/a.mul",
    )


def test_quarantine_may_name_a_campaign(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    record = store.quarantine_file(sha("q"), "/a", "/q/a", "why", campaign_id=cid)
    assert store.quarantined_files() == [record]
    assert record.campaign_id == cid
    with pytest.raises(CampaignNotFound):
        store.quarantine_file(
            sha("q2"), "/a", "/q/a", "why", campaign_id="00000000-0000-4000-8000-000000000000"
        )


def test_unmatched_files_are_held_until_applied_or_released(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    at = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)
    first = store.hold_unmatched(sha("u1"), "/logs/u1.mul", "no battle has these units", at=at)
    # Held twice: the first record (and its first-seen time) is kept.
    assert store.hold_unmatched(sha("u1"), "/elsewhere.mul", "again") == first
    second = store.hold_unmatched(
        sha("u2"), "/logs/u2.mul", "no battle", campaign_id=cid, at=at + timedelta(seconds=1)
    )
    assert store.unmatched_files() == [first, second]

    # Applying the file releases it in the same transaction.
    store.append(cid, 0, [ev("battle")], FileRef(sha("u1"), "/logs/u1.mul"))
    assert store.unmatched_files() == [second]
    assert store.release_unmatched(sha("u2"))
    assert not store.release_unmatched(sha("u2"))
    assert store.unmatched_files() == []


def test_unreadable_names_and_nul_in_reasons_are_stored_as_visible_escapes(
    store: EventStore,
) -> None:
    # b"\xff" in a file name is not UTF-8; Python hands it over as the surrogate "\udcff".
    odd_path = "/logs/" + b"battle\xff.mul".decode("utf-8", "surrogateescape")
    record = store.quarantine_file(sha("odd"), odd_path, "/q/odd.mul", "bad byte \x00 at 1:1")
    assert record.original_path == "/logs/battle\\xff.mul"
    assert record.reason == "bad byte \\x00 at 1:1"
    assert store.quarantined_files() == [record]
    held = store.hold_unmatched(sha("odd2"), odd_path, "no battle")
    assert store.unmatched_files() == [held] and held.path == "/logs/battle\\xff.mul"
    cid = store.create_campaign("A", "tripwire").id
    store.append(cid, 0, [ev("battle")], FileRef(sha("odd3"), odd_path))
    assert store.ingested_files(cid)[0].path == "/logs/battle\\xff.mul"
