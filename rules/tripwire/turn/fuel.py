"""Aerospace fuel for overflight, strike and combat air patrol, and the reserve to come home.

Low altitude: 1 fuel point per km (line 201). High altitude: 60 fuel points per hour at
1000 km/h x safe thrust (line 201). CAP: 180 fuel points per hour (line 204). Conventional
aircraft use half (lines 201, 204). A fighter answering a call must arrive with at least 100
fuel points and enough to return to a base (line 316).
"""

from __future__ import annotations

import math
from fractions import Fraction

from mekref.hexmap import distance
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.data import fuel_rates
from mekref.rules.tripwire.turn.mapdata import hexmap_of, to_hex
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    FormationOrder,
    StrategicState,
    UnitMobility,
)


def _factor(unit: UnitMobility, key: str) -> Fraction:
    return fuel_rates()[key] if unit.conventional else Fraction(1)


def trip_fuel(unit: UnitMobility, km: int, *, high_altitude: bool = False) -> int:
    """Fuel points to fly ``km`` one way."""
    rates = fuel_rates()
    if high_altitude:
        speed = 1000 * max(unit.safe_thrust, 1)  # km/h at safe thrust on the high map
        hours = Fraction(km, speed)
        need = hours * rates["high_altitude_per_hour"]
    else:
        need = km * rates["low_altitude_per_km"]
    return math.ceil(need * _factor(unit, "conventional_factor"))


def cap_fuel(unit: UnitMobility, hours: int) -> int:
    rates = fuel_rates()
    return math.ceil(hours * rates["cap_per_hour"] * _factor(unit, "cap_conventional_factor"))


def mission_km(s: StrategicState, formation: Formation, target: str) -> int:
    if formation.hex == IN_ORBIT:
        raise Refusal("in_orbit", f"{formation.formation_id} is in orbit; land it first")
    a, b = to_hex(formation.hex), to_hex(target)
    assert a is not None and b is not None
    return distance(a, b) * hexmap_of(s).hex_km


def mission_fuel(s: StrategicState, formation: Formation, order: FormationOrder) -> dict[str, int]:
    """Fuel each unit burns on the order's mission, there and back."""
    target = order.target or formation.hex
    km = mission_km(s, formation, target)
    high = order.param("altitude") == "high"
    hours = int(order.param("hours", "6") or 6)
    out: dict[str, int] = {}
    for uid in formation.unit_ids:
        unit = s.mobility[uid]
        need = 2 * trip_fuel(unit, km, high_altitude=high)
        if order.action == "combat_air_patrol":
            need += cap_fuel(unit, hours)
        out[uid] = need
    return out


def check_order(s: StrategicState, formation: Formation, order: FormationOrder, field: str) -> None:
    if order.target is not None:
        try:
            hex_ = to_hex(order.target)
        except ValueError:
            raise Refusal(
                "bad_target", f"{field}.target: {order.target!r} is not a hex label"
            ) from None
        if hex_ is None or not hexmap_of(s).in_bounds(hex_):
            raise Refusal("bad_target", f"{field}.target: {order.target!r} is not on the map")
    hours = order.param("hours", "6")
    if not hours.isdigit():
        raise Refusal("bad_param", f"{field}.params.hours: a whole number of hours, got {hours!r}")
    for uid, need in mission_fuel(s, formation, order).items():
        have = s.mobility[uid].fuel
        if need > have:
            raise Refusal(
                "insufficient_fuel",
                f"{field}.target: unit {uid} needs {need} fuel points there and back, has {have}",
            )


def arrival_fuel(unit: UnitMobility, km: int) -> int | None:
    """Fuel left on arriving ``km`` away, or None when the call cannot be answered (line 316)."""
    left = unit.fuel - trip_fuel(unit, km)
    home = trip_fuel(unit, km)
    if left < int(fuel_rates()["min_on_arrival"]) or left < home:
        return None
    return left
