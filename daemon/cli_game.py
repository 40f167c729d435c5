"""``mekref game``: run a campaign of any rule set by entering its commands as JSON.

TripWire campaigns have dedicated commands (``campaign``, ``force``, ``battle``, ``report``);
The Succession Wars, the Dystopian Wars campaign and the objectives tracker take their results
here, one JSON command at a time, through the same exactly-once event log.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.cli_campaign import err_console, guarded, opened, print_json
from mekref.daemon.serve import redact
from mekref.daemon.store import CampaignNotFound, StoreError
from mekref.daemon.store.model import check_campaign_id
from mekref.rules.codec import CodecError, to_jsonable
from mekref.rules.games import game_names, load_game
from mekref.rules.messages import COMMANDS, Command
from mekref.rules.refusal import Refusal

EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2

DESCRIPTION = """\
Run a campaign of any rule set by entering its commands as JSON: {"type": "...", ...fields}.
Every command is checked by the rule set; a refused command changes nothing and says why.

rule sets: """ + ", ".join(game_names())

EPILOG = """\
examples:
  mekref game commands --ruleset succession_wars        the command types and their fields
  mekref game start --db sw.db --ruleset succession_wars --name "Fourth War" start.json
  mekref game do --db sw.db --campaign ID attack.json   one command (use - for stdin)
  mekref game state --db sw.db --campaign ID --json     the folded state and its hash
  mekref game list --db sw.db                           the campaigns in a database, with ids
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "game",
        help="run a campaign of any rule set with JSON commands",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    kw: dict[str, Any] = {"epilog": EPILOG, "formatter_class": argparse.RawDescriptionHelpFormatter}

    commands = actions.add_parser(
        "commands", help="list a rule set's command types and fields", **kw
    )
    commands.add_argument("--ruleset", required=True, choices=game_names())
    commands.set_defaults(handler=_commands)

    start = actions.add_parser("start", help="create a campaign and run its set-up command", **kw)
    _db(start)
    start.add_argument("--ruleset", required=True, choices=game_names())
    start.add_argument("--name", required=True, help="the campaign's name")
    start.add_argument("command", type=Path, help="JSON file with the set-up command, or -")
    start.set_defaults(handler=guarded(_start), command_name="game")

    do = actions.add_parser("do", help="run one command against a campaign", **kw)
    _db(do)
    do.add_argument("--campaign", required=True, help="campaign id (see 'mekref game list')")
    do.add_argument("command", type=Path, help="JSON file with the command, or -")
    do.set_defaults(handler=guarded(_do), command_name="game")

    state = actions.add_parser("state", help="show a campaign's folded state and hash", **kw)
    _db(state)
    state.add_argument("--campaign", required=True)
    state.add_argument("--json", action="store_true", help="the whole state as JSON")
    state.set_defaults(handler=guarded(_state), command_name="game")

    listing = actions.add_parser("list", help="list the campaigns in a database", **kw)
    _db(listing)
    listing.set_defaults(handler=guarded(_list), command_name="game")


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")


def _out() -> Console:
    # No markup: campaign names and roll names (which quote people and units) may hold brackets.
    return Console(highlight=False, markup=False)


def _err(message: str) -> None:
    err_console().print(f"mekref game: {message}")


def _read_command(path: Path) -> Command | None:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise CodecError("a command is a JSON object with a 'type'")
        return COMMANDS.from_json(data)
    except OSError as exc:
        _err(f"{path}: cannot read ({exc.strerror}); check the path")
    except json.JSONDecodeError as exc:
        _err(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})")
    except (CodecError, TypeError, ValueError) as exc:
        _err(f"{path}: not a command: {exc}; see 'mekref game commands --ruleset ...'")
    return None


def _commands(args: argparse.Namespace) -> int:
    game = load_game(args.ruleset)
    prefix = {"succession_wars": "SW", "dystopian_wars": "DW", "objectives": ""}.get(game.name)
    table = Table(title=f"{game.title}: commands", title_justify="left")
    table.add_column("type")
    table.add_column("fields")
    module_root = game.decide.__module__.rsplit(".", 1)[0]
    for cls in COMMANDS.classes():
        if not cls.__module__.startswith(module_root):
            continue
        if prefix and not cls.TYPE.startswith(prefix):
            continue
        fields = ", ".join(f.name for f in dataclasses.fields(cls) if f.name != "actor")
        table.add_row(cls.TYPE, fields)
    _out().print(table)
    return 0


def _campaign_id(args: argparse.Namespace) -> str | None:
    """``--campaign`` checked before any store is opened; None (and a line said) when bad."""
    try:
        return check_campaign_id(args.campaign)
    except ValueError:
        _err(f"--campaign {args.campaign!r} is not a campaign id; {_list_hint(args)}")
        return None


def _list_hint(args: argparse.Namespace) -> str:
    return f"'mekref game list --db {redact(args.db)}' shows the campaigns"


def _run(args: argparse.Namespace, starting: bool) -> int:
    command = _read_command(args.command)
    if command is None or (not starting and _campaign_id(args) is None):
        return EXIT_BAD_INPUT
    try:
        with opened(args.db) as store:
            runner = CampaignRunner(store)
            if starting:
                done = runner.start(args.name, args.ruleset, command)
            else:
                done = runner.execute(args.campaign, command)
            state_hash = runner.state_hash(done.campaign_id, done.state)
    except Refusal as exc:
        _err(f"refused: {exc}")
        return EXIT_REFUSED
    except CampaignNotFound as exc:
        _err(f"{exc}; {_list_hint(args)}")
        return EXIT_BAD_INPUT
    except StoreError as exc:
        _err(str(exc))
        return EXIT_BAD_INPUT
    console = _out()
    console.print(f"campaign {done.campaign_id}: events {done.first_seq}-{done.last_seq}")
    for event in done.events:
        rolls = ", ".join(f"{r.name} = {'+'.join(map(str, r.faces))}" for r in event.rolls)
        console.print(Text.assemble(f"  {event.TYPE}", (f"  ({rolls})" if rolls else "", "dim")))
    console.print(f"state-hash: {state_hash}")
    return 0


def _start(args: argparse.Namespace) -> int:
    return _run(args, starting=True)


def _do(args: argparse.Namespace) -> int:
    return _run(args, starting=False)


def _state(args: argparse.Namespace) -> int:
    if _campaign_id(args) is None:
        return EXIT_BAD_INPUT
    try:
        with opened(args.db) as store:
            runner = CampaignRunner(store)
            loaded = runner.load(args.campaign)
            state_hash = runner.state_hash(args.campaign, loaded.state)
    except CampaignNotFound as exc:
        _err(f"{exc}; {_list_hint(args)}")
        return EXIT_BAD_INPUT
    except StoreError as exc:
        _err(str(exc))
        return EXIT_BAD_INPUT
    if args.json:
        out = {"state": to_jsonable(loaded.state), "last_seq": loaded.last_seq}
        print_json({**out, "state_hash": state_hash})
    else:
        _out().print(
            f"campaign {args.campaign}: {loaded.last_seq} events\nstate-hash: {state_hash}"
        )
    return 0


def _list(args: argparse.Namespace) -> int:
    try:
        with opened(args.db) as store:
            campaigns = store.list_campaigns()
    except StoreError as exc:
        _err(str(exc))
        return EXIT_BAD_INPUT
    table = Table(title="campaigns", title_justify="left")
    for column in ("id", "name", "rule set", "created"):
        table.add_column(column)
    for c in campaigns:
        table.add_row(c.id, c.name, c.ruleset, c.created_at.isoformat(timespec="seconds"))
    _out().print(table)
    return 0
