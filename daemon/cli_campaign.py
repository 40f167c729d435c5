"""``mekref campaign new``: create a campaign with its sides in an event store (a file).

Also the helpers the other campaign commands share: open the store named by ``--db``, find
its campaign, load its state or run a command, and turn a refusal into one readable line.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console

from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.daemon import exit_codes
from mekref.daemon.app import App
from mekref.daemon.campaigns import CampaignRunner, Executed
from mekref.daemon.open_app import app_config, start_app
from mekref.daemon.store import EventStore, FileRef, StoreError, StoreMissing
from mekref.daemon.store.open import redact
from mekref.rules.messages import Command, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, SideSpec
from mekref.rules.tripwire.id_prefixes import with_full_ids
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.plugin import RecordLeaderCaptured

EXIT_OK = exit_codes.OK
EXIT_REFUSED = exit_codes.REFUSED
EXIT_USAGE = exit_codes.USAGE
EXIT_STORE = exit_codes.STORE

#: The --db help every command shows.
DB_HELP = (
    "campaign store: SQLite file or postgresql:// URL (default: $MEKREF_DB, db in mekref.toml, "
    "else the user's data folder; see 'mekref config show')"
)

#: The two factions of Operation TripWire, used when no --side is given.
DEFAULT_SIDES = ("loyalists:Katrina Steiner Loyalists", "federalists:Victor Steiner-Davion")

HELP = "create a campaign (campaign new)"
DESCRIPTION = """\
Create a campaign in an event store. The store is a SQLite file or a postgresql:// URL; this
command (and 'game start') creates it when it is not there, the others refuse a --db where
there is no store. Every later command names the same --db, or set it once: MEKREF_DB, or
db = "..." in mekref.toml (see 'mekref config show').
"""

NEW_EPILOG = """\
examples:
  mekref campaign new --db ginestra.db --name "Operation TripWire" --seed 3065
  mekref campaign new --db c.db --name Test --seed 7 --side red:Red --side blue:Blue
  mekref campaign new --db c.db --name "Tukayyid Raid" --seed 7 --house-rules
"""


def err_console() -> Console:
    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def out_console() -> Console:
    # No markup: unit and pilot names carry brackets ("Elemental Battle Armor [Laser]") and
    # rule quotes are printed in brackets; rich would swallow them as style tags.
    return Console(
        highlight=False, markup=False, soft_wrap=True, width=None if sys.stdout.isatty() else 120
    )


def print_json(data: object) -> None:
    """``--json`` output: indented, non-ASCII names kept as they are, one trailing newline."""
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


class CliError(Exception):
    """A message for the user; the command exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


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


def run_command(
    runner: CampaignRunner,
    campaign_id: str,
    command: Command,
    battle_file: FileRef | None = None,
) -> Executed:
    try:
        # The 8-character ids the report prints are taken back (a unique prefix, TripWire).
        state = runner.load(campaign_id).state
        if isinstance(state, CampaignState):
            command = with_full_ids(state, command)
        return runner.execute(campaign_id, command, battle_file=battle_file)
    except Refusal as exc:
        raise CliError(f"refused: {exc}", EXIT_REFUSED) from exc


def campaign_state(args: argparse.Namespace) -> CampaignState:
    """The current state of the campaign that ``--db`` and ``--campaign`` name."""
    with opened(args.db) as app:
        state: CampaignState = app.runner.load(campaign_id_of(app.store, args.campaign)).state
    return state


def execute(args: argparse.Namespace, command: Command) -> Executed:
    """Run one command against the campaign that ``--db`` and ``--campaign`` name."""
    with opened(args.db) as app:
        return run_command(app.runner, campaign_id_of(app.store, args.campaign), command)


def referee_note(args: argparse.Namespace) -> RefereeNote | None:
    referee, reason = getattr(args, "referee", None), getattr(args, "reason", None)
    if referee is None and reason is None:
        return None
    if not referee or not reason:
        raise CliError("a referee decision needs both --referee NAME and --reason TEXT")
    return RefereeNote(referee=referee, reason=reason)


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


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "campaign",
        help=HELP,
        description=DESCRIPTION,
        epilog=NEW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    new = actions.add_parser(
        "new",
        help="create a campaign with its sides",
        description=DESCRIPTION,
        epilog=NEW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_store(new)
    new.add_argument("--name", required=True, help="the campaign's name")
    new.add_argument(
        "--ruleset",
        default="tripwire",
        choices=("tripwire",),
        help="TripWire (the other rule sets start with 'mekref game start')",
    )
    new.add_argument("--seed", help="seed of the campaign's dice (default: a random one)")
    new.add_argument(
        "--side",
        action="append",
        metavar="ID:NAME",
        help="a side (repeat; default: the two TripWire factions)",
    )
    new.add_argument(
        "--house-rules",
        action="store_true",
        help="play the house rules (docs/house-rules.md) as options of this campaign: "
        "'battle pre-damage' (lines 134-152), 'battle morale' (105-133), experience gained in "
        "battles and 'spend xp' (104, 153-154), 'turn maintenance-check' (94) and 'spend "
        "acquire' for the ammunition an Ammo Dump lacks (171-219); without it they are refused",
    )
    new.add_argument("--json", action="store_true", help="the new campaign as JSON")
    new.set_defaults(handler=guarded(_new), command_name="campaign new")
    capture = actions.add_parser(
        "capture-leader",
        help="referee: a side's leader was captured and brought to the captor's DropShip",
        description=(
            "TripWire line 162: 'If a leader is captured and returned to the opposing players "
            "DropShip the campaign ends.' Records it (RecordLeaderCaptured) with the referee's "
            "name and reason once a resolved battle destroyed the leader's escort ('If the unit "
            "is destroyed the leader can be captured'), or with --override (ruling T-L1); the "
            "campaign ends at once with that reason, and 'mekref report' shows it. Capture "
            "only: a leader killed does not end the campaign (line 413)."
        ),
        epilog=(
            "examples:\n  mekref campaign capture-leader --db g.db --side rebel --referee Ann \\\n"
            "      --reason 'militia APC destroyed on day 12; leader carried to the Union'"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(capture)
    capture.add_argument("--side", required=True, help="the side whose leader was captured")
    add_referee(capture)
    capture.add_argument(
        "--override",
        action="store_true",
        help="the referee rules the capture although no resolved battle destroyed the leader's "
        "escort (line 162; ruling T-L1); listed with the report's overrides",
    )
    capture.set_defaults(handler=guarded(_capture_leader), command_name="campaign capture-leader")


def _capture_leader(args: argparse.Namespace) -> int:
    note = referee_note(args)
    if note is None:
        raise CliError("the end of the campaign is the referee's: give --referee NAME and --reason")
    cmd = RecordLeaderCaptured(
        force=args.side, note=note, override=args.override, actor=note.referee
    )
    done = execute(args, cmd)
    console = out_console()
    console.print(f"the leader of {args.side} is captured ({note.referee}: {note.reason})")
    s = done.state.strategic
    battle = s.escorts_lost.get(args.side, "") if s is not None else ""
    console.print(
        f"  the escort was destroyed in battle {battle} (L162)"
        if battle
        else "  on the referee's override: no resolved battle destroyed the escort (T-L1)"
    )
    ended = done.state.strategic.ended if done.state.strategic is not None else ""
    if ended:
        console.print(f"the campaign has ended: {ended}", style="bold")
    return EXIT_OK


def parse_side(text: str) -> SideSpec:
    side_id, sep, name = text.partition(":")
    if not sep or not side_id.strip() or not name.strip():
        raise CliError(f"--side {text!r}: write it as ID:NAME, e.g. red:Red Company")
    return SideSpec(side_id=side_id.strip(), name=name.strip())


def _new(args: argparse.Namespace) -> int:
    sides = tuple(parse_side(s) for s in (args.side or DEFAULT_SIDES))
    seed = args.seed or secrets.token_hex(8)
    command = CreateCampaign(
        name=args.name,
        ruleset=args.ruleset,
        seed=str(seed),
        sides=sides,
        actor="cli",
        house_rules=args.house_rules,
    )
    with opened(args.db, create=True) as app:
        try:
            done = app.runner.create(command)
        except Refusal as exc:
            raise CliError(f"refused: {exc}", EXIT_REFUSED) from exc
    if args.json:
        print_json(
            {
                "campaign_id": done.campaign_id,
                "name": args.name,
                "ruleset": args.ruleset,
                "seed": str(seed),
                "sides": [{"id": s.side_id, "name": s.name} for s in sides],
                "house_rules": args.house_rules,
                "store": redact(args.db),
            }
        )
        return EXIT_OK
    console = out_console()
    console.print(f"campaign {args.name} created: id {done.campaign_id}", style="bold")
    console.print(f"ruleset {args.ruleset}, seed {seed}, store {redact(args.db)}")
    for s in sides:
        console.print(f"  side {s.side_id}: {s.name}")
    if args.house_rules:
        console.print(
            "house rules: on (pre-battle damage, lines 134-152; morale, 105-133; experience, "
            "104 and 153-154; the maintenance check, 94; acquisition, 171-219)"
        )
    return EXIT_OK
