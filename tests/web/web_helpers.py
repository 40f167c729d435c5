"""The Ginestra sample campaign behind a real ``mekref serve --web`` process, and a logged-in
page client.

The campaign is the bundled legal sample (``make demo``'s Ginestra): both battalions imported
checked, the strategic map at Day Zero, a token for each side and one for the referee."""

from __future__ import annotations

import html
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import MEKREF

from mekref.daemon.cli import main as cli
from mekref.daemon.samples.ginestra import LEGAL, LEGAL_MILITIA

SIDES = ("loyalist", "rebel")
ENGAGEMENT = "day1-1105-1"
#: Day 1 of make demo's Ginestra walk-through: (formation, action, path, target, params).
DAY1 = {
    "rebel": (
        ("bravo", "orbital_insertion", "", "1105", "objective=raid"),
        ("r-militia", "orbital_insertion", "", "1712", ""),
    ),
    "loyalist": (
        ("alpha", "guard", "", "", ""),
        ("l-guard", "guard", "", "", ""),
        ("l-militia", "move", "0509,0609", "", ""),
    ),
}


@dataclass
class Campaign:
    db: str
    cid: str
    tokens: dict[str, str]  # "loyalist", "rebel", "referee"


#: The sample built once per test process (the force imports take most of a minute on a busy
#: machine); each test gets a copy with its own tokens.
_BUILT: list[Path] = []


def _build() -> Path:
    if not _BUILT:
        folder = Path(tempfile.mkdtemp(prefix="mekref-web-ginestra-"))
        db = str(folder / "ginestra.db")
        steps = [
            ["campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
             "--side", "loyalist:Loyalists", "--side", "rebel:Rebels"],
            *(["force", "import", "--db", db, "--side", side, str(LEGAL / f"{side}.mul"),
               "--units-dir", str(LEGAL / "units"), "--bv-table", str(LEGAL / "Units.txt"),
               "--militia", LEGAL_MILITIA[side]] for side in SIDES),
            ["turn", "setup", "--db", db, "--file", str(LEGAL / "strategic.toml")],
        ]  # fmt: skip
        for argv in steps:
            assert cli(argv) == 0, argv
        _BUILT.append(folder)
    return _BUILT[0]


def ginestra(folder: Path) -> Campaign:
    """The sample campaign at Day Zero in ``folder/ginestra.db``, with its tokens."""
    for path in _build().glob("ginestra.db*"):  # the database and any WAL beside it
        if path.is_file():
            shutil.copy(path, folder / path.name)
    db = str(folder / "ginestra.db")
    from mekref.daemon.grpc.tokens import Role, TokenStore
    from mekref.daemon.store import open_store

    with open_store(db) as store:
        cid = store.list_campaigns()[0].id
        issue = TokenStore(store).issue
        tokens = {s: issue(Role.SIDE, campaign_id=cid, side_id=s).secret for s in SIDES}
        tokens["referee"] = issue(Role.REFEREE, campaign_id=cid).secret
    return Campaign(db, cid, tokens)


@dataclass
class Served:
    proc: subprocess.Popen[str]
    url: str


def serve(campaign: Campaign, *extra: str) -> Served:
    """``mekref serve --web 127.0.0.1:0`` on the campaign; its address from the line it prints."""
    argv = [str(MEKREF), "serve", "--db", campaign.db, "--web", "127.0.0.1:0",
            "--units-dir", str(LEGAL / "units"), "--log-format", "json", *extra]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("pages on "):
            return Served(proc, line.split()[-1].rstrip("/"))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"mekref serve --web did not print its address ({proc.poll()})")


def stop(served: Served) -> int:
    served.proc.send_signal(signal.SIGINT)
    try:
        return served.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        served.proc.kill()
        raise


CSRF = re.compile(r'name="csrf" value="([^"]+)"')
FLASH = re.compile(r'<li class="(ok|refused)">([^<]*)</li>')


class Page:
    """A browser-like client: the session cookie, and the CSRF token of the last page."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, follow_redirects=True, timeout=30)
        self.csrf = ""
        self.last = self.get("/login")

    def get(self, path: str) -> httpx.Response:
        response = self.http.get(path)
        found = (
            CSRF.search(response.text)
            if "html" in response.headers.get("content-type", "")
            else None
        )
        if found:
            self.csrf = found.group(1)
        self.last = response
        return response

    def post(self, path: str, data: dict[str, str], **kw: object) -> httpx.Response:
        response = self.http.post(path, data={"csrf": self.csrf, **data}, **kw)  # type: ignore[arg-type]
        found = CSRF.search(response.text)
        if found:
            self.csrf = found.group(1)
        self.last = response
        return response

    def log_in(self, token: str) -> httpx.Response:
        return self.post("/login", {"token": token})

    def flashes(self) -> list[tuple[str, str]]:
        return [(kind, html.unescape(text)) for kind, text in FLASH.findall(self.last.text)]


def give_orders(page: Page, cid: str, side: str) -> list[tuple[str, str]]:
    said = []
    for fid, action, path, target, params in DAY1[side]:
        data = {"day": "1", "formation_id": fid, "action": action, "path": path,
                "target": target, "params": params}  # fmt: skip
        page.post(f"/c/{cid}/orders", data)
        said += page.flashes()
    return said
