"""A TripWire side's page and its actions: orders, scenario downloads, battle-file uploads.

Each action is the gRPC servicer's (SubmitOrders, ExportScenario, UploadBattleFile...) called
as the logged-in token; the map is the CLI's ``map render`` drawing for the token's side.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mekref.daemon.cli_common import CliError
from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.tripwire.cli_map import referee_svg, side_svg
from mekref.daemon.web.calls import PageRefusal, call
from mekref.daemon.web.site import Site, bind
from mekref.rules.tripwire.turn.orders import actions
from mekref.rules.tripwire.turn.state import IN_ORBIT
from mekref.rules.tripwire.turn.view import SideView
from mekref.v1 import battle_pb2, campaign_pb2, orders_pb2

#: Actions by name for the order forms; the rules refuse what a formation may not do today.
ACTION_CHOICES = tuple(sorted(actions()))
#: Left out of a formation's form where the rules refuse them whatever else is given
#: (``orders._check_order``: "not in orbit", "already in orbit").
ONLY_IN_ORBIT = frozenset({"orbital_insertion", "combat_drop"})
ONLY_ON_THE_GROUND = frozenset({"achieve_orbit"})


def actions_for(hex_label: str) -> tuple[str, ...]:
    """The actions offered to a formation standing in ``hex_label`` (IN_ORBIT: in orbit)."""
    dropped = ONLY_ON_THE_GROUND if hex_label == IN_ORBIT else ONLY_IN_ORBIT
    return tuple(a for a in ACTION_CHOICES if a not in dropped)


async def books(site: Site, principal: Principal, cid: str, side_id: str) -> dict[str, Any]:
    """The side's cut of the overview and the report of each battle it fought."""
    found = await call(
        principal,
        site.campaigns.GetOverview,
        campaign_pb2.GetOverviewRequest(campaign_id=cid, side_id=side_id),
    )
    reports = []
    for engagement in found.overview.engagements:
        if not engagement.battle_id:
            continue
        try:
            report = await call(
                principal,
                site.campaigns.GetBattleReport,
                campaign_pb2.GetBattleReportRequest(
                    campaign_id=cid, battle_id=engagement.battle_id
                ),
            )
        except PageRefusal:
            continue
        reports.append((engagement.battle_id, report.text))
    return {"overview": found.overview if found.map_started else None, "reports": reports}


def formations(view: Any, found: dict[str, Any]) -> list[dict[str, Any]]:
    """Each formation with its units (crew condition) and its order for the day, if any."""
    units = {u.unit_id: u for u in view.units}
    people = {p.person_id: p for p in view.people}
    orders = {o["formation_id"]: o for o in found.get("orders", [])}
    out = []
    for f in found.get("formations", []):
        rows = []
        for unit_id in f.get("unit_ids", []):
            unit = units.get(unit_id)
            if unit is None:
                continue
            crew = [people[c] for c in unit.crew if c in people]
            rows.append({"unit": unit, "crew": crew})
        out.append(
            {
                "f": f,
                "units": rows,
                "order": orders.get(f["formation_id"]),
                "actions": actions_for(f.get("hex", "")),
            }
        )
    return out


async def page(site: Site, request: Request, principal: Principal, cid: str) -> Response:
    view = await call(
        principal, site.campaigns.GetSideView, campaign_pb2.GetSideViewRequest(campaign_id=cid)
    )
    found = typed.read(view.side_view, SideView)
    side_id = view.side_id
    campaign = await site.campaign(principal, cid)
    return site.render(
        request,
        "tripwire_side.html",
        campaign=campaign,
        side_id=side_id,
        view=found,
        pools=view.pools,
        formations=formations(view, found),
        books=await books(site, principal, cid, side_id),
        last_seq=view.last_seq,
    )


def _order_from(form: Any) -> orders_pb2.FormationOrder:
    order = orders_pb2.FormationOrder(
        formation_id=str(form.get("formation_id") or ""), action=str(form.get("action") or "")
    )
    path = [h.strip() for h in str(form.get("path") or "").replace(" ", ",").split(",")]
    order.path.extend(h for h in path if h)
    target = str(form.get("target") or "").strip()
    if target:
        order.target = target
    for pair in str(form.get("params") or "").split(","):
        key, sep, value = pair.partition("=")
        if sep and key.strip():
            order.params[key.strip()] = value.strip()
    return order


def form_day(form: Any) -> int:
    try:
        return int(str(form.get("day") or ""))
    except ValueError:
        return -1  # the rules answer "orders are for day N"


async def submit(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    form = await site.form(request)
    order = _order_from(form)
    request_message = orders_pb2.SubmitOrdersRequest(
        campaign_id=cid, side_id=str(form.get("side_id") or ""), day=form_day(form)
    )
    request_message.orders.append(order)
    try:
        done = await call(principal, site.orders.SubmitOrders, request_message)
    except PageRefusal as refusal:
        site.flash(request, "refused", f"{order.formation_id}: {refusal.message}")
        return site.back(cid, "#orders")
    for stored in done.stored:
        words = " ".join([stored.action, ",".join(stored.path)]).strip()
        if stored.HasField("target"):
            words += f" -> {stored.target}"
        site.flash(request, "ok", f"{stored.formation_id}: {words} accepted")
    for refused in done.refused:
        site.flash(request, "refused", f"{refused.formation_id}: {refused.reason}")
    return site.back(cid, "#orders")


async def route(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    form = await site.form(request)
    fid = str(form.get("formation_id") or "")
    try:
        found = await call(
            principal,
            site.orders.PlanRoute,
            orders_pb2.PlanRouteRequest(
                campaign_id=cid,
                formation_id=fid,
                to_hex=str(form.get("to_hex") or "").strip(),
                forced_march=form.get("forced_march") == "yes",
            ),
        )
    except PageRefusal as refusal:
        site.flash(request, "refused", f"{fid}: {refusal.message}")
        return site.back(cid, "#orders")
    order = found.todays_order
    site.flash(
        request,
        "ok",
        f"{fid}: {found.start_hex} to {found.goal_hex} by {','.join(found.path)}, "
        f"{found.cost_mp} MP ({found.mp_per_day} a day); today's order: {order.action} "
        f"{','.join(order.path)}",
    )
    return site.back(cid, "#orders")


async def withdraw(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    form = await site.form(request)
    fid = str(form.get("formation_id") or "")
    await call(
        principal,
        site.orders.WithdrawOrders,
        orders_pb2.WithdrawOrdersRequest(
            campaign_id=cid,
            side_id=str(form.get("side_id") or ""),
            day=form_day(form),
            formation_ids=[fid],
        ),
    )
    site.flash(request, "ok", f"{fid}: order withdrawn")
    return site.back(cid, "#orders")


async def export(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    eid, what = request.path_params["eid"], request.path_params["what"]
    found = await call(
        principal,
        site.battles.ExportScenario,
        battle_pb2.ExportScenarioRequest(
            campaign_id=cid, engagement_id=eid, side_id=request.query_params.get("side", "")
        ),
    )
    files = {
        "mul": (found.file_name, found.content),
        "sheet": (found.file_name.removesuffix(".mul") + ".md", found.sheet_markdown.encode()),
        "mms": (found.scenario_file_name, found.scenario_mms),
        "options": (found.options_file_name, found.options_xml),
    }
    name, content = files.get(what, ("", b""))
    if not name:
        return Response("no such file for this engagement", status_code=404)
    return Response(
        content,
        media_type="application/octet-stream",
        headers={"content-disposition": f'attachment; filename="{_safe(name)}"'},
    )


async def upload(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    form = await site.form(request)
    given = form.get("file")
    if given is None or isinstance(given, str):
        site.flash(request, "refused", "choose the file MegaMek wrote first")
        return site.back(cid, "#upload")
    data = await given.read(site.services.upload_max_bytes + 1)
    try:
        done = await call(
            principal,
            site.battles.UploadBattleFile,
            battle_pb2.UploadBattleFileRequest(
                campaign_id=cid, content=data, file_name=given.filename or ""
            ),
        )
    except PageRefusal as refusal:
        site.flash(request, "refused", f"{given.filename}: {refusal.message}")
        return site.back(cid, "#upload")
    site.flash(request, "ok", f"{given.filename}: {upload_words(done)}")
    return site.back(cid, "#upload")


async def map_svg(site: Site, request: Request) -> Response:
    cid, principal = await site.who(request)
    asked = request.query_params.get("side", "")
    # The referee without a side: the whole map, every side and no fog (as `map render`).
    whole = principal.is_referee and not asked
    if whole:
        auth.require_campaign(principal, cid)
    side_id = "" if whole else auth.acting_side(principal, cid, asked)
    state = await run_in_threadpool(lambda: site.services.runner.load(cid).state)
    try:
        if whole:
            svg = await run_in_threadpool(referee_svg, state)
        else:
            svg = await run_in_threadpool(side_svg, state, side_id)
    except CliError as exc:
        return Response(str(exc), status_code=404)
    return Response(svg, media_type="image/svg+xml")


def routes(site: Site) -> list[BaseRoute]:
    return [
        Route("/c/{cid}/orders", bind(site, submit), methods=["POST"]),
        Route("/c/{cid}/withdraw", bind(site, withdraw), methods=["POST"]),
        Route("/c/{cid}/route", bind(site, route), methods=["POST"]),
        Route("/c/{cid}/export/{eid}/{what}", bind(site, export)),
        Route("/c/{cid}/upload", bind(site, upload), methods=["POST"]),
        Route("/c/{cid}/map.svg", bind(site, map_svg)),
    ]


_UPLOAD_WORDS = {
    battle_pb2.UPLOAD_OUTCOME_APPLIED: "applied",
    battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED: "already applied (the same file came before)",
    battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED: "held",
    battle_pb2.UPLOAD_OUTCOME_QUARANTINED: "quarantined",
}


def upload_words(done: Any) -> str:
    words = _UPLOAD_WORDS.get(done.outcome, "taken")
    events = f" (events {done.first_seq}-{done.last_seq})" if done.last_seq else ""
    return f"{words}{events}" + (f": {done.reason}" if done.reason else "")


def _safe(name: str) -> str:
    return "".join(c for c in name if c.isalnum() or c in "._-") or "file"
