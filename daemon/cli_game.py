"""``mekref game``: run a campaign of any rule set by entering its commands as JSON.

TripWire campaigns also have dedicated commands (``campaign``, ``force``, ``battle``,
``report``...); every rule set (TripWire, The Succession Wars, the Dystopian Wars campaign, the
objectives tracker, the house rules) takes its commands here, one JSON command at a time,
through the same exactly-once event log.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mekref.daemon import exit_codes
from mekref.daemon.cli_campaign import (
    CliError,
    add_store,
    campaign_id_of,
    guarded,
    opened,
    print_json,
)
from mekref.daemon.game_examples import (
    SUCCESSION_WARS,
    SW_SCENARIOS,
    example_next,
    example_start,
)
from mekref.daemon.game_scripts import (
    DEMOS,
    ScriptError,
    ScriptLine,
    bundled_text,
    demo_files,
    parse_script,
)
from mekref.daemon.store import CampaignNotFound, StoreError
from mekref.daemon.terminal import terminal_safe
from mekref.rules.codec import CodecError, to_jsonable
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command, message_to_json
from mekref.rules.refusal import Refusal
from mekref.rules.registry import RULESET_NAMES, ruleset
from mekref.rules.schema import CommandSchema, FieldSchema, command_schema

EXIT_REFUSED = exit_codes.REFUSED
EXIT_BAD_INPUT = exit_codes.USAGE

DESCRIPTION = """\
Run a campaign of any rule set by entering its commands as JSON: {"type": "...", ...fields}.
Every command is checked by the rule set; a refused command changes nothing and says why.
'mekref game commands --ruleset R' lists a rule set's commands with their fields and an
example of each. A command's "actor" says who gives it ('referee', or a side: a House, a fleet,
a scenario side); --actor fills it in when the JSON leaves it out.

Wherever a campaign id is asked for, its name or the first characters of its id will do.

rule sets: """ + ", ".join(RULESET_NAMES)

EPILOG = """\
examples:
  mekref game example --ruleset succession_wars --out start.json   a complete set-up to edit
  mekref game example --ruleset succession_wars --next              a first command after it
  mekref game example --ruleset succession_wars --scenario 2786 --out 2786.json
                                                        the First Succession War, to edit
  mekref game start --db sw.db --ruleset succession_wars --scenario 2786 \\
      --name "First War" 2786.json                      start it (round 1: Mercenary purchases)
  mekref game commands --ruleset succession_wars        the commands, their fields, examples
  mekref game commands --ruleset objectives --json      the same, for programs
  mekref game start --db sw.db --ruleset succession_wars --name "Fourth War" start.json
  mekref game start --db sw.db --ruleset succession_wars --name "My board" \\
      --map board.toml start.json                       the board from a TOML map file
  mekref game do --db sw.db --campaign "Fourth War" attack.json   one command (- for stdin)
  mekref game do --db obj.db --campaign Hill --type OBJPlaceObjective --actor red \\
      --field side=red --field objective_id=hill --position 12,30   fields on the command line
  echo '{"type": "SWEndPhase", "house": "Davion"}' | \\
      mekref game do --db sw.db --campaign 3f2a --actor Davion -
  mekref game do --db sw.db --campaign "Fourth War" --script session.jsonl
                                          several commands, one a line (see game do --help)
  mekref game demo --ruleset dystopian_wars   a bundled game played to its end, in words
  mekref game state --db sw.db --campaign 3f2a --json   the folded state and its hash
  mekref game state --db sw.db --campaign 3f2a --side Davion   what one side may see
  mekref game report --db sw.db --campaign 3f2a         the campaign in words, House by House
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
        "commands", help="a rule set's commands: fields, types, allowed values, examples", **kw
    )
    commands.add_argument("--ruleset", required=True, choices=RULESET_NAMES)
    commands.add_argument("--type", metavar="TYPE", help="only this command")
    commands.add_argument("--json", action="store_true", help="the schema as JSON")
    commands.set_defaults(handler=guarded(_commands), command_name="game commands")

    example = actions.add_parser(
        "example",
        help="print a complete, working start command (or a first follow-up) to edit",
        description=EXAMPLE_DESCRIPTION,
        **kw,
    )
    example.add_argument("--ruleset", required=True, choices=RULESET_NAMES)
    example.add_argument(
        "--next", action="store_true", help="a command to give after the example start instead"
    )
    example.add_argument("--out", type=Path, help="write it to this file instead of stdout")
    _scenario(example)
    example.set_defaults(handler=guarded(_example), command_name="game example")

    start = actions.add_parser("start", help="create a campaign and run its set-up command", **kw)
    _db(start)
    start.add_argument("--ruleset", required=True, choices=RULESET_NAMES)
    start.add_argument("--name", required=True, help="the campaign's name")
    start.add_argument(
        "--map",
        type=Path,
        metavar="FILE.toml",
        help="succession_wars: the board as a TOML map file (the format of the shipped map, "
        'docs/succession-wars.md); the command may instead say "map": "sample" or '
        '"map": "board.toml"',
    )
    _scenario(start)
    _command_args(start)
    start.set_defaults(handler=guarded(_start), command_name="game start")

    do = actions.add_parser(
        "do",
        help="run one command, or a script of commands, against a campaign",
        description=DO_DESCRIPTION,
        **kw,
    )
    _db(do)
    do.add_argument("--campaign", help="campaign id, id prefix or name (see 'mekref game list')")
    _command_args(do, fields=True)
    do.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="run every command of FILE in order (JSON lines, each with its actor; blank lines "
        "and # comments skipped; - for stdin), stopping at the first refusal",
    )
    do.add_argument(
        "--from",
        dest="from_line",
        type=int,
        metavar="LINE",
        help="with --script: start at this line of the file (go on after a refused line)",
    )
    do.set_defaults(handler=guarded(_do), command_name="game do")

    state = actions.add_parser("state", help="show a campaign's state (or a side's view)", **kw)
    _db(state)
    state.add_argument("--campaign", help="campaign id, id prefix or name")
    state.add_argument("--side", help="show only what this side may see")
    state.add_argument("--json", action="store_true", help="the whole state as JSON")
    state.set_defaults(handler=guarded(_state), command_name="game state")

    report = actions.add_parser(
        "report", help="a campaign in words: sides, holdings, what is being fought", **kw
    )
    _db(report)
    report.add_argument("--campaign", help="campaign id, id prefix or name")
    report.add_argument("--json", action="store_true", help="the sections as JSON")
    report.set_defaults(handler=guarded(_report), command_name="game report", side=None)

    demo = actions.add_parser(
        "demo",
        help="play a rule set's bundled demo game to its end in a throw-away store",
        description=DEMO_DESCRIPTION,
        **kw,
    )
    demo.add_argument("--ruleset", required=True, choices=DEMOS)
    demo.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="keep the store, the start command and the script in DIR (created if missing) "
        "instead of a temporary folder",
    )
    demo.set_defaults(handler=guarded(_demo), command_name="game demo")

    listing = actions.add_parser("list", help="list the campaigns in a database", **kw)
    _db(listing)
    listing.add_argument("--json", action="store_true", help="the list as JSON")
    listing.set_defaults(handler=guarded(_list), command_name="game list")


EXAMPLE_DESCRIPTION = """\
Print a complete start command for a rule set, one that 'mekref game start' accepts as it is,
to copy and edit; with --next, a command the campaign it sets up accepts next.

  succession_wars  the sample map, the two-player split of the rule book (Davion and Steiner
                   against Kurita, Marik and Liao) and every free set-up piece of the 3025
                   Order of Battle placed in a legal Region (its House capital, or a Region
                   bordering the one its set-up rule names). Change the seed before a real game.
                   --scenario 2786: the First Succession War, every House's 25 units, JumpShips
                   and Leaders placed (garrisons first, the rest at the House capital);
                   --next then draws the first House's Mercenary unit (SWDrawMercenary).
  dystopian_wars   two fleets (Britannia and the Empire of the Blazing Sun) with their squadrons
  objectives       two sides, four objectives (open, mobile, hidden, garrisoned) and their
                   squads on a 48" table; the players place three objectives in turn, red
                   first (--next: red places hill; then OBJPlaceObjective with --position)
  house_rules      the set-up: a seed for the house rules' dice (--next: a new MechWarrior,
                   Piloting 7 and Gunnery 7 as line 153 starts them, experience rolled)
  tripwire         a campaign with two sides
docs/succession-wars.md, docs/dystopian-wars.md, docs/objectives.md and docs/house-rules.md
explain every field.
"""


def _scenario(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario",
        choices=SW_SCENARIOS,
        help="succession_wars: 3025 (the main game) or 2786 (the First Succession War, "
        "L585-639: 25 units a House, a Mercenary pile, a first round of Mercenary purchases; "
        "docs/succession-wars.md)",
    )


def _check_scenario(args: argparse.Namespace) -> str:
    scenario: str = getattr(args, "scenario", None) or ""
    if scenario and args.ruleset != SUCCESSION_WARS:
        raise CliError(f"--scenario is for succession_wars; {args.ruleset} has no scenarios")
    return scenario


DO_DESCRIPTION = """\
Run one command against a campaign (a JSON file, - for stdin, or --type with --field), or with
--script a file of several, applied in order in one go. The outcome of each is told in words;
--json gives each event's fields too.

A script holds one command a line, each a whole JSON object with its "actor" (--actor fills in
the lines that leave it out); blank lines and lines starting with # are skipped:

  # Round 1 of the night raid
  {"type": "OBJStartRound", "actor": "ref", "round": 1}
  {"type": "OBJClaim", "actor": "red", "objective_id": "hill", "squad_id": "red-tank"}

Every line is read and checked as a command before the first one runs. The commands then run
one by one, each recorded as it is accepted; the script stops at the first refusal, naming its
line. The lines before it stay applied: fix that line and go on with --from LINE. The bundled
demos are scripts of this kind ('mekref game demo --ruleset R --out DIR' writes one out).

  mekref game do --db obj.db --campaign "Night raid" --script raid.jsonl
  mekref game do --db obj.db --campaign "Night raid" --script raid.jsonl --from 14
  mekref game do --db obj.db --campaign "Night raid" --script raid.jsonl --json
"""

DEMO_DESCRIPTION = """\
Play a rule set's bundled demo game from its set-up to its end, in a fresh store in a temporary
folder: 'game start' with the demo's start command, 'game do --script' with its script (every
outcome in words), then 'game report'. With --out DIR the store, the start command and the
script stay in DIR, to read with 'game state' and 'game report', or to edit and replay.

  dystopian_wars   Britannia against the Blazing Sun, battle after battle, until Britannia
                   conquers 11 territories (the campaign's victory condition)
  objectives       a six-round objectives scenario, red against blue, ending with red
                   extracting the crate
  succession_wars  two players holding the five Houses; Bo (Kurita, Marik, Liao) takes New
                   Avalon in round 2 and wins with four of the five House capitals

  mekref game demo --ruleset dystopian_wars
  mekref game demo --ruleset succession_wars --out sw-demo/
  mekref game report --db sw-demo/succession_wars-demo.db
"""


def _example(args: argparse.Namespace) -> int:
    scenario = _check_scenario(args)
    data = (
        example_next(args.ruleset, scenario) if args.next else example_start(args.ruleset, scenario)
    )
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{args.out}: cannot write ({exc.strerror}); check the path") from None
    kind = "follow-up" if args.next else "start"
    print(f"wrote the {args.ruleset} example {kind} command to {args.out}", file=sys.stderr)
    return 0


def _db(parser: argparse.ArgumentParser) -> None:
    add_store(parser)


def _command_args(parser: argparse.ArgumentParser, fields: bool = False) -> None:
    help_ = "JSON file with the command, or - for stdin"
    if not fields:
        parser.add_argument("command", type=Path, help=help_)
    else:
        parser.add_argument("command", type=Path, nargs="?", help=help_ + " (or use --type)")
        parser.add_argument(
            "--type",
            dest="command_type",
            metavar="TYPE",
            help="build the command on the command line instead of a file: its type "
            "(see 'mekref game commands')",
        )
        parser.add_argument(
            "--field",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="set a field of the command (repeatable); VALUE is read as JSON when it is "
            'JSON (true, 3, ["a"]), as text otherwise',
        )
        parser.add_argument(
            "--position",
            metavar="X,Y",
            help="set the command's position, in inches from the table's left and bottom edges "
            "(exact: 12,30 or 12.5,30 or 25/2,30)",
        )
    parser.add_argument("--actor", help="who gives the command, when the JSON does not say")
    parser.add_argument("--json", action="store_true", help="the events as JSON")


def _out() -> Console:
    # No markup: campaign names and roll names (which quote people and units) may hold brackets.
    return Console(highlight=False, markup=False, soft_wrap=True)


# -- reading commands ---------------------------------------------------------------------
@dataclass(frozen=True)
class _CommandText:
    """A command file read and parsed as JSON, not yet decoded by a rule set."""

    where: str
    data: dict[str, Any]


def _read_command(args: argparse.Namespace) -> _CommandText:
    """The command from its file, or built from --type, with --field and --position applied."""
    kind = getattr(args, "command_type", None)
    if args.command is not None and kind is not None:
        raise CliError("give the command as a file or with --type, not both")
    if args.command is None and kind is None:
        raise CliError("give the command: a JSON file, - for stdin, or --type TYPE with --field")
    if kind is not None:
        text = _CommandText("the command line", {"type": kind})
        if args.actor is not None:
            text.data["actor"] = args.actor
    else:
        text = _read_json(args.command, args.actor)
    for item in getattr(args, "field", []):
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise CliError(f"--field {item!r}: write NAME=VALUE")
        try:
            text.data[name] = json.loads(value)
        except json.JSONDecodeError:
            text.data[name] = value
    position = getattr(args, "position", None)
    if position is not None:
        text.data["position"] = _position(position)
    if "actor" not in text.data:
        raise CliError(
            f'{text.where}: say who gives the command: "actor" in the JSON or --actor '
            "('referee', or a side)"
        )
    return text


def _position(text: str) -> dict[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise CliError(f"--position {text!r}: write X,Y in inches, e.g. 12,30")
    try:
        x, y = (Fraction(p) for p in parts)
    except (ValueError, ZeroDivisionError):
        raise CliError(
            f"--position {text!r}: X and Y are numbers of inches, e.g. 12.5,30"
        ) from None
    return {"x": str(x), "y": str(y)}


def _read_json(path: Path, actor: str | None) -> _CommandText:
    where = "stdin" if str(path) == "-" else str(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{where}: cannot read ({exc.strerror}); check the path") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{where}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise CliError(f'{where}: a command is a JSON object: {{"type": "...", ...}}')
    if "actor" not in data and actor is not None:
        data["actor"] = actor
    return _CommandText(where, data)


def _decode(game: RuleSet[Any], text: _CommandText) -> Command:
    where, data = text.where, text.data
    kind = data.get("type")
    if isinstance(kind, str) and kind not in game.commands:
        raise CliError(
            f"{where}: {game.title} has no command {kind!r}; "
            f"see 'mekref game commands --ruleset {game.name}'"
        )
    try:
        return game.commands.from_json(data)
    except CodecError as exc:
        raise CliError(
            f"{where}: not a {game.name} command: {exc}; "
            f"see 'mekref game commands --ruleset {game.name} --type {kind}'"
        ) from None


# -- commands -----------------------------------------------------------------------------
def _schema_json(schema: CommandSchema, setup: bool) -> dict[str, Any]:
    def fields(items: tuple[FieldSchema, ...]) -> list[dict[str, Any]]:
        return [
            {
                "name": f.name,
                "type": f.type,
                "required": f.required,
                **({"allowed": list(f.allowed)} if f.allowed else {}),
                **({"doc": f.doc} if f.doc else {}),
                **({} if f.required else {"default": f.default}),
            }
            for f in items
        ]

    return {
        "type": schema.type,
        "description": schema.doc,
        "setup": setup,
        "fields": fields(schema.fields),
        "objects": {name: fields(items) for name, items in schema.objects},
        "example": schema.example,
    }


def _commands(args: argparse.Namespace) -> int:
    game = ruleset(args.ruleset)
    classes = [c for c in game.commands.classes() if args.type in (None, c.TYPE)]
    if not classes:
        raise CliError(f"{game.title} has no command {args.type!r}")
    schemas = [(command_schema(c), c in game.setup) for c in classes]
    if args.json:
        print_json({"ruleset": game.name, "title": game.title, "commands": [
            _schema_json(s, setup) for s, setup in schemas
        ]})  # fmt: skip
        return 0
    console = _out()
    console.print(f"{game.title}: {len(schemas)} commands (* required)")
    for schema, setup in schemas:
        console.print()
        heading = f"{schema.type}{'  (sets the campaign up: game start)' if setup else ''}"
        console.print(Text(heading, style="bold"))
        if schema.doc:
            console.print(f"  {schema.doc}")
        if setup:
            console.print(f"  a complete one to edit: mekref game example --ruleset {game.name}")
        _print_fields(console, schema.fields, "  ")
        for name, fields in schema.objects:
            console.print(f"  {name}:")
            _print_fields(console, fields, "    ")
        console.print(f"  example: {json.dumps(schema.example, ensure_ascii=False)}")
    return 0


def _print_fields(console: Console, fields: tuple[FieldSchema, ...], indent: str) -> None:
    for f in fields:
        mark = "*" if f.required else " "
        extra = "" if f.required else f"  (default {json.dumps(f.default)})"
        # An enum's values are already its type ("one of: ..."); a str field lists its own.
        if f.allowed and not f.type.startswith("one of"):
            extra += "  one of: " + ", ".join(json.dumps(a) for a in f.allowed)
        console.print(f"{indent}{mark} {f.name}: {f.type}{extra}")
        if f.doc:
            console.print(f"{indent}    {f.doc}")


# -- running ------------------------------------------------------------------------------
def _print_events(
    game: RuleSet[Any], campaign_id: str, first: int, last: int, events: Any, state_hash: str
) -> None:
    console = _out()
    console.print(f"campaign {campaign_id}: events {first}-{last}")
    for event in events:
        console.print(f"  {game.outcome(event)}")
    console.print(f"state-hash: {state_hash}")


def _events_json(
    game: RuleSet[Any], campaign_id: str, first: int, last: int, events: Any, state_hash: str
) -> dict[str, Any]:
    return {
        "campaign_id": campaign_id,
        "first_seq": first,
        "last_seq": last,
        "events": [{"outcome": game.outcome(e), "event": message_to_json(e)} for e in events],
        "state_hash": state_hash,
    }


def _run(args: argparse.Namespace, starting: bool) -> int:
    # The command file is read before the store is opened: a typo in it is reported as
    # such, whatever the state of the store.
    text = _read_command(args)
    if starting:
        _fill_board(args, text)
        _fill_scenario(args, text)
    try:
        # 'game start' is 'campaign new' for every rule set: the one place it may create the store.
        with opened(args.db, create=starting) as app:
            if starting:
                game = ruleset(args.ruleset)
                done = app.runner.start(args.name, args.ruleset, _decode(game, text))
            else:
                campaign_id = campaign_id_of(app.store, args.campaign)
                game = app.runner.game(campaign_id)
                done = app.runner.execute(campaign_id, _decode(game, text))
            state_hash = game.state_hash(done.state)
            if starting:
                _warn_2786_leaders(game, done.state)
    except Refusal as exc:
        raise CliError(f"refused: {exc}", EXIT_REFUSED) from None
    except CampaignNotFound as exc:
        raise CliError(str(exc)) from None
    except StoreError as exc:
        raise CliError(str(exc), exit_codes.STORE) from None
    shown = (game, done.campaign_id, done.first_seq, done.last_seq, done.events, state_hash)
    if args.json:
        print_json(_events_json(*shown))
    else:
        _print_events(*shown)
    return 0


def _fill_board(args: argparse.Namespace, text: _CommandText) -> None:
    if args.ruleset != SUCCESSION_WARS:
        if args.map is not None:
            raise CliError(f"--map is for succession_wars; {args.ruleset} has no such board")
        return
    from mekref.daemon.sw_maps import MapInputError, fill_map  # only succession_wars has a map

    try:
        warning = fill_map(text.data, text.where, args.map)
    except MapInputError as exc:
        raise CliError(str(exc)) from None
    if warning:
        print(f"warning: {warning}", file=sys.stderr)


def _fill_scenario(args: argparse.Namespace, text: _CommandText) -> None:
    scenario = _check_scenario(args)
    if not scenario:
        return
    given = text.data.get("scenario", "3025")
    if given != scenario:
        if "scenario" in text.data:
            print(
                f"warning: --scenario {scenario} replaces the scenario {given!r} of {text.where}",
                file=sys.stderr,
            )
        text.data["scenario"] = scenario


def _warn_2786_leaders(game: RuleSet[Any], state: Any) -> None:
    """L613-619 list Davion's 2786 Leaders only (ruling SW-39): say which Houses have none."""
    if game.name != SUCCESSION_WARS or getattr(state, "scenario", "") != "2786":
        return
    led = {ld.house for ld in state.leaders.values()}
    bare = [h for h in state.sequence if h not in led]
    if bare:
        print(
            f"warning: scenario 2786: the text lists Leaders for {', '.join(sorted(led))} only "
            f"(L613-619); {', '.join(bare)} start without Leaders (ruling SW-39)",
            file=sys.stderr,
        )


def _start(args: argparse.Namespace) -> int:
    return _run(args, starting=True)


def _do(args: argparse.Namespace) -> int:
    if args.script is not None:
        return _run_script(args)
    if args.from_line is not None:
        raise CliError("--from is for --script: the line of the script to start at")
    return _run(args, starting=False)


# -- scripts ------------------------------------------------------------------------------
def _script_lines(args: argparse.Namespace) -> tuple[str, tuple[ScriptLine, ...]]:
    """The script's file name and its commands from --from on, read and checked as JSON."""
    others = {
        "a command file": args.command is not None,
        "--type": args.command_type is not None,
        "--field": bool(args.field),
        "--position": args.position is not None,
    }
    given = [name for name, on in others.items() if on]
    if given:
        raise CliError(f"--script runs the commands of its file; leave out {', '.join(given)}")
    path: Path = args.script
    where = "stdin" if str(path) == "-" else str(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{where}: cannot read ({exc.strerror}); check the path") from None
    except UnicodeDecodeError:
        raise CliError(f"{where}: not a text file (UTF-8): a script is JSON lines") from None
    if args.from_line is not None and args.from_line < 1:
        raise CliError(f"--from {args.from_line}: the lines of a script count from 1")
    try:
        lines = parse_script(text, where, args.actor, args.from_line or 1)
    except ScriptError as exc:
        raise CliError(str(exc)) from None
    return where, lines


def _run_script(args: argparse.Namespace) -> int:
    where, lines = _script_lines(args)
    console = _out()
    done: list[dict[str, Any]] = []
    refused: dict[str, Any] | None = None
    try:
        with opened(args.db) as app:
            campaign_id = campaign_id_of(app.store, args.campaign)
            game = app.runner.game(campaign_id)
            # Decoded before the first one runs: a mistyped field anywhere changes nothing.
            commands = [
                (line, _decode(game, _CommandText(f"{where}:{line.number}", line.data)))
                for line in lines
            ]
            if not args.json:
                console.print(f"campaign {campaign_id}: {where}, {len(commands)} command(s)")
            state = app.runner.load(campaign_id).state
            for line, command in commands:
                try:
                    result = app.runner.execute(campaign_id, command)
                except Refusal as exc:
                    refused = {
                        "line": line.number,
                        "type": type(command).TYPE,
                        "actor": command.actor,
                        "code": exc.code,
                        "refusal": str(exc),
                    }
                    break
                state = result.state
                item = _script_item(game, line, command, result)
                done.append(item)
                if not args.json:
                    _print_script_item(console, item)
            state_hash = game.state_hash(state)
    except CampaignNotFound as exc:
        raise CliError(str(exc)) from None
    except StoreError as exc:
        raise CliError(str(exc), exit_codes.STORE) from None
    if args.json:
        print_json(
            {
                "campaign_id": campaign_id,
                "script": where,
                "commands": done,
                "refused": refused,
                "state_hash": state_hash,
            }
        )
    else:
        console.print(f"state-hash: {state_hash}")
    if refused is None:
        return 0
    applied = f"lines {lines[0].number}-{done[-1]['line']} applied" if done else "nothing applied"
    raise CliError(
        f"{where}:{refused['line']}: {refused['type']} by {refused['actor']} refused: "
        f"{refused['refusal']}; {applied}; fix line {refused['line']} and go on with "
        f"--from {refused['line']}",
        EXIT_REFUSED,
    )


def _script_item(
    game: RuleSet[Any], line: ScriptLine, command: Command, result: Any
) -> dict[str, Any]:
    return {
        "line": line.number,
        "type": type(command).TYPE,
        "actor": command.actor,
        "first_seq": result.first_seq,
        "last_seq": result.last_seq,
        "events": [
            {"outcome": game.outcome(e), "event": message_to_json(e)} for e in result.events
        ],
    }


def _print_script_item(console: Console, item: dict[str, Any]) -> None:
    first, last = item["first_seq"], item["last_seq"]
    seqs = f"event {first}" if first == last else f"events {first}-{last}"
    seqs = seqs if last >= first else "no event"
    console.print(f"line {item['line']}: {item['type']} by {item['actor']} ({seqs})")
    for event in item["events"]:
        console.print(f"  {event['outcome']}")


# -- the bundled demos --------------------------------------------------------------------
def _demo(args: argparse.Namespace) -> int:
    name = args.ruleset
    start_name, script_name = demo_files(name)
    if args.out is None:
        with tempfile.TemporaryDirectory(prefix="mekref-demo-") as tmp:
            return _play_demo(name, Path(tmp), start_name, script_name)
    db = args.out / f"{name}-demo.db"
    if db.exists():
        raise CliError(f"{db} already holds a demo; remove it or give another --out folder")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--out {args.out}: cannot create it ({exc.strerror})") from None
    return _play_demo(name, args.out, start_name, script_name)


def _play_demo(name: str, folder: Path, start_name: str, script_name: str) -> int:
    start, script = folder / start_name, folder / script_name
    try:
        start.write_text(bundled_text(start_name), encoding="utf-8")
        script.write_text(bundled_text(script_name), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{folder}: cannot write the demo's files ({exc.strerror})") from None
    db = str(folder / f"{name}-demo.db")
    title = f"{ruleset(name).title} demo"
    console = _out()
    common = {"db": db, "json": False, "actor": None, "map": None}
    steps: list[tuple[str, Callable[[argparse.Namespace], int], argparse.Namespace]] = [
        (
            f"mekref game start --db {db} --ruleset {name} --name '{title}' {start}",
            _start,
            argparse.Namespace(**common, ruleset=name, name=title, command=start),
        ),
        (
            f"mekref game do --db {db} --script {script}",
            _do,
            argparse.Namespace(
                **common,
                campaign=None,
                script=script,
                from_line=None,
                command=None,
                command_type=None,
                field=[],
                position=None,
            ),
        ),
        (f"mekref game report --db {db}", _report, argparse.Namespace(**common, campaign=None)),
    ]
    for shown, step, step_args in steps:
        console.print(f"\n$ {shown}", style="bold")
        code = step(step_args)
        if code != 0:
            return code
    return 0


def _state(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        campaign_id = campaign_id_of(app.store, args.campaign)
        game = app.runner.game(campaign_id)
        loaded = app.runner.load(campaign_id)
        sides = game.sides_of(loaded.state)
        if args.side is not None and args.side not in sides:
            known = ", ".join(sorted(sides)) or "none (this rule set has no sides)"
            raise CliError(f"no side {args.side!r} in this campaign; sides: {known}")
        state_hash = game.state_hash(loaded.state)
    if args.json:
        view = game.view_for(loaded.state, args.side) if args.side else to_jsonable(loaded.state)
        out = {"state": view, "last_seq": loaded.last_seq, "ruleset": game.name}
        print_json({**out, **({"side": args.side} if args.side else {"state_hash": state_hash})})
        return 0
    console = _out()
    console.print(f"campaign {campaign_id} ({game.title}): {loaded.last_seq} events")
    if sides:
        console.print("sides: " + ", ".join(f"{k} ({v})" for k, v in sides.items()))
    if args.side:
        console.print(json.dumps(game.view_for(loaded.state, args.side), indent=2))
    else:
        console.print(f"state-hash: {state_hash}")
    return 0


def _report(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        campaign_id = campaign_id_of(app.store, args.campaign)
        game = app.runner.game(campaign_id)
        summarize = game.summarize
        if summarize is not None:
            loaded = app.runner.load(campaign_id)
            sections = summarize(loaded.state)
    if summarize is None:
        # TripWire's books have their own report (units, bills, people, pools, the ending),
        # which folds the campaign itself.
        from mekref.daemon import cli_report

        args.campaign = campaign_id
        args.overview = False  # `game report` prints the books; `report --overview` the page
        return cli_report.run(args)
    if args.json:
        print_json(
            {
                "campaign_id": campaign_id,
                "ruleset": game.name,
                "last_seq": loaded.last_seq,
                "sections": [{"title": s.title, "lines": list(s.lines)} for s in sections],
            }
        )
        return 0
    console = _out()
    console.print(f"campaign {campaign_id} ({game.title}): {loaded.last_seq} events")
    for section in sections:
        console.print(f"\n{section.title}", markup=False, highlight=False)
        for line in section.lines:
            # Names come from the set-up files: no terminal control sequence gets through.
            console.print(f"  {terminal_safe(line)}", markup=False, highlight=False)
    return 0


def _list(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        campaigns = app.store.list_campaigns()
    if args.json:
        print_json(
            [
                {
                    "id": c.id,
                    "name": c.name,
                    "ruleset": c.ruleset,
                    "created_at": c.created_at.isoformat(timespec="seconds"),
                }
                for c in campaigns
            ]
        )
        return 0
    table = Table(title="campaigns", title_justify="left")
    # Ids are never cut short: they are what the other commands take.
    table.add_column("id", no_wrap=True, min_width=36)
    for column in ("name", "rule set", "created"):
        table.add_column(column, overflow="fold")
    for c in campaigns:
        table.add_row(c.id, c.name, c.ruleset, c.created_at.isoformat(timespec="seconds"))
    Console(highlight=False, markup=False, width=max(120, _out().width)).print(table)
    return 0
