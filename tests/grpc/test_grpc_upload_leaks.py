"""Issue 33: what a side's upload is told must leak nothing about the enemy, and a side cannot
open held battles at will. Real side tokens against a real ``mekref serve --grpc``.

The Ginestra sample, day 1 resolved (engagement ``day1-1105-1``: the rebels' Bravo on the
loyalists' Alpha). The loyalists upload one-unit lists without ids:

- a Jenner (only the rebels field one) and a Catapult (nobody does) get the same code, reason
  and words; an ambiguous Shadow Hawk (each side fields one, the pilot fits neither) too, and
  none of the answers names a rebel unit id, pilot or the side. The referee reads the full
  reasons in ListPendingBattles and ``mekref status``; the referee's own upload of the same
  file is told the full reason.
- with ``held_battles_per_side = 2`` in mekref.toml, the third file that matches no engagement
  (each would open a battle held for the referee, ruling T-E8) is RESOURCE_EXHAUSTED and says
  what to do; a file joining a held battle, and the engagement's own record, still go in; once
  the referee confirms one, the third opens.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_helpers import Stubs, reason_of, status_of

from mekref.daemon.samples.ginestra import FOLDER
from mekref.daemon.samples.ginestra.demo import battle_records
from mekref.v1 import battle_pb2, campaign_pb2, rules_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import MEKREF, mekref_fresh
from ginestra_cli import UNITS, day_zero, ok

ENGAGEMENT = "day1-1105-1"
LIMIT = 2


@dataclass
class Served:
    db: str
    cid: str
    out: Path
    referee: Stubs
    loyalist: Stubs


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
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
    referee = ok("token", "create", "--db", db, "--referee").strip()
    loyalist = ok("token", "create", "--db", db, "--side", "loyalist").strip()
    config = tmp_path / "mekref.toml"
    config.write_text(f"held_battles_per_side = {LIMIT}\n", encoding="utf-8")
    proc = subprocess.Popen(
        [str(MEKREF), "serve", "--config", str(config), "--db", db, "--grpc", "127.0.0.1:0",
         "--log-format", "json", "--quarantine", str(tmp_path / "q")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    clients: list[Stubs] = []
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), proc.stderr and proc.stderr.read()
        port = int(line.rsplit(":", 1)[1])
        clients = [
            Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), t) for t in (referee, loyalist)
        ]
        yield Served(db, cid, out, *clients)
    finally:
        for stubs in clients:
            stubs.close()
        proc.terminate()
        proc.wait(timeout=30)


def _unit_list(*entities: str) -> bytes:
    body = "".join(f"\n\t\t{e}\n" for e in entities)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19" >{body}</unit>\n'.encode()
    )


def _entity(chassis: str, model: str, pilot: str, kind: str = "Biped") -> str:
    return (
        f'<entity chassis="{chassis}" model="{model}" type="{kind}">'
        f'<pilot name="{pilot}" nick="" gunnery="4" piloting="5" ejected="false"/></entity>'
    )


def _sample_entity(side: str, pilot: str) -> str:
    """The ``<entity>`` of the sample's unit list whose pilot is ``pilot``."""
    text = (FOLDER / f"{side}.mul").read_text(encoding="utf-8")
    (found,) = [e for e in re.findall(r"<entity .*?</entity>", text, re.S) if pilot in e]
    return str(found)


def _upload(stubs: Stubs, cid: str, data: bytes, name: str) -> battle_pb2.UploadBattleFileResponse:
    return stubs.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(campaign_id=cid, file_name=name, content=data),
        metadata=stubs.md,
    )


def _refused(stubs: Stubs, cid: str, data: bytes, name: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        _upload(stubs, cid, data, name)
    return caught.value


def _pending(s: Served) -> battle_pb2.ListPendingBattlesResponse:
    return s.referee.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=s.cid), metadata=s.referee.md
    )


def _rebels(s: Served) -> tuple[set[str], set[str]]:
    """The rebels' unit ids and their crews' names, from the referee's whole view."""
    view = s.referee.rules.GetView(
        rules_pb2.GetViewRequest(campaign_id=s.cid), metadata=s.referee.md
    )
    state = json.loads(view.view_json)
    ids = {uid for uid, u in state["units"].items() if u["side_id"] == "rebel"}
    names = {p["name"] for p in state["people"].values() if p.get("unit_id") in ids}
    assert ids and names
    return ids, names


def test_a_sides_refusal_is_the_same_whatever_the_enemy_fields(served: Served) -> None:
    s = served
    files = {
        "enemy's": _unit_list(_entity("Jenner", "JR7-D", "Somebody")),  # only the rebels' Jenner
        "nobody's": _unit_list(_entity("Catapult", "CPLT-C1", "Somebody")),  # fielded by none
        "ambiguous": _unit_list(_entity("Shadow Hawk", "SHD-2H", "Somebody")),  # one each side
    }
    answers = {}
    for case, data in files.items():
        error = _refused(s.loyalist, s.cid, data, f"{case}.mul")
        # The whole google.rpc.Status (code, message, every detail), byte for byte.
        status = status_of(error).SerializeToString()
        answers[case] = (error.code(), error.details(), reason_of(error), status)
    assert answers["enemy's"] == answers["nobody's"] == answers["ambiguous"]
    code, details, reason, _ = answers["enemy's"]
    assert code is grpc.StatusCode.FAILED_PRECONDITION and reason == "not_your_file"
    assert details.startswith("this file's units do not match your side's units in this campaign")
    assert "the referee has the details" in details
    ids, crews = _rebels(s)
    for secret in (*ids, *(i[:8] for i in ids), *crews, "rebel"):
        assert secret.lower() not in details.lower(), secret

    # The referee reads the full reasons: which side sent it, and the units that decided it.
    quarantined = {q.original_path: q.reason for q in _pending(s).quarantined_files}
    enemys = quarantined["upload:enemy's.mul"]
    assert "side loyalist's upload" in enemys and "side rebel's view" in enemys
    ambiguous = quarantined["upload:ambiguous.mul"]
    assert "cannot be matched without guessing" in ambiguous and "side rebel" in ambiguous
    assert any(uid in ambiguous for uid in ids) and any(name in ambiguous for name in crews)
    assert "belongs to this campaign" in quarantined["upload:nobody's.mul"]
    status = json.loads(ok("status", "--db", s.db, "--json"))
    assert {q["reason"] for q in status["quarantined"]} == set(quarantined.values())
    # The referee's own upload of the ambiguous file is told the full reason.
    told = _upload(s.referee, s.cid, files["ambiguous"], "ambiguous.mul")
    assert told.outcome == battle_pb2.UPLOAD_OUTCOME_QUARANTINED
    assert "side rebel" in told.reason and any(uid in told.reason for uid in ids)
    # Nothing was applied.
    assert not json.loads(ok("status", "--db", s.db, "--json"))["ingested"]


def _last_seq(s: Served) -> int:
    got = s.referee.campaigns.GetCampaign(
        campaign_pb2.GetCampaignRequest(campaign_id=s.cid), metadata=s.referee.md
    )
    return int(got.campaign.last_seq)


def test_a_side_may_keep_only_so_many_held_battles_open(served: Served) -> None:
    s = served
    # One-unit lists of loyalist units standing in no engagement: each opens a held battle.
    bulldog = _sample_entity("loyalist", "Militia crew 1")
    held = [
        _unit_list(bulldog),
        _unit_list(_sample_entity("loyalist", "Militia crew 3")),  # a Maxim
        _unit_list(_sample_entity("loyalist", "Capt. Luca Moretti")),  # the Rapier
    ]
    for n, data in enumerate(held[:LIMIT]):
        done = _upload(s.loyalist, s.cid, data, f"held-{n}.mul")
        assert done.outcome == battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED, done.reason
    before = _last_seq(s)
    error = _refused(s.loyalist, s.cid, held[LIMIT], "one-too-many.mul")
    assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert reason_of(error) == "held_battles_limit"
    details = error.details() or ""
    assert f"your side already has {LIMIT} battle(s) held" in details
    assert "ask the referee to confirm or close them" in details
    assert _last_seq(s) == before  # nothing stored
    assert len(_pending(s).battles) == LIMIT
    assert not _pending(s).quarantined_files  # a good file, only early: not quarantined

    # A file joining a held battle opens none: taken in.
    both = _unit_list(bulldog, _sample_entity("loyalist", "Militia crew 2"))
    joined = _upload(s.loyalist, s.cid, both, "joins.mul")
    assert joined.outcome == battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED
    # The engagement's own record is never held, so never refused.
    loyal, _rebel = battle_records(s.out, ENGAGEMENT)
    fought = _upload(s.loyalist, s.cid, loyal.read_bytes(), loyal.name)
    assert fought.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, fought.reason

    # The referee does what the answer asked: confirms one; the third now opens.
    first = next(b for b in _pending(s).battles if b.detail.held)
    confirm = {
        "type": "ConfirmBattle",
        "battle_id": first.battle_id,
        "note": {"referee": "Ann", "reason": "a skirmish off the map we agreed to count"},
    }
    s.referee.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=s.cid, command_json=json.dumps(confirm)),
        metadata=s.referee.md,
    )
    done = _upload(s.loyalist, s.cid, held[LIMIT], "one-too-many.mul")
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED, done.reason
    # The referee is never limited.
    extra = _unit_list(_sample_entity("loyalist", "Militia platoon 1"))
    assert _upload(s.referee, s.cid, extra, "referee.mul").outcome == (
        battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED
    )


def test_the_enemys_applied_file_sent_again_is_not_said_to_be_applied(served: Served) -> None:
    # The rebels' record of the engagement, taken in (here the referee brings it). The
    # loyalists sending the same bytes must not learn it went in, nor when (its seqs): they are
    # told what any file not their own view is told. Their own record, sent twice, is told so.
    s = served
    loyal, rebel = battle_records(s.out, ENGAGEMENT)
    taken = _upload(s.referee, s.cid, rebel.read_bytes(), rebel.name)
    assert taken.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, taken.reason
    enemys = _refused(s.loyalist, s.cid, rebel.read_bytes(), "found-it.mul")
    stranger = _refused(s.loyalist, s.cid, _unit_list(_entity("Catapult", "CPLT-C1", "X")), "x.mul")
    assert (enemys.code(), reason_of(enemys), enemys.details()) == (
        stranger.code(), reason_of(stranger), stranger.details()
    )  # fmt: skip
    assert reason_of(enemys) == "not_your_file"
    # The applied file is not quarantined again for it (the stranger's file is).
    assert [q.original_path for q in _pending(s).quarantined_files] == ["upload:x.mul"]
    assert _upload(s.referee, s.cid, rebel.read_bytes(), rebel.name).outcome == (
        battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED
    )
    own = _upload(s.loyalist, s.cid, loyal.read_bytes(), loyal.name)
    assert own.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, own.reason
    again = _upload(s.loyalist, s.cid, loyal.read_bytes(), "again.mul")
    assert again.outcome == battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED
    assert (again.first_seq, again.last_seq) == (own.first_seq, own.last_seq)


def test_a_negative_limit_is_refused_at_start(tmp_path: Path) -> None:
    config = tmp_path / "mekref.toml"
    config.write_text("held_battles_per_side = -1\n", encoding="utf-8")
    done = mekref_fresh("serve", "--config", str(config), "--db", str(tmp_path / "c.db"),
                        "--grpc", "127.0.0.1:0", "--create")  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "held_battles_per_side must be zero or more" in done.stderr
