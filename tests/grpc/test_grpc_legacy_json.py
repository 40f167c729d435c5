"""The deprecated ``*_json`` fields are filled only for a call sending ``mekref-legacy-json: 1``
(docs/api.md, "The deprecated JSON-text fields"), checked against a real ``mekref serve --grpc``
serving a campaign of each rule set."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from grpc_helpers import Stubs, reason_of
from test_grpc_every_ruleset import SIDES, Served, _token, serve_five

from mekref.v1 import campaign_pb2, event_pb2, rules_pb2

LEGACY = ("mekref-legacy-json", "1")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_five(tmp_path_factory)


def _md(stubs: Stubs, *extra: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {stubs.token}"), *extra)


def _events(stubs: Stubs, cid: str, *extra: tuple[str, str]) -> list[Any]:
    request = event_pb2.SubscribeEventsRequest(campaign_id=cid, after_seq=0, stop_at_head=True)
    stream = stubs.events.SubscribeEvents(request, metadata=_md(stubs, *extra), timeout=30)
    return [m.event for m in stream]


@pytest.mark.parametrize("name", sorted(SIDES))
def test_without_the_header_only_the_typed_fields_travel(served: Served, name: str) -> None:
    ref, cid = served.referee, served.campaigns[name]
    view = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=_md(ref))
    assert view.view_json == "" and view.view.WhichOneof("rule_set") == name
    events = _events(ref, cid)
    assert events and all(e.payload_json == "" and e.event.WhichOneof("rule_set") for e in events)
    mine = SIDES[name][0]
    side_view = ref.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=cid, side_id=mine), metadata=_md(ref)
    )
    assert side_view.view_json == ""
    typed_view = "side_view" if name == "tripwire" else "view"
    assert side_view.HasField(typed_view)


@pytest.mark.parametrize("name", sorted(SIDES))
def test_with_the_header_the_json_text_is_the_typed_value(served: Served, name: str) -> None:
    ref, cid = served.referee, served.campaigns[name]
    mine = SIDES[name][0]
    side = served.client(_token(served.db, "--campaign", cid, "--side", mine))
    try:
        for who in (ref, side):
            plain = who.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=_md(who))
            old = who.rules.GetView(
                rules_pb2.GetViewRequest(campaign_id=cid), metadata=_md(who, LEGACY)
            )
            assert json.loads(old.view_json) and old.view == plain.view
            without = _events(who, cid)
            events = _events(who, cid, LEGACY)
            assert [e.event for e in events] == [e.event for e in without]
            assert all(json.loads(e.payload_json)["type"] == e.type for e in events)
        view = side.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=_md(side, LEGACY)
        )
        typed_view = view.side_view if name == "tripwire" else view.view
        assert json.loads(view.view_json) and typed_view.ByteSize() > 0
    finally:
        side.close()


def test_a_command_answers_with_event_json_only_when_asked(served: Served) -> None:
    ref, cid = served.referee, served.campaigns["objectives"]
    outcomes = {}
    for label, extra, round_ in (("plain", (), 2), ("legacy", (LEGACY,), 3)):
        command = {"objectives": {"obj_start_round": {"round": round_}}}
        request = rules_pb2.ExecuteCommandRequest(campaign_id=cid)
        json_format.ParseDict({"command": command}, request)
        outcomes[label] = ref.rules.ExecuteCommand(request, metadata=_md(ref, *extra)).events
    assert outcomes["plain"] and all(o.event_json == "" for o in outcomes["plain"])
    assert outcomes["legacy"] and all(
        json.loads(o.event_json)["type"] == o.type for o in outcomes["legacy"]
    )


@pytest.mark.parametrize("value", ["yes", "2", ""])
def test_another_header_value_is_refused_not_guessed(served: Served, value: str) -> None:
    ref, cid = served.referee, served.campaigns["objectives"]
    with pytest.raises(grpc.RpcError) as refused:
        ref.rules.GetView(
            rules_pb2.GetViewRequest(campaign_id=cid),
            metadata=_md(ref, ("mekref-legacy-json", value)),
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(refused.value) == "bad_header"
    assert "mekref-legacy-json" in (refused.value.details() or "")
    with pytest.raises(grpc.RpcError) as stream_refused:
        _events(ref, cid, ("mekref-legacy-json", value))
    assert stream_refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    zero = ref.rules.GetView(
        rules_pb2.GetViewRequest(campaign_id=cid), metadata=_md(ref, ("mekref-legacy-json", "0"))
    )
    assert zero.view_json == "" and zero.HasField("view")
