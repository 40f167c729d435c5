"""The gRPC API: campaigns, secret orders, battle files and a live event stream.

``mekref serve --grpc HOST:PORT`` runs it (the composition root, :mod:`mekref.daemon.app`,
builds it on the process's store, runner and battle-file pipeline). See docs/api.md for the
contract, authentication and a grpcurl session.

The names below are imported on first use: ``mekref token`` (which needs only the token store)
must keep working in a checkout whose generated API code (``make proto``) is missing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mekref.daemon.grpc.server import (
        DEFAULT_ADDRESS,
        GrpcServer,
        ServerOptions,
        TlsFiles,
        build_server,
    )
    from mekref.daemon.grpc.tokens import Principal, Role, TokenStore

_WHERE = {
    "DEFAULT_ADDRESS": "server",
    "GrpcServer": "server",
    "ServerOptions": "server",
    "TlsFiles": "server",
    "build_server": "server",
    "Principal": "tokens",
    "Role": "tokens",
    "TokenStore": "tokens",
}

__all__ = [
    "DEFAULT_ADDRESS",
    "GrpcServer",
    "Principal",
    "Role",
    "ServerOptions",
    "TlsFiles",
    "TokenStore",
    "build_server",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
