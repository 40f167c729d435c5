"""Internal structure and structural integrity, derived the way MegaMek derives them.

Unit files never store internal structure (reference 5.1/5.2); MegaMek computes it when it loads
a unit (``Mek.autoSetInternal``, ``Tank.autoSetInternal``, ``Aero.autoSetSI``,
``BattleArmor.autoSetInternal``, ``Infantry.autoSetInternal``). The same rules live here so the
merge of a MUL with its design knows every location's maximum.
"""

from __future__ import annotations

import math

from mekref.adapters.megamek.unit_kinds import UnitKind

# Mek internal structure by tonnage: (head, center torso, side torso, arm, leg).
# Rows 20-100 are the standard table in reference 5.1 (TechManual p. 47); 10 and 15 t are the
# TechManual ultralight rows MegaMek also carries.
_MEK_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    10: (3, 4, 3, 1, 2),
    15: (3, 5, 4, 2, 3),
    20: (3, 6, 5, 3, 4),
    25: (3, 8, 6, 4, 6),
    30: (3, 10, 7, 5, 7),
    35: (3, 11, 8, 6, 8),
    40: (3, 12, 10, 6, 10),
    45: (3, 14, 11, 7, 11),
    50: (3, 16, 12, 8, 12),
    55: (3, 18, 13, 9, 13),
    60: (3, 20, 14, 10, 14),
    65: (3, 21, 15, 10, 15),
    70: (3, 22, 15, 11, 15),
    75: (3, 23, 16, 12, 16),
    80: (3, 25, 17, 13, 17),
    85: (3, 27, 18, 14, 18),
    90: (3, 29, 19, 15, 19),
    95: (3, 30, 20, 16, 20),
    100: (3, 31, 21, 17, 21),
}


def _mek_multiplier(structure_type: str) -> tuple[int, int]:
    """(numerator, denominator): Reinforced doubles, Composite halves rounding up."""
    text = structure_type.casefold()
    if "reinforced" in text:
        return 2, 1
    # "Endo-Composite" is an endo steel variant with normal points, not Composite structure.
    if "composite" in text and "endo" not in text:
        return 1, 2
    return 1, 1


def mek_internal(tonnage: float, kind: UnitKind, structure_type: str) -> dict[int, int] | None:
    """Internal structure per Mek location index, or None for tonnages outside the table
    (superheavy Meks over 100 t use another table, not modelled yet)."""
    row = _MEK_TABLE.get(int(tonnage))
    if row is None or tonnage != int(tonnage):
        return None
    head, ct, side, arm, leg = row
    num, den = _mek_multiplier(structure_type)

    def scale(points: int) -> int:
        return math.ceil(points * num / den)

    values = [head, ct, side, side]
    if kind in (UnitKind.QUAD_MEK, UnitKind.QUADVEE):
        # Quads use the leg value for all four legs (reference 5.1).
        values += [leg, leg, leg, leg]
    else:
        values += [arm, arm, leg, leg]
        if kind is UnitKind.TRIPOD_MEK:
            values.append(leg)
    return {index: scale(points) for index, points in enumerate(values)}


def vehicle_internal(tonnage: float, armored_locations: int) -> dict[int, int]:
    """Tanks, VTOLs, support and superheavy vehicles: ceil(tonnage / 10) in every location but
    the Body (index 0, which has none). ``VTOL`` does not override ``Tank.autoSetInternal``, so
    the rotor gets the same value as the other locations."""
    points = math.ceil(tonnage / 10.0)
    return {index: points for index in range(1, armored_locations + 1)}


def fighter_structural_integrity(kind: UnitKind, tonnage: float, safe_thrust: int) -> int:
    """``Aero.autoSetSI``: max(floor(tonnage / 10), safe thrust) for aerospace fighters;
    ``ConvFighter`` and ``FixedWingSupport`` override it with the safe thrust alone."""
    if kind in (UnitKind.CONVENTIONAL_FIGHTER, UnitKind.FIXED_WING_SUPPORT):
        return safe_thrust
    return max(math.floor(tonnage / 10.0), safe_thrust)


# TechManual suspension factors for combat vehicles: engine rating = cruise x tonnage - factor,
# rounded up to a multiple of 5. Checked against the fixtures: Bulldog (tracked 60 t, 4 MP) has a
# 240 engine, Maxim (hover 50 t, 8 MP) a 165.
_HOVER_FACTORS = ((10, 40), (20, 85), (30, 130), (40, 175), (50, 235))
_VTOL_FACTORS = ((10, 50), (20, 95), (30, 140))
_FLAT_FACTORS = {"tracked": 0, "wheeled": 20, "naval": 30, "submarine": 30}


def vehicle_engine_rating(movement_mode: str, tonnage: float, cruise_mp: int) -> int | None:
    """The engine rating of a combat vehicle, or None where the factor is not modelled."""
    mode = movement_mode.casefold()
    factor: int | None = _FLAT_FACTORS.get(mode)
    table = {"hover": _HOVER_FACTORS, "vtol": _VTOL_FACTORS}.get(mode)
    if table is not None:
        factor = next((f for limit, f in table if tonnage <= limit), None)
    if factor is None:
        return None
    raw = cruise_mp * tonnage - factor
    return max(0, math.ceil(raw / 5.0) * 5)


def fighter_engine_rating(tonnage: float, safe_thrust: int) -> int:
    """Fighters: rating = (safe thrust - 2) x tonnage (the Rapier's 85 t x 4 = AeroFord 340)."""
    return max(0, int((safe_thrust - 2) * tonnage))


def protomek_internal(tonnage: float, quad: bool, main_gun: bool) -> dict[int, int]:
    """``ProtoMek.autoSetInternal``: head by weight band, torso = tonnage, arms = head value
    (none for quads), legs from a biped or quad band table, main gun 1 (2 over 9 t).
    Indices: 1 Head, 2 Torso, 3 Right Arm, 4 Left Arm, 5 Legs, 6 Main Gun (0 is Body)."""
    weight = int(tonnage)
    head = 1 if weight <= 5 else 2 if weight <= 9 else 3 if weight <= 13 else 4
    band = min(max(weight, 2), 14)  # 2-3, 4-5, ... 12-13, then 14+
    biped_legs = {2: 2, 4: 3, 6: 4, 8: 5, 10: 6, 12: 7, 14: 8}
    quad_legs = {2: 4, 4: 5, 6: 8, 8: 9, 10: 12, 12: 13, 14: 14}
    legs = (quad_legs if quad else biped_legs)[band - band % 2]
    values = {1: head, 2: weight, 5: legs}
    if not quad:
        values[3] = values[4] = head
    if main_gun:
        values[6] = 2 if weight > 9 else 1
    return values
