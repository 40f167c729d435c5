"""MUL parse throughput: ``read_mul_bytes`` against lxml with the product's safe parser settings.

Both parse the same bytes in the same run: every real fixture in ``tests/fixtures/megamek``,
repeated until the corpus holds a few MB. The anchor is ``lxml.etree.fromstring`` with the
parser options the product itself uses on untrusted bytes (``safe_parser_options()``: no
entities, network, DTD or processing instructions), so the ratio is what mekref adds over
lxml's C parser, not the price of a different parser setting. A round reads the corpus with
every parser, one pass over the fixtures by each in turn; the figure is the median of the
rounds (the range beside it), and the ratio is taken round by round. The middle row, the
safety layer alone (``parse_untrusted_xml``: size cap, DTD check, stray-``&`` repair, strict
parse, shape checks), shows where the time goes between lxml and the full typed read.

Large files are timed too (``--large``, on by default): one synthetic unit list of 1,000 and one
of 20,000 entities built from the fixtures' entities (as ``bench.memory`` builds them; 0.8 and
16 MB), the second past the 4 MiB from which the reader streams entity by entity. The anchor
and the typed read alternate, one file each per round, CPU time, median and range.

Goal (issue 28): the full typed read at least a third of lxml's speed (at most 3x its time),
on small and on large files.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from lxml import etree

from bench import summary as table
from bench.stats import median, ratios, spread
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.xml_safety import ReadLimits, parse_untrusted_xml, safe_parser_options

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "megamek"
#: The goal (issues 15 and 28): the full typed read within 3x of lxml's time.
GOAL_RATIO = 3.0
#: The anchor's parser: lxml with the settings the product uses on untrusted bytes.
SAFE_LXML = etree.XMLParser(**safe_parser_options())


@dataclass(frozen=True)
class Result:
    """One parser's seconds to read the corpus, one figure per round."""

    name: str
    rounds: list[float]
    files: int
    megabytes: float

    @property
    def seconds(self) -> float:
        return median(self.rounds)

    @property
    def mb_per_s(self) -> float:
        return self.megabytes / self.seconds

    @property
    def files_per_s(self) -> float:
        return self.files / self.seconds

    def against(self, anchor: Result) -> list[float]:
        """This parser's time over the anchor's, round by round."""
        return ratios(self.rounds, anchor.rounds)


def load_fixtures(folder: Path = FIXTURES) -> list[tuple[str, bytes]]:
    files = [(p.name, p.read_bytes()) for p in sorted(folder.glob("*.mul"))]
    if not files:
        raise SystemExit(f"no .mul files in {folder}")
    return files


def repeats_for(target_mb: float, files: list[tuple[str, bytes]]) -> int:
    """How many passes over all fixtures make a corpus of at least ``target_mb`` megabytes."""
    one_pass = sum(len(data) for _, data in files)
    return max(1, -(-int(target_mb * 1_000_000) // one_pass))


def safe_lxml(name: str, data: bytes) -> object:
    return etree.fromstring(data, SAFE_LXML)


def _safety_layer(name: str, data: bytes) -> object:
    return parse_untrusted_xml(data, name)


def _full_read(name: str, data: bytes) -> object:
    return read_mul_bytes(data, name)


PARSERS: list[tuple[str, Callable[[str, bytes], object]]] = [
    ("lxml `fromstring`, safe parser settings", safe_lxml),
    ("safety layer `parse_untrusted_xml`", _safety_layer),
    ("mekref `read_mul_bytes` (typed model)", _full_read),
]


def time_pass(parse: Callable[[str, bytes], object], files: list[tuple[str, bytes]]) -> float:
    gc.disable()
    try:
        start = time.perf_counter()
        for name, data in files:
            parse(name, data)
        return time.perf_counter() - start
    finally:
        gc.enable()


def run(target_mb: float = 4.0, rounds: int = 5) -> list[Result]:
    """``rounds`` rounds, each one reading the corpus (the fixtures, ``target_mb`` megabytes
    of them) with every parser: one pass over all fixtures by each parser in turn, again and
    again, each parser's passes summed. Short alternating passes let a noisy, shared machine
    slow a pass without skewing one parser against another; a round long enough to hold many
    passes keeps one disturbed pass from deciding a round; the median round is the figure."""
    files = load_fixtures()
    repeats = repeats_for(target_mb, files)
    round_mb = repeats * sum(len(data) for _, data in files) / 1_000_000
    for _, parse in PARSERS:  # warm-up: imports, caches, the first allocations
        time_pass(parse, files)
    times: dict[str, list[float]] = {name: [] for name, _ in PARSERS}
    for _ in range(rounds):
        gc.collect()
        took = dict.fromkeys(times, 0.0)
        for _ in range(repeats):
            for name, parse in PARSERS:
                took[name] += time_pass(parse, files)
        for name in times:
            times[name].append(took[name])
    return [Result(name, times[name], repeats * len(files), round_mb) for name, _ in PARSERS]


#: The large files: entities in each (see the module's docstring).
LARGE_SIZES = (1_000, 20_000)


@dataclass(frozen=True)
class Large:
    entities: int
    megabytes: float
    lxml_cpu: list[float]
    mekref_cpu: list[float]

    @property
    def ratios(self) -> list[float]:
        """mekref's time over lxml's, round by round."""
        return ratios(self.mekref_cpu, self.lxml_cpu)

    @property
    def ratio(self) -> float:
        return median(self.ratios)


def _large_file(count: int) -> bytes:
    from bench.memory import entities

    pool = entities()
    body = b"".join(pool[n % len(pool)] for n in range(count))
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<unit version="0.49.19">\n' + body + b"</unit>\n"
    )


def run_large(rounds: int = 3) -> list[Large]:

    results = []
    for count in LARGE_SIZES:
        data = _large_file(count)
        lifted = ReadLimits(max_bytes=len(data) + 1, max_elements=len(data))
        lxml_cpu: list[float] = []
        ours_cpu: list[float] = []
        for round_ in range(rounds + 1):  # the first round warms up
            for times, ours in ((lxml_cpu, False), (ours_cpu, True)):
                gc.collect()
                start = time.process_time()
                if ours:
                    read_mul_bytes(data, "large.mul", limits=lifted)
                else:
                    etree.fromstring(data, SAFE_LXML)
                if round_:
                    times.append(time.process_time() - start)
        results.append(Large(count, len(data) / 1e6, lxml_cpu, ours_cpu))
    return results


def markdown(results: list[Result]) -> str:
    anchor = results[0]
    lines = [
        "| Parser | MB/s | files/s | time vs lxml, median of rounds (range) |",
        "|---|---:|---:|---:|",
    ]
    for r in results:
        versus = "the anchor" if r is anchor else f"{spread(r.against(anchor))}x"
        lines.append(f"| {r.name} | {r.mb_per_s:,.1f} | {r.files_per_s:,.0f} | {versus} |")
    return "\n".join(lines)


def summary(results: list[Result]) -> str:
    ratio = median(results[-1].against(results[0]))
    verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
    first = results[0]
    return (
        f"Corpus: the real MUL fixtures, passed over until a round holds {first.files:,} files, "
        f"{first.megabytes:.1f} MB; {len(first.rounds)} rounds, MB/s from the median round. "
        f"Python {platform.python_version()}, lxml {_lxml_version()}, {platform.machine()}.\n"
        f"Full read is {ratio:.2f}x the time of lxml: goal <= {GOAL_RATIO:.0f}x {verdict}."
    )


def _lxml_version() -> str:
    return ".".join(str(part) for part in etree.LXML_VERSION[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parse", description=__doc__)
    parser.add_argument("--mb", type=float, default=4.0, help="corpus size in MB (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    parser.add_argument(
        "--no-large", action="store_true", help="skip the large files (1,000 and 20,000 units)"
    )
    args = parser.parse_args(argv)
    if args.mb <= 0 or args.rounds < 1:
        parser.error("--mb must be positive and --rounds at least 1")
    results = run(args.mb, args.rounds)
    anchor, full = results[0], results[-1]
    table.add(
        f"MUL read, the real fixtures, {anchor.megabytes:.1f} MB a round, "
        f"{len(anchor.rounds)} rounds",
        f"lxml, safe settings: {anchor.mb_per_s:.1f} MB/s",
        f"{full.mb_per_s:.1f} MB/s",
        f"{1 / median(full.against(anchor)):.2f} of lxml; {spread(full.against(anchor))}x the time",
        f"<= {GOAL_RATIO:.0f}x the time",
        median(full.against(anchor)) <= GOAL_RATIO,
    )
    large = [] if args.no_large else run_large(max(1, args.rounds // 2))
    for one in large:
        table.add(
            f"MUL read, one file of {one.entities:,} entities ({one.megabytes:.1f} MB)",
            f"lxml, safe settings: {median(one.lxml_cpu):.3f} s CPU",
            f"{spread(one.mekref_cpu, '.3f', ' s')} CPU",
            f"{1 / one.ratio:.2f} of lxml; {spread(one.ratios)}x the time",
            f"<= {GOAL_RATIO:.0f}x the time",
            one.ratio <= GOAL_RATIO,
        )
    if args.json:
        rows = [
            {**asdict(r), "mb_per_s": r.mb_per_s, "files_per_s": r.files_per_s} for r in results
        ]
        ratio = median(full.against(anchor))
        big = [{**asdict(one), "ratio": one.ratio} for one in large]
        print(
            json.dumps(
                {"results": rows, "ratio": ratio, "goal": GOAL_RATIO, "large": big}, indent=2
            )
        )
        return 0
    print("### MUL parse throughput\n")
    print(markdown(results))
    print()
    print(summary(results))
    if large:
        print(
            "\n| large file | lxml (safe settings), CPU | mekref, CPU | time vs lxml |"
            "\n|---|---:|---:|---:|"
        )
        for one in large:
            print(
                f"| {one.entities:,} entities, {one.megabytes:.1f} MB "
                f"| {spread(one.lxml_cpu, '.3f', ' s')} | {spread(one.mekref_cpu, '.3f', ' s')} "
                f"| {spread(one.ratios)}x |"
            )
        print(f"\nRounds after one warm-up: {len(large[0].lxml_cpu)}; median (range).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
