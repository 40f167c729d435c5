"""A text field whose values are a closed list travels as a protobuf enum beside its deprecated
text (``types_enum`` beside ``types``, ``status_enum`` beside ``status``), both ways, against a
real ``mekref serve --grpc`` (docs/api.md, "How values are written"). The enum's zero value
(``..._UNSPECIFIED``) is "not given": the text then says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from test_grpc_every_ruleset import SCRIPTS, Served, serve_five

from mekref.daemon.grpc import typed
from mekref.v1 import house_rules_pb2, objectives_pb2, rules_pb2

UnitType = objectives_pb2.Objectives.UnitType
ObjectiveStatus = objectives_pb2.Objectives.ObjectiveStatus


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_five(tmp_path_factory)


def _set_up(first_squad: dict[str, Any]) -> rules_pb2.StartCampaignRequest:
    """The scripted objectives set-up, its first squad's ``types`` given as ``first_squad``."""
    data = json.loads(next((SCRIPTS / "objectives").glob("start-*.json")).read_text())
    del data["type"]
    squad = {k: v for k, v in data["squads"][0].items() if k != "types"}
    data["squads"][0] = {**squad, **first_squad}
    request = rules_pb2.StartCampaignRequest(name="enum squads", ruleset="objectives")
    json_format.ParseDict({"command": {"objectives": {"obj_set_up_scenario": data}}}, request)
    return request


def test_an_enum_given_in_a_command_comes_back_as_enum_and_text(served: Served) -> None:
    ref = served.referee
    given = {"types_enum": ["UNIT_TYPE_INFANTRY", "UNIT_TYPE_TRANSPORT"]}
    made = ref.rules.StartCampaign(_set_up(given), metadata=ref.md)
    cid = made.campaign.campaign_id
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    state = whole.view.objectives.whole
    squad = state.squads["red-inf"]  # the set-up's first squad
    assert list(squad.types) == ["infantry", "transport"]  # the deprecated text, the same
    assert [UnitType.Name(t) for t in squad.types_enum] == given["types_enum"]
    # Every squad and objective has both: a value the rules hold is never only text.
    for other in state.squads.values():
        assert len(other.types_enum) == len(other.types) > 0
    for objective in state.objectives.values():
        assert ObjectiveStatus.Name(objective.status_enum) == (
            "OBJECTIVE_STATUS_" + objective.status.upper()
        )
    # Read back as the web pages read it: the rules' text, from the enum.
    back = typed.view_json(whole.view)
    assert ["infantry", "transport"] in [s["types"] for s in back["squads"].values()]


def test_the_event_carries_the_enum_too(served: Served) -> None:
    ref = served.referee
    made = ref.rules.StartCampaign(_set_up({"types": ["vehicle"]}), metadata=ref.md)
    outcome = made.events[0].event.objectives.WhichOneof("event")
    event = getattr(made.events[0].event.objectives, outcome or "")
    firsts = [list(s.types_enum) for s in event.squads]
    assert firsts[0] == [UnitType.Value("UNIT_TYPE_VEHICLE")]


@pytest.mark.parametrize(
    ("first_squad", "words"),
    [
        ({"types": ["vehicle"], "types_enum": ["UNIT_TYPE_INFANTRY"]}, "two different"),
        ({"types_enum": [7]}, "none of its values"),
        ({"types_enum": ["UNIT_TYPE_UNSPECIFIED"]}, "none of its values"),
    ],
)
def test_an_enum_that_disagrees_or_is_no_value_is_refused(
    served: Served, first_squad: dict[str, Any], words: str
) -> None:
    ref = served.referee
    with pytest.raises(grpc.RpcError) as refused:
        ref.rules.StartCampaign(_set_up(first_squad), metadata=ref.md)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert words in (refused.value.details() or "")


def _morale_test(served: Served, test: dict[str, Any]) -> rules_pb2.ExecuteCommandResponse:
    """The house rules' morale test (HRMoraleTest) given as ``test``, by the referee."""
    ref = served.referee
    request = rules_pb2.ExecuteCommandRequest(campaign_id=served.campaigns["house_rules"])
    command = {"house_rules": {"hr_morale_test": {"unit_id": "u-enum", "turn": 1, **test}}}
    json_format.ParseDict({"command": command}, request)
    return ref.rules.ExecuteCommand(request, metadata=ref.md)


def test_a_list_once_kept_as_text_travels_as_enum_too(served: Served) -> None:
    """A closed list that was text only (the house rules' morale skill and result): the command
    gives the enum, the event answers with enum and text; an empty skill is not a member."""
    done = _morale_test(
        served,
        {"skill_enum": "MORALE_TEST_COMMAND_SKILL_VETERAN",
         "nationality_enum": "MORALE_TEST_COMMAND_NATIONALITY_DAVION"},
    )  # fmt: skip
    tested = done.events[0].event.house_rules.hr_morale_tested.test
    assert tested.result  # a band key, "rout" ... "fight_to_the_death"
    Result = house_rules_pb2.HouseRules.MoraleTestResult
    assert Result.Name(tested.result_enum) == "MORALE_TEST_RESULT_" + tested.result.upper()
    assert tested.reasons[0] == "Veteran"  # the skill row the enum named
    names = house_rules_pb2.HouseRules.MoraleTestCommandSkill.keys()
    assert "MORALE_TEST_COMMAND_SKILL_" not in names  # "" (the pilot's rank) is the zero


@pytest.mark.parametrize(
    ("test", "words"),
    [
        ({"skill": "Green", "skill_enum": "MORALE_TEST_COMMAND_SKILL_ELITE"}, "two different"),
        ({"skill_enum": 9}, "none of its values"),
    ],
)
def test_a_new_enum_that_disagrees_or_is_no_value_is_refused(
    served: Served, test: dict[str, Any], words: str
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        _morale_test(served, {**test, "nationality": "Davion"})
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert words in (refused.value.details() or "")


def test_an_empty_text_allowed_as_not_given_is_the_zero_not_a_value() -> None:
    """A list that allows "" for "not given" (a morale test's skill, a repair's rating, a
    maintenance check's quality, a region's capital) still gets its enum: "" is its
    ``_UNSPECIFIED``, both ways."""
    from mekref.daemon.grpc.shapes import enum_names, enum_sibling, record_fields
    from mekref.rules.house_rules.commands import MoraleTestCommand

    skill = next(f for f in record_fields(MoraleTestCommand) if f.name == "skill")
    sibling = enum_sibling(skill.shape)
    assert sibling is not None and sibling.enum is not None  # type: ignore[union-attr]
    names = enum_names(sibling.enum)  # type: ignore[union-attr]
    assert names is not None and "" not in names and names["Veteran"].endswith("_VETERAN")
    Command = house_rules_pb2.HouseRules.MoraleTestCommand
    message = typed.fill(Command(), MoraleTestCommand, {"unit_id": "u", "turn": 1, "skill": ""})
    assert message.skill_enum == 0
    read = typed.read(Command(unit_id="u", turn=1, nationality="Davion"), MoraleTestCommand)
    assert "skill" not in read or read["skill"] == ""
