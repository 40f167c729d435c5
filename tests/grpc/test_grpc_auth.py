"""Every RPC but health and reflection needs a valid bearer token."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_helpers import Running, reason_of
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from mekref.v1 import (
    battle_pb2,
    campaign_pb2,
    common_pb2,
    diagnostics_pb2,
    event_pb2,
    orders_pb2,
)


def _every_call(api: Running, token: str) -> list[tuple[str, object]]:
    stubs = api.client(token)
    cid = api.campaign_id
    md = stubs.md if token else ()
    return [
        ("ListCampaigns", lambda: stubs.campaigns.ListCampaigns(
            campaign_pb2.ListCampaignsRequest(), metadata=md)),
        ("GetCampaign", lambda: stubs.campaigns.GetCampaign(
            campaign_pb2.GetCampaignRequest(campaign_id=cid), metadata=md)),
        ("GetSideView", lambda: stubs.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=md)),
        ("GetDiceLog", lambda: stubs.campaigns.GetDiceLog(
            campaign_pb2.GetDiceLogRequest(campaign_id=cid), metadata=md)),
        ("GetOverview", lambda: stubs.campaigns.GetOverview(
            campaign_pb2.GetOverviewRequest(campaign_id=cid), metadata=md)),
        ("ListOrders", lambda: stubs.orders.ListOrders(
            orders_pb2.ListOrdersRequest(campaign_id=cid), metadata=md)),
        ("ListPendingBattles", lambda: stubs.battles.ListPendingBattles(
            battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=md)),
        ("SubscribeEvents", lambda: list(stubs.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=md))),
        ("Echo", lambda: stubs.diagnostics.Echo(
            diagnostics_pb2.EchoRequest(payload=b"x"), metadata=md)),
    ]  # fmt: skip


@pytest.mark.parametrize("token", ["", "mkr_nope_nope", "not-even-a-token"])
def test_every_call_without_a_valid_token_is_unauthenticated(api: Running, token: str) -> None:
    for name, call in _every_call(api, token):
        with pytest.raises(grpc.RpcError) as caught:
            call()  # type: ignore[operator]
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED, name
        assert reason_of(caught.value) == "unauthenticated", name


def _methods_of_the_api() -> list[tuple[str, bool, type[Any]]]:
    """Every method of every mekref.v1 service, from the descriptors: (path, server-streaming,
    request class)."""
    from google.protobuf import message_factory

    from mekref.daemon.grpc.server import SERVICE_NAMES
    from mekref.v1 import rules_pb2

    files = (battle_pb2, campaign_pb2, diagnostics_pb2, event_pb2, orders_pb2, rules_pb2)
    found = []
    for module in files:
        for service in module.DESCRIPTOR.services_by_name.values():
            assert service.full_name in SERVICE_NAMES
            for method in service.methods:
                request = message_factory.GetMessageClass(method.input_type)
                path = f"/{service.full_name}/{method.name}"
                found.append((path, method.server_streaming, request))
    return found


def test_no_method_of_the_api_answers_without_a_token(api: Running) -> None:
    """The token check is put around each handler when the services are registered, so a
    method added later is guarded without being listed anywhere: each one, called with an empty
    request and no token (or a forged one), is UNAUTHENTICATED before its servicer runs."""
    methods = _methods_of_the_api()
    assert len(methods) > 20 and any(streams for _, streams, _ in methods)
    channel = grpc.insecure_channel(api.target)
    for metadata in [(), (("authorization", "Bearer mkr_nope_nope"),)]:
        for path, streams, request in methods:
            serialize = request.SerializeToString
            with pytest.raises(grpc.RpcError) as caught:
                if streams:
                    stream = channel.unary_stream(
                        path, request_serializer=request.SerializeToString
                    )
                    list(stream(request(), metadata=metadata, timeout=10))
                else:
                    unary = channel.unary_unary(path, request_serializer=serialize)
                    unary(request(), metadata=metadata, timeout=10)
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED, path
    channel.close()


def test_revoked_token_stops_working(api: Running) -> None:
    issued = api.tokens.issue(
        api.tokens.list()[0].principal.role, label="short-lived"
    )  # a referee token
    api.tokens.revoke(issued.principal.token_id)
    stubs = api.client(issued.secret)
    with pytest.raises(grpc.RpcError) as caught:
        stubs.diagnostics.Echo(diagnostics_pb2.EchoRequest(), metadata=stubs.md)
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_health_and_reflection_need_no_token(api: Running) -> None:
    channel = grpc.insecure_channel(api.target)
    health: Any = health_pb2_grpc.HealthStub(channel)  # the stubs lack its methods
    assert (
        health.Check(health_pb2.HealthCheckRequest()).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    assert (
        health.Check(health_pb2.HealthCheckRequest(service="mekref.v1.OrdersService")).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    reflect: Any = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = list(
        reflect.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")])
        )
    )
    names = {s.name for s in answers[0].list_services_response.service}
    assert {"mekref.v1.CampaignService", "mekref.v1.EventService", "grpc.health.v1.Health"} <= names
    channel.close()


def test_who_am_i(api: Running) -> None:
    side = api.as_side("liao")
    me = side.diagnostics.WhoAmI(diagnostics_pb2.WhoAmIRequest(), metadata=side.md)
    assert (me.role, me.side_id, me.campaign_id) == (common_pb2.ROLE_SIDE, "liao", api.campaign_id)
    assert me.token_id and me.token_id not in api.side_tokens["davion"]
    ref = api.as_referee()
    me = ref.diagnostics.WhoAmI(diagnostics_pb2.WhoAmIRequest(), metadata=ref.md)
    assert (me.role, me.side_id, me.campaign_id) == (common_pb2.ROLE_REFEREE, "", "")


def test_tokens_are_stored_hashed(api: Running) -> None:
    import sqlite3

    db = api.store.path  # type: ignore[attr-defined]
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT * FROM api_tokens").fetchall()
    text = repr(rows)
    for secret in [api.referee, *api.side_tokens.values()]:
        assert secret not in text
        # The random part (after "<prefix><id>_"; it may itself hold "_") is never stored.
        assert secret.split("_", 2)[-1] not in text


def test_reflection_answers_under_the_v1_name_too(api: Running) -> None:
    # grpcurl and Postman ask grpc.reflection.v1 first; the messages are v1alpha's, byte for byte.
    channel = grpc.insecure_channel(api.target)
    info = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    asked = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="mekref.v1.RulesService"),
    ]
    listed, described = list(info(iter(asked)))
    names = {s.name for s in listed.list_services_response.service}
    assert {"mekref.v1.RulesService", "grpc.reflection.v1.ServerReflection"} <= names
    assert described.file_descriptor_response.file_descriptor_proto  # the .proto, serialised
    channel.close()
