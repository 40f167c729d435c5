"""``python -m bench.adversarial``: crafted files cost time linear in their size, bounded per file.

Two parts, each against a baseline measured in the same run:

1. **Reading.** For each crafted shape (many attributes on one element, attributes at the limit
   on many elements, deep nesting, one huge text, many elements) and several sizes, the time of
   ``read_mul_bytes`` (which refuses the shapes past a limit) against
   ``lxml.etree.fromstring`` with the product's safe parser settings on the same bytes (the
   median of ``--rounds`` each), and bare lxml's ``element.items()`` on the
   crowded element, the call whose quadratic cost made a 649 KB file take minutes. The
   figure that shows linearity is microseconds per KB staying flat as the size grows.
2. **The server under attack.** ``python -m mekref.daemon.grpc`` on a loopback port; the
   authenticated ``Echo`` latency idle, then while 16 clients keep uploading crafted files.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc import aio
from lxml import etree

from bench import summary
from bench.grpc import build_campaign, cpu_seconds
from bench.parse import SAFE_LXML
from bench.stats import median
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.v1 import battle_pb2, battle_pb2_grpc, diagnostics_pb2, diagnostics_pb2_grpc

SIZES_KB = (64, 256, 1024, 4096)
_ENTITY = b'<entity chassis="A" model="B" type="Biped"'


def many_attributes(size: int) -> bytes:
    """One element with as many attributes as fit: the quadratic case."""
    count = size // 10
    return _ENTITY + b" " + b" ".join(b'a%07d=""' % i for i in range(count)) + b"/>"


def at_the_limit(size: int) -> bytes:
    """Entities carrying 60 attributes each (under the limit of 64): read in full."""
    one = _ENTITY + b" " + b" ".join(b'x%02d="1"' % i for i in range(60)) + b"/>\n"
    return b"<unit>" + one * max(1, size // len(one)) + b"</unit>"


def deep_nesting(size: int) -> bytes:
    """Chains 30 deep (under the limit), repeated, then one chain past it."""
    chain = b"<d>" * 30 + b"</d>" * 30
    deep = b"<d>" * 40 + b"</d>" * 40
    return b"<unit>" + chain * max(1, size // len(chain)) + deep + b"</unit>"


def huge_text(size: int) -> bytes:
    return b"<unit><entity chassis='A' model='B' type='Biped'>" + b"t" * size + b"</entity></unit>"


def many_elements(size: int) -> bytes:
    slot = b'<slot index="1" type="Medium Laser"/>'
    count = size // len(slot)
    return (
        b'<unit><entity chassis="A" model="B" type="Biped"><location index="0">'
        + slot * count
        + b"</location></entity></unit>"
    )


SHAPES: dict[str, Callable[[int], bytes]] = {
    "many attributes on one element": many_attributes,
    "60 attributes on every entity": at_the_limit,
    "deep nesting": deep_nesting,
    "one huge text": huge_text,
    "many elements": many_elements,
}


@dataclass(frozen=True)
class Row:
    shape: str
    kb: int
    outcome: str
    mekref_s: float
    lxml_s: float
    items_s: float | None


def _median(fn: Callable[[], object], rounds: int) -> float:
    """The median time of ``rounds`` calls of ``fn``."""
    times = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()  # as bench.parse: the collector's pauses are not the reader's cost
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return median(times)


def _read(data: bytes) -> str:
    try:
        mul = read_mul_bytes(data, "crafted.mul")
    except MulReadError as exc:
        return "refused: " + exc.problem.split(" over the")[0].split(" elements nest")[0]
    return f"read, {len(mul.entities)} entities"


def reading(rounds: int, sizes: tuple[int, ...]) -> list[Row]:
    rows = []
    for shape, make in SHAPES.items():
        for kb in sizes:
            data = make(kb * 1024)
            if shape.startswith("many attributes"):
                data = b"<unit>" + data + b"</unit>"
            outcome = _read(data)
            mekref_s = _median(lambda d=data: _read(d), rounds)  # type: ignore[misc]
            lxml_s = _median(lambda d=data: etree.fromstring(d, SAFE_LXML), rounds)  # type: ignore[misc]
            items_s = None
            if shape.startswith("many attributes") and kb <= 256:  # quadratic: minutes beyond
                crowded = etree.fromstring(data)[0]
                items_s = _median(crowded.items, 1)
            rows.append(Row(shape, kb, outcome, mekref_s, lxml_s, items_s))
    return rows


def reading_markdown(rows: list[Row]) -> str:
    lines = [
        "| shape | size | mekref outcome | mekref ms | µs/KB | lxml (safe settings) ms "
        "| lxml `items()` on it, ms |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        items = "" if r.items_s is None else f"{r.items_s * 1000:,.0f}"
        lines.append(
            f"| {r.shape} | {r.kb:,} KB | {r.outcome} | {r.mekref_s * 1000:,.1f} "
            f"| {r.mekref_s * 1e6 / r.kb:,.1f} | {r.lxml_s * 1000:,.1f} | {items} |"
        )
    return "\n".join(lines)


# -- the server under attack ----------------------------------------------------------------


@dataclass(frozen=True)
class EchoFigures:
    idle_p50_ms: float
    idle_max_ms: float
    attack_p50_ms: float
    attack_max_ms: float
    uploads: int
    upload_s: float
    server_cpu_s: float


async def _echo_latencies(
    stub: object, md: tuple[tuple[str, str], ...], until: float
) -> list[float]:
    request = diagnostics_pb2.EchoRequest(payload=b"x" * 64)
    out = []
    while time.perf_counter() < until:
        start = time.perf_counter()
        await stub.Echo(request, metadata=md, timeout=60)  # type: ignore[attr-defined]
        out.append(time.perf_counter() - start)
        await asyncio.sleep(0.01)
    return out


async def _attack(target: str, cid: str, token: str, seconds: float, pid: int) -> EchoFigures:
    md = (("authorization", f"Bearer {token}"),)
    channel = aio.insecure_channel(target)
    stub = diagnostics_pb2_grpc.DiagnosticsServiceStub(channel)
    idle = await _echo_latencies(stub, md, time.perf_counter() + seconds)
    crafted = b"<record>" + many_attributes(200 * 1024) + b"</record>"
    uploads = 0
    upload_time = 0.0
    stop_at = time.perf_counter() + seconds

    async def uploader() -> None:
        nonlocal uploads, upload_time
        own = aio.insecure_channel(target)
        battles = battle_pb2_grpc.BattleServiceStub(own)
        request = battle_pb2.UploadBattleFileRequest(
            campaign_id=cid, file_name="crafted.mul", content=crafted
        )
        try:
            while time.perf_counter() < stop_at:
                start = time.perf_counter()
                with contextlib.suppress(grpc.RpcError):  # refused as hostile, as it should be
                    await battles.UploadBattleFile(request, metadata=md, timeout=60)
                upload_time += time.perf_counter() - start
                uploads += 1
        finally:
            await own.close()

    cpu_before = cpu_seconds(pid)
    tasks = [asyncio.create_task(uploader()) for _ in range(16)]
    under = await _echo_latencies(stub, md, stop_at)
    await asyncio.gather(*tasks)
    cpu = cpu_seconds(pid) - cpu_before
    await channel.close()
    idle.sort()
    under.sort()
    return EchoFigures(
        idle[len(idle) // 2] * 1000,
        idle[-1] * 1000,
        under[len(under) // 2] * 1000,
        under[-1] * 1000,
        uploads,
        upload_time / max(uploads, 1),
        cpu,
    )


def server_under_attack(seconds: float) -> EchoFigures:
    with tempfile.TemporaryDirectory(prefix="mekref-bench-adv-") as tmp:
        setup = build_campaign(Path(tmp), 1)
        server = subprocess.Popen(
            [sys.executable, "-m", "mekref.daemon.grpc", "--db", str(setup.db),
             "--grpc", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ},
        )  # fmt: skip
        try:
            assert server.stdout is not None
            line = server.stdout.readline().strip()
            if not line.startswith("listening on 127.0.0.1:"):
                raise SystemExit(f"the server did not start: {line!r}")
            target = line.removeprefix("listening on ")
            token = setup.tokens["rebel"]
            return asyncio.run(_attack(target, setup.campaign_id, token, seconds, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)


def attack_markdown(f: EchoFigures) -> str:
    return "\n".join(
        [
            "| Echo | p50 ms | max ms |",
            "|---|---:|---:|",
            f"| idle server | {f.idle_p50_ms:.1f} | {f.idle_max_ms:.1f} |",
            f"| 16 clients uploading crafted 200 KB files | {f.attack_p50_ms:.1f} "
            f"| {f.attack_max_ms:.1f} |",
            "",
            f"{f.uploads} crafted uploads refused, {f.upload_s * 1000:.1f} ms each on average "
            f"(round trip); server CPU {f.server_cpu_s:.2f} s over the attack.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.adversarial", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--rounds", type=int, default=3, help="timed repeats (the median counts)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per Echo phase")
    parser.add_argument("--quick", action="store_true", help="the two smallest sizes only")
    args = parser.parse_args(argv)
    sizes = SIZES_KB[:2] if args.quick else SIZES_KB
    rows = reading(args.rounds, sizes)
    print("### Reading crafted files\n")
    print(reading_markdown(rows))
    print(f"\nmekref and lxml: the median of {args.rounds} reads each.")
    growth = _worst_growth(rows)
    summary.add(
        f"crafted files, {sizes[0]:,} KB to {sizes[-1]:,} KB, 5 shapes: time per KB, "
        "largest over smallest size",
        "lxml (safe settings) on the same bytes",
        f"worst shape x{growth[1]:.2f} ({growth[0]})",
        f"x{growth[1]:.2f}",
        "linear in the size (a figure: no number set)",
        None,
    )
    figures = server_under_attack(args.seconds)
    print("\n### Echo while crafted files are uploaded\n")
    print(attack_markdown(figures))
    summary.add(
        "`Echo` p50 / max while 16 clients upload crafted files",
        f"idle server: {figures.idle_p50_ms:.1f} / {figures.idle_max_ms:.0f} ms",
        f"{figures.attack_p50_ms:.1f} / {figures.attack_max_ms:.0f} ms",
        f"x{figures.attack_p50_ms / figures.idle_p50_ms:.1f} at p50",
        "not stalled (a figure: it was stalled 16.7 s)",
        None,
    )
    return 0


def _worst_growth(rows: list[Row]) -> tuple[str, float]:
    """The shape whose time per KB grew most from the smallest size to the largest."""
    worst = ("", 0.0)
    for shape in SHAPES:
        mine = [r for r in rows if r.shape == shape]
        first, last = mine[0], mine[-1]
        growth = (last.mekref_s / last.kb) / (first.mekref_s / first.kb)
        worst = max(worst, (shape, growth), key=lambda pair: pair[1])
    return worst


if __name__ == "__main__":
    sys.exit(main())
