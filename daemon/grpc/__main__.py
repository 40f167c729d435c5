"""``python -m mekref.daemon.grpc`` is ``mekref serve``: the same options, the same server.

Kept so existing scripts keep working; ``mekref serve --grpc HOST:PORT`` without ``--watch``
serves the API alone. It prints ``listening on HOST:PORT`` once the port is bound (with
``--grpc 127.0.0.1:0`` the system picks the port) and stops gracefully on SIGINT or SIGTERM.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from mekref.daemon.cli import main as mekref_main


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a == "--grpc" or a.startswith("--grpc=") for a in args):
        args += ["--grpc", "127.0.0.1:50051"]
    return mekref_main(["serve", *args])


if __name__ == "__main__":
    sys.exit(main())
