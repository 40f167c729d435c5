"""``mekref battle bv``: the referee records the BV of a unit imported without one (R-VP-6).

Battle VP are shares of BV destroyed (L419-L424): a battle fought by a unit of no BV has VP
not known, and the 10-VP end (L414) waits. Recording the unit's BV scores its battles again,
says each side's VP for them, and may end the campaign at once.
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    add_referee,
    guarded,
    out_console,
    print_json,
    referee_only,
)
from mekref.daemon.tripwire.cli_campaign import execute
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.turn.events import CampaignEnded
from mekref.rules.tripwire.turn.victory import battles_vp_unknown
from mekref.rules.tripwire.unit_bv import RecordUnitBv, UnitBvRecorded

EXAMPLE = """\
examples:
  mekref battle bv --db c.db --unit UNIT_ID --bv 1197 --held-at-start \\
      --referee Ann --reason "Griffin GRF-1N, MegaMek's Units.txt"
  mekref battle bv --db c.db --unit UNIT_ID --bv 1197 --referee Ann \\
      --reason "before the strategic map: no starting BV yet"
"""


def register(actions: Any) -> None:
    bv = add_command(
        actions,
        "bv",
        help="referee: record the BV of a unit imported without one; its battles score again",
        description=__doc__,
        epilog=EXAMPLE,
    )
    add_db(bv)
    bv.add_argument("--unit", required=True, metavar="UNIT_ID")
    bv.add_argument("--bv", required=True, type=int, help="the unit's BV (MegaMek's Units.txt)")
    held = bv.add_mutually_exclusive_group()
    held.add_argument(
        "--held-at-start",
        dest="held_at_start",
        action="store_const",
        const=True,
        help="on the strategic map: the side held the unit when the map started (its BV joins "
        "the starting BV, L412)",
    )
    held.add_argument(
        "--joined-later",
        dest="held_at_start",
        action="store_const",
        const=False,
        help="on the strategic map: the unit joined after the map started",
    )
    bv.add_argument("--json", action="store_true", help="the event recorded, as JSON")
    add_referee(bv)
    bv.set_defaults(handler=guarded(run_bv), command_name="battle bv")


def run_bv(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "recording a BV is the referee's word: add --referee NAME --reason TEXT"
    )
    command = RecordUnitBv(
        unit_id=args.unit,
        bv=args.bv,
        held_at_start=args.held_at_start,
        note=note,
        actor=note.referee,
    )
    done = execute(args, command)
    recorded = [e for e in done.events if isinstance(e, UnitBvRecorded)]
    ended = [e.reason for e in done.events if isinstance(e, CampaignEnded)]
    if args.json:
        print_json({"recorded": to_jsonable(recorded[0]) if recorded else None,
                    "ended": ended[0] if ended else None})  # fmt: skip
        return EXIT_OK
    console = out_console()
    unit = done.state.units[recorded[0].unit_id] if recorded else None
    if unit is None:
        return EXIT_OK
    console.print(
        f"unit {unit.unit_id} ({unit.chassis} {unit.model}, {unit.side_id}): BV {args.bv} "
        f"recorded by {note.referee} ({note.reason})",
        markup=False,
    )
    for e in recorded:
        if e.starting_side:
            console.print(f"  it joins {e.starting_side}'s starting BV (L412, R-VP-3)")
        for b in e.battles:
            battle = done.state.battles.battles[b.battle_id]
            scores = ", ".join(
                f"{x.side_id} {x.vp_delta:+d}" if x.vp_known else f"{x.side_id} not known"
                for x in b.sides
            )
            still = {u for x in b.sides for u in x.units_without_bv}
            more = f" ({len(still)} unit(s) still without a BV)" if still else ""
            console.print(
                f"  battle #{battle.number} ({b.battle_id}) scored again: {scores}{more}",
                markup=False,
            )
        if not e.battles:
            console.print("  it fought no resolved battle: no VP change")
    vp = done.state.battles.victory_points
    unknown = battles_vp_unknown(done.state)
    console.print(
        "battle VP now: "
        + ", ".join(
            f"{s} not known ({len(unknown[s])} battle(s) with units without a BV)"
            if s in unknown
            else f"{s} {vp.get(s, 0)}"
            for s in sorted(done.state.sides)
        ),
        markup=False,
    )
    for reason in ended:
        console.print(f"the campaign has ended: {reason}", style="bold")
    return EXIT_OK
