"""A TripWire campaign with the house rules over gRPC, with a real client: CreateCampaign's
``house_rules`` records the option, and the house rules' morale test (house rules L107) runs
through RulesService.ExecuteCommand; a campaign without the option refuses it (HOUSE-31,
HOUSE-35).

L107: "To test for morale roll 2d6, applying modifiers for unit skill, nationality and
situation. ..."
"""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_helpers import Running, force, house_rules_campaign, reason_of

from mekref.rules.codec import to_jsonable
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import ImportForce
from mekref.v1 import rules_pb2


def _campaign(api: Running, house_rules: bool) -> tuple[str, str]:
    """A new campaign (with or without the option) and its one 'Mech's unit id."""
    cid = house_rules_campaign(api.as_referee(), f"house rules {house_rules}", house_rules)
    forces = force("steiner")
    (unit,) = forces.companies[0].lances[0].units
    note = RefereeNote(referee="Ann", reason="a small test force")
    imported = ImportForce(actor="x", side_id="steiner", force=forces, accept_unchecked=note)
    payload = {"type": "ImportForce", **to_jsonable(imported)}  # type: ignore[dict-item]
    _execute(api, cid, payload)
    return cid, unit.unit_id


def _execute(
    api: Running, cid: str, payload: dict[str, object]
) -> rules_pb2.ExecuteCommandResponse:
    ref = api.as_referee()
    request = rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(payload))
    done: rules_pb2.ExecuteCommandResponse = ref.rules.ExecuteCommand(request, metadata=ref.md)
    return done


def _morale(unit_id: str) -> dict[str, object]:
    return {
        "type": "TestMorale",
        "unit_id": unit_id,
        "battle": "b1",
        "turn": 2,
        "nationality": "Steiner",
        "situations": ["force_50"],
        "skill": "",
    }


def test_a_house_rules_campaign_takes_the_morale_test(api: Running) -> None:
    cid, unit = _campaign(api, house_rules=True)
    done = _execute(api, cid, _morale(unit))
    (event,) = done.events
    text = str(event)
    assert "HouseMoraleTested" in text
    # The pilot's Piloting 5 and Gunnery 4 combine to 9: Regular (L162), +0; Steiner +0;
    # Force at 50% casualties -1 (L127).
    assert "Regular" in text and "force_50" in text
    assert f"morale test, unit {unit}, turn 2" in text


def test_a_campaign_without_the_house_rules_refuses_it(api: Running) -> None:
    cid, unit = _campaign(api, house_rules=False)
    with pytest.raises(grpc.RpcError) as caught:
        _execute(api, cid, _morale(unit))
    assert caught.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "no_house_rules"
