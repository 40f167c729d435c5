"""``mekref serve``: watch MegaMek's folders and apply each battle file exactly once."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.daemon import exit_codes, logs
from mekref.daemon.app import App
from mekref.daemon.config import ConfigError, ServeConfig, default_db, is_loopback
from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup
from mekref.daemon.logging_setup import LogFormat, configure_logging
from mekref.daemon.open_app import app_config, start_app
from mekref.daemon.serve import Daemon
from mekref.daemon.shutdown import Shutdown
from mekref.daemon.store import StoreDamaged, StoreError, StoreMissing
from mekref.daemon.store.open import redact

EXIT_CONFIG = exit_codes.USAGE
EXIT_STORE = exit_codes.STORE
#: Seconds in-flight API calls get to finish on shutdown.
GRPC_GRACE = 5.0

HELP = "watch folders for battle files and apply each one exactly once"
DESCRIPTION = f"""\
Watch the folders where MegaMek writes unit lists and battle records (*.mul) and apply each
file to its campaign through the rules engine, exactly once: a file's identity is the sha256
of its bytes, so a copy under another name, a restart or a crash never applies it twice.

Files are taken when MegaMek closes them or renames them into place; files written in place
by other tools are taken once their size and mtime have stopped changing. On start, and
every --rescan seconds, the folders are scanned for files that arrived while mekref was not
running. A file that belongs to no known campaign is held as "unmatched" and looked at again
on a rescan once a campaign has been created or has changed. A bad file (broken, hostile,
ambiguous, refused by the rules) is COPIED to the quarantine folder with a <name>.reason.txt
saying what is wrong, where, and what to do; the original is never modified or deleted.
Only regular files are read: links, FIFOs and devices in a watched folder are skipped.

Stop with Ctrl-C or SIGTERM: the file in hand is finished first. A second signal stops at
once (nothing half-applied survives: the database rolls it back).

The store must exist (made by 'mekref campaign new', or pass --create): a typo in --db never
starts an empty store. Settings left out come from MEKREF_* variables, then mekref.toml (in
the working folder or the user's config folder); 'mekref config show' says which.
defaults: database {default_db()} (SQLite), quarantine folder beside the database.
Log lines are JSON when stderr is not a terminal, readable text when it is.
"""
EPILOG = """\
examples:
  mekref serve --watch ~/megamek/logs
  mekref serve --watch ~/megamek/logs --watch ~/inbox --db ~/campaigns/tripwire.db
  mekref serve --watch /mnt/share/logs --poll 5          network drive: poll every 5 s
  mekref serve --watch ~/megamek/logs --db postgresql://mekref@dbhost/mekref --create
  mekref serve --watch ~/megamek/logs --grpc 127.0.0.1:50051   also serve the API
  mekref serve --watch ~/megamek/logs --web 127.0.0.1:8080     also serve the players' pages
  mekref serve --config mekref.toml                      settings from a file (see docs/daemon.md)
  mekref status --db ~/campaigns/tripwire.db             what the daemon has done
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help=HELP,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="TOML settings file")
    parser.add_argument(
        "--watch",
        type=Path,
        action="append",
        metavar="DIR",
        help="folder to watch for *.mul files (repeat for several)",
    )
    parser.add_argument(
        "--recursive", action="store_true", default=None, help="also watch sub-folders"
    )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="campaign store: SQLite file or postgresql:// URL (must exist; see --create)",
    )
    parser.add_argument(
        "--create",
        action="store_true",
        help="create the store when there is none (an empty PostgreSQL database gets the tables)",
    )
    parser.add_argument("--quarantine", type=Path, metavar="DIR", help="where bad files go")
    parser.add_argument(
        "--units-dir", type=Path, metavar="DIR", help="MegaMek unit files, to match designs"
    )
    parser.add_argument(
        "--poll",
        type=float,
        metavar="SECONDS",
        help="poll the folders every SECONDS instead of OS events (network drives)",
    )
    parser.add_argument(
        "--rescan", type=float, metavar="SECONDS", help="rescan the folders this often (60)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        metavar="SECONDS",
        help="how long a file written in place must stay unchanged before it is read (1)",
    )
    parser.add_argument(
        "--max-file-mb",
        type=float,
        metavar="MIB",
        help="quarantine battle files larger than this unread (32; a 400-unit record is ~2)",
    )
    _add_network_arguments(parser)
    parser.add_argument("--log-format", choices=("auto", "json", "console"))
    parser.add_argument("--log-level", choices=("debug", "info", "warning", "error"))
    parser.set_defaults(handler=run)


def _add_network_arguments(parser: argparse.ArgumentParser) -> None:
    """The API, the pages and their TLS."""
    parser.add_argument(
        "--grpc",
        metavar="HOST:PORT",
        help="also serve the gRPC API there (port 0: any free port; IPv6 as [::1]:PORT; "
        "tokens: mekref token). Beyond loopback, add --tls-cert and --tls-key: tokens are "
        "bearer secrets",
    )
    parser.add_argument(
        "--web",
        metavar="HOST:PORT",
        help="also serve the players' pages there (docs/web.md; port 0: any free port). Players "
        "log in with their side's token; beyond loopback, add --tls-cert and --tls-key",
    )
    parser.add_argument(
        "--held-battles-per-side",
        type=int,
        metavar="N",
        help="battles held for the referee's confirmation (they match no engagement) a side's "
        "uploads may keep open; past it an upload that would open another is refused (3)",
    )
    parser.add_argument(
        "--tls-cert", type=Path, metavar="PEM", help="TLS certificate for the API and the pages"
    )
    parser.add_argument("--tls-key", type=Path, metavar="PEM", help="its private key")
    parser.add_argument(
        "--tls-client-ca",
        type=Path,
        metavar="PEM",
        help="mutual TLS: accept only clients with a certificate signed by this CA",
    )


def run(args: argparse.Namespace) -> int:
    try:
        config = app_config(
            {
                "db": args.db,
                "watch": tuple(p.expanduser() for p in args.watch) if args.watch else None,
                "recursive": args.recursive,
                "quarantine": args.quarantine.expanduser() if args.quarantine else None,
                "units_dir": args.units_dir.expanduser() if args.units_dir else None,
                "poll": args.poll,
                "rescan": args.rescan,
                "settle": args.settle,
                "max_file_mb": args.max_file_mb,
                "grpc_address": args.grpc,
                "web_address": args.web,
                "held_battles_per_side": args.held_battles_per_side,
                "tls_cert": args.tls_cert.expanduser() if args.tls_cert else None,
                "tls_key": args.tls_key.expanduser() if args.tls_key else None,
                "tls_client_ca": args.tls_client_ca.expanduser() if args.tls_client_ca else None,
                "log_format": args.log_format,
                "log_level": args.log_level,
            },
            config_file=args.config,
            serve=True,
        )
    except ConfigError as exc:
        print(f"mekref serve: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    fmt: LogFormat = config.log_format  # type: ignore[assignment]
    configure_logging(fmt, config.log_level)
    log = logs.get_logger("mekref.serve")
    design_for: DesignLookup | None = None
    if config.units_dir is not None:
        try:
            design_for = catalog_lookup(config.units_dir, progress=False)
        except CatalogUnavailable as exc:
            print(f"mekref serve: {exc}", file=sys.stderr)
            return EXIT_CONFIG
    try:
        # Snapshots as often as any writer takes them: a restart, and every CLI command run
        # beside the server, folds only the events after the latest one (a snapshot encodes
        # only the battles changed since the one before: campaigns.SNAPSHOT_SHARE).
        app = start_app(config, designs=design_for, create=args.create)
    except StoreMissing as exc:
        print(f"mekref serve: {exc} (or pass --create)", file=sys.stderr)
        return EXIT_STORE
    except (StoreError, OSError, ValueError) as exc:
        return _cannot_open(log, config.db, exc)
    try:
        # A damaged page would otherwise fail every file taken (and each command after it):
        # refused here, once, before anything is watched.
        app.store.check()
    except StoreDamaged as exc:
        app.close()
        print(f"mekref serve: {exc}", file=sys.stderr)
        return EXIT_STORE
    except (StoreError, OSError, ValueError) as exc:
        app.close()
        return _cannot_open(log, config.db, exc)
    shutdown = Shutdown()
    try:
        daemon = Daemon(config, app.pipeline)
        if config.grpc_address and not _start_api(app, log):
            return EXIT_CONFIG
        if config.web_address and _start_web(app, config, log) is None:
            return EXIT_CONFIG
        shutdown = Shutdown(on_request=daemon.pending.wake)
        shutdown.install()
        return daemon.run(shutdown)
    finally:
        app.close(GRPC_GRACE)
        log.info("serve.stopped", signal=shutdown.signal_name)


def _start_api(app: App, log: Any) -> bool:
    """Start the gRPC API and say where it listens; False (said on stderr) if it cannot."""
    config = app.config
    assert config.grpc_address is not None
    try:
        server = app.start_api()
    except OSError as exc:
        print(f"mekref serve: {exc}", file=sys.stderr)
        return False
    host = config.grpc_address.rsplit(":", 1)[0]
    address = f"{host}:{server.port}"
    log.info("grpc.listening", address=address, tls=config.tls_cert is not None)
    if config.tls_cert is None and not is_loopback(host):
        # Tokens are bearer secrets: in clear, anyone on the path can take them.
        warning = (
            f"the API listens on {address} without TLS: tokens cross the network in "
            "clear; add --tls-cert and --tls-key, or listen on 127.0.0.1"
        )
        log.warning("grpc.cleartext", address=address)
        print(f"mekref serve: warning: {warning}", file=sys.stderr, flush=True)
    # Tests and scripts wait for this line to learn the port (``--grpc HOST:0``).
    print(f"listening on {address}", flush=True)
    return True


def _start_web(app: App, config: ServeConfig, log: Any) -> int | None:
    """Start the pages; print ``pages on http://HOST:PORT/`` (tests and scripts wait for it)."""
    try:
        server = app.start_web()
    except OSError as exc:
        print(f"mekref serve: {exc}", file=sys.stderr)
        return None
    assert config.web_address is not None
    host = config.web_address.rsplit(":", 1)[0]
    scheme = "https" if config.tls_cert is not None else "http"
    url = f"{scheme}://{host}:{server.port}/"
    log.info("web.listening", url=url, tls=config.tls_cert is not None)
    if config.tls_cert is None and not is_loopback(host):
        log.warning("web.cleartext", url=url)
        print(
            f"mekref serve: warning: the pages listen on {url} without TLS: tokens and session "
            "cookies cross the network in clear; add --tls-cert and --tls-key, or listen on "
            "127.0.0.1",
            file=sys.stderr,
            flush=True,
        )
    print(f"pages on {url}", flush=True)
    return server.port


def _cannot_open(log: Any, db: str, exc: Exception) -> int:
    log.error("store.unavailable", db=redact(db), error=str(exc))
    print(
        f"mekref serve: cannot open the database {redact(db)}: {exc}\n"
        "Check the path (its folder must be writable) or that the PostgreSQL server "
        "answers and the role may create tables.",
        file=sys.stderr,
    )
    return EXIT_STORE
