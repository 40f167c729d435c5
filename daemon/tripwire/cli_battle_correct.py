"""``mekref battle correct``: a resolved battle's booked condition corrected (ruling SG-7).

``--from-save FILE`` applies a later save of the game the battle was resolved from, as a save
arriving by the referee's doors does on its own (the watched folder, ``battle ingest``, a
referee token): the file joins the battle, supersedes the earlier save and is remembered as
applied; each unit's damage, person's hits and unit's fate it says otherwise replace the booked
ones, a person newly at 5 hits makes the death roll (L125). ``--person NAME --hits N`` corrects
one person's hits by the referee's word. ``--unit NAME --armor LOC=N --internal LOC=N
--destroyed LOC`` corrects one unit's damage by the referee's figures (ruling BR-18): they
start from the booked damage and change only the locations named (the armour and structure
left, as MegaMek's unit list and 'mekref report' give them; front and rear armour as one
figure); the rest (other locations, critical hits, ammunition) stays as booked. The repair is
priced again from the corrected damage (R-COST-1).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_command,
    add_db,
    add_referee,
    campaign_id_of,
    err_console,
    guarded,
    opened,
    out_console,
    referee_only,
    refused,
)
from mekref.daemon.ingest import IngestOptions, Outcome
from mekref.daemon.terminal import terminal_safe
from mekref.daemon.tripwire.cli_battle_correct_unit import (
    add_location_options,
    location_options_given,
    say_locations,
    unit_correction,
)
from mekref.daemon.tripwire.cli_battle_words import say_if_ended
from mekref.daemon.tripwire.cli_campaign import run_command, whole_battle_id
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_correct import (
    ConditionCorrected,
    CorrectCondition,
    PersonCorrection,
    UnitCorrection,
    describe,
)
from mekref.rules.tripwire.battle_model import BattleStatus
from mekref.rules.tripwire.id_prefixes import full_person_id
from mekref.rules.tripwire.state import CampaignState

DESCRIPTION = __doc__.split("\n\n", 1)[1] if __doc__ else ""


def register(actions: Any, kw: dict[str, Any]) -> None:
    correct = add_command(
        actions,
        "correct",
        help="referee: correct a resolved battle's booked damage and hits (a later save, "
        "or the referee's figures)",
        description=DESCRIPTION,
        **kw,
    )
    add_db(correct)
    correct.add_argument("--battle", required=True, metavar="ID")
    what = correct.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--from-save", type=Path, metavar="GAME.sav.gz", help="a later save of the battle's game"
    )
    what.add_argument("--person", metavar="NAME|ID", help="correct this person's hits")
    what.add_argument(
        "--unit",
        metavar="NAME|ID",
        help="correct this unit's damage with --armor, --internal and --destroyed; the "
        "locations not named stay as booked (ruling BR-18)",
    )
    correct.add_argument("--hits", type=int, metavar="N", help="with --person: hits, 0 to 6")
    add_location_options(correct)
    add_referee(correct)
    correct.set_defaults(handler=guarded(run_correct), command_name="battle correct")


def say_correction(
    console: Any, state: CampaignState, event: ConditionCorrected, before: Any = None
) -> None:
    """The correction's lines; ``before``: the state it was decided on, to show each corrected
    unit's locations as they were and are (the referee's own figures)."""
    console.print(f"battle {event.battle_id}: booked condition corrected (ruling SG-7)")
    for line in describe(state, event):
        console.print(terminal_safe(f"  {line}"), markup=False, highlight=False)
    if before is not None:
        for line in say_locations(before, event):
            console.print(terminal_safe(f"    {line}"), markup=False, highlight=False)


def run_correct(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "a correction is the referee's word: add --referee NAME --reason TEXT"
    )
    if args.person is not None and args.hits is None:
        raise CliError("--person needs --hits N (the person's hits, 0 to 6)")
    if args.hits is not None and args.person is None:
        raise CliError("--hits goes with --person NAME")
    given = location_options_given(args)
    if given and args.unit is None:
        raise CliError(f"{given} goes with --unit NAME (the unit whose damage it corrects)")
    if args.from_save is not None:
        return _from_save(args, note)
    with opened(args.db) as app:
        cid = campaign_id_of(app.store, args.campaign)
        state: CampaignState = app.runner.load(cid).state
        battle_id = whole_battle_id(state, args.battle)
        try:
            units: tuple[UnitCorrection, ...] = ()
            people: tuple[PersonCorrection, ...] = ()
            if args.unit is not None:
                units = (unit_correction(state, battle_id, args),)
            else:
                person = full_person_id(state, args.person)
                people = (PersonCorrection(person_id=person, hits=args.hits),)
        except Refusal as exc:
            raise refused(exc) from exc
        command = CorrectCondition(
            battle_id=battle_id, note=note, units=units, people=people, actor=note.referee
        )
        done = run_command(app.runner, cid, command)
    _say(done.state, done.events, state)
    return EXIT_OK


def _say(state: CampaignState, events: Any, before: CampaignState | None = None) -> None:
    console = out_console()
    for e in events:
        if isinstance(e, ConditionCorrected):
            say_correction(console, state, e, before)
    say_if_ended(console, events)


def _from_save(args: argparse.Namespace, note: Any) -> int:
    path: Path = args.from_save
    with opened(args.db) as app:
        cid = campaign_id_of(app.store, args.campaign)
        state: CampaignState = app.runner.load(cid).state
        battle_id = whole_battle_id(state, args.battle)
        battle = state.battles.battles.get(battle_id)
        if battle is None:
            raise CliError(f"no battle {args.battle!r}", EXIT_REFUSED)
        if battle.status is not BattleStatus.RESOLVED:
            raise CliError(
                f"battle {battle_id} is open: ingest the later save with 'mekref battle "
                "ingest', where it supersedes the earlier one (ruling SG-7)",
                EXIT_REFUSED,
            )
        options = IngestOptions(
            campaign_id=cid,
            battle_id=battle_id,
            actor=note.referee,
            game_over=True,  # the referee's word: a round autosave counts too
            confirmed=note,
        )
        result = app.pipeline.process(path, options=options)
    if result.outcome is Outcome.ALREADY_APPLIED:
        out_console().print(
            terminal_safe(f"{path}: already applied (sha256 {(result.sha256 or '')[:12]})"),
            markup=False,
        )
        return EXIT_OK
    if result.outcome is not Outcome.APPLIED or result.state is None:
        err_console().print(
            terminal_safe(f"mekref battle correct: {result.reason}"),
            markup=False,
            highlight=False,
        )
        return EXIT_REFUSED
    _say(result.state, result.applied)
    return EXIT_OK
