"""CampaignService: create, list, get, one side's view, the dice log; errors carry details."""

from __future__ import annotations

import grpc
import pytest
from grpc_helpers import Running, field_violations, reason_of

from mekref.daemon.grpc.tokens import Role
from mekref.v1 import campaign_pb2, tripwire_pb2


def test_referee_creates_and_lists_campaigns(api: Running) -> None:
    ref = api.as_referee()
    made = ref.campaigns.CreateCampaign(
        campaign_pb2.CreateCampaignRequest(
            name="Second front",
            ruleset="tripwire",
            sides=[
                campaign_pb2.SideSpec(side_id="kurita", name="Kurita"),
                campaign_pb2.SideSpec(side_id="steiner", name="Steiner"),
            ],
        ),
        metadata=ref.md,
    ).campaign
    assert made.name == "Second front" and made.last_seq == 1
    assert [s.side_id for s in made.sides] == ["kurita", "steiner"]
    listed = ref.campaigns.ListCampaigns(campaign_pb2.ListCampaignsRequest(), metadata=ref.md)
    assert [c.campaign_id for c in listed.campaigns] == [api.campaign_id, made.campaign_id]
    # A side token lists only its own campaign.
    side = api.as_side("davion")
    mine = side.campaigns.ListCampaigns(campaign_pb2.ListCampaignsRequest(), metadata=side.md)
    assert [c.campaign_id for c in mine.campaigns] == [api.campaign_id]


def test_create_refuses_bad_input_with_field_violations(api: Running) -> None:
    ref = api.as_referee()
    with pytest.raises(grpc.RpcError) as caught:
        ref.campaigns.CreateCampaign(
            campaign_pb2.CreateCampaignRequest(
                name="",
                ruleset="tripwire",
                sides=[campaign_pb2.SideSpec(side_id="Bad Id", name="x")],
            ),
            metadata=ref.md,
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    fields = {f for f, _ in field_violations(caught.value)}
    assert fields == {"name", "sides", "sides[0].side_id"}


def test_create_refused_by_the_rules_leaves_nothing(api: Running) -> None:
    ref = api.as_referee()
    with pytest.raises(grpc.RpcError) as caught:
        ref.campaigns.CreateCampaign(
            campaign_pb2.CreateCampaignRequest(
                name="x",
                ruleset="no-such-rules",
                sides=[
                    campaign_pb2.SideSpec(side_id="a", name="A"),
                    campaign_pb2.SideSpec(side_id="b", name="B"),
                ],
            ),
            metadata=ref.md,
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(caught.value) == "unknown_ruleset"
    assert len(api.store.list_campaigns()) == 1


def test_only_a_global_referee_creates(api: Running) -> None:
    scoped = api.tokens.issue(Role.REFEREE, campaign_id=api.campaign_id).secret
    for token in (scoped, api.side_tokens["davion"]):
        stubs = api.client(token)
        with pytest.raises(grpc.RpcError) as caught:
            stubs.campaigns.CreateCampaign(
                campaign_pb2.CreateCampaignRequest(name="x", ruleset="tripwire"),
                metadata=stubs.md,
            )
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_get_campaign_shows_public_facts_only(api: Running) -> None:
    side = api.as_side("liao")
    got = side.campaigns.GetCampaign(
        campaign_pb2.GetCampaignRequest(campaign_id=api.campaign_id), metadata=side.md
    ).campaign
    assert got.campaign_id == api.campaign_id and got.ruleset == "tripwire"
    assert "secret-seed-42" not in str(got)


def test_side_view_holds_own_units_people_and_pools(api: Running) -> None:
    side = api.as_side("davion")
    view = side.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id), metadata=side.md
    )
    assert view.side_id == "davion"
    assert [u.chassis for u in view.units] == ["Locust"]
    # A fraction as Fraction {num, den} beside its deprecated text.
    assert [(u.tonnage, u.tonnage_fraction.num, u.tonnage_fraction.den) for u in view.units] == [
        ("20/1", 20, 1)
    ]
    assert [p.name for p in view.people] == ["davion pilot"]
    assert [(p.pool_id, p.balance, p.capacity) for p in view.pools] == [("davion-union", 107, 250)]
    # A closed list as an enum beside its deprecated text (docs/api.md, "Enums beside ...").
    wire = tripwire_pb2.Tripwire
    assert [(u.kind, wire.UnitKind.Name(u.kind_enum)) for u in view.units] == [
        ("mek", "UNIT_KIND_MEK")
    ]
    assert [(p.status, wire.PersonStatus.Name(p.status_enum)) for p in view.people] == [
        ("active", "PERSON_STATUS_ACTIVE")
    ]
    assert [(p.kind, wire.PoolKind.Name(p.kind_enum)) for p in view.pools] == [
        ("dropship", "POOL_KIND_DROPSHIP")
    ]
    assert "liao" not in str(view).replace('"liao"', "")  # nothing of the other side's
    ref = api.as_referee()
    other = ref.campaigns.GetSideView(
        campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id, side_id="liao"),
        metadata=ref.md,
    )
    assert [p.name for p in other.people] == ["liao pilot"]


def test_referee_must_name_a_side_that_exists(api: Running) -> None:
    ref = api.as_referee()
    for side_id, field in (("", "side_id"), ("kurita", "side_id")):
        with pytest.raises(grpc.RpcError) as caught:
            ref.campaigns.GetSideView(
                campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id, side_id=side_id),
                metadata=ref.md,
            )
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert [f for f, _ in field_violations(caught.value)] == [field]


def test_bad_and_unknown_campaign_ids(api: Running) -> None:
    ref = api.as_referee()
    with pytest.raises(grpc.RpcError) as caught:
        ref.campaigns.GetCampaign(
            campaign_pb2.GetCampaignRequest(campaign_id="nope"), metadata=ref.md
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(caught.value)[0][0] == "campaign_id"
    with pytest.raises(grpc.RpcError) as caught:
        ref.campaigns.GetCampaign(
            campaign_pb2.GetCampaignRequest(campaign_id="00000000-0000-4000-8000-000000000000"),
            metadata=ref.md,
        )
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


def test_dice_log_pages(api: Running) -> None:
    from mekref.rules.messages import RefereeNote
    from mekref.rules.tripwire.commands import ResolveDeathRoll, SetPersonHits

    state = api.server.services.runner.load(api.campaign_id).state
    person = next(p for p in state.people.values() if p.side_id == "davion")
    api.execute(
        SetPersonHits(
            actor="t",
            person_id=person.person_id,
            hits=5,
            override=RefereeNote(referee="t", reason="test"),
        )
    )
    api.execute(ResolveDeathRoll(actor="t", person_id=person.person_id))
    ref = api.as_referee()
    log = ref.campaigns.GetDiceLog(
        campaign_pb2.GetDiceLogRequest(campaign_id=api.campaign_id), metadata=ref.md
    )
    assert len(log.rolls) == 1
    roll = log.rolls[0]
    assert roll.event_type == "DeathRollMade" and roll.sides == 6 and len(roll.faces) == 1
    assert roll.total == sum(roll.faces)
    assert log.next_after_seq == api.store.last_seq(api.campaign_id)
    # The owning side sees its own roll; the other side does not.
    for side, count in (("davion", 1), ("liao", 0)):
        stubs = api.as_side(side)
        seen = stubs.campaigns.GetDiceLog(
            campaign_pb2.GetDiceLogRequest(campaign_id=api.campaign_id), metadata=stubs.md
        )
        assert len(seen.rolls) == count
