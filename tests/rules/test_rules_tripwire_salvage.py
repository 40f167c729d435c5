"""Salvage list, retreat mobility and capture of ejected crews."""

from __future__ import annotations

import pytest

from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.salvage import (
    UnitMobility,
    can_retreat,
    ejected_crew_captured,
    salvage_reasons,
)

MEK = UnitKind.MEK
TANK = UnitKind.COMBAT_VEHICLE


@pytest.mark.parametrize(
    ("unit", "line", "quote"),
    [
        (
            UnitMobility(kind=MEK, crew_ejected=True),
            138,
            "- The MechWarrior has ejected/Crew have abandoned they vehicle.",
        ),
        (UnitMobility(kind=MEK, legs_remaining=0), 139, "- The ‘Mech has no legs."),
        (
            UnitMobility(kind=MEK, gyro_hits=2),
            140,
            "- The ‘Mech has two gyro hits or three engine hits.",
        ),
        (
            UnitMobility(kind=MEK, engine_hits=3),
            140,
            "- The ‘Mech has two gyro hits or three engine hits.",
        ),
        (
            UnitMobility(kind=MEK, cockpit_hit=True),
            141,
            "- The ‘Mech has no head, has taken a Cockpit grit or the pilot has died of damage.",
        ),
        (
            UnitMobility(kind=MEK, head_destroyed=True),
            141,
            "- The ‘Mech has no head, has taken a Cockpit grit or the pilot has died of damage.",
        ),
        (UnitMobility(kind=TANK, crew_dead=True), 142, "- The Vehicles crew is killed."),
        (UnitMobility(kind=TANK, vehicle_immobile=True), 143, "- The Vehicle is Immobile."),
        (
            UnitMobility(kind=TANK, crew_ejected=True),
            138,
            "- The MechWarrior has ejected/Crew have abandoned they vehicle.",
        ),
    ],
)
def test_each_salvage_row(unit: UnitMobility, line: int, quote: str) -> None:
    (reason,) = salvage_reasons(unit)
    assert (reason.line, reason.source) == (line, quote)


def test_mobile_units_are_not_salvage() -> None:
    assert (
        salvage_reasons(UnitMobility(kind=MEK, legs_remaining=1, gyro_hits=1, engine_hits=2)) == ()
    )
    assert salvage_reasons(UnitMobility(kind=TANK)) == ()


def test_ruling_only_meks_and_vehicles_are_on_the_salvage_list() -> None:
    """R-SALVAGE-1."""
    assert salvage_reasons(UnitMobility(kind=UnitKind.AEROSPACE_FIGHTER, crew_ejected=True)) == ()


def test_who_can_retreat() -> None:
    """ "All units that are mobile are able to retreat (except if they have 1 or no legs, no gyro,
    are immobilised for vehicles or are unconscious).\""""
    assert can_retreat(UnitMobility(kind=MEK, legs_remaining=2))
    assert not can_retreat(UnitMobility(kind=MEK, legs_remaining=1))
    assert not can_retreat(UnitMobility(kind=MEK, gyro_destroyed=True))
    assert not can_retreat(UnitMobility(kind=TANK, vehicle_immobile=True))
    assert not can_retreat(UnitMobility(kind=MEK, crew_unconscious=True))
    assert can_retreat(UnitMobility(kind=TANK))


def test_ejected_crew_beyond_six_hexes_of_a_rescuer_are_captured() -> None:
    """ "Any ejected pilots or crew that are not within 6 hexes of a friendly infantry or unit with
    troop capacity (or a battleMech with hands) is considered captured.\""""
    assert not ejected_crew_captured(6)
    assert ejected_crew_captured(7)
    assert ejected_crew_captured(None)
