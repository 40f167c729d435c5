"""A side links its own transport pool over gRPC (ruling T-C3 in docs/turn.md): ``LinkTransport``
is a side's command, so the side's token runs it for its own pool and unit, and cannot give it
for the other side.

L57: "Each force has a supply of WarChest Points associate with each Location they control, or
each DropShip or Baggage Train."
L59: "Any unit can carry 5x its Cargo Capacity in WarChest Points".
"""

from __future__ import annotations

import grpc
import pytest
from grpc_helpers import Running, reason_of
from test_grpc_formations import _do, ginestra

__all__ = ["ginestra"]  # the fixture, shared with the formations' tests


def _open(ref: object, cid: str, side: str, pool: str) -> None:
    opened = {"type": "OpenPool", "pool_id": pool, "side_id": side, "name": f"{side} truck",
              "kind": "cargo", "cargo_tons": "10"}  # fmt: skip
    _do(ref, cid, opened)  # type: ignore[arg-type]


def test_a_side_links_its_own_cargo_pool_and_not_the_others(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal, rebel, ref = g.as_side("loyalist"), g.as_side("rebel"), g.as_referee()
    _open(ref, cid, "loyalist", "l-cargo")
    _open(ref, cid, "rebel", "r-cargo")
    link = {"type": "LinkTransport", "side_id": "loyalist", "pool_id": "l-cargo",
            "unit_id": "L-MAX"}  # fmt: skip
    # The rebels' token cannot link the loyalists' pool.
    with pytest.raises(grpc.RpcError) as caught:
        _do(rebel, cid, link)
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert reason_of(caught.value) == "not_your_command"
    # Naming their own side with the loyalists' pool: answered like a missing pool.
    with pytest.raises(grpc.RpcError) as caught:
        _do(rebel, cid, {**link, "side_id": "rebel", "unit_id": "R-BLD"})
    assert reason_of(caught.value) == "bad_transport"
    assert "no WarChest pool 'l-cargo' of 'rebel'" in str(caught.value.details())
    # The loyalists link their own; the rebels theirs.
    (event,) = _do(loyal, cid, link).events
    assert event.type == "TransportLinked"
    own = {"type": "LinkTransport", "side_id": "rebel", "pool_id": "r-cargo", "unit_id": "R-BLD"}
    assert [e.type for e in _do(rebel, cid, own).events] == ["TransportLinked"]
