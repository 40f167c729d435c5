"""The watcher takes battle files through the same engagement link as ``battle ingest``.

TripWire L280: "Whenever two formations occupy the same hex (or cross a hex with another
formation) a scenario begins in that hex". Ruling T-E8 (docs/turn.md): on the strategic map a
file whose units stand in no open engagement is applied but its battle is held until the
referee confirms it; the daemon logs ``file.held`` with the reason and ``mekref status`` lists
it. The Ginestra sample, day 1: engagement ``day1-1105-1`` (Alpha against Bravo in 1105).
"""

from __future__ import annotations

import sys
from pathlib import Path

from daemon_helpers import Serve, drop, status_json, wait_until

from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
from ginestra_cli import UNITS, day_zero, ok

ENGAGEMENT = "day1-1105-1"


def test_the_watcher_holds_a_file_of_no_engagement_and_links_the_engagements_files(
    tmp_path: Path,
) -> None:
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    out = tmp_path / "out"
    for side in ("loyalist", "rebel"):
        ok("engagement", "export", "--db", db, "--side", side, "-o", str(out),
           "--units-dir", str(UNITS))  # fmt: skip
    loyal, rebel = battle_records(out, ENGAGEMENT)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    serve = Serve(db, [inbox], tmp_path / "q", tmp_path / "serve.log", fake=False)
    serve.start()
    try:
        drop(inbox, "skirmish.mul", (FOLDER / "loyalist.mul").read_bytes())
        (held,) = wait_until(lambda: serve.events("file.held"), "the held file logged")
        assert "matches no open engagement" in held["reason"]
        (waiting,) = status_json(db)["waiting"]
        assert waiting["held"] == held["reason"] and waiting["engagement_id"] is None
        for path in (loyal, rebel):
            drop(inbox, path.name, path.read_bytes())
        wait_until(lambda: len(serve.events("file.applied")) == 3, "both records applied")
        assert len(serve.events("file.held")) == 1
        linked = [b for b in status_json(db)["waiting"] if b["engagement_id"] == ENGAGEMENT]
        assert len(linked) == 1 and linked[0]["held"] is None
        assert linked[0]["sides_reported"] == ["loyalist", "rebel"]
    finally:
        assert serve.stop() == 0
