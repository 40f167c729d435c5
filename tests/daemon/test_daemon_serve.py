"""``mekref serve`` as a real subprocess on temporary folders: each way a file can arrive."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from daemon_helpers import (
    OTHER_FORCE,
    SETUP_EVENTS,
    Serve,
    battle_bytes,
    drop,
    event_count,
    ingested,
    new_campaign,
    sample_force,
    sha,
    status_json,
    wait_until,
)

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import open_store
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import CreditPool, ImportForce, OpenPool
from mekref.rules.tripwire.state import PoolKind


@dataclass
class Site:
    db: str
    cid: str
    inbox: Path
    quarantine: Path
    tmp: Path

    def serve(self, *extra: str, env: dict[str, str] | None = None, log: str = "serve") -> Serve:
        return Serve(
            self.db,
            [self.inbox],
            self.quarantine,
            self.tmp / f"{log}.log",
            extra=extra,
            env=env or {},
        )


@pytest.fixture
def site(tmp_path: Path) -> Site:
    db = str(tmp_path / "campaign.db")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return Site(db, new_campaign(db), inbox, tmp_path / "quarantine", tmp_path)


@pytest.fixture
def daemon(site: Site) -> Iterator[Serve]:
    serve = site.serve().start()
    yield serve
    assert serve.stop() == 0


def applied_shas(site: Site) -> list[str]:
    return [f.sha256 for f in ingested(site.db, site.cid)]


def test_new_file_is_applied_and_listed(site: Site, daemon: Serve) -> None:
    data = battle_bytes(1)
    drop(site.inbox, "Bob.mul", data)
    wait_until(lambda: applied_shas(site) == [sha(data)], "the file applied")
    assert event_count(site.db, site.cid) == SETUP_EVENTS + 1
    line = wait_until(lambda: daemon.events("file.applied"), "file.applied logged")[0]
    assert line["path"] == str(site.inbox / "Bob.mul")
    assert line["sha256"] == sha(data)
    assert line["campaign_id"] == site.cid
    status = status_json(site.db)
    assert [f["sha256"] for f in status["ingested"]] == [sha(data)]
    assert status["quarantined"] == []


def test_the_daemon_opens_its_campaigns_before_taking_files(site: Site, daemon: Serve) -> None:
    """The first file after a start waits only for itself: each campaign is folded (from its
    latest snapshot, here none) before the start-up scan."""
    (opened,) = daemon.events("campaign.opened")
    assert opened["campaign_id"] == site.cid
    assert opened["last_seq"] == opened["events_folded"] == SETUP_EVENTS
    assert opened["snapshot_seq"] is None
    lines = [line["event"] for line in daemon.lines()]
    assert lines.index("campaign.opened") < lines.index("scan.done")


def test_duplicate_under_another_name_is_skipped(site: Site, daemon: Serve) -> None:
    data = battle_bytes(1)
    drop(site.inbox, "first.mul", data)
    wait_until(lambda: applied_shas(site), "the first copy applied")
    drop(site.inbox, "copy of first.mul", data)
    dup = wait_until(
        lambda: [
            e
            for e in daemon.events("file.already_applied")
            if e["path"].endswith("copy of first.mul")
        ],
        "the copy skipped",
    )
    assert dup[0]["sha256"] == sha(data)
    assert applied_shas(site) == [sha(data)]
    assert event_count(site.db, site.cid) == SETUP_EVENTS + 1


def test_rename_into_the_folder(site: Site, daemon: Serve) -> None:
    data = battle_bytes(2)
    temp = site.inbox / "game.mul.part"  # not *.mul: ignored until renamed
    temp.write_bytes(data)
    os.rename(temp, site.inbox / "game.mul")
    wait_until(lambda: applied_shas(site) == [sha(data)], "the renamed file applied")


def test_slow_writer_in_chunks_is_read_once_complete(site: Site, daemon: Serve) -> None:
    data = battle_bytes(3)
    path = site.inbox / "slow.mul"
    chunk = len(data) // 6 + 1
    with path.open("wb") as out:
        for start in range(0, len(data), chunk):
            out.write(data[start : start + chunk])
            out.flush()
            os.fsync(out.fileno())
            # Each pause is shorter than the settle time (0.3 s): a writer that never
            # pauses longer than that is never read half-way.
            time.sleep(0.1)
    wait_until(lambda: applied_shas(site) == [sha(data)], "the whole file applied")
    assert status_json(site.db)["quarantined"] == []


def test_slow_writer_closing_after_each_chunk(site: Site, daemon: Serve) -> None:
    # A writer that opens and closes for every chunk sends close events on a half-written
    # file; the half file fails to parse and must be retried once it settles, not quarantined.
    data = battle_bytes(4)
    path = site.inbox / "chunky.mul"
    chunk = len(data) // 4 + 1
    for start in range(0, len(data), chunk):
        with path.open("ab") as out:
            out.write(data[start : start + chunk])
        time.sleep(0.15)
    wait_until(lambda: sha(data) in applied_shas(site), "the whole file applied")
    assert status_json(site.db)["quarantined"] == []


def test_file_that_arrived_while_down_is_picked_up_on_start(site: Site) -> None:
    data = battle_bytes(5)
    drop(site.inbox, "while-down.mul", data)
    serve = site.serve().start()
    try:
        wait_until(lambda: applied_shas(site) == [sha(data)], "startup scan applied it")
    finally:
        assert serve.stop() == 0
    # And a restart does not apply it again.
    again = site.serve(log="again").start()
    wait_until(lambda: again.events("file.already_applied"), "restart skips it")
    assert again.stop() == 0
    assert event_count(site.db, site.cid) == SETUP_EVENTS + 1


def test_bad_file_is_quarantined_with_a_reason_and_the_daemon_goes_on(
    site: Site, daemon: Serve
) -> None:
    bad = b'<?xml version="1.0"?>\n<record version="0.49">\n<survivors>\n<entity chassis="A'
    original = drop(site.inbox, "broken.mul", bad)
    copy = site.quarantine / "broken.mul"
    reason = site.quarantine / "broken.mul.reason.txt"
    wait_until(reason.exists, "the reason file written")
    assert copy.read_bytes() == bad
    assert original.read_bytes() == bad  # the original is never touched
    text = reason.read_text()
    assert "What:" in text and "Where:" in text and "To do:" in text
    assert f"{original}:" in text  # where: path:line(:column)
    line = wait_until(lambda: daemon.events("file.quarantined"), "quarantine logged")[0]
    assert line["sha256"] == sha(bad) and line["path"] == str(original)
    status = status_json(site.db)
    assert [(q["path"], q["sha256"]) for q in status["quarantined"]] == [(str(original), sha(bad))]
    assert status["quarantined"][0]["reason"]
    # The daemon carries on.
    good = battle_bytes(6)
    drop(site.inbox, "good.mul", good)
    wait_until(lambda: applied_shas(site) == [sha(good)], "a good file after a bad one")


OTHER_BAD = [
    ("hostile.mul", b'<!DOCTYPE r [<!ENTITY x "y">]><record>&x;</record>', "DOCTYPE"),
    ("ambiguous.mul", battle_bytes(7), "without guessing"),
    ("notfor.mul", battle_bytes(8), "does not belong"),
    ("refuse.mul", battle_bytes(9), "refused"),
]


def test_other_bad_files_are_quarantined(site: Site, daemon: Serve) -> None:
    # One daemon for all of them: each kind of bad file has its own reason.
    for name, data, _ in OTHER_BAD:
        drop(site.inbox, name, data)
    for name, _, words in OTHER_BAD:
        reason = site.quarantine / f"{name}.reason.txt"
        wait_until(reason.exists, f"the reason file for {name}")
        assert words.lower() in reason.read_text().lower(), name
    assert applied_shas(site) == []
    assert len(status_json(site.db)["quarantined"]) == len(OTHER_BAD)


def test_file_for_no_campaign_is_held_and_retried(site: Site) -> None:
    serve = site.serve("--rescan", "0.5", "--log-level", "debug").start()
    try:
        data = OTHER_FORCE.read_bytes()
        drop(site.inbox, "stranger.mul", data)
        wait_until(lambda: status_json(site.db)["unmatched"], "held as unmatched")
        held = status_json(site.db)["unmatched"]
        assert [u["sha256"] for u in held] == [sha(data)]
        # Rescans do not parse it again while nothing it could match has changed (a folder
        # of strangers would otherwise cost a parse each per rescan)...
        time.sleep(2.0)
        assert len(serve.events("file.unmatched")) == 1
        # ...but a new campaign (or new events in one) may be the one it belongs to: it is
        # looked at again, and still never quarantined.
        new_campaign(site.db)
        wait_until(lambda: len(serve.events("file.unmatched")) >= 2, "retried on rescan")
        assert status_json(site.db)["quarantined"] == []
    finally:
        assert serve.stop() == 0


def _parses_of(serve: Serve, digest: str) -> int:
    return sum(1 for line in serve.events("file.parsed") if line["sha256"] == digest)


def test_a_held_file_is_parsed_once_while_campaigns_change(site: Site) -> None:
    """Events arriving (each could make it match) do not make rescans read or parse a held
    file again: its kept parse is matched; once it matches, it is applied from that parse."""
    serve = site.serve("--rescan", "0.3", "--log-level", "debug").start()
    try:
        data = OTHER_FORCE.read_bytes()
        drop(site.inbox, "stranger.mul", data)
        wait_until(lambda: status_json(site.db)["unmatched"], "held as unmatched")
        with open_store(site.db) as store:
            runner = CampaignRunner(store)
            for n in range(4):  # four changes, each seen by a rescan before the next
                looks = len(serve.events("file.unmatched"))
                credit = CreditPool(actor="ref", pool_id="a-cargo", amount=1, reason=f"{n}")
                runner.execute(site.cid, credit)
                wait_until(lambda n=looks: len(serve.events("file.unmatched")) > n, "looked at")
            assert _parses_of(serve, sha(data)) == 1
            # Now the campaign has the file's units: it is applied, still parsed only once.
            others = ImportForce(
                actor="ref",
                side_id="b",
                force=sample_force(OTHER_FORCE),
                accept_unchecked=RefereeNote(referee="ref", reason="test"),
            )
            runner.execute(site.cid, others)
            runner.execute(site.cid, OpenPool(actor="ref", pool_id="b-cargo", side_id="b",
                                              name="Cargo", kind=PoolKind.CARGO,
                                              cargo_tons=Fraction(100)))  # fmt: skip
        wait_until(lambda: applied_shas(site) == [sha(data)], "applied once it matched")
        assert _parses_of(serve, sha(data)) == 1
        assert status_json(site.db)["unmatched"] == []
    finally:
        assert serve.stop() == 0


def test_sigterm_stops_cleanly_and_a_second_signal_at_once(site: Site) -> None:
    serve = site.serve().start()
    assert serve.stop(signal.SIGTERM) == 0
    stopped = serve.events("serve.stopped")
    assert stopped and stopped[0]["signal"] == "SIGTERM"
    # SIGINT works the same way.
    again = site.serve(log="again").start()
    assert again.stop(signal.SIGINT) == 0


def test_polling_mode(site: Site) -> None:
    serve = site.serve("--poll", "0.2").start()
    try:
        data = battle_bytes(10)
        drop(site.inbox, "polled.mul", data)
        wait_until(lambda: applied_shas(site) == [sha(data)], "applied in polling mode")
    finally:
        assert serve.stop() == 0


def test_the_api_runs_beside_the_watcher(site: Site) -> None:
    serve = site.serve("--grpc", "127.0.0.1:0").start()
    try:
        listening = wait_until(lambda: serve.events("grpc.listening"), "the API listening")
        assert not listening[0]["address"].endswith(":0")  # the port the system picked
        data = battle_bytes(11)
        drop(site.inbox, "with-api.mul", data)
        wait_until(lambda: applied_shas(site) == [sha(data)], "applied with the API running")
    finally:
        assert serve.stop() == 0
