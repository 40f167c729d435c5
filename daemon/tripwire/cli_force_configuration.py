"""``mekref force configuration``: buy an omni unit's or a battle armor squad's extra
configuration before the campaign starts (L24, footnote **** at L99; ruling R-FORCE-13).

The configuration is named by its model as MegaMek's unit lists name it (a ``Mad Cat (Timber
Wolf)`` ``Prime`` buys its ``A``); its BV is given (``--bv``) or read from MegaMek's BV export
(``--bv-table Units.txt``, by the unit's chassis and that model). The price is a Reconfigure
(tonnage/4 with the technology multiplier, battle armor 0), paid from ``--pool``. The unit's
company is checked again with each unit at its highest configuration's BV; a violation is
refused unless the referee accepts it (``--referee NAME --reason TEXT``).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_command,
    add_db,
    add_referee,
    guarded,
    out_console,
    print_json,
    referee_note,
)
from mekref.daemon.tripwire.cli_campaign import execute
from mekref.daemon.tripwire.cli_force_input import bv_table
from mekref.rules.codec import to_jsonable
from mekref.rules.messages import Command
from mekref.rules.tripwire.configurations import BuyConfiguration, ConfigurationBought
from mekref.rules.tripwire.id_prefixes import with_full_ids
from mekref.rules.tripwire.state import CampaignState

EXAMPLE = """\
examples:
  mekref force configuration --db c.db --unit 4ef1dd16 --add A --pool alpha-union \\
      --bv-table Units.txt                the Mad Cat (Timber Wolf) Prime's A configuration
  mekref force configuration --db c.db --unit "Elemental Battle Armor" --add "[Flamer]" \\
      --bv 380 --pool charlie-gazelle
"""


def register(actions: Any) -> None:
    p = add_command(
        actions,
        "configuration",
        help="buy an omni's or battle armor's extra configuration before the campaign (L24, L99)",
        description=__doc__,
        epilog=EXAMPLE,
    )
    add_db(p)
    p.add_argument("--unit", required=True, metavar="UNIT", help="the unit (id, prefix or name)")
    p.add_argument(
        "--add", required=True, metavar="MODEL", help="the configuration's model, e.g. A"
    )
    p.add_argument("--pool", required=True, metavar="POOL", help="the pool that pays")
    bv = p.add_mutually_exclusive_group()
    bv.add_argument("--bv", type=int, help="the configuration's BV")
    bv.add_argument(
        "--bv-table", type=Path, metavar="Units.txt", help="MegaMek BV export to read it from"
    )
    p.add_argument("--json", action="store_true", help="the event recorded, as JSON")
    add_referee(p)
    p.set_defaults(handler=guarded(run_configuration), command_name="force configuration")


def _bv(args: argparse.Namespace, state: CampaignState, command: BuyConfiguration) -> int:
    """The configuration's BV: ``--bv``, else the table's row for the unit's chassis and the
    configuration's model (a unit the campaign lacks is left for the rules to refuse)."""
    if args.bv is not None:
        return int(args.bv)
    table = bv_table(args.bv_table)
    if table is None:
        raise CliError(
            f"the BV of {args.add!r} is needed: give --bv N, or --bv-table Units.txt (MegaMek's "
            "BV export) to read it from"
        )
    whole = with_full_ids(state, command)
    assert isinstance(whole, BuyConfiguration)
    unit = state.units.get(whole.unit_id)
    if unit is None:
        return 0
    found = table.bv_for_unit(unit.chassis, args.add)
    if found.bv is None:
        raise CliError(
            f"{unit.chassis} {args.add}: {found.reason}; check the model's spelling, or give "
            "its BV with --bv"
        )
    return found.bv


def run_configuration(args: argparse.Namespace) -> int:
    note = referee_note(args)
    command = BuyConfiguration(
        unit_id=args.unit,
        pool_id=args.pool,
        configuration=args.add,
        bv=0,
        accept_unchecked=note,
        actor=note.referee if note else "cli",
    )

    def with_bv(state: CampaignState, cmd: Command) -> Command:
        assert isinstance(cmd, BuyConfiguration)
        return replace(cmd, bv=_bv(args, state, cmd))

    done = execute(args, command, completed=with_bv)
    bought = [e for e in done.events if isinstance(e, ConfigurationBought)]
    if args.json:
        print_json({"bought": to_jsonable(bought[0]) if bought else None})
        return EXIT_OK
    console = out_console()
    for e in bought:
        unit = done.state.units[e.unit_id]
        owned = (unit.model, *done.state.battles.configurations.get(e.unit_id, ()))
        console.print(
            f"{unit.chassis} {unit.model} ({unit.unit_id}, {unit.side_id}): configuration "
            f"{e.configuration} (BV {e.bv}) bought for {e.cost_sp} SP from {e.pool_id} (L99)",
            markup=False,
        )
        console.print(f"  configurations: {', '.join(owned)}", markup=False)
        console.print(
            f"  force construction counts it at {e.counted_bv} BV, its highest configuration's "
            "(L99)",
            markup=False,
        )
        for v in e.violations:
            who = e.accepted_unchecked
            by = f"{who.referee} ({who.reason})" if who is not None else "nobody"
            console.print(f"  accepted by {by}: {v}", markup=False)
    return EXIT_OK
