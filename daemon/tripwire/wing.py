"""The TripWire wing as the composition root registers it (:mod:`mekref.daemon.wings`): its
report for ``mekref game report``, its gRPC servicers and the extra types they send. TripWire's
own CLI commands are named in ``mekref.daemon.cli.COMMANDS``.
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.wing import Wing


def _report(args: argparse.Namespace) -> int:
    from mekref.daemon.tripwire import cli_report

    args.overview = False  # `game report` prints the books; `report --overview` the page
    return cli_report.run(args)


def _campaign(services: Any) -> object:
    from mekref.daemon.tripwire.grpc_campaign import TripwireCampaignServicer

    return TripwireCampaignServicer(services)


def _battle(services: Any) -> object:
    from mekref.daemon.tripwire.grpc_battle import TripwireBattleServicer

    return TripwireBattleServicer(services)


def _orders(services: Any) -> object:
    from mekref.daemon.tripwire.grpc_orders import OrdersServicer

    return OrdersServicer(services)


def _proto_roots() -> tuple[type, ...]:
    from mekref.daemon.tripwire.grpc_reports import BattleReport
    from mekref.rules.tripwire.battle_pending import PendingBattle
    from mekref.rules.tripwire.turn.side_overview import Overview

    return (BattleReport, PendingBattle, Overview)


def _web_pages() -> object:
    from mekref.daemon.tripwire.web import pages

    return pages()


WING = Wing(
    ruleset="tripwire",
    report=_report,
    servicers={
        "mekref.v1.CampaignService": _campaign,
        "mekref.v1.BattleService": _battle,
        "mekref.v1.OrdersService": _orders,
    },
    proto_roots=_proto_roots,
    web_pages=_web_pages,
)
