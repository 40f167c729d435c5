"""Secret orders: the contract the API codes against, their validation and the side's view.

``SubmitOrders`` replaces a side's orders for the formations it names; ``WithdrawOrders`` drops
some; ``ResolveTurn`` (referee only) plays the day. The event that stores orders carries the
``side_id`` so the event stream can keep it from the other sides.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from mekref.hexmap import PathProblem, label, parse_label, validate_path
from mekref.hexmap.geometry import LabelError
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type
from mekref.rules.record_type import record
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, Pool
from mekref.rules.tripwire.turn import (
    cargo,
    engagement,
    engineering,
    fuel,
    holds,
    landing,
    orbit,
    surveillance,
)
from mekref.rules.tripwire.turn.common import (
    AIRFIELD,
    DROPSHIP,
    L166,
    extra_hours_of,
    is_air,
    known_side,
    movement_of,
    own_formation,
    strategic_of,
)
from mekref.rules.tripwire.turn.data import action_rows
from mekref.rules.tripwire.turn.events import OrdersSubmitted, OrdersWithdrawn, RefusedOrder
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of, to_hex
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    FormationOrder,
    StrategicState,
)
from mekref.rules.tripwire.turn.view import SideView, side_view

__all__ = [
    "FormationOrder",
    "ResolveTurn",
    "SideView",
    "SubmitOrders",
    "WithdrawOrders",
    "actions",
    "orders_of",
    "side_view",
]


def actions() -> frozenset[str]:
    """Every action of the Actions list (lines 179-242 of the rule text), by key, with Identify
    (T-S2) and the engineers' temporary runway (L409, T-LZ1). Read from the table when asked,
    not when the rule set is imported: a command that opens a campaign and decides nothing
    (status) then loads no TOML reader."""
    return frozenset(action_rows())


MOVING = frozenset({"move", "forced_march"})
#: Free actions that put a formation down in a hex; a path after the target moves it on.
LANDING = frozenset({"orbital_insertion", "suborbital_hop", "combat_drop"})
#: Actions that take a formation out of its hex: refused while one of its units is under
#: repair (L63, ruling R-WHERE-5).
LEAVING = MOVING | LANDING | {"shadow", "respond", "achieve_orbit"}
#: L63, quoted by the refusal of a move while a unit's repair work is unfinished (R-WHERE-5).
L63_HEX = (
    "L63 'To perform repair, reload or reconfigure actions requires the presence of a technician "
    "present in that strategic hex'"
)


@command_type("SubmitOrders")
@record
class SubmitOrders(Command):
    side_id: str
    day: int
    orders: tuple[FormationOrder, ...]


@command_type("WithdrawOrders")
@record
class WithdrawOrders(Command):
    side_id: str
    day: int
    formation_ids: tuple[str, ...]


@command_type("ResolveTurn")
@record
class ResolveTurn(Command):
    day: int


def orders_of(state: CampaignState, side_id: str) -> tuple[FormationOrder, ...]:
    """That side's orders for the current day, by formation id."""
    if state.strategic is None:
        return ()
    return state.strategic.orders.get(side_id, ())


def without_orders(state: CampaignState) -> dict[str, tuple[str, ...]]:
    """Each side's formations with no order for the current day (a side with none at all lists
    every formation): they stay where they are and take no action when the day is resolved."""
    if state.strategic is None:
        return {}
    s = state.strategic
    out: dict[str, list[str]] = {side: [] for side in sorted(state.sides)}
    for side in out:
        ordered = {o.formation_id for o in s.orders.get(side, ())}
        out[side] = [
            fid
            for fid, f in sorted(s.formations.items())
            if f.side_id == side and fid not in ordered
        ]
    return {side: tuple(fids) for side, fids in out.items() if fids}


def _check_day(s: StrategicState, day: int) -> None:
    if s.ended:
        raise Refusal("campaign_over", f"day: the campaign has ended ({s.ended})")
    if day != s.day:
        raise Refusal("wrong_day", f"day: orders are for day {s.day}, not day {day}")


def _parse(text: str, field: str) -> str:
    try:
        return label(parse_label(text))
    except LabelError as exc:
        raise Refusal("illegal_path", f"{field}: {text!r} is not a hex label ({exc})") from None


def _check_path(
    s: StrategicState, f: Formation, order: FormationOrder, field: str, start: str | None = None
) -> None:
    start = f.hex if start is None else start
    if start == IN_ORBIT:
        raise Refusal(
            "illegal_path",
            f"{field}.path: {f.formation_id} is in orbit; land it first (orbital_insertion)",
        )
    if not order.path:
        raise Refusal(
            "illegal_path", f"{field}.path: a {order.action} order lists the hexes entered"
        )
    hexes = [hex_at(start)] + [
        hex_at(_parse(p, f"{field}.path[{i}]")) for i, p in enumerate(order.path)
    ]
    hours = extra_hours_of(order, f"{field}.params") if order.action in MOVING else 0
    movement = movement_of(s, f, forced_march=order.action == "forced_march", extra_hours=hours)
    check = validate_path(hexmap_of(s), movement, hexes)
    if not check.ok:
        step = (check.step or 1) - 1
        where = label(check.at) if check.at is not None else "?"
        problem = check.problem.value if isinstance(check.problem, PathProblem) else "illegal"
        raise Refusal(
            "illegal_path", f"{field}.path[{step}]: hex {where}: {problem}: {check.reason}"
        )


def _check_hours_and_altitude(f: Formation, order: FormationOrder, field: str) -> None:
    """Extra hours only on a move (T-H1); a surveillance roll's altitude row (T-S3)."""
    if order.param("extra_hours") and order.action not in MOVING:
        raise Refusal(
            "bad_param",
            f"{field}.params.extra_hours: only a move or forced_march travels extra hours "
            f"({L166}; ruling T-H1)",
        )
    if order.action in ("overflight", "surveillance"):
        space = order.action == "surveillance" or f.hex == IN_ORBIT
        surveillance.check_order(order, from_space=space, field=f"{field}.params")


def _dropships(s: StrategicState, f: Formation) -> list[str]:
    return [
        u for u in f.unit_ids if s.mobility.get(u) is not None and s.mobility[u].mode == DROPSHIP
    ]


def _carried(s: StrategicState, f: Formation, order: FormationOrder) -> bool:
    """Whether a DropShip carries the formation on this order, whatever its other units."""
    holds_dropship = bool(_dropships(s, f))
    if order.action == "respond":
        # "A DropShip (and the loaded units)": in orbit its DropShip carries it (T-O1); on the
        # ground a DropShip among its units carries the rest (ruling T-RS1).
        return f.hex == IN_ORBIT or holds_dropship
    if order.action in ("achieve_orbit", "suborbital_hop") and holds_dropship:
        # L207 "the DropShip and all units being carried", L208 "A DropShip ... may reach
        # orbit": a landed DropShip lifts the other units of its formation (ruling T-O4).
        return True
    # Day Zero: the attacker's force lands from the pirate point aboard its DropShips (line 172),
    # so a formation in orbit may land whatever its units are (ruling T-O1); its DropShip takes
    # it to the geostationary orbit a Combat Drop needs (L211, ruling T-OR7).
    return f.hex == IN_ORBIT and order.action in (
        "orbital_insertion",
        "combat_drop",
        "reposition_orbit",
    )


def _check_order(
    state: CampaignState, s: StrategicState, side_id: str, order: FormationOrder, field: str
) -> None:
    f = own_formation(s, side_id, order.formation_id, f"{field}.formation_id")
    if f.training_type and f.training_day == s.day:
        # L95: "Change Formation Type | 100 (Requires 1 day of training)" (ruling T-F6).
        raise Refusal(
            "training",
            f"{field}.formation_id: {f.formation_id} trains as {f.training_type} on day "
            f'{s.day} and takes no action (L95: "Requires 1 day of training")',
        )
    row = action_rows().get(order.action)
    if row is None:
        raise Refusal(
            "unknown_action",
            f"{field}.action: {order.action!r} is not an action; "
            f"known: {', '.join(sorted(actions()))}",
        )
    carried = _carried(s, f, order)
    if carried:  # L206: bays or the cargo hold (ruling T-O5)
        holds.check(state, f, order, _dropships(s, f), field)
    if (
        order.action == "respond"
        and order.target is not None
        and not _on_map(s, order.target, f"{field}.target")
    ):
        raise Refusal("illegal_path", f"{field}.target: the hex to respond to, on the map")
    if order.action in ("orbital_insertion", "combat_drop") and f.hex != IN_ORBIT:
        raise Refusal("not_in_orbit", f"{field}.action: {f.formation_id} is not in orbit")
    if order.action == "achieve_orbit" and f.hex == IN_ORBIT:
        raise Refusal("in_orbit", f"{field}.action: {f.formation_id} is already in orbit")
    if row.units and not carried and not is_air(s, f, row.units):
        raise Refusal(
            "wrong_units",
            f"{field}.action: {order.action} is for {row.units.replace('_', ' ')} units only "
            f"(rule, line {row.ref.line})",
        )
    if order.action in LEAVING or order.path:
        _check_not_under_repair(state, s, f, order, field)
    lands = order.action in LANDING
    if lands and not _on_map(s, order.target, f"{field}.target"):
        raise Refusal("illegal_path", f"{field}.target: name the hex to land in, on the map")
    if order.action in MOVING:
        _check_path(s, f, order, field)
    elif lands and order.path and order.target is not None:
        # A free action combines with a move (lines 178, 207, 211): land, then move on.
        _check_path(s, f, order, field, start=label(parse_label(order.target)))
    elif order.path:
        raise Refusal("illegal_path", f"{field}.path: a {order.action} order takes no path")
    if order.action in ("overflight", "strike", "combat_air_patrol"):
        fuel.check_order(s, f, order, field)
    _check_target(state, s, f, order, field)
    # Anti-Satellite, Reposition Orbit, space surveillance gear, repeated hops, a powered-down
    # DropShip's Respond (rulings T-OR2 to T-OR5); the tactical objective (Hold the Line).
    orbit.check_order(s, f, order, field)
    _check_hours_and_altitude(f, order, field)
    engagement.check_objective(order, f"{field}.params.objective")
    # L409-L410: where an aerodyne DropShip or a conventional fighter may come down (T-LZ4).
    for where in landing.landing_hexes(order):
        at = "target" if where == order.target else "path"
        landing.check(state, s, f, where, f"{field}.{at}")
    if order.action == "prepare_runway":
        landing.check_prepare(state, s, f, order, field)
    if order.action == "load_unload":
        cargo.check(state, s, s.formations, f, order, field)
    _check_repair(state, s, f, order, field)


def _check_target(
    state: CampaignState, s: StrategicState, f: Formation, order: FormationOrder, field: str
) -> None:
    """What an order acts on: an airfield to intercept from, the location it loots, destroys or
    keeps the peace in, the formation it shadows or identifies."""
    if order.action == "intercept":
        loc = hexmap_of(s).location_at(hex_at(f.hex)) if f.hex != IN_ORBIT else None
        if loc is None or not AIRFIELD & set(loc.facilities):
            raise Refusal(
                "not_at_location",
                f"{field}.action: {f.formation_id} is not at an airfield (a DropPort or an "
                "aerospace repair facility, line 212)",
            )
    if order.action in ("looting", "destruction", "peacekeeping", "martial_law", "round_them_up"):
        loc = hexmap_of(s).location_at(hex_at(f.hex)) if f.hex != IN_ORBIT else None
        if loc is None:
            raise Refusal(
                "not_at_location", f"{field}.action: {f.formation_id} is not in a location's hex"
            )
        if order.action == "looting":
            if loc.name in s.looted:
                raise Refusal(
                    "already_looted", f"{field}.action: {loc.name} has been looted already"
                )
            _pool_for(state, f.side_id, order, field)
        if order.action == "destruction":
            fac = order.target or ""
            if fac not in loc.facilities or fac in s.destroyed.get(loc.name, ()):
                raise Refusal("bad_target", f"{field}.target: {loc.name} has no standing {fac!r}")
    if order.action == "shadow" and (order.target is None or order.target not in s.formations):
        raise Refusal("bad_target", f"{field}.target: name the formation to shadow")
    if order.action == "identify":
        target = s.formations.get(order.target or "")
        if target is None or target.side_id == f.side_id:
            raise Refusal("bad_target", f"{field}.target: name the enemy formation to identify")
        surveillance.identify_conditions(order, f"{field}.params")


def _check_repair(
    state: CampaignState, s: StrategicState, f: Formation, order: FormationOrder, field: str
) -> None:
    """A repair order: engineers' work on a DropPort, or the pool that pays for a unit's."""
    if order.action == "repair" and order.target:
        # L219: engineers repair a destroyed DropPort (ruling T-EN1).
        engineering.check(state, s, f, order, field)
    elif order.action == "repair" and order.param("pool"):
        # The work itself is paid with 'mekref spend repair' and done on this day's order
        # (R-WHERE-6): a pool named here is only checked to hold the WP it names.
        pool = _pool_for(state, f.side_id, order, field)
        amount = _int_param(order, "wp", field)
        if amount > pool.balance:
            raise Refusal(
                "insufficient_wp",
                f"{field}.params.wp: {pool.name!r} holds {pool.balance} WP, not {amount}",
            )


def _check_not_under_repair(
    state: CampaignState, s: StrategicState, f: Formation, order: FormationOrder, field: str
) -> None:
    """A unit whose repair work runs into the day being ordered stays in its hex with its
    technicians: its formation cannot leave (L63-L64, ruling R-WHERE-5)."""
    busy = [(u, s.repair_ready[u]) for u in f.unit_ids if s.repair_ready.get(u, 0) >= s.day]
    if not busy:
        return
    names = "; ".join(
        f"{state.units[u].chassis} {state.units[u].model}".strip() + f" (work to day {d})"
        for u, d in busy
    )
    raise Refusal(
        "under_repair",
        f"{field}.action: {L63_HEX}: {f.formation_id} holds {names}, under repair on day "
        f"{s.day}; it cannot {order.action.replace('_', ' ')} until the work is done (split the "
        "unit off with 'mekref formation split' to move the rest) (R-WHERE-5)",
    )


def _on_map(s: StrategicState, target: str | None, field: str) -> bool:
    if target is None:
        return False
    h = to_hex(_parse(target, field))
    return h is not None and hexmap_of(s).in_bounds(h)


def _int_param(order: FormationOrder, name: str, field: str) -> int:
    raw = order.param(name, "0")
    if not raw.isdigit():
        raise Refusal("bad_param", f"{field}.params.{name}: a whole number, got {raw!r}")
    return int(raw)


def _pool_for(state: CampaignState, side_id: str, order: FormationOrder, field: str) -> Pool:
    # A location's pool belongs to whoever holds the location (control moves it): owning the
    # pool is the whole check.
    pool = state.pools.get(order.param("pool"))
    if pool is None or pool.side_id != side_id:
        raise Refusal("bad_param", f"{field}.params.pool: name a WarChest pool of {side_id!r}")
    return pool


def decide_submit(
    state: CampaignState, cmd: SubmitOrders, dice: Dice, rules: TripWire
) -> list[Event]:
    """Each order stands or falls on its own: the good ones are stored, the others come back
    refused with why (ruling T-O3). What is wrong with the whole submission (the day, the side,
    two orders for one formation) refuses it all, and so does a submission whose every order is
    refused (nothing would be stored)."""
    s = strategic_of(state)
    known_side(state, cmd.side_id, "side_id")
    _check_day(s, cmd.day)
    ids = [o.formation_id for o in cmd.orders]
    if len(set(ids)) != len(ids):
        raise Refusal("duplicate_order", "orders: one order per formation per day")
    accepted: list[FormationOrder] = []
    refused: list[tuple[FormationOrder, Refusal]] = []
    for i, order in enumerate(cmd.orders):
        try:
            _check_order(state, s, cmd.side_id, order, f"orders[{i}]")
        except Refusal as refusal:
            refused.append((order, refusal))
            continue
        path = tuple(label(parse_label(p)) for p in order.path)
        # The order as given when its path is already spelled as labels (always, for "rest"
        # and other orders without one): an equal copy would cost a dataclass replace per order.
        accepted.append(order if path == order.path else replace(order, path=path))
    if refused and not accepted:
        first = refused[0][1]
        if len(refused) == 1:
            raise first
        rest = "; ".join(r.message for _, r in refused[1:])
        raise Refusal(first.code, f"{first.message}; and {rest}", first.source)
    return [
        OrdersSubmitted(
            side_id=cmd.side_id,
            day=cmd.day,
            orders=tuple(accepted),
            actor=cmd.actor,
            refused=tuple(
                RefusedOrder(formation_id=o.formation_id, code=r.code, reason=_reason(r))
                for o, r in refused
            ),
        )
    ]


def _reason(refusal: Refusal) -> str:
    if refusal.source is None:
        return refusal.message
    return f"{refusal.message} (rule, line {refusal.source.line})"


def decide_withdraw(
    state: CampaignState, cmd: WithdrawOrders, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    _check_day(s, cmd.day)
    for i, fid in enumerate(cmd.formation_ids):
        own_formation(s, cmd.side_id, fid, f"formation_ids[{i}]")
    return [
        OrdersWithdrawn(
            side_id=cmd.side_id, day=cmd.day, formation_ids=cmd.formation_ids, actor=cmd.actor
        )
    ]


def _formation_id(order: FormationOrder) -> str:
    return order.formation_id


def evolve_submitted(state: CampaignState, e: OrdersSubmitted) -> CampaignState:
    s = strategic_of(state)
    # A side's orders are kept sorted by formation id, one each (this evolver and the
    # withdrawal keep them so): each new order takes its formation's place, found by bisection,
    # instead of every order of the side being rebuilt and sorted again for each submission.
    kept = list(s.orders.get(e.side_id, ()))
    for order in e.orders:
        i = bisect_left(kept, order.formation_id, key=_formation_id)
        if i < len(kept) and kept[i].formation_id == order.formation_id:
            kept[i] = order
        else:
            kept.insert(i, order)
    orders = {**s.orders, e.side_id: tuple(kept)}
    return copy_with(state, strategic=copy_with(s, orders=orders))


def evolve_withdrawn(state: CampaignState, e: OrdersWithdrawn) -> CampaignState:
    s = strategic_of(state)
    gone = set(e.formation_ids)
    left = tuple(o for o in s.orders.get(e.side_id, ()) if o.formation_id not in gone)
    return replace(state, strategic=replace(s, orders={**s.orders, e.side_id: left}))
