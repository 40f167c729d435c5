"""What every ``mekref`` command shares, whatever the rule set: open the store ``--db`` names,
find its campaign, the common options, and a refusal or a usage error as one readable line.

Neutral on purpose: no rule set is imported here (see the import contracts in .importlinter);
a rule set's own helpers live in its wing (``mekref.daemon.tripwire.cli_campaign``, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from mekref.daemon import exit_codes
from mekref.daemon.app import App
from mekref.daemon.open_app import app_config, start_app
from mekref.daemon.store import EventStore, StoreError, StoreMissing
from mekref.daemon.store.open import redact
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal

if TYPE_CHECKING:  # rich loads when a command prints to the terminal, not for --json
    from rich.console import Console

    from mekref.adapters.megamek.mul_summary import DesignLookup

EXIT_OK = exit_codes.OK


EXIT_REFUSED = exit_codes.REFUSED


EXIT_USAGE = exit_codes.USAGE


EXIT_STORE = exit_codes.STORE


#: The --db help every command shows.
DB_HELP = (
    "campaign store: SQLite file or postgresql:// URL (default: $MEKREF_DB, db in mekref.toml, "
    "else the user's data folder; see 'mekref config show')"
)


def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def out_console(*, columns_from_env: bool = False, markup: bool = False) -> Console:
    """The console data goes to. Off a terminal 120 columns (rich would take 80), whatever
    COLUMNS says (pytest-xdist's workers set it to 80), or with ``columns_from_env`` what it
    says when it is set; long lines are never cut. ``markup`` only for text the program
    wrote itself (the demo's headings)."""
    # No markup by default: unit and pilot names carry brackets ("Elemental Battle Armor
    # [Laser]") and rule quotes are printed in brackets; rich would swallow them as style tags.
    from rich.console import Console

    wide = sys.stdout.isatty() or (columns_from_env and "COLUMNS" in os.environ)
    return Console(highlight=False, markup=markup, soft_wrap=True, width=None if wide else 120)


def print_json(data: object) -> None:
    """``--json`` output: indented, non-ASCII names kept as they are, one trailing newline."""
    # One write of the whole text: ``json.dump`` writes each of its pieces to the stream, one
    # write per key, value and bracket of a listing that grows with the campaign.
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class CliError(Exception):
    """A message for the user; the command exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


#: The rules' refusal codes for a thing the campaign does not have, named on the command line:
#: a usage error (2), as the exit-code table says. A value the rules do not take inside a
#: command (an unknown action in an order, a skill name) stays a refusal (3).
NOT_IN_CAMPAIGN = frozenset(
    {
        "unknown_battle",
        "unknown_unit",
        "unknown_person",
        "unknown_pilot",
        "unknown_pool",
        "unknown_side",
        "unknown_engagement",
        "unknown_technician",
        "unknown_staff",
        # A name several units or people share, or an id prefix several ids begin: the name
        # on the command line cannot be used (the line lists the candidates).
        "ambiguous_id",
    }
)


def refused(exc: Refusal, suffix: str = "") -> CliError:
    """The rules' refusal as the command's one line and exit code: a battle, unit, person or
    pool the campaign does not have, or a name or prefix that fits several
    (``NOT_IN_CAMPAIGN``), is a usage error, 2, like an unknown
    ``--side``; every other refusal is 3 (docs/cli.md, "Exit codes")."""
    code = EXIT_USAGE if exc.code in NOT_IN_CAMPAIGN else EXIT_REFUSED
    return CliError(f"refused: {exc}{suffix}", code)


@contextmanager
def opened(
    db: str,
    *,
    designs: DesignLookup | None = None,
    create: bool = False,
    max_file_mb: float | None = None,
) -> Iterator[App]:
    """The app (store, runner, battle-file pipeline) on the store ``--db`` names. Only the
    commands that start a campaign pass ``create``: any other refuses a store that is not
    there, so a typo in --db never leaves an empty store behind."""
    try:
        app = start_app(
            app_config({"db": db, "max_file_mb": max_file_mb}), designs=designs, create=create
        )
    except StoreMissing as exc:
        raise CliError(str(exc), EXIT_STORE) from None
    except ValueError as exc:  # not a database URL at all: the --db as written is the problem
        raise CliError(f"--db {redact(db)!r}: {exc}", EXIT_USAGE) from exc
    except (StoreError, OSError) as exc:
        raise CliError(f"cannot open the store {redact(db)!r}: {exc}", EXIT_STORE) from exc
    try:
        yield app
    finally:
        app.close()


def campaign_id_of(store: EventStore, wanted: str | None) -> str:
    """The campaign ``wanted`` names: its id, a unique prefix of its id, or its name; with no
    ``wanted``, the store's only campaign. Anything else is one line listing the campaigns."""
    campaigns = store.list_campaigns()
    if wanted:
        exact = [c for c in campaigns if wanted in (c.id, c.name)]
        found = exact or [c for c in campaigns if c.id.startswith(wanted.lower())]
        if len(found) == 1:
            return found[0].id
        if found:
            names = ", ".join(f"{c.name} ({c.id})" for c in found)
            raise CliError(f"{wanted!r} fits several campaigns: {names}; give more of the id")
        known = ", ".join(f"{c.name} ({c.id})" for c in campaigns) or "none"
        raise CliError(
            f"no campaign {wanted!r} in this store; campaigns there: {known} "
            "('mekref game list --db …' shows the campaigns with their ids)"
        )
    if not campaigns:
        raise CliError("the store holds no campaign; create one with 'mekref campaign new'")
    if len(campaigns) > 1:
        names = ", ".join(f"{c.name} ({c.id})" for c in campaigns)
        raise CliError(f"the store holds several campaigns ({names}); pick one with --campaign")
    return campaigns[0].id


def referee_note(args: argparse.Namespace) -> RefereeNote | None:
    referee, reason = getattr(args, "referee", None), getattr(args, "reason", None)
    if referee is None and reason is None:
        return None
    if not referee or not reason:
        raise CliError("a referee decision needs both --referee NAME and --reason TEXT")
    return RefereeNote(referee=referee, reason=reason)


def referee_only(args: argparse.Namespace, refusal: str) -> RefereeNote:
    """The note of a command only the referee gives (--referee and --reason); without one the
    command is refused with ``refusal``."""
    note = referee_note(args)
    if note is None:
        raise CliError(refusal)
    return note


def name_equals_n(option: str, spec: str, example: str) -> tuple[str, int]:
    """``NAME=N`` as the options that pair a name with a whole number take it (``--bid``,
    ``--bomb``, ``battle correct --armor``): split at the last ``=`` (a name may hold one),
    the name stripped, N a whole number; else refused showing ``example``."""
    name, sep, n = spec.rpartition("=")
    if not sep or not name.strip() or not n.strip().isdigit():
        raise CliError(f"{option} {spec!r}: give {example}")
    return name.strip(), int(n)


def noted(args: argparse.Namespace) -> dict[str, Any]:
    """``note`` and ``actor`` of a command the referee may decide: the referee's note (from
    --referee and --reason) and the referee as the actor, or no note and the CLI as the actor."""
    note = referee_note(args)
    return {"note": note, "actor": note.referee if note else "cli"}


def add_command(actions: Any, name: str, **options: Any) -> argparse.ArgumentParser:
    """The sub-command ``name`` of ``actions`` (``add_subparsers()``), with ``add_parser``'s
    ``options`` (help, description, epilog, ...): its description and examples keep their line
    breaks in ``--help``, as every command's do."""
    parser: argparse.ArgumentParser = actions.add_parser(
        name, formatter_class=argparse.RawDescriptionHelpFormatter, **options
    )
    return parser


def add_store(parser: argparse.ArgumentParser) -> None:
    """--db, filled from MEKREF_DB or mekref.toml when left out (mekref.daemon.cli does it)."""
    parser.add_argument("--db", metavar="FILE|URL", help=DB_HELP)
    parser.set_defaults(store_option=True)


def add_db(parser: argparse.ArgumentParser) -> None:
    add_store(parser)
    parser.add_argument("--campaign", metavar="ID", help="campaign id or name (several per store)")


def add_max_file_mb(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-file-mb",
        type=float,
        metavar="MIB",
        help="read battle files up to this size (32 by default; a 400-unit record is ~2 MiB). "
        "Files over 4 MiB are read one unit at a time, so a 200 MB game needs about 7x its size "
        "in memory",
    )


def max_file_mb(args: argparse.Namespace) -> float | None:
    """The --max-file-mb given, checked; None when not given (the built-in 32 MiB)."""
    value: float | None = getattr(args, "max_file_mb", None)
    if value is not None and value <= 0:
        raise CliError("--max-file-mb must be more than zero (MiB)", EXIT_USAGE)
    return value


def add_referee(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--referee", metavar="NAME", help="the referee who decides")
    parser.add_argument("--reason", metavar="TEXT", help="why (recorded in the log)")


def db_origin(args: argparse.Namespace) -> str:
    """Where --db came from when the user did not type it (a variable, mekref.toml, the
    default), for messages about the store: the user may not know which store was meant."""
    source = getattr(args, "db_source", None)
    return "" if source in (None, "--db") else f" [--db from {source}]"


def guarded(run: Any) -> Any:
    """Wrap a handler: CliError becomes one line on stderr and its exit code."""

    def handler(args: argparse.Namespace) -> int:
        try:
            result: int = run(args)
            return result
        except CliError as exc:
            origin = db_origin(args) if exc.code == EXIT_STORE else ""
            err_console().print(f"mekref {args.command_name}: {exc}{origin}")
            return exc.code

    return handler
