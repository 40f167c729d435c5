"""The ``mekref`` command line: one entry point, one module per sub-command.

Each sub-command module exposes ``register(subparsers)``; it adds its parser and sets
``handler``, a function taking the parsed arguments and returning the process exit code
(see ``mekref.daemon.exit_codes``).

Start-up is kept short: only the module of the command being run is imported (``mekref
--help`` imports none), because a sub-command module pulls in the rules engine, the store and
rich, and ``serve`` the gRPC runtime too.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mekref.daemon import exit_codes

EXIT_OK = exit_codes.OK
EXIT_USAGE = exit_codes.USAGE

DESCRIPTION = """\
mekref referees BattleTech campaigns fought in MegaMek: it reads the unit lists and battle
records MegaMek writes (.mul), applies them to the campaign through the rules engine exactly
once, and keeps the books (salvage, repairs, ammunition, injuries, kills, WarChest, victory).
"""

EPILOG = """\
examples: a campaign, start to finish
  mekref campaign new --db camp.db --name "Operation TripWire" --seed 3065
  mekref force import --db camp.db --side loyalists alpha.mul --units-dir ~/megamek/data/mekfiles
  mekref serve --db camp.db --watch ~/megamek/logs     apply every battle file MegaMek writes
  mekref status --db camp.db                           what the daemon applied, held, quarantined
  mekref report --db camp.db                           fates, repair bills, injuries, WarChest, VP
  mekref spend repair --db camp.db ...                 pay for repairs between tracks

examples: the strategic map and the daily turn
  mekref map show -o ginestra.png                      the bundled Ginestra map
  mekref orders submit --db camp.db --side rebel --day 1 --order bravo:move:0506,0606
  mekref turn resolve --db camp.db --day 1
  mekref engagement export --db camp.db --side rebel -o scenario/

examples: other tools
  mekref inspect logs/Bob.mul [--json]                 what a MegaMek file says, changing nothing
  mekref replay DIR --ruleset tripwire --seed 7        prints state-hash: <hex> (for CI)
  mekref token create --db camp.db --side rebel        a token for the gRPC API
  mekref game commands --ruleset succession_wars       other rule sets, driven by JSON commands
  mekref config show                                   each setting and where it comes from

--db once for all: export MEKREF_DB=camp.db, or db = "camp.db" in a mekref.toml in the working
folder or the user's config folder ('mekref config show' says which). A flag wins over
MEKREF_*, which wins over mekref.toml. Only 'campaign new', 'game start' and 'serve --create'
create a store; every other command refuses a --db where there is none.

exit codes: 0 done, 2 usage, 3 refused by the rules or file not taken, 4 hostile file,
5 no campaign store or it cannot be used, 130 interrupted (docs/cli.md).

Run 'mekref COMMAND --help' for the options and examples of one command.
"""

#: Every command: its name, the module that registers it and its one-line help (shown by
#: ``mekref --help`` without importing the module). A module may register several commands.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("serve", "cli_serve", "watch folders for battle files and apply each one exactly once"),
    ("status", "cli_status", "list ingested, waiting, unmatched and quarantined battle files"),
    ("campaign", "tripwire.cli_campaign", "create a campaign (campaign new)"),
    ("force", "tripwire.cli_force", "import a side's TO&E from a MegaMek unit list (force import)"),
    (
        "battle",
        "tripwire.cli_battle",
        "battle files in, battles resolved (ingest, control, close, fate, retreat-check, pending)",
    ),
    (
        "report",
        "tripwire.cli_report",
        "print the campaign's units, people, WarChest, victory points and dice",
    ),
    ("pool", "tripwire.cli_spend", "open a WarChest pool"),
    (
        "spend",
        "tripwire.cli_spend",
        "spend WarChest between tracks: repair, rearm, heal, train, hire, sell, scrap...",
    ),
    (
        "salvage",
        "tripwire.cli_salvage",
        "keep or sell captured units, seat a crew in a unit without one",
    ),
    ("map", "tripwire.cli_map", "draw the strategic map as SVG or PNG (map render, map show)"),
    ("orders", "tripwire.cli_orders", "submit, list or withdraw a side's secret orders"),
    ("turn", "tripwire.cli_turn", "set up the strategic map, resolve the day (referee)"),
    ("engagement", "tripwire.cli_engagement", "export engagements for MegaMek"),
    (
        "formation",
        "tripwire.cli_formation",
        "a side reorganises its formations (create, split, merge, move, train)",
    ),
    ("satellite", "tripwire.cli_orbit", "satellites in orbit: place, move, list (L209-210, L270)"),
    ("dropship", "tripwire.cli_orbit", "a DropShip's weekly hot standby or power down (L408)"),
    (
        "route",
        "tripwire.cli_orders",
        "the cheapest legal path for a formation, and today's part as an order",
    ),
    ("inspect", "cli_inspect", "show what a .mul unit list or battle record contains"),
    (
        "replay",
        "tripwire.cli_replay",
        "replay recorded battle files into a fresh campaign and print its state hash",
    ),
    ("token", "cli_token", "issue, list and revoke API tokens"),
    ("game", "cli_game", "run a campaign of any rule set with JSON commands"),
    ("config", "cli_config", "show each setting, its value and where it comes from"),
)


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("mekref")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``: read from the installed package's metadata, only when asked (reading it
    costs more start-up time than the rest of ``mekref --help``)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"mekref {version()}")
        parser.exit()


def _chosen(argv: Sequence[str]) -> str | None:
    """The command named on the line: the first word that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the named command's module is imported (the others get
    a placeholder with their help line), without it every command is loaded."""
    parser = argparse.ArgumentParser(
        prog="mekref",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    chosen = None if argv is None else _chosen(argv)
    wanted = [m for n, m, _ in COMMANDS if argv is None or n == chosen]
    for module in dict.fromkeys(wanted):
        importlib.import_module(f"mekref.daemon.{module}").register(sub)
    for name, _, help_text in COMMANDS:
        if name not in sub.choices:
            sub.add_parser(name, help=help_text)
    # argparse lists commands in the order they were added: restore the table's order.
    order = {name: i for i, (name, _, _) in enumerate(COMMANDS)}
    sub._choices_actions.sort(key=lambda a: order.get(a.dest, len(order)))
    if wanted:  # --json for every command that records events (what it recorded, as data)
        from mekref.daemon.cli_events_json import add_events_json

        add_events_json(parser)
    return parser


def _resolve_settings(args: argparse.Namespace) -> None:
    """Fill the options left out from MEKREF_* and mekref.toml (see mekref.daemon.settings)."""
    from mekref.daemon import settings

    if getattr(args, "store_option", False):
        args.db, args.db_source = settings.store_url(args.db)
    # serve layers its own settings (build_config); a replay must give the same hash on any
    # machine, so it never takes MegaMek's unit files from this machine's settings.
    if (
        "units_dir" in vars(args)
        and args.units_dir is None
        and args.handler_name
        not in (
            "serve",
            "replay",
        )
    ):
        args.units_dir = settings.units_dir(None)


#: The loggers whose lines a command drops: the ingest pipeline's per-file lines (``battle
#: ingest`` and ``force import`` say what happened to each file themselves, in one line).
_DROPPED_LOGGERS = ("mekref.ingest",)


def _command_logger(*names: object) -> Any:
    """Where a command's log lines go: stderr, looked up now (tests swap it per test), except
    the dropped loggers' (``logs.get_logger`` gives those without loading structlog)."""
    import structlog

    if names and names[0] in _DROPPED_LOGGERS:
        return structlog.ReturnLogger()
    return structlog.PrintLogger(file=sys.stderr)


def _command_logging() -> None:
    """Log lines to stderr, warnings and worse: structlog's default prints to stdout, where a
    command's data (--json) goes, and a command prints its own results (the shared code's
    info lines would repeat them). Values, file names among them, must not drive the
    terminal either."""
    import structlog

    from mekref.daemon.terminal import safe_log_values

    processors = list(structlog.get_config()["processors"])
    if safe_log_values not in processors:
        structlog.configure(
            processors=[safe_log_values, *processors],
            logger_factory=_command_logger,
            wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    name = _chosen(argv) or "mekref"
    args.handler_name = name
    # Commands that do not set up logging themselves log readable lines to stderr; set up
    # when structlog is first used (a command that logs nothing never loads it).
    from mekref.daemon import logs
    from mekref.daemon.config import ConfigError
    from mekref.daemon.store.errors import StoreError

    logs.set_up(_command_logging, dropped=_DROPPED_LOGGERS)
    try:
        _resolve_settings(args)
        return handler(args)
    except ConfigError as exc:
        print(f"mekref {name}: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    except StoreError as exc:
        # Whatever a command did not catch itself: one line, the store's exit code.
        print(f"mekref {name}: {exc}", file=sys.stderr)
        return exit_codes.STORE
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        # The reader left (`mekref inspect --json | head`): stop quietly, as a shell tool does,
        # and point stdout at nothing so the interpreter's last flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except sqlite3.DatabaseError as exc:
        # The last boundary for a database that opened but fails on reading (a damaged page,
        # a missing table): one line, never a traceback.
        from mekref.daemon.store.model import display_text

        db = getattr(args, "db", None)
        where = f" {display_text(str(db))}" if db else ""
        print(
            f"mekref {name}: the database{where} cannot be read: {one_line(exc)}; "
            "if it is damaged, restore it from a backup (mekref never repairs it in place)",
            file=sys.stderr,
        )
        return exit_codes.STORE


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
