"""The pages over TLS (``--tls-cert``/``--tls-key``): the session cookie is Secure and the
browser is told to stay on HTTPS."""

from __future__ import annotations

import re
import ssl
from pathlib import Path

import httpx
from console_script import mekref
from tls_files import self_signed
from web_helpers import Campaign, serve, stop


def test_the_session_cookie_is_secure_under_tls(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "T", "--seed", "1",
                  "--side", "a:A", "--side", "b:B")  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = mekref("token", "create", "--db", db, "--side", "a").stdout.strip()
    cert, key = self_signed(tmp_path)
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
