"""mekref-client's ``mekref.client`` against a real server: the token on every call, TLS, and
refusals explained (clients/python/README.md, docs/install.md)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from grpc_helpers import Running, api_server, open_test_app
from tls_files import self_signed

from mekref.client import ClientError, connect, explain
from mekref.daemon.grpc.server import TlsFiles
from mekref.v1 import (
    campaign_pb2,
    campaign_pb2_grpc,
    diagnostics_pb2,
    diagnostics_pb2_grpc,
    event_pb2,
    event_pb2_grpc,
)


def _health(channel: grpc.Channel) -> str:
    check = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
        response_deserializer=health_pb2.HealthCheckResponse.FromString,
    )
    reply = check(health_pb2.HealthCheckRequest(), timeout=10)
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)


def test_the_token_travels_with_unary_and_streaming_calls(api: Running) -> None:
    with connect(api.target, api.side_tokens["davion"]) as channel:
        me = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel).WhoAmI(
            diagnostics_pb2.WhoAmIRequest(), timeout=10
        )
        assert (me.campaign_id, me.side_id) == (api.campaign_id, "davion")
        stream = event_pb2_grpc.EventServiceStub(channel).SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id, after_seq=0),
            timeout=10,
        )
        first = next(iter(stream))
        stream.cancel()
        assert first.event.seq >= 1


def test_without_a_token_only_the_open_services_answer(api: Running) -> None:
    with connect(api.target) as channel:
        assert _health(channel) == "SERVING"
        with pytest.raises(grpc.RpcError) as caught:
            campaign_pb2_grpc.CampaignServiceStub(channel).ListCampaigns(
                campaign_pb2.ListCampaignsRequest(), timeout=10
            )
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert explain(caught.value).startswith("UNAUTHENTICATED: ")


def test_explain_names_each_field_the_server_refused(api: Running) -> None:
    with connect(api.target, api.referee) as channel, pytest.raises(grpc.RpcError) as caught:
        campaign_pb2_grpc.CampaignServiceStub(channel).GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id, side_id="kurita"),
            timeout=10,
        )
    lines = explain(caught.value).splitlines()
    assert lines[0].startswith("INVALID_ARGUMENT: ")
    assert [line.split(":")[0] for line in lines[1:]] == ["  side_id"]


def test_tls_with_the_servers_ca(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    app = open_test_app(tmp_path / "c.db")
    server = api_server(app, tls=TlsFiles(cert, key))
    port = server.start()
    try:
        with connect(f"localhost:{port}", ca_cert=cert) as channel:
            assert _health(channel) == "SERVING"
        with connect(f"localhost:{port}") as plain, pytest.raises(grpc.RpcError):
            _health(plain)
    finally:
        server.stop(1.0)
        app.store.close()


def test_settings_that_cannot_work_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ClientError, match="client_cert and client_key go together"):
        connect("127.0.0.1:1", ca_cert=tmp_path / "ca.pem", client_cert=tmp_path / "c.pem")
    with pytest.raises(ClientError, match="needs TLS"):
        connect("127.0.0.1:1", client_cert=tmp_path / "c.pem", client_key=tmp_path / "k.pem")
    with pytest.raises(ClientError, match="the token is empty"):
        connect("127.0.0.1:1", " ")
