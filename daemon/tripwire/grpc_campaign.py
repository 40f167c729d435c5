"""CampaignService's TripWire RPCs: a TripWire campaign's creation, a side's typed view, the
strategic overview and the report of one battle. The RPCs every rule set has are the core's
(:class:`~mekref.daemon.grpc.services.campaign.CampaignServicer`), which this extends.
"""

from __future__ import annotations

import re
import secrets
from fractions import Fraction
from typing import Any

from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.errors import FieldViolation, invalid, violations_error
from mekref.daemon.grpc.services.base import (
    Context,
    campaign_caller,
    legacy_text,
    rpc,
    wants_legacy_json,
)
from mekref.daemon.grpc.services.campaign import CampaignServicer
from mekref.daemon.grpc.shapes import enum_number
from mekref.daemon.tripwire import grpc_reports as reports
from mekref.daemon.tripwire.grpc_guard import require_tripwire
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.commands import CreateCampaign, SideSpec
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.side_overview import Overview, overview_of
from mekref.rules.tripwire.turn.view import SideView
from mekref.v1 import campaign_pb2, common_pb2, tripwire_pb2

_SIDE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def side_view_message(
    state: CampaignState, side_id: str, last_seq: int, legacy: bool
) -> campaign_pb2.GetSideViewResponse:
    units = [
        campaign_pb2.Unit(
            unit_id=u.unit_id,
            chassis=u.chassis,
            model=u.model,
            kind=str(u.kind),
            tonnage=str(to_jsonable(u.tonnage)),
            tonnage_fraction=common_pb2.Fraction(
                num=Fraction(u.tonnage).numerator, den=Fraction(u.tonnage).denominator
            ),
            bv=u.bv,
            company=u.company,
            lance=u.lance,
            crew=list(u.crew),
            kind_enum=enum_number(tripwire_pb2.Tripwire.UnitKind, str(u.kind)),
        )
        for u in state.units.values()
        if u.side_id == side_id
    ]
    people = [
        campaign_pb2.Person(
            person_id=p.person_id,
            name=p.name,
            unit_id=p.unit_id or "",
            gunnery=p.gunnery,
            piloting=p.piloting,
            hits=p.hits,
            status=str(p.status),
            status_enum=enum_number(tripwire_pb2.Tripwire.PersonStatus, str(p.status)),
        )
        for p in state.people.values()
        if p.side_id == side_id
    ]
    pools = [
        campaign_pb2.Pool(
            pool_id=p.pool_id,
            name=p.name,
            kind=str(p.kind),
            balance=p.balance,
            capacity=p.capacity,
            kind_enum=enum_number(tripwire_pb2.Tripwire.PoolKind, str(p.kind)),
        )
        for p in state.pools.values()
        if p.side_id == side_id
    ]
    seen = TRIPWIRE.view_for(state, side_id)
    side_view = tripwire_pb2.Tripwire.SideView()
    typed.fill(side_view, SideView, seen)
    return campaign_pb2.GetSideViewResponse(
        side_id=side_id,
        last_seq=last_seq,
        units=units,
        people=people,
        pools=pools,
        view_json=legacy_text(legacy, seen),
        side_view=side_view,
    )


class TripwireCampaignServicer(CampaignServicer):
    def tracks_completed(self, state: Any) -> int:
        # Tracks are TripWire's word for battles fought; other rule sets count none.
        return state.tracks_completed if isinstance(state, CampaignState) else 0

    def typed_side_view(
        self, state: Any, side_id: str, last_seq: int, legacy: bool
    ) -> campaign_pb2.GetSideViewResponse | None:
        if not isinstance(state, CampaignState):
            return None
        return side_view_message(state, side_id, last_seq, legacy)

    @rpc
    async def CreateCampaign(
        self, request: campaign_pb2.CreateCampaignRequest, context: Context
    ) -> campaign_pb2.CreateCampaignResponse:
        principal = auth.current_principal()
        auth.require_global_referee(principal)
        problems: list[FieldViolation] = []
        if not request.name.strip():
            problems.append(FieldViolation("name", "a campaign needs a name"))
        if not request.ruleset:
            problems.append(FieldViolation("ruleset", "name the rule set, e.g. tripwire"))
        if len(request.sides) < 2:
            problems.append(FieldViolation("sides", "a campaign has two or more sides"))
        seen: set[str] = set()
        for i, side in enumerate(request.sides):
            if not _SIDE_ID.fullmatch(side.side_id):
                problems.append(
                    FieldViolation(
                        f"sides[{i}].side_id", "lowercase letters, digits, '-' or '_' (1-64)"
                    )
                )
            elif side.side_id in seen:
                problems.append(FieldViolation(f"sides[{i}].side_id", "appears twice"))
            seen.add(side.side_id)
            if not side.name.strip():
                problems.append(FieldViolation(f"sides[{i}].name", "a side needs a name"))
        if problems:
            raise violations_error(problems)
        command = CreateCampaign(
            actor=principal.actor,
            name=request.name,
            ruleset=request.ruleset,
            seed=request.seed or secrets.token_hex(16),
            sides=tuple(SideSpec(side_id=s.side_id, name=s.name) for s in request.sides),
            house_rules=request.house_rules,
        )
        if request.ruleset != TRIPWIRE.name:
            raise invalid(
                "ruleset",
                "CreateCampaign makes TripWire campaigns; start a campaign of another rule set "
                "with RulesService.StartCampaign",
                "unknown_ruleset",
            )

        def create() -> common_pb2.Campaign:
            executed = self.s.runner.create(command)  # a refused set-up stores nothing
            campaign = self.s.store.get_campaign(executed.campaign_id)
            return self.message(campaign, executed.state, executed.last_seq)

        return campaign_pb2.CreateCampaignResponse(campaign=await self.s.run(context, create))

    @rpc
    async def GetOverview(
        self, request: campaign_pb2.GetOverviewRequest, context: Context
    ) -> campaign_pb2.GetOverviewResponse:
        cid, principal = campaign_caller(request)
        # The referee asking for no side gets the whole picture; everyone else a side's cut
        # (a side token only its own: naming another side is refused).
        whole = principal.is_referee and not request.side_id
        side_id = "" if whole else auth.acting_side(principal, cid, request.side_id)

        def overview() -> campaign_pb2.GetOverviewResponse:
            require_tripwire(self.s, cid, "GetOverview")
            loaded = self.s.runner.load(cid)
            state = loaded.state
            assert isinstance(state, CampaignState)  # require_tripwire said so
            if side_id and side_id not in state.sides:
                raise invalid("side_id", "no such side in this campaign", "unknown_side")
            found = overview_of(state, side_id)
            response = campaign_pb2.GetOverviewResponse(
                side_id=side_id, last_seq=loaded.last_seq, map_started=found is not None
            )
            if found is not None:
                data = to_jsonable(found)
                assert isinstance(data, dict)
                typed.fill(response.overview, Overview, data)
            return response

        return await self.s.run(context, overview)

    @rpc
    async def GetBattleReport(
        self, request: campaign_pb2.GetBattleReportRequest, context: Context
    ) -> campaign_pb2.GetBattleReportResponse:
        cid, principal = campaign_caller(request)
        if not request.battle_id:
            raise invalid("battle_id", "name the battle")
        legacy = wants_legacy_json(context)

        def report() -> campaign_pb2.GetBattleReportResponse:
            require_tripwire(self.s, cid, "GetBattleReport")
            state = self.s.runner.load(cid).state
            assert isinstance(state, CampaignState)  # require_tripwire said so
            found = reports.battle_report(state, request.battle_id, principal.side_id)
            data = reports.report_json(found, principal.is_referee)
            return campaign_pb2.GetBattleReportResponse(
                text=reports.report_text(found, state),
                report_json=legacy_text(legacy, data),
                report=typed.fill(tripwire_pb2.Tripwire.BattleReport(), reports.BattleReport, data),
            )

        return await self.s.run(context, report)
