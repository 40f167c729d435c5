"""The pages over TLS (``--tls-cert``/``--tls-key``): the session cookie is Secure and the
browser is told to stay on HTTPS."""

from __future__ import annotations

import datetime
import ipaddress
import re
import ssl
from pathlib import Path

import httpx
import pytest
from console_script import mekref
from web_helpers import Campaign, serve, stop


def _self_signed(folder: Path) -> tuple[Path, Path]:
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "server.pem", folder / "server.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def test_the_session_cookie_is_secure_under_tls(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "T", "--seed", "1",
                  "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = mekref("token", "create", "--db", db, "--side", "a").stdout.strip()
    cert, key = _self_signed(tmp_path)
    running = serve(Campaign(db, "", {}), "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert running.url.startswith("https://127.0.0.1:")
        with httpx.Client(
            base_url=running.url,
            verify=ssl.create_default_context(cafile=str(cert)),
            follow_redirects=True,
        ) as http:
            page = http.get("/login")
            assert "secure" in page.headers["set-cookie"].lower()
            assert page.headers["strict-transport-security"].startswith("max-age=")
            found = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert found is not None
            done = http.post("/login", data={"csrf": found.group(1), "token": token})
            assert done.status_code == 200 and done.url.path.startswith("/c/")
            assert "secure" in done.history[0].headers["set-cookie"].lower()
    finally:
        assert stop(running) == 0
