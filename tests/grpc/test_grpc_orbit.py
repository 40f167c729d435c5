"""Satellites and a DropShip's weekly choice over gRPC: ``RulesService.ExecuteCommand`` carries
``PlaceSatellite`` (the referee's), ``RepositionSatellite`` and ``ChooseDropShipReadiness`` (a
side's own) like every TripWire command.

L210: "A Satellite is Geostationary Orbit may move its position by 1 planetary region per day."
L408: "DropShips must also decide each week if they remain on hot standby or power down."
"""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_helpers import Running, reason_of
from test_grpc_formations import _do, _stream, ginestra

from mekref.v1 import rules_pb2

__all__ = ["ginestra"]  # the fixture, shared with the formations' tests


def test_the_referee_places_a_satellite_and_only_its_owner_moves_it(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal, rebel, ref = g.as_side("loyalist"), g.as_side("rebel"), g.as_referee()
    place = {"type": "PlaceSatellite", "satellite_id": "sat-1", "owner": "loyalist",
             "orbit": "geostationary", "hex": "0508",
             "note": {"referee": "Ann", "reason": "the planet's network"}}  # fmt: skip
    with pytest.raises(grpc.RpcError) as caught:
        _do(loyal, cid, place)
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert [e.type for e in _do(ref, cid, place).events] == ["SatellitePlaced"]
    move = {"type": "RepositionSatellite", "side_id": "loyalist", "day": 1,
            "satellite_id": "sat-1", "hex": "0905"}  # fmt: skip
    with pytest.raises(grpc.RpcError) as caught:
        _do(rebel, cid, move)
    assert reason_of(caught.value) == "not_your_command"
    with pytest.raises(grpc.RpcError) as caught:
        _do(loyal, cid, {**move, "hex": "1712"})
    assert reason_of(caught.value) == "too_far"
    assert [e.type for e in _do(loyal, cid, move).events] == ["SatelliteRepositioned"]
    # Satellites are public (T-OR1): the rebels see it placed and moved.
    seen = _stream(rebel, cid)
    assert "SatellitePlaced" in seen and "SatelliteRepositioned" in seen
    view = rebel.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=rebel.md)
    (sat,) = json.loads(view.view_json)["satellites"]
    assert (sat["satellite_id"], sat["owner"], sat["hex"]) == ("sat-1", "loyalist", "0905")
    # The Rapier is no DropShip: the weekly choice is refused.
    choose = {"type": "ChooseDropShipReadiness", "side_id": "loyalist", "day": 1,
              "unit_id": "L-RPR", "mode": "hot_standby"}  # fmt: skip
    with pytest.raises(grpc.RpcError) as caught:
        _do(loyal, cid, choose)
    assert reason_of(caught.value) == "wrong_units"
