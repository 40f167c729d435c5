"""``python -m bench``: run every benchmark and print Markdown ready for the README.

Each benchmark compares against a baseline measured in the same run on the same input: bare
lxml for parsing, a bare watchdog observer for file latency, parse-only for replay, a bare
grpcio echo server for the API, a growing formation count for the strategic turn, a bare
``python -c pass`` for start-up, bare lxml and an idle Echo for crafted files, reading every
file (cold) and ``json.loads`` of the cache + ``stat`` (warm) for the unit catalog,
``mtf2json`` for ``.mtf`` files, and lxml's tree for the MUL reader's memory. It ends with one
table: each measure, its anchor, mekref, the ratio and the goal. ``python -m bench NAME`` runs one
(``parse``, ``latency``, ``replay``, ``grpc``, ``turn``, ``startup``, ``adversarial``,
``catalog``, ``mtf``, ``memory``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from bench import (
    adversarial,
    catalog,
    grpc,
    latency,
    memory,
    mtf,
    parse,
    replay,
    startup,
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
    "adversarial": adversarial.main,
    "catalog": catalog.main,
    "mtf": mtf.main,
    "memory": memory.main,
}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    chosen = [a for a in args if a in BENCHES] or list(BENCHES)
    rest = [a for a in args if a not in BENCHES]
    worst = 0
    failed: list[str] = []
    for name in chosen:
        print(f"\n## bench.{name}\n", flush=True)
        try:
            worst = max(worst, BENCHES[name](rest))
        except SystemExit as stop:
            # One benchmark that cannot run (its reason printed) must not hide the others.
            if stop.code in (None, 0):
                continue
            print(f"bench.{name} did not run to the end: {stop.code}", flush=True)
            failed.append(name)
            worst = max(worst, 1)
    print("\n## Summary\n")
    print(summary.table())
    if failed:
        print(f"\nNot in this table, stopped with an error: {', '.join(failed)}.")
    return worst


if __name__ == "__main__":
    sys.exit(main())
