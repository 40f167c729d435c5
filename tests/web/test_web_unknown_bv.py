"""The referee's desk, through the installed ``mekref serve --web``, on a campaign whose units
have no BV (the skirmish sample, imported without a BV table): the standings show the BV and
the VP as not known, never a sum that counts those units as 0 (R-VP-3, R-VP-6); so does a
side's own page."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from web_helpers import Campaign, Page, serve, stop

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "daemon" / "samples" / "ginestra"
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"


def _ok(*argv: str) -> str:
    done = mekref(*argv)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_desk_shows_a_bv_not_known_as_not_known(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _ok("campaign", "new", "--db", db, "--name", "S", "--seed", "3065",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side in ("loyalist", "rebel"):
        _ok("force", "import", "--db", db, "--side", side, str(SAMPLE / f"{side}.mul"),
            "--units-dir", str(UNITS), "--unchecked", "--referee", "A",
            "--reason", "a test")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    # A battle of the rebels' units, none with a BV: its VP are not known (R-VP-6).
    ingested = _ok("battle", "ingest", "--db", db, str(SAMPLE / "rebel.mul"),
                   "--units-dir", str(UNITS))  # fmt: skip
    battle = ingested.split("for battle ")[1].split()[0]
    _ok("battle", "confirm", "--db", db, "--battle", battle, "--referee", "A", "--reason", "t")
    _ok("battle", "control", "--db", db, "--battle", battle, "--side", "rebel")
    referee = _ok("token", "create", "--db", db, "--referee").strip()
    rebel = _ok("token", "create", "--db", db, "--side", "rebel").strip()
    cid = json.loads(_ok("game", "list", "--db", db, "--json"))[0]["id"]
    running = serve(Campaign(db, cid, {"referee": referee}))
    try:
        desk = Page(running.url)
        desk.log_in(referee)
        page = desk.get(f"/c/{cid}").text
        standings = page.split('<table id="standings">')[1].split("</table>")[0]
        assert "<td>? / ? (11 units without a BV)</td>" in standings
        assert "<td>? / ? (10 units without a BV)</td>" in standings
        assert "<td>0 / 0</td>" not in standings
        assert "<td>rebel</td><td>0 + ?</td><td>0</td><td>0 + ?</td>" in standings
        side = Page(running.url)
        side.log_in(rebel)
        books = side.get(f"/c/{cid}").text.split('<section id="books">')[1].split("</table>")[0]
        assert "<td>rebel</td><td>0 + ?</td><td>0</td><td>0 + ?</td>" in books
    finally:
        assert stop(running) == 0
