"""A side never reads another side's secrets nor acts for it; refusals leak nothing.

Every RPC is tried with the wrong side's token (or a token for another campaign) and must be
PERMISSION_DENIED, with no trace of the other side's data in the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import grpc
import pytest
from grpc_helpers import Running, Stubs

from mekref.daemon.grpc.tokens import Role
from mekref.v1 import battle_pb2, campaign_pb2, event_pb2, orders_pb2

OTHER = "00000000-0000-4000-8000-000000000000"


def _acting_for_liao(s: Stubs, cid: str) -> dict[str, Callable[[], object]]:
    md = s.md
    return {
        "GetSideView": lambda: s.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=cid, side_id="liao"), metadata=md),
        "GetOverview": lambda: s.campaigns.GetOverview(
            campaign_pb2.GetOverviewRequest(campaign_id=cid, side_id="liao"), metadata=md),
        "ListOrders": lambda: s.orders.ListOrders(
            orders_pb2.ListOrdersRequest(campaign_id=cid, side_id="liao"), metadata=md),
        "SubmitOrders": lambda: s.orders.SubmitOrders(
            orders_pb2.SubmitOrdersRequest(
                campaign_id=cid, side_id="liao", day=1,
                orders=[orders_pb2.FormationOrder(formation_id="liao-1", action="hold")]),
            metadata=md),
        "WithdrawOrders": lambda: s.orders.WithdrawOrders(
            orders_pb2.WithdrawOrdersRequest(
                campaign_id=cid, side_id="liao", day=1, formation_ids=["liao-1"]),
            metadata=md),
        "ExportScenario": lambda: s.battles.ExportScenario(
            battle_pb2.ExportScenarioRequest(campaign_id=cid, engagement_id="b1", side_id="liao"),
            metadata=md),
        "ExportBattleRecord": lambda: s.battles.ExportBattleRecord(
            battle_pb2.ExportBattleRecordRequest(campaign_id=cid, battle_id="b1", side_id="liao"),
            metadata=md),
        "ResolveTurn": lambda: s.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=cid, day=1), metadata=md),
        "PlanRoute": lambda: s.orders.PlanRoute(
            orders_pb2.PlanRouteRequest(
                campaign_id=cid, side_id="liao", formation_id="liao-1", to_hex="0101"),
            metadata=md),
        "ListPendingBattles": lambda: s.battles.ListPendingBattles(
            battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=md),
        "SetRefereeInputs": lambda: s.battles.SetRefereeInputs(
            battle_pb2.SetRefereeInputsRequest(
                campaign_id=cid, battle_id="b1", field_controller_side_id="davion"),
            metadata=md),
        "CreateCampaign": lambda: s.campaigns.CreateCampaign(
            campaign_pb2.CreateCampaignRequest(name="x", ruleset="tripwire"), metadata=md),
    }  # fmt: skip


def _on_campaign(s: Stubs, cid: str) -> dict[str, Callable[[], object]]:
    md = s.md
    return {
        "GetCampaign": lambda: s.campaigns.GetCampaign(
            campaign_pb2.GetCampaignRequest(campaign_id=cid), metadata=md),
        "GetSideView": lambda: s.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=md),
        "GetDiceLog": lambda: s.campaigns.GetDiceLog(
            campaign_pb2.GetDiceLogRequest(campaign_id=cid), metadata=md),
        "GetOverview": lambda: s.campaigns.GetOverview(
            campaign_pb2.GetOverviewRequest(campaign_id=cid), metadata=md),
        "GetBattleReport": lambda: s.campaigns.GetBattleReport(
            campaign_pb2.GetBattleReportRequest(campaign_id=cid, battle_id="b1"), metadata=md),
        "ListOrders": lambda: s.orders.ListOrders(
            orders_pb2.ListOrdersRequest(campaign_id=cid), metadata=md),
        "PlanRoute": lambda: s.orders.PlanRoute(
            orders_pb2.PlanRouteRequest(campaign_id=cid, formation_id="x", to_hex="0101"),
            metadata=md),
        "UploadBattleFile": lambda: s.battles.UploadBattleFile(
            battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, file_name="a.mul", content=b"<unit/>"),
            metadata=md),
        "SubscribeEvents": lambda: list(s.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=md)),
    }  # fmt: skip


def _secrets(api: Running) -> list[str]:
    state = api.server.services.runner.load(api.campaign_id).state
    found = ["liao-union", "liao pilot", "liao loot", "secret-seed-42"]
    found += [u for u, unit in state.units.items() if unit.side_id == "liao"]
    found += [p for p, person in state.people.items() if person.side_id == "liao"]
    return found


def _denied(call: Callable[[], object], name: str, secrets: list[str]) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    error = caught.value
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED, (name, error.details())
    text = f"{error.details()} {error.trailing_metadata()}"
    for secret in secrets:
        assert secret not in text, (name, secret)


def test_a_side_cannot_act_or_read_for_another_side(api: Running) -> None:
    davion = api.as_side("davion")
    secrets = _secrets(api)
    for name, call in _acting_for_liao(davion, api.campaign_id).items():
        _denied(call, name, secrets)


@pytest.mark.parametrize("existing", [True, False])
def test_a_token_for_one_campaign_is_denied_on_another(api: Running, existing: bool) -> None:
    cid = OTHER
    if existing:
        from grpc_helpers import seed_campaign

        cid, _ = seed_campaign(api.server)
    secrets = _secrets(api)
    for token in (
        api.side_tokens["davion"],
        api.tokens.issue(Role.REFEREE, campaign_id=api.campaign_id).secret,
    ):
        stubs = api.client(token)
        for name, call in _on_campaign(stubs, cid).items():
            _denied(call, name, secrets)


def _stream(stubs: Stubs, cid: str) -> list[event_pb2.CampaignEvent]:
    answers = stubs.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=stubs.md
    )
    return [a.event for a in answers]


def test_event_stream_shows_a_side_only_its_own_and_public_events(api: Running) -> None:
    everything = _stream(api.as_referee(), api.campaign_id)
    assert [e.seq for e in everything] == list(range(1, len(everything) + 1))
    assert "secret-seed-42" in everything[0].payload_json  # the referee sees all
    secrets = _secrets(api)
    for side in ("davion", "liao"):
        seen = _stream(api.as_side(side), api.campaign_id)
        created = json.loads(seen[0].payload_json)
        assert seen[0].type == "CampaignCreated" and "seed" not in created
        assert {e.type for e in seen[1:]} == {"ForceImported", "PoolOpened", "PoolCredited"}
        for event in seen[1:]:
            payload = json.loads(event.payload_json)
            assert payload.get("side_id", side) == side
            assert payload.get("pool_id", f"{side}-union") == f"{side}-union"
        if side == "davion":
            text = " ".join(e.payload_json for e in seen)
            for secret in secrets:
                assert secret not in text
