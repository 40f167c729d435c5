"""``mekref status --json`` on a big campaign store, against a bare interpreter's start.

The store is the one ``make bench-check``'s store measure builds (``bench.check.kept_store``):
the bundled sample's set-up and ``--battles`` (1,000) mixed real battle records
(``bench.corpus``), replayed as ``mekref replay --db`` keeps a store (snapshots on), plus a
10-battle store made the same way, so the growth with the campaign shows beside the figure.

Each round starts, in fresh processes and in turn: the anchor, ``python -c "import
sqlite3"`` (the interpreter starting and loading the driver every store command needs),
then ``mekref status --db STORE --json`` on the small store and on the big one, as a user
types it (the installed console script). Wall time and the child's CPU time (user + system,
POSIX only) are shown as the median of the rounds with their range. The goal (issue 28),
judged as written on the median wall time: ``status --json`` on a 1,000-battle campaign in
at most 0.5 s.

    python -m bench.status                      # 1,000 battles, 7 rounds
    python -m bench.status --battles 300 --rounds 5 --json
    python -m bench.status --compare-with DIR   # also an older mekref, in the same rounds

``--compare-with DIR`` also runs, in each round, ``mekref status --json`` on the big store with
the ``mekref`` package in DIR first on ``PYTHONPATH`` (an older checkout's), so a change is
measured old against new on the same machine at the same moment.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import summary as table
from bench.check import SMALL_STORE, kept_store, scratch
from bench.startup import MEKREF
from bench.startup import time_command as timed
from bench.stats import median, ratios, spread
from mekref.daemon.logging_setup import configure_logging

#: The goal from issue 28: ``mekref status --json`` on a 1,000-battle campaign within 0.5 s.
GOAL_SECONDS = 0.5
ANCHOR = '`python -c "import sqlite3"`'


@dataclass(frozen=True)
class Series:
    name: str
    walls: list[float]
    cpus: list[float]  # empty where the OS does not report a child's CPU time


@dataclass(frozen=True)
class Figures:
    battles: int
    rounds: int
    anchor: Series
    small: Series
    big: Series
    before: Series | None = None  # the older mekref on the big store (--compare-with)

    @property
    def met(self) -> bool:
        return median(self.big.walls) <= GOAL_SECONDS


def _status(db: Path) -> list[str]:
    return [str(MEKREF), "status", "--db", str(db), "--json"]


#: ``mekref``'s console script, for an older mekref put first on PYTHONPATH.
_MAIN = "import sys; from mekref.daemon.cli import main; sys.exit(main())"


def measure(battles: int, rounds: int, older: Path | None = None) -> Figures:
    if not MEKREF.exists():
        raise SystemExit(f"{MEKREF}: the console script is not installed (run 'make install')")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEKREF_")}
    env["NO_COLOR"] = "1"
    configure_logging("console", "error")  # building the stores logs every file otherwise
    with tempfile.TemporaryDirectory(prefix="mekref-bench-status-", dir=scratch()) as tmp:
        root = Path(tmp)
        small = kept_store(root, "small", SMALL_STORE)
        big = kept_store(root, "big", battles)
        todo = [
            (ANCHOR, [sys.executable, "-c", "import sqlite3"]),
            (f"`mekref status --json`, {SMALL_STORE} battles", _status(small)),
            (f"`mekref status --json`, {battles:,} battles", _status(big)),
        ]
        envs = [env] * len(todo)
        if older is not None:
            path = os.pathsep.join(filter(None, (str(older), env.get("PYTHONPATH"))))
            todo.append(
                (
                    f"older mekref (`--compare-with`), {battles:,} battles",
                    [sys.executable, "-c", _MAIN, *_status(big)[1:]],
                )
            )
            envs.append({**env, "PYTHONPATH": path})
        for (_, argv), how in zip(todo, envs, strict=True):  # warm-up: caches, .pyc files
            timed(argv, how)
        walls: list[list[float]] = [[] for _ in todo]
        cpus: list[list[float]] = [[] for _ in todo]
        for n in range(rounds):
            # The compared pair swaps places every other round: neither always runs first.
            order = list(range(len(todo)))
            if older is not None and n % 2:
                order[-2:] = order[-1], order[-2]
            for i in order:
                wall, cpu = timed(todo[i][1], envs[i])
                walls[i].append(wall)
                if cpu is not None:
                    cpus[i].append(cpu)
    series = [Series(n, w, c) for (n, _), w, c in zip(todo, walls, cpus, strict=True)]
    anchor, small_store, big_store = series[:3]
    return Figures(battles, rounds, anchor, small_store, big_store, series[3] if older else None)


def _ms(values: list[float]) -> str:
    return spread([v * 1000 for v in values], ".0f", " ms") if values else "-"


def markdown(f: Figures) -> str:
    lines = [
        "| command | wall, median (range) | CPU, median (range) | wall over the anchor |",
        "|---|---:|---:|---:|",
    ]
    for s in (f.anchor, f.small, f.big, *((f.before,) if f.before else ())):
        over = (
            "the anchor"
            if s is f.anchor
            else f"+{(median(s.walls) - median(f.anchor.walls)) * 1000:.0f} ms"
        )
        lines.append(f"| {s.name} | {_ms(s.walls)} | {_ms(s.cpus)} | {over} |")
    growth = spread(ratios(f.big.walls, f.small.walls), ".2f", "x") + "."
    verdict = "met" if f.met else "**not met**"
    if f.battles != 1000:
        verdict = "not judged (the goal is set at 1,000 battles)"
    if f.before is not None and f.before.cpus and f.big.cpus:
        than = spread(ratios(f.big.cpus, f.before.cpus), ".2f", "x")
        growth += f" This mekref's CPU time over the older one's, round by round: {than}."
    lines += [
        "",
        f"{f.rounds} alternating rounds, fresh process each; Python {platform.python_version()}, "
        f"{platform.machine()}, {platform.system()}. The {f.battles:,}-battle store's wall "
        f"time over the {SMALL_STORE}-battle one's: {growth}",
        f"`mekref status --json` on {f.battles:,} battles: {median(f.big.walls):.3f} s wall "
        f"(median), goal <= {GOAL_SECONDS} s: {verdict}.",
    ]
    return "\n".join(lines)


def _summarise(f: Figures) -> None:
    cpu = f", {median(f.big.cpus) * 1000:.0f} ms CPU" if f.big.cpus else ""
    table.add(
        f"`mekref status --json`, a {f.battles:,}-battle campaign (snapshots on), wall",
        f"{ANCHOR}: {median(f.anchor.walls) * 1000:.0f} ms",
        f"{_ms(f.big.walls)}{cpu}",
        f"+{(median(f.big.walls) - median(f.anchor.walls)) * 1000:.0f} ms",
        f"<= {GOAL_SECONDS} s",
        f.met if f.battles == 1000 else None,  # the goal is set at 1,000 battles
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.status", description=__doc__)
    parser.add_argument("--battles", type=int, default=1000, help="big store's battles (1000)")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="also time an older mekref on the big store, in the same rounds: DIR holds its "
        "'mekref' package (put first on PYTHONPATH)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.battles <= SMALL_STORE:
        parser.error(f"--battles must be more than {SMALL_STORE}")
    if args.compare_with is not None and not (args.compare_with / "mekref").is_dir():
        parser.error(f"--compare-with: no 'mekref' package in {args.compare_with}")
    figures = measure(args.battles, args.rounds, args.compare_with)
    _summarise(figures)
    if args.json:
        print(json.dumps(asdict(figures), indent=2))
    else:
        print(f"### `mekref status --json` on a {figures.battles:,}-battle campaign\n")
        print(markdown(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
