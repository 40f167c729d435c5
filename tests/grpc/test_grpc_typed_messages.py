"""Typed commands, events and views: the committed schema is current, every value of every rule
set fits its message, and a real client plays a campaign with typed messages only."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from console_script import mekref
from grpc_helpers import Stubs, console_serve

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.proto_schema import snake, write_all
from mekref.rules.codec import to_jsonable
from mekref.rules.messages import message_to_json
from mekref.rules.registry import RULESET_NAMES, ruleset
from mekref.rules.schema import command_schema
from mekref.v1 import event_pb2, objectives_pb2, rules_pb2, rulesets_pb2

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "cli" / "data" / "scripts"
Obj = objectives_pb2.Objectives


def test_the_committed_rule_set_protos_are_current() -> None:
    # The .proto files are generated from the dataclasses; a changed dataclass without
    # `make proto-schema` would ship a contract that no longer says what the server sends.
    done = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.grpc.proto_schema", "--check", str(ROOT / "proto")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_field_numbers_survive_a_change_of_the_dataclass(tmp_path: Path) -> None:
    # Numbers are the wire contract: a field that goes keeps its number reserved, and the
    # fields that stay keep theirs, whatever the order of the dataclass.
    folder = tmp_path / "mekref" / "v1"
    folder.mkdir(parents=True)
    assert write_all(tmp_path)  # written from nothing
    path = folder / "objectives.proto"
    text = path.read_text()
    assert "    // squads\n    repeated SquadSpec squads = 5;" in text
    # As if an older dataclass had had a field 'retired' numbered 6 and squads numbered 9.
    older = text.replace("repeated SquadSpec squads = 5;", "repeated SquadSpec squads = 9;")
    older = older.replace(
        "optional string table_width = 6 [deprecated = true];",
        "optional string table_width = 6 [deprecated = true];\n    int64 gone = 12;",
    )
    path.write_text(older)
    write_all(tmp_path)
    again = path.read_text()
    assert "repeated SquadSpec squads = 9;" in again
    block = again[again.index("message SetUpScenario {") :]
    block = block[: block.index("\n  }")]
    assert "reserved 12;" in block and "gone" not in block


def _script(name: str) -> list[dict[str, Any]]:
    folder = SCRIPTS / name
    files = [next(folder.glob("start-*.json"))]
    files += sorted(p for p in folder.glob("*.json") if not p.name.startswith("start-"))
    return [json.loads(p.read_text()) for p in files]


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_command_example_goes_through_its_message_unchanged(name: str) -> None:
    game = ruleset(name)
    for cls in game.commands.classes():
        example = command_schema(cls).example
        command = game.commands.from_json(example)
        envelope = typed.module_of(game).Command()
        member = getattr(envelope, snake(cls.TYPE))
        typed.fill(member, cls, to_jsonable(command)).SetInParent()
        assert game.commands.from_json(typed.command_json(game, envelope)) == command, cls.TYPE


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_event_and_view_fits_its_message_for_every_side(name: str) -> None:
    game = ruleset(name)
    state = game.initial_state()
    events = []
    for data in _script(name):
        done, state = game.execute(state, game.commands.from_json(data))
        events += done
    sides: list[str | None] = [None, *game.sides_of(state)]
    for event in events:
        for side in sides:
            seen = game.event_for(state, message_to_json(event), side)
            if seen is not None:
                typed.event_message(game, seen)
    for side in sides:
        typed.view_message(game, game.view_for(state, side), side)


def test_a_cut_that_does_not_fit_its_message_is_an_error_not_a_gap() -> None:
    game = ruleset("succession_wars")
    with pytest.raises(typed.TypedError, match=r"SWCardsDrawn\.deck: expected a list"):
        typed.event_message(
            game,
            {"type": "SWCardsDrawn", "house": "Davion", "cards": [], "deck": {"cards_left": 3},
             "discard": []},
        )  # fmt: skip


# -- a real client against `mekref serve` ----------------------------------------------------


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stubs]:
    db = str(tmp_path_factory.mktemp("typed") / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "store", "--seed", "1",
                  "--side", "x:X", "--side", "y:Y")  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = mekref("token", "create", "--db", db, "--referee").stdout.strip()
    with console_serve(db) as port:
        stubs = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), token)
        yield stubs
        stubs.close()


def _objectives_setup() -> rulesets_pb2.RuleSetCommand:
    return rulesets_pb2.RuleSetCommand(
        objectives=Obj.Command(
            obj_set_up_scenario=Obj.SetUpScenario(
                seed="typed",
                sides=["red", "blue"],
                objectives=[
                    Obj.ObjectiveSpec(objective_id="hill", mobile=False),
                    Obj.ObjectiveSpec(objective_id="crate", mobile=True),
                ],
                squads=[
                    Obj.SquadSpec(squad_id="red-tank", side="red", types=["vehicle"]),
                    Obj.SquadSpec(squad_id="blue-inf", side="blue", types=["infantry"]),
                ],
            )
        )
    )


def test_a_client_plays_with_typed_messages_only(referee: Stubs) -> None:
    md = referee.md
    started = referee.rules.StartCampaign(
        rules_pb2.StartCampaignRequest(
            name="Hill fight", ruleset="objectives", command=_objectives_setup()
        ),
        metadata=md,
    )
    cid = started.campaign.campaign_id
    first = started.events[0].event.objectives
    assert first.WhichOneof("event") == "obj_scenario_set_up"
    assert list(first.obj_scenario_set_up.sides) == ["red", "blue"]
    round_one = rulesets_pb2.RuleSetCommand(
        objectives=Obj.Command(obj_start_round=Obj.StartRound(round=1))
    )
    done = referee.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command=round_one), metadata=md
    )
    assert [e.event.objectives.WhichOneof("event") for e in done.events] == ["obj_round_started"]
    claim = rulesets_pb2.RuleSetCommand(
        objectives=Obj.Command(
            obj_claim=Obj.Claim(objective_id="hill", squad_id="red-tank", enemies_qualify=False)
        )
    )
    claimed = referee.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command=claim), metadata=md
    )
    assert claimed.events and claimed.events[0].event.WhichOneof("rule_set") == "objectives"
    view = referee.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=md)
    whole = view.view.objectives.whole
    assert whole.objectives["hill"].objective_id == "hill"
    assert whole.objectives["hill"].claimed_by == "red"
    side = referee.rules.GetView(
        rules_pb2.GetViewRequest(campaign_id=cid, side_id="blue"), metadata=md
    )
    assert side.view.objectives.WhichOneof("view") == "side" and not side.view.objectives.side.seed
    stream = referee.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=md
    )
    kinds = [m.event.event.objectives.WhichOneof("event") for m in stream]
    assert kinds[:2] == ["obj_scenario_set_up", "obj_round_started"] and len(kinds) >= 3


def test_a_typed_command_of_another_rule_set_or_both_forms_are_refused(referee: Stubs) -> None:
    md = referee.md
    started = referee.rules.StartCampaign(
        rules_pb2.StartCampaignRequest(name="Refusals", ruleset="objectives",
                                       command=_objectives_setup()),
        metadata=md,
    )  # fmt: skip
    cid = started.campaign.campaign_id
    wrong = rulesets_pb2.RuleSetCommand()
    wrong.succession_wars.sw_end_phase.SetInParent()
    with pytest.raises(grpc.RpcError) as caught:
        referee.rules.ExecuteCommand(
            rules_pb2.ExecuteCommandRequest(campaign_id=cid, command=wrong), metadata=md
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "a succession_wars command for a objectives campaign" in (caught.value.details() or "")
    both = rules_pb2.ExecuteCommandRequest(
        campaign_id=cid,
        command=rulesets_pb2.RuleSetCommand(
            objectives=Obj.Command(obj_start_round=Obj.StartRound(round=1))
        ),
        command_json='{"type": "OBJStartRound", "round": 1}',
    )
    with pytest.raises(grpc.RpcError) as caught:
        referee.rules.ExecuteCommand(both, metadata=md)
    assert "not both" in (caught.value.details() or "")
