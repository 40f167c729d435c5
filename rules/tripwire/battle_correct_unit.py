"""Ruling BR-18: a unit's booked damage corrected by the referee's own figures.

``mekref battle correct --unit UNIT --armor LOC=N --internal LOC=N --destroyed LOC`` fixes the
figures a resolved battle booked for one unit (ruling SG-7 revised: the ``CorrectCondition`` of
:mod:`.battle_correct`). The figures **start from the booked damage**: only the locations named
change, every other location, the critical hits, the damaged slots and the ammunition stay as
booked. A referee who finds one wrong number in MegaMek's report fixes that number; a form that
replaced the whole condition would wipe the rest unless each figure were given again.

Each figure is what MegaMek's unit list writes and ``mekref report`` shows: the armour **left**
in the location (front and rear together, as the campaign keeps it, ruling T-X2) and the
internal structure **left**. ``--destroyed`` sets both to 0 and marks the location lost. A
location the battle booked as lost comes back only with its structure given above 0. Figures
run from 0 to the location's maximum; a location is named by MegaMek's name (``Right Torso``,
any case) or its short name (``RT``); an unknown one is refused naming the unit's locations.
Pure: reads the booked outcome, returns the corrected ``UnitDamage``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mekref.adapters.megamek.unit_kinds import LOCATION_ABBREVIATIONS
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.armour_split import with_armor
from mekref.rules.tripwire.battle_model import Battle, UnitDamage
from mekref.rules.tripwire.repair import LocationDamage


@record
class LocationFix(Record):
    """The referee's figures for one location; ``None``: that figure stays as booked."""

    location: str  # as given: MegaMek's name or short name
    armor: int | None = None  # armour left, front and rear together
    internal: int | None = None  # internal structure left
    destroyed: bool = False


def booked_damage(battle: Battle, unit_id: str) -> UnitDamage:
    """The damage ``battle`` booked for the unit; refused when it booked none for it."""
    res = battle.resolution
    if res is None:
        raise Refusal("battle_open", f"battle {battle.battle_id} is not resolved yet")
    for outcome in res.units:
        if outcome.unit_id == unit_id:
            return outcome.damage
    raise Refusal(
        "not_in_battle",
        f"battle {battle.battle_id} booked no outcome for unit {unit_id}: it did not fight "
        "in that battle (its units are in 'mekref report', under the battle)",
    )


def _names(damage: UnitDamage) -> list[str]:
    return [
        f"{loc.name} ({'/'.join(LOCATION_ABBREVIATIONS[loc.name])})"
        if loc.name in LOCATION_ABBREVIATIONS
        else loc.name
        for loc in damage.locations
    ]


def location_named(damage: UnitDamage, given: str, who: str) -> str:
    """The location of ``damage`` that ``given`` names (its name in any case, or its short
    name); refused naming the unit's locations when none fits."""
    wanted = " ".join(given.split()).casefold()
    for loc in damage.locations:
        short = LOCATION_ABBREVIATIONS.get(loc.name, ())
        if loc.name.casefold() == wanted or wanted in (s.casefold() for s in short):
            return loc.name
    if not damage.locations:
        raise Refusal(
            "no_locations",
            f"{who}: the battle booked no locations for it (its design was not known), so "
            "there is no figure to correct; give the design and correct it from a later save",
        )
    raise Refusal(
        "unknown_location",
        f"{who} has no location {given!r}; its locations: {', '.join(_names(damage))}",
    )


def _fixed(loc: LocationDamage, fix: LocationFix, who: str) -> LocationDamage:
    where = f"{who}, {loc.name}"
    if fix.destroyed:
        if fix.armor is not None or fix.internal is not None:
            raise Refusal(
                "bad_figure", f"{where}: --destroyed leaves no armour or structure to give"
            )
        # As the resolution books a lost location: structure 0, the flag only where no
        # maximum is known (``battle_damage._lost_without_design``).
        return replace(with_armor(loc, 0), internal_now=0, destroyed=not loc.internal_max)
    armor = loc.armor_now if fix.armor is None else fix.armor
    internal = loc.internal_now if fix.internal is None else fix.internal
    limits = (("armour", armor, loc.armor_max), ("structure", internal, loc.internal_max))
    for what, value, most in limits:
        if not 0 <= value <= most:
            raise Refusal("bad_figure", f"{where}: {what} left runs from 0 to {most}, got {value}")
    if internal == 0 and loc.internal_max and armor:
        raise Refusal(
            "bad_figure",
            f"{where}: a location without structure is lost and keeps no armour; give "
            "--internal above 0 to bring it back, or --destroyed",
        )
    # Booked lost without a known maximum: lost until structure above 0 is given.
    lost = loc.destroyed and internal == 0
    if lost and armor:
        raise Refusal(
            "bad_figure",
            f"{where}: the battle booked it destroyed; give --internal above 0 with the armour",
        )
    # A total given keeps the rear's share where it can (``with_armor``), else drops it (T-X2).
    return replace(with_armor(loc, armor), internal_now=internal, destroyed=lost)


def corrected_damage(damage: UnitDamage, fixes: Sequence[LocationFix], who: str) -> UnitDamage:
    """``damage`` with each fixed location's figures replaced (ruling BR-18); the rest as
    booked. Refused for an unknown location, one named twice, or a figure out of range."""
    by_name: dict[str, LocationFix] = {}
    for fix in fixes:
        name = location_named(damage, fix.location, who)
        if name in by_name:
            raise Refusal("duplicate", f"{who}: {name} is given twice; give each location once")
        by_name[name] = fix
    if not by_name:
        raise Refusal(
            "nothing_to_correct",
            f"{who}: give the corrected figures: --armor LOC=N, --internal LOC=N or "
            "--destroyed LOC",
        )
    locations = tuple(
        _fixed(loc, by_name[loc.name], who) if loc.name in by_name else loc
        for loc in damage.locations
    )
    return replace(damage, locations=locations)


__all__ = ["LocationFix", "booked_damage", "corrected_damage", "location_named"]
