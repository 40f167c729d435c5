"""Fog of war, channel by channel, against a real ``mekref serve --grpc`` with two side tokens.

The Ginestra campaign plays two days; on day 2 the rebels' Bravo meets the loyalists' hover
unit, each side with a secret tactical objective; then the battle is fought (the referee's saved
game uploaded) and resolved. Each side's scenario export (the sheet and
the MUL) is the reference of what that side may know about the engagement: no other per-side
channel (the event stream, the side view, the rule-set view, the dice log, the battle report,
error messages) may
carry a fact the export hides: the enemy's objective, formations, arrival turns, aerospace or
notes (a Guard order's hidden deployment, an ambusher's choice).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from grpc_helpers import Stubs, open_test_app

from mekref.daemon.grpc.tokens import Role
from mekref.v1 import battle_pb2, campaign_pb2, event_pb2, orders_pb2, rules_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn_world")
setup = pytest.importorskip("mekref.rules.tripwire.turn.setup")
from console_script import MEKREF  # noqa: E402

Order = orders_pb2.FormationOrder
SIDES = ("loyalist", "rebel")


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    target: str
    cid: str
    tokens: dict[str, str]  # "referee", "loyalist", "rebel"
    clients: dict[str, Stubs]


def _create(db: str) -> tuple[str, dict[str, str]]:
    from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, OpenPool, SideSpec
    from mekref.rules.tripwire.state import PoolKind

    app = open_test_app(db)
    try:
        runner = app.runner
        cid = runner.create(
            CreateCampaign(
                actor=world.REFEREE, name="Ginestra", ruleset="tripwire", seed="ginestra-grpc",
                sides=(SideSpec(side_id="loyalist", name="Loyalists"),
                       SideSpec(side_id="rebel", name="Rebels")),
            )
        ).campaign_id  # fmt: skip
        FS = setup.FormationSpec
        for command in (
            ImportForce(actor="ref", side_id="loyalist", force=world._force(world.LOYALIST),
                        accept_unchecked=world.NOTE),
            ImportForce(actor="ref", side_id="rebel", force=world._force(world.REBEL),
                        accept_unchecked=world.NOTE),
            setup.StartStrategicMap(
                actor="ref", map_name="ginestra", attacker="rebel", defender="loyalist",
                mobility=world.mobility(),
                control=(("Bagnorgeio", "loyalist"), ("Forward Deployment Base", "rebel")),
            ),
            OpenPool(actor="ref", pool_id="cap", side_id="loyalist", name="Bagnorgeio",
                     kind=PoolKind.LOCATION, location="Bagnorgeio", opening_balance=50),
            setup.PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=(
                FS(formation_id="alpha", name="Alpha",
                   unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"), hex="0508"),
                FS(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),
                FS(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
            )),
            setup.PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(
                FS(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),
                FS(formation_id="tanks", name="Tanks", unit_ids=("R-BLD",)),
            )),
        ):  # fmt: skip
            runner.execute(cid, command)
        tokens = {s: app.tokens.issue(Role.SIDE, campaign_id=cid, side_id=s).secret for s in SIDES}
        tokens["referee"] = app.tokens.issue(Role.REFEREE).secret
    finally:
        app.store.close()
    return cid, tokens


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    db = str(tmp_path / "g.db")
    cid, tokens = _create(db)
    yield from serving(tmp_path, db, cid, tokens)


def serving(tmp_path: Path, db: str, cid: str, tokens: dict[str, str]) -> Iterator[Served]:
    """``mekref serve --grpc`` on ``db`` in a process of its own, a client per token; stopped
    with SIGTERM after the test (it must exit 0)."""
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json",
             "--quarantine", str(tmp_path / "q")],
            stdout=out, stderr=out, env={**os.environ, "NO_COLOR": "1"},
        )  # fmt: skip
    target = ""
    deadline = time.monotonic() + 60
    while not target and time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if '"grpc.listening"' in line:
                target = json.loads(line)["address"]
        if proc.poll() is not None:
            raise AssertionError(f"mekref serve exited:\n{log.read_text()}")
        time.sleep(0.1)
    assert target, "mekref serve did not listen"
    clients = {who: Stubs(grpc.insecure_channel(target), t) for who, t in tokens.items()}
    yield Served(proc, target, cid, tokens, clients)
    for stubs in clients.values():
        stubs.close()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0


def _play_two_days(s: Served) -> None:
    loyal, rebel, ref = s.clients["loyalist"], s.clients["rebel"], s.clients["referee"]
    plan = {
        1: (
            [Order(formation_id="alpha", action="move", path=["0607", "0707", "0806"]),
             Order(formation_id="hover", action="move", path=["0711", "0811", "0912", "1012"]),
             Order(formation_id="air", action="guard")],
            [Order(formation_id="bravo", action="orbital_insertion", target="1612"),
             Order(formation_id="tanks", action="orbital_insertion", target="1712")],
        ),
        2: (
            [Order(formation_id="alpha", action="move", path=["0906", "1005", "1105"]),
             Order(formation_id="hover", action="move", path=["1113", "1212", "1313", "1412"],
                   params={"objective": "breakthrough"}),
             Order(formation_id="air", action="guard")],
            [Order(formation_id="bravo", action="move", path=["1512", "1412"],
                   params={"objective": "hold_the_line"}),
             Order(formation_id="tanks", action="rest")],
        ),
    }  # fmt: skip
    for day, (loyal_orders, rebel_orders) in plan.items():
        for stubs, orders in ((loyal, loyal_orders), (rebel, rebel_orders)):
            stubs.orders.SubmitOrders(
                orders_pb2.SubmitOrdersRequest(campaign_id=s.cid, day=day, orders=orders),
                metadata=stubs.md,
            )
        ref.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=s.cid, day=day), metadata=ref.md
        )


def _engagements(value: Any) -> Iterator[dict[str, Any]]:
    """Every engagement setup anywhere in a JSON value (by its shape, wherever it sits)."""
    if isinstance(value, dict):
        if "engagement_id" in value and "objectives" in value:
            yield value
        for v in value.values():
            yield from _engagements(v)
    elif isinstance(value, list):
        for v in value:
            yield from _engagements(v)


def _channels(s: Served, side: str) -> dict[str, Any]:
    """Everything ``side`` can read about the campaign, by channel, as JSON values."""
    c = s.clients[side]
    stream = c.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=s.cid, stop_at_head=True), metadata=c.md
    )
    view = c.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=s.cid), metadata=c.md
    )
    rules_view = c.rules.GetView(rules_pb2.GetViewRequest(campaign_id=s.cid), metadata=c.md)
    dice = c.campaigns.GetDiceLog(
        campaign_pb2.GetDiceLogRequest(campaign_id=s.cid, limit=1000), metadata=c.md
    )
    return {
        "event stream": [json.loads(m.event.payload_json) for m in stream],
        "GetSideView": json.loads(view.view_json),
        "RulesService.GetView": json.loads(rules_view.view_json),
        "GetDiceLog": [r.name for r in dice.rolls],
        # The typed messages carry the same cut (read back into the JSON's shape to check it).
        "typed event stream": [
            dict(_plain(_member(m.event.event.tripwire)), type=m.event.type)
            for m in stream_again(s, c)
        ],
        "typed GetSideView": _plain(view.side_view),
        "typed RulesService.GetView": _plain(rules_view.view.tripwire.side),
    }


def stream_again(s: Served, c: Any) -> list[Any]:
    return list(
        c.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=s.cid, stop_at_head=True), metadata=c.md
        )
    )


def _member(envelope: Any) -> Any:
    """The message a rule set's Event envelope holds."""
    return getattr(envelope, envelope.WhichOneof("event"))


def _plain(message: Any) -> Any:
    """A typed message as the JSON the same value has: fixed tuples (first, second...) and
    one-field wrappers (items) back to lists."""
    data = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )

    def back(value: Any) -> Any:
        if isinstance(value, dict):
            if value and set(value) <= {"first", "second", "third", "fourth"}:
                order = ("first", "second", "third", "fourth")
                return [back(value.get(k)) for k in order if k in value]
            if set(value) == {"items"}:
                return back(value["items"])
            return {k: back(v) for k, v in value.items()}
        if isinstance(value, list):
            return [back(v) for v in value]
        return value

    return back(data)


def _export(s: Served, side: str, eid: str) -> battle_pb2.ExportScenarioResponse:
    c = s.clients[side]
    return c.battles.ExportScenario(
        battle_pb2.ExportScenarioRequest(campaign_id=s.cid, engagement_id=eid), metadata=c.md
    )


def test_no_channel_tells_a_side_what_its_export_hides(served: Served) -> None:
    s = served
    _play_two_days(s)
    ref = s.clients["referee"]
    whole = json.loads(
        ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=s.cid), metadata=ref.md).view_json
    )
    (full,) = whole["strategic"]["engagements"]
    eid = full["engagement_id"]
    assert sorted(full["sides"]) == ["loyalist", "rebel"]
    goals = dict(full["objectives"])
    assert goals == {"loyalist": "breakthrough", "rebel": "hold_the_line"}
    owner = {f: v["side_id"] for f, v in whole["strategic"]["formations"].items()}
    for side in SIDES:
        enemy = next(x for x in SIDES if x != side)
        sheet = _export(s, side, eid).sheet_markdown
        # The export is the reference: own objective shown, the enemy's not.
        assert goals[side].replace("_", " ").capitalize() in sheet
        assert goals[enemy].replace("_", " ").capitalize() not in sheet
        enemy_notes = [n for n in full["notes"] if n.startswith(enemy)]
        channels = _channels(s, side)
        seen_engagements = 0
        for channel, value in channels.items():
            text = json.dumps(value)
            assert goals[enemy] not in text, f"{channel} shows {side} the enemy's objective"
            for note in enemy_notes:
                assert note not in text, f"{channel} shows {side} an enemy note: {note}"
            for e in _engagements(value):
                seen_engagements += 1
                assert dict(e["objectives"]) == {side: goals[side]}, channel
                assert {a["side_id"] for a in e["arrivals"]} <= {side}, channel
                assert {a[0] for a in e["aerospace"]} <= {side}, channel
                assert {owner[f] for f in e["formations"]} == {side}, channel
                assert all(n in sheet for n in e["notes"]), channel
        # The engagement reaches the side on the stream and in both views, cut to its own,
        # as JSON and as typed messages.
        assert seen_engagements == 6, side
    # The referee still sees everything, on the same channels.
    stream = ref.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=s.cid, stop_at_head=True), metadata=ref.md
    )
    payloads = [json.loads(m.event.payload_json) for m in stream]
    (determined,) = [p for p in payloads if p["type"] == "EngagementDetermined"]
    assert dict(determined["engagement"]["objectives"]) == goals
    assert determined["rolls"]


def _fight(s: Served, eid: str) -> str:
    """The battle as the referee's MegaMek game saved it: both sides' exported units in one
    list (nothing was hit), uploaded by the referee, who closes the battle with the field to
    the rebels. Returns the battle id."""
    rebel = _export(s, "rebel", eid).content
    loyal = _export(s, "loyalist", eid).content
    loyal_units = loyal[loyal.index(b"<entity") : loyal.rindex(b"</entity>") + len(b"</entity>")]
    game = rebel.replace(b"</unit>", loyal_units + b"\n</unit>")
    ref = s.clients["referee"]
    got = ref.battles.UploadBattleFile(
        battle_pb2.UploadBattleFileRequest(campaign_id=s.cid, file_name="game.mul", content=game),
        metadata=ref.md,
    )
    assert got.outcome == battle_pb2.UPLOAD_OUTCOME_APPLIED, got.reason
    pending = ref.battles.ListPendingBattles(
        battle_pb2.ListPendingBattlesRequest(campaign_id=s.cid), metadata=ref.md
    )
    (battle,) = pending.battles
    ref.battles.SetRefereeInputs(
        battle_pb2.SetRefereeInputsRequest(
            campaign_id=s.cid, battle_id=battle.battle_id, field_controller_side_id="rebel",
            close_battle=True, reason="one saved game for both sides",
        ),
        metadata=ref.md,
    )  # fmt: skip
    return str(battle.battle_id)


def test_after_the_battle_no_channel_tells_more_either(served: Served) -> None:
    s = served
    _play_two_days(s)
    ref = s.clients["referee"]
    whole = json.loads(
        ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=s.cid), metadata=ref.md).view_json
    )
    (full,) = whole["strategic"]["engagements"]
    goals = dict(full["objectives"])
    battle_id = _fight(s, full["engagement_id"])
    for side in SIDES:
        enemy = next(x for x in SIDES if x != side)
        c = s.clients[side]
        report = c.campaigns.GetBattleReport(
            campaign_pb2.GetBattleReportRequest(campaign_id=s.cid, battle_id=battle_id),
            metadata=c.md,
        )
        assert "field held by rebel" in report.text
        assert json.loads(report.report_json)["status"] == "resolved"
        channels = {**_channels(s, side), "GetBattleReport": json.loads(report.report_json)}
        types = {e["type"] for e in channels["event stream"]}
        assert "EngagementDetermined" in types  # the side still sees its own cut
        _sees_its_own_battle(channels["event stream"], side, battle_id)
        for channel, value in channels.items():
            text = json.dumps(value) + (report.text if channel == "GetBattleReport" else "")
            assert goals[enemy] not in text, f"{channel} shows {side} the enemy's objective"
            for e in _engagements(value):
                assert dict(e["objectives"]) == {side: goals[side]}, channel


def _sees_its_own_battle(stream: list[dict[str, Any]], side: str, battle_id: str) -> None:
    """Ruling BR-17: a side's bot can announce its own battle: the file's arrival (its
    fingerprint, not its content), who holds the field, and its own units, people and VP."""
    battle = {e["type"]: e for e in stream if e.get("battle_id") == battle_id}
    assert set(battle) == {"BattleReportReceived", "BattleControlSet", "BattleResolved"}
    assert set(battle["BattleReportReceived"]["file"]) <= {
        "sha256", "root", "reporting_side", "uploaded_by"
    }  # fmt: skip
    assert battle["BattleControlSet"]["side_id"] == "rebel"
    resolution = battle["BattleResolved"]["resolution"]
    assert resolution["control_side"] == "rebel"
    assert resolution["units"] and {u["side_id"] for u in resolution["units"]} == {side}
    assert {p["side_id"] for p in resolution["people"]} <= {side}
    assert [s["side_id"] for s in resolution["sides"]] == [side]
    assert resolution["conflicts"] == []


def test_a_side_asking_for_the_enemys_cut_learns_nothing(served: Served) -> None:
    s = served
    _play_two_days(s)
    ref = s.clients["referee"]
    whole = json.loads(
        ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=s.cid), metadata=ref.md).view_json
    )
    (full,) = whole["strategic"]["engagements"]
    rebel = s.clients["rebel"]
    for request in (
        battle_pb2.ExportScenarioRequest(
            campaign_id=s.cid, engagement_id=full["engagement_id"], side_id="loyalist"
        ),
        battle_pb2.ExportScenarioRequest(campaign_id=s.cid, engagement_id="no-such-engagement"),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            rebel.battles.ExportScenario(request, metadata=rebel.md)
        details = caught.value.details() or ""
        assert "breakthrough" not in details and "hover" not in details
    with pytest.raises(grpc.RpcError) as caught:
        rebel.rules.GetView(
            rules_pb2.GetViewRequest(campaign_id=s.cid, side_id="loyalist"), metadata=rebel.md
        )
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
