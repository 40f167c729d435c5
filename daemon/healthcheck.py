"""``python -m mekref.daemon.healthcheck``: ask a running ``mekref serve --grpc`` if it serves.

A container's HEALTHCHECK, a systemd watchdog script or a load balancer's probe needs a small
client for the standard gRPC health protocol (grpc.health.v1.Health/Check); ``grpc_health_probe``
is a separate download, this ships with mekref. It needs no token (health checking is open,
see docs/api.md) and imports only grpc, so it starts fast.

Exit status: 0 SERVING; 1 anything else (NOT_SERVING, unknown service, unreachable, timeout);
2 bad arguments. One line on stdout says which.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

DEFAULT_ADDRESS = "127.0.0.1:50051"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mekref.daemon.healthcheck",
        description="Check a mekref gRPC server through the standard gRPC health protocol. "
        "Exit 0 when it is SERVING, 1 otherwise.",
        epilog="examples:\n"
        "  python -m mekref.daemon.healthcheck                       127.0.0.1:50051\n"
        "  python -m mekref.daemon.healthcheck 10.0.0.5:50051 --service mekref.v1.CampaignService\n"
        "  python -m mekref.daemon.healthcheck api.example:443 --tls-ca ca.pem",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "address", nargs="?", default=DEFAULT_ADDRESS, help=f"HOST:PORT ({DEFAULT_ADDRESS})"
    )
    parser.add_argument(
        "--service", default="", help="one service's status (default: the whole server)"
    )
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds (5)")
    parser.add_argument("--tls-ca", metavar="PEM", help="TLS: the CA that signed the server")
    parser.add_argument("--tls-cert", metavar="PEM", help="mutual TLS: this client's certificate")
    parser.add_argument("--tls-key", metavar="PEM", help="mutual TLS: its private key")
    return parser


def _channel(args: argparse.Namespace) -> grpc.Channel:
    if args.tls_ca is None:
        return grpc.insecure_channel(args.address)
    client = None
    if args.tls_cert is not None:
        client = (Path(args.tls_key).read_bytes(), Path(args.tls_cert).read_bytes())
    credentials = grpc.ssl_channel_credentials(
        Path(args.tls_ca).read_bytes(), *(client or (None, None))
    )
    return grpc.secure_channel(args.address, credentials)


def check(args: argparse.Namespace) -> tuple[bool, str]:
    """(serving?, the line to print)."""
    try:
        with _channel(args) as channel:
            # The method by name: the typing package for grpc_health declares HealthStub empty.
            health_check = channel.unary_unary(
                "/grpc.health.v1.Health/Check",
                request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                response_deserializer=health_pb2.HealthCheckResponse.FromString,
            )
            reply = health_check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
    except grpc.RpcError as exc:  # every failed call is also a grpc.Call with a code
        return False, f"{args.address}: {exc.code().name}: {exc.details()}"
    except OSError as exc:  # a TLS file that cannot be read
        return False, f"{args.address}: {exc}"
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    return reply.status == health_pb2.HealthCheckResponse.SERVING, f"{args.address}: {status}"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if (args.tls_cert is None) != (args.tls_key is None):
        print("--tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    if args.tls_cert is not None and args.tls_ca is None:
        print("mutual TLS needs --tls-ca too (the CA that signed the server)", file=sys.stderr)
        return 2
    serving, line = check(args)
    print(line)
    return 0 if serving else 1


if __name__ == "__main__":
    sys.exit(main())
