"""What a unit's design tells the force construction check (lines 11, 20, 21, 47 and 49).

``force import`` reads the designs; these answer, from a design alone, the flags the check
needs: omni, the compact quirk, artillery weapons, recovery gear, anti-'Mech capability, and the
troop space an infantry unit takes in a carrier. Names are compared as MegaMek writes them,
without case, spaces or dashes.
"""

from __future__ import annotations

import math
from fractions import Fraction

from mekref.adapters.megamek.design import UnitDesign
from mekref.rules.tripwire.designs import suit_tons
from mekref.rules.tripwire.model import InfantryMotive, UnitKind, UnitRole

#: MegaMek artillery weapons (Total Warfare's artillery), by their names without spaces,
#: dashes or case: "ISArrowIV", "Long Tom Cannon", "BA Tube Artillery".
_ARTILLERY = ("arrowiv", "longtom", "sniper", "thumper", "cruisemissile", "tubeartillery")
#: Recovery gear that makes a unit the company's salvage unit (L20, ruling R-FORCE-8): MegaMek's
#: names of the Lift Hoist ("Lift Hoist", "LiftHoist", "ISLiftHoist", "CLLiftHoist", "Lift
#: Hoist/Arresting Hoist") and of the Salvage Arm, compared without case, spaces or dashes.
_SALVAGE_GEAR = ("lifthoist", "salvagearm")
#: MegaMek's anti-'Mech gear for conventional infantry ("Anti-Mek Gear" and its lookup names).
_ANTI_MEK_GEAR = ("antimekgear", "antimechgear")
#: Battle armor of these weight classes has no anti-'Mech attacks (L47: "Heavy Assault BA").
_NO_ANTI_MECH_BA = frozenset({"heavy", "assault"})


def design_roles(design: UnitDesign) -> set[UnitRole]:
    """The force-construction flags a design answers: omni, the compact quirk (L11: "additional
    BattleMechs may be taken is they have the compact quirk"), artillery weapons (L21)."""
    roles: set[UnitRole] = set()
    if design.omni:
        roles.add(UnitRole.OMNI)
    if any(q.strip().lower() in ("compact_mech", "compact_mek") for q in design.quirks):
        roles.add(UnitRole.COMPACT)
    names = (_plain(e.name) for e in design.equipment)
    names_seen = tuple(names)
    if any(key in name for name in names_seen for key in _ARTILLERY):
        roles.add(UnitRole.ARTILLERY)
    if any(key in name for name in names_seen for key in _SALVAGE_GEAR):
        roles.add(UnitRole.SALVAGE)
    if design.kind.is_infantry and engineer_specialization(design):
        roles.add(UnitRole.ENGINEER)
    return roles


#: MegaMek's infantry specializations (the ``<specialization>`` bit mask of a .blk) that are
#: combat engineers: bridge, demolition, fire, mine, sensor and trench engineers (bits 0-5,
#: ``Infantry.COMBAT_ENGINEERS``).
_ENGINEER_BITS = 0b111111


def engineer_specialization(design: UnitDesign) -> bool:
    """Whether the infantry design is of combat engineers (L219 "Engineers", ruling T-EN1)."""
    return _specialization_bits(design) & _ENGINEER_BITS != 0


def _plain(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def anti_mech_capable(
    design: UnitDesign | None, kind: UnitKind, motive: InfantryMotive | None
) -> bool | None:
    """Whether an infantry unit can make anti-'Mech attacks (L47: "any Infantry unit with no
    AntiMech capability e.g. No AntiMech kit, Mechanised or Heavy Assault BA) has an AntiMech
    skill of 8"); None: no design says so (ruling R-FORCE-9).

    Conventional infantry has it with anti-'Mech gear: the design's "Anti-Mek Gear", or a
    ``<antimek>`` entry other than 8 (MegaMek reads older files so); mechanised platoons never.
    Battle armor has it unless it is of the Heavy or Assault weight class."""
    if kind is UnitKind.BATTLE_ARMOR:
        if design is None or design.ba_weight_class is None:
            return None
        return design.ba_weight_class.casefold() not in _NO_ANTI_MECH_BA
    if motive is InfantryMotive.MECHANISED:
        return False
    if design is None:
        return None
    entry = design.extra.get("antimek", ())
    if entry and entry[0].strip() not in ("", "8"):
        return True
    return any(_plain(e.name) in _ANTI_MEK_GEAR for e in design.equipment)


#: Tons one conventional infantry trooper takes, by motive, and what a specialization or
#: anti-'Mech gear adds: MegaMek's platoon weight (``TestInfantry.getWeightExact``), which its
#: troop compartments (``InfantryCompartment.canLoad``) measure a platoon by. Mechanised
#: platoons bring their own vehicles (ruling R-FORCE-5) and are not carried.
_TROOPER_TONS = {
    InfantryMotive.FOOT: Fraction(85, 1000),
    InfantryMotive.JUMP: Fraction(165, 1000),
    InfantryMotive.MOTORISED: Fraction(195, 1000),
}
_ENGINEER_TONS = Fraction(1, 10)  # any combat engineer specialization (bits 0-5)
_PARAMEDIC_BIT, _PARATROOP_BIT = 1 << 8, 1 << 9  # ``Infantry.PARAMEDICS``, ``PARATROOPS``
_SPECIALIST_TONS = Fraction(5, 100)  # paramedics, paratroopers: each
_ANTI_MEK_GEAR_TONS = Fraction(15, 1000)


def troop_space_needed(
    design: UnitDesign | None, kind: UnitKind, motive: InfantryMotive | None
) -> tuple[Fraction, str]:
    """The troop space (tons) an infantry unit takes in a carrier (L49: "vehicles with troop
    capacity") and ""; or 0 and why it cannot be known (ruling R-FORCE-5).

    A platoon weighs its full strength times its motive's tons per trooper, with what its
    specializations and anti-'Mech gear add, rounded up to the half ton, as MegaMek weighs it;
    a battle armor squad its suits times its weight class's tons per suit."""
    if design is None:
        return Fraction(0), "no design: the troop space it needs is unknown"
    troopers = design.trooper_count or 0
    if troopers <= 0:
        return Fraction(0), "its design gives no trooper count"
    if kind is UnitKind.BATTLE_ARMOR:
        suit = suit_tons(design.ba_weight_class)
        if suit is None:
            return Fraction(0), "its design gives no battle armor weight class"
        return suit * troopers, ""
    per = _TROOPER_TONS.get(motive) if motive is not None else None
    if per is None:
        return Fraction(0), f"no troop space weight for a {design.movement_mode} platoon"
    if any(e.location_name.casefold() == "field guns" for e in design.equipment):
        return Fraction(0), "its field guns' weight is unknown"
    if engineer_specialization(design):
        per += _ENGINEER_TONS
    bits = _specialization_bits(design)
    per += _SPECIALIST_TONS * sum(1 for bit in (_PARAMEDIC_BIT, _PARATROOP_BIT) if bits & bit)
    if anti_mech_capable(design, kind, motive):
        per += _ANTI_MEK_GEAR_TONS
    return Fraction(math.ceil(per * troopers * 2), 2), ""


def _specialization_bits(design: UnitDesign) -> int:
    entry = design.extra.get("specialization", ())
    raw = entry[0].strip() if entry else ""
    return int(raw) if raw.isdigit() else 0


#: Kinds that may carry infantry in their troop space (L49: "vehicles with troop capacity",
#: omni 'Mechs): without a design, what they carry is unknown.
CARRIER_KINDS = frozenset(
    {UnitKind.MEK, UnitKind.COMBAT_VEHICLE, UnitKind.VTOL, UnitKind.SUPPORT_VEHICLE}
)


def transport_need(
    design: UnitDesign | None, kind: UnitKind, motive: InfantryMotive | None
) -> tuple[Fraction, str]:
    """The troop space an infantry unit needs (L49), or why the check cannot know what the
    unit needs or, for a possible carrier without a design, offers."""
    if kind.is_infantry and motive is not InfantryMotive.MECHANISED:
        return troop_space_needed(design, kind, motive)
    if kind in CARRIER_KINDS and design is None:
        return Fraction(0), "no design: its troop space and omni mounts are unknown"
    return Fraction(0), ""
