"""``mekref battle``: ingest battle files, set control of the field, close a battle.

``battle ingest`` hashes each file (sha256 is its identity: a file is applied once), matches
its units to the campaign and submits it; with ``--control SIDE`` it also records who holds
the field. The battle resolves as soon as every side whose units appear has sent a file and
control is known; before that, ``battle close`` resolves it on a referee's word.

A file is a MegaMek unit list or record (``.mul``) or a savegame (``.sav.gz``, ``.sav``). A
savegame is the whole game, every side's view at once; it is taken only when its game has
ended (saved in MegaMek's victory phase, e.g. ``/save final`` once the game is over). A round
autosave is held unless the referee says the battle is over (``--game-over``).

Once the campaign has a strategic map (``turn setup``), a battle belongs to an engagement of
the last resolved day: every unit of its files must be a unit of that engagement's formations
(the scenario export writes their ids). A battle matching no open engagement is held, listed
with the reason by ``battle pending`` and ``mekref status``, and resolves only once the referee
confirms it (``battle confirm``, or ``--referee NAME --reason TEXT`` here, which confirms it at
once, also when given for ``--assign`` or ``--game-over``; both are recorded). A resolved
battle closes its engagement and says which formations still share its hex. A campaign
without a map takes its battles as before (ruling T-E8).

Units are measured against the designs the campaign kept at ``force import``: no units folder
is needed here. A unit imported without a design is still judged from the file (a 'Mech whose
centre torso is destroyed is truly destroyed), but its repair cannot be priced: ingest warns
naming it, and ``mekref force designs --units-dir DIR`` records the missing designs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_db,
    add_max_file_mb,
    add_referee,
    campaign_id_of,
    err_console,
    guarded,
    max_file_mb,
    opened,
    out_console,
    print_json,
    referee_note,
)
from mekref.daemon.ingest import IngestOptions, IngestResult, Outcome
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire import cli_battle_bv
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute, run_command
from mekref.daemon.tripwire.cli_force_input import design_lookup
from mekref.daemon.tripwire.house_xp_report import say_xp
from mekref.rules.messages import Event, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.battle_input import unpriced_warnings
from mekref.rules.tripwire.battle_messages import (
    BattleReportReceived,
    BattleResolved,
    CloseBattle,
    ConfirmBattle,
    SetBattleControl,
    SetUnitFate,
)
from mekref.rules.tripwire.battle_model import SAVEGAME_ROOT, Fate
from mekref.rules.tripwire.battle_pending import RetreatNotKnown, pending_battles, retreat_check
from mekref.rules.tripwire.claims import unconfirmed_claims
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import house_morale, rolled_damage
from mekref.rules.tripwire.turn.events import CampaignEnded, UnitDamageRolled
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested, TestMorale
from mekref.rules.tripwire.turn.pre_damage import RollPreBattleDamage

HELP = (
    "battle files in, battles resolved (ingest, confirm, control, close, fate, bv, "
    "retreat-check, pending; pre-damage and morale with the house rules)"
)
INGEST_DESCRIPTION = __doc__.split("\n\n", 1)[1] if __doc__ else ""
EPILOG = """\
examples:
  mekref battle ingest --db c.db logs/Ann.mul logs/Bob.mul --control loyalists
  mekref battle ingest --db c.db logs/Ann.mul --assign 12=UNIT_ID --referee Ann \\
      --reason "the Griffin at line 12 is Kai's"
  mekref battle ingest --db c.db ~/megamek/savegames/final.sav.gz --control loyalists
  mekref battle ingest --db c.db savegames/Round-7-autosave.sav.gz --game-over \\
      --referee Ann --reason "we stopped after round 7; the rebels withdrew"
  mekref battle pending --db c.db
  mekref battle pre-damage --db c.db --unit UNIT_ID     (a campaign with --house-rules)
  mekref battle morale --db c.db --unit UNIT_ID --battle day1-1105-1 --turn 4 \\
      --nationality Steiner --situation force_50           (a campaign with --house-rules)
  mekref battle ingest --db c.db logs/skirmish.mul --referee Ann \\
      --reason "a bout off the map we agreed to count"
  mekref battle confirm --db c.db --battle battle-0a1b2c3d4e5f --referee Ann \\
      --reason "a bout off the map we agreed to count"
  mekref battle confirm --db c.db --battle battle-0a1b2c3d4e5f --engagement day3-1105-1 \\
      --referee Ann --reason "the Locust joined late; it was in the hex"
  mekref battle fate --db c.db --unit UNIT --fate captured --side loyalists \\
      --referee Ann --reason "surrendered after the game"
  mekref battle bv --db c.db --unit UNIT --bv 1197 --held-at-start \\
      --referee Ann --reason "imported without a BV table; MegaMek's Units.txt"
  mekref battle retreat-check --db c.db --battle battle-0a1b2c3d4e5f --side federalists
  mekref battle control --db c.db --battle battle-0a1b2c3d4e5f --side federalists
  mekref battle close --db c.db --battle battle-0a1b2c3d4e5f --control loyalists \\
      --referee Ann --reason "Bob's laptop died; his file is lost"
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "battle", help=HELP, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    kw: dict[str, Any] = {"epilog": EPILOG, "formatter_class": argparse.RawDescriptionHelpFormatter}

    ingest = actions.add_parser(
        "ingest", help="submit battle files", description=INGEST_DESCRIPTION, **kw
    )
    add_db(ingest)
    ingest.add_argument("files", nargs="+", type=Path, metavar="RECORD.mul|GAME.sav.gz")
    ingest.add_argument("--control", metavar="SIDE", help="the side that controls the field")
    ingest.add_argument(
        "--units-dir",
        type=Path,
        metavar="DIR",
        help="unit designs for units the campaign keeps no design for (not needed otherwise)",
    )
    ingest.add_argument("--battle", metavar="ID", help="join this battle (default: by units)")
    ingest.add_argument(
        "--assign",
        action="append",
        metavar="LINE=UNIT_ID",
        help="referee: the entity starting at LINE is campaign unit UNIT_ID (repeat)",
    )
    ingest.add_argument(
        "--game-over",
        action="store_true",
        help="referee: the battle is over; apply a savegame saved before MegaMek's victory "
        "phase (a round autosave) instead of holding it",
    )
    add_max_file_mb(ingest)
    add_referee(ingest)
    ingest.set_defaults(handler=guarded(run_ingest), command_name="battle ingest")

    control = actions.add_parser("control", help="set who controls the field", **kw)
    add_db(control)
    control.add_argument("--battle", required=True, metavar="ID")
    control.add_argument("--side", required=True)
    add_referee(control)
    control.set_defaults(handler=guarded(run_control), command_name="battle control")

    close = actions.add_parser("close", help="resolve a battle now (referee)", **kw)
    add_db(close)
    close.add_argument("--battle", required=True, metavar="ID")
    close.add_argument("--control", metavar="SIDE", help="the side that controls the field")
    add_referee(close)
    close.set_defaults(handler=guarded(run_close), command_name="battle close")

    confirm = actions.add_parser(
        "confirm",
        help="referee: a held battle (it matches no engagement) stands",
        description="A battle whose files match no open engagement of the strategic map is "
        "held: it does not resolve until the referee confirms it (ruling T-E8). The "
        "confirmation is recorded with the referee's name and reason; --engagement names the "
        "open engagement it was fought for.",
        **kw,
    )
    add_db(confirm)
    confirm.add_argument("--battle", required=True, metavar="ID")
    confirm.add_argument("--engagement", metavar="ID", help="the open engagement it belongs to")
    add_referee(confirm)
    confirm.set_defaults(handler=guarded(run_confirm), command_name="battle confirm")

    fate = actions.add_parser("fate", help="referee: correct a unit's fate", **kw)
    add_db(fate)
    fate.add_argument("--unit", required=True, metavar="UNIT_ID")
    fate.add_argument("--fate", required=True, choices=[f.value for f in Fate])
    fate.add_argument("--side", help="captured: the side that takes the unit")
    add_referee(fate)
    fate.set_defaults(handler=guarded(run_fate), command_name="battle fate")
    cli_battle_bv.register(actions)

    check = actions.add_parser(
        "retreat-check",
        help="may a side call a retreat now?",
        description="TripWire lines 340-347, from the battle's files so far (BR-10);\n"
        "a resolved battle is read as it stood in that battle (BR-16).\n"
        "While a unit of the battle has no BV the answer is not known (exit 3):\n"
        "record it with 'mekref battle bv' (R-VP-6).",
        **kw,
    )
    add_db(check)
    check.add_argument("--battle", required=True, metavar="ID")
    check.add_argument("--side", required=True)
    check.add_argument("--objectives-destroyed", action="store_true")
    check.add_argument("--ammo-dry", action="store_true", help="all non-MG ammo is spent")
    check.add_argument("--json", action="store_true", help="the answer as JSON")
    check.set_defaults(handler=guarded(run_retreat_check), command_name="battle retreat-check")

    pre = actions.add_parser(
        "pre-damage",
        help="house rules: roll a unit's random pre-battle damage onto its condition",
        description="House rules lines 134-152 (a campaign created with 'mekref campaign new "
        "--house-rules'): 1d6 halved rolls of 3d6 on the Random Damage Table, laid on the "
        "unit's stored condition as rolled damage is (HOUSE-31, T-DM1): 'mekref report' shows "
        "it and the next 'mekref engagement export' writes it. Needs the strategic map "
        "('mekref turn setup').",
        **kw,
    )
    add_db(pre)
    pre.add_argument("--unit", required=True, metavar="UNIT_ID")
    pre.set_defaults(handler=guarded(run_pre_damage), command_name="battle pre-damage")

    morale = actions.add_parser(
        "morale",
        help="house rules: a unit's morale test in a battle's end phase",
        description="House rules lines 105-133 (a campaign created with 'mekref campaign new "
        "--house-rules'): 2d6 plus the unit skill (its pilot's rank by combined skill unless "
        "--skill names it), nationality and situation modifiers; 2 or less rout, 3-5 fighting "
        "withdrawal, 6-8 stand ground, 9-11 advance, 12 or more fight to the death. A total "
        "below 2 or above 12: the unit makes no more morale checks in that battle (HOUSE-35).",
        **kw,
    )
    add_db(morale)
    morale.add_argument("--unit", required=True, metavar="UNIT_ID")
    morale.add_argument("--battle", required=True, metavar="ID", help="its engagement/battle")
    morale.add_argument("--turn", required=True, type=int, help="the game turn")
    morale.add_argument(
        "--nationality", required=True, help="a Nationality row: Kuritan, Davion, ... Clan"
    )
    morale.add_argument(
        "--situation",
        action="append",
        metavar="KEY",
        help="a Situation row (repeat): force_50, force_75, lance_75, cruise_missile, inferno, "
        "force_commander_out, lance_commander_out",
    )
    morale.add_argument("--skill", help="Green, Regular, Veteran or Elite (default: the pilot's)")
    morale.set_defaults(handler=guarded(run_morale), command_name="battle morale")

    pending = actions.add_parser("pending", help="list battles waiting for files", **kw)
    add_db(pending)
    pending.add_argument("--json", action="store_true", help="the battles as JSON")
    pending.set_defaults(handler=guarded(run_pending), command_name="battle pending")


def run_ingest(args: argparse.Namespace) -> int:
    note = referee_note(args)
    assigned = _assignments(args.assign or ())
    if assigned and note is None:
        raise CliError("--assign is the referee's word: add --referee NAME --reason TEXT")
    if args.game_over and note is None:
        raise CliError("--game-over is the referee's word: add --referee NAME --reason TEXT")
    console = out_console()
    failed = 0
    with opened(
        args.db, designs=design_lookup(args.units_dir), max_file_mb=max_file_mb(args)
    ) as app:
        cid = campaign_id_of(app.store, args.campaign)
        state = app.runner.load(cid).state
        # Checked before any file is applied: a bad --control must not leave the files in
        # and the control out (a rerun would then find nothing to do).
        if args.control and args.control not in state.sides:
            sides = ", ".join(sorted(state.sides))
            raise CliError(f"--control {args.control!r}: no such side; sides: {sides}")
        options = IngestOptions(
            campaign_id=cid,
            battle_id=args.battle,
            assigned=assigned or None,
            actor=note.referee if note else "cli",
            game_over=bool(args.game_over),
            confirmed=note,
        )
        battles: list[str] = []
        for path in args.files:
            result = app.pipeline.process(path, options=options)
            failed += _print_result(console, path, result, battles)
            if result.outcome is Outcome.ALREADY_APPLIED and note is not None:
                # A file held earlier (no engagement) is confirmed by ingesting it again with
                # the referee's word (ruling T-E8).
                _confirm_held(app, cid, result.sha256 or "", note, console)
            if result.outcome is Outcome.ALREADY_APPLIED and args.control:
                # Resumable: a run that applied the file but not the control (refused, or
                # stopped) is finished by running it again.
                ledger = app.runner.load(cid).state.battles.battles
                battles += [
                    battle_id
                    for battle_id, battle in sorted(ledger.items())
                    if any(f.sha256 == result.sha256 for f in battle.files)
                ]
        if args.control:
            for battle_id in dict.fromkeys(battles):
                battle = app.runner.load(cid).state.battles.battles.get(battle_id)
                if battle is None or battle.resolution is not None:
                    continue
                done = run_command(
                    app.runner,
                    cid,
                    SetBattleControl(
                        battle_id=battle_id, side_id=args.control, note=note, actor="cli"
                    ),
                )
                if any(isinstance(e, BattleResolved) for e in done.events):
                    console.print(f"battle {battle_id} resolved, {args.control} holds the field")
                    say_after_battle(console, done.state, battle_id)
                say_xp(console, done.state, done.events)
                say_if_ended(console, done.events)
        _print_pending(console, app.runner.load(cid).state)
    return EXIT_REFUSED if failed else EXIT_OK


# What the referee reads for an outcome that took nothing in.
_OUTCOME_WORDS = {
    Outcome.NOT_FOR_CAMPAIGN: "not for this campaign",
    Outcome.UNMATCHED: "matches no campaign",
    Outcome.WAITING: "held",
    Outcome.QUARANTINED: "quarantined",
    Outcome.SKIPPED: "not read",
    Outcome.GONE: "not found",
}


def _confirm_held(app: Any, cid: str, sha256: str, note: RefereeNote, console: Any) -> None:
    state = app.runner.load(cid).state
    for battle in state.battles.battles.values():
        if battle.held and any(f.sha256 == sha256 for f in battle.files):
            done = run_command(
                app.runner,
                cid,
                ConfirmBattle(battle_id=battle.battle_id, note=note, actor=note.referee),
            )
            _say_confirmed(console, battle.battle_id, note, "")
            if any(isinstance(e, BattleResolved) for e in done.events):
                console.print(f"battle {battle.battle_id} resolved")
                say_after_battle(console, done.state, battle.battle_id)
            say_xp(console, done.state, done.events)
            say_if_ended(console, done.events)


def _say_confirmed(console: Any, battle_id: str, note: RefereeNote, engagement_id: str) -> None:
    what = f"the battle of engagement {engagement_id}" if engagement_id else "without an engagement"
    console.print(
        terminal_safe(
            f"battle {battle_id}: confirmed by the referee {note.referee}, {what} ({note.reason})"
        ),
        markup=False,
    )


def say_after_battle(console: Any, state: CampaignState, battle_id: str) -> None:
    """The engagement a resolved battle closed, and who still shares its hex (T-E9)."""
    battle = state.battles.battles.get(battle_id)
    if battle is None or not battle.engagement_id:
        return
    console.print(f"engagement {battle.engagement_id} closed by battle {battle_id}")
    together = battle_link.still_together(state, battle)
    if together is not None:
        console.print(together.sentence(), markup=False)


def _print_result(console: Any, path: Path, result: IngestResult, battles: list[str]) -> int:
    """Say what became of one file; 1 when it was not taken in (quarantined, refused)."""
    sha = (result.sha256 or "")[:12]
    if result.outcome is Outcome.ALREADY_APPLIED:
        console.print(
            terminal_safe(f"{path}: already ingested (sha256 {sha}), nothing to do"),
            markup=False,
        )
        return 0
    if result.outcome is not Outcome.APPLIED:
        what = _OUTCOME_WORDS.get(result.outcome, result.outcome.value.replace("_", " "))
        line = terminal_safe(f"mekref battle ingest: {path}: {what}: {result.reason}")
        err_console().print(line, markup=False, highlight=False)
        return 1
    for event in result.applied:
        if isinstance(event, BattleReportReceived):
            battles.append(event.battle_id)
            f = event.file
            unmatched = f"; not in the campaign: {', '.join(f.unmatched)}" if f.unmatched else ""
            view = (
                "savegame: every side's view"
                if f.root == SAVEGAME_ROOT
                else f"view of side {f.reporting_side or '(none)'}"
            )
            console.print(
                terminal_safe(
                    f"{path}: {len(f.units)} units for battle {event.battle_id}"
                    f"{' (new)' if event.opened else ''}, {view}{unmatched}"
                ),
                markup=False,
            )
            for warning in unpriced_warnings(f):
                err_console().print(f"mekref battle ingest: warning: {warning}")
            if event.engagement_id:
                console.print(f"  fought for engagement {event.engagement_id}")
            if event.confirmed is not None:
                _say_confirmed(console, event.battle_id, event.confirmed, event.engagement_id)
        if isinstance(event, BattleResolved):
            console.print(f"battle {event.battle_id} resolved")
            if result.state is not None:
                say_after_battle(console, result.state, event.battle_id)
    if result.held:
        battle = result.battle_id or "?"
        err_console().print(
            terminal_safe(
                f"mekref battle ingest: {path}: battle {battle} is held: {result.held}; "
                f"the referee confirms it with 'mekref battle confirm --battle {battle} "
                "--referee NAME --reason TEXT' (or ingests it with --referee and --reason)"
            ),
            markup=False,
            highlight=False,
        )
    say_xp(console, result.state, result.applied)
    say_if_ended(console, result.applied)
    return 0


def say_if_ended(console: Any, events: Iterable[Event]) -> None:
    """A battle's result or a fate can end the campaign (lines 412-414): say so, with why."""
    for event in events:
        if isinstance(event, CampaignEnded):
            console.print(f"the campaign has ended: {event.reason}", style="bold")


def _assignments(items: Sequence[str]) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in items:
        line, sep, unit_id = item.partition("=")
        if not sep or not line.strip().isdigit() or not unit_id.strip():
            raise CliError(f"--assign {item!r}: write LINE=UNIT_ID, e.g. --assign 12=UNIT_ID")
        out[int(line)] = unit_id.strip()
    return out


def run_control(args: argparse.Namespace) -> int:
    command = SetBattleControl(
        battle_id=args.battle, side_id=args.side, note=referee_note(args), actor="cli"
    )
    done = execute(args, command)
    console = out_console()
    console.print(f"battle {args.battle}: {args.side} controls the field")
    if any(isinstance(e, BattleResolved) for e in done.events):
        console.print(f"battle {args.battle} resolved")
        say_after_battle(console, done.state, args.battle)
    say_xp(console, done.state, done.events)
    say_if_ended(console, done.events)
    _print_pending(console, done.state)
    return EXIT_OK


def run_confirm(args: argparse.Namespace) -> int:
    note = referee_note(args)
    if note is None:
        raise CliError("a confirmation is the referee's word: add --referee NAME --reason TEXT")
    command = ConfirmBattle(
        battle_id=args.battle,
        note=note,
        engagement_id=args.engagement or "",
        actor=note.referee,
    )
    done = execute(args, command)
    console = out_console()
    _say_confirmed(console, args.battle, note, args.engagement or "")
    if any(isinstance(e, BattleResolved) for e in done.events):
        console.print(f"battle {args.battle} resolved")
        say_after_battle(console, done.state, args.battle)
    say_xp(console, done.state, done.events)
    say_if_ended(console, done.events)
    _print_pending(console, done.state)
    return EXIT_OK


def run_close(args: argparse.Namespace) -> int:
    note = referee_note(args)
    command = CloseBattle(
        battle_id=args.battle,
        control_side=args.control,
        note=note,
        actor=note.referee if note else "cli",
    )
    done = execute(args, command)
    out_console().print(f"battle {args.battle} resolved; see 'mekref report'")
    say_after_battle(out_console(), done.state, args.battle)
    say_xp(out_console(), done.state, done.events)
    say_if_ended(out_console(), done.events)
    return EXIT_OK


def run_fate(args: argparse.Namespace) -> int:
    note = referee_note(args)
    if note is None:
        raise CliError("a fate override needs --referee NAME and --reason TEXT")
    command = SetUnitFate(
        unit_id=args.unit, fate=Fate(args.fate), new_side=args.side, note=note, actor=note.referee
    )
    done = execute(args, command)
    out_console().print(
        f"unit {args.unit}: {args.fate}" + (f", now {args.side}'s" if args.side else "")
    )
    say_if_ended(out_console(), done.events)
    return EXIT_OK


def run_pre_damage(args: argparse.Namespace) -> int:
    done = execute(args, RollPreBattleDamage(unit_id=args.unit, actor="referee"))
    console = out_console()
    for e in done.events:
        if not isinstance(e, UnitDamageRolled):
            continue
        unit = done.state.units[e.unit_id]
        console.print(
            f"pre-battle damage (house rules L134) on {e.unit_id} {unit.chassis} {unit.model}:",
            style="bold",
        )
        for note in e.notes:
            console.print(f"  {note}")
        for line in e.lines:
            console.print(f"  {rolled_damage.describe(line)}")
        console.print(f"  now {e.fate.value.replace('_', ' ')}")
        for pid, hits in e.crew_hits:
            console.print(f"  {pid}: {hits} hit(s) (a head hit, T-DM4)")
    return EXIT_OK


def run_morale(args: argparse.Namespace) -> int:
    command = TestMorale(
        unit_id=args.unit,
        battle=args.battle,
        turn=args.turn,
        nationality=args.nationality,
        situations=tuple(args.situation or ()),
        skill=args.skill or "",
        actor="referee",
    )
    done = execute(args, command)
    for e in done.events:
        if isinstance(e, HouseMoraleTested):
            out_console().print(house_morale.describe(e))
    return EXIT_OK


def run_retreat_check(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    try:
        met = retreat_check(
            state,
            args.battle,
            args.side,
            TRIPWIRE.dice_for(state),
            defended_objectives_destroyed=args.objectives_destroyed,
            ammo_weapons_dry=args.ammo_dry,
        )
    except RetreatNotKnown as exc:
        # R-VP-6: never a "no" read from a partial BV sum; exits as a refusal (nothing decided).
        if args.json:
            print_json(_retreat_json(args, None, units_without_bv=exc.units_without_bv))
            return EXIT_REFUSED
        raise CliError(f"whether {args.side} may call a retreat is {exc}", EXIT_REFUSED) from exc
    except Refusal as exc:
        raise CliError(f"refused: {exc}", EXIT_REFUSED) from exc
    if args.json:
        print_json(_retreat_json(args, met))
        return EXIT_OK
    console = out_console()
    if not met:
        console.print(f"{args.side} may not call a retreat: no condition of line 340 is met")
        return EXIT_OK
    console.print(f"{args.side} may call a retreat:")
    for ref in met:
        console.print(f"  - line {ref.line}: {ref.source}")
    return EXIT_OK


def _retreat_json(
    args: argparse.Namespace,
    met: Sequence[SourceRef] | None,
    units_without_bv: Sequence[str] = (),
) -> dict[str, Any]:
    """``may_retreat`` null: not known (R-VP-6), with the units whose BV is to be recorded."""
    return {
        "battle_id": args.battle,
        "side": args.side,
        "may_retreat": None if met is None else bool(met),
        "conditions": [{"line": r.line, "source": r.source} for r in met or ()],
        "units_without_bv": list(units_without_bv),
        "not_known": None
        if met is not None
        else "a unit of the battle has no BV: record each with 'mekref battle bv' (R-VP-6)",
    }


def run_pending(args: argparse.Namespace) -> int:
    state = campaign_state(args)
    if args.json:
        print_json(
            [
                {
                    "battle_id": p.battle_id,
                    "sides_expected": list(p.sides_expected),
                    "sides_reported": list(p.sides_reported),
                    "sides_missing": list(p.sides_missing),
                    "files": list(p.files),
                    "control": p.control_side,
                    "engagement_id": p.engagement_id or None,
                    "held": p.held or None,
                }
                for p in pending_battles(state)
            ]
        )
        return EXIT_OK
    _print_pending(out_console(), state, always=True)
    return EXIT_OK


def _print_pending(console: Any, state: CampaignState, always: bool = False) -> None:
    waiting = pending_battles(state)
    if not waiting:
        if always:
            console.print("no battle is waiting")
        return
    for p in waiting:
        missing = ", ".join(p.sides_missing) or "none"
        console.print(
            f"battle {p.battle_id} waits: files from {', '.join(p.sides_reported) or 'no side'}"
            f" of {', '.join(p.sides_expected)}; missing {missing}; "
            f"control {p.control_side or 'not set'}"
            + (f"; engagement {p.engagement_id}" if p.engagement_id else "")
        )
        if p.held:
            console.print(
                terminal_safe(
                    f"  held until the referee confirms it: {p.held} (mekref battle confirm "
                    f"--battle {p.battle_id} --referee NAME --reason TEXT)"
                ),
                markup=False,
            )
        # BR-12: what one side's file claims about units their own side's file does not list.
        held = unconfirmed_claims(state, state.battles.battles[p.battle_id])
        for unit_id in sorted(held):
            unit = state.units[unit_id]
            claims = ", ".join(
                sorted({f"{f.reporting_side or 'no side'} says {u.section.value}"
                        for f, u in held[unit_id]})
            )  # fmt: skip
            console.print(
                f"  held: {unit.chassis} {unit.model} ({unit_id}) of {unit.side_id}: {claims}; "
                f"{unit.side_id}'s own file does not list it, so it will not be applied (BR-12)"
            )
