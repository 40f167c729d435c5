"""``mekref serve`` with the real battle ingestion on the bundled sample campaign.

The daemon must reach the same campaign state as ``mekref replay`` of the same folder: the
same files and referee commands in the same order give the same state hash, whichever way
they came in.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from daemon_helpers import Serve, ingested, sha, status_json, wait_until
from test_daemon_replay import last_hash, replay

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store import open_store
from mekref.daemon.tripwire.cli_replay import AFTER, load_commands
from mekref.rules.tripwire.game import TRIPWIRE


def test_the_daemon_applies_the_sample_battles_like_a_replay(tmp_path: Path) -> None:
    db = str(tmp_path / "campaign.db")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    setup = load_commands(SAMPLE / "setup.json")
    with open_store(db) as store:
        runner = CampaignRunner(store)
        cid = runner.create(setup[0]).campaign_id  # type: ignore[arg-type]
        for command in setup[1:]:
            runner.execute(cid, command)

    serve = Serve(db, [inbox], tmp_path / "quarantine", tmp_path / "serve.log", fake=False)
    serve.start()
    try:
        files = sorted(SAMPLE.glob("*.mul"))
        first = files[0]
        shutil.copyfile(first, inbox / first.name)
        want = sha(first.read_bytes())
        wait_until(lambda: [f.sha256 for f in ingested(db, cid)] == [want], "first battle file")
        battle = f"battle-{want[:12]}"
        # A record of one side: the battle waits for the referee to say who holds the field.
        status = status_json(db)
        assert [b["battle_id"] for b in status["waiting"]] == [battle]
        assert status["ingested"][0]["battle_id"] == battle
        received = wait_until(lambda: serve.events("battle.report_received"), "battle logged")
        assert received[0]["campaign_id"] == cid and received[0]["battle_id"] == battle
        assert received[0]["sha256"] == want
        for n, path in enumerate(files):
            if n > 0:
                shutil.copyfile(path, inbox / path.name)
                digest = sha(path.read_bytes())
                wait_until(
                    lambda d=digest: d in {f.sha256 for f in ingested(db, cid)},  # type: ignore[misc]
                    f"{path.name} applied",
                )
            with open_store(db) as store:
                for command in load_commands(path.with_name(path.name + AFTER)):
                    CampaignRunner(store).execute(cid, command)
        assert status_json(db)["waiting"] == []
    finally:
        assert serve.stop() == 0
    with open_store(db) as store:
        served = TRIPWIRE.state_hash(CampaignRunner(store).replay(cid))
    assert served == last_hash(replay(SAMPLE, "--ruleset", "tripwire", "--seed", "7"))
