"""``mekref game``: run a campaign of any rule set by typing its commands (or giving them as
JSON).

TripWire campaigns also have dedicated commands (``campaign``, ``force``, ``battle``,
``report``...); every rule set (TripWire, The Succession Wars, the Dystopian Wars campaign, the
objectives tracker, the house rules) takes its commands here, one command at a time (typed as
TYPE key=value words, or JSON),
through the same exactly-once event log.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mekref.daemon import exit_codes
from mekref.daemon.cli_common import (
    CliError,
    add_command,
    add_store,
    guarded,
)
from mekref.daemon.cli_game_commands import run_commands
from mekref.daemon.cli_game_input import (
    check_scenario,
)
from mekref.daemon.cli_game_read import (
    run_list,
    run_report,
    run_state,
)
from mekref.daemon.cli_game_run import (
    run_demo,
    run_do,
    run_start,
)
from mekref.daemon.game_examples import example_next, example_start
from mekref.daemon.game_scripts import (
    DEMOS,
)
from mekref.daemon.wings import wings
from mekref.rules.registry import RULESET_NAMES

EXIT_REFUSED = exit_codes.REFUSED
EXIT_BAD_INPUT = exit_codes.USAGE

DESCRIPTION = """\
Run a campaign of any rule set by typing its commands: TYPE key=value ... (the type, field
names and listed values matched without case), or as JSON: {"type": "...", ...fields}.
Every command is checked by the rule set; a refused command changes nothing and says why.
'mekref game commands --ruleset R' lists a rule set's commands with their fields and an
example of each. A command's "actor" says who gives it ('referee', or a side: a House, a fleet,
a scenario side); --actor fills it in when the command leaves it out.

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
  mekref game do --db sw.db --campaign "Fourth War" SWEndPhase actor=Davion house=davion
                                          a command typed as words: TYPE key=value ...
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
  mekref game report --db sw.db --campaign 3f2a --side Davion   what Davion may know, in words
  mekref game list --db sw.db                           the campaigns in a database, with ids
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        sub,
        "game",
        help="run a campaign of any rule set with typed (or JSON) commands",
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    kw: dict[str, Any] = {"epilog": EPILOG}
    _setup_commands(actions, kw)
    _setup_example(actions, kw)
    _setup_start(actions, kw)
    _setup_do(actions, kw)
    _setup_state(actions, kw)
    _setup_report(actions, kw)
    _setup_demo(actions, kw)
    _setup_list(actions, kw)


def _setup_commands(actions: Any, kw: dict[str, Any]) -> None:
    """``game commands``."""
    commands = add_command(
        actions,
        "commands",
        help="a rule set's commands: fields, types, allowed values, examples",
        **kw,
    )
    commands.add_argument("--ruleset", required=True, choices=RULESET_NAMES)
    commands.add_argument("--type", metavar="TYPE", help="only this command")
    commands.add_argument("--json", action="store_true", help="the schema as JSON")
    commands.add_argument(
        "--campaign",
        help="also list the names this campaign gives its fields (its Houses, Regions, fleets, "
        "territories, sides, objectives...), read from --db",
    )
    # Not add_store: listing commands needs no store, so a --db from MEKREF_DB or mekref.toml
    # is not filled in here, and a missing store is refused only when --campaign reads it.
    commands.add_argument("--db", metavar="FILE|URL", help="with --campaign: the store holding it")
    commands.set_defaults(handler=guarded(run_commands), command_name="game commands")


def _setup_example(actions: Any, kw: dict[str, Any]) -> None:
    """``game example``."""
    example = add_command(
        actions,
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


def _setup_start(actions: Any, kw: dict[str, Any]) -> None:
    """``game start``."""
    start = add_command(actions, "start", help="create a campaign and run its set-up command", **kw)
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
    start.set_defaults(handler=guarded(run_start), command_name="game start")


def _setup_do(actions: Any, kw: dict[str, Any]) -> None:
    """``game do``."""
    do = add_command(
        actions,
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
        help="run every command of FILE in order (one a line, typed or JSON, each with its "
        "actor; blank lines "
        "and # comments skipped; - for stdin), stopping at the first refusal",
    )
    do.add_argument(
        "--from",
        dest="from_line",
        type=int,
        metavar="LINE",
        help="with --script: start at this line of the file (go on after a refused line)",
    )
    do.set_defaults(handler=guarded(run_do), command_name="game do")


def _setup_state(actions: Any, kw: dict[str, Any]) -> None:
    """``game state``."""
    state = add_command(actions, "state", help="show a campaign's state (or a side's view)", **kw)
    _db(state)
    state.add_argument("--campaign", help="campaign id, id prefix or name")
    state.add_argument("--side", help="show only what this side may see")
    state.add_argument("--json", action="store_true", help="the whole state as JSON")
    state.set_defaults(handler=guarded(run_state), command_name="game state")


def _setup_report(actions: Any, kw: dict[str, Any]) -> None:
    """``game report``."""
    report = add_command(
        actions, "report", help="a campaign in words: sides, holdings, what is being fought", **kw
    )
    _db(report)
    report.add_argument("--campaign", help="campaign id, id prefix or name")
    report.add_argument(
        "--side",
        help="only what this side may know (its view), in words: its own secrets, not others'",
    )
    report.add_argument("--json", action="store_true", help="the sections as JSON")
    report.set_defaults(handler=guarded(run_report), command_name="game report")


def _setup_demo(actions: Any, kw: dict[str, Any]) -> None:
    """``game demo``."""
    demo = add_command(
        actions,
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
    demo.set_defaults(handler=guarded(run_demo), command_name="game demo")


def _setup_list(actions: Any, kw: dict[str, Any]) -> None:
    """``game list``."""
    listing = add_command(actions, "list", help="list the campaigns in a database", **kw)
    _db(listing)
    listing.add_argument("--json", action="store_true", help="the list as JSON")
    listing.set_defaults(handler=guarded(run_list), command_name="game list")


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
        choices=[s for w in wings() for s in w.scenarios],
        help="succession_wars: 3025 (the main game) or 2786 (the First Succession War, "
        "L585-639: 25 units a House, a Mercenary pile, a first round of Mercenary purchases; "
        "docs/succession-wars.md)",
    )


DO_DESCRIPTION = """\
Run one command against a campaign (typed as TYPE key=value ..., a JSON file, - for stdin, or
--type with --field), or with --script a file of several, applied in order in one go. The
outcome of each is told in words; --json gives each event's fields too.

A typed command is its type, then key=value words: a value is read as JSON when it is JSON, as
text otherwise; a key with dots fills a nested object or a numbered list
(results.1.fleet_id=brit). The type, the field names and the values 'game commands' lists are
matched without case; an unknown one is refused with the valid ones.

  mekref game do --db obj.db --campaign Raid OBJClaim actor=red objective_id=hill squad_id=red-tank

A script holds one command a line, typed (quoted as a shell would) or a whole JSON object (a
line starting with {), with its actor (--actor fills in the lines that leave it out); blank
lines and lines starting with # are skipped:

  # Round 1 of the night raid
  OBJStartRound actor=ref round=1
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
    scenario = check_scenario(args)
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
    parser.add_argument(
        "command",
        nargs="*",
        metavar="COMMAND",
        help="the command typed as words, TYPE key=value ... (type and names matched without "
        "case; a value is read as JSON when it is JSON, as text otherwise; a.1.b=... fills "
        "nested objects and lists), or one JSON file, or - for stdin",
    )
    if fields:
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
    parser.add_argument("--actor", help="who gives the command, when the command does not say")
    parser.add_argument("--json", action="store_true", help="the events as JSON")
