"""The runner's in-memory state stays true when another writer appends to the same log."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import open_store
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, CreditPool, OpenPool, SideSpec
from mekref.rules.tripwire.state import PoolKind


def test_a_second_runner_sees_what_the_first_appended(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    with open_store(db) as store_a, open_store(db) as store_b:
        a, b = CampaignRunner(store_a), CampaignRunner(store_b)
        created = a.create(
            CreateCampaign(
                actor="ref",
                name="C",
                ruleset="tripwire",
                seed="1",
                sides=(SideSpec(side_id="red", name="Red"), SideSpec(side_id="blue", name="Blue")),
            )
        )
        cid = created.campaign_id
        b.load(cid)  # b caches the state at seq 1
        a.execute(
            cid,
            OpenPool(
                actor="ref",
                pool_id="p",
                side_id="red",
                name="Depot",
                kind=PoolKind.LOCATION,
                location="Bagnorgeio",
                opening_balance=10,
            ),
        )
        a.execute(cid, CreditPool(actor="ref", pool_id="p", amount=5, reason="salvage"))
        seen = b.load(cid)
        assert seen.last_seq == 3
        assert seen.state.pools["p"].balance == 15
        assert b.state_hash(cid, seen.state) == a.state_hash(cid, b.replay(cid))


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
