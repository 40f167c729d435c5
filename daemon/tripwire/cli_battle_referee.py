"""The referee's battle commands: who holds the field, a battle closed or a held one confirmed, a
unit's fate corrected, the retreat check, the house rules' pre-battle damage and morale, and
the battles waiting for files."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_command,
    add_db,
    add_referee,
    guarded,
    noted,
    out_console,
    print_json,
    referee_note,
    referee_only,
    refused,
)
from mekref.daemon.tripwire.cli_battle_words import (
    print_pending,
    say_after_battle,
    say_confirmed,
    say_if_ended,
)
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute, whole_battle_id
from mekref.daemon.tripwire.house_xp_report import say_xp
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire.battle_messages import (
    BattleResolved,
    CloseBattle,
    ConfirmBattle,
    SetBattleControl,
    SetUnitFate,
    UnitFateSet,
)
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.battle_pending import RetreatNotKnown, pending_battles, retreat_check
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.turn import house_morale, rolled_damage
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested, TestMorale
from mekref.rules.tripwire.turn.pre_damage import RollPreBattleDamage


def _assignments(items: Sequence[str]) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in items:
        line, sep, unit_id = item.partition("=")
        if not sep or not line.strip().isdigit() or not unit_id.strip():
            raise CliError(f"--assign {item!r}: write LINE=UNIT_ID, e.g. --assign 12=UNIT_ID")
        out[int(line)] = unit_id.strip()
    return out


def _whole_battle(done: Any, given: str) -> str:
    """The battle the rules read ``given`` as (its whole id: ``execute`` makes a prefix whole,
    issue 27 item 9), from the events it recorded; the store is opened once per command."""
    return next((str(e.battle_id) for e in done.events if hasattr(e, "battle_id")), given)


def run_control(args: argparse.Namespace) -> int:
    command = SetBattleControl(
        battle_id=args.battle, side_id=args.side, note=referee_note(args), actor="cli"
    )
    done = execute(args, command)
    battle = _whole_battle(done, args.battle)
    console = out_console()
    console.print(f"battle {battle}: {args.side} controls the field")
    say_battle_done(console, battle, done)
    print_pending(console, done.state)
    return EXIT_OK


def say_battle_done(console: Any, battle_id: str, done: Any, resolved: str = "resolved") -> None:
    """What a referee's command on a battle brought about: the resolution when it came (with
    ``resolved`` as its headline), experience gained, and the campaign's end if reached."""
    if any(isinstance(e, BattleResolved) for e in done.events):
        console.print(f"battle {battle_id} {resolved}")
        say_after_battle(console, done.state, battle_id)
    say_xp(console, done.state, done.events)
    say_if_ended(console, done.events)


def run_confirm(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "a confirmation is the referee's word: add --referee NAME --reason TEXT"
    )
    command = ConfirmBattle(
        battle_id=args.battle,
        note=note,
        engagement_id=args.engagement or "",
        actor=note.referee,
    )
    done = execute(args, command)
    battle = _whole_battle(done, args.battle)
    console = out_console()
    say_confirmed(console, battle, note, args.engagement or "")
    say_battle_done(console, battle, done)
    print_pending(console, done.state)
    return EXIT_OK


def run_close(args: argparse.Namespace) -> int:
    command = CloseBattle(
        battle_id=args.battle,
        control_side=args.control,
        **noted(args),
    )
    done = execute(args, command)
    battle = _whole_battle(done, args.battle)
    out_console().print(f"battle {battle} resolved; see 'mekref report'")
    say_after_battle(out_console(), done.state, battle)
    say_xp(out_console(), done.state, done.events)
    say_if_ended(out_console(), done.events)
    return EXIT_OK


def run_fate(args: argparse.Namespace) -> int:
    note = referee_only(args, "a fate override needs --referee NAME and --reason TEXT")
    command = SetUnitFate(
        unit_id=args.unit, fate=Fate(args.fate), new_side=args.side, note=note, actor=note.referee
    )
    done = execute(args, command)
    # The unit as the rules read it: the whole id of a prefix or a name (issue 27, item 9).
    whole = next((e.unit_id for e in done.events if isinstance(e, UnitFateSet)), args.unit)
    out_console().print(
        f"unit {whole}: {args.fate}" + (f", now {args.side}'s" if args.side else ""),
        markup=False,
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
    args.battle = whole_battle_id(state, args.battle)
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
        raise refused(exc) from exc
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
    print_pending(out_console(), state, always=True)
    return EXIT_OK


def setup_rulings(actions: Any, kw: dict[str, Any]) -> None:
    """``battle control``, ``close``, ``confirm`` and ``fate``: the referee's rulings."""
    control = add_command(actions, "control", help="set who controls the field", **kw)
    add_db(control)
    control.add_argument("--battle", required=True, metavar="ID")
    control.add_argument("--side", required=True)
    add_referee(control)
    control.set_defaults(handler=guarded(run_control), command_name="battle control")

    close = add_command(actions, "close", help="resolve a battle now (referee)", **kw)
    add_db(close)
    close.add_argument("--battle", required=True, metavar="ID")
    close.add_argument("--control", metavar="SIDE", help="the side that controls the field")
    add_referee(close)
    close.set_defaults(handler=guarded(run_close), command_name="battle close")

    confirm = add_command(
        actions,
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

    fate = add_command(actions, "fate", help="referee: correct a unit's fate", **kw)
    add_db(fate)
    fate.add_argument("--unit", required=True, metavar="UNIT_ID")
    fate.add_argument("--fate", required=True, choices=[f.value for f in Fate])
    fate.add_argument("--side", help="captured: the side that takes the unit")
    add_referee(fate)
    fate.set_defaults(handler=guarded(run_fate), command_name="battle fate")


def setup_retreat_check(actions: Any, kw: dict[str, Any]) -> None:
    """``battle retreat-check``."""
    check = add_command(
        actions,
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


def setup_house_rules(actions: Any, kw: dict[str, Any]) -> None:
    """``battle pre-damage`` and ``battle morale`` (house rules)."""
    pre = add_command(
        actions,
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

    morale = add_command(
        actions,
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


def setup_pending(actions: Any, kw: dict[str, Any]) -> None:
    """``battle pending``."""
    pending = add_command(actions, "pending", help="list battles waiting for files", **kw)
    add_db(pending)
    pending.add_argument("--json", action="store_true", help="the battles as JSON")
    pending.set_defaults(handler=guarded(run_pending), command_name="battle pending")
