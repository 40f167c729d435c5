"""File-landed to state-committed latency of ``mekref serve``, against a bare watchdog observer.

One run, one inbox, the same files: a real ``mekref serve`` subprocess (SQLite, default
settings) and, in this process, a bare watchdog observer with an empty handler that notes
when it sees each file closed. Files land one at a time (written and closed in place, as
MegaMek does); the next lands after the previous one is committed and the referee has given
the field to its side (so each file opens and resolves a battle of its own). Every file is a
distinct report built from the real Battle of Bob record (``bench.corpus``: the shots left in
the campaign units' ammunition bins differ from file to file): ruling BR-13 rightly
quarantines a file that repeats another's report, so copies differing only by a comment or
a name would never be applied.

- landed: just after the file is closed (this process's wall clock);
- bare watchdog: when the bare observer's close event arrived;
- committed: when this process, polling the store every millisecond from its own
  connection, first sees the file's row: after the daemon's transaction committed (the
  ``first_seen`` time the store writes is taken inside the transaction, before the commit,
  and would flatter the daemon). The figure is an upper bound by up to one poll.

The daemon's figure includes noticing the close event, reading, hashing, parsing, matching,
the rules and the commit. Goals: p50 <= 30 ms, p99 <= 150 ms, max <= 250 ms.

Bursts: 200, then 1,000 distinct files renamed into the watched folder at once (a fresh store
and daemon each), the clock running from the first rename until the store holds every file.
The ratio is the wall time per file of the large burst over the small one's: a cost that walks
every waiting file, or every file of a battle, for each file taken makes it grow with the
burst (issue 33: 27.9 files/s at 200, 5.2 at 1,000). Goal: at most 1.5.

    python -m bench.latency [--files 30] [--bursts 200,1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from watchdog.events import FileClosedEvent, FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from bench import summary
from bench.corpus import RECORDS, battle_id, distinct, record
from mekref.daemon.open_app import app_config, opened_app
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.daemon.store import open_store
from mekref.daemon.tripwire.cli_replay import load_commands
from mekref.rules.tripwire.battle_messages import SetBattleControl
from mekref.rules.tripwire.commands import CreateCampaign

TIMEOUT = 60.0


def battle_file(n: int) -> bytes:
    """Copy ``n`` of the Battle of Bob record: a distinct report (and sha256) of its own."""
    return distinct(record(RECORDS[0]), n)


def set_up(db: str) -> str:
    setup = load_commands(SAMPLE / "setup.json")
    assert isinstance(setup[0], CreateCampaign)
    with opened_app(app_config({"db": db}, layered=False)) as app:
        runner = app.runner
        cid = runner.create(setup[0]).campaign_id
        for command in setup[1:]:
            runner.execute(cid, command)
    return cid


class _Bare(FileSystemEventHandler):
    def __init__(self) -> None:
        self.closed: dict[str, float] = {}
        self.lock = threading.Lock()

    def on_closed(self, event: FileSystemEvent) -> None:
        stamp = time.time()
        if isinstance(event, FileClosedEvent):
            with self.lock:
                self.closed.setdefault(os.fsdecode(event.src_path), stamp)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass(frozen=True)
class Figures:
    files: int
    bare_p50_ms: float
    bare_p99_ms: float
    daemon_p50_ms: float
    daemon_p99_ms: float
    daemon_max_ms: float
    #: The first file after start-up (the rules engine's first use), not in the percentiles.
    daemon_first_ms: float
    machine: str


def _wait(condition: object, what: str, poll: float = 0.002) -> float:
    """Wait until ``condition()``; return the wall-clock time it was first seen true."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"bench.latency: timed out waiting for {what}")
        time.sleep(poll)
    return time.time()


def measure(files: int) -> Figures:
    root = Path(tempfile.mkdtemp(prefix="mekref-bench-latency-"))
    try:
        db = str(root / "campaign.db")
        inbox = root / "inbox"
        inbox.mkdir()
        cid = set_up(db)
        log = (root / "serve.log").open("wb")
        daemon = subprocess.Popen(
            [
                *(sys.executable, "-m", "mekref.daemon.cli", "serve", "--watch", str(inbox)),
                *("--db", db, "--quarantine", str(root / "quarantine"), "--log-format", "json"),
            ],
            stdout=log,
            stderr=log,
        )
        bare = _Bare()
        observer = Observer()
        observer.schedule(bare, str(inbox))
        observer.start()
        try:
            _wait(lambda: b"scan.done" in (root / "serve.log").read_bytes(), "the daemon")
            landed: dict[str, float] = {}
            committed: dict[str, float] = {}
            with opened_app(app_config({"db": db}, layered=False)) as app:
                store, runner = app.store, app.runner
                # The log's last seq before each file: the file's commit moves it on (a cheap
                # query, so polling it every millisecond does not slow the daemon down).
                seqs = [store.last_seq(cid)]
                for n in range(files + 1):  # file 0 warms the daemon up, reported apart
                    path = inbox / f"battle-{n:03d}.mul"
                    with path.open("wb") as out:
                        out.write(battle_file(n))
                    landed[str(path)] = time.time()
                    committed[str(path)] = _wait(
                        lambda k=n: store.last_seq(cid) > seqs[k], f"file {n}", poll=0.001
                    )
                    # The referee gives the field to its side: the battle resolves and the
                    # next file opens a new one, as in a campaign (not timed).
                    battle = battle_id(battle_file(n))
                    runner.execute(
                        cid, SetBattleControl(actor="Referee", battle_id=battle, side_id="home")
                    )
                    seqs.append(store.last_seq(cid))
                if len(store.ingested_files(cid)) != files + 1:
                    raise SystemExit("bench.latency: not every file was applied")
            _wait(lambda: len(bare.closed) >= files + 1, "the bare observer")
        finally:
            observer.stop()
            observer.join()
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=TIMEOUT)
            log.close()
        first, *rest = landed
        cold_ms = (committed[first] - landed[first]) * 1000
        bare_ms = [(bare.closed[p] - landed[p]) * 1000 for p in rest]
        daemon_ms = [(committed[p] - landed[p]) * 1000 for p in rest]
        return Figures(
            files=files,
            bare_p50_ms=percentile(bare_ms, 50),
            bare_p99_ms=percentile(bare_ms, 99),
            daemon_p50_ms=percentile(daemon_ms, 50),
            daemon_p99_ms=percentile(daemon_ms, 99),
            daemon_max_ms=max(daemon_ms),
            daemon_first_ms=cold_ms,
            machine=f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, SQLite",
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _serve(root: Path, db: str, inbox: Path) -> tuple[subprocess.Popen[bytes], Path]:
    log = root / "serve.log"
    with log.open("wb") as out:
        daemon = subprocess.Popen(
            [
                *(sys.executable, "-m", "mekref.daemon.cli", "serve", "--watch", str(inbox)),
                *("--db", db, "--quarantine", str(root / "quarantine"), "--log-format", "json"),
            ],
            stdout=out,
            stderr=out,
        )
    return daemon, log


def burst_seconds(files: int) -> float:
    """Wall seconds from dropping ``files`` distinct battle files into the watched folder at
    once (renamed in from beside it) until the store holds every one of them."""
    root = Path(tempfile.mkdtemp(prefix="mekref-bench-burst-"))
    try:
        db, inbox, stage = str(root / "campaign.db"), root / "inbox", root / "stage"
        inbox.mkdir()
        stage.mkdir()
        cid = set_up(db)
        for n in range(files):
            (stage / f"battle-{n:04d}.mul").write_bytes(battle_file(n))
        daemon, log = _serve(root, db, inbox)
        try:
            _wait(lambda: b"scan.done" in log.read_bytes(), "the daemon")
            with open_store(db) as store:
                # One file first, not timed: the rules engine's first use is no part of a burst.
                (inbox / "warm-up.mul").write_bytes(battle_file(files))
                _wait(lambda: len(store.ingested_files(cid)) == 1, "the warm-up file")
                start = time.time()
                for path in sorted(stage.iterdir()):
                    path.rename(inbox / path.name)
                done = _wait(
                    lambda: len(store.ingested_files(cid)) > files, f"{files} files", poll=0.01
                )
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=TIMEOUT)
        return done - start
    finally:
        shutil.rmtree(root, ignore_errors=True)


def bursts(sizes: tuple[int, int]) -> dict[int, float]:
    """Wall seconds of each burst; the summary row of the two."""
    small, large = sizes
    took = {n: burst_seconds(n) for n in sizes}
    rate = {n: n / took[n] for n in sizes}
    ratio = (took[large] / large) / (took[small] / small)
    summary.add(
        f"burst of {large:,} files dropped at once, files/s",
        f"a burst of {small:,}: {rate[small]:.1f} files/s",
        f"{rate[large]:.1f} files/s",
        f"{ratio:.2f}x per file",
        "time per file at most 1.5x the small burst's",
        ratio <= 1.5,
    )
    return took


def bursts_markdown(took: dict[int, float]) -> str:
    (small, large), rate = sorted(took), {n: n / t for n, t in took.items()}
    ratio = (took[large] / large) / (took[small] / small)
    return "\n".join(
        [
            "Bursts: files dropped into the watched folder at once, until all are committed:",
            "",
            "| files | wall (s) | files/s |",
            "|---:|---:|---:|",
            *(f"| {n:,} | {took[n]:.1f} | {rate[n]:.1f} |" for n in (small, large)),
            "",
            f"Time per file, {large:,} over {small:,}: {ratio:.2f}x (goal: at most 1.5).",
        ]
    )


def markdown(f: Figures) -> str:
    bare = f"{f.bare_p50_ms:.1f} | {f.bare_p99_ms:.1f}"
    daemon = f"{f.daemon_p50_ms:.1f} | {f.daemon_p99_ms:.1f}"
    return "\n".join(
        [
            f"File landed -> state committed, {f.files} files, one at a time ({f.machine}):",
            "",
            "| | p50 (ms) | p99 (ms) | max (ms) |",
            "|---|---:|---:|---:|",
            f"| bare watchdog observer sees the close | {bare} | |",
            f"| `mekref serve` has committed the events | {daemon} | {f.daemon_max_ms:.1f} |",
            "",
            f"The first file after start-up (not counted above) took {f.daemon_first_ms:.0f} ms: "
            "the rules engine's first use.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.latency",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--files", type=int, default=30, help="files to land (30)")
    parser.add_argument(
        "--bursts", default="200,1000", help="the two burst sizes, or 'none' (200,1000)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON figures")
    args = parser.parse_args(argv)
    figures = measure(args.files)
    f = figures
    summary.add(
        f"file landed -> state committed, {f.files} files, p50 / p99 / max",
        f"bare watchdog observer: {f.bare_p50_ms:.1f} / {f.bare_p99_ms:.1f} ms",
        f"{f.daemon_p50_ms:.0f} / {f.daemon_p99_ms:.0f} / {f.daemon_max_ms:.0f} ms",
        f"+{f.daemon_p50_ms - f.bare_p50_ms:.0f} ms at p50",
        "p50 <= 30, p99 <= 150, max <= 250 ms, after the commit",
        f.daemon_p50_ms <= 30 and f.daemon_p99_ms <= 150 and f.daemon_max_ms <= 250,
    )
    took: dict[int, float] = {}
    if args.bursts != "none":
        small, large = sorted(int(n) for n in args.bursts.split(","))
        took = bursts((small, large))
    if args.json:
        print(json.dumps({**asdict(figures), "burst_seconds": took}, indent=2))
    else:
        print(markdown(figures) + ("\n\n" + bursts_markdown(took) if took else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
