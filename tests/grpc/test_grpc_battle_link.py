"""UploadBattleFile against a real ``mekref serve --grpc``: battles link to engagements.

TripWire L280: "Whenever two formations occupy the same hex (or cross a hex with another
formation) a scenario begins in that hex". Ruling T-E8 (docs/turn.md): once the campaign has a
strategic map, a battle file whose units stand in no open engagement is held until the referee
confirms it. An upload takes the same pipeline as the watcher and ``battle ingest``: the held
file is taken in (its events are in the log) and answered HELD_UNMATCHED with the reason;
ListPendingBattles shows the hold; the referee's ConfirmBattle (RulesService.ExecuteCommand)
records who and why. The Ginestra sample, day 1: the rebels' Bravo lands on the loyalists'
Alpha at the Facility (engagement ``day1-1105-1``); the two records of that battle link to it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_helpers import Stubs

from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records
from mekref.v1 import battle_pb2, rules_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import MEKREF
from ginestra_cli import UNITS, day_zero, ok

ENGAGEMENT = "day1-1105-1"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Stubs, Stubs, str, Path]]:
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
    (cid,) = [c["id"] for c in json.loads(ok("status", "--db", db, "--json"))["campaigns"]]
    token = ok("token", "create", "--db", db, "--referee").strip()
    loyalist = ok("token", "create", "--db", db, "--side", "loyalist").strip()
    proc = subprocess.Popen(
        [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json",
         "--quarantine", str(tmp_path / "q")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), proc.stderr and proc.stderr.read()
        port = int(line.rsplit(":", 1)[1])
        stubs = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), token)
        side = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), loyalist)
        yield stubs, side, cid, out
        stubs.close()
        side.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _upload(stubs: Stubs, cid: str, data: bytes, name: str) -> battle_pb2.UploadBattleFileResponse:
    return stubs.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(campaign_id=cid, file_name=name, content=data),
        metadata=stubs.md,
    )


def _pending(stubs: Stubs, cid: str) -> battle_pb2.ListPendingBattlesResponse:
    return stubs.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=stubs.md
    )


def test_an_upload_matching_no_engagement_is_held_and_the_referee_confirms_it(
    served: tuple[Stubs, Stubs, str, Path],
) -> None:
    stubs, side, cid, out = served
    # Every loyalist unit, in four formations and four hexes: a battle that never happened,
    # uploaded by the loyalists (their own view).
    held = _upload(side, cid, (FOLDER / "loyalist.mul").read_bytes(), "skirmish.mul")
    assert held.outcome == battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED
    assert "held until the referee confirms it" in held.reason
    assert held.reason.endswith("it matches no open engagement")
    # A side is not told where the formations stand (the enemy's included): fog of war.
    assert "hex" not in held.reason and "bravo" not in held.reason
    assert held.first_seq > 0  # taken in: its report is in the log, its battle waits
    (battle,) = _pending(stubs, cid).battles
    assert not battle.detail.engagement_id
    assert "matches no open engagement: the nearest, day1-1105-1 in hex 1105" in battle.detail.held
    # The battle of the engagement: both records link to it, nothing is held.
    loyal, rebel = battle_records(out, ENGAGEMENT)
    for path in (loyal, rebel):
        linked = _upload(stubs, cid, path.read_bytes(), path.name)
        assert linked.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, linked.reason
    by_id = {b.battle_id: b.detail for b in _pending(stubs, cid).battles}
    assert len(by_id) == 2
    (fought,) = [d for d in by_id.values() if d.engagement_id == ENGAGEMENT]
    assert not fought.held and sorted(fought.sides_reported) == ["loyalist", "rebel"]
    # The referee's word, recorded with who and why.
    confirm = {
        "type": "ConfirmBattle",
        "battle_id": battle.battle_id,
        "note": {"referee": "Ann", "reason": "a bout off the map we agreed to count"},
    }
    done = stubs.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(confirm)),
        metadata=stubs.md,
    )
    assert done.last_seq >= done.first_seq
    (after,) = [b.detail for b in _pending(stubs, cid).battles if b.battle_id == battle.battle_id]
    assert not after.held
    # A second confirmation is refused: the battle is no longer held.
    with pytest.raises(grpc.RpcError) as caught:
        stubs.rules.ExecuteCommand(
            rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(confirm)),
            metadata=stubs.md,
        )
    assert caught.value.code() is grpc.StatusCode.FAILED_PRECONDITION
