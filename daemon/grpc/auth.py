"""Bearer-token authentication and the access rules every servicer applies.

Every method except health checking and reflection needs ``authorization: Bearer <token>``.
Each of the API's method handlers is wrapped, when it is registered (:class:`GuardedRegistry`),
in a check that resolves the token to a :class:`Principal` before the servicer runs and puts it
in a context variable for the RPC's task; a call without a valid token never reaches a
servicer. Access rules are deliberately uniform: asking about a campaign or side the token is
not for is PERMISSION_DENIED whether or not it exists, so a refusal tells nothing.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import time
from typing import TYPE_CHECKING, Any

import grpc
from grpc import aio

from mekref.daemon.grpc.errors import ApiError, denied
from mekref.daemon.grpc.tokens import Principal, TokenStore

#: How long a looked-up token is trusted before the database is asked again (revocation delay).
CACHE_SECONDS = 5.0

if TYPE_CHECKING:  # generic only in the type stubs
    Handler = grpc.RpcMethodHandler[Any, Any]
_PRINCIPAL: contextvars.ContextVar[Principal] = contextvars.ContextVar("mekref_principal")


def current_principal() -> Principal:
    """The caller of the RPC being served (set by the token check of :class:`GuardedRegistry`)."""
    try:
        return _PRINCIPAL.get()
    except LookupError:
        raise ApiError(
            grpc.StatusCode.UNAUTHENTICATED, "no credentials", "unauthenticated"
        ) from None


class Authenticator:
    """Token -> principal with a short cache, so a busy client is not a database query per call."""

    def __init__(self, tokens: TokenStore, *, cache_seconds: float = CACHE_SECONDS) -> None:
        self._tokens = tokens
        self._cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, Principal | None]] = {}
        self._lock = threading.Lock()

    def cached(self, token: str) -> tuple[bool, Principal | None]:
        """(found in the cache, principal); no database access, safe on the event loop."""
        with self._lock:
            hit = self._cache.get(token)
        if hit is not None and time.monotonic() - hit[0] < self._cache_seconds:
            return True, hit[1]
        return False, None

    def lookup(self, token: str) -> Principal | None:
        """Ask the database (blocking) and remember the answer for a few seconds."""
        found = self._tokens.lookup(token)
        with self._lock:
            if len(self._cache) > 10_000:  # guessed tokens must not grow memory without bound
                self._cache.clear()
            self._cache[token] = (time.monotonic(), found)
        return found

    async def principal(self, metadata: Any) -> Principal | None:
        token = bearer_token(metadata)
        if token is None:
            return None
        hit, found = self.cached(token)
        if hit:
            return found
        # A database round trip (PostgreSQL: the network) must not stall the event loop.
        return await asyncio.get_running_loop().run_in_executor(None, self.lookup, token)


def act_as(principal: Principal) -> None:
    """Make ``principal`` the caller for the current task: what the token check does for an RPC,
    the web pages do for a logged-in session before calling the same servicer."""
    _PRINCIPAL.set(principal)


def bearer_token(metadata: Any) -> str | None:
    for key, value in metadata or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def _unauthenticated() -> ApiError:
    return ApiError(
        grpc.StatusCode.UNAUTHENTICATED,
        "send a valid token as 'authorization: Bearer <token>' (mekref token create)",
        "unauthenticated",
    )


class GuardedRegistry:
    """The server as the generated ``add_*Servicer_to_server`` functions see it: each method
    handler they register is wrapped once, here, in the token check.

    Not an ``aio.ServerInterceptor``: with one, grpcio runs the interceptor chain for every call
    (coroutines, a new handler built per call) and skips its registered-method fast path, a
    cost ``python -m bench.grpc --compare-with`` shows. Health checking and reflection are
    added to the server itself, so they stay public."""

    def __init__(self, server: aio.Server, authenticator: Authenticator) -> None:
        self._server = server
        self._auth = authenticator

    def add_generic_rpc_handlers(self, generic_handlers: Any) -> None:
        self._server.add_generic_rpc_handlers(
            tuple(_GuardedGeneric(handler, self._auth) for handler in generic_handlers)
        )

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Handler]) -> None:
        guarded = {name: _guard(h, self._auth) for name, h in handlers.items()}
        self._server.add_registered_method_handlers(service, guarded)


class _GuardedGeneric(grpc.GenericRpcHandler):
    """A generic handler whose method handlers are guarded, each wrapped on its first call."""

    def __init__(self, inner: grpc.GenericRpcHandler, authenticator: Authenticator) -> None:
        self._inner = inner
        self._auth = authenticator
        self._guarded: dict[str, Handler] = {}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> Handler | None:
        method: str = handler_call_details.method
        found = self._guarded.get(method)
        if found is None:
            handler = self._inner.service(handler_call_details)
            if handler is None:  # not one of this service's methods: no entry kept for it
                return None
            found = self._guarded[method] = _guard(handler, self._auth)
        return found


async def _authenticated(
    authenticator: Authenticator, context: aio.ServicerContext[Any, Any]
) -> None:
    """Set the caller's principal for this call's task, or end the call UNAUTHENTICATED."""
    principal = await authenticator.principal(context.invocation_metadata())
    if principal is None:
        await _abort(context, _unauthenticated())
    _PRINCIPAL.set(principal)  # type: ignore[arg-type]


def _guard(handler: Handler, authenticator: Authenticator) -> Handler:
    """The same handler, run with the caller's principal set (or refusing the call without
    one). The token is read from each call's metadata; the wrapping is done once."""
    if handler.unary_unary is not None:
        inner_uu: Any = handler.unary_unary

        async def unary_unary(request: Any, context: aio.ServicerContext[Any, Any]) -> Any:
            await _authenticated(authenticator, context)
            return await inner_uu(request, context)

        return grpc.unary_unary_rpc_method_handler(
            unary_unary,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
    if handler.unary_stream is not None:
        inner_us: Any = handler.unary_stream
        if inspect.isasyncgenfunction(inner_us):

            async def stream_gen(request: Any, context: aio.ServicerContext[Any, Any]) -> Any:
                await _authenticated(authenticator, context)
                async for item in inner_us(request, context):
                    yield item

            behaviour: Any = stream_gen
        else:
            # A coroutine that writes with context.write (how the event stream applies a
            # write timeout); it must stay a coroutine for gRPC to accept its writes.
            async def stream_writer(request: Any, context: aio.ServicerContext[Any, Any]) -> None:
                await _authenticated(authenticator, context)
                await inner_us(request, context)

            behaviour = stream_writer
        return grpc.unary_stream_rpc_method_handler(
            behaviour,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
    # The API has no client-streaming methods; refuse rather than run one unauthenticated.
    raise RuntimeError("client-streaming methods are not supported by the token check")


async def _abort(context: aio.ServicerContext[Any, Any], error: ApiError) -> None:
    from grpc_status import rpc_status

    await context.abort_with_status(rpc_status.to_status(error.to_status()))


# -- access rules --------------------------------------------------------------------------------
def require_referee(principal: Principal, campaign_id: str | None = None) -> None:
    if not principal.is_referee:
        raise denied("only the referee may do this")
    if principal.campaign_id is not None and campaign_id != principal.campaign_id:
        raise denied("this token is not valid for that campaign")


def require_global_referee(principal: Principal) -> None:
    if not principal.is_referee or principal.campaign_id is not None:
        raise denied("only a referee token valid for every campaign may do this")


def require_campaign(principal: Principal, campaign_id: str) -> None:
    if principal.campaign_id is not None and campaign_id != principal.campaign_id:
        raise denied("this token is not valid for that campaign")


def acting_side(principal: Principal, campaign_id: str, side_id: str) -> str:
    """The side a request acts for: the token's own, or any side for the referee."""
    require_campaign(principal, campaign_id)
    if principal.is_referee:
        if not side_id:
            from mekref.daemon.grpc.errors import invalid

            raise invalid("side_id", "the referee names the side to act for")
        return side_id
    assert principal.side_id is not None
    if side_id and side_id != principal.side_id:
        raise denied("this token acts for another side")
    return principal.side_id
