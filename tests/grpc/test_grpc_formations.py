"""Reorganising formations over gRPC: ``RulesService.ExecuteCommand`` carries ``TransferUnit``,
``SplitFormation``, ``MergeFormations`` and ``CreateFormation`` like every TripWire command. A
side's token runs its own reorganisation, never the other side's, and the other side does
not see it on the event stream.

L153: "Any forces may be moved between force elements (e.g. Lances)."
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_helpers import Running, Stubs, api_server, open_test_app, reason_of

from mekref.daemon.grpc.tokens import Role
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.v1 import event_pb2, rules_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
world = pytest.importorskip("turn_world")
setup = pytest.importorskip("mekref.rules.tripwire.turn.setup")


@pytest.fixture
def ginestra(tmp_path: Path) -> Iterator[Running]:
    app = open_test_app(str(tmp_path / "g.db"))
    server = api_server(app)
    port = server.start()
    runner = server.services.runner
    cid = runner.create(
        CreateCampaign(actor=world.REFEREE, name="Ginestra", ruleset="tripwire", seed="f",
                       sides=(SideSpec(side_id="loyalist", name="Loyalists"),
                              SideSpec(side_id="rebel", name="Rebels")))
    ).campaign_id  # fmt: skip
    FS = setup.FormationSpec
    for command in (
        ImportForce(actor="ref", side_id="loyalist", force=world._force(world.LOYALIST),
                    accept_unchecked=world.NOTE),
        ImportForce(actor="ref", side_id="rebel", force=world._force(world.REBEL),
                    accept_unchecked=world.NOTE),
        setup.StartStrategicMap(
            actor="ref", map_name="ginestra", attacker="rebel", defender="loyalist",
            mobility=world.mobility(), control=(("Bagnorgeio", "loyalist"),),
        ),
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
    sides = {
        s: app.tokens.issue(Role.SIDE, campaign_id=cid, side_id=s).secret
        for s in ("loyalist", "rebel")
    }
    running = Running(
        server, app.store, app.tokens, port, cid, app.tokens.issue(Role.REFEREE).secret, sides, {}
    )
    yield running
    running.close()
    server.stop(1)
    app.store.close()


def _do(s: Stubs, cid: str, command: dict[str, Any]) -> rules_pb2.ExecuteCommandResponse:
    return s.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(command)),
        metadata=s.md,
    )


def _stream(s: Stubs, cid: str) -> str:
    request = event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True)
    return " ".join(
        f"{a.event.type} {a.event.payload_json}"
        for a in s.events.SubscribeEvents(request, metadata=s.md)
    )


def test_a_side_reorganises_its_own_formations_and_not_the_others(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal, rebel = g.as_side("loyalist"), g.as_side("rebel")
    listed = loyal.rules.ListRuleSets(rules_pb2.ListRuleSetsRequest(), metadata=loyal.md)
    (tripwire,) = [r for r in listed.rule_sets if r.name == "tripwire"]
    wanted = {"CreateFormation", "SplitFormation", "MergeFormations", "TransferUnit",
              "ChangeFormationType"}  # fmt: skip
    assert wanted <= {c.type for c in tripwire.commands}

    move = {"type": "TransferUnit", "side_id": "loyalist", "day": 1, "unit_id": "L-MAX",
            "to_formation_id": "air"}  # fmt: skip
    # The rebels' token cannot give the loyalists' command.
    with pytest.raises(grpc.RpcError) as caught:
        _do(rebel, cid, move)
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert reason_of(caught.value) == "not_your_command"
    # Naming the rebels' formation as their own side: answered like a missing one.
    answers = []
    for fid in ("alpha", "ghost"):
        merge = {"type": "MergeFormations", "side_id": "rebel", "day": 1,
                 "formation_id": fid, "absorbed_id": "bravo"}  # fmt: skip
        with pytest.raises(grpc.RpcError) as caught:
            _do(rebel, cid, merge)
        answers.append((reason_of(caught.value), (caught.value.details() or "").replace(fid, "X")))
    assert answers[0] == answers[1] and answers[0][0] == "not_your_formation"

    # The loyalists' token moves its own hover tank to Air (both in 0610).
    done = _do(loyal, cid, move)
    assert [e.type for e in done.events] == ["FormationsReorganised"]
    view = loyal.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=loyal.md)
    formations = {f["formation_id"]: f for f in json.loads(view.view_json)["formations"]}
    assert formations["air"]["unit_ids"] == ["L-RPR", "L-MAX"] and "hover" not in formations

    # The reorganisation is the loyalists' secret: the rebels' stream does not carry it.
    assert "FormationsReorganised" in _stream(loyal, cid)
    rebel_text = _stream(rebel, cid)
    assert "FormationsReorganised" not in rebel_text and "L-MAX" not in rebel_text
