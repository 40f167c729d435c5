"""``mekref orders`` and ``mekref route``: a side's secret orders for the day, the path to a hex.

orders submit     a side's secret orders for the day (replaces that side's orders for the
                  formations named)
orders list       a side's orders for the day
orders withdraw   drop orders
route             the cheapest legal path for a formation, and today's part as an order
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_command,
    add_db,
    guarded,
    out_console,
    print_json,
    refused,
)
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire.cli_campaign import execute, side_campaign_state
from mekref.rules.codec import to_jsonable
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.events import OrdersSubmitted
from mekref.rules.tripwire.turn.orders import (
    FormationOrder,
    SubmitOrders,
    WithdrawOrders,
    actions,
    orders_of,
)
from mekref.rules.tripwire.turn.route import plan_route

ORDERS_EPILOG = f"""\
An order is FORMATION:ACTION[:PATH[:TARGET]], PATH the hexes entered in order, comma-separated
(the start hex left out), TARGET a hex, location or formation by action. Parameters (the pool
paying, a tactical objective, surveillance conditions) go in --param FORMATION:KEY=VALUE.

actions: {", ".join(sorted(actions()))}

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
  mekref route --db g.db --side loyalist --formation alpha --to 1210 --extra-hours 4
"""


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
    done = execute(args, cmd, side=args.side)
    stored = next(e for e in done.events if isinstance(e, OrdersSubmitted))
    console = out_console()
    console.print(f"{len(stored.orders)} order(s) stored for {args.side}, day {args.day}")
    for order in stored.refused:
        # Each order stands on its own: the refused ones are named, with why (ruling T-O3).
        console.print(
            f"refused: {terminal_safe(order.formation_id)}: {terminal_safe(order.reason)}",
            markup=False,
            highlight=False,
        )
    return EXIT_REFUSED if stored.refused else EXIT_OK


def run_route(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    try:
        plan = plan_route(
            state,
            args.side,
            args.formation,
            args.to,
            forced_march=args.forced_march,
            extra_hours=args.extra_hours,
        )
    except Refusal as exc:
        raise refused(exc) from exc
    if args.json:
        print_json(
            {**to_jsonable(plan), "order": plan.order_spec, "param": plan.param_spec or None}
        )
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
        param = f" --param {plan.param_spec}" if plan.param_spec else ""
        console.print(f"today ({reach}): --order {plan.order_spec}{param}", markup=False)
        if plan.extra_hours:
            console.print(
                f"{plan.extra_hours} extra hours on the move: +{plan.extra_hours} fatigue "
                "(L166, T-H1)",
                markup=False,
            )
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
    state = side_campaign_state(args)
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
    had: set[str] = set()

    def orders_held(state: Any, command: Any) -> Any:
        had.update(o.formation_id for o in orders_of(state, args.side))
        return command

    execute(args, cmd, side=args.side, completed=orders_held)
    gone = [f for f in args.formations if f in had]
    none = [f for f in args.formations if f not in had]
    if gone:
        out_console().print(f"withdrew orders for {', '.join(gone)}")
    if none:
        out_console().print(f"no order to withdraw for {', '.join(none)} on day {args.day}")
    return EXIT_OK


def register(sub: Any) -> None:
    """``mekref orders`` and ``mekref route``."""
    _register_orders(sub)
    _register_route(sub)


def _register_orders(sub: Any) -> None:
    orders = add_command(
        sub, "orders", help="submit, list or withdraw a side's secret orders", epilog=ORDERS_EPILOG
    )
    acts = orders.add_subparsers(title="actions", metavar="ACTION")
    submit = add_command(acts, "submit", help="a side's orders for the day", epilog=ORDERS_EPILOG)
    add_db(submit)
    submit.add_argument("--side", required=True)
    submit.add_argument("--day", type=int, required=True)
    submit.add_argument("--order", action="append", required=True, metavar="SPEC")
    submit.add_argument("--param", action="append", default=[], metavar="FORMATION:KEY=VALUE")
    submit.set_defaults(handler=guarded(run_submit), command_name="orders submit")
    kw: dict[str, Any] = {"epilog": ORDERS_EPILOG}
    listing = add_command(acts, "list", help="a side's orders for the day", **kw)
    add_db(listing)
    listing.add_argument("--side", required=True)
    listing.add_argument("--json", action="store_true", help="the orders as JSON")
    listing.set_defaults(handler=guarded(run_list), command_name="orders list")
    withdraw = add_command(acts, "withdraw", help="drop orders for some formations", **kw)
    add_db(withdraw)
    withdraw.add_argument("--side", required=True)
    withdraw.add_argument("--day", type=int, required=True)
    withdraw.add_argument("formations", nargs="+", metavar="FORMATION")
    withdraw.set_defaults(handler=guarded(run_withdraw), command_name="orders withdraw")


def _register_route(sub: Any) -> None:
    route = add_command(
        sub,
        "route",
        help="the cheapest legal path for a formation, and today's part as an order",
        epilog=ROUTE_EPILOG,
    )
    add_db(route)
    route.add_argument("--side", required=True, help="the side whose formation it is")
    route.add_argument("--formation", required=True, metavar="ID")
    route.add_argument("--to", required=True, metavar="HEX", help="the hex to reach, e.g. 1210")
    route.add_argument(
        "--forced-march", action="store_true", help="plan with forced march's extra MP"
    )
    route.add_argument(
        "--extra-hours",
        type=int,
        default=0,
        metavar="N",
        help="plan with N hours past the day's 6 useful ones (1-18, L166, T-H1), as the order's "
        "extra_hours=N",
    )
    route.add_argument("--json", action="store_true", help="the route as JSON")
    route.set_defaults(handler=guarded(run_route), command_name="route")
