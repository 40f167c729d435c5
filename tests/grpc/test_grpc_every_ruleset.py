"""One store, five campaigns of five rule sets, served by a real ``mekref serve --grpc``.

Every campaign RPC answers for every campaign (a campaign of one rule set never breaks the
listing of another), ``mekref game list`` shows them all, and a side token sees its own side's
view only. Commands come from the same JSON scripts as the CLI test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from console_script import mekref
from grpc_helpers import Stubs, console_serve, reason_of, status_of

from mekref.v1 import campaign_pb2, event_pb2, rules_pb2

SCRIPTS = Path(__file__).parents[1] / "cli" / "data" / "scripts"
#: A side of each rule set's scripted campaign, and another side of it.
SIDES = {
    "tripwire": ("a", "b"),
    "succession_wars": ("Davion", "Liao"),
    "dystopian_wars": ("brit", "sun"),
    "objectives": ("red", "blue"),
}


@dataclass
class Served:
    db: str
    port: int
    referee: Stubs
    campaigns: dict[str, str]  # rule set -> campaign id

    def client(self, token: str) -> Stubs:
        return Stubs(grpc.insecure_channel(f"127.0.0.1:{self.port}"), token)


def _token(db: str, *args: str) -> str:
    made = mekref("token", "create", "--db", db, *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_five(tmp_path_factory)


def serve_five(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``mekref serve --grpc`` with a campaign of each rule set played by its script."""
    db = str(tmp_path_factory.mktemp("five") / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "placeholder-check", "--seed", "1",
                  "--side", "x:X", "--side", "y:Y").returncode == 0  # fmt: skip
    referee = _token(db, "--referee")
    with console_serve(db) as port:
        stubs = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), referee)
        campaigns: dict[str, str] = {}
        for name in sorted(p.name for p in SCRIPTS.iterdir() if p.is_dir()):
            start = next((SCRIPTS / name).glob("start-*.json"))
            made = stubs.rules.StartCampaign(
                rules_pb2.StartCampaignRequest(
                    name=f"{name} campaign", ruleset=name, command_json=start.read_text()
                ),
                metadata=stubs.md,
            )
            cid = made.campaign.campaign_id
            campaigns[name] = cid
            for step in sorted((SCRIPTS / name).glob("0*.json")):
                stubs.rules.ExecuteCommand(
                    rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=step.read_text()),
                    metadata=stubs.md,
                )
        yield Served(db, port, stubs, campaigns)
        stubs.close()


def test_every_rule_set_is_listed_with_its_commands(served: Served) -> None:
    listed = served.referee.rules.ListRuleSets(
        rules_pb2.ListRuleSetsRequest(), metadata=served.referee.md
    )
    names = {r.name: r for r in listed.rule_sets}
    assert set(names) >= set(served.campaigns)
    assert any(c.type == "SWEndPhase" for c in names["succession_wars"].commands)
    assert all(c.example_json for r in listed.rule_sets for c in r.commands)


def test_list_campaigns_shows_all_six_and_game_list_agrees(served: Served) -> None:
    ref = served.referee
    listed = ref.campaigns.ListCampaigns(campaign_pb2.ListCampaignsRequest(), metadata=ref.md)
    by_id = {c.campaign_id: c for c in listed.campaigns}
    for name, cid in served.campaigns.items():
        assert by_id[cid].ruleset == name and by_id[cid].last_seq >= 4, name
    cli = mekref("game", "list", "--db", served.db, "--json")
    assert cli.returncode == 0, cli.stderr
    assert {c["id"]: c["ruleset"] for c in json.loads(cli.stdout)} == {
        c.campaign_id: c.ruleset for c in listed.campaigns
    }


@pytest.mark.parametrize("name", ["tripwire", "succession_wars", "dystopian_wars", "objectives",
                                  "house_rules"])  # fmt: skip
def test_every_campaign_rpc_answers_for_every_rule_set(served: Served, name: str) -> None:
    ref, cid = served.referee, served.campaigns[name]
    got = ref.campaigns.GetCampaign(campaign_pb2.GetCampaignRequest(campaign_id=cid),
                                    metadata=ref.md)  # fmt: skip
    assert got.campaign.ruleset == name
    # The sides are the rule set's own (TripWire sides, Houses, fleets, objective sides);
    # house rules have none.
    assert set(SIDES.get(name, ())) <= {s.side_id for s in got.campaign.sides}
    assert bool(got.campaign.sides) == (name in SIDES)
    dice = ref.campaigns.GetDiceLog(campaign_pb2.GetDiceLogRequest(campaign_id=cid),
                                    metadata=ref.md)  # fmt: skip
    assert dice is not None
    events = list(
        ref.events.SubscribeEvents(
            event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=ref.md
        )
    )
    assert [e.event.seq for e in events] == list(range(1, got.campaign.last_seq + 1))
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    assert whole.state_hash and whole.last_seq == got.campaign.last_seq
    expected = json.loads((SCRIPTS / "expected-hashes.json").read_text())[name]
    assert whole.state_hash == expected
    # A battle report names a TripWire battle; elsewhere the answer says why, not a crash.
    try:
        ref.campaigns.GetBattleReport(
            campaign_pb2.GetBattleReportRequest(campaign_id=cid, battle_id="none"),
            metadata=ref.md,
        )
    except grpc.RpcError as exc:
        assert exc.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION)
        assert exc.details()
    # The strategic overview is TripWire's; elsewhere the refusal names the way in there is.
    overview = campaign_pb2.GetOverviewRequest(campaign_id=cid)
    if name == "tripwire":
        got_overview = ref.campaigns.GetOverview(overview, metadata=ref.md)
        assert got_overview.side_id == "" and got_overview.last_seq == got.campaign.last_seq
    else:
        with pytest.raises(grpc.RpcError) as refused:
            ref.campaigns.GetOverview(overview, metadata=ref.md)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "RulesService.GetView" in (refused.value.details() or "")


@pytest.mark.parametrize("name", sorted(SIDES))
def test_a_side_token_sees_its_own_view_only(served: Served, name: str) -> None:
    cid = served.campaigns[name]
    mine, theirs = SIDES[name]
    side = served.client(_token(served.db, "--campaign", cid, "--side", mine))
    try:
        view = side.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=side.md)
        assert view.side_id == mine and not view.state_hash
        with pytest.raises(grpc.RpcError) as refused:
            side.rules.GetView(
                rules_pb2.GetViewRequest(campaign_id=cid, side_id=theirs), metadata=side.md
            )
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        other = next(c for n, c in served.campaigns.items() if n != name)
        with pytest.raises(grpc.RpcError) as elsewhere:
            side.rules.GetView(rules_pb2.GetViewRequest(campaign_id=other), metadata=side.md)
        assert elsewhere.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # The referee's view as that side is the same view.
        ref = served.referee
        as_side = ref.rules.GetView(
            rules_pb2.GetViewRequest(campaign_id=cid, side_id=mine), metadata=ref.md
        )
        assert json.loads(as_side.view_json) == json.loads(view.view_json)
        whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
        assert json.loads(whole.view_json) != json.loads(view.view_json)
    finally:
        side.close()


def test_house_rules_have_no_sides_so_no_side_token(served: Served) -> None:
    cid = served.campaigns["house_rules"]
    made = mekref("token", "create", "--db", served.db, "--campaign", cid, "--side", "red")
    assert made.returncode != 0 and "side" in made.stderr


def test_status_of_an_unknown_campaign_is_not_found(served: Served) -> None:
    ref = served.referee
    with pytest.raises(grpc.RpcError) as missing:
        ref.rules.GetView(
            rules_pb2.GetViewRequest(campaign_id="0b8a2f0e-4b8e-4d8e-9d5e-2f1d3c4b5a69"),
            metadata=ref.md,
        )
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    assert status_of(missing.value) is not None


@pytest.mark.parametrize("name", ["succession_wars", "house_rules"])
def test_tripwire_only_rpcs_say_so_for_another_rule_set(served: Served, name: str) -> None:
    from mekref.v1 import battle_pb2, orders_pb2

    ref, cid = served.referee, served.campaigns[name]
    calls = [
        lambda: ref.orders.ListOrders(
            orders_pb2.ListOrdersRequest(campaign_id=cid, side_id="x"), metadata=ref.md
        ),
        lambda: ref.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=cid, day=1), metadata=ref.md
        ),
        lambda: ref.battles.ListPendingBattles(
            battle_pb2.ListPendingBattlesRequest(campaign_id=cid), metadata=ref.md
        ),
        lambda: ref.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=cid, side_id="x"), metadata=ref.md
        ),
    ]
    for call in calls:
        with pytest.raises(grpc.RpcError) as refused:
            call()
        assert refused.value.code() in (
            grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.NOT_FOUND,
            grpc.StatusCode.INVALID_ARGUMENT,
        ), refused.value.details()
        assert refused.value.details()


@pytest.mark.parametrize("name", ["succession_wars", "objectives"])
def test_a_battle_upload_to_a_campaign_without_megamek_battles_is_refused_plainly(
    served: Served, name: str
) -> None:
    from mekref.v1 import battle_pb2

    record = Path(__file__).parents[1] / "fixtures" / "megamek" / "bob.mul"
    ref, cid = served.referee, served.campaigns[name]
    with pytest.raises(grpc.RpcError) as refused:
        ref.battles.UploadBattleFile(
            battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, file_name="bob.mul", content=record.read_bytes()
            ),
            metadata=ref.md,
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "TripWire" in refused.value.details() or "battle" in refused.value.details()


def _report_of(response: rules_pb2.GetViewResponse) -> list[dict[str, object]]:
    return [{"title": s.title, "lines": list(s.lines)} for s in response.report]


@pytest.mark.parametrize("name", sorted(set(SIDES) - {"tripwire"}))
def test_get_view_tells_the_report_in_words_as_game_report_side_does(
    served: Served, name: str
) -> None:
    """GetView's ``report`` is `mekref game report --side`'s sections: one builder, the side's
    view (issue 29: a side's state in words, not only in JSON)."""
    cid, (mine, _theirs) = served.campaigns[name], SIDES[name]
    side = served.client(_token(served.db, "--campaign", cid, "--side", mine))
    try:
        view = side.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=side.md)
    finally:
        side.close()
    cli = mekref("game", "report", "--db", served.db, "--campaign", cid, "--side", mine, "--json")
    assert cli.returncode == 0, cli.stderr
    assert view.report and _report_of(view) == json.loads(cli.stdout)["sections"]
    ref = served.referee
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    cli = mekref("game", "report", "--db", served.db, "--campaign", cid, "--json")
    assert _report_of(whole) == json.loads(cli.stdout)["sections"]


def test_tripwire_get_view_has_no_report_in_words(served: Served) -> None:
    # TripWire's report is its own (mekref report, CampaignService.GetOverview).
    ref, cid = served.referee, served.campaigns["tripwire"]
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    assert not whole.report


def test_a_fleets_view_over_grpc_names_its_own_field_order_only(served: Served) -> None:
    """The bundled demo's fleets up to their first battle, started over gRPC: brit's token reads
    its own drawn Field Order in words, and sun's only face down (L155 "2.3 Roll for Field
    Orders")."""
    from importlib import resources

    examples = resources.files("mekref.daemon.examples")
    ref = served.referee
    made = ref.rules.StartCampaign(
        rules_pb2.StartCampaignRequest(
            name="fleets at sea",
            ruleset="dystopian_wars",
            command_json=examples.joinpath("dystopian_wars-demo-start.json").read_text("utf-8"),
        ),
        metadata=ref.md,
    )
    cid = made.campaign.campaign_id
    for line in examples.joinpath("dystopian_wars-demo.jsonl").read_text("utf-8").splitlines():
        if not line.startswith("{"):
            continue
        ref.rules.ExecuteCommand(
            rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=line), metadata=ref.md
        )
        if '"DWStartBattle"' in line:
            break
    brit = served.client(_token(served.db, "--campaign", cid, "--side", "brit"))
    try:
        view = brit.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=brit.md)
    finally:
        brit.close()
    battle = next(s for s in view.report if s.title == "battle being fought")
    assert "brit (you) drew Field Order 3, Group order 3" in battle.lines
    assert "sun drew a Field Order, face down until the battle is resolved" in battle.lines
    whole = ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid), metadata=ref.md)
    battle = next(s for s in whole.report if s.title == "battle being fought")
    assert "sun drew Field Order 1, Group order 1" in battle.lines


def test_a_json_command_is_held_to_its_fields_values(served: Served) -> None:
    """Ruling R-ENGINE-5 over a real client: a command given as JSON has its listed values
    matched as typed words are. House rules L11 "Left Side | Front | Right Side" (a hit
    table's columns), L182-183 the quantity of armor or of ammunition found."""
    cid = served.campaigns["house_rules"]

    def run(command: dict[str, object]) -> rules_pb2.ExecuteCommandResponse:
        request = rules_pb2.ExecuteCommandRequest(
            campaign_id=cid, command_json=json.dumps({"actor": "ref", **command})
        )
        done: rules_pb2.ExecuteCommandResponse = served.referee.rules.ExecuteCommand(
            request, metadata=served.referee.md
        )
        return done

    (event,) = run({"type": "HRHitLocation", "unit_id": "atlas", "table": "Low"}).events
    assert "hit location on atlas, low table, front:" in event.outcome  # never the side table
    wrong: list[tuple[dict[str, object], str, str]] = [
        ({"type": "HRQuantity", "item": "x", "kind": "armour", "level": 1}, "not_allowed",
         "kind='armour' is none of: 'armor', 'ammo'"),
        ({"type": "HRHitLocation", "unit_id": "atlas", "column": "rear"}, "no_such_row",
         "no rear side row"),
    ]  # fmt: skip
    for command, reason, said in wrong:
        with pytest.raises(grpc.RpcError) as caught:
            run(command)
        assert reason_of(caught.value) == reason, caught.value.details()
        assert said in str(caught.value.details())
