"""Tell a unit's kind from the entity's shape when no unit design is known.

MegaMek's ``type`` attribute is the movement mode, so the shape (location names MegaMek wrote,
aero fields, crew size, ejected-crew markers) decides. A design, when the catalog has one, always
wins; callers record which of the two was used (:class:`KindSource`).
"""

from __future__ import annotations

from mekref.adapters.megamek.mul_model import Entity, KindGuess
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind

_GROUND_VEHICLE_MODES = frozenset(
    {"tracked", "wheeled", "hover", "naval", "hydrofoil", "submarine", "wige", "rail", "maglev"}
)
_INFANTRY_MODES = frozenset(
    {"leg", "jump", "motorized", "microlite", "microcopter", "scuba", "motorized scuba", "umu"}
)


def infer_kind_from_shape(entity: Entity) -> KindGuess:
    return KindGuess(_kind(entity), KindSource.SHAPE)


def _kind(e: Entity) -> UnitKind:
    names = {loc.name for loc in e.locations}
    mode = e.movement_mode.strip().lower()
    size = e.crew.size if e.crew else None
    if e.is_ejected_crew:
        return UnitKind.EJECTED_CREW
    if e.entity_form == "BattlefieldSupportAsset":
        return UnitKind.BATTLEFIELD_SUPPORT_ASSET
    # Location names are the strongest evidence: infantry with field guns moves "Tracked".
    if names & {"Troopers", "Field Guns"}:
        return UnitKind.CONVENTIONAL_INFANTRY
    if any(n.startswith("Trooper ") for n in names) or names & {"Squad", "Point"}:
        return UnitKind.BATTLE_ARMOR
    if names & {"Main Gun", "Torso", "Legs"}:
        return UnitKind.PROTOMEK
    if "Guns" in names:
        return UnitKind.GUN_EMPLACEMENT
    if names & {"Left Wing", "Right Wing", "Wings", "Fuselage"}:
        return UnitKind.AEROSPACE_FIGHTER
    if names & {"Left Side", "Right Side", "Hull"} or mode == "spheroid":
        # DropShips carry bays and docking-collar crits; a small craft has neither.
        has_bays = any(raw.startswith("<transportBay") for raw in e.preserved)
        return UnitKind.DROPSHIP if has_bays or e.dropship_crits else UnitKind.SMALL_CRAFT
    if mode == "aerodyne":
        return UnitKind.AEROSPACE_FIGHTER
    if mode == "vtol" or "Rotor" in names:
        return UnitKind.VTOL
    if mode in _GROUND_VEHICLE_MODES:
        if names & {"Front Right", "Front Left", "Rear Right", "Rear Left", "Turret 2"}:
            return UnitKind.SUPERHEAVY_TANK
        return UnitKind.TANK
    if mode == "quad" or names & {"Front Left Leg", "Rear Left Leg"}:
        return UnitKind.QUAD_MEK
    if mode == "tripod" or "Center Leg" in names:
        return UnitKind.TRIPOD_MEK
    if mode == "biped":
        has_aero_skill = any(m.gunnery_aero is not None for m in e.members)
        return UnitKind.LAM if has_aero_skill or e.velocity is not None else UnitKind.BIPED_MEK
    if mode in _INFANTRY_MODES:
        # A ProtoMek is written as Biped/Jump with a single pilot; infantry crews are troopers.
        if mode == "jump" and size == 1:
            return UnitKind.PROTOMEK
        if size is not None and 1 < size <= 6 and mode in ("leg", "jump"):
            return UnitKind.BATTLE_ARMOR
        return UnitKind.CONVENTIONAL_INFANTRY
    return UnitKind.UNKNOWN
