"""CampaignService: campaigns of every rule set, one side's view, the dice log.

Every per-side answer derives from the campaign's rule set's one visibility rule
(:class:`~mekref.rules.kernel.SideViews`); the referee sees everything.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.errors import invalid
from mekref.daemon.grpc.services.base import (
    Context,
    Services,
    campaign_caller,
    legacy_text,
    rpc,
    side_caller,
    wants_legacy_json,
)
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.store import Campaign
from mekref.rules.kernel import RuleSet
from mekref.v1 import campaign_pb2, campaign_pb2_grpc, common_pb2

DICE_PAGE = 500
DICE_MAX = 5000


def timestamp(when: Any) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(when)
    return stamp


def campaign_message(
    campaign: Campaign, game: RuleSet[Any], state: Any, last_seq: int, tracks_completed: int = 0
) -> common_pb2.Campaign:
    """A campaign of any rule set: its sides are what the rule set says they are."""
    return common_pb2.Campaign(
        campaign_id=campaign.id,
        name=campaign.name,
        ruleset=campaign.ruleset,
        created_at=timestamp(campaign.created_at),
        sides=[
            common_pb2.Side(side_id=side_id, name=name)
            for side_id, name in game.sides_of(state).items()
        ],
        last_seq=last_seq,
        tracks_completed=tracks_completed,
    )


class CampaignServicer(campaign_pb2_grpc.CampaignServiceServicer):
    """The RPCs every rule set has. CreateCampaign, GetOverview and GetBattleReport are a
    wing's (TripWire's: ``mekref.daemon.tripwire.grpc_campaign``); without one they answer
    UNIMPLEMENTED."""

    def __init__(self, services: Services) -> None:
        self.s = services

    def tracks_completed(self, state: Any) -> int:
        """Battles fought, in a rule set that counts them (TripWire's tracks); none here."""
        return 0

    def typed_side_view(
        self, state: Any, side_id: str, last_seq: int, legacy: bool
    ) -> campaign_pb2.GetSideViewResponse | None:
        """A side's view with the rule set's typed fields, or None: the view as JSON only."""
        return None

    def message(self, campaign: Campaign, state: Any, last_seq: int) -> common_pb2.Campaign:
        game = self.s.runner.game(campaign.id)
        tracks = self.tracks_completed(state)
        return campaign_message(campaign, game, state, last_seq, tracks)

    @rpc
    async def ListCampaigns(
        self, request: campaign_pb2.ListCampaignsRequest, context: Context
    ) -> campaign_pb2.ListCampaignsResponse:
        principal = auth.current_principal()

        def listing() -> list[common_pb2.Campaign]:
            found = []
            for campaign in self.s.store.list_campaigns():
                if principal.campaign_id is not None and campaign.id != principal.campaign_id:
                    continue
                loaded = self.s.runner.load(campaign.id)
                found.append(self.message(campaign, loaded.state, loaded.last_seq))
            return found

        return campaign_pb2.ListCampaignsResponse(campaigns=await self.s.run(context, listing))

    @rpc
    async def GetCampaign(
        self, request: campaign_pb2.GetCampaignRequest, context: Context
    ) -> campaign_pb2.GetCampaignResponse:
        cid, _ = campaign_caller(request)

        def get() -> common_pb2.Campaign:
            campaign = self.s.store.get_campaign(cid)
            loaded = self.s.runner.load(cid)
            return self.message(campaign, loaded.state, loaded.last_seq)

        return campaign_pb2.GetCampaignResponse(campaign=await self.s.run(context, get))

    @rpc
    async def GetSideView(
        self, request: campaign_pb2.GetSideViewRequest, context: Context
    ) -> campaign_pb2.GetSideViewResponse:
        cid, _, side_id = side_caller(request)
        legacy = wants_legacy_json(context)

        def view() -> campaign_pb2.GetSideViewResponse:
            loaded = self.s.runner.load(cid)
            game = self.s.runner.game(cid)
            if side_id not in game.sides_of(loaded.state):
                raise invalid("side_id", "no such side in this campaign", "unknown_side")
            typed_view = self.typed_side_view(loaded.state, side_id, loaded.last_seq, legacy)
            if typed_view is not None:
                return typed_view
            # A rule set without units, people or pools in TripWire's sense: the side's view
            # is the rule set's own (RulesService.GetView gives it too).
            seen = game.view_for(loaded.state, side_id)
            return campaign_pb2.GetSideViewResponse(
                side_id=side_id,
                last_seq=loaded.last_seq,
                view_json=legacy_text(legacy, seen),
                view=typed.ruleset_view(game, seen, side_id),
            )

        return await self.s.run(context, view)

    @rpc
    async def GetDiceLog(
        self, request: campaign_pb2.GetDiceLogRequest, context: Context
    ) -> campaign_pb2.GetDiceLogResponse:
        cid, principal = campaign_caller(request)
        if request.after_seq < 0:
            raise invalid("after_seq", "must be 0 or more")
        if request.limit < 0:
            raise invalid("limit", "must be 0 or more")
        limit = min(request.limit or DICE_PAGE, DICE_MAX)
        return await self.s.run(context, self._dice, principal, cid, request.after_seq, limit)

    def _dice(
        self, principal: Principal, cid: str, after_seq: int, limit: int
    ) -> campaign_pb2.GetDiceLogResponse:
        state = self.s.runner.load(cid).state
        game = self.s.runner.game(cid)
        rolls: list[campaign_pb2.DiceRoll] = []
        next_after = after_seq
        for stored in self.s.store.iter_events(cid, after_seq=after_seq):
            payload = game.event_for(state, json.loads(stored.payload), principal.side_id)
            found = (payload or {}).get("rolls") or []
            if len(rolls) + len(found) > limit and rolls:
                break
            for roll in found:
                rolls.append(
                    campaign_pb2.DiceRoll(
                        seq=stored.seq,
                        event_type=stored.type,
                        name=roll["name"],
                        index=roll["index"],
                        sides=roll["sides"],
                        faces=roll["faces"],
                        total=sum(roll["faces"]),
                    )
                )
            next_after = stored.seq
            if len(rolls) >= limit:
                break
        return campaign_pb2.GetDiceLogResponse(rolls=rolls, next_after_seq=next_after)
