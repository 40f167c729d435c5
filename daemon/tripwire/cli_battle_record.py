"""``mekref battle export-record``: hand a resolved battle back to MekHQ.

Writes, for one side, the end-of-game unit file MegaMek's client would have saved for it (a
``<record>``: survivors, salvage, retreated, devastated and kills), with each unit's condition
after the battle and its crew's hits, every entity and crew member carrying the campaign's
``externalId``. MekHQ reads it with "Resolve Manually" and the unit file; answer its question
"did your side control the battlefield?" as the command says.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_command,
    add_db,
    err_console,
    guarded,
    out_console,
    refused,
)
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire.cli_campaign import side_campaign_state, whole_battle_id
from mekref.daemon.tripwire.cli_force_input import units_catalog
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_record import battle_record, last_battle_of
from mekref.rules.tripwire.designs import design_of
from mekref.rules.tripwire.state import CampaignState

EXAMPLE = """\
examples:
  mekref battle export-record --db c.db --battle battle-0a1b2c3d4e5f --side loyalists -o out/
  mekref battle export-record --db c.db --battle battle-0a1b2c3d4e5f --side rebels \\
      -o rebels-record.mul --units-dir ~/megamek/data/mekfiles
  mekref battle export-record --db c.db --battle battle-0a1b2c3d4e5f --side rebels -o -
  mekref battle export-record --db c.db --side rebels -o out/   (the side's last battle)
"""


def register(actions: Any) -> None:
    export = add_command(
        actions,
        "export-record",
        help="write a resolved battle's end-of-game record (.mul) for one side, for MekHQ",
        description=__doc__.replace("``", "'"),
        epilog=EXAMPLE,
    )
    add_db(export)
    export.add_argument(
        "--battle", metavar="ID", help="the resolved battle (default: the side's last one)"
    )
    export.add_argument("--side", required=True, help="the side whose record it is")
    export.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE|DIR|-",
        help="a file, a folder (the file is <battle>-<side>-record.mul in it), or - for "
        "standard output",
    )
    export.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="unit designs (.mtf/.blk) for units the campaign keeps no design for",
    )
    export.set_defaults(handler=guarded(run_export_record), command_name="battle export-record")


def _designs(state: CampaignState, battle_id: str, units_dir: Path | None) -> dict[str, UnitDesign]:
    """Designs from ``--units-dir`` for the battle's units the campaign keeps none for."""
    battle = state.battles.battles.get(battle_id)
    if units_dir is None or battle is None or battle.resolution is None:
        return {}
    lookup = units_catalog(units_dir)
    found: dict[str, UnitDesign] = {}
    for outcome in battle.resolution.units:
        if design_of(state, outcome.unit_id) is not None:
            continue
        unit = state.units[outcome.unit_id]
        design = lookup(Entity(chassis=unit.chassis, model=unit.model, movement_mode=""))
        if design is not None:
            found[outcome.unit_id] = design
    return found


def _target(output: str, file_name: str) -> Path:
    """Where -o puts the record: a folder (one that exists, or a name ending in a slash, made
    here) gets ``file_name`` in it; a file must be a ``.mul``, the name MekHQ's and MegaMek's
    unit-file dialogs look for."""
    target = Path(output)
    if output.endswith(("/", "\\")) or target.is_dir():
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"-o {output}: cannot create the folder ({exc.strerror})") from exc
        return target / file_name
    if target.suffix.lower() != ".mul":
        raise CliError(
            f"-o {output}: the record is a MegaMek unit file; give a name ending in .mul "
            f"({target.with_suffix('.mul').name}), a folder, or - for standard output"
        )
    return target


def run_export_record(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    try:
        battle_id = whole_battle_id(state, args.battle) if args.battle else None
        battle_id = battle_id or last_battle_of(state, args.side)
        record = battle_record(
            state, battle_id, args.side, _designs(state, battle_id, args.units_dir)
        )
    except Refusal as exc:
        raise refused(exc) from exc
    # With the record on standard output, what the referee reads goes to standard error.
    console = err_console() if args.output == "-" else out_console()
    if args.output == "-":
        sys.stdout.write(record.text)
        sys.stdout.flush()
    else:
        target = _target(args.output, record.file_name)
        try:
            target.write_text(record.text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"{target}: cannot write ({exc.strerror})") from exc
        console.print(terminal_safe(f"wrote {target}"), markup=False)
    held = "yes" if record.control_side == args.side else "no"
    console.print(
        terminal_safe(
            f"{record.control_side} holds the field: answer MekHQ's 'did your side control the "
            f"battlefield?' with {held}"
        ),
        markup=False,
    )
    for note in record.notes:
        console.print(terminal_safe(f"note: {note}"), markup=False)
    return EXIT_OK
