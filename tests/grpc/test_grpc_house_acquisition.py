"""The house rules' acquisition over gRPC: a side's token searches for its own side only
(R-ENGINE-2; house rules L171 "When a unit wishes to acquire equipment consult the following
chart."; rulings HOUSE-44, HOUSE-45).
"""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_helpers import Running, house_rules_campaign, reason_of

from mekref.daemon.grpc.tokens import Role
from mekref.v1 import rules_pb2


def _acquire(side: str) -> str:
    return json.dumps(
        {
            "type": "AcquireItem",
            "side_id": side,
            "pool_id": "steiner-union",
            "item": "IS Ammo LRM-10 Swarm",
            "availability": "uncommon",
            "ammo_level": 2,
            "logistics": 6,
        }
    )


def test_a_side_searches_for_its_own_side_only(api: Running) -> None:
    ref = api.as_referee()
    cid = house_rules_campaign(ref, "acquisition")
    pool = {"type": "OpenPool", "pool_id": "steiner-union", "side_id": "steiner",
            "name": "Union", "kind": "dropship", "dropship_class": "Union"}  # fmt: skip
    ref.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(pool)),
        metadata=ref.md,
    )
    token = api.tokens.issue(Role.SIDE, campaign_id=cid, side_id="kurita", label="k").secret
    kurita = api.client(token)
    with pytest.raises(grpc.RpcError) as caught:
        kurita.rules.ExecuteCommand(
            rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=_acquire("steiner")),
            metadata=kurita.md,
        )
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert reason_of(caught.value) == "not_your_command"
    token = api.tokens.issue(Role.SIDE, campaign_id=cid, side_id="steiner", label="s").secret
    steiner = api.client(token)
    done = steiner.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=_acquire("steiner")),
        metadata=steiner.md,
    )
    (event,) = done.events
    assert "HouseItemSearched" in str(event) and "acquisition search" in str(event)
