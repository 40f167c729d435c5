"""TripWire force construction: enough transport for infantry and battle armor (L49).

L49: "If a player has Conventional Infantry or Battle Armor in their TO&E, their force should
include enough units to transport them e.g. Omni-Mechs for Battle Armor, or vehicles with troop
capacity (e.g. Maxim Heavy Hover Tank) for Infantry/Battle Armor. If there is not sufficient
carrying capacity those units may not be selected for use in Tracks."

Ruling R-FORCE-5 (docs/rulings.md): each omni 'Mech carries one battle armor squad; every other
platoon and squad rides whole in one unit's troop space (MegaMek's ``troopspace``), first fit
in force order; mechanised platoons bring their own vehicles. The militia's platoons ride the
militia's own APCs (L162, ruling R-FORCE-11): the militia is left out both ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from mekref.rules.tripwire.force_report import Violation, violation
from mekref.rules.tripwire.model import (
    CompanyRole,
    ForceDescription,
    ForceUnit,
    InfantryMotive,
    UnitKind,
    UnitRole,
)
from mekref.rules.tripwire.table_loader import TripWireTables

#: Kinds that never carry infantry into a track: DropShips stay out of it (R-FORCE-3), fighters.
_NOT_CARRIERS = frozenset({UnitKind.DROPSHIP, UnitKind.AEROSPACE_FIGHTER})


def _name(unit: ForceUnit) -> str:
    return f"{unit.chassis} {unit.model}".strip()


def _tons(value: Fraction) -> str:
    return f"{float(value):g} t"


def _rides(unit: ForceUnit) -> bool:
    """Whether the unit needs a carrier: infantry or battle armor, not mechanised."""
    return unit.kind.is_infantry and unit.infantry_motive is not InfantryMotive.MECHANISED


def transport(force: ForceDescription, t: TripWireTables) -> Iterable[Violation]:
    """Every platoon or squad of the battalion without a ride, quoting L49."""
    limit = t.force["transport"]
    companies = [c for c in force.companies if c.role is not CompanyRole.MILITIA]
    units = [u for c in companies for u in c.units]
    omni_seats = sum(1 for u in units if u.kind is UnitKind.MEK and u.has(UnitRole.OMNI))
    carriers = [u for u in units if not u.kind.is_infantry and u.kind not in _NOT_CARRIERS]
    space = {u.unit_id: u.troop_capacity_tons for u in carriers if u.troop_capacity_tons > 0}
    total = sum(space.values(), Fraction(0))
    unknown = [f"{_name(u)} ({u.transport_unknown})" for u in carriers if u.transport_unknown]
    for company in companies:
        for lance in company.lances:
            for unit in lance.units:
                if not _rides(unit):
                    continue
                if unit.kind is UnitKind.BATTLE_ARMOR and omni_seats > 0:
                    omni_seats -= 1
                    continue
                need = unit.transport_tons
                why = unit.transport_unknown or ("" if need > 0 else "no troop space need given")
                if why:
                    message = (
                        f"{_name(unit)}: {why}, so its transport cannot be checked: import "
                        "with --units-dir holding its design, or the referee imports the force "
                        "with --unchecked"
                    )
                    yield violation(
                        limit.ref, "transport", message, company.name, lance.name, unit.unit_id
                    )
                    continue
                ride = next((uid for uid, left in space.items() if left >= need), None)
                if ride is not None:
                    space[ride] -= need
                    continue
                message = (
                    f"{_name(unit)} needs {_tons(need)} of troop space and no unit of the force "
                    f"has that much left ({_tons(total)} of troop space in all"
                    + (f"; unknown without a design: {', '.join(unknown)}" if unknown else "")
                    + "): it may not be selected for use in Tracks"
                )
                yield violation(
                    limit.ref, "transport", message, company.name, lance.name, unit.unit_id
                )
