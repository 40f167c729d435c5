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
from collections import Counter
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_command,
    add_db,
    add_max_file_mb,
    add_referee,
    campaign_id_of,
    err_console,
    guarded,
    max_file_mb,
    opened,
    out_console,
    referee_note,
)
from mekref.daemon.ingest import IngestOptions, IngestResult, Outcome
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire import cli_battle_bv, cli_battle_correct, cli_battle_record
from mekref.daemon.tripwire.cli_battle_referee import (
    _assignments,
    say_battle_done,
    setup_house_rules,
    setup_pending,
    setup_retreat_check,
    setup_rulings,
)
from mekref.daemon.tripwire.cli_battle_words import (
    print_pending,
    say_after_battle,
    say_confirmed,
    say_if_ended,
)
from mekref.daemon.tripwire.cli_campaign import run_command, whole_battle_id
from mekref.daemon.tripwire.cli_force_input import design_lookup
from mekref.daemon.tripwire.house_xp_report import say_xp
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.battle_correct import ConditionCorrected
from mekref.rules.tripwire.battle_input import unpriced_warnings
from mekref.rules.tripwire.battle_messages import (
    BattleReportReceived,
    BattleResolved,
    ConfirmBattle,
    SetBattleControl,
)
from mekref.rules.tripwire.battle_model import SAVEGAME_ROOT
from mekref.rules.tripwire.battle_supersede import note as supersede_words

HELP = (
    "battle files in, battles resolved (ingest, confirm, control, close, fate, correct, bv, "
    "retreat-check, pending, export-record; pre-damage and morale with the house rules)"
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
  mekref battle correct --db c.db --battle battle-0a1b --from-save savegames/final.sav.gz \\
      --referee Ann --reason "the game's last save came after the autosave we applied"
  mekref battle correct --db c.db --battle battle-0a1b --person "Kai Allard" --hits 3 \\
      --referee Ann --reason "MegaMek's report shows a third hit"
  mekref battle correct --db c.db --battle battle-0a1b --unit "Griffin GRF-1N" --armor RT=6 \\
      --referee Ann --reason "MegaMek's report shows 6 points left"
  mekref battle bv --db c.db --unit UNIT --bv 1197 --held-at-start \\
      --referee Ann --reason "imported without a BV table; MegaMek's Units.txt"
  mekref battle retreat-check --db c.db --battle battle-0a1b2c3d4e5f --side federalists
  mekref battle control --db c.db --battle battle-0a1b2c3d4e5f --side federalists
  mekref battle close --db c.db --battle battle-0a1b2c3d4e5f --control loyalists \\
      --referee Ann --reason "Bob's laptop died; his file is lost"
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(sub, "battle", help=HELP, epilog=EPILOG)
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    kw: dict[str, Any] = {"epilog": EPILOG}

    _setup_ingest(actions, kw)
    setup_rulings(actions, kw)
    cli_battle_correct.register(actions, kw)
    cli_battle_bv.register(actions)
    setup_retreat_check(actions, kw)
    setup_house_rules(actions, kw)
    setup_pending(actions, kw)
    cli_battle_record.register(actions)


def _setup_ingest(actions: Any, kw: dict[str, Any]) -> None:
    """``battle ingest``."""
    ingest = add_command(
        actions, "ingest", help="submit battle files", description=INGEST_DESCRIPTION, **kw
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
            battle_id=whole_battle_id(state, args.battle) if args.battle else None,
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
                held = f"resolved, {args.control} holds the field"
                say_battle_done(console, battle_id, done, held)
        print_pending(console, app.runner.load(cid).state)
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
            say_confirmed(console, battle.battle_id, note, "")
            say_battle_done(console, battle.battle_id, done)


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
    corrects = any(isinstance(e, ConditionCorrected) for e in result.applied)
    for event in result.applied:
        if isinstance(event, ConditionCorrected) and result.state is not None:
            cli_battle_correct.say_correction(console, result.state, event)
        if isinstance(event, BattleReportReceived):
            battles.append(event.battle_id)
            f = event.file
            unmatched = f"; not in the campaign: {_counted(f.unmatched)}" if f.unmatched else ""
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
            if event.supersedes and not corrects:  # a correction says it in its own notes
                console.print(terminal_safe(_supersede_note(result.state, event)), markup=False)
            if event.engagement_id:
                console.print(f"  fought for engagement {event.engagement_id}")
            if event.confirmed is not None:
                say_confirmed(console, event.battle_id, event.confirmed, event.engagement_id)
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


def _counted(names: tuple[str, ...] | list[str]) -> str:
    """Names in their order, each once, a repeated one with its count: a carrier's nine
    "Battle Taxi NL-42" read as one entry ("Battle Taxi NL-42 (x9)")."""
    counts = Counter(names)
    return ", ".join(n if counts[n] == 1 else f"{n} (x{counts[n]})" for n in counts)


def _supersede_note(state: Any, event: BattleReportReceived) -> str:
    """Ruling SG-7: which earlier save of the game this one replaced in its battle."""
    battle = state.battles.battles[event.battle_id] if state is not None else None
    earlier = [f for f in battle.files if f.sha256 == event.supersedes] if battle else []
    if not earlier:
        return f"  supersedes {event.supersedes[:12]} (ruling SG-7)"
    return "  " + supersede_words(event.battle_id, earlier[0], event.file)
