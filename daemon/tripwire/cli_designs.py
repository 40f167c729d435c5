"""``mekref force designs``: give the campaign the designs of units imported without one.

``force import --units-dir`` keeps every unit's design in the campaign. A unit imported without
the folder (or whose file the folder lacked) has no design: its repairs cannot be priced and
its battle damage is read from the file alone. This command looks such units up by chassis and
model in a units folder and records the designs found, once: later battles are measured against
them, and reports, spending and scenario exports use them. Units that already have a design are
never changed.

A condition the campaign already keeps for a unit (the damage it came in with at import, or a
battle's read without a design) is NOT measured again: the file's armour and structure were
taken as the maxima, so what it had lost stays unpriced in the report. The command names each
such unit and what to do.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    campaign_id_of,
    guarded,
    opened,
    out_console,
)
from mekref.daemon.tripwire.cli_campaign import require_side, run_command
from mekref.daemon.tripwire.cli_force_input import units_catalog
from mekref.rules.tripwire.designs import record_designs

EPILOG = """\
examples:
  mekref force designs --db c.db --units-dir ~/megamek/data/mekfiles
  mekref force designs --db c.db --units-dir ~/megamek/data/mekfiles --side loyalists
"""


def register(actions: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        actions,
        "designs",
        help="record the designs of units imported without one (for later battles: a kept "
        "condition is not measured again)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else "",
        epilog=EPILOG,
    )
    add_db(parser)
    parser.add_argument(
        "--units-dir", type=Path, required=True, metavar="DIR", help="unit designs (.mtf/.blk)"
    )
    parser.add_argument("--side", help="only this side's units (default: every side)")
    parser.set_defaults(handler=guarded(run_designs), command_name="force designs")


def run_designs(args: argparse.Namespace) -> int:
    lookup = units_catalog(args.units_dir)
    console = out_console()
    with opened(args.db) as app:
        cid = campaign_id_of(app.store, args.campaign)
        state = app.runner.load(cid).state
        require_side(state, args.side)
        found: dict[str, dict[str, UnitDesign]] = {}
        missing: list[str] = []
        for uid, unit in sorted(state.units.items()):
            if (args.side and unit.side_id != args.side) or uid in state.battles.unit_designs:
                continue
            design = lookup(Entity(chassis=unit.chassis, model=unit.model, movement_mode=""))
            if design is None:
                missing.append(f"{unit.chassis} {unit.model} ({uid})")
            else:
                found.setdefault(unit.side_id, {})[uid] = design
        for side, designs in sorted(found.items()):
            command = record_designs(side, designs, actor="cli")
            if command is not None:
                run_command(app.runner, cid, command)
    recorded = sum(len(d) for d in found.values())
    console.print(f"recorded the design of {recorded} unit(s)")
    for name in missing:
        console.print(f"  no design in {args.units_dir} for {name}")
    unmeasured = [
        uid
        for uid in sorted(u for designs in found.values() for u in designs)
        if (damage := state.battles.unit_damage.get(uid)) is not None and not damage.design_known
    ]
    for uid in unmeasured:
        unit = state.units[uid]
        console.print(f"  {unit.chassis} {unit.model} ({uid}): its kept damage stays unpriced")
    if unmeasured:
        console.print(f"{len(unmeasured)} unit(s) {UNMEASURED}")
    return EXIT_OK


#: A kept condition read without a design is not measured again (never a silent price of 0).
UNMEASURED = (
    "keep a condition read without a design (at import or in a battle): the file's armour and "
    "structure were taken as the maxima, and recording the design does not measure that "
    "condition again, so the damage it holds stays unpriced in 'mekref report' (repair_priced "
    "false). To price it, import the list again with --units-dir into a new campaign; otherwise "
    "the referee settles each unit's fate ('mekref battle fate --unit ID --fate F --referee NAME "
    "--reason TEXT'). Their next battle is measured against the design."
)
