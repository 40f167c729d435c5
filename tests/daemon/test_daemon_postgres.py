"""Two ``mekref serve`` replicas on one PostgreSQL database and one inbox: each file once."""

from __future__ import annotations

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

FILES = 8


def seen(replica: Serve) -> set[str]:
    done = replica.events("file.applied") + replica.events("file.already_applied")
    return {e["sha256"] for e in done}


@pytest.mark.postgres
def test_two_daemons_on_one_database_apply_each_file_once(pg_dsn: str, tmp_path: Path) -> None:
    cid = new_campaign(pg_dsn)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    quarantine = tmp_path / "quarantine"
    # One file is there before either starts: both startup scans race for it.
    early = battle_bytes(0)
    drop(inbox, "early.mul", early)
    first = Serve(pg_dsn, [inbox], quarantine, tmp_path / "first.log").start()
    second = Serve(pg_dsn, [inbox], quarantine, tmp_path / "second.log").start()
    try:
        datas = [early]
        for n in range(1, FILES):
            data = battle_bytes(n)
            datas.append(data)
            drop(inbox, f"battle-{n}.mul", data)
        want = sorted(sha(d) for d in datas)
        wait_until(lambda: sorted(f.sha256 for f in ingested(pg_dsn, cid)) == want, "all files")
        # Both replicas looked at every file: one applied it, the other found it applied.
        wait_until(
            lambda: len(seen(first)) == len(seen(second)) == FILES, "each replica saw every file"
        )
    finally:
        assert first.stop() == 0
        assert second.stop() == 0
    assert event_count(pg_dsn, cid) == SETUP_EVENTS + FILES
    applied = first.events("file.applied") + second.events("file.applied")
    assert sorted(e["sha256"] for e in applied) == want  # each applied by exactly one replica
