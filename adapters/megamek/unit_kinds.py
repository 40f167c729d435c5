"""What kind of unit a MegaMek entity is, and the names of its locations.

MegaMek's MUL ``type`` attribute is the *movement mode* (``Biped``, ``Tracked``, ``Jump``...), not
the unit kind: a ProtoMek is written as ``Biped`` or ``Jump``, and an ejected MekWarrior as ``Leg``
like any foot infantry. The kind comes from the unit design when one is known, otherwise from the
entity's shape (see :mod:`mekref.adapters.megamek.kind_inference`).

Location index tables follow MegaMek's ``getLocationName`` per class (reference section 2).
"""

from __future__ import annotations

from enum import StrEnum


class UnitKind(StrEnum):
    BIPED_MEK = "biped_mek"
    QUAD_MEK = "quad_mek"
    TRIPOD_MEK = "tripod_mek"
    LAM = "lam"
    QUADVEE = "quadvee"
    TANK = "tank"
    SUPPORT_TANK = "support_tank"
    SUPERHEAVY_TANK = "superheavy_tank"
    VTOL = "vtol"
    SUPPORT_VTOL = "support_vtol"
    AEROSPACE_FIGHTER = "aerospace_fighter"
    CONVENTIONAL_FIGHTER = "conventional_fighter"
    FIXED_WING_SUPPORT = "fixed_wing_support"
    SMALL_CRAFT = "small_craft"
    DROPSHIP = "dropship"
    JUMPSHIP = "jumpship"
    WARSHIP = "warship"
    SPACE_STATION = "space_station"
    BATTLE_ARMOR = "battle_armor"
    CONVENTIONAL_INFANTRY = "conventional_infantry"
    PROTOMEK = "protomek"
    GUN_EMPLACEMENT = "gun_emplacement"
    BATTLEFIELD_SUPPORT_ASSET = "battlefield_support_asset"
    EJECTED_CREW = "ejected_crew"
    UNKNOWN = "unknown"

    @property
    def is_mek(self) -> bool:
        return self in _MEKS

    @property
    def is_vehicle(self) -> bool:
        return self in _VEHICLES

    @property
    def is_aero(self) -> bool:
        return self in _AEROS

    @property
    def is_infantry(self) -> bool:
        return self in (UnitKind.BATTLE_ARMOR, UnitKind.CONVENTIONAL_INFANTRY)


_MEKS = frozenset(
    {UnitKind.BIPED_MEK, UnitKind.QUAD_MEK, UnitKind.TRIPOD_MEK, UnitKind.LAM, UnitKind.QUADVEE}
)
_VEHICLES = frozenset(
    {
        UnitKind.TANK,
        UnitKind.SUPPORT_TANK,
        UnitKind.SUPERHEAVY_TANK,
        UnitKind.VTOL,
        UnitKind.SUPPORT_VTOL,
    }
)
_AEROS = frozenset(
    {
        UnitKind.AEROSPACE_FIGHTER,
        UnitKind.CONVENTIONAL_FIGHTER,
        UnitKind.FIXED_WING_SUPPORT,
        UnitKind.SMALL_CRAFT,
        UnitKind.DROPSHIP,
        UnitKind.JUMPSHIP,
        UnitKind.WARSHIP,
        UnitKind.SPACE_STATION,
    }
)


class KindSource(StrEnum):
    """Where a unit kind was learned: the reader always says which."""

    DESIGN = "design"
    SHAPE = "shape"


_BIPED = ("Head", "Center Torso", "Right Torso", "Left Torso", "Right Arm", "Left Arm",
          "Right Leg", "Left Leg")  # fmt: skip
_QUAD = ("Head", "Center Torso", "Right Torso", "Left Torso", "Front Right Leg",
         "Front Left Leg", "Rear Right Leg", "Rear Left Leg")  # fmt: skip
_TANK = ("Body", "Front", "Right", "Left", "Rear", "Turret", "Front Turret")
_VTOL = ("Body", "Front", "Right", "Left", "Rear", "Rotor", "Turret")
_SUPERHEAVY = ("Body", "Front", "Front Right", "Front Left", "Rear Right", "Rear Left", "Rear",
               "Turret", "Turret 2")  # fmt: skip
_FIGHTER = ("Nose", "Left Wing", "Right Wing", "Aft", "Wings", "Fuselage")
_SMALL_CRAFT = ("Nose", "Left Side", "Right Side", "Aft", "Hull")
_JUMPSHIP = ("Nose", "Left Front Side", "Right Front Side", "Aft", "Aft Left Side",
             "Aft Right Side", "Hull")  # fmt: skip
_WARSHIP = (*_JUMPSHIP[:6], "Hull", "Left Broadsides", "Right Broadsides")
_BATTLE_ARMOR = ("Squad", "Trooper 1", "Trooper 2", "Trooper 3", "Trooper 4", "Trooper 5",
                 "Trooper 6")  # fmt: skip

LOCATION_NAMES: dict[UnitKind, tuple[str, ...]] = {
    UnitKind.BIPED_MEK: _BIPED,
    UnitKind.LAM: _BIPED,
    UnitKind.QUAD_MEK: _QUAD,
    UnitKind.QUADVEE: _QUAD,
    UnitKind.TRIPOD_MEK: (*_BIPED, "Center Leg"),
    UnitKind.TANK: _TANK,
    UnitKind.SUPPORT_TANK: _TANK,
    UnitKind.SUPERHEAVY_TANK: _SUPERHEAVY,
    UnitKind.VTOL: _VTOL,
    UnitKind.SUPPORT_VTOL: _VTOL,
    UnitKind.AEROSPACE_FIGHTER: _FIGHTER,
    UnitKind.CONVENTIONAL_FIGHTER: _FIGHTER,
    UnitKind.FIXED_WING_SUPPORT: ("Nose", "Left Wing", "Right Wing", "Aft", "Wings", "Body"),
    UnitKind.SMALL_CRAFT: _SMALL_CRAFT,
    UnitKind.DROPSHIP: _SMALL_CRAFT,
    UnitKind.JUMPSHIP: _JUMPSHIP,
    UnitKind.SPACE_STATION: _JUMPSHIP,
    UnitKind.WARSHIP: _WARSHIP,
    UnitKind.BATTLE_ARMOR: _BATTLE_ARMOR,
    UnitKind.CONVENTIONAL_INFANTRY: ("Troopers", "Field Guns"),
    UnitKind.EJECTED_CREW: ("Troopers",),
    UnitKind.PROTOMEK: ("Body", "Head", "Torso", "Right Arm", "Left Arm", "Legs", "Main Gun"),
    UnitKind.GUN_EMPLACEMENT: ("Guns",),
}

#: Aero pseudo-locations hold equipment only: never armored, never destroyed.
PSEUDO_LOCATIONS = frozenset({"Wings", "Fuselage", "Hull"})


def location_name(kind: UnitKind, index: int) -> str | None:
    """The MegaMek name of location ``index`` for ``kind``, or None when there is no such one."""
    names = LOCATION_NAMES.get(kind)
    if names is None or not 0 <= index < len(names):
        return None
    return names[index]


#: MegaMek's short names of the locations above (each unit class's ``LOCATION_ABBRS``:
#: ``BipedMek``, ``QuadMek``, ``TripodMek``, ``Tank``, ``SuperHeavyTank``, ``VTOL``,
#: ``AeroSpaceFighter``, ``SmallCraft``), by full name. A short name is unique among one unit's
#: locations ("LS" is a tank's "Left" and a small craft's "Left Side", never both).
LOCATION_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "Head": ("HD",), "Center Torso": ("CT",), "Right Torso": ("RT",), "Left Torso": ("LT",),
    "Right Arm": ("RA",), "Left Arm": ("LA",), "Right Leg": ("RL",), "Left Leg": ("LL",),
    "Center Leg": ("CL",), "Front Right Leg": ("FRL",), "Front Left Leg": ("FLL",),
    "Rear Right Leg": ("RRL",), "Rear Left Leg": ("RLL",),
    "Body": ("BD",), "Front": ("FR",), "Right": ("RS",), "Left": ("LS",), "Rear": ("RR",),
    "Turret": ("TU",), "Front Turret": ("FT",), "Rotor": ("RO",),
    "Front Right": ("FRRS",), "Front Left": ("FRLS",), "Rear Right": ("RRRS",),
    "Rear Left": ("RRLS",),
    "Nose": ("NOS",), "Left Wing": ("LWG",), "Right Wing": ("RWG",), "Aft": ("AFT",),
    "Left Side": ("LS",), "Right Side": ("RS",),
}  # fmt: skip
