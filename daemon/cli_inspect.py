"""``mekref inspect``: what a MegaMek unit list, record or savegame says, changing nothing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mekref.adapters.megamek.battle_file import BattleFileRead, read_battle_file
from mekref.adapters.megamek.errors import EXIT_REFUSED_FILE, MulReadError
from mekref.adapters.megamek.mekhq_reader import CAMPAIGN_LIMITS, is_campaign
from mekref.adapters.megamek.mul_summary import (
    AmmoSummary,
    DesignLookup,
    FileSummary,
    UnitSummary,
    summarize,
    summary_to_json,
)
from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES, over_limit
from mekref.daemon import exit_codes
from mekref.daemon.cli_common import (
    add_command,
    add_max_file_mb,
    err_console,
    guarded,
    max_file_mb,
    out_console,
    print_json,
)
from mekref.daemon.cli_inspect_campaign import (
    GUESSED_KIND_NOTE,
    inspect_campaign,
    print_campaign,
)
from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup
from mekref.daemon.watch.reading import FileTooLarge, NotRegularFile, read_named

EXIT_MISSING_FILE = exit_codes.USAGE

HELP = "show what a .mul unit list, battle record, .sav.gz savegame or .cpnx campaign contains"
DESCRIPTION = """\
Read one or more MegaMek .mul files (plain unit lists or end-of-game battle records) or
savegames (.sav.gz, .sav) and show them section by section: each unit, its crew and their hits,
its state, the locations it lost and its ammunition. Nothing is written anywhere.

A savegame is shown as the record mekref applies: every unit in the section its owner's record
would give it (survivors, retreated, salvage, devastated), kills from the game's killer ids, and
what a record lacks: the game's phase and round (whether it has ended), the players and teams,
and where each unit stood at the end. Its units' designs come from the savegame itself.

A MekHQ campaign (.cpnx, plain or gzipped) is previewed as `force import` would read it: each
unit with its condition and its place in the TO&E, the crew's Gunnery/Piloting as MekHQ computes
them (attribute modifiers included) and their hits and injuries, who commands (MekHQ's
commander flag and formation commanders), and what the import would leave out.

With --units-dir, units are matched to their designs (.mtf/.blk files, loose or zipped) so the
unit type, tonnage and tech base come from the design instead of being guessed from the file.

exit codes: 0 read, 2 file missing, 3 file unreadable (broken, truncated), 4 file refused
(hostile constructs, over the size limit, or not a regular file: a FIFO, a device, a link to
one; nothing past the size limit is ever read). A bad file prints one line: file:line:column,
what is wrong, and what to do.
"""

EPILOG = """\
examples:
  mekref inspect logs/Bob.mul                 what a battle record says, section by section
  mekref inspect logs/Ann.mul logs/Bob.mul    both players' views of one battle
  mekref inspect logs/Bob.mul --json          the same as JSON, for scripts
  mekref inspect savegames/final.sav.gz       a savegame as the record mekref would apply
  mekref inspect "Fox's Teeth.cpnx.gz"        a MekHQ campaign as force import reads it
  mekref inspect force.mul --units-dir ~/megamek/data/mekfiles
                                              add tonnage, tech base and unit type from designs
"""

if TYPE_CHECKING:  # rich loads when a table is drawn, not for --json
    from rich.console import Console


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        sub, "inspect", help=HELP, description=DESCRIPTION, epilog=EPILOG
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        type=Path,
        help=".mul, .sav.gz or .cpnx file(s)",
    )
    parser.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="MegaMek unit files (e.g. megamek/data/mekfiles) to match units to their designs",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    add_max_file_mb(parser)
    parser.set_defaults(handler=guarded(run), command_name="inspect")


def _err(message: str) -> None:
    """A refusal on stderr; rich loads only when there is one to print."""
    err_console().print(message)


def run(args: argparse.Namespace) -> int:
    design_for: DesignLookup | None = None
    if args.units_dir is not None:
        try:
            design_for = catalog_lookup(args.units_dir, progress=not args.json)
        except CatalogUnavailable as exc:
            _err(f"mekref inspect: {exc}")
            return EXIT_MISSING_FILE
    summaries: list[tuple[FileSummary, BattleFileRead] | dict[str, Any]] = []
    worst = 0
    mib = max_file_mb(args)
    max_bytes = DEFAULT_MAX_BYTES if mib is None else int(mib * 1024 * 1024)
    # A MekHQ campaign may be larger than a battle file (its own caps apply once read); past
    # both, nothing more is read and the battle-file limit is the one named.
    read_cap = max(max_bytes, CAMPAIGN_LIMITS.max_bytes)
    for path in args.files:
        try:
            data = read_named(path, read_cap)
        except NotRegularFile as exc:
            _err(f"mekref inspect: {path}: {exc.refusal()}")
            worst = max(worst, EXIT_REFUSED_FILE)
            continue
        except FileTooLarge as exc:
            refused = over_limit(str(path), exc.size, max_bytes)
            _err(f"mekref inspect: {refused.one_line()}")
            worst = max(worst, refused.exit_code)
            continue
        except OSError as exc:
            _err(f"mekref inspect: {path}: cannot read ({exc.strerror}); check the path")
            worst = max(worst, EXIT_MISSING_FILE)
            continue
        if is_campaign(data, str(path)):
            try:
                summaries.append(inspect_campaign(data, str(path), design_for))
            except MulReadError as exc:
                _err(f"mekref inspect: {exc.one_line()}")
                worst = max(worst, exc.exit_code)
            continue
        try:
            parsed = read_battle_file(data, str(path), max_bytes=max_bytes)
        except MulReadError as exc:
            _err(f"mekref inspect: {exc.one_line()}")
            worst = max(worst, exc.exit_code)
            continue
        summary = summarize(parsed.mul, str(path), parsed.designs(design_for))
        summaries.append((summary, parsed))
    if args.json and summaries:  # nothing read: the refusals on stderr, no document
        payload = [r if isinstance(r, dict) else _json(*r) for r in summaries]
        out: object = payload[0] if len(args.files) == 1 and payload else payload
        print_json(out)
    else:
        console = out_console()
        for r in summaries:
            if isinstance(r, dict):
                print_campaign(console, r)
                continue
            summary, parsed = r
            _print_tables(console, summary)
            if parsed.savegame is not None:
                _print_savegame(console, parsed)
    return worst


def _savegame_json(parsed: BattleFileRead) -> dict[str, Any] | None:
    if parsed.savegame is None:
        return None
    save = parsed.savegame.save
    players = {p.id: p for p in save.players}
    return {
        "phase": save.phase,
        "round": save.round,
        "game_over": save.game_over,
        "waiting": parsed.waiting,
        "references": save.reference_mode,
        "board": list(save.board_size) if save.board_size else None,
        "players": [{"id": p.id, "name": p.name, "team": p.team} for p in save.players],
        "entities": [
            {
                "game_id": e.game_id,
                "unit": e.display_name,
                "external_id": e.external_id,
                "owner": players[e.owner_id].name if e.owner_id in players else None,
                "removal": e.removal.name.lower(),
                "position": list(e.position) if e.position else None,
                "killer_game_id": e.killer_id,
            }
            for e in save.entities
        ],
    }


def _json(summary: FileSummary, parsed: BattleFileRead) -> Any:
    out = summary_to_json(summary)
    game = _savegame_json(parsed)
    if game is not None and isinstance(out, dict):
        out["savegame"] = game
    return out


def _print_savegame(console: Console, parsed: BattleFileRead) -> None:
    from rich.table import Table
    from rich.text import Text

    game = _savegame_json(parsed)
    assert game is not None
    ended = "the game has ended" if game["game_over"] else "the game is NOT over"
    console.print(
        Text(
            f"savegame: round {game['round']}, {str(game['phase']).lower()} phase: {ended}"
            f"; references by {game['references']}"
        )
    )
    if game["waiting"]:
        console.print(Text.assemble(("held", "yellow"), f": {game['waiting']}"))
    table = Table(title="units at the end", title_justify="left", expand=False)
    for column in ("id", "unit", "owner (team)", "removal", "hex"):
        table.add_column(column, overflow="fold")
    teams = {p["name"]: p["team"] for p in game["players"]}
    for e in game["entities"]:
        owner = e["owner"] or "?"
        hex_ = (
            "off the board"
            if e["position"] is None
            else "{:02d}{:02d}".format(e["position"][0] + 1, e["position"][1] + 1)
        )
        table.add_row(
            str(e["game_id"]), e["unit"], f"{owner} ({teams.get(owner, '?')})", e["removal"], hex_
        )
    console.print(table)


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
    from rich.table import Table
    from rich.text import Text

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
    if any(u.kind_source.value == "shape" for u in s.units):
        console.print(Text(GUESSED_KIND_NOTE, "dim"))
