"""Issue 33: crafted uploads cannot stop the API. Twenty crafted savegames and XML bombs
(tests/crafted_files.py) arrive over gRPC at a real ``mekref serve --grpc`` while a client
reads the campaign in a loop: every upload is refused with its one-line reason, and the reads
go on, their slowest within a bound set by the same reads on the idle server in the same run
(no absolute time: the machine may be busy). Before the work budgets, twenty such uploads left
``GetCampaign`` timing out for minutes."""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from console_script import MEKREF, mekref

from mekref.v1 import battle_pb2, battle_pb2_grpc, campaign_pb2, campaign_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from crafted_files import corpus

UPLOADS = 20


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "Crafted", "--seed", "1",
                  "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = mekref("token", "create", "--db", db, "--referee")
    assert token.returncode == 0, token.stderr
    argv = [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        listed = mekref("status", "--db", db, "--json")
        campaign = listed.stdout.split('"id": "')[1].split('"')[0]
        yield "127.0.0.1:" + line.rsplit(":", 1)[1].strip(), token.stdout.strip(), campaign
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0


def _reads(
    stub: campaign_pb2_grpc.CampaignServiceStub, md: object, cid: str, n: int
) -> list[float]:
    took = []
    for _ in range(n):
        began = time.perf_counter()
        stub.GetCampaign(campaign_pb2.GetCampaignRequest(campaign_id=cid), metadata=md, timeout=30)
        took.append(time.perf_counter() - began)
    return took


def test_the_api_answers_while_crafted_uploads_arrive(server: tuple[str, str, str]) -> None:
    address, secret, cid = server
    md = (("authorization", f"Bearer {secret}"),)
    crafted = [case for case in corpus() if case.refused][:UPLOADS]
    crafted = (crafted * (UPLOADS // len(crafted) + 1))[:UPLOADS]
    with grpc.insecure_channel(address) as channel:
        campaigns = campaign_pb2_grpc.CampaignServiceStub(channel)
        battles = battle_pb2_grpc.BattleServiceStub(channel)
        idle = _reads(campaigns, md, cid, 30)
        answers: list[str] = []
        alone: list[float] = []

        def upload(n: int) -> None:
            case = crafted[n]
            request = battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, file_name=f"{n}-{case.name}", content=case.data
            )
            try:
                done = battles.UploadBattleFile(request, metadata=md, timeout=60)
                answers.append(battle_pb2.UploadOutcome.Name(done.outcome))
                assert "\n" not in done.reason, done.reason
            except grpc.RpcError as exc:
                answers.append(exc.code().name)
                assert "\n" not in (exc.details() or ""), exc.details()

        # What refusing each crafted file costs on the idle server, one at a time.
        for n in range(len({case.name for case in crafted})):
            began = time.perf_counter()
            upload(n)
            alone.append(time.perf_counter() - began)
        answers.clear()
        threads = [threading.Thread(target=upload, args=(n,)) for n in range(UPLOADS)]
        for thread in threads:
            thread.start()
        busy = _reads(campaigns, md, cid, 30)
        for thread in threads:
            thread.join(timeout=120)
    assert len(answers) == UPLOADS, answers
    assert set(answers) <= {"INVALID_ARGUMENT", "UPLOAD_OUTCOME_QUARANTINED"}, answers
    # The reads kept their pace: the slowest waited at most for a few refusals (the server
    # reads uploads on two threads besides the reads), never for the whole burst.
    bound = 20 * statistics.median(idle) + 3 * max(alone)
    assert max(busy) < bound, (max(busy), statistics.median(idle), max(alone))
