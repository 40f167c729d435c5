"""TripWire force construction over the battalion and its commanders: L8-L9 and L27-L34.

L8: "Each Mercenary Battalion force consists of a three companies." L9 names them: Alpha and
Bravo on their Unions, Charlie on the Gazelle. L27: "Players may select each of their Force
Commander to have Special Pilot Abilities ... The number of abilities is based on the Force
Commanders Training Level", as many as the L30-L34 table's "Maximum Number of Special Pilot
Abilities" for that level. Rulings R-FORCE-11 and R-FORCE-12 (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from mekref.rules.tripwire.force_report import Violation, violation
from mekref.rules.tripwire.model import Company, CompanyRole, ForceDescription, ForceUnit, UnitRole
from mekref.rules.tripwire.skills import anti_mech_skill, training_level
from mekref.rules.tripwire.table_loader import TripWireTables

_ROLE_NAMES = {
    CompanyRole.MEK_COMPANY: "a 'Mech company",
    CompanyRole.SUPPORT_COMPANY: "a support company",
}


def unit_level(unit: ForceUnit, t: TripWireTables) -> str | None:
    """The training level of the unit's commanding crew member (the first seat); an infantry
    unit's piloting is its anti-'Mech skill (L47)."""
    if not unit.crew:
        return None
    seat = unit.crew[0]
    piloting = seat.piloting
    if unit.kind.is_infantry:
        piloting = anti_mech_skill(unit.anti_mech, seat.piloting, t)
    return training_level(seat.gunnery, piloting, t)


_MEK = "'Mech "


def _companies(n: int, kind: str = "") -> str:
    return f"{n} {kind}compan{'y' if n == 1 else 'ies'}"


def battalion(force: ForceDescription, t: TripWireTables) -> Iterable[Violation]:
    """Three companies (L8): two 'Mech companies, Alpha and Bravo, and one support company,
    Charlie (L9). The L162 militia is the side's own force beside the battalion, not one of
    its companies (ruling R-FORCE-11)."""
    companies = [c for c in force.companies if c.role is not CompanyRole.MILITIA]
    count, roles = t.force["battalion.companies"], t.force["battalion.roles"]
    listed = "; ".join(f"{c.name}: {_ROLE_NAMES[c.role]}" for c in companies) or "none"
    if len(companies) != count.int("count"):
        yield violation(
            count.ref,
            "battalion.companies",
            f"the battalion has {_companies(len(companies))} ({listed}); it consists of "
            f"{count.int('count')}: Alpha, Bravo and Charlie",
        )
    meks = sum(1 for c in companies if c.role is CompanyRole.MEK_COMPANY)
    support = sum(1 for c in companies if c.role is CompanyRole.SUPPORT_COMPANY)
    want_meks, want_support = roles.int("mek_companies"), roles.int("support_companies")
    if meks != want_meks or support != want_support:
        missing = " (no Charlie)" if support == 0 else ""
        yield violation(
            roles.ref,
            "battalion.roles",
            f"{_companies(meks, _MEK)} and {_companies(support, 'support ')}{missing}; "
            f"the battalion has {want_meks} 'Mech companies (Alpha and Bravo, 'Mechs and "
            f"fighters) and {want_support} support company (Charlie, vehicles and infantry)",
        )


def abilities(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """Special Pilot Abilities (MegaMek's ``advantages``) of each unit's commanding crew
    member: a Force Commander's as many as their level's row allows (none below Veteran), any
    other person's none (ruling R-FORCE-12)."""
    limit = t.force["abilities"]
    for lance in company.lances:
        for unit in lance.units:
            seat = unit.crew[0] if unit.crew else None
            spas = seat.megamek.advantages if seat is not None and seat.megamek else ()
            if seat is None or not spas:
                continue
            named = f"{len(spas)} Special Pilot Abilities ({', '.join(spas)})"
            if not unit.has(UnitRole.FORCE_COMMANDER):
                yield violation(
                    limit.ref,
                    "abilities",
                    f"{seat.name} has {named} and is not a Force Commander: the text gives "
                    "them to the Force Commanders only",
                    company.name,
                    lance.name,
                    unit.unit_id,
                )
                continue
            level = unit_level(unit, t) or "without a level"
            row = t.commanders.get(level)
            allowed = row.max_spas if row is not None else 0
            if len(spas) > allowed:
                yield violation(
                    row.ref if row is not None else limit.ref,
                    "abilities",
                    f"{seat.name} (Force Commander, {level}) has {named}; the Maximum Number "
                    f"of Special Pilot Abilities at {level} is {allowed} (L30-L34)",
                    company.name,
                    lance.name,
                    unit.unit_id,
                )
