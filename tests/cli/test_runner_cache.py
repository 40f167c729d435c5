"""The runner's in-memory state stays true when another writer appends to the same log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import open_store
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, CreditPool, OpenPool, SideSpec
from mekref.rules.tripwire.state import PoolKind


def _two_runners_one_pool(tmp_path: Path) -> tuple[CampaignRunner, CampaignRunner, str, Any]:
    db = str(tmp_path / "c.db")
    store_a, store_b = open_store(db), open_store(db)
    a, b = CampaignRunner(store_a), CampaignRunner(store_b)
    cid = a.create(
        CreateCampaign(
            actor="ref",
            name="C",
            ruleset="tripwire",
            seed="1",
            sides=(SideSpec(side_id="red", name="Red"), SideSpec(side_id="blue", name="Blue")),
        )
    ).campaign_id
    return a, b, cid, (store_a, store_b)


_POOL = OpenPool(
    actor="ref",
    pool_id="p",
    side_id="red",
    name="Depot",
    kind=PoolKind.LOCATION,
    location="Bagnorgeio",
    opening_balance=10,
)


def test_a_second_runner_sees_what_the_first_appended(tmp_path: Path) -> None:
    a, b, cid, stores = _two_runners_one_pool(tmp_path)
    try:
        b.load(cid)  # b caches the state at seq 1
        a.execute(cid, _POOL)
        a.execute(cid, CreditPool(actor="ref", pool_id="p", amount=5, reason="salvage"))
        seen = b.load(cid)
        assert seen.last_seq == 3
        assert seen.state.pools["p"].balance == 15
        assert b.state_hash(cid, seen.state) == a.state_hash(cid, b.replay(cid))
    finally:
        for store in stores:
            store.close()


def test_a_runner_holding_an_older_state_decides_on_the_log_as_it_is(tmp_path: Path) -> None:
    """A runner decides on the state it holds without reading the store first (one read
    saved per command); another writer's events are still taken into account: a refusal on
    the held state is decided again on the store's, and an append after it is retried."""
    a, b, cid, stores = _two_runners_one_pool(tmp_path)
    try:
        b.load(cid)  # b holds the state at seq 1: no pool yet
        a.execute(cid, _POOL)
        # On b's held state the pool is unknown (a refusal): decided again on the log's.
        credited = b.execute(cid, CreditPool(actor="ref", pool_id="p", amount=5, reason="x"))
        assert (credited.first_seq, credited.last_seq) == (3, 3)
        assert credited.state.pools["p"].balance == 15
        # a now holds seq 2 while the log ends at 3: its append is refused and retried.
        again = a.execute(cid, CreditPool(actor="ref", pool_id="p", amount=1, reason="y"))
        assert again.last_seq == 4
        assert again.state.pools["p"].balance == 16
        assert a.state_hash(cid, again.state) == b.state_hash(cid, b.replay(cid))
        # A refusal the log itself gives is still a refusal (the pool is open already).
        with pytest.raises(Refusal):
            b.execute(cid, _POOL)
    finally:
        for store in stores:
            store.close()


def test_a_refused_set_up_leaves_no_campaign_behind(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        runner = CampaignRunner(store)
        one_side = CreateCampaign(
            actor="ref", name="C", ruleset="tripwire", seed="1",
            sides=(SideSpec(side_id="red", name="Red"),),
        )  # fmt: skip
        with pytest.raises(Refusal, match="two or more sides"):
            runner.create(one_side)
        assert store.list_campaigns() == []
