"""``mekref inspect``: what a MegaMek unit list or battle record says, without changing anything."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_summary import (
    AmmoSummary,
    DesignLookup,
    FileSummary,
    UnitSummary,
    summarize,
    summary_to_json,
)
from mekref.daemon import exit_codes
from mekref.daemon.cli_campaign import err_console, out_console, print_json
from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup

EXIT_MISSING_FILE = exit_codes.USAGE

HELP = "show what a .mul unit list or battle record contains"
DESCRIPTION = """\
Read one or more MegaMek .mul files (plain unit lists or end-of-game battle records) and show
them section by section: each unit, its crew and their hits, its state, the locations it lost
and its ammunition. Nothing is written anywhere.

With --units-dir, units are matched to their designs (.mtf/.blk files, loose or zipped) so the
unit type, tonnage and tech base come from the design instead of being guessed from the file.

exit codes: 0 read, 2 file missing, 3 file unreadable (broken, truncated), 4 file refused
(hostile constructs or over the size limit). A bad file prints one line: file:line:column,
what is wrong, and what to do.
"""

EPILOG = """\
examples:
  mekref inspect logs/Bob.mul                 what a battle record says, section by section
  mekref inspect logs/Ann.mul logs/Bob.mul    both players' views of one battle
  mekref inspect logs/Bob.mul --json          the same as JSON, for scripts
  mekref inspect force.mul --units-dir ~/megamek/data/mekfiles
                                              add tonnage, tech base and unit type from designs
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "inspect",
        help=HELP,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path, help=".mul file(s)")
    parser.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="MegaMek unit files (e.g. megamek/data/mekfiles) to match units to their designs",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    err = err_console()
    design_for: DesignLookup | None = None
    if args.units_dir is not None:
        try:
            design_for = catalog_lookup(args.units_dir, progress=not args.json)
        except CatalogUnavailable as exc:
            err.print(f"mekref inspect: {exc}")
            return EXIT_MISSING_FILE
    summaries: list[FileSummary] = []
    worst = 0
    for path in args.files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            err.print(f"mekref inspect: {path}: cannot read ({exc.strerror}); check the path")
            worst = max(worst, EXIT_MISSING_FILE)
            continue
        try:
            mul = read_mul_bytes(data, str(path))
        except MulReadError as exc:
            err.print(f"mekref inspect: {exc.one_line()}")
            worst = max(worst, exc.exit_code)
            continue
        summaries.append(summarize(mul, str(path), design_for))
    if args.json:
        payload = [summary_to_json(s) for s in summaries]
        out: object = payload[0] if len(args.files) == 1 and payload else payload
        print_json(out)
    else:
        console = out_console()
        for summary in summaries:
            _print_tables(console, summary)
    return worst


def _ammo_by_type(bins: tuple[AmmoSummary, ...]) -> str:
    # One line per ammunition type (shots summed over its bins) keeps wide records readable.
    totals: dict[str, list[int]] = {}
    for a in bins:
        totals.setdefault(a.type, []).append(a.shots)
    return "\n".join(
        f"{kind}: {sum(shots)}" + (f" ({len(shots)} bins)" if len(shots) > 1 else "")
        for kind, shots in totals.items()
    )


def _print_tables(console: Console, s: FileSummary) -> None:
    console.print(
        Text.assemble(
            (s.path, "bold"),
            f"  <{s.root}> MegaMek {s.version or '(no version: very old file)'}",
            f"  {len(s.units)} entities",
        )
    )
    sections: dict[str, list[UnitSummary]] = {}
    for unit in s.units:
        sections.setdefault(unit.section, []).append(unit)
    for section, units in sections.items():
        table = Table(title=f"{section} ({len(units)})", title_justify="left", expand=False)
        for column in ("unit", "kind", "crew (hits)", "state", "lost locations", "ammo"):
            table.add_column(column, overflow="fold")
        for u in units:
            crew = ", ".join(
                f"{c.name} ({'Dead' if c.dead else c.hits}{', ejected' if c.ejected else ''})"
                for c in u.crew
            )
            kind = u.kind.value.replace("_", " ")
            if u.kind_source.value == "shape":
                kind += " ?"
            if u.design is not None and u.design.tonnage is not None:
                kind += f", {u.design.tonnage:g} t {u.design.tech_base.value}"
            label = f"{u.chassis} {u.model}".strip()
            if u.ejected_from:
                label += f"\n  left {u.ejected_from}"
            if u.picked_up_by:
                label += f"\n  picked up by {u.picked_up_by[:8]}"
            ammo = _ammo_by_type(u.ammo)
            table.add_row(label, kind, crew, u.state, ", ".join(u.destroyed_locations), ammo)
        console.print(table)
    if s.kills:
        kills = Table(title=f"kills ({len(s.kills)})", title_justify="left")
        kills.add_column("killed")
        kills.add_column("killer (externalId)")
        for killed, killer in s.kills:
            kills.add_row(killed, killer or "None (unknown)")
        console.print(kills)
    for notice in s.notices:
        console.print(Text.assemble(("note", "yellow"), f" {notice}"))
    console.print(
        Text("kind '?' = guessed from the file's shape; pass --units-dir for designs", "dim")
    )
