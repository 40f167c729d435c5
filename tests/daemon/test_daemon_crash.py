"""kill -9 at injected points of an ingestion: the file ends up applied once, never twice.

The daemon runs with ``MEKREF_FAULT=<point>`` (the documented test hook in
``mekref.daemon.watch.faults``), which makes it SIGKILL itself at that point of the first
file it ingests. A second daemon, started normally on the same folders, must leave the
campaign as if the file had been applied exactly once.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from daemon_helpers import (
    SETUP_EVENTS,
    Serve,
    battle_bytes,
    drop,
    event_count,
    ingested,
    new_campaign,
    sha,
    wait_until,
)

from mekref.daemon.store import open_store
from mekref.daemon.watch.faults import POINTS


@pytest.mark.parametrize("point", POINTS)
def test_kill_9_at_an_injected_point_applies_the_file_once(point: str, tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    cid = new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    quarantine = tmp_path / "quarantine"
    data = battle_bytes(1)

    doomed = Serve(db, [inbox], quarantine, tmp_path / "doomed.log", env={"MEKREF_FAULT": point})
    doomed.start()
    drop(inbox, "battle.mul", data)
    assert doomed.wait_exit() == -signal.SIGKILL

    committed = [f.sha256 for f in ingested(db, cid)]
    if point == "after_commit":
        assert committed == [sha(data)]
        assert event_count(db, cid) == SETUP_EVENTS + 1
    else:
        assert committed == []  # nothing of the file survived the crash
        assert event_count(db, cid) == SETUP_EVENTS

    survivor = Serve(db, [inbox], quarantine, tmp_path / "survivor.log").start()
    try:
        wait_until(lambda: ingested(db, cid), "the file applied after the restart")
        expected = "file.already_applied" if point == "after_commit" else "file.applied"
        wait_until(lambda: survivor.events(expected), f"{expected} after the restart")
    finally:
        assert survivor.stop() == 0
    assert [f.sha256 for f in ingested(db, cid)] == [sha(data)]
    with open_store(db) as store:
        events = store.read(cid)
    assert [e.seq for e in events] == list(range(1, SETUP_EVENTS + 2))
    assert [e.type for e in events].count("PoolCredited") == 1
