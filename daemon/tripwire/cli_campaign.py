"""``mekref campaign new``: create a TripWire campaign with its sides in an event store.

Also the helpers TripWire's campaign commands share: load a campaign's state or run a command
with the 8-character ids the report prints taken back. What every command shares, whatever the
rule set, is in :mod:`mekref.daemon.cli_common`.
"""

from __future__ import annotations

import argparse
import secrets
from collections.abc import Callable
from typing import Any

from mekref.daemon.campaigns import CampaignRunner, Executed
from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_command,
    add_db,
    add_referee,
    add_store,
    campaign_id_of,
    guarded,
    opened,
    out_console,
    print_json,
    referee_only,
    refused,
)
from mekref.daemon.store import FileRef
from mekref.daemon.store.open import redact
from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreateCampaign, SideSpec
from mekref.rules.tripwire.id_prefixes import full_battle_id, with_full_ids
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.plugin import RecordLeaderCaptured

#: The two factions of Operation TripWire, used when no --side is given.
DEFAULT_SIDES = ("loyalists:Katrina Steiner Loyalists", "federalists:Victor Steiner-Davion")

HELP = "create a campaign (campaign new)"
DESCRIPTION = """\
Create a campaign in an event store. The store is a SQLite file or a postgresql:// URL; this
command (and 'game start') creates it when it is not there, the others refuse a --db where
there is no store. Every later command names the same --db, or set it once: MEKREF_DB, or
db = "..." in mekref.toml (see 'mekref config show').
"""

NEW_EPILOG = """\
examples:
  mekref campaign new --db ginestra.db --name "Operation TripWire" --seed 3065
  mekref campaign new --db c.db --name Test --seed 7 --side red:Red --side blue:Blue
  mekref campaign new --db c.db --name "Tukayyid Raid" --seed 7 --house-rules
"""


def run_command(
    runner: CampaignRunner,
    campaign_id: str,
    command: Command,
    battle_file: FileRef | None = None,
) -> Executed:
    try:
        # The 8-character ids the report prints are taken back (a unique prefix, TripWire).
        state = runner.load(campaign_id).state
        if isinstance(state, CampaignState):
            command = with_full_ids(state, command)
        return runner.execute(campaign_id, command, battle_file=battle_file)
    except Refusal as exc:
        raise refused(exc) from exc


def campaign_state(args: argparse.Namespace) -> CampaignState:
    """The current state of the campaign that ``--db`` and ``--campaign`` name."""
    with opened(args.db) as app:
        state: CampaignState = app.runner.load(campaign_id_of(app.store, args.campaign)).state
    return state


def whole_battle_id(state: CampaignState, given: str) -> str:
    """The battle ``given`` names: its id, or a unique prefix of it with or without
    ``battle-`` (issue 27, item 9); an ambiguous prefix is refused with the candidates."""
    try:
        return full_battle_id(state, given)
    except Refusal as exc:
        raise refused(exc) from exc


def require_side(state: CampaignState, side: str | None, flag: str = "--side") -> None:
    """Refuse a side the campaign does not have as a usage error (exit 2, docs/cli.md), naming
    the sides it has, before anything runs: a typo must not print an empty list or reach the
    rules as a refusal."""
    if side is None or side in state.sides:
        return
    known = ", ".join(sorted(state.sides)) or "none yet (mekref campaign new --side NAME)"
    raise CliError(f"{flag} {side!r}: no such side in this campaign; sides: {known}")


def side_campaign_state(args: argparse.Namespace) -> CampaignState:
    """``campaign_state`` for a command whose ``--side`` must be one of the campaign's."""
    state = campaign_state(args)
    require_side(state, args.side)
    return state


def execute(
    args: argparse.Namespace,
    command: Command,
    *,
    side: str | None = None,
    completed: Callable[[CampaignState, Command], Command] | None = None,
) -> Executed:
    """Run one command against the campaign that ``--db`` and ``--campaign`` name, on one
    opening of the store: with ``side``, refuse first a side the campaign does not have
    (``require_side``); with ``completed``, fill in what the command needs from the campaign's
    state first (a BV read from a table for the unit it names)."""
    with opened(args.db) as app:
        campaign_id = campaign_id_of(app.store, args.campaign)
        if side is not None or completed is not None:
            state = app.runner.load(campaign_id).state
            if side is not None:
                require_side(state, side)
            if completed is not None:
                command = completed(state, command)
        return run_command(app.runner, campaign_id, command)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        sub, "campaign", help=HELP, description=DESCRIPTION, epilog=NEW_EPILOG
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    new = add_command(
        actions,
        "new",
        help="create a campaign with its sides",
        description=DESCRIPTION,
        epilog=NEW_EPILOG,
    )
    add_store(new)
    new.add_argument("--name", required=True, help="the campaign's name")
    new.add_argument(
        "--ruleset",
        default="tripwire",
        choices=("tripwire",),
        help="TripWire (the other rule sets start with 'mekref game start')",
    )
    new.add_argument("--seed", help="seed of the campaign's dice (default: a random one)")
    new.add_argument(
        "--side",
        action="append",
        metavar="ID:NAME",
        help="a side (repeat; default: the two TripWire factions)",
    )
    new.add_argument(
        "--house-rules",
        action="store_true",
        help="play the house rules (docs/house-rules.md) as options of this campaign: "
        "'battle pre-damage' (lines 134-152), 'battle morale' (105-133), experience gained in "
        "battles and 'spend xp' (104, 153-154), 'turn maintenance-check' (94) and 'spend "
        "acquire' for the ammunition an Ammo Dump lacks (171-219); without it they are refused",
    )
    new.add_argument("--json", action="store_true", help="the new campaign as JSON")
    new.set_defaults(handler=guarded(_new), command_name="campaign new")
    capture = add_command(
        actions,
        "capture-leader",
        help="referee: a side's leader was captured and brought to the captor's DropShip",
        description=(
            "TripWire line 162: 'If a leader is captured and returned to the opposing players "
            "DropShip the campaign ends.' Records it (RecordLeaderCaptured) with the referee's "
            "name and reason once a resolved battle destroyed the leader's escort ('If the unit "
            "is destroyed the leader can be captured'), or with --override (ruling T-L1); the "
            "campaign ends at once with that reason, and 'mekref report' shows it. Capture "
            "only: a leader killed does not end the campaign (line 413)."
        ),
        epilog=(
            "examples:\n  mekref campaign capture-leader --db g.db --side rebel --referee Ann \\\n"
            "      --reason 'militia APC destroyed on day 12; leader carried to the Union'"
        ),
    )
    add_db(capture)
    capture.add_argument("--side", required=True, help="the side whose leader was captured")
    add_referee(capture)
    capture.add_argument(
        "--override",
        action="store_true",
        help="the referee rules the capture although no resolved battle destroyed the leader's "
        "escort (line 162; ruling T-L1); listed with the report's overrides",
    )
    capture.set_defaults(handler=guarded(_capture_leader), command_name="campaign capture-leader")


def _capture_leader(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "the end of the campaign is the referee's: give --referee NAME and --reason"
    )
    cmd = RecordLeaderCaptured(
        force=args.side, note=note, override=args.override, actor=note.referee
    )
    done = execute(args, cmd)
    console = out_console()
    console.print(f"the leader of {args.side} is captured ({note.referee}: {note.reason})")
    s = done.state.strategic
    battle = s.escorts_lost.get(args.side, "") if s is not None else ""
    console.print(
        f"  the escort was destroyed in battle {battle} (L162)"
        if battle
        else "  on the referee's override: no resolved battle destroyed the escort (T-L1)"
    )
    ended = done.state.strategic.ended if done.state.strategic is not None else ""
    if ended:
        console.print(f"the campaign has ended: {ended}", style="bold")
    return EXIT_OK


def parse_side(text: str) -> SideSpec:
    side_id, sep, name = text.partition(":")
    if not sep or not side_id.strip() or not name.strip():
        raise CliError(f"--side {text!r}: write it as ID:NAME, e.g. red:Red Company")
    return SideSpec(side_id=side_id.strip(), name=name.strip())


def _new(args: argparse.Namespace) -> int:
    sides = tuple(parse_side(s) for s in (args.side or DEFAULT_SIDES))
    seed = args.seed or secrets.token_hex(8)
    command = CreateCampaign(
        name=args.name,
        ruleset=args.ruleset,
        seed=str(seed),
        sides=sides,
        actor="cli",
        house_rules=args.house_rules,
    )
    with opened(args.db, create=True) as app:
        try:
            done = app.runner.create(command)
        except Refusal as exc:
            raise refused(exc) from exc
    if args.json:
        print_json(
            {
                "campaign_id": done.campaign_id,
                "name": args.name,
                "ruleset": args.ruleset,
                "seed": str(seed),
                "sides": [{"id": s.side_id, "name": s.name} for s in sides],
                "house_rules": args.house_rules,
                "store": redact(args.db),
            }
        )
        return EXIT_OK
    console = out_console()
    console.print(f"campaign {args.name} created: id {done.campaign_id}", style="bold")
    console.print(f"ruleset {args.ruleset}, seed {seed}, store {redact(args.db)}")
    for s in sides:
        console.print(f"  side {s.side_id}: {s.name}")
    if args.house_rules:
        console.print(
            "house rules: on (pre-battle damage, lines 134-152; morale, 105-133; experience, "
            "104 and 153-154; the maintenance check, 94; acquisition, 171-219)"
        )
    return EXIT_OK
