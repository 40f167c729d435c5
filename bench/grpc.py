"""``python -m bench.grpc``: SubmitOrders against a bare grpcio echo, by server CPU per call.

One run starts two servers, each in its own process on a loopback port: the anchor, a bare
grpcio echo (``python -m bench.grpc_echo``: a plain ``grpc.aio`` server, no interceptors, no
authentication), and the API server (``python -m mekref.daemon.grpc``) over a fresh SQLite
campaign with one formation per client. This process drives both with the same N concurrent
clients (asyncio, one channel each per server). After a warm-up of each, every round runs the
bare echo, mekref's authenticated Echo, then SubmitOrders (each client re-submits its
formation's order: read state, validate by the rules, append one event with a durable
commit). The clients share the machine's cores with the servers, so calls per second say as
much about the clients as the server; the measure is the server process's own CPU time per
call (``/proc``), taken per round, and the ratio bare echo / SubmitOrders (goal: >= 0.5) is
given as the median of the rounds with their range. Only the loopback address is used; the run is
bounded in time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import grpc
from grpc import aio

from bench import summary
from bench.stats import spread
from mekref.daemon.grpc.tokens import Role
from mekref.daemon.open_app import app_config, opened_app
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
)
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility
from mekref.v1 import diagnostics_pb2, diagnostics_pb2_grpc, orders_pb2, orders_pb2_grpc

SIDES = ("loyalist", "rebel")  # the Ginestra sample map: loyalists defend, rebels attack
#: On-map hexes of the sample map for the defender's formations (any in bounds will do).
DEFENDER_HEXES = ("0508", "0610", "0607", "0707")


@dataclass(frozen=True)
class Setup:
    db: Path
    campaign_id: str
    tokens: dict[str, str]  # side -> token
    formations: dict[str, tuple[str, ...]]  # side -> formation ids


def _unit(side: str, i: int) -> ForceUnit:
    uid = f"{side}-{i:03d}"
    return ForceUnit(
        unit_id=uid,
        chassis="Locust",
        model="LCT-1V",
        kind=UnitKind.MEK,
        tonnage=Fraction(20),
        bv=432,
        crew=(CrewSkills(person_id=f"p-{uid}", name=f"Pilot {uid}", gunnery=4, piloting=5),),
    )


def build_campaign(folder: Path, per_side: int) -> Setup:
    db = folder / "bench.db"
    note = RefereeNote(referee="bench", reason="benchmark force")
    units = {s: [_unit(s, i) for i in range(per_side)] for s in SIDES}
    with opened_app(app_config({"db": str(db)}, layered=False)) as app:
        tokens, runner = app.tokens, app.runner
        cid = runner.create(
            CreateCampaign(
                actor="bench",
                name="Bench",
                ruleset="tripwire",
                seed="bench",
                sides=tuple(SideSpec(side_id=s, name=s.title()) for s in SIDES),
            )
        ).campaign_id
        for side in SIDES:
            lances = tuple(
                Lance(name=f"L{j}", units=tuple(units[side][j : j + 4]))
                for j in range(0, per_side, 4)
            )
            force = ForceDescription(
                companies=(Company(name=side, role=CompanyRole.MEK_COMPANY, lances=lances),)
            )
            runner.execute(
                cid, ImportForce(actor="bench", side_id=side, force=force, accept_unchecked=note)
            )
        mobility = tuple(
            UnitMobility(unit_id=u.unit_id, walk_mp=5, mode="leg")
            for side in SIDES
            for u in units[side]
        )
        runner.execute(
            cid,
            StartStrategicMap(
                actor="bench",
                map_name="ginestra",
                attacker="rebel",
                defender="loyalist",
                mobility=mobility,
            ),
        )
        formations: dict[str, tuple[str, ...]] = {}
        for side in SIDES:
            specs = tuple(
                FormationSpec(
                    formation_id=f"{side}-f{i:03d}",
                    name=f"{side} {i}",
                    unit_ids=(u.unit_id,),
                    hex=DEFENDER_HEXES[i % len(DEFENDER_HEXES)] if side == "loyalist" else "",
                )
                for i, u in enumerate(units[side])
            )
            runner.execute(
                cid, PlaceFormations(actor="bench", side_id=side, day=1, formations=specs)
            )
            formations[side] = tuple(s.formation_id for s in specs)
        side_tokens = {
            s: tokens.issue(Role.SIDE, campaign_id=cid, side_id=s, label="bench").secret
            for s in SIDES
        }
    return Setup(db, cid, side_tokens, formations)


@dataclass(frozen=True)
class Result:
    name: str
    clients: int
    calls: int
    errors: int
    seconds: float
    latencies: list[float]
    server_cpu: float = 0.0  # CPU seconds the server process used during the phase

    @property
    def rate(self) -> float:
        return self.calls / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def _drive(
    name: str,
    clients: int,
    seconds: float,
    make: Callable[[int], Callable[[], Awaitable[object]]],
    server_pid: int = 0,
) -> Result:
    latencies: list[float] = []
    errors = 0
    stop_at = time.perf_counter() + seconds
    began = time.perf_counter()

    async def client(i: int) -> None:
        nonlocal errors
        call = make(i)
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            try:
                await call()
            except grpc.RpcError:
                errors += 1
                continue
            latencies.append(time.perf_counter() - t0)

    cpu_before = cpu_seconds(server_pid)
    await asyncio.gather(*(client(i) for i in range(clients)))
    cpu = cpu_seconds(server_pid) - cpu_before
    return Result(
        name, clients, len(latencies), errors, time.perf_counter() - began, latencies, cpu
    )


def merge(parts: list[Result]) -> Result:
    return Result(
        parts[0].name,
        parts[0].clients,
        sum(p.calls for p in parts),
        sum(p.errors for p in parts),
        sum(p.seconds for p in parts),
        [x for p in parts for x in p.latencies],
        sum(p.server_cpu for p in parts),
    )


#: The phase run against an older mekref (``--compare-with``), beside this one's.
BEFORE = "SubmitOrders, before"


@dataclass(frozen=True)
class Rounds:
    """Every phase of every round, by RPC; the figures are taken per round, then min/median."""

    by_name: dict[str, list[Result]]

    def cpu_per_call(self, name: str) -> list[float]:
        """Server CPU milliseconds per call, one figure per round."""
        return [r.server_cpu * 1000 / max(r.calls, 1) for r in self.by_name[name]]

    def ratios(self) -> list[float]:
        """Bare echo's server CPU per call over SubmitOrders', per round (goal: >= 0.5)."""
        return [
            bare / orders if orders else 0.0
            for bare, orders in zip(
                self.cpu_per_call("bare Echo"), self.cpu_per_call("SubmitOrders"), strict=True
            )
        ]

    def merged(self) -> list[Result]:
        return [merge(parts) for parts in self.by_name.values()]


async def _run(
    servers: dict[str, tuple[str, int]],
    setup: Setup,
    clients: int,
    seconds: float,
    rounds: int,
) -> Rounds:
    """``servers``: address and process id by role: ``bare``, ``mekref`` and, to compare,
    ``before`` (an older mekref over a copy of the same campaign)."""
    open_channels = {
        role: [aio.insecure_channel(target) for _ in range(clients)]
        for role, (target, _) in servers.items()
    }
    bare_channels, channels = open_channels["bare"], open_channels["mekref"]
    payload = b"x" * 64
    try:

        def bare_echo(i: int) -> Callable[[], Awaitable[object]]:
            stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(bare_channels[i])
            request = diagnostics_pb2.EchoRequest(payload=payload)
            return lambda: stub.Echo(request, timeout=30)

        def echo(i: int) -> Callable[[], Awaitable[object]]:
            stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channels[i])
            side = SIDES[i % 2]
            md = (("authorization", f"Bearer {setup.tokens[side]}"),)
            request = diagnostics_pb2.EchoRequest(payload=payload)
            return lambda: stub.Echo(request, metadata=md, timeout=30)

        def orders_on(role: str) -> Callable[[int], Callable[[], Awaitable[object]]]:
            return lambda i: orders(i, open_channels[role])

        def orders(i: int, on: list[aio.Channel]) -> Callable[[], Awaitable[object]]:
            stub = orders_pb2_grpc.OrdersServiceStub(on[i])
            side = SIDES[i % 2]
            formation = setup.formations[side][i // 2]
            md = (("authorization", f"Bearer {setup.tokens[side]}"),)
            request = orders_pb2.SubmitOrdersRequest(
                campaign_id=setup.campaign_id,
                day=1,
                orders=[orders_pb2.FormationOrder(formation_id=formation, action="rest")],
            )
            return lambda: stub.SubmitOrders(request, metadata=md, timeout=30)

        phases = [
            ("bare Echo", bare_echo, servers["bare"][1]),
            ("Echo", echo, servers["mekref"][1]),
            ("SubmitOrders", orders_on("mekref"), servers["mekref"][1]),
        ]
        if "before" in servers:
            phases.append((BEFORE, orders_on("before"), servers["before"][1]))
        for _name, make, _pid in phases:  # warm-up: connections, caches, the campaign loaded
            await _drive("warm-up", clients, 1.0, make)
        # Alternate short phases: a shared machine's load then weighs on every RPC alike.
        runs: dict[str, list[Result]] = {name: [] for name, _, _ in phases}
        for _ in range(rounds):
            for name, make, pid in phases:
                runs[name].append(await _drive(name, clients, seconds / rounds, make, pid))
        return Rounds(runs)
    finally:
        for group in open_channels.values():
            for channel in group:
                await channel.close()


def _rounds(values: list[float], fmt: str = ".2f") -> str:
    """The median of the rounds and their range."""
    return spread(values, fmt)


def markdown(rounds: Rounds) -> str:
    lines = [
        "| RPC | server | clients | calls | errors | calls/s | p50 ms | p99 ms "
        "| server CPU ms/call, median of rounds (range) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    servers = {
        "bare Echo": "bare grpcio",
        "Echo": "mekref (auth)",
        "SubmitOrders": "mekref",
        BEFORE: "older mekref",
    }
    for r in rounds.merged():
        lines.append(
            f"| {r.name} | {servers[r.name]} | {r.clients} | {r.calls} | {r.errors} "
            f"| {r.rate:,.0f} | {r.percentile(0.50):.1f} | {r.percentile(0.99):.1f} "
            f"| {_rounds(rounds.cpu_per_call(r.name))} |"
        )
    ratios = rounds.ratios()
    orders = merge(rounds.by_name["SubmitOrders"])
    lines.append("")
    lines.append(
        f"SubmitOrders at {_rounds(ratios)} (median of {len(ratios)} rounds, range) of the bare "
        f"echo by server CPU per call (goal: at least 0.5); mean orders latency "
        f"{statistics.fmean(orders.latencies) * 1000:.1f} ms."
    )
    if BEFORE in rounds.by_name:
        before = rounds.cpu_per_call(BEFORE)
        now = rounds.cpu_per_call("SubmitOrders")
        bare = rounds.cpu_per_call("bare Echo")
        older = [b / o if o else 0.0 for b, o in zip(bare, before, strict=True)]
        lines.append(
            f"Before/after in this run: SubmitOrders server CPU {_rounds(before)} ms/call "
            f"before, {_rounds(now)} now (median, range); the older code at "
            f"{_rounds(older)} of the bare echo."
        )
    return "\n".join(lines)


def _start(
    command: list[str], name: str, pythonpath: Path | None = None
) -> tuple[subprocess.Popen[str], str]:
    """Start a server that prints ``listening on HOST:PORT``; its process and address."""
    env = {**os.environ}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(pythonpath), env.get("PYTHONPATH"))))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("listening on 127.0.0.1:"):
        process.terminate()
        process.wait(timeout=30)
        raise SystemExit(f"the {name} did not start: {line!r}")
    return process, line.removeprefix("listening on ")


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.grpc", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--clients", type=int, default=64, help="concurrent clients (default 64)")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="seconds per RPC, split over the rounds"
    )
    parser.add_argument("--rounds", type=int, default=5, help="alternating phases per RPC")
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="also run SubmitOrders, in the same rounds, on an older mekref: DIR holds its "
        "'mekref' package (put first on PYTHONPATH), served over a copy of the same campaign",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    if args.clients < 2 or args.clients % 2:
        parser.error("--clients must be an even number of at least 2 (half per side)")
    if args.compare_with is not None and not (args.compare_with / "mekref").is_dir():
        parser.error(f"--compare-with: no 'mekref' package in {args.compare_with}")
    with tempfile.TemporaryDirectory(prefix="mekref-bench-grpc-") as tmp, ExitStack() as stack:
        setup = build_campaign(Path(tmp), args.clients // 2)
        serve = [sys.executable, "-m", "mekref.daemon.grpc", "--grpc", "127.0.0.1:0", "--db"]
        started = {
            "bare": _start(
                [sys.executable, "-m", "bench.grpc_echo", "--address", "127.0.0.1:0"],
                "bare grpcio echo server",
            )
        }
        stack.callback(_stop, started["bare"][0])
        if args.compare_with is not None:
            copy = Path(tmp) / "before.db"
            shutil.copyfile(setup.db, copy)
            started["before"] = _start(
                [*serve, str(copy)], "older mekref server", pythonpath=args.compare_with
            )
            stack.callback(_stop, started["before"][0])
        started["mekref"] = _start([*serve, str(setup.db)], "mekref server")
        stack.callback(_stop, started["mekref"][0])
        servers = {role: (target, process.pid) for role, (process, target) in started.items()}
        rounds = asyncio.run(_run(servers, setup, args.clients, args.seconds, args.rounds))
    bare_echo, _echo, orders, *_ = rounds.merged()
    bare_cpu = rounds.cpu_per_call("bare Echo")
    orders_cpu = rounds.cpu_per_call("SubmitOrders")
    ratios = rounds.ratios()
    summary.add(
        f"gRPC `SubmitOrders`, {args.clients} clients, server CPU per call",
        f"bare grpcio echo: server CPU {spread(bare_cpu)} ms/call, {bare_echo.rate:,.0f} calls/s",
        f"server CPU {spread(orders_cpu)} ms/call, {orders.rate:,.0f} calls/s",
        f"{spread(ratios)} of bare echo",
        ">= 0.5 of a bare grpcio echo by server CPU per call",
        statistics.median(ratios) >= 0.5,
    )
    if args.json:
        print(json.dumps([
            {"rpc": r.name, "clients": r.clients, "calls": r.calls, "errors": r.errors,
             "per_second": round(r.rate, 1), "p50_ms": round(r.percentile(0.5), 2),
             "p99_ms": round(r.percentile(0.99), 2),
             "server_cpu_ms_per_call": [round(x, 3) for x in rounds.cpu_per_call(r.name)]}
            for r in rounds.merged()
        ] + [{"bare_echo_over_orders_by_server_cpu": [round(x, 3) for x in ratios]}],
            indent=2))  # fmt: skip
    else:
        print(markdown(rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
