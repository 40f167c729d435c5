"""The absolute condition of a unit: a MUL entity (deltas) merged with its design (the maximum).

MegaMek writes only what changed, so "Right Torso armor 4" means nothing without the design's
original armor. This module turns an :class:`Entity` plus its :class:`UnitDesign` into numbers
the rules engine can price: per-location armor and internal structure now and at most, lost
locations, system hits by kind, ammunition per bin, motive damage, structural integrity,
surviving troopers. It is what ``rules`` reads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from mekref.adapters.megamek.ammo_shots import bin_shots
from mekref.adapters.megamek.design import SystemKind, UnitDesign
from mekref.adapters.megamek.kind_inference import infer_kind_from_shape
from mekref.adapters.megamek.mul_model import Entity, Location
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind, location_name

#: Mek locations whose loss leaves a 'Mek without legs (TripWire's "no legs" salvage row).
LEG_NAMES = frozenset(
    {"Right Leg", "Left Leg", "Center Leg", "Front Right Leg", "Front Left Leg",
     "Rear Right Leg", "Rear Left Leg"}
)  # fmt: skip


@dataclass(frozen=True)
class LocationCondition:
    index: int
    name: str
    armor: int
    armor_max: int
    internal: int
    internal_max: int
    rear: int | None = None
    rear_max: int | None = None
    destroyed: bool = False
    blown_off: bool = False
    breached: bool = False

    @property
    def armor_lost(self) -> int:
        return self.armor_max - self.armor + ((self.rear_max or 0) - (self.rear or 0))

    @property
    def internal_lost(self) -> int:
        return self.internal_max - self.internal


@dataclass(frozen=True)
class AmmoCondition:
    location: str
    slot: int | None
    ammo_type: str
    shots: int
    #: A full bin's shots, when known: what the design states (large craft, fixed bins), else
    #: MegaMek's shots for the type (``ammo_shots``) once the design is known.
    shots_max: int | None
    #: The file wrote no line for the bin: it holds the design's standard load (``with_unlisted``).
    from_design: bool = False


@dataclass(frozen=True)
class DesignBin:
    """An ammunition bin of the design that the file writes no ``<slot>`` line for."""

    location: str
    location_index: int
    slot: int | None
    ammo_type: str
    #: A full bin's shots; None when neither the design nor MegaMek's table (``ammo_shots``)
    #: says how many.
    shots: int | None
    #: Its location is lost: the bin is gone (a full bin to replace), not standard load.
    lost: bool


@dataclass(frozen=True, kw_only=True)
class CriticalResults:
    """The damage MegaMek keeps outside a unit's locations and slots, as its unit list writes it
    (``EntityListFile``: ``<motive damage penalty>``, ``<turretlock direction>``,
    ``<tcriticals>``, a location's ``<stabilizer isHit>``, ``<acriticals>``, ``<dcriticals>``).
    Kept so the next file written for the unit carries it. An aerospace unit's
    ``<structural integrity>`` is not here: with the design it is a location of the priced
    condition ("Structural Integrity"), without one nothing of the unit is written back.

    ``vehicle`` holds the vehicle's own results (sensors, engine): its driver and commander hits
    are the crew's (the Heal Vehicle Crew row).
    """

    motive_damage: int = 0
    motive_penalty: int = 0
    turret_lock: int | None = None
    stabilisers: tuple[str, ...] = ()
    vehicle: tuple[tuple[str, str], ...] = ()
    aero: tuple[tuple[str, str], ...] = ()
    dropship: tuple[tuple[str, str], ...] = ()

    def lines(self) -> tuple[str, ...]:
        """Each result in words, one line each (the import's output, the report)."""
        out = []
        if self.motive_damage or self.motive_penalty:
            out.append(f"motive damage {self.motive_damage} (penalty {self.motive_penalty})")
        if self.turret_lock is not None:
            out.append(f"turret locked (facing {self.turret_lock})")
        if self.stabilisers:
            out.append(f"stabiliser hit ({', '.join(self.stabilisers)})")
        for label, crits in (
            ("vehicle", self.vehicle),
            ("aerospace", self.aero),
            ("DropShip", self.dropship),
        ):
            if crits:
                out.append(f"{label} criticals {', '.join(f'{k}={v}' for k, v in crits)}")
        return tuple(out)

    def as_json(self) -> dict[str, object]:
        """The results as ``inspect --json``, ``report --json`` and ``force list --json`` show
        them (the same keys everywhere)."""
        return {
            "motive_damage": self.motive_damage,
            "motive_penalty": self.motive_penalty,
            "turret_lock": self.turret_lock,
            "stabilisers": list(self.stabilisers),
            "vehicle": dict(self.vehicle),
            "aero": dict(self.aero),
            "dropship": dict(self.dropship),
        }


#: A vehicle's ``<tcriticals>`` that are its crew's, not the vehicle's (kept as crew damage).
CREW_CRITICALS = frozenset({"driver", "commander"})


def critical_results(
    entity: Entity, kind: UnitKind, design: UnitDesign | None = None
) -> CriticalResults | None:
    """What ``entity`` writes outside its locations and slots; None when it writes nothing.
    A stabiliser's location is named as the design names it (as the condition's locations)."""
    names = {stats.index: stats.name for stats in design.locations} if design else {}
    stabilisers = tuple(
        names.get(loc.index)
        or loc.name
        or location_name(kind, loc.index)
        or f"location {loc.index}"
        for loc in entity.locations
        if loc.stabilizer_hit and not loc.destroyed
    )
    found = CriticalResults(
        motive_damage=max(entity.motive_damage or 0, 0),
        motive_penalty=max(entity.motive_penalty or 0, 0),
        turret_lock=entity.turret_lock,
        stabilisers=stabilisers,
        vehicle=tuple((k, v) for k, v in entity.tank_crits if k not in CREW_CRITICALS),
        aero=tuple(entity.aero_crits),
        dropship=tuple(entity.dropship_crits),
    )
    return None if found == CriticalResults() else found


@dataclass(frozen=True)
class UnitCondition:
    entity: Entity
    design: UnitDesign | None
    kind: UnitKind
    kind_source: KindSource
    locations: tuple[LocationCondition, ...]
    #: Hits per system; slots in a lost location count as hit. Needs the design's crit table.
    system_hits: tuple[tuple[SystemKind, int], ...]
    #: System hits whose slot the design does not explain (no design, or a changed variant).
    unidentified_system_hits: int
    ammo: tuple[AmmoCondition, ...]
    motive_damage: int
    structural_integrity: int | None
    structural_integrity_max: int | None
    troopers: int | None
    troopers_max: int | None
    #: Motive damage, turret lock, stabilisers, vehicle and aerospace criticals.
    criticals: CriticalResults | None = None

    def hits(self, system: SystemKind) -> int:
        return dict(self.system_hits).get(system, 0)

    def location(self, name: str) -> LocationCondition | None:
        for loc in self.locations:
            if loc.name == name:
                return loc
        return None

    @property
    def destroyed_locations(self) -> tuple[str, ...]:
        return tuple(loc.name for loc in self.locations if loc.destroyed)

    @property
    def armor_lost(self) -> int:
        return sum(loc.armor_lost for loc in self.locations)

    @property
    def internal_lost(self) -> int:
        return sum(loc.internal_lost for loc in self.locations)


def merge_condition(entity: Entity, design: UnitDesign | None) -> UnitCondition:
    """Absolute condition of ``entity``; without a design only what the file says is known."""
    if design is not None and not entity.is_ejected_crew:
        kind, source = design.kind, KindSource.DESIGN
    else:
        guess = infer_kind_from_shape(entity)
        kind, source = guess.kind, guess.source
    locations = _locations(entity, design, kind)
    hits, unidentified = _system_hits(entity, design)
    troopers, troopers_max = _troopers(entity, design, kind, locations)
    si_max = design.structural_integrity if design else None
    return UnitCondition(
        entity=entity,
        design=design,
        kind=kind,
        kind_source=source,
        locations=locations,
        system_hits=tuple(sorted(hits.items())),
        unidentified_system_hits=unidentified,
        ammo=_ammo(entity, design, kind),
        motive_damage=entity.motive_damage or 0,
        structural_integrity=(
            entity.structural_integrity if entity.structural_integrity is not None else si_max
        ),
        structural_integrity_max=si_max,
        troopers=troopers,
        troopers_max=troopers_max,
        criticals=critical_results(entity, kind, design),
    )


def _points(value: int | None, default: int) -> int:
    """A MUL armor value as points left: the sentinels (N/A, Destroyed) leave nothing."""
    if value is None:
        return default
    return max(value, 0)


def _locations(
    entity: Entity, design: UnitDesign | None, kind: UnitKind
) -> tuple[LocationCondition, ...]:
    written = {loc.index: loc for loc in entity.locations}
    out: list[LocationCondition] = []
    if design is not None:
        for stats in design.locations:
            out.append(
                _merge_location(
                    written.pop(stats.index, None),
                    stats.index,
                    stats.name,
                    stats.armor or 0,
                    stats.internal or 0,
                    stats.rear_armor,
                )
            )
    # Without a design (or for a location the design lacks) only the file's numbers are known:
    # we take them as both current and maximum, so nothing is priced that we cannot see.
    for index, loc in sorted(written.items()):
        name = loc.name or location_name(kind, index) or f"location {index}"
        armor = _points(loc.armor, 0)
        internal = _points(loc.internal, 0)
        rear = None if loc.rear is None else _points(loc.rear, 0)
        out.append(_merge_location(loc, index, name, armor, internal, rear))
    return tuple(out)


def _merge_location(
    written: Location | None,
    index: int,
    name: str,
    armor_max: int,
    internal_max: int,
    rear_max: int | None,
) -> LocationCondition:
    if written is None:
        return LocationCondition(
            index, name, armor_max, armor_max, internal_max, internal_max, rear_max, rear_max
        )
    # A limb blown off is gone with all its armor and structure, though MegaMek writes the
    # values it had (ruling R-IMP-7): the savegame reader takes it so too, and both doors
    # must give the same condition.
    if written.destroyed or written.blown_off:
        return LocationCondition(
            index,
            name,
            0,
            armor_max,
            0,
            internal_max,
            None if rear_max is None else 0,
            rear_max,
            destroyed=True,
            blown_off=written.blown_off,
        )
    return LocationCondition(
        index=index,
        name=name,
        armor=min(_points(written.armor, armor_max), armor_max),
        armor_max=armor_max,
        internal=min(_points(written.internal, internal_max), internal_max),
        internal_max=internal_max,
        rear=None if rear_max is None else min(_points(written.rear, rear_max), rear_max),
        rear_max=rear_max,
        destroyed=False,
        blown_off=written.blown_off,
        breached=written.breached,
    )


def _system_hits(entity: Entity, design: UnitDesign | None) -> tuple[Counter[SystemKind], int]:
    hits: Counter[SystemKind] = Counter()
    unidentified = 0
    for loc in entity.locations:
        if loc.destroyed and design is not None:
            # MegaMek writes no slots for a lost location; everything in it is gone.
            for slot in design.crit_slots.get(loc.index, ()):
                if slot.system is not None:
                    hits[slot.system] += 1
            continue
        for s in loc.slots:
            if not s.is_system or not (s.is_hit or s.is_destroyed or s.is_missing):
                continue
            system = design.system_at(loc.index, s.index) if design and s.index else None
            if system is None:
                unidentified += 1
            else:
                hits[system] += 1
    return hits, unidentified


def _ammo(entity: Entity, design: UnitDesign | None, kind: UnitKind) -> tuple[AmmoCondition, ...]:
    full: dict[tuple[int, int | None], int | None] = {}
    if design is not None:
        full = {(b.location, b.slot): b.shots for b in design.ammo_bins}
    out = []
    for loc in entity.locations:
        name = loc.name or location_name(kind, loc.index) or f"location {loc.index}"
        for s in loc.slots:
            if s.shots is None:
                continue
            most = full.get((loc.index, s.index))
            if most is None and design is not None:
                # The design places the bin but gives no shots ('Mek slots, most vehicle
                # lines): a full bin holds MegaMek's shots for the type. Only with a design,
                # so a file read without one is priced as before (from the file alone).
                most = bin_shots(s.type)
            out.append(AmmoCondition(name, s.index, s.type, s.shots, most))
    return tuple(out)


def unlisted_bins(cond: UnitCondition) -> tuple[DesignBin, ...]:
    """The design's ammunition bins the file writes no line for.

    MegaMek's own writer lists every bin of a location it keeps (reference 1.5), but lists made
    by other tools (mekref's sample lists, hand-made ones) often list none: such a bin holds
    the design's standard load. A bin with a slot is matched by its slot; a bin without one
    (``.blk`` units: only the location is known) counts as listed when the file writes any
    ammunition in its location. A bin in a lost location is gone (``lost``).
    """
    design = cond.design
    if design is None:
        return ()
    names = {loc.index: loc.name for loc in design.locations}
    written: dict[int, set[int | None]] = {}
    lost = set()
    for loc in cond.entity.locations:
        if loc.destroyed or loc.blown_off:  # a limb blown off is lost (ruling R-IMP-7)
            lost.add(loc.index)
        written.setdefault(loc.index, set()).update(
            s.index for s in loc.slots if s.shots is not None
        )
    out = []
    for b in design.ammo_bins:
        here = written.get(b.location, set())
        listed = bool(here) if b.slot is None else b.slot in here
        if listed and b.location not in lost:
            continue
        out.append(
            DesignBin(
                location=names.get(b.location, b.location_name),
                location_index=b.location,
                slot=b.slot,
                ammo_type=b.ammo_type,
                shots=b.shots if b.shots is not None else bin_shots(b.ammo_type),
                lost=b.location in lost,
            )
        )
    return tuple(out)


def with_unlisted(cond: UnitCondition) -> UnitCondition:
    """``cond`` with the design's standard load in every bin the file did not list (and whose
    location it keeps, with a known full load): what a unit list without ``<slot>`` lines
    means. Battle records list every bin, so only the import asks for this."""
    filled = tuple(
        AmmoCondition(b.location, b.slot, b.ammo_type, b.shots, b.shots, from_design=True)
        for b in unlisted_bins(cond)
        if not b.lost and b.shots is not None
    )
    return replace(cond, ammo=cond.ammo + filled) if filled else cond


def _troopers(
    entity: Entity,
    design: UnitDesign | None,
    kind: UnitKind,
    locations: tuple[LocationCondition, ...],
) -> tuple[int | None, int | None]:
    if kind is UnitKind.BATTLE_ARMOR:
        total = design.trooper_count if design else None
        suits = [loc for loc in locations if loc.index >= 1]
        if total is None:
            total = len(suits) or (entity.crew.size if entity.crew else None)
        lost = sum(1 for loc in suits if loc.destroyed)
        return (None if total is None else total - lost), total
    if kind is UnitKind.CONVENTIONAL_INFANTRY:
        total = design.trooper_count if design else None
        troopers_loc = entity.location(0)
        if troopers_loc is not None and troopers_loc.internal is not None:
            return max(troopers_loc.internal, 0), total
        if troopers_loc is not None and troopers_loc.destroyed:
            return 0, total
        return total, total
    if kind is UnitKind.EJECTED_CREW:
        return entity.ejected_men, entity.ejected_men
    return None, None
