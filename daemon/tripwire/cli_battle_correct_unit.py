"""``mekref battle correct --unit``: one unit's booked damage by the referee's figures (BR-18).

The options name a location by MegaMek's name or short name (``--armor RT=6``, ``--armor
"Right Torso=6"``) and give what is **left** in it, as MegaMek's unit list and ``mekref
report`` do. The figures are laid on the damage the battle booked for the unit
(:mod:`mekref.rules.tripwire.battle_correct_unit`); the rules' ``CorrectCondition`` prices the
repair again and refuses a unit acted on since the resolution.
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import EXIT_REFUSED, CliError, name_equals_n
from mekref.rules.tripwire.battle_correct import ConditionCorrected, UnitCorrection
from mekref.rules.tripwire.battle_correct_unit import (
    LocationFix,
    booked_damage,
    corrected_damage,
    location_named,
)
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.id_prefixes import full_unit_id
from mekref.rules.tripwire.state import CampaignState

_OPTIONS = ("--armor", "--internal", "--destroyed")


def add_location_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--armor",
        action="append",
        metavar="LOC=N",
        help="with --unit: the armour left in LOC (front and rear together, as 'mekref "
        "report' shows it); LOC is MegaMek's name or short name (RT, 'Right Torso'); repeat",
    )
    parser.add_argument(
        "--internal",
        action="append",
        metavar="LOC=N",
        help="with --unit: the internal structure left in LOC; repeat",
    )
    parser.add_argument(
        "--destroyed",
        action="append",
        metavar="LOC",
        help="with --unit: LOC is lost (armour and structure 0); repeat",
    )


def location_options_given(args: argparse.Namespace) -> str:
    """The first location option given ("" when none)."""
    return next((o for o in _OPTIONS if getattr(args, o[2:])), "")


def _fixes(args: argparse.Namespace, damage: UnitDamage, who: str) -> list[LocationFix]:
    """The options as one fix per location, each location named once per option."""
    figures: dict[str, dict[str, Any]] = {}

    def put(option: str, given: str, key: str, value: Any) -> None:
        name = location_named(damage, given, who)
        held = figures.setdefault(name, {})
        if key in held:
            raise CliError(f"{option}: {name} is given twice; give each location once")
        held[key] = value

    for key in ("armor", "internal"):
        for spec in getattr(args, key) or ():
            loc, n = name_equals_n(f"--{key}", spec, f"LOC=N, e.g. --{key} RT=6")
            put(f"--{key}", loc, key, n)
    for loc in args.destroyed or ():
        put("--destroyed", loc, "destroyed", True)
    return [LocationFix(location=name, **held) for name, held in figures.items()]


def unit_correction(
    state: CampaignState, battle_id: str, args: argparse.Namespace
) -> UnitCorrection:
    """The unit ``--unit`` names (id, prefix or name) with its booked damage corrected by the
    options; refused (``Refusal``) for a unit the battle did not book, an unknown location or
    a figure out of range."""
    if not location_options_given(args):
        raise CliError(
            "--unit needs the corrected figures: --armor LOC=N, --internal LOC=N or "
            "--destroyed LOC (the locations not named stay as booked)"
        )
    unit_id = full_unit_id(state, args.unit)
    unit = state.units.get(unit_id)
    if unit is None:
        raise CliError(f"no unit {args.unit!r} in this campaign", EXIT_REFUSED)
    battle = state.battles.battles.get(battle_id)
    if battle is None:
        raise CliError(f"no battle {battle_id!r}", EXIT_REFUSED)
    who = f"{unit.chassis} {unit.model} ({unit_id[:8]})"
    damage = booked_damage(battle, unit_id)
    return UnitCorrection(
        unit_id=unit_id, damage=corrected_damage(damage, _fixes(args, damage, who), who)
    )


def say_locations(before: CampaignState, event: ConditionCorrected) -> list[str]:
    """Each location the correction changed: armour and structure left, now and as booked."""
    battle = before.battles.battles.get(event.battle_id)
    lines: list[str] = []
    for u in event.units:
        if battle is None:
            continue
        booked = {loc.name: loc for loc in booked_damage(battle, u.unit_id).locations}
        for loc in u.damage.locations:
            was = booked.get(loc.name)
            if was is None or was == loc:
                continue
            lines.append(
                f"{loc.name}: armour {loc.armor_now}/{loc.armor_max}, structure "
                f"{loc.internal_now}/{loc.internal_max} (booked {was.armor_now}/"
                f"{was.armor_max}, {was.internal_now}/{was.internal_max})"
            )
            if loc.internal_gone != was.internal_gone and any(
                b.location == loc.name for b in u.damage.ammo_bins
            ):
                lines.append(
                    f"note: {loc.name} holds ammunition; its bins and the re-arm stay as "
                    "booked (ruling BR-18): correct them from a later save"
                )
    return lines
