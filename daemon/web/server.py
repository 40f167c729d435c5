"""The pages' server: uvicorn on its own event loop in a background thread of the daemon.

Like :class:`mekref.daemon.grpc.server.GrpcServer` it is started and stopped from the
synchronous daemon, and works on the process's one store, runner and battle-file pipeline
(the composition root, :mod:`mekref.daemon.app`, hands them over). The socket is bound before
the thread starts, so a port in use is an error at start and port 0 is known at once.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from mekref.daemon.config import grpc_host_port
from mekref.daemon.grpc.auth import Authenticator
from mekref.daemon.grpc.server import LoopThread, ServerOptions, build_services
from mekref.daemon.grpc.tokens import TokenStore
from mekref.daemon.ingest import Pipeline
from mekref.daemon.web.sessions import Sessions
from mekref.daemon.web.site import RulesetPages, build_site


@dataclass(frozen=True)
class WebTls:
    cert_file: Path
    key_file: Path


def bind(address: str) -> socket.socket:
    """A listening socket on ``HOST:PORT`` (``[::1]:PORT`` for IPv6; port 0: any free one)."""
    host, port = grpc_host_port(address)
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {address}: {exc.strerror or exc}") from exc
    sock.set_inheritable(True)
    return sock


class WebServer(LoopThread):
    def __init__(
        self,
        pipeline: Pipeline,
        tokens: TokenStore,
        address: str,
        *,
        pages: Sequence[RulesetPages],
        fallback: RulesetPages | None = None,
        tls: WebTls | None = None,
        options: ServerOptions | None = None,
    ) -> None:
        super().__init__("mekref-web")
        self._pipeline = pipeline
        self._tokens = tokens
        self._pages = tuple(pages)
        self._fallback = fallback
        self._tls = tls
        self._options = options or ServerOptions()
        self._socket = bind(address)
        self.port: int = self._socket.getsockname()[1]
        self._server: uvicorn.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> int:
        self._start_thread()
        return self.port

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # surfaced by start() if it happens before serving
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        services = build_services(self._pipeline, self._tokens, self._options)
        app = build_site(
            services,
            Sessions(Authenticator(self._tokens)),
            tls=self._tls is not None,
            pages=self._pages,
            fallback=self._fallback,
        )
        config = uvicorn.Config(
            app,
            log_config=None,  # the daemon's structlog set-up stays in charge
            access_log=False,
            lifespan="off",
            ssl_certfile=str(self._tls.cert_file) if self._tls else None,
            ssl_keyfile=str(self._tls.key_file) if self._tls else None,
            timeout_graceful_shutdown=5,
            # Requests beyond the upload cap are refused by the servicer; this bounds the rest.
            h11_max_incomplete_event_size=64 * 1024,
        )
        self._server = uvicorn.Server(config)
        self._services = services
        self._ready.set()
        try:
            await self._server.serve(sockets=[self._socket])
        finally:
            services.executor.shutdown(wait=False, cancel_futures=True)

    def stop(self, grace: float = 5.0) -> None:
        """Wake the live feeds (they end), refuse new requests, wait for the thread."""
        if self._server is None or self._loop is None or self._thread is None:
            self._socket.close()
            return
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._services.hub.close)
        self._server.should_exit = True
        self._thread.join(timeout=grace + 10)
        self._socket.close()
