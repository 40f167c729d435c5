"""A connection to a running ``mekref serve --grpc``: the token, TLS and readable refusals.

The stubs themselves are ``mekref.v1`` (the ``mekref-api`` distribution, shared with the
server); this package holds what every client writes next to them::

    from mekref.client import connect, explain
    from mekref.v1 import diagnostics_pb2, diagnostics_pb2_grpc

    with connect("127.0.0.1:50051", token) as channel:   # token: mekref token create
        me = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel).WhoAmI(
            diagnostics_pb2.WhoAmIRequest(), timeout=10
        )

``connect`` sends ``authorization: Bearer <token>`` with every call (unary and streaming) and
speaks TLS when given the CA that signed the server (mutual TLS with a client certificate and
key); ``explain`` turns a refusal into its status and each field the server objected to.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

__all__ = ["ClientError", "connect", "explain"]


class ClientError(ValueError):
    """The connection's settings cannot work (half a client certificate, no CA for mutual TLS,
    an empty token); the message says what to give."""


class _Details(
    collections.namedtuple(
        "_Details",
        ("method", "timeout", "metadata", "credentials", "wait_for_ready", "compression"),
    ),
    grpc.ClientCallDetails,
):
    """A call's details with the token added (grpc asks interceptors for this shape)."""


class _Bearer(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Adds ``authorization: Bearer <token>`` to every call's metadata."""

    def __init__(self, token: str) -> None:
        self._header = ("authorization", f"Bearer {token}")

    def _with_token(self, details: grpc.ClientCallDetails) -> _Details:
        metadata = [m for m in (details.metadata or ()) if m[0] != "authorization"]
        return _Details(
            details.method,
            details.timeout,
            [*metadata, self._header],
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(
        self, continuation: Callable[..., Any], details: grpc.ClientCallDetails, request: Any
    ) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(
        self, continuation: Callable[..., Any], details: grpc.ClientCallDetails, request: Any
    ) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_stream_unary(
        self,
        continuation: Callable[..., Any],
        details: grpc.ClientCallDetails,
        requests: Iterator[Any],
    ) -> Any:
        return continuation(self._with_token(details), requests)

    def intercept_stream_stream(
        self,
        continuation: Callable[..., Any],
        details: grpc.ClientCallDetails,
        requests: Iterator[Any],
    ) -> Any:
        return continuation(self._with_token(details), requests)


def _credentials(
    ca_cert: Path, client_cert: Path | None, client_key: Path | None
) -> grpc.ChannelCredentials:
    if (client_cert is None) != (client_key is None):
        raise ClientError("client_cert and client_key go together (mutual TLS): give both")
    key = client_key.read_bytes() if client_key is not None else None
    chain = client_cert.read_bytes() if client_cert is not None else None
    return grpc.ssl_channel_credentials(ca_cert.read_bytes(), key, chain)


def connect(
    target: str,
    token: str | None = None,
    *,
    ca_cert: Path | None = None,
    client_cert: Path | None = None,
    client_key: Path | None = None,
) -> grpc.Channel:
    """A channel to ``target`` (HOST:PORT) that sends ``token`` with every call.

    Without ``ca_cert`` the channel is plain text (a server started without ``--tls-cert``);
    with it, TLS checked against that CA, and mutual TLS when ``client_cert`` and
    ``client_key`` are given. ``token=None`` sends no token: only health checks, reflection
    and ``Echo`` answer then. Use the channel as a context manager, or close it."""
    if token is not None and not token.strip():
        raise ClientError("the token is empty: give one from 'mekref token create', or None")
    if ca_cert is None and (client_cert is not None or client_key is not None):
        raise ClientError("a client certificate needs TLS: give ca_cert, the server's CA")
    if ca_cert is None:
        channel = grpc.insecure_channel(target)
    else:
        channel = grpc.secure_channel(target, _credentials(ca_cert, client_cert, client_key))
    if token is None:
        return channel
    return grpc.intercept_channel(channel, _Bearer(token.strip()))


def explain(error: grpc.RpcError) -> str:
    """The status, and each field the server says was wrong (``google.rpc.BadRequest``) or
    each condition that failed (``google.rpc.PreconditionFailure``), one per line."""
    lines = [f"{error.code().name}: {error.details()}"]
    # Every error a call raises is also a grpc.Call (which carries the trailing details);
    # the type stubs keep the two apart.
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    detail: Any
    for detail in status.details if status is not None else ():
        bad = error_details_pb2.BadRequest()
        failed = error_details_pb2.PreconditionFailure()
        if detail.Is(bad.DESCRIPTOR) and detail.Unpack(bad):
            lines += [f"  {v.field}: {v.description}" for v in bad.field_violations]
        elif detail.Is(failed.DESCRIPTOR) and detail.Unpack(failed):
            lines += [f"  {v.subject}: {v.description}" for v in failed.violations]
    return "\n".join(lines)
