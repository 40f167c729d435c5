"""Build and run the gRPC server (asyncio) for ``mekref serve`` and the standalone module.

The server is ``grpc.aio``: streams wait on the event loop instead of holding a thread each, and
a write to a client can time out (how a slow client is detected). The store and the rules run
on a bounded thread pool. :class:`GrpcServer` wraps all of it for the synchronous daemon:
``start()`` runs the loop in a background thread and returns once the port is bound,
``stop(grace)`` lets in-flight calls finish for up to ``grace`` seconds and ends live streams
with UNAVAILABLE plus the seq to resume after.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from grpc import aio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from mekref.daemon.config import HELD_BATTLES_PER_SIDE
from mekref.daemon.grpc.auth import Authenticator, GuardedRegistry
from mekref.daemon.grpc.batcher import CommandBatcher
from mekref.daemon.grpc.hub import EventHub
from mekref.daemon.grpc.reflection_v1 import enable_reflection
from mekref.daemon.grpc.services.base import Services
from mekref.daemon.grpc.services.battle import BattleServicer
from mekref.daemon.grpc.services.campaign import CampaignServicer
from mekref.daemon.grpc.services.diagnostics import DiagnosticsServicer
from mekref.daemon.grpc.services.events import EventServicer
from mekref.daemon.grpc.services.rules import RulesServicer
from mekref.daemon.grpc.tokens import TokenStore
from mekref.daemon.ingest import Pipeline
from mekref.daemon.wings import servicers as wing_servicers
from mekref.v1 import (
    battle_pb2,
    battle_pb2_grpc,
    campaign_pb2,
    campaign_pb2_grpc,
    diagnostics_pb2,
    diagnostics_pb2_grpc,
    event_pb2,
    event_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    rules_pb2,
    rules_pb2_grpc,
)

DEFAULT_ADDRESS = "127.0.0.1:50051"
#: Largest message either way. Uploads are capped below it so the cap, not gRPC, answers.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
UPLOAD_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_WORKERS = 16

SERVICE_NAMES = (
    campaign_pb2.DESCRIPTOR.services_by_name["CampaignService"].full_name,
    orders_pb2.DESCRIPTOR.services_by_name["OrdersService"].full_name,
    battle_pb2.DESCRIPTOR.services_by_name["BattleService"].full_name,
    event_pb2.DESCRIPTOR.services_by_name["EventService"].full_name,
    diagnostics_pb2.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name,
    rules_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name,
)


@dataclass(frozen=True)
class TlsFiles:
    """PEM files for TLS; without them the server listens in plain text (loopback use).

    With ``client_ca`` the server asks every client for a certificate signed by it (mutual
    TLS), on top of the bearer token."""

    cert_file: Path
    key_file: Path
    client_ca: Path | None = None

    def credentials(self) -> grpc.ServerCredentials:
        ca = self.client_ca.read_bytes() if self.client_ca is not None else None
        return grpc.ssl_server_credentials(
            [(self.key_file.read_bytes(), self.cert_file.read_bytes())],
            root_certificates=ca,
            require_client_auth=ca is not None,
        )


@dataclass(frozen=True)
class ServerOptions:
    workers: int = DEFAULT_WORKERS
    upload_max_bytes: int = UPLOAD_MAX_BYTES
    max_message_bytes: int = MAX_MESSAGE_BYTES
    stream_poll_seconds: float = 1.0
    stream_write_timeout: float = 30.0
    #: Where uploaded files are kept (by sha256); None: uploads are not kept on disk.
    uploads_dir: Path | None = None
    #: Held battles (ruling T-E8) a side's uploads may keep open (``held_battles_per_side``).
    held_battles_per_side: int = HELD_BATTLES_PER_SIDE
    extra_channel_options: Sequence[tuple[str, Any]] = field(default_factory=tuple)


#: The generated ``add_*Servicer_to_server`` functions, given the token-checking registry.
Adder = Callable[[Any, Any], None]
Factory = Callable[[Services], object]

#: Each service: how it is added to a server and the core's servicer. The wings' servicers
#: (:func:`mekref.daemon.wings.servicers`) take the place of the core's where they serve the
#: same service; OrdersService is only a wing's (without one, its RPCs are UNIMPLEMENTED).
_SERVICES: tuple[tuple[str, Adder, Factory | None], ...] = (
    (SERVICE_NAMES[0], campaign_pb2_grpc.add_CampaignServiceServicer_to_server, CampaignServicer),
    (SERVICE_NAMES[1], orders_pb2_grpc.add_OrdersServiceServicer_to_server, None),
    (SERVICE_NAMES[2], battle_pb2_grpc.add_BattleServiceServicer_to_server, BattleServicer),
    (SERVICE_NAMES[3], event_pb2_grpc.add_EventServiceServicer_to_server, EventServicer),
    (
        SERVICE_NAMES[4],
        diagnostics_pb2_grpc.add_DiagnosticsServiceServicer_to_server,
        DiagnosticsServicer,
    ),
    (SERVICE_NAMES[5], rules_pb2_grpc.add_RulesServiceServicer_to_server, RulesServicer),
)


def _add_servicers(services: Services, server: GuardedRegistry) -> None:
    from_wings = wing_servicers()
    for name, add, core in _SERVICES:
        factory = from_wings.get(name, core)
        if factory is not None:
            add(factory(services), server)


@dataclass
class Built:
    server: aio.Server
    services: Services
    port: int
    health: HealthServicer


def build_services(pipeline: Pipeline, tokens: TokenStore, opts: ServerOptions) -> Services:
    """The servicers' shared state on the running loop: its own event hub (woken by every
    append the runner makes), thread pool and upload slots, on the process's one store, runner
    and pipeline. The gRPC server and the web pages (``mekref.daemon.web``) each build one."""
    loop = asyncio.get_running_loop()
    hub = EventHub(loop)
    pipeline.runner.on_append(hub.notify_threadsafe)
    services = Services(
        store=pipeline.store,
        runner=pipeline.runner,
        tokens=tokens,
        hub=hub,
        executor=ThreadPoolExecutor(opts.workers, thread_name_prefix="mekref-grpc"),
        upload_max_bytes=opts.upload_max_bytes,
        pipeline=pipeline,
        uploads_dir=opts.uploads_dir,
        held_battles_per_side=opts.held_battles_per_side,
        stream_poll_seconds=opts.stream_poll_seconds,
        stream_write_timeout=opts.stream_write_timeout,
    )
    services.batcher = CommandBatcher(services.runner, services.executor)
    return services


async def build_server(
    pipeline: Pipeline,
    tokens: TokenStore,
    address: str = DEFAULT_ADDRESS,
    *,
    tls: TlsFiles | None = None,
    options: ServerOptions | None = None,
) -> Built:
    """A bound (not started) server on the running loop. ``address`` port 0 picks a free one.

    The server shares the process's store, runner and battle-file pipeline (the composition
    root, :mod:`mekref.daemon.app`, builds them once)."""
    opts = options or ServerOptions()
    services = build_services(pipeline, tokens, opts)
    server = aio.server(
        options=[
            ("grpc.max_receive_message_length", opts.max_message_bytes),
            ("grpc.max_send_message_length", opts.max_message_bytes),
            # A second mekref on the same port must fail to start, not silently share it.
            ("grpc.so_reuseport", 0),
            # Keepalive: notice vanished clients so their streams end and free their slot.
            ("grpc.keepalive_time_ms", 60_000),
            ("grpc.keepalive_timeout_ms", 20_000),
            ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
            *opts.extra_channel_options,
        ],
    )
    # The API's methods need a token; health checking and reflection, added to the server
    # itself, do not: load balancers and grpcurl need them before holding one.
    _add_servicers(services, GuardedRegistry(server, Authenticator(tokens)))
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    enable_reflection((*SERVICE_NAMES, "grpc.health.v1.Health"), server)
    try:
        if tls is not None:
            port = server.add_secure_port(address, tls.credentials())
        else:
            port = server.add_insecure_port(address)
    except RuntimeError as exc:  # gRPC's only signal for a failed bind
        services.executor.shutdown(wait=False)
        raise OSError(f"cannot listen on {address}: in use or not an address of this host") from exc
    return Built(server, services, port, health)


class LoopThread:
    """A server whose event loop runs on a daemon thread of its own (the gRPC API, the pages):
    ``_start_thread`` returns once ``_run`` says it serves, or raises what kept it from it."""

    def __init__(self, name: str) -> None:
        self._thread_name = name
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def _run(self) -> None:
        raise NotImplementedError

    def _start_thread(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self._thread_name, daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error


class GrpcServer(LoopThread):
    """The API server on a background event loop, started and stopped from synchronous code."""

    def __init__(
        self,
        pipeline: Pipeline,
        tokens: TokenStore,
        address: str = DEFAULT_ADDRESS,
        *,
        tls: TlsFiles | None = None,
        options: ServerOptions | None = None,
    ) -> None:
        super().__init__("mekref-grpc-loop")
        self._args = (pipeline, tokens, address)
        self._tls = tls
        self._options = options
        self._loop = asyncio.new_event_loop()
        self._built: Built | None = None
        self._done: asyncio.Event | None = None
        self._stop_lock = threading.Lock()
        self._stopping = False

    @property
    def port(self) -> int:
        assert self._built is not None, "start() first"
        return self._built.port

    @property
    def services(self) -> Services:
        assert self._built is not None, "start() first"
        return self._built.services

    def start(self) -> int:
        self._start_thread()
        return self.port

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        self._done = asyncio.Event()
        try:
            self._built = await build_server(*self._args, tls=self._tls, options=self._options)
            await self._built.server.start()
            for name in ("", *SERVICE_NAMES):
                await self._built.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        await self._done.wait()

    async def _stop(self, grace: float) -> None:
        assert self._built is not None and self._done is not None
        built = self._built
        await built.health.enter_graceful_shutdown()
        built.services.hub.close()
        await built.server.stop(grace)
        built.services.executor.shutdown(wait=False, cancel_futures=True)
        self._done.set()

    def stop(self, grace: float = 5.0) -> None:
        """Refuse new calls, give in-flight ones ``grace`` seconds, then end.

        Safe to call twice and from several threads at once (a signal handler and a test,
        say): the first call stops the server, the others wait for it to be stopped.
        """
        with self._stop_lock:
            first, self._stopping = not self._stopping, True
        if self._thread is None or self._built is None:
            return
        if first and not self._loop.is_closed():
            future = asyncio.run_coroutine_threadsafe(self._stop(grace), self._loop)
            future.result(timeout=grace + 30)
        self._thread.join(timeout=grace + 30)

    def wait(self) -> None:
        """Block until the server stops."""
        if self._thread is not None:
            self._thread.join()
