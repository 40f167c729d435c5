"""Operation TripWire's pages: a side's page (map, formations, orders, engagements, battle
files, books, live feed) and the referee's desk. Registered by the composition root."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from mekref.daemon.grpc.tokens import Principal
from mekref.daemon.tripwire.web import referee, side
from mekref.daemon.web.site import RulesetPages, Site


async def _home(site: Site, request: Request, principal: Principal, cid: str) -> Response:
    if principal.is_referee:
        return await referee.desk(site, request, principal, cid)
    return await side.page(site, request, principal, cid)


def _routes(site: Site) -> Sequence[BaseRoute]:
    return [*side.routes(site), *referee.routes(site)]


def pages() -> RulesetPages:
    return RulesetPages("tripwire", _routes, _home)


__all__ = ["pages"]
