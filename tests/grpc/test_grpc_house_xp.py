"""The house rules' experience over gRPC, with a real client (ruling HOUSE-38): a side token may
spend the XP of its own people only (``SpendXp`` through RulesService.ExecuteCommand), and the
group's XP prices (``SetXpCosts``) are the referee's alone.

House rules L153: "... that experience may be spent on the piloting and gunnery skill ..."
"""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_helpers import Running, Stubs, force, house_rules_campaign, reason_of

from mekref.daemon.grpc.tokens import Role
from mekref.rules.codec import to_jsonable
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import ImportForce
from mekref.v1 import rules_pb2


def _execute(who: Stubs, cid: str, payload: dict[str, object]) -> rules_pb2.ExecuteCommandResponse:
    request = rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(payload))
    done: rules_pb2.ExecuteCommandResponse = who.rules.ExecuteCommand(request, metadata=who.md)
    return done


def _code(who: Stubs, cid: str, payload: dict[str, object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        _execute(who, cid, payload)
    return caught.value.code(), reason_of(caught.value)


def test_a_side_spends_its_own_peoples_xp_and_the_prices_are_the_referees(api: Running) -> None:
    ref = api.as_referee()
    cid = house_rules_campaign(ref, "house xp")
    forces = force("steiner")
    (unit,) = forces.companies[0].lances[0].units
    (pilot,) = unit.crew
    note = RefereeNote(referee="Ann", reason="a small test force")
    imported = ImportForce(actor="x", side_id="steiner", force=forces, accept_unchecked=note)
    _execute(ref, cid, {"type": "ImportForce", **to_jsonable(imported)})  # type: ignore[dict-item]
    steiner, kurita = (
        api.client(api.tokens.issue(Role.SIDE, campaign_id=cid, side_id=side).secret)
        for side in ("steiner", "kurita")
    )
    spend: dict[str, object] = {"type": "SpendXp", "person_id": pilot.person_id, "skill": "gunnery"}
    costs: dict[str, object] = {
        "type": "SetXpCosts",
        "costs": [{"skill": "gunnery", "to_level": 3, "xp": 1}],
    }
    # Another side may not spend Steiner's pilot's XP; a side may not set the prices.
    assert _code(kurita, cid, spend)[0] is grpc.StatusCode.PERMISSION_DENIED
    assert _code(steiner, cid, costs)[0] is grpc.StatusCode.PERMISSION_DENIED
    # Steiner's own pilot: the command reaches the rules, which refuse it before any price.
    code, reason = _code(steiner, cid, spend)
    assert code is not grpc.StatusCode.PERMISSION_DENIED and reason == "no_xp_costs"
    done = _execute(ref, cid, costs)
    assert "XpCostsSet" in str(done.events[0])
    # Priced now; no battle survived yet, so no XP (L154).
    assert _code(steiner, cid, spend)[1] == "not_enough_xp"
