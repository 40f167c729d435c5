"""Replay throughput through the CLI against parse-only, on a mixed campaign of real records.

The corpus is built in a temporary folder: the bundled sample's set-up (``setup.json``) and
N battle records alternating between the two real records of ``daemon/samples/replay`` (the
Battle of Bob and the Clusterstrike Batchall, from ``tests/fixtures/megamek``). Each copy has
its own sha256 and its own report: the shots left in its ammunition bins differ from every
other copy's (ruling BR-13 refuses a record that repeats another's report as a re-save).
After each file the referee's decision is the one the sample records for that battle
(``SetBattleControl`` for Bob, ``CloseBattle`` for the Clusterstrike), so every battle
resolves, as in a real campaign.

- anchor, parse only: read each file, sha256 it and parse it (``read_mul_bytes``), in this
  process, CPU time;
- project: ``mekref replay DIR --seed 7`` in a fresh process, as a user runs it (start-up,
  a throw-away SQLite campaign, every file through the daemon's pipeline, the referee's
  commands, the final fold and state hash), CPU time of that process and wall time; peak RSS.

Rounds alternate anchor and project (a busy shared machine slows both alike); min and median.
The ratio is parse-only CPU over replay CPU (1.0: replay as fast as parsing). Goals (issue 15):
at least 0.5; 1,000 battles under 20 s through the CLI; a flat cost per battle.

    python -m bench.replay [--battles 100 1000] [--rounds 3] [--json]
    python -m bench.replay --write DIR --battles 1000      # only write a corpus to DIR
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import summary
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.cli_replay import AFTER, SETUP
from mekref.daemon.samples.replay import FOLDER as SAMPLE

#: The real records the corpus alternates between, with the referee's decision after each.
RECORDS = ("01-bob.mul", "02-clusterstrike.mul")
GOAL_RATIO = 0.5
GOAL_SECONDS_1000 = 20.0


def write_corpus(folder: Path, battles: int) -> list[Path]:
    """A replay folder of ``battles`` mixed real records; returns the battle files."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLE / SETUP, folder / SETUP)
    records = [(SAMPLE / name).read_bytes() for name in RECORDS]
    units = _unit_ids(json.loads((SAMPLE / SETUP).read_text()))
    afters = [json.loads((SAMPLE / (name + AFTER)).read_text()) for name in RECORDS]
    files = []
    for n in range(battles):
        k = n % len(RECORDS)
        data = _distinct(records[k], n // len(RECORDS), units)
        path = folder / f"{n:05d}.mul"
        path.write_bytes(data)
        body = json.loads(json.dumps(afters[k]))
        # The battle a file opens is named after its bytes; the decision must name it.
        for command in body["commands"]:
            command["battle_id"] = "battle-" + hashlib.sha256(data).hexdigest()[:12]
        (folder / (path.name + AFTER)).write_text(json.dumps(body))
        files.append(path)
    return files


_SHOTS = re.compile(rb'shots="(\d+)"')
_ENTITY = re.compile(rb'<entity\b[^>]*\bexternalId="([^"]+)".*?</entity>', re.DOTALL)


def _unit_ids(value: object) -> set[str]:
    """Every ``unit_id`` in the sample's set-up commands: the campaign's units."""
    if isinstance(value, dict):
        own = {value["unit_id"]} if isinstance(value.get("unit_id"), str) else set()
        return own.union(*(_unit_ids(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_unit_ids(v) for v in value))
    return set()


def _distinct(record: bytes, copy: int, units: set[str]) -> bytes:
    """The record with ``copy`` written, digit by digit, into the shots left in the campaign
    units' ammunition bins (a bin of ``n`` shots holds a digit 0..n: that many fewer), so that
    no two copies report the same battle (the report names campaign units only)."""
    bins = [
        m
        for entity in _ENTITY.finditer(record)
        if entity.group(1).decode() in units
        for m in _SHOTS.finditer(record, entity.start(), entity.end())
    ]
    changes: list[tuple[int, int, bytes]] = []
    rest = copy
    for m in sorted(bins, key=lambda b: b.start()):
        size = int(m.group(1)) + 1
        rest, digit = divmod(rest, size)
        if digit:
            changes.append((*m.span(1), str(size - 1 - digit).encode()))
    if rest:
        raise ValueError(f"the record's bins cannot tell {copy + 1} copies apart")
    out = bytearray(record)
    for start, end, text in reversed(changes):  # back to front: earlier offsets stay valid
        out[start:end] = text
    return bytes(out)


def parse_only(files: list[Path]) -> float:
    """CPU seconds to read, hash and parse every file."""
    start = time.process_time()
    for path in files:
        data = path.read_bytes()
        hashlib.sha256(data).hexdigest()
        read_mul_bytes(data, str(path))
    return time.process_time() - start


@dataclass(frozen=True)
class Run:
    cpu: float
    wall: float
    peak_rss_mb: float
    state_hash: str


# The replay runs under this small launcher, which reports the child's own figures. On Linux
# a process's peak RSS (``ru_maxrss``) starts from the peak of the process it was spawned from:
# spawned straight from this benchmark, which has just parsed the whole corpus, the replay's
# figure would be this process's peak. The launcher is small, so its peak hides nothing.
_LAUNCHER = r"""
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
out = child.stdout.read()
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
sys.stdout.buffer.write(out)
print()
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime,
                  wall, usage.ru_maxrss]))
"""


def replay_cli(folder: Path) -> Run:
    """``mekref replay`` in a fresh process: its own CPU time, wall time and peak RSS
    (``wait4`` in a small launcher process, see ``_LAUNCHER``)."""
    mekref = Path(sys.executable).with_name("mekref")
    command = [str(mekref)] if mekref.exists() else [sys.executable, "-m", "mekref.daemon.cli"]
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command, "replay", str(folder), "--seed", "7"],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"bench.replay: the launcher failed: {done.stderr.strip()[-300:]}")
    returncode, cpu, wall, maxrss_kb = json.loads(lines[-1])
    if returncode != 0:
        raise SystemExit(f"bench.replay: mekref replay exited {returncode}")
    last = [line for line in lines[:-1] if line.strip()][-1]
    rss_mb = maxrss_kb / 1024  # kilobytes on Linux
    return Run(cpu, wall, rss_mb, last.removeprefix("state-hash: "))


@dataclass(frozen=True)
class Figures:
    battles: int
    rounds: int
    corpus_mb: float
    parse_cpu_min: float
    parse_cpu_median: float
    replay_cpu_min: float
    replay_cpu_median: float
    replay_wall_min: float
    replay_wall_median: float
    replay_peak_rss_mb: float
    ratio: float
    ms_per_battle: float
    state_hash: str


def measure(battles: int, rounds: int) -> Figures:
    root = Path(tempfile.mkdtemp(prefix="mekref-bench-replay-"))
    try:
        folder = root / "corpus"
        files = write_corpus(folder, battles)
        parse_only(files[:20])  # warm-up: imports and the parser's first use
        parses, runs = [], []
        for _ in range(rounds):
            parses.append(parse_only(files))
            runs.append(replay_cli(folder))
        hashes = {r.state_hash for r in runs}
        if len(hashes) != 1:
            raise SystemExit(f"bench.replay: the state hash changed between rounds: {hashes}")
        best = min(r.cpu for r in runs)
        return Figures(
            battles=battles,
            rounds=rounds,
            corpus_mb=sum(p.stat().st_size for p in files) / 1e6,
            parse_cpu_min=min(parses),
            parse_cpu_median=statistics.median(parses),
            replay_cpu_min=best,
            replay_cpu_median=statistics.median(r.cpu for r in runs),
            replay_wall_min=min(r.wall for r in runs),
            replay_wall_median=statistics.median(r.wall for r in runs),
            replay_peak_rss_mb=max(r.peak_rss_mb for r in runs),
            ratio=min(parses) / best,
            ms_per_battle=best / battles * 1000,
            state_hash=hashes.pop(),
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def markdown(figures: list[Figures]) -> str:
    lines = [
        f"`mekref replay` of a mixed campaign of real records, through the CLI ({machine()}); "
        "CPU seconds, min / median of the rounds, anchor and project alternating:",
        "",
        "| battles | parse only (read + sha256 + parse) | `mekref replay` CPU | wall "
        "| ratio (goal >= 0.5) | ms per battle | peak RSS |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        lines.append(
            f"| {f.battles:,} ({f.corpus_mb:.1f} MB) "
            f"| {f.parse_cpu_min:.2f} / {f.parse_cpu_median:.2f} "
            f"| {f.replay_cpu_min:.2f} / {f.replay_cpu_median:.2f} "
            f"| {f.replay_wall_min:.1f} / {f.replay_wall_median:.1f} "
            f"| {f.ratio:.2f} | {f.ms_per_battle:.1f} | {f.replay_peak_rss_mb:.0f} MB |"
        )
    lines.append("")
    worst = min(f.ratio for f in figures)
    lines.append(
        f"Ratio goal (>= {GOAL_RATIO}): {'met' if worst >= GOAL_RATIO else '**not met**'} "
        f"(worst {worst:.2f})."
    )
    big = [f for f in figures if f.battles >= 1000]
    if big:
        wall = big[0].replay_wall_min
        lines.append(
            f"1,000 battles under {GOAL_SECONDS_1000:.0f} s through the CLI: "
            f"{'met' if wall < GOAL_SECONDS_1000 else '**not met**'} ({wall:.1f} s wall, "
            f"{big[0].replay_cpu_min:.1f} s CPU)."
        )
    if len(figures) > 1:
        small, large = figures[0], figures[-1]
        growth = large.ms_per_battle / small.ms_per_battle
        lines.append(
            f"Cost per battle, {large.battles:,} against {small.battles:,} battles: "
            f"x{growth:.2f} (1.0 is flat; start-up weighs more on the smaller run)."
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.replay",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--battles", type=int, nargs="+", default=[100, 1000], help="corpus sizes (100 1000)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds per size (3)")
    parser.add_argument("--write", type=Path, metavar="DIR", help="only write a corpus to DIR")
    parser.add_argument("--json", action="store_true", help="print JSON figures")
    args = parser.parse_args(argv)
    if args.write is not None:
        write_corpus(args.write, args.battles[0])
        print(f"wrote {args.battles[0]} battles to {args.write}")
        return 0
    figures = [
        measure(n, args.rounds if n < 1000 else max(1, args.rounds - 1)) for n in args.battles
    ]
    for f in figures:
        summary.add(
            f"`mekref replay`, {f.battles:,} mixed real battles (CLI)",
            f"parse only: {f.parse_cpu_min:.2f} s CPU",
            f"{f.replay_cpu_min:.1f} s CPU, {f.replay_wall_min:.1f} s wall, "
            f"{f.ms_per_battle:.1f} ms/battle, {f.replay_peak_rss_mb:.0f} MB peak RSS",
            f"{f.ratio:.2f}",
            ">= 0.5 of parse-only" + ("; < 20 s wall" if f.battles >= 1000 else ""),
            f.ratio >= GOAL_RATIO and (f.battles < 1000 or f.replay_wall_min < GOAL_SECONDS_1000),
        )
    print(json.dumps([asdict(f) for f in figures], indent=2) if args.json else markdown(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
