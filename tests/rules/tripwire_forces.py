"""Builders for TripWire force descriptions used by several test modules."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    InfantryMotive,
    Lance,
    UnitKind,
    UnitRole,
)


def unit(
    uid: str,
    kind: UnitKind = UnitKind.MEK,
    skills: tuple[int, int] = (4, 5),
    bv: int = 1500,
    tons: int = 50,
    roles: frozenset[UnitRole] = frozenset(),
    **extra: object,
) -> ForceUnit:
    g, p = skills
    crew = (CrewSkills(person_id=f"p-{uid}", name=f"Pilot {uid}", gunnery=g, piloting=p),)
    return ForceUnit(
        unit_id=uid,
        chassis="Griffin" if kind is UnitKind.MEK else "Unit",
        model="GRF-1N",
        kind=kind,
        tonnage=Fraction(tons),
        bv=bv,
        roles=roles,
        crew=crew,
        **extra,  # type: ignore[arg-type]
    )


LEADER = frozenset({UnitRole.LANCE_LEADER})
COMMANDER = frozenset({UnitRole.FORCE_COMMANDER})


def mek_company(name: str = "Alpha") -> Company:
    """A legal Alpha: 3 lances of 4 'Mechs (Elite commander, Veteran Lieutenants, one Green),
    a flight of two fighters, 12 x 1,500 + 2 x 900 = 19,800 BV."""
    p = name[0].lower()
    command = Lance(
        name="Command",
        units=(
            unit(f"{p}1", skills=(3, 3), roles=COMMANDER),
            unit(f"{p}2"),
            unit(f"{p}3"),
            unit(f"{p}4", skills=(5, 6)),  # the lance's one Green pilot
        ),
    )
    lances = [command]
    for n, lance_name in ((2, "Fire"), (3, "Recon")):
        lances.append(
            Lance(
                name=lance_name,
                units=(
                    unit(f"{p}{n}1", skills=(4, 4), roles=LEADER),
                    unit(f"{p}{n}2", skills=(5, 4)),
                    unit(f"{p}{n}3"),
                    unit(f"{p}{n}4"),
                ),
            )
        )
    flight = Lance(
        name="Aero",
        units=(
            unit(f"{p}f1", kind=UnitKind.AEROSPACE_FIGHTER, bv=900),
            unit(f"{p}f2", kind=UnitKind.AEROSPACE_FIGHTER, bv=900),
        ),
    )
    return Company(name=name, role=CompanyRole.MEK_COMPANY, lances=(*lances, flight))


def support_company() -> Company:
    """A legal Charlie: a Veteran commander, vehicles, 4 foot platoons carried by 2 Maxims."""
    vehicle = UnitKind.COMBAT_VEHICLE
    armour = Lance(
        name="Armour",
        units=(
            unit("c1", kind=vehicle, skills=(4, 4), roles=COMMANDER, bv=1000),
            unit("c2", kind=vehicle, bv=1000, troop_capacity_tons=Fraction(8)),
            unit("c3", kind=vehicle, bv=1000, troop_capacity_tons=Fraction(8)),
            unit("c4", kind=vehicle, skills=(6, 6), bv=1000),
        ),
    )
    infantry = Lance(
        name="Infantry",
        units=tuple(
            unit(
                f"ci{n}",
                kind=UnitKind.CONVENTIONAL_INFANTRY,
                skills=(4, 4) if n == 1 else (4, 5),
                roles=LEADER if n == 1 else frozenset(),
                bv=200,
                tons=3,
                infantry_motive=InfantryMotive.FOOT,
                troopers=28,
                transport_tons=Fraction(3),
            )
            for n in range(1, 5)
        ),
    )
    return Company(name="Charlie", role=CompanyRole.SUPPORT_COMPANY, lances=(armour, infantry))


def legal_force() -> ForceDescription:
    return ForceDescription(
        companies=(mek_company("Alpha"), mek_company("Bravo"), support_company())
    )


def with_company(force: ForceDescription, index: int, company: Company) -> ForceDescription:
    companies = list(force.companies)
    companies[index] = company
    return replace(force, companies=tuple(companies))


def with_lance(company: Company, index: int, lance: Lance) -> Company:
    lances = list(company.lances)
    lances[index] = lance
    return replace(company, lances=tuple(lances))
