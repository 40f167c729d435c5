"""The ``mekref`` command line: one entry point, one module per sub-command.

Each sub-command module exposes ``register(subparsers)``; it adds its parser and sets
``handler``, a function taking the parsed arguments and returning the process exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

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

EXIT_OK = 0
EXIT_USAGE = 2

DESCRIPTION = """\
mekref referees BattleTech campaigns fought in MegaMek: it reads the unit lists and battle
records MegaMek writes (.mul), applies them to the campaign through the rules engine exactly
once, and keeps the books (salvage, repairs, ammunition, injuries, kills, WarChest, victory).
"""

EPILOG = """\
examples:
  mekref inspect logs/Bob.mul                 what a battle record says, section by section
  mekref inspect logs/Bob.mul --json          the same as JSON, for scripts
  mekref inspect force.mul --units-dir ~/megamek/data/mekfiles
                                              add tonnage, tech base and unit type from designs

Run 'mekref COMMAND --help' for the options of one command.
"""

SUBCOMMANDS: tuple[ModuleType, ...] = (
    cli_game,
    cli_inspect,
    cli_serve,
    cli_status,
    cli_replay,
    cli_campaign,
    cli_force,
    cli_battle,
    cli_report,
    cli_spend,
    cli_map,
    cli_turn,
    cli_token,
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
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
