"""``mekref game start``, ``game do`` (one command or a script of them) and ``game demo``: commands
run against a campaign of any rule set, and what they changed."""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mekref.daemon import exit_codes
from mekref.daemon.cli_common import (
    EXIT_REFUSED,
    CliError,
    campaign_id_of,
    opened,
    print_json,
    refused,
)
from mekref.daemon.cli_game_input import (
    CommandText,
    _start_warnings,
    decode,
    fill_board,
    fill_scenario,
    out,
    read_command,
)
from mekref.daemon.cli_game_read import (
    run_report,
)
from mekref.daemon.game_scripts import (
    ScriptError,
    ScriptLine,
    bundled_text,
    demo_files,
    parse_script,
)
from mekref.daemon.store import CampaignNotFound, StoreError
from mekref.daemon.typed_commands import campaign_names, start_names
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command, message_to_json
from mekref.rules.refusal import Refusal
from mekref.rules.registry import ruleset

if TYPE_CHECKING:  # rich loads with the first words printed (cli_game_input.out)
    from rich.console import Console


# -- running ------------------------------------------------------------------------------
def _print_events(
    game: RuleSet[Any], campaign_id: str, first: int, last: int, events: Any, state_hash: str
) -> None:
    console = out()
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
    text = read_command(args)
    if starting:
        fill_board(args, text)
        fill_scenario(args, text)
    try:
        # 'game start' is 'campaign new' for every rule set: the one place it may create the store.
        with opened(args.db, create=starting) as app:
            if starting:
                game = ruleset(args.ruleset)
                command = decode(game, text, start_names(game, text.data), strict=False)
                done = app.runner.start(args.name, args.ruleset, command)
            else:
                campaign_id = campaign_id_of(app.store, args.campaign)
                game = app.runner.game(campaign_id)
                names = campaign_names(game, app.runner.load(campaign_id).state)
                done = app.runner.execute(campaign_id, decode(game, text, names))
            state_hash = game.state_hash(done.state)
            if starting:
                _start_warnings(game, done.state)
    except Refusal as exc:
        raise refused(exc) from None
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


def run_start(args: argparse.Namespace) -> int:
    return _run(args, starting=True)


def run_do(args: argparse.Namespace) -> int:
    if args.script is not None:
        return _run_script(args)
    if args.from_line is not None:
        raise CliError("--from is for --script: the line of the script to start at")
    return _run(args, starting=False)


# -- scripts ------------------------------------------------------------------------------
def _script_lines(args: argparse.Namespace) -> tuple[str, tuple[ScriptLine, ...]]:
    """The script's file name and its commands from --from on, read and checked as JSON."""
    others = {
        "a command (file or words)": bool(args.command),
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
    console = out()
    done: list[dict[str, Any]] = []
    refused: dict[str, Any] | None = None
    try:
        with opened(args.db) as app:
            campaign_id = campaign_id_of(app.store, args.campaign)
            game = app.runner.game(campaign_id)
            # Decoded before the first one runs: a mistyped field anywhere changes nothing.
            # The campaign's names are matched again as each line runs (an earlier line may
            # create what a later one names).
            state = app.runner.load(campaign_id).state
            texts = [CommandText(f"{where}:{line.number}", line.data) for line in lines]
            for text in texts:
                decode(game, text, campaign_names(game, state), strict=False)
            if not args.json:
                console.print(f"campaign {campaign_id}: {where}, {len(texts)} command(s)")
            for line, text in zip(lines, texts, strict=True):
                ran, refused = _run_line(app, game, campaign_id, state, line, text)
                if refused is not None:
                    break
                command, result = ran
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


def _run_line(
    app: Any, game: RuleSet[Any], campaign_id: str, state: Any, line: ScriptLine, text: CommandText
) -> tuple[Any, dict[str, Any] | None]:
    """Run one line of a script: (its command, its result), or None and why it was refused."""
    try:
        command = decode(game, text, campaign_names(game, state))
        return (command, app.runner.execute(campaign_id, command)), None
    except CliError as exc:  # a name the campaign does not have, even now
        data = text.data
        return None, {
            "line": line.number,
            "type": data.get("type"),
            "actor": data.get("actor"),
            "code": "unknown_name",
            "refusal": str(exc).removeprefix(f"{text.where}: "),
        }
    except Refusal as exc:
        return None, {
            "line": line.number,
            "type": type(command).TYPE,
            "actor": command.actor,
            "code": exc.code,
            "refusal": str(exc),
        }


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
def run_demo(args: argparse.Namespace) -> int:
    name = args.ruleset
    start_name, script_name = demo_files(name)
    if args.out is None:
        with tempfile.TemporaryDirectory(prefix="mekref-demo-") as tmp:
            return play_demo(name, Path(tmp), start_name, script_name, kept=False)
    db = args.out / f"{name}-demo.db"
    if db.exists():
        raise CliError(f"{db} already holds a demo; remove it or give another --out folder")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--out {args.out}: cannot create it ({exc.strerror})") from None
    return play_demo(name, args.out, start_name, script_name, kept=True)


def play_demo(name: str, folder: Path, start_name: str, script_name: str, *, kept: bool) -> int:
    """Play the demo in ``folder``. The commands are shown as a user would type them: with the
    ``--out`` folder as given or, in a throw-away folder, run from inside it with its files' own
    names (its random absolute path means nothing once it is gone)."""
    try:
        (folder / start_name).write_text(bundled_text(start_name), encoding="utf-8")
        (folder / script_name).write_text(bundled_text(script_name), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{folder}: cannot write the demo's files ({exc.strerror})") from None
    console = out()
    if not kept:
        console.print("(played in a throw-away folder; --out DIR keeps the store and the files)")
    names = folder if kept else Path()
    with contextlib.nullcontext() if kept else contextlib.chdir(folder):
        for shown, step, step_args in _demo_steps(name, names, start_name, script_name):
            console.print(f"\n$ {shown}", style="bold")
            code = step(step_args)
            if code != 0:
                return code
    return 0


DemoStep = tuple[str, Callable[[argparse.Namespace], int], argparse.Namespace]


def _demo_steps(name: str, folder: Path, start_name: str, script_name: str) -> list[DemoStep]:
    """The demo's three commands (start, the script, the report), as shown and as run."""
    db, start, script = folder / f"{name}-demo.db", folder / start_name, folder / script_name
    title = f"{ruleset(name).title} demo"
    common = {"db": str(db), "json": False, "actor": None, "map": None}
    do_args = argparse.Namespace(
        **common,
        campaign=None,
        script=script,
        from_line=None,
        command=[],
        command_type=None,
        field=[],
        position=None,
    )
    return [
        (
            f"mekref game start --db {db} --ruleset {name} --name '{title}' {start}",
            run_start,
            argparse.Namespace(**common, ruleset=name, name=title, command=[str(start)]),
        ),
        (f"mekref game do --db {db} --script {script}", run_do, do_args),
        (
            f"mekref game report --db {db}",
            run_report,
            argparse.Namespace(**common, campaign=None, side=None),
        ),
    ]
