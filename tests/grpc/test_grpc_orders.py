"""OrdersService on the Ginestra test campaign: the round trip, refusals with field details,
secrecy of orders on the stream and in views, concurrent submitters, the referee's turn."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_helpers import (
    Running,
    Stubs,
    api_server,
    field_violations,
    open_test_app,
    reason_of,
    status_of,
)

from mekref.daemon.grpc.tokens import Role
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.state import PoolKind
from mekref.v1 import campaign_pb2, event_pb2, orders_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
pytest.importorskip("mekref.rules.tripwire.turn.orders")
world = pytest.importorskip("turn_world")
setup = pytest.importorskip("mekref.rules.tripwire.turn.setup")

Order = orders_pb2.FormationOrder


@pytest.fixture
def ginestra(tmp_path: Path) -> Iterator[Running]:
    from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec

    db = str(tmp_path / "g.db")
    app = open_test_app(db)
    store, tokens = app.store, app.tokens
    server = api_server(app)
    port = server.start()
    runner = server.services.runner
    cid = runner.create(
        CreateCampaign(
            actor=world.REFEREE,
            name="Ginestra",
            ruleset="tripwire",
            seed="ginestra-grpc",
            sides=(
                SideSpec(side_id="loyalist", name="Loyalists"),
                SideSpec(side_id="rebel", name="Rebels"),
            ),
        )
    ).campaign_id
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
    sides = {
        s: tokens.issue(Role.SIDE, campaign_id=cid, side_id=s).secret for s in ("loyalist", "rebel")
    }
    running = Running(
        server, store, tokens, port, cid, tokens.issue(Role.REFEREE).secret, sides, {}
    )
    yield running
    running.close()
    server.stop(1)
    store.close()


def _submit(
    s: Stubs, cid: str, *orders: orders_pb2.FormationOrder, day: int = 1, whole: bool = False
) -> orders_pb2.SubmitOrdersResponse:
    return s.orders.SubmitOrders(
        orders_pb2.SubmitOrdersRequest(
            campaign_id=cid, day=day, orders=list(orders), include_side_orders=whole
        ),
        metadata=s.md,
    )


def _listed(s: Stubs, cid: str) -> list[tuple[str, str]]:
    got = s.orders.ListOrders(orders_pb2.ListOrdersRequest(campaign_id=cid), metadata=s.md)
    return [(o.formation_id, o.action) for o in got.orders]


def test_submit_replace_withdraw_round_trip(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    done = _submit(loyal, cid, Order(formation_id="alpha", action="guard"))
    assert [(o.formation_id, o.action) for o in done.stored] == [("alpha", "guard")]
    assert done.last_seq == g.store.last_seq(cid)
    moved = _submit(loyal, cid, Order(formation_id="hover", action="rest"),
                    Order(formation_id="alpha", action="move", path=["0607", "0707"]))  # fmt: skip
    # What this submission stored, in the order given (the side's list is by formation).
    assert [(o.formation_id, o.action) for o in moved.stored] == [
        ("hover", "rest"),
        ("alpha", "move"),
    ]
    assert list(moved.stored[1].path) == ["0607", "0707"]
    assert list(moved.orders) == []  # the side's whole list only when asked
    assert _listed(loyal, cid) == [("alpha", "move"), ("hover", "rest")]
    withdrawn = loyal.orders.WithdrawOrders(
        orders_pb2.WithdrawOrdersRequest(campaign_id=cid, day=1, formation_ids=["alpha"]),
        metadata=loyal.md,
    )
    assert [o.formation_id for o in withdrawn.orders] == ["hover"]
    rebel = g.as_side("rebel")
    assert _listed(rebel, cid) == []
    ref = g.as_referee()
    seen = ref.orders.ListOrders(
        orders_pb2.ListOrdersRequest(campaign_id=cid, side_id="loyalist"), metadata=ref.md
    )
    assert [o.formation_id for o in seen.orders] == ["hover"]


def test_the_side_s_whole_list_comes_back_when_asked(ginestra: Running) -> None:
    """``include_side_orders``: the deprecated ``orders`` lists every order of the side for the
    day after the submission, by formation, as every response did before ``stored``."""
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    _submit(loyal, cid, Order(formation_id="hover", action="rest"))
    done = _submit(loyal, cid, Order(formation_id="alpha", action="guard"), whole=True)
    assert [(o.formation_id, o.action) for o in done.orders] == [
        ("alpha", "guard"),
        ("hover", "rest"),
    ]
    assert [o.formation_id for o in done.stored] == ["alpha"]
    assert [(o.formation_id, o.action) for o in done.orders] == _listed(loyal, cid)


def test_params_and_target_round_trip(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    rebel = g.as_side("rebel")
    done = _submit(
        rebel, cid, Order(formation_id="bravo", action="orbital_insertion", target="1712")
    )
    assert done.stored[0].HasField("target") and done.stored[0].target == "1712"
    loyal = g.as_side("loyalist")
    done = _submit(
        loyal, cid,
        Order(formation_id="alpha", action="repair", params={"pool": "cap", "wp": "10"}),
    )  # fmt: skip
    assert dict(done.stored[0].params) == {"pool": "cap", "wp": "10"}
    assert not done.stored[0].HasField("target")


def test_refusals_carry_the_field_and_the_rule_code(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    cases = [
        (Order(formation_id="alpha", action="teleport"), grpc.StatusCode.INVALID_ARGUMENT,
         "unknown_action", "orders[0].action"),
        (Order(formation_id="alpha", action="move", path=["0707"]),
         grpc.StatusCode.INVALID_ARGUMENT, "illegal_path", "orders[0].path[0]"),
    ]  # fmt: skip
    for order, code, reason, field in cases:
        with pytest.raises(grpc.RpcError) as caught:
            _submit(loyal, cid, order)
        assert caught.value.code() == code
        assert reason_of(caught.value) == reason
        assert field_violations(caught.value)[0][0] == field
        # The field is named once, not again at the start of its description.
        assert not field_violations(caught.value)[0][1].startswith(field)
    with pytest.raises(grpc.RpcError) as caught:
        _submit(loyal, cid, Order(formation_id="alpha", action="guard"), day=4)
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value) == "wrong_day"
    with pytest.raises(grpc.RpcError) as caught:
        _submit(loyal, cid, Order(formation_id="alpha", action="repair",
                                  params={"pool": "cap", "wp": "80"}))  # fmt: skip
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    status = status_of(caught.value)
    assert status is not None
    failure = error_details_pb2.PreconditionFailure()
    assert any(d.Unpack(failure) for d in status.details if d.Is(failure.DESCRIPTOR))
    assert failure.violations[0].subject == "orders[0].params.wp"
    # Request shape problems are caught before the rules, all at once.
    with pytest.raises(grpc.RpcError) as caught:
        _submit(
            loyal,
            cid,
            Order(formation_id="", action=""),
            Order(formation_id="x", action="y", path=["1"] * 65),
        )
    assert {f for f, _ in field_violations(caught.value)} == {
        "orders[0].formation_id", "orders[0].action", "orders[1].path"}  # fmt: skip


def test_each_order_stands_on_its_own(ginestra: Running) -> None:
    # Ruling T-O3: a bad order is refused alone; the submission's good ones are stored.
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    done = _submit(loyal, cid, Order(formation_id="alpha", action="guard"),
                   Order(formation_id="hover", action="move", path=["0707"]))  # fmt: skip
    assert [(o.formation_id, o.action) for o in done.stored] == [("alpha", "guard")]
    assert [(r.formation_id, r.code) for r in done.refused] == [("hover", "illegal_path")]
    assert done.refused[0].reason.startswith("orders[1].path[0]: hex 0707")
    assert _listed(loyal, cid) == [("alpha", "guard")]


def test_plan_route_gives_todays_order(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    plan = loyal.orders.PlanRoute(
        orders_pb2.PlanRouteRequest(campaign_id=cid, formation_id="alpha", to_hex="0707"),
        metadata=loyal.md,
    )
    assert plan.path[-1] == "0707" and plan.cost_mp >= len(plan.path)
    assert list(plan.today_path) == list(plan.path)[: len(plan.today_path)]
    assert plan.todays_order.action == "move"
    if plan.today_path:
        stored = _submit(loyal, cid, plan.todays_order)
        assert not stored.refused
    with pytest.raises(grpc.RpcError) as caught:
        loyal.orders.PlanRoute(
            orders_pb2.PlanRouteRequest(campaign_id=cid, formation_id="bravo", to_hex="0707"),
            metadata=loyal.md,
        )
    assert reason_of(caught.value) == "not_your_formation"
    # L166's extra hours (T-H1): planned with them, today's order carries them, and is stored.
    hours = loyal.orders.PlanRoute(
        orders_pb2.PlanRouteRequest(
            campaign_id=cid, formation_id="alpha", to_hex="0707", extra_hours=4
        ),
        metadata=loyal.md,
    )
    assert hours.mp_per_day == plan.mp_per_day * 10 // 6
    assert dict(hours.todays_order.params) == {"extra_hours": "4"}
    if hours.today_path:
        assert not _submit(loyal, cid, hours.todays_order).refused


def test_an_enemy_formation_is_answered_like_a_missing_one(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    answers = []
    for fid in ("bravo", "ghost"):
        with pytest.raises(grpc.RpcError) as caught:
            _submit(loyal, cid, Order(formation_id=fid, action="guard"))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        answers.append((reason_of(caught.value), (caught.value.details() or "").replace(fid, "X")))
    assert answers[0] == answers[1]


def test_orders_stay_secret_on_the_stream_and_in_views(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    _submit(g.as_side("loyalist"), cid, Order(formation_id="alpha", action="move", path=["0607"]))
    _submit(
        g.as_side("rebel"),
        cid,
        Order(formation_id="bravo", action="orbital_insertion", target="1712"),
    )

    def stream(s: Stubs) -> list[event_pb2.CampaignEvent]:
        request = event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True)
        return [a.event for a in s.events.SubscribeEvents(request, metadata=s.md)]

    loyal_events = stream(g.as_side("loyalist"))
    rebel_events = stream(g.as_side("rebel"))
    loyal_text = " ".join(e.payload_json for e in loyal_events)
    rebel_text = " ".join(e.payload_json for e in rebel_events)
    assert "OrdersSubmitted" in {e.type for e in loyal_events}
    assert "1712" not in loyal_text and "bravo" not in loyal_text and "R-AS7" not in loyal_text
    assert "0508" not in rebel_text and "0607" not in rebel_text and "alpha" not in rebel_text
    started = next(e for e in rebel_events if e.type == "StrategicMapStarted")
    assert "mobility" not in json.loads(started.payload_json)
    everything = stream(g.as_referee())
    assert {"1712", "0607"} <= set(
        " ".join(e.payload_json for e in everything).replace('"', " ").split()
    )
    view = g.as_side("rebel").campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=g.as_side("rebel").md
    )
    data = json.loads(view.view_json)
    assert {f["formation_id"] for f in data["formations"]} == {"bravo", "tanks"}
    assert "alpha" not in view.view_json and "0508" not in view.view_json


def test_only_the_referee_resolves_the_turn(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    loyal = g.as_side("loyalist")
    with pytest.raises(grpc.RpcError) as caught:
        loyal.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=cid, day=1), metadata=loyal.md
        )
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    _submit(
        g.as_side("rebel"),
        cid,
        Order(formation_id="bravo", action="orbital_insertion", target="1712"),
    )
    ref = g.as_referee()
    done = ref.orders.ResolveTurn(
        orders_pb2.ResolveTurnRequest(campaign_id=cid, day=1), metadata=ref.md
    )
    assert "DayEnded" in done.event_types
    assert done.last_seq == g.store.last_seq(cid)
    with pytest.raises(grpc.RpcError) as caught:
        ref.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=cid, day=1), metadata=ref.md
        )
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION


def test_concurrent_submitters(ginestra: Running) -> None:
    g, cid = ginestra, ginestra.campaign_id
    before = g.store.last_seq(cid)
    plans = [
        ("loyalist", "alpha", "guard"), ("loyalist", "hover", "rest"), ("loyalist", "air", "rest"),
        ("rebel", "bravo", "rest"), ("rebel", "tanks", "rest"),
    ]  # fmt: skip
    errors: list[BaseException] = []
    rounds = 6

    def submitter(side: str, fid: str, action: str) -> None:
        stubs = g.as_side(side)
        try:
            for _ in range(rounds):
                _submit(stubs, cid, Order(formation_id=fid, action=action))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=submitter, args=plan) for plan in plans]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert g.store.last_seq(cid) == before + rounds * len(plans)
    seqs = [e.seq for e in g.store.read(cid)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert _listed(g.as_side("loyalist"), cid) == [
        ("air", "rest"),
        ("alpha", "guard"),
        ("hover", "rest"),
    ]
    assert _listed(g.as_side("rebel"), cid) == [("bravo", "rest"), ("tanks", "rest")]


def test_the_example_client(ginestra: Running) -> None:
    import subprocess

    g, cid = ginestra, ginestra.campaign_id
    script = Path(__file__).resolve().parents[2] / "examples" / "orders_client.py"
    base = [sys.executable, str(script), "--target", g.target, "--campaign", cid]
    env = {**__import__("os").environ, "MEKREF_TOKEN": g.side_tokens["loyalist"]}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*base, *argv], capture_output=True, text=True, env=env, timeout=60)

    done = run("submit", "alpha", "move", "0607", "0707")
    assert done.returncode == 0, done.stderr
    assert "alpha: move 0607 0707" in done.stdout
    refused = run("submit", "alpha", "teleport")
    assert refused.returncode == 1
    assert "orders[0].action" in refused.stderr
    assert run("orders").stdout.strip() == "alpha: move 0607 0707"
    head = g.store.last_seq(cid)
    followed = run("follow", "--after", str(head - 1), "--limit", "1")
    assert followed.returncode == 0, followed.stderr
    assert f"{head:>6}  OrdersSubmitted" in followed.stdout
    # The typed event, never the deprecated payload_json (empty without the legacy header).
    assert 'formation_id: "alpha"' in followed.stdout and "0707" in followed.stdout
    view = run("view")
    assert view.returncode == 0, view.stderr
    assert "day 1: " in view.stdout and "formation alpha at " in view.stdout
    # A formation off the map (the rebels at the pirate point, Day Zero) says where it is.
    env["MEKREF_TOKEN"] = g.side_tokens["rebel"]
    rebel = run("view")
    assert rebel.returncode == 0, rebel.stderr
    assert "formation bravo in orbit" in rebel.stdout, rebel.stdout
    assert not [line for line in rebel.stdout.splitlines() if line.endswith(" at ")]
    script_text = script.read_text()
    assert "payload_json" not in script_text and "view_json" not in script_text


def _play_two_days(g: Running) -> str:
    """Days 1-2 of the turn tests' plan: bravo meets the hover unit in 1412 on day 2."""
    cid = g.campaign_id
    loyal, rebel, ref = g.as_side("loyalist"), g.as_side("rebel"), g.as_referee()
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
        _submit(loyal, cid, *loyal_orders, day=day)
        _submit(rebel, cid, *rebel_orders, day=day)
        ref.orders.ResolveTurn(
            orders_pb2.ResolveTurnRequest(campaign_id=cid, day=day), metadata=ref.md
        )
    view = rebel.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=rebel.md
    )
    (engagement,) = json.loads(view.view_json)["engagements"]
    return str(engagement["engagement_id"])


def test_export_scenario_for_each_side_of_an_engagement(ginestra: Running) -> None:
    from mekref.adapters.megamek.mul_reader import read_mul_bytes
    from mekref.v1 import battle_pb2

    g, cid = ginestra, ginestra.campaign_id
    eid = _play_two_days(g)
    state = g.server.services.runner.load(cid).state
    for side, expected in (("rebel", {"R-JR7", "R-MAD", "R-AS7"}), ("loyalist", {"L-MAX"})):
        stubs = g.as_side(side)
        got = stubs.battles.ExportScenario(
            battle_pb2.ExportScenarioRequest(campaign_id=cid, engagement_id=eid), metadata=stubs.md
        )
        assert got.file_name == f"{eid}-{side}.mul"
        mul = read_mul_bytes(got.content, got.file_name)
        assert {e.external_id for e in mul.entities} == expected
        assert all(state.units[u].side_id == side for u in expected)
        assert got.sheet_markdown
        assert not got.scenario_mms  # the scenario names the enemy's units: referee only
    ref = g.as_referee()
    got = ref.battles.ExportScenario(
        battle_pb2.ExportScenarioRequest(campaign_id=cid, engagement_id=eid, side_id="rebel"),
        metadata=ref.md,
    )
    from mekref.adapters.megamek.mms_check import check_mms, parse_mms

    scenario = parse_mms(got.scenario_mms.decode("utf-8"))
    assert got.scenario_file_name == f"{eid}.mms" and check_mms(scenario) == []
    assert {scenario.unit_value(u.key, "ExternalID") for u in scenario.units()} == {
        "R-JR7", "R-MAD", "R-AS7", "L-MAX",
    }  # fmt: skip
    assert any("RANDOM board" in w for w in got.scenario_warnings)
    for side, other in (("rebel", "loyalist"), ("loyalist", "rebel")):
        stubs = g.as_side(side)
        with pytest.raises(grpc.RpcError) as caught:
            stubs.battles.ExportScenario(
                battle_pb2.ExportScenarioRequest(campaign_id=cid, engagement_id=eid, side_id=other),
                metadata=stubs.md,
            )
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    stubs = g.as_side("rebel")
    with pytest.raises(grpc.RpcError) as caught:
        stubs.battles.ExportScenario(
            battle_pb2.ExportScenarioRequest(campaign_id=cid, engagement_id="nope"),
            metadata=stubs.md,
        )
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND
