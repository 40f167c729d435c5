"""``docs/performance.md`` and README's summary table, written from one ``python -m bench`` run.

The page's measured part says when and on what it was measured (date, machine, load, versions,
commit), then carries the run's summary table and every benchmark's own output, as printed.
It sits between two markers: the notes written by hand after it (what limits a goal not met)
are kept. README.md keeps the summary table alone, between its own markers, with the date and
a pointer to the page.
"""

from __future__ import annotations

import io
import os
import platform
import re
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from lxml import etree

BEGIN = "<!-- bench-summary:begin: written by `make bench`, do not edit by hand -->"
END = "<!-- bench-summary:end -->"
PAGE_BEGIN = "<!-- bench-figures:begin: written by `make bench`, do not edit by hand -->"
PAGE_END = "<!-- bench-figures:end -->"
COMMAND = "python -m bench --markdown docs/performance.md --readme README.md"


class Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy of what was written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.out.write(text)
        return self.copy.write(text)

    def flush(self) -> None:
        self.out.flush()


@dataclass(frozen=True)
class Run:
    started: datetime
    load_before: str
    sections: list[tuple[str, str]]  # (bench name, its output)
    summary: str  # the summary table, with its notes


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory_gb() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.0f} GB RAM"
    except OSError:
        pass
    return "RAM unknown"


def load_average() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _commit(root: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    dirty = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    )
    commit = done.stdout.strip() or "unknown"
    return commit + (" with local changes" if dirty.stdout.strip() else "")


def machine() -> str:
    lxml = ".".join(str(part) for part in etree.LXML_VERSION[:3])
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs ({_cpu_model()}), {_memory_gb()}, "
        f"{platform.system()} {platform.release()}; Python {platform.python_version()}, "
        f"lxml {lxml}, SQLite {sqlite3.sqlite_version}"
    )


def figures(run: Run, root: Path) -> str:
    """The measured part of the page, markers included."""
    finished = datetime.now(UTC)
    minutes = (finished - run.started).total_seconds() / 60
    lines = [
        PAGE_BEGIN,
        f"Written by `make bench` (`{COMMAND}`) on "
        f"{run.started:%Y-%m-%d} from {run.started:%H:%M} to {finished:%H:%M} UTC "
        f"({minutes:.0f} minutes), commit {_commit(root)}. Do not edit this part by hand: "
        "`make bench` rewrites it and README.md's summary table.",
        "",
        f"Machine: {machine()}. Load average (1 / 5 / 15 min) {run.load_before} at the start, "
        f"{load_average()} at the end: the machine may be shared, so absolute times vary "
        "from run to run; the ratios, each measured against its anchor inside this run "
        "(rounds alternating), are the figures to compare.",
        "",
        "Every figure is the median of the rounds, with their range in brackets where there "
        "were several; a ratio is taken round by round. How each benchmark measures: "
        "[bench/README.md](../bench/README.md). The CI guard against costs growing with the "
        "campaign, `make bench-check`, is described there too.",
        "",
        "## Summary",
        "",
        run.summary,
    ]
    for name, output in run.sections:
        lines += ["", f"## bench.{name}", "", output.strip()]
    return "\n".join([*lines, PAGE_END])


def write_page(path: Path, run: Run, root: Path) -> None:
    """Replace the measured part of ``path`` (the whole page, if it has none yet)."""
    block = figures(run, root)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    pattern = re.compile(re.escape(PAGE_BEGIN) + r".*?" + re.escape(PAGE_END), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = f"# Performance\n\n{block}\n"
    path.write_text(text, encoding="utf-8")


def readme_block(run: Run) -> str:
    return "\n".join(
        [
            BEGIN,
            f"`make bench` on {run.started:%Y-%m-%d} ({platform.machine()}, "
            f"{os.cpu_count()} CPUs, load average {run.load_before.split(' / ')[0]} at the "
            "start; medians of the rounds, ranges in brackets). Every benchmark's tables, the "
            "machine and the method: [docs/performance.md](docs/performance.md).",
            "",
            run.summary,
            END,
        ]
    )


def update_readme(path: Path, run: Run) -> None:
    """Replace the block between the markers; refuse if the markers are not there."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{path}: no summary markers ({BEGIN!r} ... {END!r})")
    block = readme_block(run)
    path.write_text(pattern.sub(lambda _: block, text, count=1), encoding="utf-8")
