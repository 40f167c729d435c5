"""A unit's damage and mobility from its condition as a MegaMek file leaves it.

The condition (:func:`~mekref.adapters.megamek.condition.merge_condition`: the file's entity
laid over its design) becomes what the books keep: each location's armour and structure lost,
damaged slots, critical hits, ammunition fired against the standard load (TripWire line 23),
and whether the unit can still move (the salvage rules' mobility). Battle reports
(:mod:`.battle_input`), imported condition (:mod:`.import_condition`) and rolled damage share it.
"""

from __future__ import annotations

from fractions import Fraction

from mekref.adapters.megamek.condition import LEG_NAMES, UnitCondition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.unit_kinds import location_name
from mekref.rules.records import copy_with
from mekref.rules.tripwire.battle_model import AmmoBinLoad, SlotDamage, UnitDamage
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage, bin_tons
from mekref.rules.tripwire.salvage import UnitMobility

__all__ = ["STRUCTURAL_INTEGRITY", "crew_damage_of", "loadout_of", "mobility", "unit_damage"]

#: The location an aerospace unit's structural integrity is kept as (its design gives the most).
STRUCTURAL_INTEGRITY = "Structural Integrity"


def _lost_without_design(cond: UnitCondition, kind: UnitKind, index: int, destroyed: bool) -> bool:
    """Without a design the maxima are unknown, but the file still says a location is gone: it
    is destroyed, or (a vehicle) its internal structure is written as 0."""
    if cond.design is not None:
        return False
    if destroyed:
        return True
    written = cond.entity.location(index)
    return kind.is_vehicle and written is not None and written.internal == 0


def _locations(cond: UnitCondition, kind: UnitKind) -> tuple[LocationDamage, ...]:
    if kind.is_infantry:
        return ()
    out = [
        LocationDamage(
            name=loc.name,
            armor_max=loc.armor_max + (loc.rear_max or 0),
            armor_now=loc.armor + (loc.rear or 0),
            internal_max=loc.internal_max,
            internal_now=loc.internal,
            is_center_torso=kind is UnitKind.MEK and loc.name == "Center Torso",
            destroyed=_lost_without_design(cond, kind, loc.index, loc.destroyed),
            # The rear's share of the figure, as the file says it (T-X2).
            rear_max=loc.rear_max if loc.rear is not None else None,
            rear_now=loc.rear if loc.rear_max is not None else None,
        )
        for loc in cond.locations
    ]
    si_max = cond.structural_integrity_max
    if si_max:
        si_now = min(max(cond.structural_integrity or 0, 0), si_max)
        out.append(
            LocationDamage(
                name=STRUCTURAL_INTEGRITY,
                armor_max=0,
                armor_now=0,
                internal_max=si_max,
                internal_now=si_now,
            )
        )
    return tuple(out)


def _critical_hits(cond: UnitCondition) -> int:
    systems = sum(n for _, n in cond.system_hits) + cond.unidentified_system_hits
    equipment = sum(
        1
        for loc in cond.entity.locations
        if not loc.destroyed
        for s in loc.slots
        if not s.is_system and s.damaged
    )
    tank = sum(1 for name, _ in cond.entity.tank_crits if name in ("engine", "sensors"))
    # <acriticals>: each listed system is hit ("None" = destroyed); the gear is billed apart.
    aero = sum(1 for name, _ in cond.entity.aero_crits if name != "gear")
    return systems + equipment + tank + aero


def loadout_of(cond: UnitCondition) -> tuple[AmmoBinLoad, ...]:
    """Every bin of the unit with the shots the file says it holds now."""
    return tuple(
        AmmoBinLoad(location=a.location, slot=a.slot, ammo_type=a.ammo_type, shots=a.shots)
        for a in cond.ammo
    )


def bins_now(
    cond: UnitCondition, loadout: tuple[AmmoBinLoad, ...] | None
) -> tuple[AmmoBinLoad, ...]:
    """The bins to keep as the unit's ammunition now (``UnitDamage.ammo_bins``).

    Empty means "nothing recorded: as loaded" to every reader of it, so a unit whose every
    listed bin went with a lost location (MegaMek writes no slot of a destroyed one) would read
    back full. Then the standard load's bins are kept instead: those in a lost location empty,
    the others as loaded, which is what the empty tuple meant for them."""
    listed = loadout_of(cond)
    if listed or not loadout:
        return listed
    lost = {loc.name for loc in cond.locations if loc.destroyed}
    if not any(b.location in lost for b in loadout):
        return ()
    return tuple(copy_with(b, shots=0) if b.location in lost else b for b in loadout)


def _ammo_used(cond: UnitCondition, loadout: tuple[AmmoBinLoad, ...] | None) -> tuple[AmmoUse, ...]:
    """Tons to re-arm per ammunition type.

    Ruling BR-6: a bin is one ton (half a ton for MegaMek's half-ton bins, R-AMMO-2); the
    shots it held at import are its full load (the standard load never changes, line 23). A
    bin in a destroyed location is a full bin to replace. Without an import load the design's
    capacity is used when it states one; a bin of unknown capacity costs a bin only when it is
    empty.
    """
    used: dict[str, Fraction] = {}
    # Vehicles write every bin of a location with index "N/A": bins of one location, slot and
    # type are paired in file order.
    now: dict[tuple[str, int | None, str], list[int]] = {}
    for a in cond.ammo:
        now.setdefault((a.location, a.slot, a.ammo_type), []).append(a.shots)
    lost = set(cond.destroyed_locations)
    if loadout:
        for b in loadout:
            left = now.get((b.location, b.slot, b.ammo_type))
            current = left.pop(0) if left else None
            if b.shots <= 0:
                continue
            if current is None:
                spent = b.shots if b.location in lost else 0
            else:
                spent = max(b.shots - current, 0)
            if spent:
                tons = Fraction(spent, b.shots) * bin_tons(b.ammo_type)
                used[b.ammo_type] = used.get(b.ammo_type, Fraction(0)) + tons
    else:
        for a in cond.ammo:
            if a.shots_max:
                spent = max(a.shots_max - a.shots, 0)
                if spent:
                    tons = Fraction(spent, a.shots_max) * bin_tons(a.ammo_type)
                    used[a.ammo_type] = used.get(a.ammo_type, Fraction(0)) + tons
            elif a.shots == 0:
                used[a.ammo_type] = used.get(a.ammo_type, Fraction(0)) + bin_tons(a.ammo_type)
    return tuple(AmmoUse(ammo_type=k, tons=v) for k, v in sorted(used.items()))


def _damaged_slots(cond: UnitCondition) -> tuple[SlotDamage, ...]:
    """Every slot the file marks hit, destroyed or missing, outside lost locations (a lost
    location goes out destroyed as a whole)."""
    out = []
    design = cond.design
    for loc in cond.entity.locations:
        if loc.destroyed:
            continue
        name = loc.name or location_name(cond.kind, loc.index) or f"location {loc.index}"
        for s in loc.slots:
            if not s.damaged:
                continue
            system = (
                design.system_at(loc.index, s.index)
                if design is not None and s.is_system and s.index
                else None
            )
            out.append(
                SlotDamage(
                    location=name,
                    slot=s.index,
                    item=s.type,
                    system=None if system is None else system.value,
                    hit=s.is_hit,
                    destroyed=s.is_destroyed,
                    missing=s.is_missing,
                )
            )
    return tuple(out)


def unit_damage(
    cond: UnitCondition, kind: UnitKind, loadout: tuple[AmmoBinLoad, ...] | None = None
) -> UnitDamage:
    suits_damaged = 0
    if kind is UnitKind.BATTLE_ARMOR:
        suits_damaged = sum(
            1 for loc in cond.locations if loc.index >= 1 and not loc.destroyed and loc.armor_lost
        )
    return UnitDamage(
        locations=_locations(cond, kind),
        critical_hits=_critical_hits(cond),
        ammo_used=_ammo_used(cond, loadout),
        troopers_alive=cond.troopers,
        troopers_max=cond.troopers_max,
        suits_damaged=suits_damaged,
        landing_gear_damaged=kind is UnitKind.DROPSHIP
        and any(name == "gear" for name, _ in cond.entity.aero_crits),
        design_known=cond.design is not None,
        ammo_bins=bins_now(cond, loadout),
        damaged_slots=_damaged_slots(cond),
        criticals=cond.criticals,
    )


def mobility(cond: UnitCondition, kind: UnitKind) -> UnitMobility:
    e = cond.entity
    members = e.members
    crew_dead = bool(members) and all(m.dead for m in members)
    legs: int | None = None
    if kind is UnitKind.MEK:
        leg_locs = [loc for loc in cond.locations if loc.name in LEG_NAMES]
        legs = sum(1 for loc in leg_locs if not loc.destroyed) if leg_locs else None
    head = cond.location("Head")
    tank = dict(e.tank_crits)
    immobile = False
    if kind.is_vehicle:
        walk = cond.design.walk_mp if cond.design else 0
        # Ruling BR-7: a vehicle is immobile when its motive damage takes all its MP or
        # its engine is hit (an engine hit immobilises a vehicle in Total Warfare).
        immobile = (walk > 0 and cond.motive_damage >= walk) or tank.get("engine") == "hit"
    return UnitMobility(
        kind=kind,
        crew_ejected=bool(e.crew and e.crew.ejected),
        legs_remaining=legs,
        gyro_hits=cond.hits(SystemKind.GYRO),
        gyro_destroyed=cond.hits(SystemKind.GYRO) >= 2,
        engine_hits=cond.hits(SystemKind.ENGINE),
        head_destroyed=head is not None and head.destroyed,
        cockpit_hit=cond.hits(SystemKind.COCKPIT) > 0,
        crew_dead=crew_dead,
        vehicle_immobile=immobile,
    )


def crew_damage_of(e: Entity) -> int:
    """A vehicle's driver and commander hit results (the Heal Vehicle Crew row)."""
    tank = dict(e.tank_crits)
    return sum(1 for key in ("driver", "commander") if tank.get(key) in ("hit", "console"))
