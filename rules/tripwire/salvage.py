"""Immobile units (salvage), who can join a retreat, and when ejected crews are captured.

These are the per-unit judgements battle resolution needs; the facts come from the adapter's
unit condition. Deciding *who* controls the field stays with the referee input.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef, int_field, load_toml, rows, section, source_of, str_field
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


@record
class UnitMobility(Record):
    """What battle resolution knows about one unit at the end of a game."""

    kind: UnitKind
    crew_ejected: bool = False  # MechWarrior ejected / vehicle crew abandoned
    legs_remaining: int | None = None  # 'Mechs
    gyro_hits: int = 0
    gyro_destroyed: bool = False
    engine_hits: int = 0
    head_destroyed: bool = False
    cockpit_hit: bool = False
    crew_dead: bool = False  # the pilot died of damage / the vehicle crew is killed
    crew_unconscious: bool = False
    vehicle_immobile: bool = False


@record
class _SalvageTables(Record):
    immobile: dict[str, SourceRef]
    gyro_hits: int
    engine_hits: int
    control: SourceRef
    retreat: SourceRef
    max_legs_that_cannot_retreat: int


@cache
def _tables() -> _SalvageTables:
    data: dict[str, Any] = load_toml("mekref.rules.tripwire.tables", "salvage.toml")
    immobile = {str_field(r, "key"): source_of(r) for r in rows(data, "immobile")}
    gyro = next(r for r in rows(data, "immobile") if r["key"] == "gyro_or_engine")
    retreat = section(data, "retreat_mobility")
    return _SalvageTables(
        immobile=immobile,
        gyro_hits=int_field(gyro, "gyro_hits"),
        engine_hits=int_field(gyro, "engine_hits"),
        control=source_of(section(data, "control")),
        retreat=source_of(retreat),
        max_legs_that_cannot_retreat=int_field(retreat, "max_legs_that_cannot_retreat"),
    )


def salvage_reasons(unit: UnitMobility) -> tuple[SourceRef, ...]:
    """The rows of the salvage list that make this unit immobile; empty when it is not.

    Ruling R-SALVAGE-1: the list covers 'Mechs and vehicles (its rows name both); other kinds
    are never immobile by it.
    """
    t = _tables()
    reasons: list[SourceRef] = []
    is_mek, is_vehicle = unit.kind is UnitKind.MEK, unit.kind.is_vehicle
    if not (is_mek or is_vehicle):
        return ()
    if unit.crew_ejected:
        reasons.append(t.immobile["crew_ejected"])
    if is_mek:
        if unit.legs_remaining == 0:
            reasons.append(t.immobile["no_legs"])
        if unit.gyro_hits >= t.gyro_hits or unit.engine_hits >= t.engine_hits:
            reasons.append(t.immobile["gyro_or_engine"])
        if unit.head_destroyed or unit.cockpit_hit or unit.crew_dead:
            reasons.append(t.immobile["head_cockpit_or_pilot"])
    else:
        if unit.crew_dead:
            reasons.append(t.immobile["vehicle_crew_killed"])
        if unit.vehicle_immobile:
            reasons.append(t.immobile["vehicle_immobile"])
    return tuple(reasons)


def can_retreat(unit: UnitMobility) -> bool:
    """ "All units that are mobile are able to retreat (except if they have 1 or no legs, no gyro,
    are immobilised for vehicles or are unconscious)." (line 339)"""
    t = _tables()
    if unit.crew_unconscious or unit.crew_dead or unit.crew_ejected:
        return False
    if unit.kind is UnitKind.MEK:
        legs = unit.legs_remaining
        if legs is not None and legs <= t.max_legs_that_cannot_retreat:
            return False
        return not unit.gyro_destroyed
    if unit.kind.is_vehicle:
        return not unit.vehicle_immobile
    return True


def ejected_crew_captured(
    hexes_to_nearest_rescuer: int | None, tables: TripWireTables | None = None
) -> bool:
    """Ejected pilots or crew more than 6 hexes from friendly infantry, a unit with troop
    capacity or a 'Mech with hands are captured (line 348). None: no rescuer on the map."""
    limit = (tables or load_tables()).retreat.rescue_hexes
    return hexes_to_nearest_rescuer is None or hexes_to_nearest_rescuer > limit
