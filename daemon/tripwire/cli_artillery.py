"""``mekref engagement artillery``: the referee resolves out-of-combat unguided artillery on an
open engagement (L323-L336; rulings T-A1, T-A2 in docs/turn.md).

Attacks per piece from the attackers' slowest running MP over 17 hexes per map sheet (terrain
lowering it, evading halving it), each hitting on 2d6 11+ (12 evading), a hit rolling the
scatter table (+2 in narrow confines). Only a unit whose design carries artillery weapons
fires.
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import EXIT_OK, add_command, add_db, guarded, out_console, print_json
from mekref.daemon.tripwire.cli_campaign import execute
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.turn.artillery import FireUnguidedArtillery
from mekref.rules.tripwire.turn.data import keyed
from mekref.rules.tripwire.turn.events import UnguidedArtilleryFired

EXAMPLE = """\
examples:
  mekref engagement artillery --db g.db --engagement ENG --side loyalist --piece 4ef1dd16 \\
      --run-mp 5 --sheets 2 --terrain heavy_woods
  mekref engagement artillery --db g.db --engagement ENG --side rebel --piece "Sniper SNP-1" \\
      --run-mp 8 --sheets 1 --evasive --narrow
"""


def _said(result: str, hexes: int) -> str:
    """What the scatter table's row says (L327-L334)."""
    if result == "no_hit":
        return "no hit"
    if result == "miss":
        return "misses all targets"
    whom = "the target" if result == "target" else "another random unit"
    return f"strikes {whom}" if hexes == 0 else f"lands {hexes} hex(es) from {whom}"


def register(actions: Any) -> None:
    p = add_command(
        actions,
        "artillery",
        help="referee: out-of-combat unguided artillery on an open engagement (L323-L336)",
        description=__doc__,
        epilog=EXAMPLE,
    )
    add_db(p)
    p.add_argument("--engagement", required=True, metavar="ID", help="the open engagement")
    p.add_argument("--side", required=True, help="the side whose artillery fires")
    p.add_argument(
        "--piece",
        action="append",
        required=True,
        metavar="UNIT",
        help="an artillery piece that fires (id, prefix or name); repeat for each",
    )
    p.add_argument(
        "--run-mp", type=int, required=True, help="the attackers' slowest running MP (L325)"
    )
    p.add_argument(
        "--sheets", type=int, required=True, help="map sheets the enemy crosses under fire"
    )
    p.add_argument(
        "--terrain",
        action="append",
        default=[],
        choices=sorted(keyed("artillery", "terrain")),
        help="terrain on the approach (L325: -1 light, -2 heavy); repeat for each",
    )
    p.add_argument("--evasive", action="store_true", help="the attackers take evasive manoeuvres")
    p.add_argument("--narrow", action="store_true", help="narrow confines: +2 to scatter (L335)")
    p.add_argument("--json", action="store_true", help="the event recorded, as JSON")
    p.set_defaults(handler=guarded(run_artillery), command_name="engagement artillery")


def run_artillery(args: argparse.Namespace) -> int:
    command = FireUnguidedArtillery(
        engagement_id=args.engagement,
        firing_side=args.side,
        pieces=tuple(args.piece),
        run_mp=args.run_mp,
        sheets=args.sheets,
        terrain=tuple(args.terrain),
        evasive=args.evasive,
        narrow=args.narrow,
        actor="referee",
    )
    done = execute(args, command, side=args.side)
    fired = [e for e in done.events if isinstance(e, UnguidedArtilleryFired)]
    if args.json:
        print_json({"fired": to_jsonable(fired[0]) if fired else None})
        return EXIT_OK
    console = out_console()
    for e in fired:
        console.print(
            f"{e.firing_side}'s unguided artillery on {e.engagement_id}: {e.attacks_per_piece} "
            f"attack(s) per piece, hitting on {e.target_number}+ (L325)",
            markup=False,
        )
        for number, (piece, result, hexes) in enumerate(e.results, start=1):
            unit = done.state.units.get(piece)
            name = f"{unit.chassis} {unit.model}".strip() if unit else piece
            said = _said(result, hexes)
            console.print(f"  {number}. {name} ({piece[:8]}): {said}", markup=False)
    return EXIT_OK
