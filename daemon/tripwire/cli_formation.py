"""``mekref formation``: a side reorganises its formations at the start of a day.

formation list     the side's formations, where they stand and their units
formation create   a new formation of units standing in one hex
formation split    some units of a formation leave it as a new one in the same hex
formation merge    two formations of the side in one hex become one
formation move     one unit goes to another formation in the same hex (L153)
formation train    a formation trains a day for another Formation Type (L95, 100 SP)
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_command,
    add_db,
    guarded,
    out_console,
    print_json,
)
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute, require_side
from mekref.rules.messages import Command
from mekref.rules.tripwire.turn.events import FormationsReorganised, FormationTrainingBegun
from mekref.rules.tripwire.turn.reorganise import (
    ChangeFormationType,
    CreateFormation,
    MergeFormations,
    SplitFormation,
    TransferUnit,
)

EPILOG = """\
Line 178: "Players may reorganise formations at the start of any campaign turn." Line 153:
"Any forces may be moved between force elements (e.g. Lances). If this is done the force
element retains its Formation Type." Each action changes only the formations it names, and
only units standing in one hex of the map regroup (ruling T-F1). Refused: units or formations
in different hexes, in orbit (T-F4), another side's (answered like a missing one), and a
formation with orders for the day (withdraw them first: T-F3). A new formation keeps the worst
fatigue, maintenance and ration counters of the formations its units come from.

L95: "Change Formation Type | 100 (Requires 1 day of training)": 'train' pays 100 SP from the
side's pool; the formation takes no action that day and is of the new type from the next day
(ruling T-F6).

examples:
  mekref formation list --db g.db --side loyalist
  mekref formation create --db g.db --side loyalist --day 3 --id salvage --name "Salvage team" \\
      --unit 8f3c... --unit 91ab...
  mekref formation create --db g.db --side loyalist --day 3 --id recruits --hex 0912 --unit 77d0...
  mekref formation split --db g.db --side loyalist --day 3 --formation alpha --new-id scouts \\
      --unit 91ab...
  mekref formation merge --db g.db --side loyalist --day 3 --formation alpha --absorb scouts
  mekref formation move --db g.db --side loyalist --day 3 --unit 91ab... --to l-guard
  mekref formation train --db g.db --side loyalist --day 3 --formation alpha \\
      --type "Battle Lance" --pool cap
"""


def register(sub: Any) -> None:
    kw: dict[str, Any] = {"epilog": EPILOG}
    parser = add_command(
        sub,
        "formation",
        help="a side reorganises its formations (create, split, merge, move, train)",
        **kw,
    )
    acts = parser.add_subparsers(title="actions", metavar="ACTION")

    listing = add_command(acts, "list", help="the side's formations and their units", **kw)
    add_db(listing)
    listing.add_argument("--side", required=True)
    listing.add_argument("--json", action="store_true", help="the formations as JSON")
    listing.set_defaults(handler=guarded(run_list), command_name="formation list")

    create = add_command(acts, "create", help="a new formation of units standing in one hex", **kw)
    _common(create)
    create.add_argument("--id", required=True, dest="formation_id", help="the new formation's id")
    create.add_argument("--name", default="", help="its name (default: the id)")
    create.add_argument("--unit", action="append", required=True, metavar="UNIT_ID")
    create.add_argument(
        "--hex",
        default="",
        help="CCRR: where units in no formation form it: recruits in one of the side's "
        "formations' hexes or a location it holds (T-F2); captured units only in the hex they "
        "stand in, where the battle that took them was (T-F7)",
    )
    create.set_defaults(handler=guarded(run_create), command_name="formation create")

    split = add_command(acts, "split", help="units of a formation leave it as a new one", **kw)
    _common(split)
    split.add_argument("--formation", required=True, help="the formation the units leave")
    split.add_argument("--unit", action="append", required=True, metavar="UNIT_ID")
    split.add_argument("--new-id", required=True, help="the new formation's id")
    split.add_argument("--name", default="", help="its name (default: the id)")
    split.set_defaults(handler=guarded(run_split), command_name="formation split")

    merge = add_command(acts, "merge", help="two formations in one hex become one", **kw)
    _common(merge)
    merge.add_argument("--formation", required=True, help="the formation that stays")
    merge.add_argument("--absorb", required=True, help="the formation that joins it and ends")
    merge.set_defaults(handler=guarded(run_merge), command_name="formation merge")

    move = add_command(acts, "move", help="one unit to another formation in the same hex", **kw)
    _common(move)
    move.add_argument("--unit", required=True, metavar="UNIT_ID")
    move.add_argument("--to", required=True, metavar="FORMATION")
    move.set_defaults(handler=guarded(run_move), command_name="formation move")

    train = add_command(
        acts, "train", help="a day of training for another Formation Type (100 SP, L95)", **kw
    )
    _common(train)
    train.add_argument("--formation", required=True)
    train.add_argument("--type", required=True, dest="formation_type", help="the new type")
    train.add_argument("--pool", required=True, help="the side's WarChest pool that pays")
    train.set_defaults(handler=guarded(run_train), command_name="formation train")


def _common(parser: argparse.ArgumentParser) -> None:
    add_db(parser)
    parser.add_argument("--side", required=True, help="the side reorganising")
    parser.add_argument("--day", type=int, required=True, help="the day about to be ordered")


def _run(args: argparse.Namespace, cmd: Command) -> int:
    done = execute(args, cmd)
    console = out_console()
    for e in done.events:
        if not isinstance(e, FormationsReorganised):
            continue
        for f in e.formations:
            console.print(
                f"{f.formation_id} ({f.name}) in {f.hex}: {', '.join(f.unit_ids)}",
                markup=False,
                highlight=False,
            )
        for fid in e.dissolved:
            console.print(f"{fid}: dissolved (no units left)", markup=False, highlight=False)
    return EXIT_OK


def run_create(args: argparse.Namespace) -> int:
    cmd = CreateFormation(
        actor=args.side,
        side_id=args.side,
        day=args.day,
        formation_id=args.formation_id,
        name=args.name,
        unit_ids=tuple(args.unit),
        hex=args.hex,
    )
    return _run(args, cmd)


def run_split(args: argparse.Namespace) -> int:
    cmd = SplitFormation(
        actor=args.side,
        side_id=args.side,
        day=args.day,
        formation_id=args.formation,
        unit_ids=tuple(args.unit),
        new_formation_id=args.new_id,
        name=args.name,
    )
    return _run(args, cmd)


def run_merge(args: argparse.Namespace) -> int:
    cmd = MergeFormations(
        actor=args.side,
        side_id=args.side,
        day=args.day,
        formation_id=args.formation,
        absorbed_id=args.absorb,
    )
    return _run(args, cmd)


def run_move(args: argparse.Namespace) -> int:
    cmd = TransferUnit(
        actor=args.side, side_id=args.side, day=args.day, unit_id=args.unit, to_formation_id=args.to
    )
    return _run(args, cmd)


def run_train(args: argparse.Namespace) -> int:
    cmd = ChangeFormationType(
        actor=args.side,
        side_id=args.side,
        day=args.day,
        formation_id=args.formation,
        formation_type=args.formation_type,
        pool_id=args.pool,
    )
    done = execute(args, cmd)
    for e in done.events:
        if isinstance(e, FormationTrainingBegun):
            out_console().print(
                f"{e.formation_id} trains as {e.formation_type} on day {e.day} ({e.cost_sp} SP "
                f"from {e.pool_id}); no action that day, the new type from day {e.day + 1}",
                markup=False,
                highlight=False,
            )
    return EXIT_OK


def run_list(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    s = state.strategic
    if s is None:
        raise CliError("the strategic map is not set up in this campaign (mekref turn setup)")
    require_side(state, args.side)
    mine = [f for f in s.formations.values() if f.side_id == args.side]
    ordered = {o.formation_id for o in s.orders.get(args.side, ())}
    rows = [
        {
            "formation": f.formation_id,
            "name": f.name,
            "hex": f.hex,
            "orbit": f.orbit,  # after a Reposition Orbit: "geostationary:CCRR" or "lpo:CCRR"
            "fatigue": f.fatigue,
            "formation_type": f.formation_type,
            "training_type": f.training_type if f.training_day == s.day else "",
            "has_orders": f.formation_id in ordered,
            "units": [
                {
                    "id": u,
                    "name": f"{state.units[u].chassis} {state.units[u].model}".strip()
                    if u in state.units
                    else "",
                }
                for u in f.unit_ids
            ],
        }
        for f in mine
    ]
    if args.json:
        print_json({"side": args.side, "day": s.day, "formations": rows})
        return EXIT_OK
    console = out_console()
    console.print(f"{args.side}, day {s.day}: {len(rows)} formation(s)", markup=False)
    for f in mine:
        note = " (has orders for the day)" if f.formation_id in ordered else ""
        if f.formation_type:
            note = f", {f.formation_type}{note}"
        if f.training_type and f.training_day == s.day:
            note += f" (trains as {f.training_type} today)"
        console.print(
            f"{f.formation_id} ({f.name}) in {f.hex or _orbit(f.orbit)}, fatigue {f.fatigue}{note}",
            markup=False,
            highlight=False,
        )
        for u in f.unit_ids:
            unit = state.units.get(u)
            name = f"{unit.chassis} {unit.model}".strip() if unit else ""
            console.print(f"  {u}  {name}", markup=False, highlight=False)
    return EXIT_OK


def _orbit(orbit: str) -> str:
    """Where a formation off the map stands: its named orbit (L210), or just "orbit"."""
    if not orbit:
        return "orbit"
    kind, _, at = orbit.partition(":")
    return (
        f"{'geostationary orbit' if kind == 'geostationary' else 'low planetary orbit'} over {at}"
    )
