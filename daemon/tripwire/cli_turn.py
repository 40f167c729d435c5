"""``mekref turn``: the daily strategic turn, the referee's side.

turn setup        start the strategic map (:mod:`mekref.daemon.tripwire.cli_turn_setup`)
turn resolve      the referee plays the day: weather, movement, encounters, engagements
turn reposition   put a formation in a hex; turn turret-damage: a turret's CF after a battle

A side's orders and routes are :mod:`mekref.daemon.tripwire.cli_orders`; the engagements'
export for MegaMek is :mod:`mekref.daemon.tripwire.cli_engagement`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    add_referee,
    guarded,
    out_console,
    referee_only,
)
from mekref.daemon.tripwire import cli_house_maintenance
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute
from mekref.daemon.tripwire.cli_turn_setup import (
    SETUP_DESCRIPTION,
    run_setup,
)
from mekref.rules.messages import Event
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import rolled_damage
from mekref.rules.tripwire.turn.orders import (
    ResolveTurn,
    without_orders,
)
from mekref.rules.tripwire.turn.plugin import RepositionFormation
from mekref.rules.tripwire.turn.turrets import RecordTurretDamage
from mekref.rules.tripwire.turn.weather import level_name

TURN_EPILOG = """\
examples:
  mekref turn setup --db g.db                                   the bundled Ginestra set-up
  mekref turn setup --db g.db --file my-campaign/strategic.toml
  mekref turn resolve --db g.db --day 1                         once every side's orders are in
  mekref turn reposition --db g.db --formation bravo --hex 0912 --referee Ann \\
      --reason "bravo retreats after the battle"
  mekref turn turret-damage --db g.db --location "Forward Deployment Base" --turret 2 \\
      --cf 90 --referee Ann --reason "battle 3: the Atlas hit it"
  mekref turn maintenance-check --db g.db --unit UNIT_ID --target 7 --quality D \
      (a campaign with --house-rules, after a maintenance day)
  mekref engagement export --db g.db --side loyalist -o out/
"""


def register(sub: Any) -> None:
    """``mekref turn``: the referee's side of the day."""
    kw: dict[str, Any] = {"epilog": TURN_EPILOG}
    turn = add_command(
        sub, "turn", help="set up the strategic map, resolve the day (referee)", **kw
    )
    turn_acts = turn.add_subparsers(title="actions", metavar="ACTION")
    setup = add_command(
        turn_acts,
        "setup",
        help="start the strategic map and place every formation from a set-up file",
        description=SETUP_DESCRIPTION,
        **kw,
    )
    add_db(setup)
    setup.add_argument(
        "--file",
        type=Path,
        default=None,
        help="the set-up TOML (default: the bundled Ginestra demo, daemon/samples/ginestra)",
    )
    setup.set_defaults(handler=guarded(run_setup), command_name="turn setup")
    move = add_command(
        turn_acts,
        "reposition",
        help="referee: put a formation in a hex (a retreat after a battle)",
        **kw,
    )
    add_db(move)
    move.add_argument("--formation", required=True)
    move.add_argument("--hex", required=True, help='"CCRR", or "" for orbit')
    add_referee(move)
    move.set_defaults(handler=guarded(run_reposition), command_name="turn reposition")
    turret = add_command(
        turn_acts, "turret-damage", help="referee: record a turret's CF after a battle (L275)", **kw
    )
    add_db(turret)
    turret.add_argument("--location", required=True, help='e.g. "Forward Deployment Base"')
    turret.add_argument("--turret", type=int, required=True, help="which turret, from 1")
    turret.add_argument("--cf", type=int, required=True, help="its CF now (150 whole, 0 gone)")
    add_referee(turret)
    turret.set_defaults(handler=guarded(run_turret_damage), command_name="turn turret-damage")
    resolve = add_command(
        turn_acts, "resolve", help="weather, actions, movement, engagements", **kw
    )
    add_db(resolve)
    resolve.add_argument("--day", type=int, required=True)
    resolve.set_defaults(handler=guarded(run_resolve), command_name="turn resolve")
    cli_house_maintenance.register(turn_acts)


def summary(events: tuple[Event, ...] | list[Event]) -> list[str]:
    """The referee's one-line-per-fact account of a resolved day."""
    lines: list[str] = []
    for e in events:
        if isinstance(e, ev.WeatherRolled):
            change = " (weekly change)" if e.weekly_change else ""
            lines.append(f"weather{change}:")
            lines += [
                f"  {w.region}: {level_name(w.level)}{', ' + w.storm if w.storm else ''}"
                for w in e.regions
            ]
        elif isinstance(e, ev.FormationsUpdated):
            for f in e.formations:
                lines.append(
                    f"  {e.side_id} {f.formation_id}: {f.hex or 'orbit'}, fatigue {f.fatigue}"
                )
            lines += [f"  note: {n}" for n in e.notes]
        elif isinstance(e, ev.EngagementDetermined):
            g = e.engagement
            lines.append(
                f"engagement {g.engagement_id}: {g.kind} in {g.hex} ({g.terrain}), "
                f"{' vs '.join(g.sides)}; ambush: {g.ambusher or 'none'}; "
                f"sheets: {', '.join(g.map_sheets)}"
            )
        elif isinstance(e, ev.UnrestChanged):
            lines.append(f"unrest {e.force}: {e.before} -> {e.after} ({e.reason})")
        elif isinstance(e, ev.LocationControlChanged):
            lines.append(f"{e.location}: now held by {e.after} (was {e.before or 'nobody'})")
        elif isinstance(e, ev.StrategicVictoryScored):
            vp = ", ".join(f"{s} {p}" for s, p in e.vp)
            lines.append(f"strategic VP: {vp}" + (f"; CAMPAIGN OVER: {e.ended}" if e.ended else ""))
        elif isinstance(e, ev.MaintenanceMissed):
            lines.append(
                f"{e.formation_id}: maintenance missed, critical rolls for {len(e.unit_ids)}"
            )
        elif isinstance(e, ev.UnitDamageRolled):
            what = "; ".join(rolled_damage.describe(x) for x in e.lines) or "no damage"
            crew = ", ".join(f"{p} now {h} hit(s)" for p, h in e.crew_hits)
            lines.append(
                f"  {e.unit_id} ({e.cause}): {what}; fate {e.fate.value}"
                + (f"; crew {crew}" if crew else "")
            )
            lines += [f"    note: {n}" for n in e.notes]
        elif isinstance(e, ev.ConsciousnessChecked):
            failed = [c for c in e.checks if not c.passed]
            lines.append(
                f"{e.formation_id}: consciousness checks (line 355, fatigue {e.fatigue}): "
                f"{len(e.checks) - len(failed)} passed, {len(failed)} failed"
                + "".join(
                    f"; {c.person_id} ({c.total} < {c.target}) "
                    + (
                        "injured crew of " + c.unit_id
                        if c.vehicle_crew
                        else f"{c.hits_after} hit(s)"
                    )
                    for c in failed
                )
            )
        elif isinstance(e, ev.RecruitsFound):
            lines.append(f"{e.formation_id}: recruits available {dict(e.available)}")
        elif isinstance(e, ev.LocationLooted):
            lines.append(f"{e.formation_id} looted {e.location}: {e.wp} WP")
    return lines


def run_resolve(args: argparse.Namespace) -> int:
    before = campaign_state(args)
    done = execute(args, ResolveTurn(actor="referee", day=args.day))
    console = out_console()
    console.print(f"day {args.day} resolved: {len(done.events)} events")
    # Never silently without a side's orders: say whose formations stood idle, and why.
    formations = before.strategic.formations if before.strategic is not None else {}
    for side, idle in without_orders(before).items():
        mine = [f for f in formations.values() if f.side_id == side]
        what = "no orders at all" if len(idle) == len(mine) else "no order for " + ", ".join(idle)
        console.print(
            f"{side}: {what} for day {args.day}: those formations stayed where they were and "
            "took no action",
            style="yellow",
        )
    for text in summary(done.events):
        console.print(text, markup=False)
    for text in cli_house_maintenance.reminders(done.state):
        console.print(text, markup=False)
    return EXIT_OK


def run_turret_damage(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "a turret's damage is the referee's record: give --referee NAME and --reason"
    )
    cmd = RecordTurretDamage(
        actor=note.referee, location=args.location, turret=args.turret, cf=args.cf, note=note
    )
    execute(args, cmd)
    out_console().print(f"{args.location}: turret {args.turret} at CF {args.cf}")
    return EXIT_OK


def run_reposition(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "a reposition is the referee's decision: give --referee NAME and --reason"
    )
    cmd = RepositionFormation(actor="referee", formation_id=args.formation, hex=args.hex, note=note)
    execute(args, cmd)
    out_console().print(f"{args.formation} now stands in {args.hex or 'orbit'}")
    return EXIT_OK
