"""``python -m bench``: run every benchmark and print Markdown.

Each benchmark compares against a baseline measured in the same run on the same input: lxml
with the product's safe parser settings for parsing, a bare watchdog observer for file
latency, parse-only for replay (and a campaign's first tenth for its last), a bare grpcio echo
server for the API, a growing formation count for the strategic turn, a bare ``python -c
pass`` for start-up, ``python -c "import sqlite3"`` for ``mekref status`` on a 1,000-battle
store, lxml and an idle Echo for crafted files, reading every file (cold) and
``json.loads`` of the cache + ``stat`` (warm) for the unit catalog, ``mtf2json`` for ``.mtf``
files, and lxml's tree for the MUL reader's memory. It ends with one table: each measure, its
anchor, mekref, the ratio and the goal, met or not, judged on the median of the rounds.
``python -m bench NAME`` runs one (``parse``, ``latency``, ``replay``, ``grpc``, ``turn``,
``startup``, ``status``, ``adversarial``, ``catalog``, ``mtf``, ``memory``).

``--markdown PATH`` also writes the whole output, dated and with the machine described, to
PATH between its markers (``make bench``: ``docs/performance.md``; the notes after them are
kept); ``--readme PATH`` puts the summary table in PATH between its markers (only when every
benchmark ran with its default options). Other arguments go to each benchmark chosen.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import redirect_stdout
from datetime import UTC, datetime
from pathlib import Path

from bench import (
    adversarial,
    catalog,
    grpc,
    latency,
    memory,
    mtf,
    parse,
    replay,
    report,
    startup,
    status,
    summary,
    turn,
)

BENCHES: dict[str, Callable[[list[str] | None], int]] = {
    "parse": parse.main,
    "latency": latency.main,
    "replay": replay.main,
    "grpc": grpc.main,
    "turn": turn.main,
    "startup": startup.main,
    "status": status.main,
    "adversarial": adversarial.main,
    "catalog": catalog.main,
    "mtf": mtf.main,
    "memory": memory.main,
}
ROOT = Path(__file__).resolve().parents[1]


def _take(args: list[str], flag: str) -> Path | None:
    """Remove ``flag PATH`` from ``args``; the path, or None."""
    if flag not in args:
        return None
    at = args.index(flag)
    if at + 1 >= len(args):
        raise SystemExit(f"{flag} needs a path")
    path = Path(args[at + 1])
    del args[at : at + 2]
    return path


def _run_one(name: str, rest: list[str], failed: list[str]) -> tuple[int, str]:
    """Run benchmark ``name``; its exit status and what it printed."""
    tee = report.Tee(sys.stdout)
    status = 0
    with redirect_stdout(tee):
        try:
            status = BENCHES[name](rest)
        except SystemExit as stop:
            # One benchmark that cannot run (its reason printed) must not hide the others.
            if stop.code not in (None, 0):
                print(f"bench.{name} did not run to the end: {stop.code}", flush=True)
                failed.append(name)
                status = 1
    return status, tee.copy.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):  # alone: with a benchmark's name, that benchmark's help
        print(__doc__)
        return 0
    markdown = _take(args, "--markdown")
    readme = _take(args, "--readme")
    chosen = [a for a in args if a in BENCHES] or list(BENCHES)
    rest = [a for a in args if a not in BENCHES]
    started, load = datetime.now(UTC), report.load_average()
    worst = 0
    failed: list[str] = []
    sections: list[tuple[str, str]] = []
    for name in chosen:
        print(f"\n## bench.{name}\n", flush=True)
        status, output = _run_one(name, rest, failed)
        worst = max(worst, status)
        sections.append((name, output))
    table = summary.table()
    if failed:
        table += f"\n\nNot in this table, stopped with an error: {', '.join(failed)}."
    print("\n## Summary\n")
    print(table)
    run = report.Run(started, load, sections, table)
    if markdown is not None:
        report.write_page(markdown, run, ROOT)
        print(f"\nwrote {markdown}")
    if readme is not None:
        if set(chosen) == set(BENCHES) and not rest:
            report.update_readme(readme, run)
            print(f"wrote the summary table in {readme}")
        else:
            print(f"{readme} left as it is: only a full run with default options updates it")
    return worst


if __name__ == "__main__":
    sys.exit(main())
