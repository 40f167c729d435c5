"""Start-up time of the ``mekref`` console script against a bare ``python -c pass``.

Each command runs in a fresh process, as a user starts it: ``mekref --help``, ``mekref
--version``, ``mekref report --json`` and ``mekref status --json`` on a small campaign store
made for the run. The baseline is the same interpreter starting and doing nothing, timed in the
same run; rounds alternate between the commands so a busy machine slows them alike. Wall time
and the CPU time of the child (user + system, where the OS reports it) are shown as the median
of the rounds with their range; the goal is judged on the median wall time. One more run of
each with ``-X importtime`` lists which of the heavy optional modules (gRPC, the PostgreSQL
driver, cairo, watchdog) it imported: none should be, for these commands.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import summary as table
from bench.stats import median, spread

#: The goal from the issue: ``mekref --help`` under 0.3 s.
GOAL_HELP_SECONDS = 0.3
#: Modules a read-only command must not import (they are for serve, PostgreSQL, PNG maps).
HEAVY = ("grpc", "psycopg", "cairosvg", "cairocffi", "watchdog")
MEKREF = Path(sys.executable).with_name("mekref.exe" if os.name == "nt" else "mekref")


@dataclass(frozen=True)
class Result:
    name: str
    walls: list[float]
    cpus: list[float]  # empty where the OS does not report a child's CPU time
    heavy_imports: list[str]

    @property
    def median_s(self) -> float:
        return median(self.walls)


def _cpu() -> float | None:
    try:
        import resource  # POSIX only: CPU time of finished children
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(argv: list[str], env: dict[str, str]) -> tuple[float, float | None]:
    cpu_before = _cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    wall = time.perf_counter() - start
    cpu_after = _cpu()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()}")
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return wall, cpu


def _heavy_imports(argv: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        argv, capture_output=True, env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, check=False
    )
    found = set()
    for line in done.stderr.decode(errors="replace").splitlines():
        name = line.rsplit("|", 1)[-1].strip()
        top = name.split(".", 1)[0]
        if top in HEAVY:
            found.add(top)
    return sorted(found)


def commands(db: str) -> list[tuple[str, list[str]]]:
    return [
        ("bare `python -c pass` (baseline)", [sys.executable, "-c", "pass"]),
        ("`mekref --help`", [str(MEKREF), "--help"]),
        ("`mekref --version`", [str(MEKREF), "--version"]),
        ("`mekref report --json` (small SQLite campaign)", [str(MEKREF), "report", "--db", db,
                                                            "--json"]),
        ("`mekref status --json`", [str(MEKREF), "status", "--db", db, "--json"]),
    ]  # fmt: skip


def run(rounds: int = 7) -> list[Result]:
    if not MEKREF.exists():
        raise SystemExit(f"{MEKREF}: the console script is not installed (run 'make install')")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEKREF_")}
    env["NO_COLOR"] = "1"
    with tempfile.TemporaryDirectory(prefix="mekref-bench-startup-") as tmp:
        db = str(Path(tmp) / "camp.db")
        made = [str(MEKREF), "campaign", "new", "--db", db, "--name", "Bench", "--seed", "1"]
        time_command(made, env)
        todo = commands(db)
        for _, argv in todo:  # warm-up: file system caches, .pyc files
            time_command(argv, env)
        walls: dict[str, list[float]] = {name: [] for name, _ in todo}
        cpus: dict[str, list[float]] = {name: [] for name, _ in todo}
        for _ in range(rounds):
            for name, argv in todo:
                wall, cpu = time_command(argv, env)
                walls[name].append(wall)
                if cpu is not None:
                    cpus[name].append(cpu)
        return [
            Result(
                name,
                walls[name],
                cpus[name],
                [] if argv[0] == sys.executable else _heavy_imports(argv, env),
            )
            for name, argv in todo
        ]


def markdown(results: list[Result]) -> str:
    base = results[0].median_s
    lines = [
        "| Command | wall, median (range) | CPU, median (range) | over bare python "
        "| heavy imports |",
        "|---|---:|---:|---:|---|",
    ]
    for r in results:
        ms = [w * 1000 for w in r.walls]
        cpu = spread([c * 1000 for c in r.cpus], ".0f", " ms") if r.cpus else "-"
        over = "-" if r is results[0] else f"+{(r.median_s - base) * 1000:.0f} ms"
        heavy = ", ".join(r.heavy_imports) or "none"
        lines.append(
            f"| {r.name} | {spread(ms, '.0f', ' ms')} | {cpu} | {over} "
            f"| {heavy if r is not results[0] else '-'} |"
        )
    return "\n".join(lines)


def summary(results: list[Result], rounds: int) -> str:
    help_ = next(r for r in results if r.name == "`mekref --help`")
    verdict = "met" if help_.median_s < GOAL_HELP_SECONDS else "NOT met"
    return (
        f"{rounds} alternating rounds, fresh process each; Python {platform.python_version()}, "
        f"{platform.machine()}, {platform.system()}.\n"
        f"`mekref --help` {help_.median_s:.3f} s (median): goal < {GOAL_HELP_SECONDS} s "
        f"{verdict}."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__)
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    results = run(args.rounds)
    help_ = next(r for r in results if r.name == "`mekref --help`")
    cpu = f", {median(help_.cpus) * 1000:.0f} ms CPU" if help_.cpus else ""
    table.add(
        "start-up, `mekref --help`, wall",
        f"`python -c pass`: {results[0].median_s * 1000:.0f} ms",
        f"{spread([w * 1000 for w in help_.walls], '.0f', ' ms')}{cpu}",
        f"+{(help_.median_s - results[0].median_s) * 1000:.0f} ms",
        f"< {GOAL_HELP_SECONDS} s",
        help_.median_s < GOAL_HELP_SECONDS,
    )
    if args.json:
        print(json.dumps({"results": [asdict(r) for r in results]}, indent=2))
    else:
        print("### Start-up time\n")
        print(markdown(results))
        print()
        print(summary(results, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
