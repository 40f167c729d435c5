"""The command a StartCampaign or ExecuteCommand request carries, in any of its three forms:
the typed message (``command``), typed words as ``mekref game do`` takes them
(``command_words``: ``TYPE key=value ...``), or JSON (``command_json``, deprecated). All three
reach the same decoder and its checks; the words are matched to the rule set's spelling and
the campaign's names exactly as the command line matches them (:mod:`daemon.typed_commands`).

The actor: a side token's commands carry its side; the referee's carry ``referee``, or the
actor the command names when that actor is the side the command is given for (the House,
fleet or side it names: ``RuleSet.acting_side``). A referee's command naming another side of
the campaign as its actor is refused, so the log never records one side acting for another.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.errors import invalid
from mekref.daemon.typed_commands import (
    TypedCommandError,
    match_names,
    not_a_command,
    parse_words,
)
from mekref.daemon.wing import WingInputError
from mekref.daemon.wings import wing_for
from mekref.rules.codec import CodecError
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command

#: The actor a referee token's commands carry (rule sets that check actors know this name).
REFEREE_ACTOR = "referee"
MAX_COMMAND_JSON = 1 << 20
WORDS = "command_words"
Names = Mapping[str, tuple[str, ...]]


def command_data(
    game: RuleSet[Any], request: Any, names: Names, *, start: bool = False
) -> tuple[dict[str, Any], str]:
    """The command as its JSON object (actor not yet set) and the request field it came in.

    ``names``: the campaign's names for the words' fields (matched without case; a set-up's
    are only matched, never required: ``start``)."""
    typed_given = request.HasField("command")
    text: str = request.command_json
    words = list(request.command_words)
    given = [n for n, on in (("command", typed_given), ("command_json", bool(text)),
                             (WORDS, bool(words))) if on]  # fmt: skip
    if len(given) > 1:
        raise invalid("command", "give one of command, command_json and command_words, not both")
    field = given[0] if given else "command"
    try:
        if typed_given:
            return typed.ruleset_command_json(game, request.command), field
        if words:
            if sum(len(w) for w in words) > MAX_COMMAND_JSON:
                raise invalid(WORDS, f"at most {MAX_COMMAND_JSON} bytes")
            data = parse_words(words, WORDS)
            _fill_board(game, data, WORDS)
            named = names if not start else {**names, **_start_names(game, data)}
            return match_names(game, data, WORDS, named, strict=not start), field
        if not text.strip():
            raise invalid("command", "give the command (command, command_words or command_json)")
        if len(text) > MAX_COMMAND_JSON:
            raise invalid("command_json", f"at most {MAX_COMMAND_JSON} bytes")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise CodecError("a command is a JSON object with a 'type'")
        _fill_board(game, data, field)  # "map": "sample", as `mekref game example` writes it
        return data, field
    except TypedCommandError as exc:
        # The words' own message already names where ("command_words: ..."): said once.
        raise invalid(WORDS, str(exc).removeprefix(f"{WORDS}: "), "bad_command") from None
    except (json.JSONDecodeError, CodecError, typed.TypedError) as exc:
        raise invalid(field, f"{not_a_command(game.name)}: {exc}", "bad_command") from None


def _start_names(game: RuleSet[Any], data: dict[str, Any]) -> Names:
    from mekref.daemon.typed_commands import start_names

    return start_names(game, data)


def _fill_board(game: RuleSet[Any], data: dict[str, Any], field: str) -> None:
    """A bundled board named in the words or the JSON ("map=sample") filled in; a map file is
    the command line's (the server reads no file a client names)."""
    wing = wing_for(game.name)
    board = data.get("map")
    if wing is None or wing.fill_map is None or not isinstance(board, str):
        return
    if board.lower().endswith(".toml"):
        raise invalid(
            field, f"map={board}: over the API give a bundled map's name or the board inline"
        )
    try:
        wing.fill_map(data, field, None)
    except WingInputError as exc:
        raise invalid(field, str(exc).removeprefix(f"{field}: "), "bad_command") from None


def decode(game: RuleSet[Any], data: dict[str, Any], actor: str, field: str) -> Command:
    try:
        return game.commands.from_json({**data, "actor": actor})
    except CodecError as exc:
        raise invalid(field, f"{not_a_command(game.name)}: {exc}", "bad_command") from None


def referee_command(game: RuleSet[Any], state: Any, data: dict[str, Any], field: str) -> Command:
    """A referee's command: given as the side it is for when it names that side as its actor
    (in any case), else as the referee; naming another side of the campaign is refused."""
    named = data.get("actor")
    command = decode(game, data, REFEREE_ACTOR, field)
    if not isinstance(named, str):
        return command
    side = game.acting_side(state, command)
    if side is not None and side.lower() == named.lower():
        return decode(game, data, side, field)
    sides = {s.lower(): s for s in game.sides_of(state)}
    other = sides.get(named.lower())
    if other is None:
        near = difflib.get_close_matches(named.lower(), list(sides), n=1, cutoff=0.8)
        if near:  # "Davoin": a side mistyped must not become the referee's command
            raise invalid(
                field,
                f"actor {named!r} is no side of the campaign; did you mean {sides[near[0]]!r}? "
                "Name a side exactly, or give no actor (the referee)",
                "unknown_actor",
            )
        return command  # a name for the referee ("ref", "referee", the referee's own name)
    given_for = f"given for {side}" if side is not None else "the referee's"
    raise invalid(
        field,
        f"actor {named!r} is another side: this {command.TYPE} is {given_for}; name "
        f"{side or 'no side'} as its actor, or none (the referee)",
        "actor_mismatch",
    )
