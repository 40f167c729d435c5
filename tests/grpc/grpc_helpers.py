"""A real server on a loopback port, real clients, and a small two-sided campaign to play with."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from mekref.daemon.app import App
from mekref.daemon.config import ServeConfig
from mekref.daemon.grpc.server import GrpcServer, ServerOptions
from mekref.daemon.grpc.tokens import Role, TokenStore
from mekref.daemon.store import EventStore
from mekref.rules.messages import Command, RefereeNote
from mekref.rules.tripwire.commands import (
    CreateCampaign,
    CreditPool,
    ImportForce,
    OpenPool,
    SideSpec,
)
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
)
from mekref.rules.tripwire.state import PoolKind
from mekref.v1 import (
    battle_pb2_grpc,
    campaign_pb2,
    campaign_pb2_grpc,
    diagnostics_pb2_grpc,
    event_pb2_grpc,
    orders_pb2_grpc,
    rules_pb2_grpc,
)

SIDES = ("davion", "liao")


@dataclass
class Stubs:
    channel: grpc.Channel
    token: str
    campaigns: campaign_pb2_grpc.CampaignServiceStub = field(init=False)
    orders: orders_pb2_grpc.OrdersServiceStub = field(init=False)
    battles: battle_pb2_grpc.BattleServiceStub = field(init=False)
    events: event_pb2_grpc.EventServiceStub = field(init=False)
    diagnostics: diagnostics_pb2_grpc.DiagnosticsServiceStub = field(init=False)
    rules: rules_pb2_grpc.RulesServiceStub = field(init=False)
    #: Send "mekref-legacy-json: 1": the suites below compare the deprecated JSON-text fields
    #: (the same values as the typed ones); test_grpc_legacy_json checks calls without it.
    legacy_json: bool = True

    def __post_init__(self) -> None:
        self.rules = rules_pb2_grpc.RulesServiceStub(self.channel)
        self.campaigns = campaign_pb2_grpc.CampaignServiceStub(self.channel)
        self.orders = orders_pb2_grpc.OrdersServiceStub(self.channel)
        self.battles = battle_pb2_grpc.BattleServiceStub(self.channel)
        self.events = event_pb2_grpc.EventServiceStub(self.channel)
        self.diagnostics = diagnostics_pb2_grpc.DiagnosticsServiceStub(self.channel)

    @property
    def md(self) -> tuple[tuple[str, str], ...]:
        auth = ("authorization", f"Bearer {self.token}")
        return (auth, ("mekref-legacy-json", "1")) if self.legacy_json else (auth,)

    def close(self) -> None:
        self.channel.close()


@dataclass
class Running:
    server: GrpcServer
    store: EventStore
    tokens: TokenStore
    port: int
    campaign_id: str
    referee: str
    side_tokens: dict[str, str]
    pools: dict[str, str]
    _open: list[Stubs] = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self, token: str, **options: Any) -> Stubs:
        channel = grpc.insecure_channel(self.target, options=list(options.items()))
        stubs = Stubs(channel, token)
        self._open.append(stubs)
        return stubs

    def as_referee(self) -> Stubs:
        return self.client(self.referee)

    def as_side(self, side: str) -> Stubs:
        return self.client(self.side_tokens[side])

    def execute(self, command: Command) -> None:
        self.server.services.runner.execute(self.campaign_id, command)

    def close(self) -> None:
        for stubs in self._open:
            stubs.close()


def force(side: str) -> ForceDescription:
    crew = CrewSkills(person_id=str(uuid.uuid4()), name=f"{side} pilot", gunnery=4, piloting=5)
    unit = ForceUnit(
        unit_id=str(uuid.uuid4()),
        chassis="Locust",
        model="LCT-1V",
        kind=UnitKind.MEK,
        tonnage=Fraction(20),
        bv=432,
        crew=(crew,),
    )
    return ForceDescription(
        companies=(
            Company(
                name=f"{side} company",
                role=CompanyRole.MEK_COMPANY,
                lances=(Lance(name="Command", units=(unit,)),),
            ),
        )
    )


def seed_campaign(server: GrpcServer) -> tuple[str, dict[str, str]]:
    """A campaign with two sides, each with one unit, one pilot and a credited DropShip pool."""
    runner = server.services.runner
    created = runner.create(
        CreateCampaign(
            actor="test",
            name="Operation TripWire",
            ruleset="tripwire",
            seed="secret-seed-42",
            sides=tuple(SideSpec(side_id=s, name=s.title()) for s in SIDES),
        )
    )
    cid = created.campaign_id
    pools: dict[str, str] = {}
    for side in SIDES:
        runner.execute(
            cid,
            ImportForce(
                actor="test",
                side_id=side,
                force=force(side),
                accept_unchecked=RefereeNote(referee="test", reason="a small test force"),
            ),
        )
        pool_id = f"{side}-union"
        pools[side] = pool_id
        runner.execute(
            cid,
            OpenPool(
                actor="test",
                pool_id=pool_id,
                side_id=side,
                name=f"{side.title()} Union",
                kind=PoolKind.DROPSHIP,
                dropship_class="Union",
                opening_balance=100,
            ),
        )
        runner.execute(
            cid, CreditPool(actor="test", pool_id=pool_id, amount=7, reason=f"{side} loot")
        )
    return cid, pools


def api_server(
    app: App, address: str = "127.0.0.1:0", *, tls: Any = None, **options: Any
) -> GrpcServer:
    """The API on ``app``'s store, runner and pipeline (as ``mekref serve --grpc`` builds it)."""
    defaults: dict[str, Any] = {"stream_poll_seconds": 0.2, "stream_write_timeout": 5.0}
    defaults.update(options)
    return GrpcServer(app.pipeline, app.tokens, address, tls=tls, options=ServerOptions(**defaults))


def open_test_app(db: Path | str, quarantine: Path | None = None) -> App:
    from mekref.daemon.store import open_store

    config = ServeConfig(db=str(db), quarantine=quarantine)
    return App(config, open_store(str(db)))


def start(db: Path | str, **options: Any) -> Running:
    """A server on a fresh database: a SQLite path, or a postgresql:// URL."""
    app = open_test_app(db, options.pop("quarantine", None))
    server = api_server(app, **options)
    store, tokens = app.store, app.tokens
    port = server.start()
    cid, pools = seed_campaign(server)
    referee = tokens.issue(Role.REFEREE, label="test referee").secret
    sides = {s: tokens.issue(Role.SIDE, campaign_id=cid, side_id=s, label=s).secret for s in SIDES}
    return Running(server, store, tokens, port, cid, referee, sides, pools)


def stop(running: Running, grace: float = 1.0) -> None:
    running.close()
    running.server.stop(grace)
    running.store.close()


def status_of(error: grpc.RpcError) -> Any:
    return rpc_status.from_call(error)  # type: ignore[arg-type]


def field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    status = status_of(error)
    found: list[tuple[str, str]] = []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            found += [(v.field, v.description) for v in bad.field_violations]
    return found


def error_info(error: grpc.RpcError) -> Any:
    status = status_of(error)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return error_details_pb2.ErrorInfo()


def reason_of(error: grpc.RpcError) -> str:
    return str(error_info(error).reason)


def iterate(stream: Iterator[Any], count: int) -> list[Any]:
    out = []
    for item in stream:
        out.append(item)
        if len(out) == count:
            break
    return out


def house_rules_campaign(ref: Stubs, name: str, house_rules: bool = True) -> str:
    """A new TripWire campaign with the house rules (Kurita against Steiner; without them when
    ``house_rules`` is False), made by the referee's client ``ref``; its id."""
    made = ref.campaigns.CreateCampaign(
        campaign_pb2.CreateCampaignRequest(
            name=name,
            ruleset="tripwire",
            sides=[
                campaign_pb2.SideSpec(side_id="kurita", name="Kurita"),
                campaign_pb2.SideSpec(side_id="steiner", name="Steiner"),
            ],
            house_rules=house_rules,
        ),
        metadata=ref.md,
    )
    return str(made.campaign.campaign_id)


@contextmanager
def console_serve(db: str) -> Iterator[int]:
    """``mekref serve --db DB --grpc 127.0.0.1:0`` in a new process of the installed console
    script, as a user starts it: its port, once it listens; stopped (SIGTERM) after."""
    from console_script import MEKREF

    proc = subprocess.Popen(
        [str(MEKREF), "serve", "--db", db, "--grpc", "127.0.0.1:0", "--log-format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), proc.stderr and proc.stderr.read()
        yield int(line.rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
