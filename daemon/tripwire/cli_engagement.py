"""``mekref engagement export``: per side, the MegaMek unit list and the scenario sheet of each
engagement, and the engagement as a MegaMek scenario for the host."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_command,
    add_db,
    err_console,
    guarded,
    out_console,
)
from mekref.daemon.tripwire import cli_artillery
from mekref.daemon.tripwire.cli_campaign import side_campaign_state
from mekref.daemon.tripwire.cli_turn_setup import (
    _designs,
)
from mekref.daemon.tripwire.mms_export import (
    board_map,
    build_engagement_mms,
    distinct_warnings,
    host_game_options,
    megamek_boards,
    side_notes,
    write_engagement_mms,
)
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.export import scenario_mul, scenario_sheet

#: How each warning line starts, on stderr (as ``turn setup``'s and ``battle ingest``'s).
WARNING = "mekref engagement export: warning: "


def run_export(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    if state.strategic is None:
        raise CliError("the strategic map is not set up in this campaign")
    wanted = [
        e.engagement_id
        for e in state.strategic.engagements
        if args.side in e.sides and args.engagement in (None, e.engagement_id)
    ]
    if not wanted:
        # What there is instead: the side's engagements of the last resolved day, or why none.
        own = [e.engagement_id for e in state.strategic.engagements if args.side in e.sides]
        there = f"its engagements: {', '.join(own)}" if own else "it fights none"
        raise CliError(
            f"no engagement for {args.side!r} today"
            + (f" named {args.engagement!r} ({there})" if args.engagement else "")
            + ("" if own else " (an engagement comes from 'mekref turn resolve')")
        )
    try:
        args.output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{args.output}: cannot create ({exc.strerror})") from exc
    console = out_console()  # the files written: data
    errors = err_console()  # the warnings: stderr, as every command's
    designs = _designs(state, args.side, args.units_dir)
    players = dict(p.split("=", 1) for p in args.player if "=" in p)
    if len(players) != len(args.player):
        raise CliError("--player: write SIDE=NAME")
    try:
        host = host_game_options(args.host_options) if args.host_options else None
        mapping = board_map(args.board_map)
    except Refusal as exc:
        raise CliError(f"refused: {exc}") from exc
    fought = {b.engagement_id: b.battle_id for b in state.battles.battles.values()}
    for eid in wanted:
        if eid in fought:
            # T-E9: its battle came back; this writes the units as they stand now, not a battle
            # still to be played.
            errors.print(
                f"{WARNING}engagement {eid} already has battle {fought[eid]} ('mekref report' "
                "says whether it is closed): its files show the units as they stand now",
                markup=False,
            )
        notes: list[str] = []
        mms_notes: list[str] = []
        try:
            if args.format != "mms":
                mul = scenario_mul(state, eid, args.side, designs=designs)
                sheet = scenario_sheet(state, eid, args.side)
                base = args.output / f"{eid}-{args.side}"
                base.with_suffix(".mul").write_text(mul, encoding="utf-8")
                base.with_suffix(".md").write_text(sheet, encoding="utf-8")
                console.print(f"wrote {base}.mul and {base}.md")
                notes = side_notes(state, eid, args.side)
            if args.format != "mul":
                built = build_engagement_mms(
                    state,
                    eid,
                    lambda side: (
                        designs if side == args.side else _designs(state, side, args.units_dir)
                    ),
                    boards=megamek_boards(args.boards_dir) if args.boards_dir else None,
                    players=players,
                    house_rules=args.house_rule,
                    host_options=host,
                    boards_map=mapping,
                )
                for line in write_engagement_mms(built, args.output):
                    console.print(line, markup=False)
                mms_notes = list(built.warnings)
            # The scenario repeats the side's own list notes: each distinct line once.
            for line in distinct_warnings(notes, mms_notes):
                errors.print(f"{WARNING}{line}", markup=False)
        except Refusal as exc:
            raise CliError(f"refused: {exc}") from exc
    return EXIT_OK


EXPORT_EPILOG = """examples:
  mekref turn resolve --db g.db --day 1                   the day's engagements are found
  mekref engagement export --db g.db --side loyalist -o out/
  mekref engagement export --db g.db --side rebel -o out/ --engagement day1-1105-1
  mekref engagement export --db g.db --side rebel -o out/ --format mms \\
      --host-options ~/megamek/mmconf/gameoptions.xml --boards-dir ~/megamek/data/boards
  mekref battle ingest --db g.db logs/*.mul --control loyalist   after the game, its records
"""


def register(sub: Any) -> None:
    """``mekref engagement export``."""
    kw: dict[str, Any] = {"epilog": EXPORT_EPILOG}
    engagement = add_command(
        sub, "engagement", help="export engagements for MegaMek; unguided artillery", **kw
    )
    eng_acts = engagement.add_subparsers(title="actions", metavar="ACTION")
    export = add_command(
        eng_acts,
        "export",
        help="a side's unit list (.mul) and scenario sheet, and the engagement's MegaMek "
        "scenario (.mms)",
        description="Writes, per engagement of --side: <id>-<side>.mul and <id>-<side>.md (the "
        "side's units and briefing), and <id>.mms (+ <id>-options.xml): both sides as a MegaMek "
        "scenario the host opens with Load Scenario (it names every unit of both sides: hand "
        "it to the host, not the players). --format picks which.",
        **kw,
    )
    add_db(export)
    export.add_argument("--side", required=True, help="the side whose engagements are written")
    export.add_argument("--engagement", help="one engagement id (default: all of the side's)")
    export.add_argument("-o", "--output", type=Path, required=True, metavar="DIR")
    export.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="unit designs (.mtf/.blk) for units the campaign keeps no design for (the "
        "designs seen at force import are used without it)",
    )
    export.add_argument(
        "--format",
        choices=("both", "mul", "mms"),
        default="both",
        help="mul: unit list and sheet; mms: MegaMek scenario; both (default)",
    )
    export.add_argument(
        "--boards-dir",
        type=Path,
        metavar="DIR",
        help="MegaMek's data/boards: mapped boards must be in it, and sheets the mapping does "
        "not name go in by a board of that name (without a board: RANDOM, drawn from the "
        "mapping's random_dirs, and the export says so)",
    )
    export.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SIDE=NAME",
        help="the MegaMek player name of a side (default: the side's name without spaces)",
    )
    export.add_argument(
        "--house-rule",
        action="append",
        default=[],
        metavar="KEY",
        help="a tactical house rule in force: its MegaMek game option goes in the options file",
    )
    export.add_argument(
        "--board-map",
        type=Path,
        metavar="FILE",
        help='a TOML file mapping map sheets to MegaMek boards ([boards] "sheet" = '
        '"folder/board"; random_dirs = [...]), laid over the shipped mapping',
    )
    export.add_argument(
        "--host-options",
        type=Path,
        metavar="FILE",
        help="the host's saved MegaMek game options (mmconf/gameoptions.xml): the scenario's "
        "options file keeps them and switches on what the scenario needs (without it: "
        "MegaMek's defaults plus those, and the export says so)",
    )
    export.set_defaults(handler=guarded(run_export), command_name="engagement export")
    cli_artillery.register(eng_acts)
