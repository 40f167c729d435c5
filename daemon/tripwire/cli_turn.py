"""``mekref orders``, ``mekref turn`` and ``mekref engagement``: the daily strategic turn.

orders submit     a side's secret orders for the day (replaces that side's orders for the
                  formations named)
orders list       a side's orders for the day
orders withdraw   drop orders
turn resolve      the referee plays the day: weather, movement, encounters, engagements
engagement export per side, the MegaMek unit list and the scenario sheet of each engagement
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_db,
    add_referee,
    campaign_id_of,
    err_console,
    guarded,
    opened,
    out_console,
    print_json,
    referee_note,
)
from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup
from mekref.daemon.samples import ginestra as GINESTRA
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire import cli_house_maintenance
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute, run_command
from mekref.daemon.tripwire.mms_export import (
    distinct_warnings,
    export_engagement_mms,
    megamek_boards,
)
from mekref.daemon.tripwire.setup_satellites import entry_name, satellite_commands
from mekref.rules.codec import to_jsonable
from mekref.rules.messages import Event, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import rolled_damage
from mekref.rules.tripwire.turn.events import OrdersSubmitted
from mekref.rules.tripwire.turn.export import scenario_mul, scenario_notes, scenario_sheet
from mekref.rules.tripwire.turn.orders import (
    ACTIONS,
    FormationOrder,
    ResolveTurn,
    SubmitOrders,
    WithdrawOrders,
    orders_of,
    without_orders,
)
from mekref.rules.tripwire.turn.plugin import RepositionFormation
from mekref.rules.tripwire.turn.route import plan_route
from mekref.rules.tripwire.turn.setup import (
    FormationSpec,
    PlaceFormations,
    StartStrategicMap,
    design_mobility,
)
from mekref.rules.tripwire.turn.state import UnitMobility
from mekref.rules.tripwire.turn.turrets import RecordTurretDamage
from mekref.rules.tripwire.turn.weather import level_name

ORDERS_EPILOG = f"""\
An order is FORMATION:ACTION[:PATH[:TARGET]], PATH the hexes entered in order, comma-separated
(the start hex left out), TARGET a hex, location or formation by action. Parameters (the pool
paying, a tactical objective, surveillance conditions) go in --param FORMATION:KEY=VALUE.

actions: {", ".join(sorted(ACTIONS))}

examples:
  mekref orders submit --db g.db --side loyalist --day 3 --order alpha:move:0607,0707
  mekref orders submit --db g.db --side rebel --day 1 --order bravo:orbital_insertion::0912 \\
      --param bravo:objective=raid
  mekref orders submit --db g.db --side loyalist --day 2 --order alpha:guard \\
      --param alpha:objective=hold_the_line          deploys at turn 0 in an assault (L319)
  mekref orders submit --db g.db --side rebel --day 2 --order ds:anti_satellite::sat-1
  mekref orders submit --db g.db --side rebel --day 2 --order ds:reposition_orbit::1105 \\
      --param ds:orbit=geostationary                 or orbit=lpo (L210)
  mekref orders submit --db g.db --side rebel --day 2 --order ds:suborbital_hop::1105 \\
      --param ds:trips=2                             each hop after the first: +1 fatigue (L207)
  mekref orders submit --db g.db --side loyalist --day 2 --order l-air:strike::0812 \\
      --param l-air:conditions=altitude_1            a strike under the radar (L203, T-AM1)
  mekref orders submit --db g.db --side rebel --day 2 --order wing:combat_air_patrol::1010
                                                     meets enemy missions crossing 1010 (T-AM2)
  mekref orders submit --db g.db --side loyalist --day 1 --order sappers:prepare_runway
                                                     engineers' temporary runway in their plains
                                                     hex, standing at the day's end (L409, T-LZ1)
  mekref orders list --db g.db --side rebel
  mekref orders withdraw --db g.db --side rebel --day 1 bravo
  mekref route --db g.db --side loyalist --formation alpha --to 1210   the path, today's part
"""

ROUTE_EPILOG = """\
The cheapest legal path (fewest MP) from where the formation stands to a hex, over the map's
terrain, rivers and roads with the formation's own movement, and the part of it today's MP
covers, as an --order for 'mekref orders submit'. A long march takes several days: ask again
each day from where the formation then stands.

examples:
  mekref route --db g.db --side loyalist --formation alpha --to 1210
  mekref route --db g.db --side loyalist --formation alpha --to 1210 --forced-march --json
"""

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

SETUP_DESCRIPTION = """\
Start the strategic map of a campaign whose forces are imported, and place each side's
formations (the defender's secret Day Zero placement; the attacker at the pirate point).
The file names the map, attacker and defender, who holds which location, and the formations
by unit name ("chassis model"): each name takes the next unit of that design the side imported.
Walk/Cruise MP, movement mode, the Rugged quirk and safe thrust come from the designs kept at
import; a [[unit]] entry gives what a design does not say (an aerospace unit's fuel, a
vehicle's crew_slots) and overrides a design's value with a warning. Each held location with no
WarChest pool gets one when the map starts (L57). A [transports] table puts each
DropShip or cargo WarChest pool (by pool id) with the unit carrying it (its "chassis model", or
its id): repairs and healing are paid only from a pool in the unit's hex (L58). Each
[[satellite]] table (id, owner, orbit = "geostationary" or "lpo", hex; optional referee and
reason) places a satellite as `mekref satellite place` does (L270, T-OR1). See
daemon/samples/ginestra/strategic.toml and examples/strategic-satellites.toml.

The Force Commander's Skill Bonus to the ambush roll is derived from the commander's
Gunnery/Piloting (L29-34) and lost while the commander is captured, dead, truly destroyed
or out of play (L26); `mekref force commanders` lists it. A formation's `commander_bonus`
that differs from the derived one is refused, unless the formation also gives
`commander_override = { referee = "Ann", reason = "..." }`, recorded with the placement.
"""


def register(sub: Any) -> None:
    orders = sub.add_parser(
        "orders",
        help="submit, list or withdraw a side's secret orders",
        epilog=ORDERS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    acts = orders.add_subparsers(title="actions", metavar="ACTION")
    submit = acts.add_parser(
        "submit",
        help="a side's orders for the day",
        epilog=ORDERS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(submit)
    submit.add_argument("--side", required=True)
    submit.add_argument("--day", type=int, required=True)
    submit.add_argument("--order", action="append", required=True, metavar="SPEC")
    submit.add_argument("--param", action="append", default=[], metavar="FORMATION:KEY=VALUE")
    submit.set_defaults(handler=guarded(run_submit), command_name="orders submit")
    kw: dict[str, Any] = {
        "epilog": ORDERS_EPILOG,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
    listing = acts.add_parser("list", help="a side's orders for the day", **kw)
    add_db(listing)
    listing.add_argument("--side", required=True)
    listing.add_argument("--json", action="store_true", help="the orders as JSON")
    listing.set_defaults(handler=guarded(run_list), command_name="orders list")
    withdraw = acts.add_parser("withdraw", help="drop orders for some formations", **kw)
    add_db(withdraw)
    withdraw.add_argument("--side", required=True)
    withdraw.add_argument("--day", type=int, required=True)
    withdraw.add_argument("formations", nargs="+", metavar="FORMATION")
    withdraw.set_defaults(handler=guarded(run_withdraw), command_name="orders withdraw")

    route = sub.add_parser(
        "route",
        help="the cheapest legal path for a formation, and today's part as an order",
        epilog=ROUTE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(route)
    route.add_argument("--side", required=True, help="the side whose formation it is")
    route.add_argument("--formation", required=True, metavar="ID")
    route.add_argument("--to", required=True, metavar="HEX", help="the hex to reach, e.g. 1210")
    route.add_argument(
        "--forced-march", action="store_true", help="plan with forced march's extra MP"
    )
    route.add_argument("--json", action="store_true", help="the route as JSON")
    route.set_defaults(handler=guarded(run_route), command_name="route")

    kw = {"epilog": TURN_EPILOG, "formatter_class": argparse.RawDescriptionHelpFormatter}
    turn = sub.add_parser("turn", help="set up the strategic map, resolve the day (referee)", **kw)
    turn_acts = turn.add_subparsers(title="actions", metavar="ACTION")
    setup = turn_acts.add_parser(
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
    move = turn_acts.add_parser(
        "reposition", help="referee: put a formation in a hex (a retreat after a battle)", **kw
    )
    add_db(move)
    move.add_argument("--formation", required=True)
    move.add_argument("--hex", required=True, help='"CCRR", or "" for orbit')
    add_referee(move)
    move.set_defaults(handler=guarded(run_reposition), command_name="turn reposition")
    turret = turn_acts.add_parser(
        "turret-damage", help="referee: record a turret's CF after a battle (L275)", **kw
    )
    add_db(turret)
    turret.add_argument("--location", required=True, help='e.g. "Forward Deployment Base"')
    turret.add_argument("--turret", type=int, required=True, help="which turret, from 1")
    turret.add_argument("--cf", type=int, required=True, help="its CF now (150 whole, 0 gone)")
    add_referee(turret)
    turret.set_defaults(handler=guarded(run_turret_damage), command_name="turn turret-damage")
    resolve = turn_acts.add_parser("resolve", help="weather, actions, movement, engagements", **kw)
    add_db(resolve)
    resolve.add_argument("--day", type=int, required=True)
    resolve.set_defaults(handler=guarded(run_resolve), command_name="turn resolve")
    cli_house_maintenance.register(turn_acts)

    engagement = sub.add_parser("engagement", help="export engagements for MegaMek", **kw)
    eng_acts = engagement.add_subparsers(title="actions", metavar="ACTION")
    export = eng_acts.add_parser(
        "export",
        help="a side's unit list (.mul) and scenario sheet, and the engagement's MegaMek "
        "scenario (.mms)",
        description="Writes, per engagement of --side: <id>-<side>.mul and <id>-<side>.md (the "
        "side's units and briefing), and <id>.mms (+ <id>-options.xml): both sides as a MegaMek "
        "scenario the host opens with Load Scenario (it names every unit of both sides: hand "
        "it to the host, not the players). --format picks which.",
        **kw,
    )
    add_db(export)
    export.add_argument("--side", required=True)
    export.add_argument("--engagement", help="one engagement id (default: all of the side's)")
    export.add_argument("-o", "--output", type=Path, required=True, metavar="DIR")
    export.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="unit designs (.mtf/.blk) for units the campaign keeps no design for (the "
        "designs seen at force import are used without it)",
    )
    export.add_argument(
        "--format",
        choices=("both", "mul", "mms"),
        default="both",
        help="mul: unit list and sheet; mms: MegaMek scenario; both (default)",
    )
    export.add_argument(
        "--boards-dir",
        type=Path,
        metavar="DIR",
        help="MegaMek's data/boards: map sheets with a board of that name go in by name "
        "(without it, or without a match, the board is RANDOM and the export says so)",
    )
    export.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SIDE=NAME",
        help="the MegaMek player name of a side (default: the side's name without spaces)",
    )
    export.add_argument(
        "--house-rule",
        action="append",
        default=[],
        metavar="KEY",
        help="a tactical house rule in force: its MegaMek game option goes in the options file",
    )
    export.set_defaults(handler=guarded(run_export), command_name="engagement export")


def parse_order(spec: str, params: dict[str, list[tuple[str, str]]]) -> FormationOrder:
    parts = spec.split(":")
    if len(parts) < 2 or not parts[0] or not parts[1] or len(parts) > 4:
        raise CliError(f"--order {spec!r}: write FORMATION:ACTION[:PATH[:TARGET]]")
    path = tuple(p.strip() for p in parts[2].split(",") if p.strip()) if len(parts) > 2 else ()
    target = parts[3] if len(parts) > 3 and parts[3] else None
    return FormationOrder(
        formation_id=parts[0],
        action=parts[1],
        path=path,
        target=target,
        params=tuple(params.get(parts[0], ())),
    )


def parse_params(items: list[str]) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for item in items:
        formation, sep, rest = item.partition(":")
        key, eq, value = rest.partition("=")
        if not sep or not eq or not formation or not key:
            raise CliError(f"--param {item!r}: write FORMATION:KEY=VALUE")
        out.setdefault(formation, []).append((key, value))
    return out


def run_submit(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    orders = tuple(parse_order(o, params) for o in args.order)
    cmd = SubmitOrders(actor=args.side, side_id=args.side, day=args.day, orders=orders)
    done = execute(args, cmd)
    stored = next(e for e in done.events if isinstance(e, OrdersSubmitted))
    console = out_console()
    console.print(f"{len(stored.orders)} order(s) stored for {args.side}, day {args.day}")
    for refused in stored.refused:
        # Each order stands on its own: the refused ones are named, with why (ruling T-O3).
        console.print(
            f"refused: {terminal_safe(refused.formation_id)}: {terminal_safe(refused.reason)}",
            markup=False,
            highlight=False,
        )
    return EXIT_REFUSED if stored.refused else EXIT_OK


def run_route(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    try:
        plan = plan_route(state, args.side, args.formation, args.to, forced_march=args.forced_march)
    except Refusal as exc:
        raise CliError(f"refused: {exc}", EXIT_REFUSED) from exc
    if args.json:
        print_json({**to_jsonable(plan), "order": plan.order_spec})
        return EXIT_OK
    console = out_console()
    console.print(
        f"{plan.formation_id} from {plan.start} to {plan.goal}: {plan.cost_mp} MP over "
        f"{len(plan.path)} hex{'' if len(plan.path) == 1 else 'es'} "
        f"({plan.mp_per_day} MP a day off the road)",
        markup=False,
        highlight=False,
    )
    console.print("route: " + " ".join(plan.path), markup=False, highlight=False)
    if plan.today:
        reach = "it arrives" if plan.today == plan.path else f"as far as {plan.today[-1]}"
        console.print(f"today ({reach}): --order {plan.order_spec}", markup=False)
    else:
        console.print("today: not even the first hex fits in today's MP", markup=False)
    return EXIT_OK


def describe(o: FormationOrder) -> str:
    text = f"{o.formation_id}: {o.action}"
    if o.path:
        text += " via " + " ".join(o.path)
    if o.target:
        text += f" -> {o.target}"
    if o.params:
        text += " (" + ", ".join(f"{k}={v}" for k, v in o.params) + ")"
    return text


def run_list(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    console = out_console()
    day = state.strategic.day if state.strategic else 0
    mine = orders_of(state, args.side)
    if args.json:
        print_json(
            {
                "side": args.side,
                "day": day,
                "orders": [
                    {
                        "formation": o.formation_id,
                        "action": o.action,
                        "path": list(o.path),
                        "target": o.target,
                        "params": dict(o.params),
                    }
                    for o in mine
                ],
            }
        )
        return EXIT_OK
    console.print(f"{args.side}, day {day}: {len(mine)} order(s)")
    for o in mine:
        console.print("  " + describe(o))
    return EXIT_OK


def run_withdraw(args: argparse.Namespace) -> int:
    cmd = WithdrawOrders(
        actor=args.side, side_id=args.side, day=args.day, formation_ids=tuple(args.formations)
    )
    execute(args, cmd)
    out_console().print(f"withdrew orders for {', '.join(args.formations)}")
    return EXIT_OK


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


def run_export(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    if state.strategic is None:
        raise CliError("the strategic map is not set up in this campaign")
    wanted = [
        e.engagement_id
        for e in state.strategic.engagements
        if args.side in e.sides and args.engagement in (None, e.engagement_id)
    ]
    if not wanted:
        raise CliError(
            f"no engagement for {args.side!r} today"
            + (f" named {args.engagement!r}" if args.engagement else "")
        )
    try:
        args.output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{args.output}: cannot create ({exc.strerror})") from exc
    console = out_console()
    designs = _designs(state, args.side, args.units_dir)
    players = dict(p.split("=", 1) for p in args.player if "=" in p)
    if len(players) != len(args.player):
        raise CliError("--player: write SIDE=NAME")
    for eid in wanted:
        notes: list[str] = []
        mms_notes: list[str] = []
        try:
            if args.format != "mms":
                mul = scenario_mul(state, eid, args.side, designs=designs)
                sheet = scenario_sheet(state, eid, args.side)
                base = args.output / f"{eid}-{args.side}"
                base.with_suffix(".mul").write_text(mul, encoding="utf-8")
                base.with_suffix(".md").write_text(sheet, encoding="utf-8")
                console.print(f"wrote {base}.mul and {base}.md")
                notes = [f"warning: {n}" for n in scenario_notes(state, eid, args.side)]
            if args.format != "mul":
                said = export_engagement_mms(
                    state,
                    eid,
                    args.output,
                    lambda side: (
                        designs if side == args.side else _designs(state, side, args.units_dir)
                    ),
                    boards=megamek_boards(args.boards_dir) if args.boards_dir else None,
                    players=players,
                    house_rules=args.house_rule,
                )
                for line in said:
                    if not line.startswith("warning: "):
                        console.print(line, markup=False)
                mms_notes = [line for line in said if line.startswith("warning: ")]
            # The scenario repeats the side's own list notes: each distinct line once.
            for line in distinct_warnings(notes, mms_notes):
                console.print(line, markup=False)
        except Refusal as exc:
            raise CliError(f"refused: {exc}") from exc
    return EXIT_OK


def _transports(
    state: CampaignState, table: dict[str, Any], by_name: dict[tuple[str, str], list[str]]
) -> tuple[tuple[str, str], ...]:
    """``[transports]``: WarChest pool id -> the unit carrying it (a unit id, or the "chassis
    model" of the one unit of that design the pool's side has): the pool travels with it."""
    out = []
    for pool_id, unit in sorted(table.items()):
        pool = state.pools.get(pool_id)
        if pool is None:
            raise CliError(f"transports: no WarChest pool {pool_id!r}; open it first (mekref pool)")
        name = str(unit)
        if name in state.units:
            out.append((pool_id, name))
            continue
        found = by_name.get((pool.side_id, name), [])
        if len(found) != 1:
            what = "no unit" if not found else f"{len(found)} units"
            raise CliError(
                f"transports: side {pool.side_id} has {what} named {name!r} to carry pool "
                f"{pool_id!r}; give the unit's id"
            )
        out.append((pool_id, found[0]))
    return tuple(out)


def _given(spec: dict[str, Any] | None, key: str) -> Any:
    return None if spec is None else spec.get(key)


def _unit_mobility(
    state: CampaignState, uid: str, name: str, spec: dict[str, Any] | None, warnings: list[str]
) -> UnitMobility:
    """A unit's mobility from its stored design, the set-up file's ``[[unit]]`` entry where it
    gives a value (a value that differs from the design is kept, with a warning), and a
    refusal naming the unit where neither says (ruling T-SU1)."""
    stored = stored_design_of(state, uid)
    derived = None if stored is None else design_mobility(stored)
    where = f"{name!r} (unit {uid})"

    def pick(key: str, label: str, from_design: Any, cast: Any) -> Any:
        typed = _given(spec, key)
        if typed is None:
            return from_design
        value = cast(typed)
        if from_design is not None and value != from_design:
            warnings.append(
                f"{name}: the set-up file gives {label} {value!r}, its design "
                f"{from_design!r}; the file's value is used"
            )
        return value

    walk = pick("walk", "walk/cruise MP", None if derived is None else derived.walk_mp, int)
    mode = pick("mode", "movement mode", None if derived is None else derived.mode, str)
    for label, value, key in (("walk/cruise MP", walk, "walk"), ("movement mode", mode, "mode")):
        if value is None:
            why = "no design is kept for it" if stored is None else "its design does not say"
            raise CliError(
                f"{where}: {why}; add {key} = ... to a [[unit]] entry named {name!r} "
                f"({label}), or import the force with --units-dir to keep its design"
            )
    rugged = pick("rugged", "Rugged quirk", None if derived is None else derived.rugged, bool)
    if rugged is None:
        warnings.append(f"{name}: no design kept and no rugged = true/false: not Rugged")
    aero = mode == "aerospace"
    thrust = pick(
        "safe_thrust", "safe thrust", None if derived is None else derived.safe_thrust, int
    )
    conventional = pick(
        "conventional", "conventional", None if derived is None else derived.conventional, bool
    )
    fuel = _given(spec, "fuel")
    if aero and (fuel is None or thrust is None):
        missing = "fuel" if fuel is None else "safe_thrust"
        raise CliError(
            f"{where}: an aerospace unit needs its {missing} (the stored design does not keep "
            f"fuel points); add {missing} = ... to a [[unit]] entry named {name!r}"
        )
    crew = pick("crew_slots", "crew places", None if derived is None else derived.crew_slots, int)
    if crew is None:
        warnings.append(
            f"{name}: its design does not say its crew places and the file gives no "
            "crew_slots: 1 is used"
        )
    return UnitMobility(
        unit_id=uid,
        walk_mp=int(walk),
        mode=str(mode),
        rugged=bool(rugged),
        fuel=int(fuel or 0),
        max_fuel=int(fuel or 0),
        safe_thrust=int(thrust or 0),
        conventional=bool(conventional),
        crew_slots=1 if crew is None else int(crew),
    )


def _setup_commands(
    state: CampaignState, data: dict[str, Any], warnings: list[str] | None = None
) -> tuple[StartStrategicMap, list[PlaceFormations]]:
    designs = {str(u["name"]): u for u in data.get("unit", [])}
    by_name: dict[tuple[str, str], list[str]] = {}
    mobility: list[UnitMobility] = []
    said: list[str] = []
    for uid, unit in state.units.items():
        name = f"{unit.chassis} {unit.model}".strip()
        by_name.setdefault((unit.side_id, name), []).append(uid)
        mobility.append(_unit_mobility(state, uid, name, designs.get(name), said))
    if warnings is not None:
        warnings.extend(dict.fromkeys(said))  # once per design, in order
    start = StartStrategicMap(
        actor="referee",
        transports=_transports(state, data.get("transports", {}), by_name),
        map_name=str(data.get("map", "ginestra")),
        attacker=str(data["attacker"]),
        defender=str(data["defender"]),
        mobility=tuple(mobility),
        control=tuple(sorted((str(k), str(v)) for k, v in data.get("control", {}).items())),
        unrest=tuple(sorted((str(k), int(v)) for k, v in data.get("unrest", {}).items())),
        sheets_per_engagement=int(data.get("sheets_per_engagement", 2)),
    )
    specs: dict[str, list[FormationSpec]] = {}
    for f in data.get("formation", []):
        side = str(f["side"])
        ids = []
        for name in f["units"]:
            pool = by_name.get((side, str(name)), [])
            if not pool:
                raise CliError(f"formation {f['id']}: {side} has no (more) {name!r} to place")
            ids.append(pool.pop(0))
        specs.setdefault(side, []).append(
            FormationSpec(
                formation_id=str(f["id"]),
                name=str(f.get("name", f["id"])),
                unit_ids=tuple(ids),
                hex=str(f.get("hex", "")),
                commander_bonus=int(f["commander_bonus"]) if "commander_bonus" in f else None,
                carries_leader=bool(f.get("carries_leader", False)),
                baggage_person_days=int(f.get("baggage_person_days", 0)),
                commander_note=_override(f),
            )
        )
    places = [
        PlaceFormations(actor=side, side_id=side, day=1, formations=tuple(found))
        for side, found in sorted(specs.items())
    ]
    return start, places


def _override(f: dict[str, Any]) -> RefereeNote | None:
    """A formation's ``commander_override = { referee = "...", reason = "..." }``."""
    given = f.get("commander_override")
    if given is None:
        return None
    if not isinstance(given, dict):
        raise ValueError(f"formation {f['id']}: commander_override is {{ referee, reason }}")
    return RefereeNote(referee=str(given.get("referee", "")), reason=str(given.get("reason", "")))


def _location_pools(state: CampaignState) -> tuple[list[OpenPool], list[str]]:
    """L57: "Each force has a supply of WarChest Points associate with each Location they
    control": a location a side holds when the map starts with no WarChest pool of its own
    gets one (ruling T-SU2), with the table's stock; the notes say what was not opened and why."""
    s = state.strategic
    if s is None:
        return [], []
    have = {
        p.location if p.location is not None else p.name
        for p in state.pools.values()
        if p.kind is PoolKind.LOCATION
    }
    opens: list[OpenPool] = []
    notes: list[str] = []
    for loc, side in sorted(s.control.items()):
        if loc in have:
            continue
        pool_id = _slug(loc)
        if pool_id in state.pools:
            notes.append(
                f"no pool opened for {loc!r} ({side}): the id {pool_id!r} is taken; "
                f"open one with mekref pool open --location {loc!r}"
            )
            continue
        opens.append(
            OpenPool(
                actor="referee",
                pool_id=pool_id,
                side_id=side,
                name=loc,
                kind=PoolKind.LOCATION,
                location=loc,
            )
        )
    return opens, notes


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.casefold()).split())


def run_setup(args: argparse.Namespace) -> int:
    path = args.file or (GINESTRA.FOLDER / "strategic.toml")
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"{path}: not valid TOML ({exc})") from exc
    warnings: list[str] = []
    notes: list[str] = []
    opened_pools: list[OpenPool] = []
    with opened(args.db) as app:
        cid = campaign_id_of(app.store, args.campaign)
        runner = app.runner
        state = runner.load(cid).state
        try:
            start, places = _setup_commands(state, data, warnings)
            satellites = satellite_commands(data, Path(path).name)
        except (KeyError, ValueError, TypeError) as exc:
            raise CliError(f"{path}: {exc}") from exc
        # All or nothing: the whole set-up is tried on the current state first (pure, in
        # memory), so a refused placement does not leave the map started without formations.
        try:
            for command in (start, *places):
                _, state = TRIPWIRE.execute(state, command)
            for number, sat in enumerate(satellites, start=1):
                try:
                    _, state = TRIPWIRE.execute(state, sat)
                except Refusal as exc:  # the checks of `satellite place`, naming the entry
                    where = entry_name(number, {"id": sat.satellite_id})
                    raise Refusal(exc.code, f"{path}: {where}: {exc.message}") from exc
            pools, notes = _location_pools(state)
            for pool in pools:
                try:
                    _, state = TRIPWIRE.execute(state, pool)
                except Refusal as exc:  # e.g. a location the WarChest table does not list
                    notes.append(f"no pool opened for {pool.location!r}: {exc}")
                else:
                    opened_pools.append(pool)
        except Refusal as exc:
            raise CliError(f"refused: {exc} (nothing recorded)", EXIT_REFUSED) from exc
        run_command(runner, cid, start)
        for place in places:
            run_command(runner, cid, place)
        for sat in satellites:
            run_command(runner, cid, sat)
        for pool in opened_pools:
            run_command(runner, cid, pool)
    for warning in warnings:
        err_console().print(f"mekref turn setup: warning: {warning}", markup=False)
    console = out_console()
    console.print(
        f"strategic map {start.map_name!r} started: "
        f"{start.attacker} attacks, {start.defender} defends"
    )
    for place in places:
        console.print(f"  {place.side_id}: {len(place.formations)} formation(s) placed")
    for sat in satellites:
        console.print(
            f"  {sat.owner}: satellite {sat.satellite_id} in {sat.orbit} orbit over {sat.hex} "
            "(L270, T-OR1)",
            markup=False,
        )
    for pool in opened_pools:
        console.print(
            f"  {pool.side_id}: WarChest pool {pool.pool_id!r} opened for {pool.location} (L57)",
            markup=False,
        )
    for note in notes:
        err_console().print(f"mekref turn setup: {note}", markup=False)
    return EXIT_OK


def _designs(state: CampaignState, side: str, units_dir: Path | None) -> dict[str, UnitDesign]:
    """Designs from ``--units-dir`` for the side's units that carry a battle damage record or
    a recorded standard load and have no design kept in the campaign (imported without one)."""
    if units_dir is None:
        return {}
    try:
        lookup = catalog_lookup(units_dir, progress=False)
    except CatalogUnavailable as exc:
        raise CliError(str(exc)) from exc
    found: dict[str, UnitDesign] = {}
    for uid, unit in sorted(state.units.items()):
        recorded = uid in state.battles.unit_damage or uid in state.battles.loadouts
        if unit.side_id != side or not recorded or uid in state.battles.unit_designs:
            continue
        design = lookup(Entity(chassis=unit.chassis, model=unit.model, movement_mode=""))
        if design is not None:
            found[uid] = design
    return found


def run_turret_damage(args: argparse.Namespace) -> int:
    note = referee_note(args)
    if note is None:
        raise CliError(
            "a turret's damage is the referee's record: give --referee NAME and --reason"
        )
    cmd = RecordTurretDamage(
        actor=note.referee, location=args.location, turret=args.turret, cf=args.cf, note=note
    )
    execute(args, cmd)
    out_console().print(f"{args.location}: turret {args.turret} at CF {args.cf}")
    return EXIT_OK


def run_reposition(args: argparse.Namespace) -> int:
    note = referee_note(args)
    if note is None:
        raise CliError("a reposition is the referee's decision: give --referee NAME and --reason")
    cmd = RepositionFormation(actor="referee", formation_id=args.formation, hex=args.hex, note=note)
    execute(args, cmd)
    out_console().print(f"{args.formation} now stands in {args.hex or 'orbit'}")
    return EXIT_OK
