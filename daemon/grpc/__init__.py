"""The gRPC API: campaigns, secret orders, battle files and a live event stream.

``serve_grpc(store, tokens, "127.0.0.1:50051")`` starts it in the background and returns a
handle to stop; ``python -m mekref.daemon.grpc --db campaign.db`` runs it alone. See
docs/api.md for the contract, authentication and a grpcurl session.
"""

from mekref.daemon.grpc.server import (
    DEFAULT_ADDRESS,
    GrpcServer,
    ServerOptions,
    TlsFiles,
    build_server,
    serve_grpc,
)
from mekref.daemon.grpc.tokens import Principal, Role, TokenStore

__all__ = [
    "DEFAULT_ADDRESS",
    "GrpcServer",
    "Principal",
    "Role",
    "ServerOptions",
    "TlsFiles",
    "TokenStore",
    "build_server",
    "serve_grpc",
]
