"""How ``mekref game start`` and ``game do`` read a command: from a JSON file, stdin or
--type and --field, checked, with the board and scenario a rule set's wing fills in."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mekref.daemon.cli_common import (
    CliError,
)
from mekref.daemon.typed_commands import (
    TypedCommandError,
    match_names,
    not_a_command,
    parse_words,
)
from mekref.daemon.wing import Wing, WingInputError
from mekref.daemon.wings import wing_for, wings
from mekref.rules.codec import CodecError
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command

if TYPE_CHECKING:  # rich loads when a command prints words, not for --json
    from rich.console import Console


def check_scenario(args: argparse.Namespace) -> str:
    scenario: str = getattr(args, "scenario", None) or ""
    wing = wing_for(args.ruleset)
    if scenario and (wing is None or scenario not in wing.scenarios):
        having = _having(lambda w: bool(w.scenarios))
        raise CliError(f"--scenario is for {having}; {args.ruleset} has no scenarios")
    return scenario


def _having(hook: Callable[[Wing], bool]) -> str:
    """The rule sets whose wing has ``hook``, for a message refusing an option."""
    return ", ".join(w.ruleset for w in wings() if hook(w))


def out() -> Console:
    from rich.console import Console

    # No markup: campaign names and roll names (which quote people and units) may hold brackets.
    return Console(highlight=False, markup=False, soft_wrap=True)


# -- reading commands ---------------------------------------------------------------------
@dataclass(frozen=True)
class CommandText:
    """A command file read and parsed as JSON, not yet decoded by a rule set."""

    where: str
    data: dict[str, Any]


def read_command(args: argparse.Namespace) -> CommandText:
    """The command from its file, typed as words (TYPE key=value ...), or built from --type,
    with --field and --position applied."""
    kind = getattr(args, "command_type", None)
    words: list[str] = list(args.command or [])
    if words and kind is not None:
        raise CliError(
            "give the command as a file, as TYPE key=value words or with --type, not all"
        )
    if not words and kind is None:
        raise CliError(
            "give the command: TYPE key=value ..., a JSON file, - for stdin, or --type TYPE "
            "with --field"
        )
    if kind is not None:
        text = CommandText("the command line", {"type": kind})
    elif _is_file(words):
        text = _read_json(Path(words[0]), args.actor)
    else:
        try:
            text = CommandText("the command line", parse_words(words, "the command line"))
        except TypedCommandError as exc:
            raise CliError(str(exc)) from None
    if "actor" not in text.data and args.actor is not None:
        text.data["actor"] = args.actor
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


def _is_file(words: list[str]) -> bool:
    """One word that is - (stdin), an existing file or a .json name: a JSON command file;
    anything else is a typed command, its first word the type."""
    if len(words) != 1:
        return False
    word = words[0]
    return word == "-" or word.lower().endswith(".json") or Path(word).is_file()


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


def _read_json(path: Path, actor: str | None) -> CommandText:
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
    return CommandText(where, data)


def decode(
    game: RuleSet[Any],
    text: CommandText,
    names: Mapping[str, tuple[str, ...]] | None = None,
    *,
    strict: bool = True,
) -> Command:
    """The command, its type, field names and enumerated values first put in the rule set's
    spelling (matched without case); ``names``: the campaign's own (:func:`campaign_names`)."""
    where = text.where
    try:
        data = match_names(game, text.data, where, names, strict=strict)
    except TypedCommandError as exc:
        raise CliError(str(exc)) from None
    kind = data.get("type")
    try:
        return game.commands.from_json(data)
    except CodecError as exc:
        raise CliError(
            f"{where}: {not_a_command(game.name)}: {exc}; "
            f"see 'mekref game commands --ruleset {game.name} --type {kind}'"
        ) from None


def fill_board(args: argparse.Namespace, text: CommandText) -> None:
    wing = wing_for(args.ruleset)
    if wing is None or wing.fill_map is None:
        if args.map is not None:
            having = _having(lambda w: w.fill_map is not None)
            raise CliError(f"--map is for {having}; {args.ruleset} has no such board")
        return
    try:
        warning = wing.fill_map(text.data, text.where, args.map)
    except WingInputError as exc:
        raise CliError(str(exc)) from None
    if warning:
        print(f"warning: {warning}", file=sys.stderr)


def fill_scenario(args: argparse.Namespace, text: CommandText) -> None:
    scenario = check_scenario(args)
    if not scenario:
        return
    wing = wing_for(args.ruleset)
    assert wing is not None  # check_scenario said so
    given = text.data.get("scenario", wing.scenarios[0])
    if given != scenario:
        if "scenario" in text.data:
            print(
                f"warning: --scenario {scenario} replaces the scenario {given!r} of {text.where}",
                file=sys.stderr,
            )
        text.data["scenario"] = scenario


def _start_warnings(game: RuleSet[Any], state: Any) -> None:
    """What the rule set's wing has to say about a campaign just started (stderr)."""
    wing = wing_for(game.name)
    if wing is None or wing.start_warnings is None:
        return
    for warning in wing.start_warnings(state):
        print(f"warning: {warning}", file=sys.stderr)
