"""OrdersService: a side's secret orders for the day, and the referee's turn resolution.

The side always comes from the token (a side token may only name its own side); the rules
engine validates every order and answers for unknown and foreign formations alike, so a
refusal never tells a side whether an enemy formation exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mekref.daemon.grpc.errors import FieldViolation, invalid, violations_error
from mekref.daemon.grpc.services.base import Context, Services, referee_caller, rpc, side_caller
from mekref.daemon.tripwire.grpc_guard import check_tripwire, require_tripwire
from mekref.rules.tripwire.turn import orders
from mekref.rules.tripwire.turn.events import OrdersSubmitted
from mekref.rules.tripwire.turn.route import plan_route
from mekref.v1 import orders_pb2, orders_pb2_grpc

MAX_ORDERS = 200
MAX_PATH = 64
MAX_TEXT = 200


def add_orders(into: Any, given: Iterable[Any]) -> None:
    """Append each order to the repeated ``FormationOrder`` field ``into``.

    Built in place (no message copied into the response), and an empty path or parameter
    map is left unset, which is the same message. SubmitOrders sends back only the orders it
    stored, unless asked for the side's whole list (work that grows with the side's orders)."""
    for order in given:
        message = into.add(formation_id=order.formation_id, action=order.action)
        if order.path:
            message.path.extend(order.path)
        if order.params:
            message.params.update(order.params)
        if order.target is not None:
            message.target = order.target


def _check_orders(request: orders_pb2.SubmitOrdersRequest) -> None:
    problems: list[FieldViolation] = []
    if not request.orders:
        problems.append(FieldViolation("orders", "give at least one order"))
    if len(request.orders) > MAX_ORDERS:
        problems.append(FieldViolation("orders", f"at most {MAX_ORDERS} orders at once"))
    for i, order in enumerate(request.orders):
        where = f"orders[{i}]"
        if not order.formation_id:
            problems.append(FieldViolation(f"{where}.formation_id", "name the formation"))
        if not order.action:
            problems.append(FieldViolation(f"{where}.action", "name the action"))
        if len(order.path) > MAX_PATH:
            problems.append(FieldViolation(f"{where}.path", f"at most {MAX_PATH} steps"))
        texts = [order.formation_id, order.action, order.target, *order.path]
        if order.params:  # reading an empty map still costs: most orders have none
            texts += [*order.params.keys(), *order.params.values()]
        if any(len(t) > MAX_TEXT for t in texts):
            problems.append(FieldViolation(where, f"values are at most {MAX_TEXT} characters"))
    if problems:
        raise violations_error(problems)


class OrdersServicer(orders_pb2_grpc.OrdersServiceServicer):
    def __init__(self, services: Services) -> None:
        self.s = services

    @rpc
    async def SubmitOrders(
        self, request: orders_pb2.SubmitOrdersRequest, context: Context
    ) -> orders_pb2.SubmitOrdersResponse:
        cid, principal, side_id = side_caller(request)
        _check_orders(request)
        await check_tripwire(self.s, context, cid, "SubmitOrders")
        command = orders.SubmitOrders(
            actor=principal.actor,
            side_id=side_id,
            day=request.day,
            orders=tuple(
                orders.FormationOrder(
                    formation_id=o.formation_id,
                    action=o.action,
                    path=tuple(o.path),
                    target=o.target if o.HasField("target") else None,
                    params=tuple(sorted(o.params.items())) if o.params else (),
                )
                for o in request.orders
            ),
        )

        executed = await self.s.execute(context, cid, command)
        stored = next(e for e in executed.events if isinstance(e, OrdersSubmitted))
        response = orders_pb2.SubmitOrdersResponse(last_seq=executed.last_seq)
        add_orders(response.stored, stored.orders)
        if request.include_side_orders:
            add_orders(response.orders, orders.orders_of(executed.state, side_id))
        for r in stored.refused:
            response.refused.add(formation_id=r.formation_id, code=r.code, reason=r.reason)
        return response

    @rpc
    async def WithdrawOrders(
        self, request: orders_pb2.WithdrawOrdersRequest, context: Context
    ) -> orders_pb2.WithdrawOrdersResponse:
        cid, principal, side_id = side_caller(request)
        if not request.formation_ids:
            raise invalid("formation_ids", "name at least one formation")
        await check_tripwire(self.s, context, cid, "WithdrawOrders")
        command = orders.WithdrawOrders(
            actor=principal.actor,
            side_id=side_id,
            day=request.day,
            formation_ids=tuple(request.formation_ids),
        )

        executed = await self.s.execute(context, cid, command)
        response = orders_pb2.WithdrawOrdersResponse(last_seq=executed.last_seq)
        add_orders(response.orders, orders.orders_of(executed.state, side_id))
        return response

    @rpc
    async def ListOrders(
        self, request: orders_pb2.ListOrdersRequest, context: Context
    ) -> orders_pb2.ListOrdersResponse:
        cid, _, side_id = side_caller(request)

        def listing() -> orders_pb2.ListOrdersResponse:
            require_tripwire(self.s, cid, "ListOrders")
            loaded = self.s.runner.load(cid)
            if side_id not in loaded.state.sides:
                raise invalid("side_id", "no such side in this campaign", "unknown_side")
            response = orders_pb2.ListOrdersResponse(last_seq=loaded.last_seq)
            add_orders(response.orders, orders.orders_of(loaded.state, side_id))
            return response

        return await self.s.run(context, listing)

    @rpc
    async def ResolveTurn(
        self, request: orders_pb2.ResolveTurnRequest, context: Context
    ) -> orders_pb2.ResolveTurnResponse:
        cid, principal = referee_caller(request)
        await check_tripwire(self.s, context, cid, "ResolveTurn")
        command = orders.ResolveTurn(actor=principal.actor, day=request.day)

        executed = await self.s.execute(context, cid, command)
        return orders_pb2.ResolveTurnResponse(
            first_seq=executed.first_seq,
            last_seq=executed.last_seq,
            event_types=[type(e).TYPE for e in executed.events],
        )

    @rpc
    async def PlanRoute(
        self, request: orders_pb2.PlanRouteRequest, context: Context
    ) -> orders_pb2.PlanRouteResponse:
        cid, _, side_id = side_caller(request)
        if not request.formation_id:
            raise invalid("formation_id", "name the formation")
        if not request.to_hex or len(request.to_hex) > MAX_TEXT:
            raise invalid("to_hex", "name the hex to reach, e.g. 1210")

        def plan() -> orders_pb2.PlanRouteResponse:
            require_tripwire(self.s, cid, "PlanRoute")
            state = self.s.runner.load(cid).state
            found = plan_route(
                state,
                side_id,
                request.formation_id,
                request.to_hex,
                forced_march=request.forced_march,
                extra_hours=request.extra_hours,
            )
            params = {"extra_hours": str(found.extra_hours)} if found.extra_hours else {}
            return orders_pb2.PlanRouteResponse(
                formation_id=found.formation_id,
                start_hex=found.start,
                goal_hex=found.goal,
                path=list(found.path),
                cost_mp=found.cost_mp,
                today_path=list(found.today),
                mp_per_day=found.mp_per_day,
                todays_order=orders_pb2.FormationOrder(
                    formation_id=found.formation_id,
                    action=found.action,
                    path=list(found.today),
                    params=params,
                ),
            )

        return await self.s.run(context, plan)
