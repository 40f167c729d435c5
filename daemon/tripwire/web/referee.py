"""The referee's desk for a TripWire campaign: every side's orders as they come in, resolving
the day, the battles waiting and what for, control of the field, the overview with the VP and
each end condition's progress.

Each action is the gRPC servicer's (ResolveTurn, SetRefereeInputs...), whose referee check
refuses a side's token whatever the page shows.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.tripwire.cli_report_rows import overrides
from mekref.daemon.tripwire.web.side import form_day
from mekref.daemon.web.calls import PageRefusal, call
from mekref.daemon.web.site import Site
from mekref.rules.tripwire.battle_pending import PendingBattle
from mekref.v1 import battle_pb2, campaign_pb2, orders_pb2


def _detail(battle: Any) -> dict[str, Any]:
    """A pending battle's typed detail as its JSON."""
    return typed.read(battle.detail, PendingBattle)


def _waiting_for(battle: Any) -> list[str]:
    """What a pending battle waits for, in words."""
    detail = _detail(battle)
    reported = set(detail.get("sides_reported", []))
    missing = [s for s in detail.get("sides_expected", []) if s not in reported]
    needs = [f"the battle file of {', '.join(missing)}"] if missing else []
    if not detail.get("control_side"):
        needs.append("who holds the field (control)")
    if detail.get("held"):
        needs.append(f"your confirmation: {detail['held']}")
    return needs or ["nothing: it resolves with the next file or your word"]


def _overrides(site: Site, cid: str) -> list[dict[str, Any]]:
    """Every referee's word on the record, who and why (``mekref report``'s list; the desk is
    the referee's only: the servicers above refused any other token)."""
    runner = site.services.runner
    state = runner.load(cid).state
    return overrides(state, list(runner.events(cid)), None)


def _share_of_start(standing: Any) -> str:
    """A side's BV now as a share of its start (line 412), as the rules work it out
    (``OverviewStanding.percent_of_start``), or "?" when it cannot be told: no starting BV yet,
    or units of the side without a BV (R-VP-3)."""
    if not standing.HasField("percent_of_start_fraction"):
        return "?"
    share = standing.percent_of_start_fraction
    return f"{share.num / share.den:.1f}%"


def _bv_start_now(standing: Any) -> str:
    """A side's BV at the start and now, or "?" for both while units of the side have no BV
    (R-VP-3): the sums would count them as 0."""
    if standing.units_without_bv:
        return f"? / ? ({standing.units_without_bv} units without a BV)"
    return f"{standing.starting_bv} / {standing.effective_bv}"


def _vp(standing: Any, count: int) -> str:
    """A VP count, marked as a lower bound while battles of the side have VP not known (R-VP-6)."""
    return f"{count} + ?" if standing.battles_vp_unknown else str(count)


async def desk(site: Site, request: Request, principal: Principal, cid: str) -> Response:
    campaign = await site.campaign(principal, cid)
    orders = {}
    for side in campaign.sides:
        listed = await call(
            principal,
            site.orders.ListOrders,
            orders_pb2.ListOrdersRequest(campaign_id=cid, side_id=side.side_id),
        )
        orders[side.side_id] = list(listed.orders)
    overview = await call(
        principal, site.campaigns.GetOverview, campaign_pb2.GetOverviewRequest(campaign_id=cid)
    )
    pending = await call(
        principal,
        site.battles.ListPendingBattles,
        battle_pb2.ListPendingBattlesRequest(campaign_id=cid),
    )
    return site.render(
        request,
        "tripwire_referee.html",
        overrides=await run_in_threadpool(_overrides, site, cid),
        campaign=campaign,
        orders=orders,
        overview=overview.overview if overview.map_started else None,
        share_of_start=_share_of_start,
        bv_start_now=_bv_start_now,
        vp=_vp,
        battles=[(b, _detail(b), _waiting_for(b)) for b in pending.battles],
        unmatched=pending.unmatched_files,
        quarantined=pending.quarantined_files,
        last_seq=campaign.last_seq,
    )


def routes(site: Site) -> list[BaseRoute]:
    async def resolve(request: Request) -> Response:
        cid, principal = await site.who(request)
        form = await site.form(request)
        day = form_day(form)
        try:
            done = await call(
                principal,
                site.orders.ResolveTurn,
                orders_pb2.ResolveTurnRequest(campaign_id=cid, day=day),
            )
        except PageRefusal as refusal:
            site.flash(request, "refused", f"day {day}: {refusal.message}")
            return site.back(cid)
        site.flash(request, "ok", f"day {day} resolved: {len(done.event_types)} event(s)")
        return site.back(cid)

    async def control(request: Request) -> Response:
        cid, principal = await site.who(request)
        form = await site.form(request)
        battle_id = str(form.get("battle_id") or "")
        try:
            await call(
                principal,
                site.battles.SetRefereeInputs,
                battle_pb2.SetRefereeInputsRequest(
                    campaign_id=cid,
                    battle_id=battle_id,
                    field_controller_side_id=str(form.get("side_id") or ""),
                    reason=str(form.get("reason") or ""),
                    close_battle=form.get("close") == "yes",
                ),
            )
        except PageRefusal as refusal:
            site.flash(request, "refused", f"battle {battle_id}: {refusal.message}")
            return site.back(cid, "#battles")
        site.flash(request, "ok", f"battle {battle_id}: recorded")
        return site.back(cid, "#battles")

    return [
        Route("/c/{cid}/resolve", resolve, methods=["POST"]),
        Route("/c/{cid}/control", control, methods=["POST"]),
    ]
