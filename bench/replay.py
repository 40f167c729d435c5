"""Replay through the CLI against parse-only, and its cost per file as the campaign grows.

The corpus (``bench.corpus``) is built in a temporary folder: the bundled sample's set-up
(``setup.json``) and N battle records alternating between the two real records of
``daemon/samples/replay``, each copy a distinct report (ruling BR-13 quarantines a record that
repeats another's report), each followed by the referee's decision the sample records.

- anchor, parse only: read each file, sha256 it and parse it (``read_mul_bytes``), in this
  process, CPU time;
- project: ``mekref replay DIR --seed 7`` in a fresh process, as a user runs it (start-up,
  a throw-away SQLite campaign, every file through the daemon's pipeline, the referee's
  commands, the final fold and state hash), CPU time of that process and wall time; peak RSS.

Rounds alternate anchor and project (a busy shared machine slows both alike); the figure is
the median of the rounds, the range beside it. The ratio is parse-only CPU over replay CPU,
round by round (1.0: replay as fast as parsing).

Cost per file as the campaign grows: dividing a run's CPU by its battles hides growth behind
the fixed start-up of a small run. So the largest corpus is also replayed in this process
(``cli_replay.replay``, as ``mekref replay`` runs it, after a short warm-up replay), with the
CPU time of every file taken between two steps of its progress report; the figure is the
mean cost per file of the campaign's last tenth over its first tenth, per round.

Goals (issue 28): replay at least 0.3 of parse-only (0.5 in the end); 1,000 battles under
20 s wall through the CLI; the last tenth of a 1,000-battle campaign at most 1.2x the first
tenth, per file.

    python -m bench.replay [--battles 100 1000] [--rounds 3] [--json]
    python -m bench.replay --write DIR --battles 1000      # only write a corpus to DIR
    python -m bench.replay --compare-with DIR --battles 100  # also an older mekref, same rounds

``--compare-with DIR`` also replays, in each round and right after this mekref (the two swap
places every other round), with the ``mekref`` package in DIR first on ``PYTHONPATH`` (an older
checkout's): the two must give the same state hash, and their CPU is compared round by round.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import Progress, TaskID

from bench import summary
from bench.corpus import write_corpus
from bench.stats import median, ratios, spread
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.logging_setup import configure_logging
from mekref.daemon.tripwire.cli_replay import replay
from mekref.rules.codec import jsonable_text

#: Goals of issue 28 (0.5 of parse-only is the design goal; 0.3 the one for now).
GOAL_RATIO = 0.3
GOAL_SECONDS_1000 = 20.0
GOAL_TENTHS = 1.2


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


#: ``mekref``'s console script, for an older mekref put first on PYTHONPATH.
_MAIN = "import sys; from mekref.daemon.cli import main; sys.exit(main())"


def replay_cli(folder: Path, older: Path | None = None) -> Run:
    """``mekref replay`` in a fresh process: its own CPU time, wall time and peak RSS
    (``wait4`` in a small launcher process, see ``_LAUNCHER``); with ``older``, the mekref
    whose package is in that folder."""
    mekref = Path(sys.executable).with_name("mekref")
    command = [str(mekref)] if mekref.exists() else [sys.executable, "-m", "mekref.daemon.cli"]
    env = None
    if older is not None:
        command = [sys.executable, "-c", _MAIN]
        path = os.pathsep.join(filter(None, (str(older), os.environ.get("PYTHONPATH"))))
        env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command, "replay", str(folder), "--seed", "7"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
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


class FileClock(Progress):
    """A progress report that draws nothing and notes the CPU time at each step: the
    replay advances it once per battle file (the referee's commands after it included)."""

    def __init__(self) -> None:
        super().__init__(disable=True)
        self.marks: list[float] = []

    def add_task(self, *args: Any, **kwargs: Any) -> TaskID:
        self.marks = [time.process_time()]
        return super().add_task(*args, **kwargs)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        self.marks.append(time.process_time())


@dataclass(frozen=True)
class InProcess:
    """One in-process replay: the CPU of each battle file, and the encoder's floor."""

    costs: list[float]
    #: CPU seconds of the standard library's canonical JSON encoder alone writing again every
    #: event the replay stored (parsed beforehand, not timed), and the megabytes it wrote.
    encode_cpu: float
    encoded_mb: float


def per_file_cpu(folder: Path) -> InProcess:
    """Replay ``folder`` in this process: the CPU seconds of each battle file, in order, and
    what encoding its stored events again costs the encoder alone (``encode_floor``)."""
    clock = FileClock()
    with tempfile.TemporaryDirectory(prefix="mekref-bench-replay-db-") as tmp:
        db = Path(tmp) / "replay.db"
        outcome = replay(folder, str(db), seed="7", progress=clock, keep=False)
        encode_cpu, encoded_mb = encode_floor(db)
    if not outcome.all_applied:
        raise SystemExit("bench.replay: a file of the corpus was not applied in-process")
    costs = [b - a for a, b in zip(clock.marks, clock.marks[1:], strict=False)]
    return InProcess(costs, encode_cpu, encoded_mb)


def encode_floor(db: Path) -> tuple[float, float]:
    """CPU seconds for the canonical JSON encoder (``rules.codec.jsonable_text``, the C
    encoder with the product's settings) to write again every event payload stored in ``db``,
    and the megabytes written. The payloads are canonical JSON, so the texts come out the
    same: this is the part of a replay no Python change can make cheaper."""
    payloads = []
    with closing(sqlite3.connect(db)) as conn:
        for (text,) in conn.execute("SELECT payload FROM events"):
            payloads.append((text, json.loads(text)))
    start = time.process_time()
    texts = [jsonable_text(data) for _, data in payloads]
    cpu = time.process_time() - start
    if texts != [text for text, _ in payloads]:
        raise SystemExit("bench.replay: an event's text is not its canonical JSON")
    return cpu, sum(len(t.encode("utf-8")) for t in texts) / 1e6


@dataclass(frozen=True)
class Tenths:
    """Mean CPU per file of the first and the last tenth of a campaign, one figure a round."""

    first_ms: list[float]
    last_ms: list[float]

    @property
    def ratios(self) -> list[float]:
        return ratios(self.last_ms, self.first_ms)


def tenth_means(costs: list[float]) -> tuple[float, float]:
    """Mean milliseconds per file of the first and the last tenth of ``costs``."""
    tenth = max(1, len(costs) // 10)
    return sum(costs[:tenth]) / tenth * 1000, sum(costs[-tenth:]) / tenth * 1000


@dataclass(frozen=True)
class Figures:
    battles: int
    rounds: int
    corpus_mb: float
    parse_cpu: list[float]
    replay_cpu: list[float]
    replay_wall: list[float]
    replay_peak_rss_mb: float
    state_hash: str
    tenths: Tenths | None
    #: The older mekref's replay CPU, round by round (``--compare-with``); empty otherwise.
    older_cpu: list[float] = field(default_factory=list)
    #: The encoder's floor of the in-process replays, round by round (``encode_floor``);
    #: empty when the corpus was not replayed in-process.
    encode_cpu: list[float] = field(default_factory=list)
    encoded_mb: float = 0.0

    @property
    def ratios(self) -> list[float]:
        return ratios(self.parse_cpu, self.replay_cpu)

    @property
    def ms_per_battle(self) -> float:
        return median(self.replay_cpu) / self.battles * 1000


def measure(battles: int, rounds: int, *, tenths: bool, older: Path | None = None) -> Figures:
    root = Path(tempfile.mkdtemp(prefix="mekref-bench-replay-"))
    try:
        folder = root / "corpus"
        files = write_corpus(folder, battles)
        parse_only(files[:20])  # warm-up: imports and the parser's first use
        if tenths:  # warm-up of the in-process replay: the rules engine's first use
            per_file_cpu(_small_corpus(root))
        parses, runs, olds = [], [], []
        first, last, encodes = [], [], []
        encoded_mb = 0.0
        for n in range(rounds):
            parses.append(parse_only(files))
            if older is not None and n % 2:
                olds.append(replay_cli(folder, older))
            runs.append(replay_cli(folder))
            if older is not None and not n % 2:
                olds.append(replay_cli(folder, older))
            if tenths:
                run = per_file_cpu(folder)
                low, high = tenth_means(run.costs)
                first.append(low)
                last.append(high)
                encodes.append(run.encode_cpu)
                encoded_mb = run.encoded_mb
        hashes = {r.state_hash for r in (*runs, *olds)}
        if len(hashes) != 1:
            raise SystemExit(f"bench.replay: the state hash changed between rounds: {hashes}")
        return Figures(
            battles=battles,
            rounds=rounds,
            corpus_mb=sum(p.stat().st_size for p in files) / 1e6,
            parse_cpu=parses,
            replay_cpu=[r.cpu for r in runs],
            replay_wall=[r.wall for r in runs],
            replay_peak_rss_mb=max(r.peak_rss_mb for r in runs),
            state_hash=hashes.pop(),
            tenths=Tenths(first, last) if tenths else None,
            encode_cpu=encodes,
            encoded_mb=encoded_mb,
            older_cpu=[r.cpu for r in olds],
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _small_corpus(root: Path) -> Path:
    folder = root / "warm-up"
    write_corpus(folder, 4)
    return folder


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def markdown(figures: list[Figures]) -> str:
    lines = [
        f"`mekref replay` of a mixed campaign of real records, through the CLI ({machine()}); "
        "median of the rounds (range), anchor and project alternating:",
        "",
        "| battles | rounds | parse only (read + sha256 + parse), CPU s | `mekref replay` CPU s "
        f"| wall s | parse-only / replay (goal >= {GOAL_RATIO}) | ms per battle | peak RSS |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        lines.append(
            f"| {f.battles:,} ({f.corpus_mb:.1f} MB) | {f.rounds} | {spread(f.parse_cpu)} "
            f"| {spread(f.replay_cpu)} | {spread(f.replay_wall, '.1f')} | {spread(f.ratios)} "
            f"| {f.ms_per_battle:.1f} | {f.replay_peak_rss_mb:.0f} MB |"
        )
    lines.append("")
    for f in figures:
        met = median(f.ratios) >= GOAL_RATIO
        lines.append(
            f"{f.battles:,} battles: replay at {median(f.ratios):.2f} of parse-only, goal "
            f">= {GOAL_RATIO} (0.5 in the end): {'met' if met else '**not met**'}."
        )
    for f in (f for f in figures if f.older_cpu):
        lines.append(
            f"{f.battles:,} battles, the older mekref (`--compare-with`, same state hash): "
            f"{spread(f.older_cpu)} s CPU, parse-only / replay "
            f"{spread(ratios(f.parse_cpu, f.older_cpu))}; this one's CPU over the older one's "
            f"{spread(ratios(f.replay_cpu, f.older_cpu))}x."
        )
    for f in (f for f in figures if f.battles >= 1000):
        wall = median(f.replay_wall)
        lines.append(
            f"{f.battles:,} battles under {GOAL_SECONDS_1000:.0f} s through the CLI: "
            f"{'met' if wall < GOAL_SECONDS_1000 else '**not met**'} ({wall:.1f} s wall, "
            f"{median(f.replay_cpu):.1f} s CPU)."
        )
    sized = sorted(figures, key=lambda f: f.battles)
    if len(sized) > 1 and sized[0].battles < sized[-1].battles:
        lines.append(budget_line(budget(sized[0], sized[-1])))
    for f in figures:
        if f.tenths is not None:
            t = f.tenths
            met = median(t.ratios) <= GOAL_TENTHS
            lines.append(
                f"Cost per file, in-process, {f.battles:,} battles: first tenth "
                f"{spread(t.first_ms, '.1f', ' ms')}, last tenth {spread(t.last_ms, '.1f', ' ms')}"
                f"; last / first {spread(t.ratios)}, goal <= {GOAL_TENTHS}x: "
                f"{'met' if met else '**not met**'}."
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class Budget:
    """What the goal ratio asks of each battle, read off two corpus sizes of one run.

    A replay's CPU is a start-up paid once plus a cost per battle; the difference between
    the two sizes cancels the start-up, so ``per_battle_ms`` is what one more battle costs.
    The goal at the larger size allows ``parse_cpu / GOAL_RATIO`` seconds in all: less the
    start-up and the parsing of each file, what is left per battle is ``allowed_ms`` for
    everything else (the rules, the event texts, the store), against ``spent_ms`` now."""

    battles: int
    startup_s: float
    per_battle_ms: float
    parse_ms: float
    allowed_ms: float
    spent_ms: float
    #: Of ``spent_ms``, what the standard library's C encoder alone takes to write the events'
    #: canonical JSON (``encode_floor``), and how many MB; None when it was not measured.
    encode_ms: float | None = None
    encoded_mb: float = 0.0

    @property
    def cut(self) -> float:
        """How many times less the rest must cost per battle (inf: the goal is out of reach
        even with nothing but parsing)."""
        return self.spent_ms / self.allowed_ms if self.allowed_ms > 0 else float("inf")


def budget(small: Figures, large: Figures) -> Budget:
    """:class:`Budget` from the medians of a smaller and a larger corpus of the same run."""
    if large.battles <= small.battles:
        raise ValueError("the larger corpus must hold more battles")
    step = (median(large.replay_cpu) - median(small.replay_cpu)) / (large.battles - small.battles)
    startup = median(small.replay_cpu) - step * small.battles
    parse = median(large.parse_cpu) / large.battles
    allowed = (median(large.parse_cpu) / GOAL_RATIO - startup) / large.battles - parse
    encode = median(large.encode_cpu) / large.battles * 1000 if large.encode_cpu else None
    return Budget(
        battles=large.battles,
        startup_s=startup,
        per_battle_ms=step * 1000,
        parse_ms=parse * 1000,
        allowed_ms=allowed * 1000,
        spent_ms=(step - parse) * 1000,
        encode_ms=encode,
        encoded_mb=large.encoded_mb,
    )


def budget_line(b: Budget) -> str:
    head = (
        f"What {GOAL_RATIO} of parse-only asks, from these rounds: one more battle costs "
        f"{b.per_battle_ms:.2f} ms of CPU (start-up {b.startup_s:.2f} s, cancelled between the "
        f"two sizes), of which parsing its file {b.parse_ms:.2f} ms; at {b.battles:,} battles "
    )
    if b.allowed_ms <= 0:
        return head + "start-up and parsing alone already take more than the goal allows."
    line = head + (
        f"the goal leaves {b.allowed_ms:.2f} ms per battle for the rules, the event texts and "
        f"the store, which take {b.spent_ms:.2f} ms now: {b.cut:.1f}x less."
    )
    if b.encode_ms is not None:
        line += (
            f" Of those, the standard library's C encoder alone, writing again the "
            f"{b.encoded_mb:.1f} MB of canonical JSON the in-process replay stored, takes "
            f"{b.encode_ms:.2f} ms per battle."
        )
    return line


def _summarise(f: Figures) -> None:
    big = f.battles >= 1000
    wall = median(f.replay_wall)
    summary.add(
        f"`mekref replay`, {f.battles:,} mixed real battles (CLI)",
        f"parse only: {median(f.parse_cpu):.2f} s CPU",
        f"{median(f.replay_cpu):.1f} s CPU, {wall:.1f} s wall, "
        f"{f.ms_per_battle:.1f} ms/battle, {f.replay_peak_rss_mb:.0f} MB peak RSS",
        spread(f.ratios),
        f">= {GOAL_RATIO} of parse-only" + (f"; < {GOAL_SECONDS_1000:.0f} s wall" if big else ""),
        median(f.ratios) >= GOAL_RATIO and (not big or wall < GOAL_SECONDS_1000),
    )
    if f.tenths is not None:
        t = f.tenths
        summary.add(
            f"replay cost per file, last vs first tenth of {f.battles:,} battles (in-process)",
            f"first tenth: {median(t.first_ms):.1f} ms/file",
            f"last tenth: {median(t.last_ms):.1f} ms/file",
            f"x{spread(t.ratios)}",
            f"<= {GOAL_TENTHS}x",
            median(t.ratios) <= GOAL_TENTHS,
        )


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
    parser.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="also replay, in the same rounds, with an older mekref: DIR holds its 'mekref' "
        "package (put first on PYTHONPATH)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON figures")
    args = parser.parse_args(argv)
    if args.write is not None:
        write_corpus(args.write, args.battles[0])
        print(f"wrote {args.battles[0]} battles to {args.write}")
        return 0
    if args.compare_with is not None and not (args.compare_with / "mekref").is_dir():
        parser.error(f"--compare-with: no 'mekref' package in {args.compare_with}")
    configure_logging("console", "error")  # the in-process replay's log stays quiet
    largest = max(args.battles)
    figures = [
        measure(
            n,
            args.rounds if n < 1000 else max(1, args.rounds - 1),
            tenths=n == largest,
            older=args.compare_with,
        )
        for n in args.battles
    ]
    for f in figures:
        _summarise(f)
    if args.json:
        print(json.dumps([asdict(f) for f in figures], indent=2))
    else:
        print(markdown(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
