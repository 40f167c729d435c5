"""BattleService.ExportBattleRecord: a resolved battle's end-of-game record for MekHQ, over a
real gRPC client against the served campaign. A side's token gets its own side's record only;
the referee names any side; a battle not resolved yet is refused with what to do."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import grpc
import pytest
from grpc_helpers import Stubs, reason_of
from test_grpc_battles import Battle, _served, _upload

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul
from mekref.v1 import battle_pb2, campaign_pb2


@pytest.fixture
def battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Battle]:
    with _served(tmp_path, capsys, bv=True) as served:
        yield served


def _record(
    b: Battle, who: str, battle_id: str, side: str = ""
) -> battle_pb2.ExportBattleRecordResponse:
    stubs: Stubs = b.clients[who]
    got: battle_pb2.ExportBattleRecordResponse = stubs.battles.ExportBattleRecord(
        battle_pb2.ExportBattleRecordRequest(
            campaign_id=b.campaign_id, battle_id=battle_id, side_id=side
        ),
        metadata=stubs.md,
    )
    return got


def _pending_battle(b: Battle) -> str:
    ref = b.clients["referee"]
    pending = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id), metadata=ref.md
    )
    return str(pending.battles[0].battle_id)


def test_each_side_gets_its_own_record_and_the_referee_any(battle: Battle) -> None:
    b = battle
    _upload(b, "red", "Red.mul", b.files["red"].read_bytes())
    battle_id = _pending_battle(b)
    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "red", battle_id)
    assert caught.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "battle_not_resolved"
    assert "mekref battle control" in str(caught.value.details())

    ref = b.clients["referee"]
    ref.battles.SetRefereeInputs(
        battle_pb2.SetRefereeInputsRequest(
            campaign_id=b.campaign_id, battle_id=battle_id, field_controller_side_id="red"
        ),
        metadata=ref.md,
    )
    _upload(b, "blue", "Blue.mul", b.files["blue"].read_bytes())

    for side in ("red", "blue"):
        got = _record(b, side, battle_id)
        assert got.file_name == f"{battle_id}-{side}-record.mul"
        assert got.control_side_id == "red"
        mul = read_mul_bytes(got.content)
        assert mul.root.value == "record" and not mul.notices
        stubs = b.clients[side]
        report = json.loads(
            stubs.campaigns.GetBattleReport(
                campaign_pb2.GetBattleReportRequest(campaign_id=b.campaign_id, battle_id=battle_id),
                metadata=stubs.md,
            ).report_json
        )
        # The side's record holds what its own cut of the report holds (R-REC-4).
        assert sorted(e.external_id or "" for e in mul.entities) == sorted(
            u["unit_id"] for u in report["units"]
        )
        hits = {p["person_id"]: p["hits"] for p in report["people"]}
        for e in mul.entities:
            for m in e.members:
                if m.external_id in hits and not m.dead:
                    assert m.hits == hits[m.external_id], m.name
        # The referee's record of that side is the same file.
        assert _record(b, "referee", battle_id, side).content == got.content

    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "blue", battle_id, "red")
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "referee", battle_id)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT


def test_an_unknown_battle_answers_as_one_the_side_did_not_fight(battle: Battle) -> None:
    b = battle
    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "red", "battle-000000000000")
    assert caught.value.code() is grpc.StatusCode.NOT_FOUND
    assert reason_of(caught.value) == "unknown_battle"


def test_a_battle_without_a_unit_of_the_side_answers_as_an_unknown_one(battle: Battle) -> None:
    """Red's record cut down to red's own units: a battle blue had no unit in. Blue gets the
    answer an unknown battle gets; red, whose battle it is, is told it is not resolved yet."""
    b = battle
    red = read_mul_bytes(b.files["red"].read_bytes())
    own = tuple(e for e in red.entities if (e.external_id or "").startswith("r"))
    assert own and len(own) < len(red.entities)
    alone = write_mul(replace(red, entities=own)).encode("utf-8")
    _upload(b, "red", "Red-alone.mul", alone)
    battle_id = _pending_battle(b)
    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "blue", battle_id)
    assert caught.value.code() is grpc.StatusCode.NOT_FOUND
    assert reason_of(caught.value) == "unknown_battle"
    with pytest.raises(grpc.RpcError) as caught:
        _record(b, "red", battle_id)
    assert reason_of(caught.value) == "battle_not_resolved"
