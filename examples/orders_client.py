"""A small mekref API client: submit a formation's orders, then follow the event stream.

    python examples/orders_client.py --token $TOKEN --campaign $CID whoami
    python examples/orders_client.py --token $TOKEN --campaign $CID view
    python examples/orders_client.py --token $TOKEN --campaign $CID submit alpha move 0607 0707
    python examples/orders_client.py --token $TOKEN --campaign $CID orders
    python examples/orders_client.py --token $TOKEN --campaign $CID follow --after 0

It needs mekref-client (pip install ./clients/api ./clients/python): mekref.client.connect
sends the token with every call and speaks TLS, mekref.client.explain prints a refusal.
The token comes from 'mekref token create' (or the MEKREF_TOKEN environment variable). Orders
are validated by the server; a refusal prints the field the rules objected to. 'follow'
resumes by itself after a disconnect, a server restart or a RESOURCE_EXHAUSTED from reading
too slowly, from the last sequence number it printed, so it never misses or repeats an event.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import grpc
from google.protobuf import text_format

from mekref.client import connect, explain
from mekref.v1 import (
    campaign_pb2,
    campaign_pb2_grpc,
    diagnostics_pb2,
    diagnostics_pb2_grpc,
    event_pb2,
    event_pb2_grpc,
    orders_pb2,
    orders_pb2_grpc,
    rulesets_pb2,
)

RETRY_CODES = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED,
)


def _one_line(event: rulesets_pb2.RuleSetEvent) -> str:
    """The typed event's fields on one line (the rule set and the event's type left out)."""
    ruleset = event.WhichOneof("rule_set")
    if ruleset is None:
        return ""
    inner = getattr(event, ruleset)
    member = inner.WhichOneof("event")
    return text_format.MessageToString(getattr(inner, member), as_one_line=True) if member else ""


def _where(formation: object) -> str:
    """Where a formation of the side view stands: "at 0607" on the map, or off it (hex "") in
    orbit: "in geostationary orbit over 1105", "in low planetary orbit over 1105" (its orbit
    field, L210), or "in orbit" (at the pirate point, or no orbit named yet)."""
    hex_ = getattr(formation, "hex", "")
    if hex_:
        return f"at {hex_}"
    kind, _, over = str(getattr(formation, "orbit", "")).partition(":")
    if not over:
        return "in orbit"
    named = "geostationary orbit" if kind == "geostationary" else "low planetary orbit"
    return f"in {named} over {over}"


def follow(
    ch: grpc.Channel, md: tuple[tuple[str, str], ...], cid: str, after: int, limit: int
) -> int:
    stub = event_pb2_grpc.EventServiceStub(ch)
    printed = 0
    while True:
        request = event_pb2.SubscribeEventsRequest(campaign_id=cid, after_seq=after)
        try:
            for answer in stub.SubscribeEvents(request, metadata=md):
                event = answer.event
                if event.seq <= after:
                    continue  # a repeat after a resume: already printed
                fields = _one_line(event.event)
                print(f"{event.seq:>6}  {event.type:<24} {fields}", flush=True)
                after = event.seq
                printed += 1
                if limit and printed >= limit:
                    return 0
        except grpc.RpcError as error:
            if error.code() not in RETRY_CODES:
                print(explain(error), file=sys.stderr)
                return 1
            print(f"# {error.code().name}; resuming after seq {after}", file=sys.stderr)
            time.sleep(1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", default="127.0.0.1:50051", help="server HOST:PORT")
    parser.add_argument("--token", default=os.environ.get("MEKREF_TOKEN"), help="bearer token")
    parser.add_argument("--campaign", required=True, help="campaign UUID")
    parser.add_argument("--ca-cert", type=Path, help="PEM CA certificate: use TLS")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("whoami", help="what the token speaks for")
    sub.add_parser("view", help="your side's units, people, pools and formations")
    submit = sub.add_parser("submit", help="give one formation its order for the day")
    submit.add_argument("formation")
    submit.add_argument("action")
    submit.add_argument("path", nargs="*", help="hexes entered, for move / forced_march")
    submit.add_argument("--target-hex", help="target hex, location or formation")
    submit.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    submit.add_argument("--day", type=int, help="the day (default: the campaign's current day)")
    sub.add_parser("orders", help="your side's orders for the day")
    watch = sub.add_parser("follow", help="print events as they happen")
    watch.add_argument("--after", type=int, default=0, help="start after this seq")
    watch.add_argument("--limit", type=int, default=0, help="stop after this many events")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set MEKREF_TOKEN")
    md: tuple[tuple[str, str], ...] = ()  # connect() sends the token with every call
    ch = connect(args.target, args.token, ca_cert=args.ca_cert)
    cid = args.campaign
    try:
        if args.command == "whoami":
            me = diagnostics_pb2_grpc.DiagnosticsServiceStub(ch).WhoAmI(
                diagnostics_pb2.WhoAmIRequest(), metadata=md, timeout=10
            )
            print(me)
        elif args.command == "view":
            view = campaign_pb2_grpc.CampaignServiceStub(ch).GetSideView(
                campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=md, timeout=10
            )
            print(f"side {view.side_id} as of seq {view.last_seq}")
            for unit in view.units:
                print(f"  unit {unit.unit_id}: {unit.chassis} {unit.model}")
            for pool in view.pools:
                print(f"  pool {pool.pool_id}: {pool.balance} WP")
            side = view.side_view
            print(f"  day {side.day}: {len(side.formations)} formations, {len(side.orders)} orders")
            for formation in side.formations:
                print(f"  formation {formation.formation_id} {_where(formation)}")
        elif args.command == "submit":
            day = args.day
            if day is None:
                view = campaign_pb2_grpc.CampaignServiceStub(ch).GetSideView(
                    campaign_pb2.GetSideViewRequest(campaign_id=cid), metadata=md, timeout=10
                )
                if not view.HasField("side_view"):
                    print("no TripWire side view in this campaign: give --day", file=sys.stderr)
                    return 1
                day = view.side_view.day
            order = orders_pb2.FormationOrder(
                formation_id=args.formation,
                action=args.action,
                path=args.path,
                params=dict(p.split("=", 1) for p in args.param),
            )
            if args.target_hex:
                order.target = args.target_hex
            done = orders_pb2_grpc.OrdersServiceStub(ch).SubmitOrders(
                orders_pb2.SubmitOrdersRequest(campaign_id=cid, day=day, orders=[order]),
                metadata=md,
                timeout=10,
            )
            print(f"accepted at seq {done.last_seq}; stored for day {day}:")
            for o in done.stored:
                print(f"  {o.formation_id}: {o.action} {' '.join(o.path)}".rstrip())
        elif args.command == "orders":
            listed = orders_pb2_grpc.OrdersServiceStub(ch).ListOrders(
                orders_pb2.ListOrdersRequest(campaign_id=cid), metadata=md, timeout=10
            )
            for o in listed.orders:
                print(f"{o.formation_id}: {o.action} {' '.join(o.path)}".rstrip())
        else:
            return follow(ch, md, cid, args.after, args.limit)
    except grpc.RpcError as error:
        print(explain(error), file=sys.stderr)
        return 1
    finally:
        ch.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
