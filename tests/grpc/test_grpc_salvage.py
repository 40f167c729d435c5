"""Keeping salvage and seating a crew through ``RulesService.ExecuteCommand`` on a real
``mekref serve --grpc``: the TripWire commands ``KeepSalvage`` and ``SeatCrew`` travel as JSON
like every other command.

L136: "They take control of the the ‘Mech and may either keep it (only if they have space in
there TO&E) or sell it."
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from console_script import mekref
from grpc_helpers import Stubs, console_serve, reason_of

from mekref.v1 import campaign_pb2, rules_pb2

REFEREE = ("--referee", "Ann", "--reason", "test forces")


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def _mul(path: Path, chassis: str, model: str, count: int) -> str:
    rows = "\n".join(
        f'<entity chassis="{chassis}" model="{model}" type="Biped">'
        f'<pilot name="{chassis} pilot {n}" gunnery="4" piloting="5"/></entity>'
        for n in range(count)
    )
    path.write_text(f'<?xml version="1.0"?>\n<unit version="0.49.19">\n{rows}\n</unit>\n',
                    encoding="utf-8")  # fmt: skip
    return str(path)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Stubs, str, str]]:
    """A campaign whose red side (4 Griffins) holds blue's captured Jenner in Salvage."""
    db = str(tmp_path / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "Salvage", "--seed", "1",
        "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    _ok("force", "import", "--db", db, "--side", "red",
        _mul(tmp_path / "red.mul", "Griffin", "GRF-1N", 4), "--unchecked", *REFEREE)  # fmt: skip
    _ok("force", "import", "--db", db, "--side", "blue",
        _mul(tmp_path / "blue.mul", "Jenner", "JR7-D", 1), "--unchecked", *REFEREE)  # fmt: skip
    report = json.loads(_ok("report", "--db", db, "--json"))
    jenner = next(u["id"] for u in report["units"] if u["chassis"] == "Jenner")
    _ok("battle", "fate", "--db", db, "--unit", jenner, "--fate", "captured", "--side", "red",
        *REFEREE)  # fmt: skip
    token = _ok("token", "create", "--db", db, "--referee").strip()
    with console_serve(db) as port:
        stubs = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), token)
        listed = stubs.campaigns.ListCampaigns(
            campaign_pb2.ListCampaignsRequest(), metadata=stubs.md
        )
        (campaign,) = listed.campaigns
        yield stubs, campaign.campaign_id, jenner
        stubs.close()


def _do(stubs: Stubs, cid: str, command: dict[str, Any]) -> rules_pb2.ExecuteCommandResponse:
    return stubs.rules.ExecuteCommand(
        rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=json.dumps(command)),
        metadata=stubs.md,
    )


def test_keep_and_seat_over_grpc(served: tuple[Stubs, str, str]) -> None:
    stubs, cid, jenner = served
    listed = stubs.rules.ListRuleSets(rules_pb2.ListRuleSetsRequest(), metadata=stubs.md)
    (tripwire,) = [r for r in listed.rule_sets if r.name == "tripwire"]
    assert {"KeepSalvage", "SeatCrew"} <= {c.type for c in tripwire.commands}
    keep = {"type": "KeepSalvage", "unit_id": jenner, "company": "Company 1"}
    # A 'Mech joins one of the Union's lances, not a new one (L9): refused, nothing recorded.
    with pytest.raises(grpc.RpcError) as caught:
        _do(stubs, cid, {**keep, "lance": "Lance 9"})
    assert caught.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "no_toe_space"
    # Salvage not kept cannot be crewed.
    _do(stubs, cid, {"type": "OpenPool", "pool_id": "fdb", "side_id": "red", "name": "FDB",
                     "kind": "location", "location": "Forward Deployment Base"})  # fmt: skip
    hire = {"type": "HirePerson", "person_id": "nia", "side_id": "red", "pool_id": "fdb",
            "name": "Nia Kell", "gunnery": 4, "piloting": 5}  # fmt: skip
    _do(stubs, cid, hire)
    seat = {"type": "SeatCrew", "unit_id": jenner, "person_id": "nia"}
    with pytest.raises(grpc.RpcError) as caught:
        _do(stubs, cid, seat)
    assert reason_of(caught.value) == "not_kept"
    # Four Griffins and room for eight more: kept, then crewed by the hire.
    kept = _do(stubs, cid, {**keep, "lance": "Lance 1"})
    assert [e.type for e in kept.events] == ["SalvageKept"]
    seated = _do(stubs, cid, seat)
    assert [e.type for e in seated.events] == ["CrewSeated"]
    view = stubs.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=stubs.md)
    state = json.loads(view.view_json)
    unit = state["units"][jenner]
    assert (unit["side_id"], unit["company"], unit["lance"], unit["crew"]) == (
        "red", "Company 1", "Lance 1", ["nia"],
    )  # fmt: skip


def test_a_side_token_hires_keeps_and_seats_for_its_own_side_only(
    served: tuple[Stubs, str, str], tmp_path: Path
) -> None:
    """Ruling R-ENGINE-2: a side gives the spending and salvage commands of its own units,
    people and pools; another side's token, and a side vouching for itself with a referee's
    note, are refused and nothing is recorded."""
    referee, cid, jenner = served
    db = str(tmp_path / "c.db")
    red_token = _ok("token", "create", "--db", db, "--side", "red").strip()
    blue_token = _ok("token", "create", "--db", db, "--side", "blue").strip()
    red = Stubs(referee.channel, red_token)
    blue = Stubs(referee.channel, blue_token)
    # Opening a pool is the referee's (the WarChest is set by the campaign, L57).
    _do(referee, cid, {"type": "OpenPool", "pool_id": "fdb", "side_id": "red", "name": "FDB",
                       "kind": "location", "location": "Forward Deployment Base",
                       "opening_balance": 500})  # fmt: skip
    hire = {"type": "HirePerson", "person_id": "nia", "side_id": "red", "pool_id": "fdb",
            "name": "Nia Kell", "gunnery": 4, "piloting": 5, "hire_as": "mechwarrior"}  # fmt: skip
    keep = {"type": "KeepSalvage", "unit_id": jenner, "company": "Company 1", "lance": "Lance 1"}
    seat = {"type": "SeatCrew", "unit_id": jenner, "person_id": "nia"}
    # Blue cannot hire, keep or seat for red.
    for command in (hire, keep):
        with pytest.raises(grpc.RpcError) as caught:
            _do(blue, cid, command)
        assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    # Red cannot give itself the referee's word.
    note = {"referee": "Red", "reason": "we say so"}
    with pytest.raises(grpc.RpcError) as caught:
        _do(red, cid, {**keep, "note": note})
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    # Red hires, keeps its salvage and seats the hire: recorded as red's.
    assert [e.type for e in _do(red, cid, hire).events] == ["PersonHired"]
    assert [e.type for e in _do(red, cid, keep).events] == ["SalvageKept"]
    with pytest.raises(grpc.RpcError) as caught:
        _do(blue, cid, seat)
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert [e.type for e in _do(red, cid, seat).events] == ["CrewSeated"]
    view = referee.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=referee.md)
    unit = json.loads(view.view_json)["units"][jenner]
    assert (unit["side_id"], unit["crew"]) == ("red", ["nia"])
