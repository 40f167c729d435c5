"""``.mtf`` read speed: mekref's reader against ``mtf2json`` (PyPI) on the same files.

Both read every real ``.mtf`` fixture of ``tests/fixtures/megamek/units`` from disk into their
own model: ``mtf2json.read_mtf(path)`` (a JSON-ready dict) and mekref's
``parse_unit_file(path.read_bytes(), name)`` (the typed, frozen ``UnitDesign``, every critical
slot parsed). ``mtf2json`` reads biped Meks only and refuses the LAM, so the comparison runs on
the seven bipeds; the LAM is timed for mekref alone.

``mtf2json`` is not a dependency of mekref: when it is not importable, the benchmark installs it
with pip into ``build/bench-deps`` (a throw-away folder, ignored by git) and imports it from
there. When that fails (no network), the anchor is reading each file and splitting its lines,
and the table says so.

Passes over the files alternate between the readers after one warm-up pass of each; CPU time
(``time.process_time``), the median of the rounds with their range, the speed-up taken round
by round. mekref's reader remembers each
distinct slot text it parsed (most slot lines are the same few dozen texts); that memo is
emptied before every pass over the files, so a pass costs what it would in a fresh process.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench import summary as table
from bench.stats import median, ratios, spread
from mekref.adapters.megamek import mtf_reader
from mekref.adapters.megamek.unit_file import parse_unit_file

UNITS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "megamek" / "units"
DEPS = Path(__file__).resolve().parents[1] / "build" / "bench-deps"
#: The goal from issue 15: at least 5x faster than mtf2json on every configuration it reads.
GOAL_SPEEDUP = 5.0

Reader = Callable[[Path], object]


def load_mtf2json() -> tuple[str, Reader] | None:
    """``(label, read)`` of mtf2json, installed into ``build/bench-deps`` if need be."""
    try:
        module = importlib.import_module("mtf2json")
    except ImportError:
        DEPS.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(DEPS), "mtf2json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            print(f"(mtf2json could not be installed: {done.stderr.strip()[-300:]})")
            return None
        sys.path.insert(0, str(DEPS))
        try:
            module = importlib.import_module("mtf2json")
        except ImportError:
            return None
    version = getattr(module, "version", "?")
    read: Reader = module.read_mtf
    return f"`mtf2json` {version} `read_mtf`", read


def _read_and_split(path: Path) -> object:
    return path.read_bytes().decode("utf-8", errors="replace").splitlines()


def _mekref(path: Path) -> object:
    return parse_unit_file(path.read_bytes(), path.name)


def _accepts(read: Reader, path: Path) -> bool:
    try:
        read(path)
    except Exception:  # any refusal of the anchor means "not comparable"
        return False
    return True


def _forget() -> None:
    """Empty the reader's per-process memo of slot texts, so that no pass reuses what an
    earlier pass parsed: each pass over the files starts as a fresh process would."""
    mtf_reader.parse_crit_line.cache_clear()
    mtf_reader._slot_parts.cache_clear()


def _pass(read: Reader, files: list[Path], repeat: int) -> float:
    gc.collect()
    gc.disable()
    try:
        took = 0.0
        for _ in range(repeat):
            _forget()  # untimed, for both readers alike
            start = time.process_time()
            for path in files:
                read(path)
            took += time.process_time() - start
        return took
    finally:
        gc.enable()


def run(rounds: int, repeat: int) -> dict[str, object]:
    found = load_mtf2json()
    anchor_label, anchor = found if found else ("read + split lines (mtf2json unavailable)", None)
    anchor_read: Reader = anchor if anchor is not None else _read_and_split
    every = sorted(UNITS.glob("*.mtf"))
    files = [p for p in every if _accepts(anchor_read, p)]
    refused = [p.name for p in every if p not in files]
    readers: list[tuple[str, Reader, list[Path]]] = [
        (anchor_label, anchor_read, files),
        ("mekref `parse_unit_file` (typed design)", _mekref, files),
    ]
    if refused:
        only = [p for p in every if p.name in refused]
        readers.append((f"mekref on what the anchor refuses ({', '.join(refused)})", _mekref, only))
    times: dict[str, list[float]] = {label: [] for label, _, _ in readers}
    for n in range(rounds + 1):
        for label, read, chosen in readers:
            took = _pass(read, chosen, repeat)
            if n:  # round 0 warms up
                times[label].append(took / (repeat * len(chosen)))
    return {"anchor": anchor_label, "files": len(files), "refused": refused, "times": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mtf", description=__doc__)
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--repeat", type=int, default=40, help="passes per round (default 40)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args, _ = parser.parse_known_args(argv)
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be at least 1")
    result = run(args.rounds, args.repeat)
    times: dict[str, list[float]] = result["times"]  # type: ignore[assignment]
    labels = list(times)
    anchor, ours = times[labels[0]], times[labels[1]]
    speedups = ratios(anchor, ours)
    real_anchor = str(result["anchor"]).startswith("`mtf2json`")
    table.add(
        f".mtf read, {result['files']} Mek files",
        f"{result['anchor']}: {median(anchor) * 1e6:.0f} µs/file CPU",
        f"{spread([t * 1e6 for t in ours], '.0f')} µs/file",
        f"{spread(speedups)}x faster",
        f">= {GOAL_SPEEDUP:.0f}x faster than mtf2json",
        median(speedups) >= GOAL_SPEEDUP if real_anchor else None,
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"### `.mtf` read: {result['files']} Mek files\n")
    print("| reader | µs/file CPU, median (range) | speed vs anchor, median (range) |")
    print("|---|---:|---:|")
    for n, label in enumerate(labels):
        mine = times[label]
        # The third row reads files the anchor refuses: other files, nothing to compare with.
        versus = ("the anchor", f"{spread(ratios(anchor, mine))}x", "- (other files)")[min(n, 2)]
        print(f"| {label} | {spread([t * 1e6 for t in mine], '.0f')} | {versus} |")
    refused = result["refused"]
    print(
        f"\n{args.rounds} rounds of {args.repeat} passes after one warm-up, alternating; "
        f"CPU time. The anchor refused: {', '.join(refused) if refused else 'nothing'}. "  # type: ignore[arg-type]
        f"Goal: >= {GOAL_SPEEDUP:.0f}x faster."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
