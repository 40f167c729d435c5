"""A long campaign opens from its latest snapshot: through the console script, after a replay.

The replay keeps its database (``--db``), so it takes snapshots as ``mekref serve`` does. Opening
the campaign again (``mekref status``, ``mekref game state``) starts from the latest snapshot
and folds only the events after it; the state it gets hashes as the replay's (and as the whole
log folded cold)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

from console_script import mekref

from mekref.daemon.campaigns import SNAPSHOT_EVERY, CampaignRunner
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store import open_store
from mekref.daemon.tripwire.cli_replay import AFTER, SETUP

RECORD = "01-bob.mul"  # the referee gives "home" the field after it: each battle resolves
BATTLES = 150
#: The first Huscarl of the record, a campaign unit: the shots left in two of its bins tell
#: the copies apart (ruling BR-13 refuses a copy that reports what another one did).
HUSCARL = b'externalId="d0efcc94-0a74-46bf-a6b3-616717068908"'


def _copy(record: bytes, n: int) -> bytes:
    start = record.index(HUSCARL)
    gauss = record.index(b'shots="8"', start) + len(b'shots="')
    srm = record.index(b'shots="25"', start) + len(b'shots="')
    fewer_gauss, fewer_srm = divmod(n, 26)
    assert gauss < srm and fewer_gauss <= 8
    return b"".join(
        [
            record[:gauss],
            str(8 - fewer_gauss).encode(),
            record[gauss + 1 : srm],
            str(25 - fewer_srm).encode(),
            record[srm + 2 :],
        ]
    )


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    shutil.copyfile(SAMPLE / SETUP, folder / SETUP)
    record = (SAMPLE / RECORD).read_bytes()
    after = json.loads((SAMPLE / (RECORD + AFTER)).read_text())
    for n in range(BATTLES):
        data = _copy(record, n)
        (folder / f"{n:04d}.mul").write_bytes(data)
        # The battle a file opens is named after its bytes; the referee's decision names it.
        after["commands"][0]["battle_id"] = "battle-" + hashlib.sha256(data).hexdigest()[:12]
        (folder / f"{n:04d}.mul{AFTER}").write_text(json.dumps(after))
    return folder


def test_a_long_campaign_opens_from_its_latest_snapshot(tmp_path: Path) -> None:
    db = tmp_path / "campaign.db"
    replayed = mekref(
        "replay", str(_corpus(tmp_path / "corpus")), "--seed", "7", "--db", str(db), timeout=600
    )
    assert replayed.returncode == 0, replayed.stderr
    replay_hash = replayed.stdout.strip().splitlines()[-1].removeprefix("state-hash: ")

    status = mekref("status", "--json", "--db", str(db))
    assert status.returncode == 0, status.stderr
    (campaign,) = json.loads(status.stdout)["campaigns"]
    # One event per set-up command (the campaign, three forces, their designs), then three
    # per battle.
    setup = len(json.loads((SAMPLE / SETUP).read_text(encoding="utf-8"))["commands"])
    assert campaign["last_seq"] == setup + 3 * BATTLES
    # It started from a snapshot and folded only what came after it: snapshots are taken
    # every SNAPSHOT_EVERY events once their text outweighs a share of the last one (a
    # campaign this size stays under it), so at most that many events and one battle's more.
    assert campaign["snapshot_seq"] is not None
    assert campaign["snapshot_seq"] + campaign["events_folded"] == campaign["last_seq"]
    assert campaign["events_folded"] <= SNAPSHOT_EVERY + 3

    # The state opened from the snapshot is the replay's, and the whole log's folded cold.
    shown = mekref("game", "state", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    assert f"state-hash: {replay_hash}" in shown.stdout
    with open_store(str(db)) as store:
        runner = CampaignRunner(store)
        (only,) = store.list_campaigns()
        assert runner.state_hash(only.id, runner.replay(only.id)) == replay_hash

    # What status shows from the snapshot (read as its UTF-8 bytes, each battle's line decoded
    # only when read) is what it shows from the whole log folded cold, the snapshots dropped.
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()
    cold = mekref("status", "--json", "--db", str(db))
    assert cold.returncode == 0, cold.stderr
    (folded,) = json.loads(cold.stdout)["campaigns"]
    assert (folded["snapshot_seq"], folded["events_folded"]) == (None, campaign["last_seq"])
    opened = {k: v for k, v in json.loads(status.stdout).items() if k != "campaigns"}
    assert opened == {k: v for k, v in json.loads(cold.stdout).items() if k != "campaigns"}
