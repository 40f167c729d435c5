"""The pages' neutral core: login, sessions, CSRF, security headers, the campaign list, the
live event feed, and the table of rule-set pages (each rule set's wing registers its own).

Every page action is a call of the gRPC servicers (:mod:`mekref.daemon.web.calls`) as the
logged-in token: the pages hold no rule and no access check of their own beyond "logged in".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.errors import ApiError
from mekref.daemon.grpc.services.base import Services, check_campaign_id, to_api_error
from mekref.daemon.grpc.services.battle import BattleServicer
from mekref.daemon.grpc.services.campaign import CampaignServicer
from mekref.daemon.grpc.services.events import EventServicer
from mekref.daemon.grpc.services.rules import RulesServicer
from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.store import StoreError
from mekref.daemon.web.calls import FEED_QUEUE, PageContext, PageRefusal, call
from mekref.daemon.web.sessions import COOKIE, Session, Sessions, csrf_ok
from mekref.daemon.wings import servicers as wing_servicers
from mekref.rules.refusal import Refusal
from mekref.v1 import campaign_pb2, event_pb2

HERE = Path(__file__).parent
#: No inline script or style, no framing, nothing from elsewhere: the pages load their one
#: script and stylesheet from /static, and the map is an <img> of our own SVG.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
)
#: Bytes a form may add around an uploaded file (field names, CSRF token, multipart framing).
FORM_SLACK = 64 * 1024
#: Events the feed replays when a page opens it (older ones are in the books).
FEED_BACKLOG = 30


class SecurityHeaders:
    """Adds :data:`HEADERS` to every response (HSTS too under TLS)."""

    def __init__(self, app: ASGIApp, *, tls: bool) -> None:
        self.app = app
        self.extra = ((b"strict-transport-security", b"max-age=31536000"),) if tls else ()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((k, v) for k, v in (*HEADERS, *self.extra) if k not in names),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


@dataclass(frozen=True)
class RulesetPages:
    """One rule set's wing of the pages: its routes and its campaign home page."""

    ruleset: str
    routes: Callable[[Site], Sequence[BaseRoute]]
    home: Callable[[Site, Request, Principal, str], Awaitable[Response]]


@dataclass
class Site:
    services: Services
    sessions: Sessions
    tls: bool
    pages: dict[str, RulesetPages] = field(default_factory=dict)
    #: The rule set every campaign without pages of its own is shown with ("" : none).
    fallback: RulesetPages | None = None

    def __post_init__(self) -> None:
        s = self.services
        #: The largest request body: the API's upload cap plus room for the form around it.
        self.body_limit = s.upload_max_bytes + FORM_SLACK
        # The servicers the gRPC server runs: a wing's where it serves the service (TripWire's
        # campaign, battle and orders RPCs), else the core's. Typed Any: which class it is
        # depends on the wings registered (mekref.daemon.wings).
        core: dict[str, Callable[[Any], object]] = {
            "mekref.v1.CampaignService": CampaignServicer,
            "mekref.v1.BattleService": BattleServicer,
        }
        made = {name: factory(s) for name, factory in {**core, **wing_servicers()}.items()}
        self.campaigns: Any = made["mekref.v1.CampaignService"]
        self.orders: Any = made.get("mekref.v1.OrdersService")
        self.battles: Any = made["mekref.v1.BattleService"]
        self.events = EventServicer(s)
        self.rules = RulesServicer(s)
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(("html",)),
            trim_blocks=True,
            lstrip_blocks=True,
        )

    # -- helpers the wings use --------------------------------------------------------------
    def render(self, request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        session: Session | None = request.state.session
        flashes = list(session.flashes) if session is not None else []
        if session is not None:
            session.flashes.clear()
        html = self.templates.get_template(name).render(
            csrf=session.csrf if session is not None else "",
            flashes=flashes,
            logged_in=session is not None and session.token is not None,
            **values,
        )
        return HTMLResponse(html, status_code=status)

    async def user(self, request: Request) -> Principal | None:
        session: Session | None = request.state.session
        return await run_in_threadpool(self.sessions.principal, session)

    async def who(self, request: Request) -> tuple[str, Principal]:
        """The campaign in the path (checked as the API checks it) and the logged-in caller."""
        principal = await self.user(request)
        if principal is None:
            raise PageRefusal(grpc.StatusCode.UNAUTHENTICATED, "log in with your token first")
        return check_campaign_id(request.path_params["cid"]), principal

    async def form(self, request: Request) -> FormData:
        """The posted form, once its CSRF token is checked (else :class:`PageRefusal`)."""
        form = await request.form(max_files=1, max_fields=200)
        if not csrf_ok(request.state.session, form.get("csrf")):
            raise PageRefusal(
                grpc.StatusCode.PERMISSION_DENIED,
                "the form is stale or from another site: reload the page and send it again",
            )
        return form

    def flash(self, request: Request, kind: str, text: str) -> None:
        session: Session | None = request.state.session
        if session is not None:
            session.flashes.append((kind, text))

    def back(self, cid: str, anchor: str = "") -> RedirectResponse:
        return RedirectResponse(f"/c/{cid}{anchor}", status_code=303)

    async def campaign(self, principal: Principal, cid: str) -> Any:
        found = await call(
            principal, self.campaigns.GetCampaign, campaign_pb2.GetCampaignRequest(campaign_id=cid)
        )
        return found.campaign


Handler = Callable[["Site", Request], Awaitable[Response]]


def bind(site: Site, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A Starlette endpoint calling ``handler(site, request)``."""

    async def endpoint(request: Request) -> Response:
        return await handler(site, request)

    return endpoint


# -- the neutral routes ---------------------------------------------------------------------
def _routes(site: Site) -> list[BaseRoute]:
    async def home(request: Request) -> Response:
        principal = await site.user(request)
        if principal is None:
            return RedirectResponse("/login", status_code=303)
        if principal.campaign_id is not None:
            return site.back(principal.campaign_id)
        listing = await call(
            principal, site.campaigns.ListCampaigns, campaign_pb2.ListCampaignsRequest()
        )
        return site.render(request, "campaigns.html", campaigns=listing.campaigns)

    async def login_page(request: Request) -> Response:
        return site.render(request, "login.html")

    async def login(request: Request) -> Response:
        form = await site.form(request)
        token = str(form.get("token") or "").strip()
        session = await run_in_threadpool(site.sessions.log_in, request.state.session, token)
        if session is None:
            site.flash(request, "refused", "that token is unknown or revoked: ask the referee")
            return site.render(request, "login.html", status=401)
        response = RedirectResponse("/", status_code=303)
        _set_cookie(response, session, site.tls)
        return response

    async def logout(request: Request) -> Response:
        await site.form(request)
        site.sessions.drop(request.state.session)
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def campaign_home(request: Request) -> Response:
        principal = await site.user(request)
        if principal is None:
            return RedirectResponse("/login", status_code=303)
        cid = request.path_params["cid"]
        found = await site.campaign(principal, cid)
        pages = site.pages.get(found.ruleset, site.fallback)
        if pages is None:
            raise PageRefusal(
                grpc.StatusCode.UNIMPLEMENTED, f"no pages for the {found.ruleset} rules"
            )
        return await pages.home(site, request, principal, found.campaign_id)

    async def events(request: Request) -> Response:
        principal = await site.user(request)
        if principal is None:
            return Response("log in first", status_code=401)
        cid = request.path_params["cid"]
        after = _after(request)
        return StreamingResponse(
            _feed(site, principal, cid, after),
            media_type="text/event-stream",
            headers={"x-accel-buffering": "no"},
        )

    return [
        Route("/", home),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/c/{cid}", campaign_home),
        Route("/c/{cid}/events", events),
        # follow_symlink: an editable install links the files from the source tree.
        Mount("/static", StaticFiles(directory=HERE / "static", follow_symlink=True)),
    ]


def _after(request: Request) -> int:
    text = request.headers.get("last-event-id") or request.query_params.get("after") or "-1"
    try:
        return int(text)
    except ValueError:
        return -1


async def _feed(site: Site, principal: Principal, cid: str, after: int) -> AsyncIterator[str]:
    """Server-sent events from the gRPC event stream itself (same filter, same hub)."""
    if after < 0:  # a new page: the last few events, then live
        last = await call(
            principal, site.campaigns.GetCampaign, campaign_pb2.GetCampaignRequest(campaign_id=cid)
        )
        after = max(0, last.campaign.last_seq - FEED_BACKLOG)
    feed: asyncio.Queue[Any] = asyncio.Queue(FEED_QUEUE)
    auth.act_as(principal)  # the task below copies this context
    request = event_pb2.SubscribeEventsRequest(campaign_id=cid, after_seq=after)
    context: Any = PageContext(feed=feed)  # stands in for grpc.aio's ServicerContext
    stream = asyncio.create_task(site.events.SubscribeEvents(request, context))
    try:
        while True:
            getter = asyncio.ensure_future(feed.get())
            done, _ = await asyncio.wait({getter, stream}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                yield _ended(stream)
                return
            message = getter.result()
            yield _sse(message.event)
    finally:
        stream.cancel()
        with contextlib.suppress(BaseException):
            await stream


def _sse(event: Any) -> str:
    data = json.dumps({"seq": event.seq, "type": event.type, "text": _summary(event)})
    return f"id: {event.seq}\nevent: campaign\ndata: {data}\n\n"


def _summary(event: Any) -> str:
    """The event's payload in short: the fields the reader may see (already filtered)."""
    payload = typed.event_fields(event.event)
    parts = [f"{k}={_short(v)}" for k, v in payload.items() if k not in ("type", "actor")]
    text = ", ".join(parts)
    return text if len(text) <= 240 else text[:237] + "..."


def _short(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _ended(stream: asyncio.Task[None]) -> str:
    error = stream.exception() if not stream.cancelled() else None
    why = error.message if isinstance(error, PageRefusal) else "the stream ended"
    return f"event: end\ndata: {json.dumps({'text': why})}\n\n"


def _set_cookie(response: Response, session: Session, tls: bool) -> None:
    response.set_cookie(
        COOKIE, session.session_id, httponly=True, samesite="strict", secure=tls, path="/"
    )


class SessionLayer:
    """Finds the request's session (or starts an anonymous one, for the login form's CSRF
    token) and turns a servicer's refusal into a page in the refusal's words."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        session = self.site.sessions.get(request.cookies.get(COOKIE))
        fresh = session is None
        if session is None:
            session = self.site.sessions.new()
        scope.setdefault("state", {})["session"] = session

        async def with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                holder = Response()
                _set_cookie(holder, session, self.site.tls)
                cookie = holder.headers.raw[-1]
                has = any(k == b"set-cookie" for k, _ in message.get("headers", []))
                if not has:
                    message["headers"] = [*message.get("headers", []), cookie]
            await send(message)

        await self.app(scope, _capped(receive, self.site.body_limit), with_cookie)


def _as_refusal(exc: Exception) -> PageRefusal | None:
    """A servicer's refusal, an access check's (``auth``) or a store's, in the API's words."""
    if isinstance(exc, PageRefusal):
        return exc
    error = to_api_error(exc)
    return PageRefusal(error.code, error.message) if error is not None else None


class BodyTooLarge(PageRefusal):
    def __init__(self, limit: int) -> None:
        super().__init__(
            grpc.StatusCode.INVALID_ARGUMENT,
            f"the request is over {limit:,} bytes: battle files are capped as on the API",
        )

    @property
    def http_status(self) -> int:
        return 413


def _capped(receive: Receive, limit: int) -> Receive:
    """``receive`` refusing a body past ``limit`` bytes before it is all read: an upload is
    capped as on the API without holding an oversized file first."""
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge(limit)
        return message

    return counted


def build_site(services: Services, sessions: Sessions, *, tls: bool, pages: Sequence[RulesetPages],
               fallback: RulesetPages | None = None) -> ASGIApp:  # fmt: skip
    """The whole ASGI application: the neutral routes and every registered wing's."""
    site = Site(services, sessions, tls, {p.ruleset: p for p in pages}, fallback)
    routes = _routes(site)
    for wing in (*pages, *((fallback,) if fallback is not None else ())):
        routes.extend(wing.routes(site))

    async def refused(request: Request, exc: Exception) -> Response:
        refusal = _as_refusal(exc)
        assert refusal is not None, "registered for refusals only"
        return site.render(
            request, "error.html", status=refusal.http_status, message=refusal.message
        )

    # A servicer's refusal, an access check's and a store's: a page in the API's words.
    handled = (PageRefusal, ApiError, Refusal, StoreError)
    app = Starlette(routes=routes, exception_handlers=dict.fromkeys(handled, refused))
    return SecurityHeaders(SessionLayer(app, site), tls=tls)
