"""Ruling SG-7 over gRPC: a savegame uploaded with ``UploadBattleFile`` is matched to the game a
battle already holds exactly as one from the watched folder or ``battle ingest``, against a real
``mekref serve --grpc`` with a real client.

The referee applies the server's end-of-round autosave as the game's end (``battle ingest
--game-over``). The game's real last save then comes over gRPC: with a side's token it is
refused (a side's upload speaks for that side only, BR-15, and may not replace the referee's
save of every side; never a second battle); with the referee's token it supersedes the autosave
in the same battle, as the watched folder's copy would. Once the battle is resolved, a still
later save with the referee's token corrects the condition it booked (revised SG-7), once; a
side's copy is refused. The saves are the real savegame
fixture's game at other moments (tests/savegame_variants.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from console_script import MEKREF, mekref

from mekref.v1 import battle_pb2, battle_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
from savegame_variants import ended_game, gz, saved_at
from test_daemon_savegame import make_campaign

REFEREE = ("--referee", "ref", "--reason", "the group stopped after round 5")


def _token(db: str, *grant: str) -> str:
    made = mekref("token", "create", "--db", db, *grant)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _battles(db: str) -> list[dict[str, object]]:
    report = mekref("report", "--db", db, "--json")
    assert report.returncode == 0, report.stderr
    battles: list[dict[str, object]] = json.loads(report.stdout)["battles"]
    return battles


@pytest.fixture
def served(tmp_path: Path) -> Iterator[dict[str, str]]:
    db = str(tmp_path / "c.db")
    cid = make_campaign(Path(db))
    autosave = tmp_path / "autosave.sav.gz"
    autosave.write_bytes(gz(saved_at(5, "END_REPORT", hawk_hits=2)))
    applied = mekref("battle", "ingest", "--db", db, str(autosave), "--game-over", *REFEREE)
    assert applied.returncode == 0, applied.stderr
    tokens = {"referee": _token(db, "--referee"), "eclipse": _token(db, "--side", "eclipse")}
    argv = [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield {"db": db, "cid": cid, "address": "127.0.0.1:" + line.rsplit(":", 1)[1].strip(),
               **tokens}  # fmt: skip
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0


def _upload(served: dict[str, str], who: str, name: str, data: bytes) -> object:
    with grpc.insecure_channel(served["address"]) as channel:
        stub = battle_pb2_grpc.BattleServiceStub(channel)
        request = battle_pb2.UploadBattleFileRequest(
            campaign_id=served["cid"], file_name=name, content=data
        )
        md = (("authorization", f"Bearer {served[who]}"),)
        try:
            return stub.UploadBattleFile(request, metadata=md, timeout=60)
        except grpc.RpcError as exc:
            return exc


def test_a_sides_later_save_is_refused_and_the_referees_supersedes(
    served: dict[str, str],
) -> None:
    db = served["db"]
    [battle] = _battles(db)
    assert battle["status"] == "open"
    final = gz(ended_game())
    # A side's token: the game's later save, but the referee's save holds every side's units.
    refused = _upload(served, "eclipse", "final.sav.gz", final)
    assert isinstance(refused, battle_pb2.UploadBattleFileResponse), refused
    assert refused.outcome == battle_pb2.UPLOAD_OUTCOME_QUARANTINED, refused
    assert f"a save of the game battle {battle['id']} holds" in refused.reason, refused.reason
    assert "no second battle opened" in refused.reason and "ruling SG-7" in refused.reason
    assert len(_battles(db)) == 1 and _battles(db)[0]["superseded"] == []
    # The referee's token: the same later save supersedes the autosave in the same battle.
    done = _upload(served, "referee", "final.sav.gz", final)
    assert isinstance(done, battle_pb2.UploadBattleFileResponse), done
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, done
    [after] = _battles(db)
    assert after["id"] == battle["id"]
    [superseded] = after["superseded"]
    assert superseded["path"] == "autosave.sav.gz", superseded
    assert "supersedes autosave.sav.gz" in str(superseded["note"])
    # Revised SG-7: once the battle is resolved, a still later save with the referee's token
    # corrects the condition it booked (no second battle); a side's copy is still refused.
    control = mekref("battle", "control", "--db", db, "--battle", str(battle["id"]),
                     "--side", "eclipse")  # fmt: skip
    assert control.returncode == 0, control.stderr
    later = gz(saved_at(7, "VICTORY", hawk_hits=4))
    side = _upload(served, "eclipse", "after.sav.gz", later)
    assert isinstance(side, battle_pb2.UploadBattleFileResponse), side
    assert side.outcome == battle_pb2.UPLOAD_OUTCOME_QUARANTINED, side
    fixed = _upload(served, "referee", "after.sav.gz", later)
    assert isinstance(fixed, battle_pb2.UploadBattleFileResponse), fixed
    assert fixed.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, fixed
    [resolved] = _battles(db)
    assert resolved["id"] == battle["id"] and len(resolved["superseded"]) == 2
    report = json.loads(mekref("report", "--db", db, "--json").stdout)
    assert [p["hits"] for p in report["people"] if p["name"] == "Dolores Strunz"] == [4]
    again = _upload(served, "referee", "after.sav.gz", later)
    assert isinstance(again, battle_pb2.UploadBattleFileResponse), again
    assert again.outcome == battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED, again
