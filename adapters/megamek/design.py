"""The typed model of a MegaMek unit design, read from a ``.mtf``, ``.blk`` or ``.bfs`` file.

A MUL only records deviations from the design (reference section 0.2), so the design is the
other half of a unit's absolute condition: original armor and internal structure per location,
what sits in every critical slot, where the ammo is. Everything here is plain data; the readers
in ``mtf_reader``, ``blk_reader`` and ``bfs_reader`` build it and never touch the filesystem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from mekref.adapters.megamek.unit_kinds import UnitKind


class UnitFileError(ValueError):
    """A unit file that cannot be read: says which file, which line and what is wrong."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.reason = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class TechBase(StrEnum):
    INNER_SPHERE = "inner_sphere"
    CLAN = "clan"
    MIXED_IS_CHASSIS = "mixed_is_chassis"
    MIXED_CLAN_CHASSIS = "mixed_clan_chassis"
    #: Battlefield Support Assets (.bfs) carry no tech base.
    UNKNOWN = "unknown"


class RulesLevel(IntEnum):
    """MegaMek's rules levels: the number is what ``rules level:`` / ``IS Level N`` say."""

    INTRODUCTORY = 1
    STANDARD = 2
    ADVANCED = 3
    EXPERIMENTAL = 4
    UNOFFICIAL = 5


class SystemKind(StrEnum):
    """What a Mek ``System`` critical slot is. StrEnum, so ``kind == "gyro"`` holds."""

    ENGINE = "engine"
    GYRO = "gyro"
    COCKPIT = "cockpit"
    SENSORS = "sensors"
    LIFE_SUPPORT = "life_support"
    SHOULDER = "shoulder"
    UPPER_ARM = "upper_arm"
    LOWER_ARM = "lower_arm"
    HAND = "hand"
    HIP = "hip"
    UPPER_LEG = "upper_leg"
    LOWER_LEG = "lower_leg"
    FOOT = "foot"
    # LAM conversion systems (MegaMek ``LandAirMek.LAM_AVIONICS`` / ``LAM_LANDING_GEAR``): they
    # are system slots too, and a hit on them matters to a LAM's fighter mode.
    AVIONICS = "avionics"
    LANDING_GEAR = "landing_gear"


@dataclass(frozen=True, slots=True)
class LocationStats:
    """Original (undamaged) values of one location. None means the location has no such value
    (a tank's Body has no armor; aero arcs have no internal structure, only the unit's SI)."""

    index: int
    name: str
    armor: int | None
    rear_armor: int | None = None
    internal: int | None = None


@dataclass(frozen=True, slots=True)
class CritSlot:
    """One line of a Mek critical block. ``index`` is 1-based, as the MUL ``<slot index>``."""

    index: int
    raw: str
    #: The item without mount suffixes (``(R)``, ``(T)``, ``(OMNIPOD)``, ``(ARMORED)``).
    name: str
    system: SystemKind | None = None
    rear: bool = False
    turret: bool = False
    omnipod: bool = False
    armored: bool = False

    @property
    def is_empty(self) -> bool:
        return self.name == "-Empty-"


@dataclass(frozen=True, slots=True)
class Equipment:
    """A mounted item. ``location`` is the MegaMek location index (-1 when not placed)."""

    name: str
    location: int
    location_name: str
    raw: str
    rear: bool = False
    #: First weapon of a large-craft weapon bay (``(B)`` prefix).
    bay_start: bool = False
    #: Shots from ``:N`` (large craft), ``:ShotsN#`` (BA) or `` (N)`` (ProtoMek) suffixes.
    shots: int | None = None
    #: Everything after the name that the reader did not interpret (``:OMNI``, ``:LA``, ``(T)``).
    modifiers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AmmoBin:
    """An ammo bin: Meks have a slot (1-based); BLK units have only the location."""

    location: int
    location_name: str
    ammo_type: str
    slot: int | None = None
    shots: int | None = None


@dataclass(frozen=True, slots=True)
class TransportBay:
    """One ``<transporters>`` line: ``kind:capacity:doors[:bay number...]``."""

    kind: str
    capacity: float | None
    doors: int | None
    bay_number: int | None
    raw: str
    omnipod: bool = False


#: Bay kinds that hold cargo tons (MegaMek ``BLKFile.addTransports`` cargo bay classes).
CARGO_BAY_KINDS = frozenset(
    {
        "cargobay",
        "liquidcargobay",
        "insulatedcargobay",
        "refrigeratedcargobay",
        "livestockcargobay",
    }
)


@dataclass(frozen=True, slots=True)
class EngineInfo:
    #: None when the file does not state it and it cannot be derived safely (support vehicles,
    #: large craft, exotic motive types).
    rating: int | None
    type: str


@dataclass(frozen=True, slots=True)
class LargeCraftCrew:
    crew: int
    officers: int
    gunners: int
    passengers: int
    marines: int
    battle_armor: int
    other_passengers: int
    life_boats: int
    escape_pods: int


@dataclass(frozen=True, kw_only=True)
class UnitDesign:
    """A unit file's design. A field with a default is one some files do not state (a
    Battlefield Support Asset has no armor, a savegame entity no equipment list): a reader
    leaves out what its file does not say rather than spelling out the empty value."""

    chassis: str
    model: str
    kind: UnitKind
    #: MegaMek's movement mode string: ``Biped``, ``Quad``, ``Tracked``, ``Hover``, ``Aerodyne``...
    movement_mode: str
    #: None only for Battlefield Support Assets, which have no tonnage.
    tonnage: float | None
    tech_base: TechBase = TechBase.UNKNOWN
    rules_level: RulesLevel | None = None
    intro_year: int | None = None
    #: Walk MP (Meks, ProtoMeks), cruise MP (vehicles), ground MP (infantry); 0 for aero.
    walk_mp: int
    jump_mp: int = 0
    #: Aero safe thrust; None for ground units.
    safe_thrust: int | None = None
    engine: EngineInfo | None = None
    structure_type: str = ""
    armor_type: str = ""
    locations: tuple[LocationStats, ...] = ()
    #: Aero structural integrity: derived for fighters, stated for large craft.
    structural_integrity: int | None = None
    #: Mek critical slots: location index -> slots in file order (slot 1 first).
    crit_slots: Mapping[int, tuple[CritSlot, ...]] = field(default_factory=dict)
    equipment: tuple[Equipment, ...] = ()
    ammo_bins: tuple[AmmoBin, ...] = ()
    bays: tuple[TransportBay, ...] = ()
    crew: LargeCraftCrew | None = None
    #: Battle armor troopers; conventional infantry: squad_size x squad_count.
    trooper_count: int | None = None
    ba_weight_class: str | None = None
    squad_size: int | None = None
    squad_count: int | None = None
    mul_id: int | None = None
    uuid: str | None = None
    source_file: str
    omni: bool = False
    #: True for support vehicles (SupportTank, LargeSupportTank, SupportVTOL, FixedWingSupport).
    support_vehicle: bool = False
    heat_sinks: int | None = None
    heat_sink_type: str | None = None
    quirks: tuple[str, ...] = ()
    #: Keys or tags the reader does not model, lower-cased, with every value they had.
    extra: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    # ---- derived values ----------------------------------------------------------------
    @property
    def run_mp(self) -> int:
        """Run (flank) MP before MASC/TSM: ceil(1.5 x walk)."""
        return math.ceil(1.5 * self.walk_mp)

    @property
    def max_thrust(self) -> int | None:
        return None if self.safe_thrust is None else math.ceil(1.5 * self.safe_thrust)

    @property
    def cargo_tons(self) -> float:
        return sum(b.capacity or 0.0 for b in self.bays if b.kind in CARGO_BAY_KINDS)

    @property
    def troop_tons(self) -> float:
        return sum(b.capacity or 0.0 for b in self.bays if b.kind == "troopspace")

    @property
    def total_armor(self) -> int:
        return sum((loc.armor or 0) + (loc.rear_armor or 0) for loc in self.locations)

    # ---- per-location lookups ------------------------------------------------------------
    def location(self, loc: int | str) -> LocationStats:
        """A location by MegaMek index or by name (case-insensitive)."""
        if isinstance(loc, int):
            for stats in self.locations:
                if stats.index == loc:
                    return stats
        else:
            wanted = loc.strip().casefold()
            for stats in self.locations:
                if stats.name.casefold() == wanted:
                    return stats
        raise KeyError(f"{self.chassis} {self.model} has no location {loc!r}")

    def armor(self, loc: int | str) -> int | None:
        return self.location(loc).armor

    def rear_armor(self, loc: int | str) -> int | None:
        return self.location(loc).rear_armor

    def internal(self, loc: int | str) -> int | None:
        return self.location(loc).internal

    @property
    def armor_by_name(self) -> dict[str, int]:
        return {s.name: s.armor for s in self.locations if s.armor is not None}

    @property
    def internal_by_name(self) -> dict[str, int]:
        return {s.name: s.internal for s in self.locations if s.internal is not None}

    def slot(self, location_index: int, slot_index: int) -> CritSlot | None:
        """The critical slot at a 1-based index, or None when there is no such slot."""
        slots = self.crit_slots.get(location_index, ())
        if not 1 <= slot_index <= len(slots):
            return None
        return slots[slot_index - 1]

    def system_at(self, location_index: int, slot_index: int) -> SystemKind | None:
        """Which system a MUL ``<slot type="System">`` at this place is (None if not a system)."""
        found = self.slot(location_index, slot_index)
        return None if found is None else found.system

    @property
    def display_name(self) -> str:
        return f"{self.chassis} {self.model}".strip()
