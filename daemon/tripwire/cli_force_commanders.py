"""``mekref force commanders``: each commander's level, Skill Bonus and edge (L26-34)."""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import EXIT_OK, add_command, add_db, guarded, out_console, print_json
from mekref.daemon.tripwire.cli_campaign import side_campaign_state
from mekref.rules.tripwire.commanders import commanders_of

COMMANDERS_DESCRIPTION = """\
Every Force Commander and Lieutenant with the training level of the person in the unit's first
seat (from Gunnery/Piloting, L38-45) and the L30-34 row it gives: Special Pilot Abilities, SPA
points, Skill Bonus and edge. The Force Commander's Skill Bonus is added to the ambush roll of
each engagement the commander's unit is in (L29, L281), while the commander is in play (L26):
not when dead, captured, in a truly destroyed, sold or scrapped unit, or in a unit destroyed
in its last battle and not yet repaired (ruling R-CMD-2). Lieutenants have edge, no bonus.
"""

COMMANDERS_EPILOG = """\
examples:
  mekref force commanders --db c.db
  mekref force commanders --db c.db --side red --json
"""


def register(actions: Any) -> None:
    cmd: argparse.ArgumentParser = add_command(
        actions,
        "commanders",
        help="each commander's level, Skill Bonus and edge, derived from the skills",
        description=COMMANDERS_DESCRIPTION,
        epilog=COMMANDERS_EPILOG,
    )
    add_db(cmd)
    cmd.add_argument("--side", help="one side only")
    cmd.add_argument("--json", action="store_true", help="the commanders as JSON")
    cmd.set_defaults(handler=guarded(run_commanders), command_name="force commanders")


def run_commanders(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    found = commanders_of(state, args.side)
    rows = [
        {
            "side": c.side_id,
            "role": "force commander" if c.force_commander else "lance leader",
            "unit_id": c.unit_id,
            "unit": c.unit_name,
            "person_id": c.person_id,
            "person": c.person_name,
            "skills": f"{c.gunnery}/{c.piloting}" if c.person_id else "",
            "level": c.level,
            "max_spas": c.row.max_spas if c.row and c.force_commander else 0,
            "spa_points": c.row.spa_points if c.row and c.force_commander else 0,
            "skill_bonus": c.skill_bonus,
            "edge": c.edge,
            "in_play": c.in_play,
            "lost": c.lost,
            "rule": f"line {c.row.ref.line}: {c.row.ref.source}" if c.row else "",
        }
        for c in found
    ]
    if args.json:
        print_json(rows)
        return EXIT_OK
    from rich.table import Table  # rich loads to print a table, not for --json

    console = out_console()
    if not rows:
        console.print("no commanders (no unit carries the commander flag or leads a lance)")
        return EXIT_OK
    table = Table(title="commanders (L26-34)", title_justify="left")
    for column in ("side", "role", "unit", "person", "level", "bonus", "edge", "state"):
        table.add_column(column, overflow="fold")
    for r in rows:
        table.add_row(
            str(r["side"]),
            "commander" if r["role"] == "force commander" else "lieutenant",
            str(r["unit"]),
            f"{r['person']} {r['skills']}" if r["person"] else "nobody",
            str(r["level"]),
            f"+{r['skill_bonus']}",
            str(r["edge"]),
            "in play" if r["in_play"] else "lost (below)",
        )
    console.print(table)
    for r in rows:
        if not r["in_play"]:
            console.print(f"{r['side']}: {r['unit']}: lost: {r['lost']} (L26)")
    return EXIT_OK
