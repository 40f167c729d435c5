"""BattleService end to end: two players upload their records, the referee says who holds the
field, each side reads its own cut of the report. Uploads take the watcher's exactly-once path;
hostile or oversized files are refused; a client never chooses a path on the server."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
import pytest
from grpc_helpers import Stubs, field_violations, reason_of

from mekref.adapters.megamek.mul_model import Section
from mekref.daemon.app import App
from mekref.daemon.config import ServeConfig
from mekref.daemon.grpc.server import GrpcServer, ServerOptions
from mekref.daemon.grpc.tokens import Role, TokenStore
from mekref.daemon.store import EventStore, open_store
from mekref.v1 import battle_pb2, campaign_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the battle tests' builders
ingest = pytest.importorskip("mekref.daemon.ingest")
e2e = pytest.importorskip("battle.test_battle_end_to_end")
builders = pytest.importorskip("battle.builders")


@dataclass
class Battle:
    server: GrpcServer
    store: EventStore
    tokens: TokenStore
    campaign_id: str
    files: dict[str, Path]
    uploads: Path
    clients: dict[str, Stubs]


def _cli(*argv: str) -> None:
    from mekref.daemon.cli import main

    assert main(list(argv)) == 0


@contextmanager
def _served(tmp_path: Path, capsys: pytest.CaptureFixture[str], *, bv: bool) -> Iterator[Battle]:
    """Both forces imported (``bv``: with the tests' BV table), a server, three clients."""
    from mekref.daemon.design_lookup import catalog_lookup

    tmp_path.mkdir(parents=True, exist_ok=True)
    db = str(tmp_path / "c.db")
    files = e2e.write_inputs(tmp_path)
    _cli("campaign", "new", "--db", db, "--name", "E2E", "--seed", e2e.SEED,
         "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    table = ("--bv-table", str(builders.FIXTURES / "battles" / "Units.txt")) if bv else ()
    for side in ("red", "blue"):
        _cli("force", "import", "--db", db, "--side", side, str(tmp_path / f"{side}.mul"),
             "--units-dir", str(builders.UNITS_DIR), *table,
             "--unchecked", "--referee", "Ann", "--reason", "a small test force")  # fmt: skip
    capsys.readouterr()
    data = tmp_path / "server-data"
    config = ServeConfig(db=db, quarantine=data / "quarantine")
    app = App(config, open_store(db), catalog_lookup(builders.UNITS_DIR, progress=False))
    store, tokens = app.store, app.tokens
    server = GrpcServer(
        app.pipeline,
        tokens,
        "127.0.0.1:0",
        options=ServerOptions(uploads_dir=config.uploads_dir(), upload_max_bytes=256 * 1024),
    )
    port = server.start()
    cid = store.list_campaigns()[0].id
    clients = {}
    for who in ("referee", "red", "blue"):
        if who == "referee":
            secret = tokens.issue(Role.REFEREE).secret
        else:
            secret = tokens.issue(Role.SIDE, campaign_id=cid, side_id=who).secret
        clients[who] = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), secret)
    try:
        yield Battle(server, store, tokens, cid, files, data / "uploads", clients)
    finally:
        for stubs in clients.values():
            stubs.close()
        server.stop(1)
        store.close()


@pytest.fixture
def battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Battle]:
    with _served(tmp_path, capsys, bv=True) as served:
        yield served


def _upload(b: Battle, who: str, name: str, content: bytes) -> battle_pb2.UploadBattleFileResponse:
    stubs = b.clients[who]
    return stubs.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(
            campaign_id=b.campaign_id, file_name=name, content=content
        ),
        metadata=stubs.md,
    )


def test_two_uploads_and_control_resolve_the_battle(battle: Battle) -> None:
    b = battle
    red = _upload(b, "red", "Red.mul", b.files["red"].read_bytes())
    assert red.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    assert red.first_seq <= red.last_seq
    again = _upload(b, "red", "copy of Red.mul", b.files["red"].read_bytes())
    assert again.outcome == battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED
    assert (again.first_seq, again.last_seq) == (red.first_seq, red.last_seq)

    ref = b.clients["referee"]
    pending = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id), metadata=ref.md
    )
    assert len(pending.battles) == 1
    battle_id = pending.battles[0].battle_id
    assert json.loads(pending.battles[0].detail_json)["sides_expected"] == ["blue", "red"]
    assert list(pending.battles[0].detail.sides_expected) == ["blue", "red"]  # typed, the same
    # Without "mekref-legacy-json: 1" only the typed detail travels (docs/api.md).
    plain = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id), metadata=ref.md[:1]
    )
    assert (
        plain.battles[0].detail_json == "" and plain.battles[0].detail == pending.battles[0].detail
    )
    ref.battles.SetRefereeInputs(
        battle_pb2.SetRefereeInputsRequest(
            campaign_id=b.campaign_id, battle_id=battle_id, field_controller_side_id="red"
        ),
        metadata=ref.md,
    )
    # Before the battle resolves, a side that fought sees it waiting.
    red_stubs = b.clients["red"]
    waiting = red_stubs.campaigns.GetBattleReport(
        campaign_pb2.GetBattleReportRequest(campaign_id=b.campaign_id, battle_id=battle_id),
        metadata=red_stubs.md,
    )
    assert json.loads(waiting.report_json)["status"] == "open"
    assert waiting.report.status == "open" and not waiting.report.HasField("control_side")
    plain_report = red_stubs.campaigns.GetBattleReport(
        campaign_pb2.GetBattleReportRequest(campaign_id=b.campaign_id, battle_id=battle_id),
        metadata=red_stubs.md[:1],
    )
    assert plain_report.report_json == "" and plain_report.report == waiting.report

    blue = _upload(b, "blue", "Blue.mul", b.files["blue"].read_bytes())
    assert blue.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    assert blue.first_seq == red.last_seq + 2  # after the control event

    reports = {}
    for who in ("referee", "red", "blue"):
        stubs = b.clients[who]
        got = stubs.campaigns.GetBattleReport(
            campaign_pb2.GetBattleReportRequest(campaign_id=b.campaign_id, battle_id=battle_id),
            metadata=stubs.md,
        )
        reports[who] = json.loads(got.report_json)
        assert "field held by red" in got.text
        assert got.report.control_side == "red"
        assert [u.unit_id for u in got.report.units] == [
            u["unit_id"] for u in reports[who]["units"]
        ]
        assert [u.fate for u in got.report.units] == [u["fate"] for u in reports[who]["units"]]
    units = {who: {u["unit_id"] for u in r["units"]} for who, r in reports.items()}
    assert units["referee"] == {"r1", "r2", "b1", "b2", "b3"}
    assert units["red"] == {"r1", "r2", "b1", "b2"}  # its own, and what it salvaged
    assert units["blue"] == {"b3", "b1", "b2"}  # its own (b1, b2 were taken from it)
    assert "conflicts" in reports["referee"] and "conflicts" not in reports["red"]
    assert [s["side_id"] for s in reports["blue"]["side_outcomes"]] == ["blue"]


def test_a_side_cannot_upload_the_other_sides_record(battle: Battle) -> None:
    b = battle
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "blue", "Red.mul", b.files["red"].read_bytes())
    # The same answer as for a file of nobody's units (issue 33): it must not tell Blue that
    # these are Red's.
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "not_your_file"
    assert "red" not in (caught.value.details() or "").lower()
    assert not b.store.ingested_files()
    done = _upload(b, "referee", "Red.mul", b.files["red"].read_bytes())
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED


def test_a_side_that_lost_every_unit_uploads_its_own_record(battle: Battle) -> None:
    # Ruling BR-1: a record in which every unit of a side is destroyed is that side's own view,
    # so its side token may upload it (before, such a record was no side's view and only the
    # referee could). L138: "The MechWarrior has ejected" makes the Griffin a wreck.
    b = battle
    after = e2e._after(left_arm=4)
    r1 = after["r1"]
    r1 = replace(r1, crew=replace(r1.crew, ejected=True))
    wiped = builders.record(
        [
            e2e._in(r1, Section.SALVAGE),
            e2e._in(after["r2"], Section.SALVAGE),
            e2e._in(after["b1"], Section.SALVAGE),
            e2e._in(after["b2"], Section.SALVAGE),
            e2e._in(after["b3"], Section.RETREATED),
        ]
    ).encode()
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "blue", "Red.mul", wiped)
    assert reason_of(caught.value) == "not_your_file"
    done = _upload(b, "red", "Red.mul", wiped)
    assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
    ref = b.clients["referee"]
    pending = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id), metadata=ref.md
    )
    assert json.loads(pending.battles[0].detail_json)["sides_reported"] == ["red"]


def test_uploads_are_stored_under_their_hash_never_the_clients_name(battle: Battle) -> None:
    b = battle
    data = b.files["red"].read_bytes()
    _upload(b, "red", "../../../../tmp/evil.mul", data)
    import hashlib

    assert sorted(p.name for p in b.uploads.iterdir()) == [
        f"{hashlib.sha256(data).hexdigest()}.mul"
    ]
    assert not Path("/tmp/evil.mul").exists()


HOSTILE = b"""<?xml version="1.0"?>
<!DOCTYPE unit [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<unit><entity chassis="&xxe;" model="x" type="Mek"/></unit>"""


def test_hostile_and_oversized_uploads_are_refused(battle: Battle) -> None:
    b = battle
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "red", "evil.mul", HOSTILE)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(caught.value) == "file_refused"
    assert "root:" not in (caught.value.details() or "")
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "red", "big.mul", b"<unit>" + b" " * (300 * 1024) + b"</unit>")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(caught.value) == "file_too_large"
    assert [f for f, _ in field_violations(caught.value)] == ["content"]
    assert not b.uploads.exists() or not any(b.uploads.iterdir())


def test_a_file_of_another_campaign_is_refused(battle: Battle) -> None:
    b = battle
    foreign = (
        Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "bob.mul"
    ).read_bytes()
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "red", "bob.mul", foreign)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    # A side is told only that the units are not its own (the same as for the enemy's file);
    # the referee is told the file belongs to no unit of the campaign.
    assert reason_of(caught.value) == "not_your_file"
    with pytest.raises(grpc.RpcError) as caught:
        _upload(b, "referee", "bob.mul", foreign)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "file_not_for_campaign"


def test_sides_cannot_read_a_battle_they_did_not_fight(battle: Battle) -> None:
    b = battle
    stubs = b.clients["blue"]
    with pytest.raises(grpc.RpcError) as caught:
        stubs.campaigns.GetBattleReport(
            campaign_pb2.GetBattleReportRequest(campaign_id=b.campaign_id, battle_id="nope"),
            metadata=stubs.md,
        )
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_an_upload_naming_one_campaign_never_changes_another(battle: Battle) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "daemon"))
    from daemon_helpers import setup_campaign

    b = battle
    other = setup_campaign(b.store)  # a second campaign whose units the real record carries
    record = (Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "bob.mul").read_bytes()
    before = (b.store.last_seq(b.campaign_id), b.store.last_seq(other))
    referee = b.clients["referee"]
    with pytest.raises(grpc.RpcError) as caught:
        referee.battles.UploadBattleFile(
            battle_pb2.UploadBattleFileRequest(
                campaign_id=b.campaign_id, file_name="bob.mul", content=record
            ),
            metadata=referee.md,
        )
    # Named for campaign A, it fits campaign B: refused, and B is not touched either.
    assert reason_of(caught.value) == "file_not_for_campaign"
    assert (b.store.last_seq(b.campaign_id), b.store.last_seq(other)) == before
    done = referee.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(campaign_id=other, file_name="bob.mul", content=record),
        metadata=referee.md,
    )
    assert done.last_seq == b.store.last_seq(other) > before[1]
    assert b.store.last_seq(b.campaign_id) == before[0]


def test_an_upload_crafted_to_be_slow_to_read_is_refused_as_hostile(battle: Battle) -> None:
    # 20,000 attributes on one element: ~200 KB, once seconds of CPU inside one lxml call
    # (element.items() is quadratic) while the server's other calls waited.
    attrs = b" ".join(b'a%d="x"' % i for i in range(20_000))
    crafted = b'<record><entity chassis="A" model="B" type="Biped" ' + attrs + b"/></record>"
    assert len(crafted) < 256 * 1024
    with pytest.raises(grpc.RpcError) as caught:
        _upload(battle, "red", "slow.mul", crafted)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(caught.value) == "file_refused"
    assert "over the 64 limit" in (caught.value.details() or "")


def test_uploads_wait_for_a_parsing_slot_without_holding_a_worker(battle: Battle) -> None:
    """Uploads are parsed a few at a time; the rest wait on the event loop, so the server keeps
    answering, and an upload whose deadline passes while it waits is never parsed."""
    import asyncio

    b = battle
    b.server.services.upload_slots = asyncio.Semaphore(0)  # every slot taken, for good
    stubs = b.clients["red"]
    request = battle_pb2.UploadBattleFileRequest(
        campaign_id=b.campaign_id, file_name="late.mul", content=b.files["red"].read_bytes()
    )
    future = stubs.battles.UploadBattleFile.future(request, metadata=stubs.md, timeout=2)
    # Meanwhile every worker is free for the other calls.
    pending = b.clients["referee"].battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id),
        metadata=b.clients["referee"].md,
    )
    assert list(pending.battles) == []
    with pytest.raises(grpc.RpcError) as caught:
        future.result()
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert b.store.ingested_files(b.campaign_id) == []
    assert b.store.quarantined_files() == []


def test_a_burst_of_the_same_hostile_upload_is_judged_once(battle: Battle) -> None:
    """Eight clients send the same crafted file at once: it is parsed, refused and copied
    into quarantine once; the others are told it is already quarantined."""
    from concurrent.futures import ThreadPoolExecutor

    b = battle
    chain = b"<d>" * 30 + b"</d>" * 30
    crafted = b"<record>" + chain * 1_000 + b"<d>" * 40 + b"</d>" * 40 + b"</record>"
    assert len(crafted) < 256 * 1024

    def send(i: int) -> str:
        try:
            got = _upload(b, ("red", "blue")[i % 2], f"burst-{i}.mul", crafted)
        except grpc.RpcError as exc:
            return reason_of(exc)
        return battle_pb2.UploadOutcome.Name(got.outcome)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert answers.count("file_refused") == 1, answers
    assert answers.count("UPLOAD_OUTCOME_QUARANTINED") == 7, answers
    copies = [p for p in (b.uploads.parent / "quarantine").iterdir() if p.suffix == ".mul"]
    assert len(copies) == 1


def test_whether_a_side_retires_is_unset_while_a_unit_of_it_has_no_bv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # L413 "When a force reaches 50% of its starting BV, it retires from the field": told on a
    # partial sum it would be a plausible wrong answer, so GetBattleReport leaves it unset while
    # a unit of the side has no BV (R-VP-6); with every BV known it is set.
    for bv in (False, True):
        with _served(tmp_path / str(bv), capsys, bv=bv) as b:
            for who in ("red", "blue"):
                _upload(b, who, f"{who}.mul", b.files[who].read_bytes())
            ref = b.clients["referee"]
            (pending,) = ref.battles.ListPendingBattles(
                battle_pb2.ListPendingBattlesRequest(campaign_id=b.campaign_id), metadata=ref.md
            ).battles
            ref.battles.SetRefereeInputs(
                battle_pb2.SetRefereeInputsRequest(campaign_id=b.campaign_id,
                                                   battle_id=pending.battle_id,
                                                   field_controller_side_id="red"),
                metadata=ref.md,
            )  # fmt: skip
            got = ref.campaigns.GetBattleReport(
                campaign_pb2.GetBattleReportRequest(
                    campaign_id=b.campaign_id, battle_id=pending.battle_id
                ),
                metadata=ref.md,
            )
            assert got.report.status == "resolved"
            told = {s.side_id: s.HasField("retires") for s in got.report.side_outcomes}
            assert told == {"red": bv, "blue": bv}, (bv, told)
            sides = json.loads(got.report_json)["side_outcomes"]
            assert all((s["retires"] is None) is (not bv) for s in sides)
