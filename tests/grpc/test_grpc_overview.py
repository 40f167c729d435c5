"""``CampaignService.GetOverview`` against a real ``mekref serve --grpc`` (ruling T-V3).

Two campaigns: the bundled Ginestra sample (``mekref turn setup``, day 1 resolved through the
console script: the rebels' Bravo lands on Alpha), and the Ginestra campaign of the fog-of-war
test, which plays two days (on day 2 the rebels' Bravo meets the loyalists' Hover in 1412) and
then fights the battle. The referee token gets the whole picture; each side token gets only its
cut: its own formations (exactly its side view's), enemy formations only as its sightings name
them, the engagement with its own formations, its own pools, and every side's VP (L414: "Once a
force reaches 10 Victory Points the campaign is over and the player with the most victory
points wins."). A side asking for the enemy's cut is refused.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_helpers import open_test_app
from test_grpc_fog_of_war import (  # noqa: F401 (served is a fixture)
    SIDES,
    Served,
    _fight,
    _plain,
    _play_two_days,
    served,
    serving,
)

from mekref.daemon.grpc.tokens import Role
from mekref.v1 import campaign_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ginestra_cli import day_zero, ok


def _overview(s: Served, who: str, side_id: str = "") -> campaign_pb2.GetOverviewResponse:
    c = s.clients[who]
    response: campaign_pb2.GetOverviewResponse = c.campaigns.GetOverview(
        campaign_pb2.GetOverviewRequest(campaign_id=s.cid, side_id=side_id), metadata=c.md
    )
    return response


def _side_view(s: Served, side: str) -> Any:
    c = s.clients[side]
    view = c.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=s.cid), metadata=c.md
    )
    return _plain(view.side_view)


def _check_cuts(s: Served) -> None:
    whole_response = _overview(s, "referee")
    assert whole_response.map_started and whole_response.side_id == ""
    whole = _plain(whole_response.overview)
    owner = {f["formation_id"]: f["side_id"] for f in whole["formations"]}
    assert set(owner.values()) == set(SIDES)
    (engagement,) = whole["engagements"]
    assert {owner[f] for f in engagement["formations"]} == set(SIDES)
    for side in SIDES:
        response = _overview(s, side)
        assert response.side_id == side and response.map_started
        cut = _plain(response.overview)
        view = _side_view(s, side)
        # Its own formations: exactly those of its side view.
        assert [f["formation_id"] for f in cut["formations"]] == [
            f["formation_id"] for f in view["formations"]
        ]
        # Enemy formations: only as the side view's sightings name them.
        assert cut["sightings"] == view["sightings"]
        sighted = {x["formation_id"] for x in view["sightings"]}
        hidden = {f for f, who in owner.items() if who != side} - sighted
        assert hidden, "the campaign must leave some enemy formation unsighted"
        text = json.dumps(cut)
        for f in hidden:
            assert f'"{f}"' not in text, f"{side}'s overview names unsighted {f}"
        (e,) = cut["engagements"]
        assert e["formations"] and all(owner[f] == side for f in e["formations"])
        for t in cut["still_together"]:
            assert all(x == side for _, x in t["formations"])
        assert {p["side_id"] for p in cut["pools"]} <= {side}
        assert cut["control"] == view["control"]
        # L414: both sides' VP are public; the enemy's BV is not.
        standings = {x["side_id"]: x for x in cut["standings"]}
        assert set(standings) == set(SIDES)
        for x in whole["standings"]:
            assert standings[x["side_id"]]["total_vp"] == x["total_vp"]
        enemy = next(x for x in SIDES if x != side)
        assert "starting_bv" not in standings[enemy] and "starting_bv" in standings[side]
        # The referee naming the side gets the same cut.
        assert _plain(_overview(s, "referee", side).overview) == cut


def test_each_side_token_gets_only_its_cut_and_the_referee_the_whole(served: Served) -> None:  # noqa: F811 (the fixture)
    _play_two_days(served)
    _check_cuts(served)


def test_after_the_battle_the_cut_still_keeps_the_fog(served: Served) -> None:  # noqa: F811 (the fixture)
    s = served
    _play_two_days(s)
    whole = _plain(_overview(s, "referee").overview)
    (engagement,) = whole["engagements"]
    battle_id = _fight(s, engagement["engagement_id"])
    after = _plain(_overview(s, "referee").overview)
    (closed,) = after["engagements"]
    assert closed["status"] == "closed" and closed["battle_id"] == battle_id
    _check_cuts(s)


def test_a_side_token_asking_for_the_enemys_overview_is_refused(served: Served) -> None:  # noqa: F811 (the fixture)
    s = served
    _play_two_days(s)
    with pytest.raises(grpc.RpcError) as caught:
        _overview(s, "rebel", "loyalist")
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "hover" not in (caught.value.details() or "")
    with pytest.raises(grpc.RpcError) as caught:
        _overview(s, "referee", "pirates")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture
def sample(tmp_path: Path) -> Iterator[Served]:
    """The Ginestra sample after day 1 (the rebels' Bravo lands on Alpha in 1105), served."""
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:guard")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    app = open_test_app(db)
    try:
        (campaign,) = app.store.list_campaigns()
        cid = campaign.id
        tokens = {s: app.tokens.issue(Role.SIDE, campaign_id=cid, side_id=s).secret for s in SIDES}
        tokens["referee"] = app.tokens.issue(Role.REFEREE).secret
    finally:
        app.store.close()
    yield from serving(tmp_path, db, cid, tokens)


def test_on_the_ginestra_sample_each_side_gets_its_cut(sample: Served) -> None:
    _check_cuts(sample)
    # The rebels landed on Alpha: they sighted it, so it shows in their sightings only.
    cut = _plain(_overview(sample, "rebel").overview)
    assert [x["formation_id"] for x in cut["sightings"]] == ["alpha"]
    assert "alpha" not in {f["formation_id"] for f in cut["formations"]}
