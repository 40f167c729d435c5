"""Replay throughput (files per second) against parse-only throughput, on the same files.

The input is built in a temporary folder: the bundled sample's set-up (``setup.json``) and
``--files`` distinct battle records (the sample's ``01-bob.mul`` with a numbered comment, so
each has its own sha256). After each file the referee gives the field to its side
(``<file>.after.json``), so each file opens, and resolves, a battle of its own, as a real
campaign's replay does.

- parse only: ``read_mul_bytes`` on the files' bytes, in memory, nothing else;
- replay: ``mekref replay`` end to end (``mekref.daemon.cli_replay.replay``): a fresh SQLite
  campaign, then per file read + sha256 + parse + match + rules + commit (events and file
  row in one transaction) + the referee's command, and the final fold for the state hash.

    python -m bench.replay [--files 30] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.cli_replay import AFTER, FORMAT, SETUP, replay
from mekref.daemon.logging_setup import configure_logging
from mekref.daemon.samples.replay import FOLDER as SAMPLE
from mekref.rules.tripwire.battle_messages import SetBattleControl
from mekref.rules.tripwire.game import TRIPWIRE

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands


def build(folder: Path, files: int) -> list[bytes]:
    shutil.copyfile(SAMPLE / SETUP, folder / SETUP)
    record = (SAMPLE / "01-bob.mul").read_bytes()
    datas = []
    for n in range(files):
        data = record + f"\n<!-- bench {n} -->\n".encode()
        name = f"{n:04d}.mul"
        (folder / name).write_bytes(data)
        battle = "battle-" + hashlib.sha256(data).hexdigest()[:12]
        control = SetBattleControl(actor="Referee", battle_id=battle, side_id="home")
        body = {"format": FORMAT, "commands": [COMMANDS.to_json(control)]}
        (folder / (name + AFTER)).write_text(json.dumps(body))
        datas.append(data)
    return datas


@dataclass(frozen=True)
class Figures:
    files: int
    parse_files_per_s: float
    replay_files_per_s: float
    replay_seconds: float
    state_hash: str
    machine: str


def measure(files: int) -> Figures:
    root = Path(tempfile.mkdtemp(prefix="mekref-bench-replay-"))
    try:
        folder = root / "set"
        folder.mkdir()
        datas = build(folder, files)
        start = time.perf_counter()
        for n, data in enumerate(datas):
            read_mul_bytes(data, f"{n}.mul")
        parse = time.perf_counter() - start
        start = time.perf_counter()
        outcome = replay(folder, str(root / "replay.db"))
        seconds = time.perf_counter() - start
        if not outcome.all_applied:
            raise SystemExit("bench.replay: not every file was applied")
        return Figures(
            files=files,
            parse_files_per_s=files / parse,
            replay_files_per_s=files / seconds,
            replay_seconds=seconds,
            state_hash=outcome.state_hash,
            machine=f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
            f"{platform.python_version()}, SQLite",
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def markdown(f: Figures) -> str:
    ratio = f.parse_files_per_s / f.replay_files_per_s
    return "\n".join(
        [
            f"Replay of {f.files} battle records, one battle each ({f.machine}):",
            "",
            "| | files/s |",
            "|---|---:|",
            f"| parse only (`read_mul_bytes`) | {f.parse_files_per_s:.1f} |",
            f"| `mekref replay` end to end | {f.replay_files_per_s:.1f} |",
            "",
            f"Replay runs at 1/{ratio:.0f} of parse-only speed ({f.replay_seconds:.1f} s).",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.replay",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--files", type=int, default=30, help="battle files to replay (30)")
    parser.add_argument("--json", action="store_true", help="print JSON figures")
    args = parser.parse_args(argv)
    configure_logging("console", "warning")  # a line per file would drown the figures
    figures = measure(args.files)
    print(json.dumps(asdict(figures), indent=2) if args.json else markdown(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
