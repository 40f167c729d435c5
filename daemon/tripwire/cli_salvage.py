"""``mekref salvage``: keep or sell a captured unit, and seat a crew in a unit without one.

A unit salvaged by the side that controls the field waits in that side's "Salvage" company.
L136: the side "may either keep it (only if they have space in there TO&E) or sell it".
`keep` moves it into a company and lance with a free slot (the force construction limits: 12
'Mechs, more only with the compact quirk, and 2 fighters in a 'Mech company, into one of its
three lances; 15 vehicles and 8 platoons or one battle armor squad in the support company);
without space it is refused, unless the referee keeps it (--referee NAME --reason TEXT,
recorded). `sell` sells it for WP (the same as `mekref spend sell`). `seat` puts a person of
the side who is in no unit (hired, a spare, rescued or ransomed) in a unit without a crew: a
kept unit, or one whose crew died or was captured; a person who crewed another type of unit
(L124: "of the same type") only on the referee's word. `list` shows what waits for a decision.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    add_referee,
    guarded,
    noted,
    out_console,
    print_json,
)
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute
from mekref.daemon.tripwire.cli_spend import describe
from mekref.daemon.tripwire.cli_spend_actions import sell_command
from mekref.rules.messages import Command
from mekref.rules.tripwire.state import CampaignState, PersonStatus
from mekref.rules.tripwire.toe import (
    SALVAGE_COMPANY,
    KeepSalvage,
    SeatCrew,
    toe_tables,
    unit_gone,
)

HELP = "keep or sell captured units, seat a crew in a unit without one"
DESCRIPTION = __doc__.split("\n\n", 1)[1] if __doc__ else ""
EPILOG = """\
examples:
  mekref salvage list --db c.db --side red
  mekref salvage keep --db c.db --unit UNIT --company Alpha --lance Fire
  mekref salvage keep --db c.db --unit UNIT --company Alpha --lance Fire \\
      --referee Ann --reason "a 13th 'Mech for the last track"
  mekref salvage sell --db c.db --unit UNIT --pool fdb
  mekref salvage seat --db c.db --unit UNIT --person PERSON
"""

Builder = Callable[[argparse.Namespace], Command]


def _keep(a: argparse.Namespace) -> Command:
    return KeepSalvage(
        unit_id=a.unit,
        company=a.company,
        lance=a.lance,
        **noted(a),
    )


def _seat(a: argparse.Namespace) -> Command:
    return SeatCrew(
        unit_id=a.unit,
        person_id=a.person,
        **noted(a),
    )


def register(sub: Any) -> None:
    kw: dict[str, Any] = {"epilog": EPILOG}
    parser: argparse.ArgumentParser = add_command(
        sub, "salvage", help=HELP, description=DESCRIPTION, **kw
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")

    def action(name: str, help_text: str, build: Builder) -> argparse.ArgumentParser:
        a = add_command(actions, name, help=help_text, description=DESCRIPTION, **kw)
        add_db(a)
        a.set_defaults(handler=guarded(_runner(build)), command_name=f"salvage {name}")
        return a

    a = action("keep", "keep a captured unit in a company and lance with space (L136)", _keep)
    a.add_argument("--unit", required=True, metavar="UNIT_ID")
    a.add_argument("--company", required=True, help="a company of the side, e.g. Alpha")
    a.add_argument("--lance", required=True, help="the lance it joins, e.g. Fire")
    add_referee(a)  # keep without TO&E space, on the referee's word
    a = action("sell", "sell a captured unit for WP (as spend sell)", sell_command)
    a.add_argument("--unit", required=True, metavar="UNIT_ID")
    a.add_argument("--pool", required=True, metavar="POOL_ID", help="the pool that receives")
    a = action("seat", "seat a person in no unit in a unit without a crew", _seat)
    a.add_argument("--unit", required=True, metavar="UNIT_ID")
    a.add_argument("--person", required=True, metavar="PERSON_ID")
    add_referee(a)  # seat a person of another type, on the referee's word
    ls = add_command(
        actions, "list", help="salvage waiting, units without a crew, people in no unit", **kw
    )
    add_db(ls)
    ls.add_argument("--side", help="one side only")
    ls.add_argument("--json", action="store_true", help="the lists as JSON")
    ls.set_defaults(handler=guarded(_list), command_name="salvage list")


def _runner(build: Builder) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        done = execute(args, build(args))
        console = out_console()
        for event in done.events:
            console.print(describe(event))
        return EXIT_OK

    return run


def waiting(state: CampaignState, side: str | None) -> dict[str, list[dict[str, str]]]:
    """What waits for a decision: captured units in Salvage, kept units without a crew, and
    the people of the side in no unit who could crew them."""
    salvage: list[dict[str, str]] = []
    uncrewed: list[dict[str, str]] = []
    free: list[dict[str, str]] = []
    captive = state.battles.captured_people
    for u in sorted(state.units.values(), key=lambda u: (u.side_id, u.company, u.unit_id)):
        if (side is not None and u.side_id != side) or unit_gone(state, u.unit_id):
            continue
        row = {"side": u.side_id, "unit_id": u.unit_id, "unit": f"{u.chassis} {u.model}",
               "kind": u.kind.value, "company": u.company, "lance": u.lance}  # fmt: skip
        if u.company == SALVAGE_COMPANY:
            salvage.append(row)
            continue
        alive = [
            p
            for p in u.crew
            if p in state.people
            and state.people[p].status is not PersonStatus.DEAD
            and p not in captive
            and state.people[p].unit_id == u.unit_id
            and state.people[p].side_id == u.side_id
        ]
        if not alive and u.kind in toe_tables().seat_types:
            uncrewed.append(row)
    for p in sorted(state.people.values(), key=lambda p: (p.side_id, p.name)):
        if side is not None and p.side_id != side:
            continue
        if p.status is PersonStatus.DEAD or p.person_id in captive:
            continue
        seated = p.unit_id is not None and p.unit_id in state.units
        if seated and p.unit_id is not None and not unit_gone(state, p.unit_id):
            continue
        free.append({"side": p.side_id, "person_id": p.person_id, "name": p.name,
                     "skills": f"{p.gunnery}/{p.piloting}"})  # fmt: skip
    return {"salvage": salvage, "uncrewed": uncrewed, "people": free}


def _list(args: argparse.Namespace) -> int:
    found = waiting(campaign_state(args), args.side)
    if args.json:
        print_json(found)
        return EXIT_OK
    from rich.table import Table  # rich loads to print a table, not for --json

    console = out_console()
    titles = {
        "salvage": "salvage to keep or sell (L136)",
        "uncrewed": "units without a crew",
        "people": "people in no unit",
    }
    for key, rows in found.items():
        if not rows:
            console.print(f"{titles[key]}: none")
            continue
        table = Table(title=titles[key], title_justify="left")
        for column in rows[0]:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row.values())
        console.print(table)
    return EXIT_OK
