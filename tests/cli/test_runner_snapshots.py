"""When the runner writes snapshots: by size, never in a throw-away store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from mekref.daemon.campaigns import SNAPSHOT_MIN_BYTES, SNAPSHOTS_KEPT, CampaignRunner
from mekref.daemon.store import EventStore, open_store
from mekref.rules.tripwire.commands import CreateCampaign, CreditPool, OpenPool, SideSpec
from mekref.rules.tripwire.state import PoolKind


def _campaign(runner: CampaignRunner) -> str:
    cid = runner.create(
        CreateCampaign(
            actor="ref",
            name="C",
            ruleset="tripwire",
            seed="1",
            sides=(SideSpec(side_id="red", name="Red"), SideSpec(side_id="blue", name="Blue")),
        )
    ).campaign_id
    runner.execute(
        cid,
        OpenPool(
            actor="ref", pool_id="p", side_id="red", name="Depot", kind=PoolKind.LOCATION,
            location="Bagnorgeio", opening_balance=0,
        ),
    )  # fmt: skip
    return cid


def _credit(runner: CampaignRunner, cid: str, times: int) -> None:
    for _ in range(times):
        runner.execute(cid, CreditPool(actor="ref", pool_id="p", amount=1, reason="r" * 200))


def _event_bytes(store: EventStore, cid: str) -> int:
    return sum(len(e.payload) for e in store.iter_events(cid))


def test_a_snapshot_waits_until_the_events_outweigh_it(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        runner = CampaignRunner(store, snapshot_every=1)
        cid = _campaign(runner)
        # Every append crosses the event interval, yet small events write no snapshot...
        _credit(runner, cid, 3)
        assert store.latest_snapshot(cid) is None
        # ...until the events since the last one weigh at least SNAPSHOT_MIN_BYTES.
        while _event_bytes(store, cid) < SNAPSHOT_MIN_BYTES:
            _credit(runner, cid, 20)
        _credit(runner, cid, 1)
        snapshot = store.latest_snapshot(cid)
        assert snapshot is not None
        # A cold reader starting from the snapshot folds the same state as the whole log.
        cold = CampaignRunner(store)
        assert cold.state_hash(cid, cold.load(cid).state) == cold.state_hash(cid, cold.replay(cid))


def test_a_throw_away_store_takes_no_snapshot(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db"), durable=False) as store:
        runner = CampaignRunner(store, snapshot_every=None)
        cid = _campaign(runner)
        while _event_bytes(store, cid) < 2 * SNAPSHOT_MIN_BYTES:
            _credit(runner, cid, 50)
        assert store.latest_snapshot(cid) is None


def test_events_another_writer_appended_count_towards_the_next_snapshot(tmp_path: Path) -> None:
    """A campaign run by short commands (each its own runner) gets snapshots too: the events a
    runner folds after the latest snapshot count as if it had appended them."""
    with open_store(str(tmp_path / "c.db")) as store:
        cid = _campaign(CampaignRunner(store, snapshot_every=None))
        _credit(CampaignRunner(store, snapshot_every=None), cid, 300)
        assert store.latest_snapshot(cid) is None
        # One more command by a new runner: what it folded on opening is past the interval.
        fresh = CampaignRunner(store, snapshot_every=200)
        assert fresh.load(cid).folded == store.last_seq(cid)
        _credit(fresh, cid, 1)
        snapshot = store.latest_snapshot(cid)
        assert snapshot is not None and snapshot.seq == store.last_seq(cid)
        # The next runner starts from it and folds nothing.
        opened = CampaignRunner(store).load(cid)
        assert (opened.snapshot_seq, opened.folded) == (snapshot.seq, 0)


def test_only_the_newest_snapshots_are_kept(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    taken: list[int] = []
    with open_store(str(db)) as store:
        runner = CampaignRunner(store, snapshot_every=1)
        cid = _campaign(runner)
        while len(taken) < SNAPSHOTS_KEPT + 2:
            _credit(runner, cid, 20)
            latest = store.latest_snapshot(cid)
            if latest is not None and latest.seq not in taken:
                taken.append(latest.seq)
    with sqlite3.connect(db) as conn:
        kept = [seq for (seq,) in conn.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert kept == taken[-SNAPSHOTS_KEPT:]
