"""What every servicer shares: blocking work off the event loop, deadlines, the error boundary.

The store and the rules engine are synchronous; they run on a bounded thread pool so the event
loop keeps serving streams and health checks. A call whose deadline has already passed is not
started (a write that has not begun is never begun late). Every exception leaves an RPC as a
status: ApiError as it says, a rules Refusal mapped to INVALID_ARGUMENT/FAILED_PRECONDITION with
field details, store errors by kind, anything else INTERNAL without internals in the message.
"""

from __future__ import annotations

import asyncio
import functools
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

import grpc
from grpc import aio
from grpc_status import rpc_status

from mekref.daemon import logs
from mekref.daemon.campaigns import CampaignRunner, Executed
from mekref.daemon.config import HELD_BATTLES_PER_SIDE
from mekref.daemon.grpc import auth
from mekref.daemon.grpc.batcher import CommandBatcher
from mekref.daemon.grpc.errors import ApiError, invalid, refusal_error, store_error
from mekref.daemon.grpc.hub import EventHub
from mekref.daemon.grpc.tokens import Principal, TokenStore
from mekref.daemon.store import EventStore, StoreError
from mekref.rules.codec import canonical_json
from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal

P = ParamSpec("P")
T = TypeVar("T")
Context = aio.ServicerContext[Any, Any]

log = logs.get_logger("mekref.grpc")


#: One per core of a small referee machine: parsing is CPU work, more at once only queues.
UPLOAD_PARSERS = 2


@dataclass
class Services:
    """The state servicers share (one per server)."""

    store: EventStore
    runner: CampaignRunner
    tokens: TokenStore
    hub: EventHub
    executor: ThreadPoolExecutor
    upload_max_bytes: int
    #: Something with ``process(path)`` like ``mekref.daemon.ingest.Pipeline``; None: no uploads.
    pipeline: Any
    uploads_dir: Any
    stream_poll_seconds: float = 1.0
    stream_write_timeout: float = 30.0
    #: Held battles (ruling T-E8) a side's uploads may keep open; one more is refused.
    held_battles_per_side: int = HELD_BATTLES_PER_SIDE
    batcher: CommandBatcher | None = None
    #: Uploads parsed at once. The others wait on the event loop (holding no worker thread),
    #: so a burst of uploads can neither take every worker from the other RPCs nor keep
    #: parsing files whose clients' deadlines have passed (``run`` refuses those).
    upload_slots: asyncio.Semaphore = field(
        default_factory=lambda: asyncio.Semaphore(UPLOAD_PARSERS)
    )

    async def execute(self, context: Context, campaign_id: str, command: Command) -> Executed:
        """Run a command through the group-commit queue (or alone without one)."""
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed", "deadline")
        if self.batcher is None:
            return await self.run(context, self.runner.execute, campaign_id, command)
        return await self.batcher.execute(campaign_id, command)

    async def run(self, context: Context, fn: Callable[..., T], *args: Any) -> T:
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed", "deadline")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args))


def to_api_error(exc: BaseException) -> ApiError | None:
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, Refusal):
        return refusal_error(exc)
    if isinstance(exc, StoreError):
        return store_error(exc)
    return None


def rpc(
    method: Callable[P, Awaitable[T]],
) -> Callable[P, Awaitable[T]]:
    """The error boundary of one unary RPC."""

    @functools.wraps(method)
    async def boundary(*args: P.args, **kwargs: P.kwargs) -> T:
        context: Context = args[-1]  # type: ignore[assignment]
        try:
            return await method(*args, **kwargs)
        except asyncio.CancelledError:
            raise
        except aio.AbortError:
            raise
        except Exception as exc:
            error = to_api_error(exc)
            if error is None:
                incident = uuid.uuid4().hex[:12]
                log.exception("rpc.failed", method=method.__qualname__, incident=incident)
                error = ApiError(
                    grpc.StatusCode.INTERNAL, f"internal error (incident {incident})", "internal"
                )
            await context.abort_with_status(rpc_status.to_status(error.to_status()))
            raise AssertionError("abort returned") from None

    return boundary


#: The request header that asks for the deprecated ``*_json`` text fields (docs/api.md, "The
#: deprecated JSON-text fields"): ``1`` fills them beside the typed messages, ``0`` or no header
#: leaves them empty. They go in ``mekref.v2``.
LEGACY_JSON_HEADER = "mekref-legacy-json"


def wants_legacy_json(context: Context) -> bool:
    """Whether the call asked for the deprecated ``*_json`` fields; any other value than 1 or 0
    is refused rather than guessed."""
    for key, value in context.invocation_metadata() or ():
        if key != LEGACY_JSON_HEADER:
            continue
        text = value.decode() if isinstance(value, bytes) else str(value)
        if text.strip() in ("1", "0"):
            return text.strip() == "1"
        raise invalid(
            LEGACY_JSON_HEADER,
            f"{text!r}: give 1 to fill the deprecated *_json fields, or 0 (or no header) to"
            " leave them empty",
            "bad_header",
        )
    return False


def legacy_text(wanted: bool, value: Any) -> str:
    """``value`` as canonical JSON when the call asked for the deprecated fields, else ""."""
    return canonical_json(value) if wanted else ""


#: Campaign ids already checked, as a call spelled them -> their canonical spelling. Every call
#: names its campaign, parsing a UUID is one of the dearer checks of a call's own work on the
#: event loop, and callers name the same few. Bounded: emptied when full.
_CHECKED_IDS: dict[str, str] = {}
_CHECKED_MAX = 4096


def check_campaign_id(campaign_id: str, field_name: str = "campaign_id") -> str:
    known = _CHECKED_IDS.get(campaign_id)
    if known is not None:
        return known
    try:
        canonical = str(uuid.UUID(campaign_id))
    except ValueError:
        raise invalid(field_name, "must be a campaign UUID") from None
    if len(_CHECKED_IDS) >= _CHECKED_MAX:
        _CHECKED_IDS.clear()
    _CHECKED_IDS[campaign_id] = canonical
    return canonical


# The first lines of every RPC about one campaign: the request's campaign id, checked (a bad one
# is INVALID_ARGUMENT before any token rule), and the caller, whose token must be for it.
def campaign_caller(request: Any) -> tuple[str, Principal]:
    """Anyone whose token is for the request's campaign."""
    cid = check_campaign_id(request.campaign_id)
    principal = auth.current_principal()
    auth.require_campaign(principal, cid)
    return cid, principal


def referee_caller(request: Any) -> tuple[str, Principal]:
    """Only the campaign's referee."""
    cid = check_campaign_id(request.campaign_id)
    principal = auth.current_principal()
    auth.require_referee(principal, cid)
    return cid, principal


def side_caller(request: Any) -> tuple[str, Principal, str]:
    """A side acting for itself, or the referee for the side the request names; with that side."""
    cid = check_campaign_id(request.campaign_id)
    principal = auth.current_principal()
    return cid, principal, auth.acting_side(principal, cid, request.side_id)
