"""A fraction travels as ``mekref.v1.Fraction {num, den}`` beside its deprecated text form
(``table_width_fraction`` beside ``table_width``), both ways, against a real ``mekref serve
--grpc`` (docs/api.md, "How values are written")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from test_grpc_every_ruleset import SCRIPTS, Served, serve_five

from mekref.daemon.grpc import typed
from mekref.v1 import rules_pb2


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_five(tmp_path_factory)


def _set_up(**extra: Any) -> rules_pb2.StartCampaignRequest:
    data = json.loads(next((SCRIPTS / "objectives").glob("start-*.json")).read_text())
    del data["type"]
    data.update(extra)
    request = rules_pb2.StartCampaignRequest(name="measured table", ruleset="objectives")
    command = {"objectives": {"obj_set_up_scenario": data}}
    json_format.ParseDict({"command": command}, request)
    return request


def test_a_fraction_given_as_a_message_comes_back_both_ways(served: Served) -> None:
    ref = served.referee
    request = _set_up(table_width_fraction={"num": 145, "den": 2}, table_depth="48")
    made = ref.rules.StartCampaign(request, metadata=ref.md)
    cid = made.campaign.campaign_id
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    state = whole.view.objectives.whole
    assert (state.table_width_fraction.num, state.table_width_fraction.den) == (145, 2)
    assert state.table_width == "145/2"  # the deprecated text, the same value
    assert (state.table_depth_fraction.num, state.table_depth_fraction.den) == (48, 1)
    legacy = json.loads(whole.view_json)  # the stored JSON kept its text form
    assert (legacy["table_width"], legacy["table_depth"]) == ("145/2", "48/1")
    assert Fraction(state.table_width) == Fraction(145, 2)
    # Read back as the web pages read it: the codec's text ("48/1"), from the Fraction.
    back = typed.view_json(whole.view)
    assert (back["table_width"], back["table_depth"]) == ("145/2", "48/1")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"table_width": "70", "table_width_fraction": {"num": 72, "den": 1}}, "two different"),
        ({"table_width_fraction": {"num": 72, "den": 0}}, "den must be 1 or more"),
    ],
)
def test_a_fraction_given_two_ways_or_with_no_den_is_refused(
    served: Served, extra: dict[str, Any], words: str
) -> None:
    ref = served.referee
    with pytest.raises(grpc.RpcError) as refused:
        ref.rules.StartCampaign(_set_up(**extra), metadata=ref.md)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert words in (refused.value.details() or "")
