"""The server as a whole: graceful shutdown, deadlines, TLS, the standalone module, tokens."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_helpers import Running, Stubs, api_server, open_test_app, start, stop
from tls_files import self_signed

from mekref.daemon.grpc.server import GrpcServer, TlsFiles
from mekref.daemon.grpc.tokens import Role
from mekref.daemon.store import open_store
from mekref.v1 import campaign_pb2, diagnostics_pb2


def _slow_loads(api: Running, seconds: float) -> None:
    runner = api.server.services.runner
    original = runner.load

    def slow(campaign_id: str) -> Any:
        time.sleep(seconds)
        return original(campaign_id)

    runner.load = slow  # type: ignore[method-assign]


def test_graceful_shutdown_finishes_in_flight_calls(tmp_path: Path) -> None:
    api = start(tmp_path / "c.db")
    ref = api.as_referee()
    _slow_loads(api, 1.0)
    results: list[object] = []

    def call() -> None:
        try:
            results.append(
                ref.campaigns.GetCampaign(
                    campaign_pb2.GetCampaignRequest(campaign_id=api.campaign_id),
                    metadata=ref.md,
                ).campaign.name
            )
        except grpc.RpcError as exc:
            results.append(exc.code())

    callers = [threading.Thread(target=call) for _ in range(4)]
    for t in callers:
        t.start()
    time.sleep(0.3)  # the calls are in flight
    api.server.stop(grace=10)
    for t in callers:
        t.join()
    assert results == ["Operation TripWire"] * 4
    # Stopped: new calls are refused, not hung.
    with pytest.raises(grpc.RpcError) as caught:
        ref.diagnostics.Echo(diagnostics_pb2.EchoRequest(), metadata=ref.md, timeout=2)
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    stop(api)


def test_grace_expiry_cancels_calls_that_run_too_long(tmp_path: Path) -> None:
    api = start(tmp_path / "c.db")
    ref = api.as_referee()
    _slow_loads(api, 3.0)
    errors: list[grpc.StatusCode] = []

    def call() -> None:
        try:
            ref.campaigns.GetCampaign(
                campaign_pb2.GetCampaignRequest(campaign_id=api.campaign_id), metadata=ref.md
            )
        except grpc.RpcError as exc:
            errors.append(exc.code())

    caller = threading.Thread(target=call)
    caller.start()
    time.sleep(0.3)
    began = time.monotonic()
    api.server.stop(grace=0.5)
    assert time.monotonic() - began < 2.5
    caller.join()
    assert errors and errors[0] in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
    stop(api)


def test_a_call_past_its_deadline_is_deadline_exceeded(api: Running) -> None:
    ref = api.as_referee()
    _slow_loads(api, 1.0)
    with pytest.raises(grpc.RpcError) as caught:
        ref.campaigns.GetCampaign(
            campaign_pb2.GetCampaignRequest(campaign_id=api.campaign_id),
            metadata=ref.md,
            timeout=0.3,
        )
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_max_message_size_is_enforced(api: Running) -> None:
    ref = api.client(api.referee, **{"grpc.max_send_message_length": 64 * 1024 * 1024})
    with pytest.raises(grpc.RpcError) as caught:
        ref.diagnostics.Echo(
            diagnostics_pb2.EchoRequest(payload=b"x" * (17 * 1024 * 1024)), metadata=ref.md
        )
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    db = str(tmp_path / "c.db")
    app = open_test_app(db)
    store, tokens = app.store, app.tokens
    server = api_server(app, tls=TlsFiles(cert, key))
    port = server.start()
    try:
        token = tokens.issue(Role.REFEREE).secret
        secure = grpc.secure_channel(
            f"localhost:{port}", grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        )
        stubs = Stubs(secure, token)
        answer = stubs.diagnostics.Echo(
            diagnostics_pb2.EchoRequest(payload=b"over tls"), metadata=stubs.md, timeout=5
        )
        assert answer.payload == b"over tls"
        stubs.close()
        plain = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), token)
        with pytest.raises(grpc.RpcError) as caught:
            plain.diagnostics.Echo(diagnostics_pb2.EchoRequest(), metadata=plain.md, timeout=2)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        plain.close()
    finally:
        server.stop(1)
        store.close()


def test_port_in_use_is_an_error(api: Running) -> None:
    other = GrpcServer(api.server.services.pipeline, api.tokens, api.target)
    with pytest.raises(OSError):
        other.start()


def test_standalone_module_and_token_cli(tmp_path: Path) -> None:
    from mekref.daemon.cli_token import register

    db = str(tmp_path / "c.db")
    open_store(db).close()
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["token", "create", "--db", db, "--referee", "--label", "ann"])
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert args.handler(args) == 0
    token = out.getvalue().strip()
    assert token.startswith("mkr_")
    side = parser.parse_args(["token", "create", "--db", db, "--side", "davion"])
    assert side.handler(side) == 2  # no campaign in the database yet (usage)

    proc = subprocess.Popen(
        [sys.executable, "-m", "mekref.daemon.grpc", "--db", db, "--grpc", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), proc.stderr.read() if proc.stderr else ""
        port = int(line.rsplit(":", 1)[1])
        stubs = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), token)
        made = stubs.campaigns.CreateCampaign(
            campaign_pb2.CreateCampaignRequest(
                name="Standalone",
                ruleset="tripwire",
                sides=[
                    campaign_pb2.SideSpec(side_id="davion", name="Davion"),
                    campaign_pb2.SideSpec(side_id="liao", name="Liao"),
                ],
            ),
            metadata=stubs.md,
            timeout=10,
        )
        stubs.close()
        assert side.handler(side) == 0  # now the one campaign is found
        proc.terminate()
        assert proc.wait(timeout=15) == 0
        assert made.campaign.name == "Standalone"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_stop_from_two_threads_at_once(api: Running) -> None:
    stoppers = [threading.Thread(target=api.server.stop, args=(1.0,)) for _ in range(3)]
    for t in stoppers:
        t.start()
    for t in stoppers:
        t.join(timeout=20)
    assert not any(t.is_alive() for t in stoppers)
    api.server.stop(1.0)  # and once more, after it is stopped
