"""Write tests/slow_tests.txt from a ``pytest --durations=0`` report (docs/testing.md).

    python -m pytest -n 2 --dist loadfile --durations=0 > durations.txt
    python tests/slow_list.py durations.txt --top 60

A test's time is its set-up, call and tear-down together; the ``--top`` slowest are listed,
slowest first, each with its measured seconds as a comment.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

_LINE = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S.*)$")


def durations(text: str) -> dict[str, float]:
    total: dict[str, float] = defaultdict(float)
    for line in text.splitlines():
        found = _LINE.match(line.strip())
        if found:
            total[found.group(3)] += float(found.group(1))
    return dict(total)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="the output of pytest --durations=0")
    parser.add_argument("--top", type=int, default=60, help="how many of the slowest to list")
    parser.add_argument("--note", default="", help="a line saying when and where it was measured")
    args = parser.parse_args(argv)
    times = durations(args.report.read_text(encoding="utf-8", errors="replace"))
    if not times:
        print(f"{args.report}: no --durations lines found", file=sys.stderr)
        return 1
    slowest = sorted(times.items(), key=lambda kv: -kv[1])[: args.top]
    out = Path(__file__).with_name("slow_tests.txt")
    head = ["# The slowest tests, marked slow by tests/layers.py (make test-fast leaves them out).",
            "# Written by tests/slow_list.py from a pytest --durations=0 run; seconds measured.",
            f"# {args.note}" if args.note else "#"]  # fmt: skip
    body = [f"{node}  # {secs:.1f} s" for node, secs in slowest]
    out.write_text("\n".join([*head, *body]) + "\n", encoding="utf-8")
    print(f"{out}: {len(body)} tests", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
