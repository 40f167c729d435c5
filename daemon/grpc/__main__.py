"""Run the API server alone: ``python -m mekref.daemon.grpc --db campaign.db``.

``mekref serve --grpc`` runs the same server beside the folder watcher; this entry point is for
tests, benchmarks and groups that only want the API. It prints ``listening on HOST:PORT`` once
the port is bound (with ``--grpc 127.0.0.1:0`` the system picks the port), and stops gracefully
on SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from mekref.daemon.grpc.server import DEFAULT_ADDRESS, GrpcServer, ServerOptions, TlsFiles
from mekref.daemon.grpc.tokens import TokenStore
from mekref.daemon.store import EventStore, open_store

EPILOG = """\
examples:
  python -m mekref.daemon.grpc --db campaign.db
  python -m mekref.daemon.grpc --db campaign.db --grpc 0.0.0.0:50051 \\
      --tls-cert server.pem --tls-key server.key

Issue tokens with 'mekref token create --db campaign.db --side davion' (or --referee).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mekref.daemon.grpc",
        description="Serve the mekref gRPC API on a campaign database.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", required=True, help="database path or postgresql:// URL")
    parser.add_argument(
        "--grpc", default=DEFAULT_ADDRESS, metavar="HOST:PORT", help="address to listen on"
    )
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate (with --tls-key)")
    parser.add_argument("--tls-key", type=Path, help="PEM private key (with --tls-cert)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="where uploads and quarantined files go (default: beside a SQLite database)",
    )
    parser.add_argument(
        "--units-dir",
        type=Path,
        help="MegaMek unit designs (.mtf/.blk) for uploaded battle files, as 'mekref serve'",
    )
    parser.add_argument("--grace", type=float, default=5.0, help="seconds for in-flight calls")
    parser.add_argument(
        "--stream-write-timeout",
        type=float,
        default=30.0,
        help="seconds a stream waits for a client to read before RESOURCE_EXHAUSTED",
    )
    return parser


def _pipeline(store: EventStore, data_dir: Path | None, units_dir: Path | None) -> object | None:
    """The watcher's file pipeline, which uploads go through (exactly once, quarantine)."""
    if data_dir is None:
        return None
    from mekref.daemon.design_lookup import catalog_lookup
    from mekref.daemon.ingest import Pipeline

    designs = catalog_lookup(units_dir, progress=False) if units_dir else None
    return Pipeline(store, quarantine_dir=data_dir / "quarantine", design_for=designs)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if (args.tls_cert is None) != (args.tls_key is None):
        print("give both --tls-cert and --tls-key, or neither", file=sys.stderr)
        return 2
    tls = TlsFiles(args.tls_cert, args.tls_key) if args.tls_cert else None
    data_dir = args.data_dir
    if data_dir is None and "://" not in args.db:
        data_dir = Path(args.db).expanduser().resolve().with_suffix(".data")
    with open_store(args.db) as store, TokenStore(args.db) as tokens:
        options = ServerOptions(
            pipeline=_pipeline(store, data_dir, args.units_dir),
            uploads_dir=data_dir / "uploads" if data_dir else None,
            stream_write_timeout=args.stream_write_timeout,
        )
        server = GrpcServer(store, tokens, args.grpc, tls=tls, options=options)
        port = server.start()
        host = args.grpc.rsplit(":", 1)[0]
        print(f"listening on {host}:{port}", flush=True)
        stop = threading.Event()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            stop.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        stop.wait()
        server.stop(args.grace)
        print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
