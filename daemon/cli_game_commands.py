"""``mekref game commands``: a rule set's commands with their fields, types, the values each
enumerated field takes and an example; with ``--campaign``, the names that campaign gives its
fields (its Houses, Regions, fleets, territories...)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mekref.daemon import exit_codes
from mekref.daemon.cli_common import CliError, campaign_id_of, opened, print_json
from mekref.daemon.cli_game_input import out
from mekref.daemon.store import CampaignNotFound, StoreError
from mekref.daemon.typed_commands import allowed_values, campaign_names
from mekref.rules.kernel import RuleSet
from mekref.rules.registry import ruleset
from mekref.rules.schema import CommandSchema, FieldSchema, command_schema

if TYPE_CHECKING:  # rich loads when the schemas are printed as text, not for other commands
    from rich.console import Console

Names = Mapping[str, tuple[str, ...]]


def _schema_json(schema: CommandSchema, setup: bool, names: Names) -> dict[str, Any]:
    def fields(items: tuple[FieldSchema, ...]) -> list[dict[str, Any]]:
        return [
            {
                "name": f.name,
                "type": f.type,
                "required": f.required,
                **({"allowed": list(a)} if (a := allowed_values(f, names)) else {}),
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
        # A nested object's field takes the campaign's names too (a Placement's region).
        "objects": {name: fields(items) for name, items in schema.objects},
        "example": schema.example,
    }


def _names(args: argparse.Namespace, game: RuleSet[Any]) -> Names:
    """The names of the campaign --campaign names, or none without it."""
    if args.campaign is None:
        return {}
    if args.db is None:
        raise CliError("--campaign reads the campaign from a store: give --db FILE|URL too")
    try:
        with opened(args.db) as app:
            campaign_id = campaign_id_of(app.store, args.campaign)
            found = app.runner.game(campaign_id)
            if found.name != game.name:
                raise CliError(
                    f"--campaign {args.campaign} is a {found.name} campaign, not {game.name}"
                )
            return campaign_names(game, app.runner.load(campaign_id).state)
    except CampaignNotFound as exc:
        raise CliError(str(exc)) from None
    except StoreError as exc:
        raise CliError(str(exc), exit_codes.STORE) from None


def run_commands(args: argparse.Namespace) -> int:
    game = ruleset(args.ruleset)
    wanted = None if args.type is None else args.type.lower()
    classes = [c for c in game.commands.classes() if wanted in (None, c.TYPE.lower())]
    if not classes:
        raise CliError(
            f"{game.title} has no command {args.type!r}; one of: {', '.join(game.commands.names())}"
        )
    names = _names(args, game)
    schemas = [(command_schema(c), c in game.setup) for c in classes]
    if args.json:
        print_json({"ruleset": game.name, "title": game.title, "commands": [
            _schema_json(s, setup, names) for s, setup in schemas
        ]})  # fmt: skip
        return 0
    from rich.text import Text

    console = out()
    console.print(f"{game.title}: {len(schemas)} commands (* required)")
    console.print(TYPED_HINT.format(name=game.name))
    hooked = () if game.field_names is None else tuple(game.field_names(game.initial_state()))
    for schema, setup in schemas:
        console.print()
        heading = f"{schema.type}{'  (sets the campaign up: game start)' if setup else ''}"
        console.print(Text(heading, style="bold"))
        if schema.doc:
            console.print(f"  {schema.doc}")
        if setup:
            console.print(f"  a complete one to edit: mekref game example --ruleset {game.name}")
        _print_fields(console, schema.fields, "  ", names, hooked)
        for name, fields in schema.objects:
            console.print(f"  {name}:")
            _print_fields(console, fields, "    ", names, hooked)
        console.print(f"  example: {json.dumps(schema.example, ensure_ascii=False)}")
    return 0


TYPED_HINT = """\
Type a command as words: mekref game do --campaign C TYPE key=value ... (or a script line
TYPE key=value ...); the type, the field names and the values listed below are matched
without case. A name the campaign gives (a House, a Region, a fleet...) is listed with
--db DB --campaign C."""


def _print_fields(
    console: Console,
    fields: tuple[FieldSchema, ...],
    indent: str,
    names: Names,
    hooked: tuple[str, ...],
) -> None:
    for f in fields:
        mark = "*" if f.required else " "
        extra = "" if f.required else f"  (default {json.dumps(f.default)})"
        allowed = allowed_values(f, names)
        # An enum's values are already its type ("one of: ..."); a str field lists its own.
        if allowed and not f.type.startswith("one of"):
            extra += "  one of: " + ", ".join(json.dumps(a, ensure_ascii=False) for a in allowed)
        elif f.name in hooked and not allowed:
            extra += "  one of the campaign's names (listed with --campaign)"
        console.print(f"{indent}{mark} {f.name}: {f.type}{extra}")
        if f.doc:
            console.print(f"{indent}    {f.doc}")
