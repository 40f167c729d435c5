"""The shipped health probe (``python -m mekref.daemon.healthcheck``) against a real server.

The container's HEALTHCHECK and docs/deploy.md rely on it: it must say SERVING (exit 0) only
while the server really serves, and fail (exit 1) for a stopped server or an unknown service."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from grpc_helpers import Running, api_server, open_test_app, stop
from tls_files import self_signed

from mekref.daemon.grpc.server import TlsFiles


def probe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mekref.daemon.healthcheck", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_probe_says_serving_then_fails_once_the_server_stops(api: Running) -> None:
    served = probe(api.target)
    assert (served.returncode, served.stdout.strip()) == (0, f"{api.target}: SERVING")
    one = probe(api.target, "--service", "mekref.v1.CampaignService")
    assert one.returncode == 0, one.stdout
    unknown = probe(api.target, "--service", "no.such.Service")
    assert unknown.returncode == 1
    assert "NOT_FOUND" in unknown.stdout
    stop(api)
    gone = probe(api.target, "--timeout", "2")
    assert gone.returncode == 1
    assert "UNAVAILABLE" in gone.stdout or "DEADLINE_EXCEEDED" in gone.stdout


def test_probe_over_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    app = open_test_app(tmp_path / "c.db")
    server = api_server(app, tls=TlsFiles(cert, key))
    port = server.start()
    try:
        secure = probe(f"localhost:{port}", "--tls-ca", str(cert))
        assert secure.returncode == 0, secure.stdout
        plain = probe(f"localhost:{port}", "--timeout", "2")
        assert plain.returncode == 1, "a TLS server must not pass a plain-text probe"
    finally:
        server.stop(1.0)
        app.store.close()


def test_probe_refuses_half_a_client_certificate(tmp_path: Path) -> None:
    done = probe("127.0.0.1:1", "--tls-ca", "ca.pem", "--tls-cert", "c.pem")
    assert done.returncode == 2
    assert "--tls-cert and --tls-key go together" in done.stderr
