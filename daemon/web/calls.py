"""Page actions call the gRPC servicers themselves: one way into the rules, whoever asks.

A page handler sets the logged-in principal (as the gRPC token check does for an RPC), builds
the same request message a gRPC client sends and awaits the servicer's method with a
:class:`PageContext` in place of gRPC's. The servicer checks the token's side and campaign,
validates, runs the command through the same batcher and pipeline, and answers with the same
response message; a refusal reaches the page as :class:`PageRefusal` carrying the status the
gRPC client would have read, in the same words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from mekref.daemon.grpc import auth
from mekref.daemon.grpc.tokens import Principal

R = TypeVar("R")

#: Events a live feed holds for a page that reads slowly; the servicer's write then waits
#: (and gives up after its write timeout), as it does for a slow gRPC client.
FEED_QUEUE = 64


class PageRefusal(Exception):
    """The servicer refused: ``code`` and ``message`` as a gRPC client would see them."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def http_status(self) -> int:
        return _HTTP.get(self.code, 400)


_HTTP = {
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNIMPLEMENTED: 501,
}


@dataclass
class PageContext:
    """The part of ``grpc.aio.ServicerContext`` the servicers use.

    No deadline (the browser waits as long as it likes); ``abort_with_status`` raises
    :class:`PageRefusal`; ``write`` (the event stream's) hands the message to a queue the page
    reads."""

    feed: asyncio.Queue[Any] | None = None

    def time_remaining(self) -> float | None:
        return None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """No headers: the pages read the typed fields, never the deprecated ``*_json``."""
        return ()

    async def abort_with_status(self, status: Any) -> None:
        raise PageRefusal(status.code, status.details)

    async def write(self, message: Any) -> None:
        assert self.feed is not None, "only the event stream writes"
        await self.feed.put(message)


async def call(principal: Principal, method: Callable[[Any, Any], Awaitable[R]], request: Any) -> R:
    """Await ``method(request, context)`` as ``principal`` (a servicer's bound method)."""
    auth.act_as(principal)
    return await method(request, PageContext())
