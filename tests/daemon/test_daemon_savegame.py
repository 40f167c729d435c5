"""A MegaMek savegame as a battle result, through the console script and a real ``mekref serve``.

The campaign holds the real savegame's units (the Eclipse player's two 'Meks, the Raiders'
hovercraft; TripWire has no ProtoMeks, so the Minotaur is not a campaign unit). The real file
(round 0, deployment phase) is a game in progress: it is held, never applied or quarantined.
The same game at its end (derived in memory, see tests/savegame_variants.py) is applied once,
as every side's view, and resolves when the referee says who holds the field.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from console_script import MEKREF, mekref
from daemon_helpers import Serve, ingested, status_json, wait_until
from lxml import etree
from savegame_variants import FIXTURE, ended_game, gz

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import open_store
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
)
from mekref.rules.tripwire.state import CampaignState

REPTAR = "2069bbd4-dbd5-47cb-9cc8-c1fe3daa2f35"
HAWK = "a84570f0-cc77-427b-8d7e-7bd3b6c96fbf"
BANDIT = "deb6bf20-a668-4754-bd9e-a3705d5b9840"
BANDIT_CREW = "dd41ce43-5685-416a-a9e4-287d26027653"
HAWK_PILOT = "652f7039-4204-492d-97a2-3d4adfa041ff"


def _unit(uid: str, chassis: str, model: str, pilot: str, name: str, kind: UnitKind) -> ForceUnit:
    return ForceUnit(
        unit_id=uid,
        chassis=chassis,
        model=model,
        kind=kind,
        tonnage=Fraction(50),
        bv=1000,
        crew=(CrewSkills(person_id=pilot, name=name, gunnery=3, piloting=4),),
    )


def _force(*units: ForceUnit) -> ForceDescription:
    lance = Lance(name="All", units=units)
    return ForceDescription(
        companies=(Company(name="Alpha", role=CompanyRole.MEK_COMPANY, lances=(lance,)),)
    )


def make_campaign(db: Path) -> str:
    note = RefereeNote(referee="ref", reason="test forces")
    with open_store(str(db)) as store:
        runner = CampaignRunner(store)
        cid = runner.create(
            CreateCampaign(
                actor="ref",
                name="Savegame campaign",
                ruleset="tripwire",
                seed="7",
                sides=(
                    SideSpec(side_id="eclipse", name="Eclipse"),
                    SideSpec(side_id="raiders", name="Raiders"),
                ),
            )
        ).campaign_id
        eclipse = _force(
            _unit(REPTAR, "Reptar MilitiaMech", "EPT-C-1",
                  "e2a97723-571e-4060-95b0-5e1c7cf64766", "Vasil Orhan", UnitKind.MEK),
            _unit(HAWK, "Stooping Hawk", "G", HAWK_PILOT, "Dolores Strunz", UnitKind.MEK),
        )  # fmt: skip
        raiders = _force(
            _unit(BANDIT, "Bandit Hovercraft", "Prime", BANDIT_CREW, "Jung-kyoo Iwata",
                  UnitKind.COMBAT_VEHICLE),
        )  # fmt: skip
        for side, force in (("eclipse", eclipse), ("raiders", raiders)):
            runner.execute(
                cid, ImportForce(actor="ref", side_id=side, force=force, accept_unchecked=note)
            )
    return cid


def _state(db: Path, cid: str) -> CampaignState:
    with open_store(str(db)) as store:
        state = CampaignRunner(store).load(cid).state
    assert isinstance(state, CampaignState)
    return state


def test_savegames_through_battle_ingest(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    cid = make_campaign(db)
    # A game in progress: held with its reason, nothing applied, nothing quarantined.
    autosave = tmp_path / "Round-0-autosave.sav.gz"
    shutil.copyfile(FIXTURE, autosave)
    held = mekref("battle", "ingest", "--db", str(db), str(autosave))
    assert held.returncode != 0
    assert "held: game in progress (round 0, deployment phase)" in held.stderr
    status = json.loads(mekref("status", "--db", str(db), "--json").stdout)
    assert [Path(u["path"]).name for u in status["savegames_waiting"]] == [autosave.name]
    assert status["unmatched"] == [] and status["quarantined"] == [] and status["ingested"] == []
    # --game-over is the referee's word.
    refused = mekref("battle", "ingest", "--db", str(db), str(autosave), "--game-over")
    assert refused.returncode != 0 and "--referee" in refused.stderr
    # The game at its end: every side's view, so only control of the field is missing.
    final = tmp_path / "final.sav.gz"
    final.write_bytes(gz(ended_game()))
    done = mekref("battle", "ingest", "--db", str(db), str(final), "--control", "eclipse")
    assert done.returncode == 0, done.stderr
    assert "savegame: every side's view" in done.stdout
    assert "not in the campaign: Minotaur 4" in done.stdout
    assert "resolved" in done.stdout
    state = _state(db, cid)
    fates = state.battles.fates
    assert fates[REPTAR] is Fate.DAMAGED
    assert fates[HAWK] is Fate.DESTROYED_REPAIRABLE
    assert fates[BANDIT] is Fate.RETREATED
    assert state.people[HAWK_PILOT].hits == 3
    # The hovercraft's crew killed the Stooping Hawk (the Minotaur is no campaign unit).
    assert state.battles.kills.get(BANDIT_CREW) == 2
    again = mekref("battle", "ingest", "--db", str(db), str(final))
    assert again.returncode == 0 and "already ingested" in again.stdout
    # inspect shows the savegame like a record, plus the game and the positions.
    shown = mekref("inspect", str(final), "--json")
    assert shown.returncode == 0, shown.stderr
    payload = json.loads(shown.stdout)
    assert payload["root"] == "savegame"
    assert payload["savegame"]["game_over"] is True
    sections = {u["chassis"]: u["section"] for u in payload["units"]}
    assert sections == {
        "Reptar MilitiaMech": "survivors",
        "Bandit Hovercraft": "retreated",
        "Stooping Hawk": "salvage",
        "Minotaur": "devastated",
    }
    positions = {e["unit"]: e["position"] for e in payload["savegame"]["entities"]}
    assert positions["Reptar MilitiaMech EPT-C-1 (Eclipse)"] == [5, 15]


def test_serve_watches_savegames(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    cid = make_campaign(db)
    savegames = tmp_path / "savegames"
    savegames.mkdir()
    serve = Serve(str(db), [savegames], tmp_path / "quarantine", tmp_path / "serve.log", fake=False)
    serve.start()
    try:
        shutil.copyfile(FIXTURE, savegames / "Round-1-autosave_2026-12-02.sav.gz")
        wait_until(lambda: status_json(str(db))["savegames_waiting"], "the autosave held")
        final = gz(ended_game())
        (savegames / "victory.sav.gz").write_bytes(final)
        wait_until(lambda: ingested(str(db), cid), "the final savegame applied")
        # The same bytes under another name: applied once only.
        (savegames / "victory-copy.sav.gz").write_bytes(final)
        wait_until(lambda: serve.events("file.already_applied"), "the copy recognised")
        status = status_json(str(db))
        assert len(status["ingested"]) == 1
        assert status["quarantined"] == []
        [waiting] = status["waiting"]
        assert waiting["sides_reported"] == ["eclipse", "raiders"]
        assert [Path(u["path"]).name for u in status["savegames_waiting"]] == [
            "Round-1-autosave_2026-12-02.sav.gz"
        ]
    finally:
        assert serve.stop() == 0


def test_a_savegame_uploaded_over_grpc(tmp_path: Path) -> None:
    import grpc

    from mekref.daemon.app import App
    from mekref.daemon.config import ServeConfig
    from mekref.daemon.grpc.server import GrpcServer, ServerOptions
    from mekref.daemon.grpc.tokens import Role
    from mekref.v1 import battle_pb2, battle_pb2_grpc

    db = tmp_path / "c.db"
    cid = make_campaign(db)
    config = ServeConfig(db=str(db), quarantine=tmp_path / "quarantine")
    app = App(config, open_store(str(db)))
    server = GrpcServer(app.pipeline, app.tokens, "127.0.0.1:0", options=ServerOptions())
    port = server.start()
    secret = app.tokens.issue(Role.REFEREE).secret
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    stub = battle_pb2_grpc.BattleServiceStub(channel)
    md = (("authorization", f"Bearer {secret}"),)

    def upload(name: str, content: bytes) -> battle_pb2.UploadBattleFileResponse:
        request = battle_pb2.UploadBattleFileRequest(
            campaign_id=cid, file_name=name, content=content
        )
        return stub.UploadBattleFile(request, metadata=md)

    try:
        held = upload("Round-0-autosave.sav.gz", FIXTURE.read_bytes())
        assert held.outcome == battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED
        assert held.reason.startswith("game in progress (round 0, deployment phase)")
        done = upload("final.sav.gz", gz(ended_game()))
        assert done.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED
        assert done.last_seq >= done.first_seq > 0
        # Broken bytes are the client's error, answered at once; the quarantine keeps them.
        data = FIXTURE.read_bytes()
        with pytest.raises(grpc.RpcError) as info:
            upload("cut.sav.gz", data[: len(data) // 3])
        assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "truncated" in (info.value.details() or "")
    finally:
        channel.close()
        server.stop(1)
        app.close()


def test_the_pipeline_retries_a_half_written_savegame_and_holds_a_game_in_progress(
    tmp_path: Path,
) -> None:
    from mekref.daemon.ingest import Outcome, Pipeline

    db = tmp_path / "c.db"
    make_campaign(db)
    data = gz(ended_game())
    with open_store(str(db)) as store:
        pipeline = Pipeline(store, quarantine_dir=tmp_path / "q")
        half = tmp_path / "victory.sav.gz"
        half.write_bytes(data[: len(data) // 2])
        # MegaMek is still writing: not judged yet while the file may still change...
        early = pipeline.process(half, settled=False)
        assert early.outcome is Outcome.RETRY and "truncated" in (early.reason or "")
        # ...quarantined with the reason once it has settled and is still cut short.
        late = pipeline.process(half)
        assert late.outcome is Outcome.QUARANTINED and late.code == "file_unreadable"
        # A round autosave: held, and not read again while its bytes stay the same.
        autosave = tmp_path / "Round-2-autosave.sav.gz"
        shutil.copyfile(FIXTURE, autosave)
        assert pipeline.process(autosave).outcome is Outcome.WAITING
        assert pipeline.process(autosave).outcome is Outcome.UNCHANGED
        assert [Path(u.path).name for u in store.unmatched_files()] == [autosave.name]
        assert store.quarantined_files()[0].sha256 == late.sha256


def _forged_by_eclipse() -> bytes:
    """The ended game as Eclipse would forge it: the Raiders' hovercraft (which fled the field)
    written as devastated, killed by Eclipse's Reptar."""
    from savegame_variants import _entity, _set, _tree

    root = _tree(ended_game())
    bandit = _entity(root, 4)
    _set(bandit, "removalCondition", str(0x0400))  # devastated
    _set(bandit, "killerId", "2")  # the Reptar
    return gz(etree.tostring(root, encoding="utf-8"))


def test_a_savegame_a_side_uploads_speaks_only_for_that_side(tmp_path: Path) -> None:
    """Issue 33, ruling BR-15, through a real ``mekref serve --grpc`` and side tokens: Eclipse's
    forged savegame is Eclipse's view only. The battle waits for the Raiders; their own file
    (the true savegame, uploaded with their token) decides their hovercraft's fate; Eclipse's
    claim is a conflict for the referee and its kill is not credited."""
    import grpc

    from mekref.v1 import battle_pb2, battle_pb2_grpc

    db = tmp_path / "c.db"
    cid = make_campaign(db)
    tokens = {}
    for who, args in (("referee", ["--referee"]), ("eclipse", ["--side", "eclipse"]),
                      ("raiders", ["--side", "raiders"])):  # fmt: skip
        made = mekref("token", "create", "--db", str(db), *args)
        assert made.returncode == 0, made.stderr
        tokens[who] = made.stdout.strip()
    argv = [str(MEKREF), "serve", "--db", str(db), "--grpc", "127.0.0.1:0", "--log-format", "json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    channel: grpc.Channel | None = None
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), line
        address = "127.0.0.1:" + line.rsplit(":", 1)[1].strip()
        channel = grpc.insecure_channel(address)
        stub = battle_pb2_grpc.BattleServiceStub(channel)
        md = {who: (("authorization", f"Bearer {t}"),) for who, t in tokens.items()}

        def upload(who: str, name: str, content: bytes) -> int:
            request = battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, file_name=name, content=content
            )
            return int(stub.UploadBattleFile(request, metadata=md[who]).outcome)

        assert upload("eclipse", "final.sav.gz", _forged_by_eclipse()) == (
            battle_pb2.UPLOAD_OUTCOME_APPLIED
        )
        (pending,) = stub.ListPendingBattles(
            battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=md["referee"]
        ).battles
        # Eclipse's savegame is not the Raiders' file: the battle waits for theirs.
        assert list(pending.detail.sides_reported) == ["eclipse"]
        assert upload("raiders", "ours.sav.gz", gz(ended_game())) == (
            battle_pb2.UPLOAD_OUTCOME_APPLIED
        )
        stub.SetRefereeInputs(
            battle_pb2.SetRefereeInputsRequest(
                campaign_id=cid, battle_id=pending.battle_id, field_controller_side_id="eclipse"
            ),
            metadata=md["referee"],
        )
    finally:
        if channel is not None:
            channel.close()
        proc.terminate()
        proc.wait(timeout=30)
    state = _state(db, cid)
    assert state.battles.fates[BANDIT] is Fate.RETREATED  # as the Raiders' own file says
    assert state.units[BANDIT].side_id == "raiders"
    reptar_pilot = state.units[REPTAR].crew[0]
    assert state.battles.kills.get(reptar_pilot, 0) == 0
    report = json.loads(mekref("report", "--db", str(db), "--json").stdout)
    (battle,) = report["battles"]
    assert any("eclipse says devastated" in c for c in battle["conflicts"]), battle["conflicts"]
