"""The ``mekref`` command line: one entry point, one module per sub-command.

Each sub-command module exposes ``register(subparsers)``; it adds its parser and sets
``handler``, a function taking the parsed arguments and returning the process exit code.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

import structlog

from mekref.daemon import (
    cli_battle,
    cli_campaign,
    cli_force,
    cli_game,
    cli_inspect,
    cli_map,
    cli_replay,
    cli_report,
    cli_serve,
    cli_spend,
    cli_status,
    cli_token,
    cli_turn,
)
from mekref.daemon.store import StoreError
from mekref.daemon.store.model import display_text
from mekref.daemon.terminal import safe_log_values

EXIT_OK = 0
EXIT_USAGE = 2
#: As ``mekref serve`` and ``mekref status`` when the database cannot be opened.
EXIT_DATABASE = 3

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

Run 'mekref COMMAND --help' for the options and examples of one command.
"""

SUBCOMMANDS: tuple[ModuleType, ...] = (
    cli_serve,
    cli_status,
    cli_campaign,
    cli_force,
    cli_battle,
    cli_report,
    cli_spend,
    cli_map,
    cli_turn,
    cli_inspect,
    cli_replay,
    cli_token,
    cli_game,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mekref",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    # Commands that do not set up logging themselves log with structlog's defaults (readable
    # lines): their values, file names among them, must not drive the terminal either.
    processors = list(structlog.get_config()["processors"])
    if safe_log_values not in processors:
        structlog.configure(processors=[safe_log_values, *processors])
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except (StoreError, sqlite3.DatabaseError) as exc:
        # The last boundary for a database that opened but fails on reading (a damaged page,
        # a missing table, an event row that is not an event): one line, never a traceback.
        name = getattr(args, "command_name", None) or "mekref"
        prefix = name if name.startswith("mekref") else f"mekref {name}"
        db = getattr(args, "db", None)
        where = f" {display_text(str(db))}" if db else ""
        print(
            f"{prefix}: the database{where} cannot be read: {one_line(exc)}; "
            "if it is damaged, restore it from a backup (mekref never repairs it in place)",
            file=sys.stderr,
        )
        return EXIT_DATABASE


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
