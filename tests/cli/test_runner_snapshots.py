"""When the runner writes snapshots: by size, never in a throw-away store."""

from __future__ import annotations

from pathlib import Path

from mekref.daemon.campaigns import SNAPSHOT_MIN_BYTES, CampaignRunner
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
