"""``mekref turn maintenance-check``: the house rules' maintenance check (their line 94) of one
unit whose formation conducted maintenance on the last day resolved (a campaign created with
``--house-rules``), and the reminder after a maintenance day (what ``mekref report`` shows of it
is in :mod:`.house_maintenance_report`). Rulings HOUSE-40 to HOUSE-43."""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import EXIT_OK, add_command, add_db, guarded, out_console, print_json
from mekref.daemon.tripwire.cli_campaign import execute
from mekref.rules.codec import to_jsonable
from mekref.rules.house_rules.maintenance import GRADES
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import house_maintenance, rolled_damage
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_maintenance import CheckMaintenance, HouseMaintenanceChecked

DESCRIPTION = """\
House rules line 94 (a campaign created with 'mekref campaign new --house-rules'):
"Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the
Maintenance Check Table." Each unit of a formation that conducted maintenance (the
'maintenance' order, TripWire line 199) on the last day resolved takes one check, called
before the next day resolves. TripWire keeps no technicians' skills: --target is the target
number the standard rules make (the technician's skill and modifiers); the house -3 is added
here (HOUSE-40). The unit's quality grade (A worst .. F best) is named with --quality on its
first check and kept after (HOUSE-41). Damage is laid on the unit's stored condition at a front
location roll; 4 points destroy the part: a critical hit there (HOUSE-42). 'mekref report'
shows the grade and the damage; the next 'mekref engagement export' writes the damage.
"""

EPILOG = """\
examples:
  mekref turn maintenance-check --db g.db --unit UNIT_ID --target 7 --quality D   (first check)
  mekref turn maintenance-check --db g.db --unit UNIT_ID --target 7               (grade kept)
"""


def register(turn_acts: Any) -> None:
    check = add_command(
        turn_acts,
        "maintenance-check",
        help="house rules: a maintained unit's maintenance check (line 94)",
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    add_db(check)
    check.add_argument("--unit", required=True, metavar="UNIT_ID")
    check.add_argument(
        "--target",
        type=int,
        required=True,
        metavar="TN",
        help="the standard rules' target number, before the house -3",
    )
    check.add_argument(
        "--quality",
        choices=GRADES,
        help="the unit's quality grade; its first check only (kept after)",
    )
    check.add_argument("--json", action="store_true", help="the check and its damage as JSON")
    check.set_defaults(handler=guarded(run), command_name="turn maintenance-check")


def run(args: argparse.Namespace) -> int:
    command = CheckMaintenance(
        unit_id=args.unit, target_number=args.target, quality=args.quality or "", actor="referee"
    )
    done = execute(args, command)
    if args.json:
        print_json([to_jsonable(e) | {"type": type(e).TYPE} for e in done.events])
        return EXIT_OK
    console = out_console()
    for e in done.events:
        if isinstance(e, HouseMaintenanceChecked):
            say = f"maintenance check of {e.check.unit_id}: {house_maintenance.describe(e)}"
            console.print(say, markup=False)
        elif isinstance(e, UnitDamageRolled):
            for line in e.lines:
                console.print(f"  {rolled_damage.describe(line)}", markup=False)
            for note in e.notes[1:]:
                console.print(f"  note: {note}", markup=False)
            console.print(f"  now {e.fate.value.replace('_', ' ')}", markup=False)
    return EXIT_OK


def reminders(state: CampaignState) -> list[str]:
    """After a day resolved in a house-rules campaign: the formations that conducted
    maintenance, whose units take the check before the next day resolves (HOUSE-41)."""
    if not state.house_rules or state.strategic is None:
        return []
    return [
        f"{fid}: maintenance conducted; with the house rules each of its units takes the "
        f"maintenance check before the next day resolves (L94): 'mekref turn maintenance-check "
        f"--unit UNIT_ID --target TN' ({len(f.unit_ids)} unit(s))"
        for fid, f in sorted(state.strategic.formations.items())
        if house_maintenance.maintained_day(state, f) is not None
    ]
