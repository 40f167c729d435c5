"""``mekref game state``, ``game report`` and ``game list``: a campaign of any rule set, read."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping

from mekref.daemon.cli_common import (
    CliError,
    campaign_id_of,
    opened,
    print_json,
)
from mekref.daemon.cli_game_input import (
    out,
)
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.wings import wing_for
from mekref.rules.allowed import spelled
from mekref.rules.codec import to_jsonable


def _require_side(side: str | None, sides: Mapping[str, str]) -> str | None:
    """The campaign's spelling of --side (matched without case, as typed words are); a side
    the campaign does not have is refused, naming the sides it has."""
    if side is None:
        return None
    found = spelled(side, sides)
    if found is not None:
        return found
    known = ", ".join(sorted(sides)) or "none (this rule set has no sides)"
    raise CliError(f"no side {side!r} in this campaign; sides: {known}")


def run_state(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        campaign_id = campaign_id_of(app.store, args.campaign)
        game = app.runner.game(campaign_id)
        loaded = app.runner.load(campaign_id)
        sides = game.sides_of(loaded.state)
        args.side = _require_side(args.side, sides)
        state_hash = game.state_hash(loaded.state)
    if args.json:
        view = game.view_for(loaded.state, args.side) if args.side else to_jsonable(loaded.state)
        shown = {"state": view, "last_seq": loaded.last_seq, "ruleset": game.name}
        print_json({**shown, **({"side": args.side} if args.side else {"state_hash": state_hash})})
        return 0
    console = out()
    console.print(f"campaign {campaign_id} ({game.title}): {loaded.last_seq} events")
    if sides:
        console.print("sides: " + ", ".join(f"{k} ({v})" for k, v in sides.items()))
    if args.side:
        console.print(json.dumps(game.view_for(loaded.state, args.side), indent=2))
    else:
        console.print(f"state-hash: {state_hash}")
    return 0


def run_report(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        campaign_id = campaign_id_of(app.store, args.campaign)
        game = app.runner.game(campaign_id)
        if game.summarize is not None:
            loaded = app.runner.load(campaign_id)
            args.side = _require_side(args.side, game.sides_of(loaded.state))
            sections = game.report_for(loaded.state, args.side)
    if game.summarize is None:
        # A rule set without a summary has its own report in its wing (TripWire's books:
        # units, bills, people, pools, the ending), which folds the campaign itself and
        # takes --side the same way.
        wing = wing_for(game.name)
        if wing is None or wing.report is None:
            raise CliError(f"{game.title} has no report; 'mekref game state' shows the campaign")
        args.campaign = campaign_id
        return wing.report(args)
    if args.json:
        print_json(
            {
                "campaign_id": campaign_id,
                "ruleset": game.name,
                "last_seq": loaded.last_seq,
                **({"side": args.side} if args.side else {}),
                "sections": [{"title": s.title, "lines": list(s.lines)} for s in sections],
            }
        )
        return 0
    console = out()
    seen_as = f", as {args.side} sees it" if args.side else ""
    console.print(f"campaign {campaign_id} ({game.title}): {loaded.last_seq} events{seen_as}")
    for section in sections:
        console.print(f"\n{section.title}", markup=False, highlight=False)
        for line in section.lines:
            # Names come from the set-up files: no terminal control sequence gets through.
            console.print(f"  {terminal_safe(line)}", markup=False, highlight=False)
    return 0


def run_list(args: argparse.Namespace) -> int:
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
    from rich.console import Console  # rich loads when the table is drawn, not for --json
    from rich.table import Table

    table = Table(title="campaigns", title_justify="left")
    # Ids are never cut short: they are what the other commands take.
    table.add_column("id", no_wrap=True, min_width=36)
    for column in ("name", "rule set", "created"):
        table.add_column(column, overflow="fold")
    for c in campaigns:
        table.add_row(c.id, c.name, c.ruleset, c.created_at.isoformat(timespec="seconds"))
    Console(highlight=False, markup=False, width=max(120, out().width)).print(table)
    return 0
