"""The composition root: one config object in, the running parts out.

Every entry point opens its app through ``mekref.daemon.open_app`` (the settings layers, then
this class) and builds its parts here and nowhere else: ``mekref serve`` (the folder watcher
and, with ``--grpc``, the API), ``python -m mekref.daemon.grpc`` and every CLI command that
touches a campaign. One :class:`App` holds one event store, one :class:`CampaignRunner` (so the
watcher, the CLI and the API fold each campaign once and share the cache), one battle-file
:class:`Pipeline` (the only way a battle file is applied, whoever brings it) and, when asked,
the gRPC server on the same runner and pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.config import ServeConfig
from mekref.daemon.store import EventStore

if TYPE_CHECKING:  # the API's generated code and grpcio load only when the API is asked for
    from mekref.adapters.megamek.mul_summary import DesignLookup
    from mekref.daemon.grpc.server import GrpcServer
    from mekref.daemon.grpc.tokens import TokenStore
    from mekref.daemon.ingest import Pipeline
    from mekref.daemon.web.server import WebServer


@dataclass
class App:
    config: ServeConfig
    store: EventStore
    #: Unit designs for battle files (from ``units_dir``), or None.
    designs: DesignLookup | None = None
    #: Snapshot interval of the runner: a long-running server keeps state in memory; None for
    #: a throw-away store (never opened cold again).
    snapshot_every: int | None = 200
    _api: GrpcServer | None = field(default=None, init=False, repr=False)
    _web: WebServer | None = field(default=None, init=False, repr=False)

    @cached_property
    def runner(self) -> CampaignRunner:
        return CampaignRunner(self.store, snapshot_every=self.snapshot_every)

    @cached_property
    def pipeline(self) -> Pipeline:
        # Imported here: commands that only read a campaign (report, status...) never load
        # the battle-file pipeline and its logging.
        from mekref.daemon.ingest import Pipeline

        return Pipeline(
            self.store,
            runner=self.runner,
            quarantine_dir=self.config.quarantine_dir(),
            design_for=self.designs,
            max_bytes=self.config.max_file_bytes(),
        )

    @cached_property
    def tokens(self) -> TokenStore:
        from mekref.daemon.grpc.tokens import TokenStore

        return TokenStore(self.store)

    def start_api(self) -> GrpcServer:
        """Start the gRPC API on ``config.grpc_address`` (same store, runner and pipeline)."""
        from mekref.daemon.grpc.server import GrpcServer, ServerOptions, TlsFiles

        address = self.config.grpc_address
        assert address is not None, "no grpc_address in the config"
        tls = None
        if self.config.tls_cert is not None and self.config.tls_key is not None:
            tls = TlsFiles(self.config.tls_cert, self.config.tls_key, self.config.tls_client_ca)
        server = GrpcServer(
            self.pipeline,
            self.tokens,
            address,
            tls=tls,
            options=ServerOptions(
                uploads_dir=self.config.uploads_dir(),
                held_battles_per_side=self.config.held_battles_per_side,
            ),
        )
        server.start()
        self._api = server
        return server

    def start_web(self) -> WebServer:
        """Serve the players' pages on ``config.web_address`` (same store, runner, pipeline and
        tokens as the API; each rule set's pages registered here)."""
        from mekref.daemon.grpc.server import ServerOptions
        from mekref.daemon.web.generic import pages as generic_pages
        from mekref.daemon.web.server import WebServer, WebTls
        from mekref.daemon.wings import wings

        address = self.config.web_address
        assert address is not None, "no web_address in the config"
        tls = None
        if self.config.tls_cert is not None and self.config.tls_key is not None:
            tls = WebTls(self.config.tls_cert, self.config.tls_key)
        server = WebServer(
            self.pipeline,
            self.tokens,
            address,
            pages=[w.web_pages() for w in wings() if w.web_pages is not None],
            fallback=generic_pages(),
            tls=tls,
            options=ServerOptions(
                uploads_dir=self.config.uploads_dir(),
                held_battles_per_side=self.config.held_battles_per_side,
            ),
        )
        server.start()
        self._web = server
        return server

    def close(self, grace: float = 5.0) -> None:
        """Stop the pages and the API (in-flight calls get ``grace`` seconds), then close the
        store."""
        if self._web is not None:
            self._web.stop(grace)
            self._web = None
        if self._api is not None:
            self._api.stop(grace)
            self._api = None
        self.store.close()
