"""Rolled damage laid on a unit's stored condition: the maintenance critical (line 199), the
Despised bombing (line 401) and the consciousness check beyond the rations (line 355).

Pure: a unit's condition (the battle ledger's :class:`UnitDamage`, or the design's as built when
it never fought), its design and the dice go in; the new condition, what each roll did and the
dice come out. The tables are ``tables/damage.toml`` (Total Warfare's rows, the TripWire line
that sends us there). Rulings T-DM1 to T-DM5 in docs/turn.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import CritSlot, UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.unit_kinds import UnitKind as DesignKind
from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.battle_input import unit_damage
from mekref.rules.tripwire.battle_model import AmmoBinLoad, Fate, SlotDamage, UnitDamage
from mekref.rules.tripwire.battle_resolution import subject_for
from mekref.rules.tripwire.repair import AmmoUse, DamageState, bin_tons, damage_state
from mekref.rules.tripwire.state import CampaignUnit
from mekref.rules.tripwire.turn.data import RangeRow, damage_table, lookup, single, table_rows
from mekref.rules.tripwire.turn.events import DamageLine

#: 'Meks that read the biped front column as it is, and those that read it as legs.
BIPEDS = frozenset({DesignKind.BIPED_MEK, DesignKind.LAM, DesignKind.TRIPOD_MEK})
QUADS = frozenset({DesignKind.QUAD_MEK, DesignKind.QUADVEE})
VEHICLES = frozenset({DesignKind.TANK, DesignKind.SUPPORT_TANK})
#: Guard against a location whose every slot keeps rolling again (it has a hittable one, so
#: this is never reached in practice; reaching it is reported, not hidden).
MAX_SLOT_ROLLS = 100


@dataclass(frozen=True, kw_only=True)
class Applied:
    """A unit's condition after rolled damage, and what each roll did."""

    damage: UnitDamage
    hits: tuple[DamageLine, ...]
    fate: Fate
    head_hits: int = 0  # 'Mek head hits: each one a hit on the MechWarrior (T-DM4)
    notes: tuple[str, ...] = ()


# --- the tables -------------------------------------------------------------------------------


@cache
def _mek_front() -> tuple[RangeRow, ...]:
    return damage_table("mek_front")


@cache
def _vehicle_front() -> tuple[RangeRow, ...]:
    return damage_table("vehicle_front")


@cache
def _critical_chance() -> tuple[RangeRow, ...]:
    return damage_table("critical_chance")


@cache
def _quad_names() -> dict[str, str]:
    return {str(r["biped"]): str(r["quad"]) for r in table_rows("damage", "quad_location")}


@cache
def _transfer() -> dict[str, str]:
    return {
        str(r["source_location"]): str(r["target_location"])
        for r in table_rows("damage", "transfer")
    }


@cache
def _roll_again() -> tuple[str, ...]:
    return tuple(str(r["keyword"]) for r in table_rows("damage", "roll_again"))


@cache
def consciousness_targets() -> dict[int, int]:
    """Hits taken -> the consciousness check's target number (before fatigue)."""
    return {int(r["hits"]): int(r["target"]) for r in table_rows("damage", "consciousness")}


def killed_at() -> int:
    return int(single("damage", "crew_killed")["hits"])


def cluster_size() -> int:
    return int(single("damage", "bombing")["cluster"])


def mek_location(kind: DesignKind, roll: int) -> tuple[str, bool]:
    """The front column's location for a 2d6 roll, and whether it is the through-armour
    critical (a 2: line 199's "floating" critical)."""
    row = lookup(_mek_front(), roll)
    name = str(row.get("location"))
    if kind in QUADS:
        name = _quad_names().get(name, name)
    return name, bool(row.get("through_armor"))


def vehicle_location(roll: int, has_turret: bool) -> str:
    name = str(lookup(_vehicle_front(), roll).get("location"))
    # A "Turret" result on a vehicle without one hits the Front (MegaMek: ignoreTurret).
    return "Front" if name == "Turret" and not has_turret else name


def criticals_for(roll: int) -> int:
    """How many critical slots a 2d6 on the Determining Critical Hits table hits (T-DM2)."""
    return int(lookup(_critical_chance(), roll).get("criticals"))


def supported(design: UnitDesign | None, bombing: bool = False) -> bool:
    """Whether rolled damage can be placed on this design (T-DM5): 'Meks always; a vehicle
    takes a bombing's armour and structure, but its maintenance critical is the referee's."""
    if design is None:
        return False
    return design.kind in (BIPEDS | QUADS | VEHICLES if bombing else BIPEDS | QUADS)


# --- the condition ----------------------------------------------------------------------------


def condition_of(
    unit: CampaignUnit,
    design: UnitDesign,
    recorded: UnitDamage | None,
    loadout: tuple[AmmoBinLoad, ...] | None,
) -> UnitDamage:
    """The unit's stored condition, or, if it never fought, its design as built."""
    if recorded is not None and recorded.locations:
        return recorded
    fresh = merge_condition(
        Entity(chassis=unit.chassis, model=unit.model, movement_mode=""), design
    )
    built = unit_damage(fresh, unit.kind, loadout)
    # A record without locations (read before the design was known) keeps what else it says.
    return built if recorded is None else replace(recorded, locations=built.locations)


def _index(design: UnitDesign, name: str) -> int | None:
    for loc in design.locations:
        if loc.name == name:
            return loc.index
    return None


def _hittable(slot: CritSlot, location: str, damaged: tuple[SlotDamage, ...]) -> bool:
    text = slot.name.lower()
    if slot.is_empty or any(k in text for k in _roll_again()):
        return False
    return not any(
        d.location == location and d.slot == slot.index and (d.destroyed or d.missing)
        for d in damaged
    )


class _Work:
    """One unit's condition while the rolls are laid on it."""

    def __init__(
        self,
        design: UnitDesign,
        damage: UnitDamage,
        dice: Dice,
        what: str,
        loadout: tuple[AmmoBinLoad, ...] = (),
    ) -> None:
        self.design = design
        # The bins as they are now: the last battle's count, else the import load, else the
        # design's full bins (T-X3).
        self.bins = damage.ammo_bins or loadout or _design_bins(design)
        self.bins_changed = False
        self.ammo_used = damage.ammo_used
        self.locations = {loc.name: loc for loc in damage.locations}
        self.order = [loc.name for loc in damage.locations]
        self.damage = damage
        self.slots = damage.damaged_slots
        self.criticals = damage.critical_hits
        self.dice = dice
        self.what = what
        self.rolls: list[Roll] = []
        self.hits: list[DamageLine] = []
        self.notes: list[str] = []
        self.head_hits = 0

    def roll(self, name: str, count: int) -> Roll:
        r, self.dice = self.dice.roll(f"{self.what} {name}", count)
        self.rolls.append(r)
        return r

    def gone(self, name: str) -> bool:
        loc = self.locations.get(name)
        return loc is None or loc.internal_gone

    def standing(self, name: str) -> str | None:
        """The location a hit on ``name`` lands in: itself, or inward past lost locations."""
        seen: set[str] = set()
        while name in self.locations and self.gone(name):
            if name in seen or name not in _transfer():
                return None
            seen.add(name)
            name = _transfer()[name]
        return name if name in self.locations else None

    def critical(self, location: str) -> None:
        """One critical hit in ``location``: roll its slot (T-DM3)."""
        index = _index(self.design, location)
        slots = self.design.crit_slots.get(index, ()) if index is not None else ()
        if not any(_hittable(s, location, self.slots) for s in slots):
            self.hits.append(DamageLine(location=location, note="no slot left to hit"))
            return
        by_index = {s.index: s for s in slots}
        block = int(single("damage", "slot_roll")["block_slots"])
        for _ in range(MAX_SLOT_ROLLS):
            if len(slots) > block:
                half = self.roll(f"critical slot half, {location}", 1).total
                at = (0 if half <= 3 else block) + self.roll(f"critical slot, {location}", 1).total
            else:
                at = self.roll(f"critical slot, {location}", 1).total
            slot = by_index.get(at)
            if slot is not None and _hittable(slot, location, self.slots):
                break
        else:  # pragma: no cover - needs ~100 roll-agains in a row
            self.notes.append(f"{location}: no slot found in {MAX_SLOT_ROLLS} rolls")
            return
        system = None if slot.system is None else slot.system.value
        self._empty_bin(location, slot)
        self.slots = (
            *self.slots,
            SlotDamage(
                location=location,
                slot=slot.index,
                item="System" if slot.system is not None else slot.name,
                system=system,
                hit=True,
                destroyed=True,
            ),
        )
        self.criticals += 1
        self.hits.append(
            DamageLine(location=location, slot=slot.index, item=slot.name, system=system)
        )

    def _empty_bin(self, location: str, slot: CritSlot) -> None:
        """T-DM3: a hit ammunition bin does not explode (nothing fires into it); its
        ammunition is lost: the bin goes out empty and hit, and re-arming bills it."""
        for n, b in enumerate(self.bins):
            if b.location != location or b.slot != slot.index:
                continue
            if b.shots > 0:
                full = _full_shots(self.design, location, slot.index) or b.shots
                tons = Fraction(b.shots, max(full, b.shots)) * bin_tons(b.ammo_type)
                self.ammo_used = _add_ammo(self.ammo_used, b.ammo_type, tons)
            self.bins = (*self.bins[:n], replace(b, shots=0), *self.bins[n + 1 :])
            self.bins_changed = True
            return
        index = _index(self.design, location)
        if any(b.location == index and b.slot == slot.index for b in self.design.ammo_bins):
            # No record counts this bin's shots (never fought, no import load): it was full.
            self.ammo_used = _add_ammo(self.ammo_used, slot.name, bin_tons(slot.name))
            empty = AmmoBinLoad(location=location, slot=slot.index, ammo_type=slot.name, shots=0)
            self.bins = (*self.bins, empty)
            self.bins_changed = True

    def chance(self, location: str) -> None:
        """A roll on the Determining Critical Hits table for ``location``."""
        for _ in range(criticals_for(self.roll(f"critical chance, {location}", 2).total)):
            if self.gone(location):
                break
            self.critical(location)

    def points(self, location: str, points: int, mek: bool) -> None:
        """``points`` of damage in ``location``: armour, then structure, then inward ('Meks)."""
        while points > 0:
            where = self.standing(location) if mek else location
            if where is None or where not in self.locations or self.gone(where):
                self.notes.append(f"{points} point(s) lost: no location left to take them")
                return
            loc = self.locations[where]
            armor = min(points, loc.armor_now)
            internal = min(points - armor, loc.internal_now)
            points -= armor + internal
            self.locations[where] = replace(
                loc, armor_now=loc.armor_now - armor, internal_now=loc.internal_now - internal
            )
            self.hits.append(DamageLine(location=where, armor=armor, internal=internal))
            if where == "Head" and mek:
                self.head_hits += 1
            if mek and internal and not self.gone(where):
                self.chance(where)  # structure damaged: a critical chance (T-DM3)
            if not (points and self.gone(where)):
                return
            inward = _transfer().get(where) if mek else None
            if inward is None:
                self.notes.append(f"{points} point(s) past the lost {where} go nowhere")
                return
            location = inward

    def result(self, unit: CampaignUnit, fate: Fate) -> Applied:
        damage = replace(
            self.damage,
            locations=tuple(self.locations[n] for n in self.order),
            critical_hits=self.criticals,
            damaged_slots=self.slots,
            ammo_used=self.ammo_used,
            ammo_bins=self.bins if self.bins_changed else self.damage.ammo_bins,
        )
        return Applied(
            damage=damage,
            hits=tuple(self.hits),
            fate=fate_after(unit, damage, fate),
            head_hits=self.head_hits,
            notes=tuple(self.notes),
        )


def _design_bins(design: UnitDesign) -> tuple[AmmoBinLoad, ...]:
    names = {loc.index: loc.name for loc in design.locations}
    return tuple(
        AmmoBinLoad(
            location=names.get(b.location, b.location_name),
            slot=b.slot,
            ammo_type=b.ammo_type,
            shots=b.shots or 0,
        )
        for b in design.ammo_bins
        if b.shots
    )


def _full_shots(design: UnitDesign, location: str, slot: int) -> int | None:
    names = {loc.index: loc.name for loc in design.locations}
    for b in design.ammo_bins:
        if names.get(b.location, b.location_name) == location and b.slot == slot:
            return b.shots
    return None


def _add_ammo(used: tuple[AmmoUse, ...], ammo_type: str, tons: Fraction) -> tuple[AmmoUse, ...]:
    out = {u.ammo_type: u for u in used}
    old = out.get(ammo_type)
    out[ammo_type] = (
        AmmoUse(ammo_type=ammo_type, tons=tons)
        if old is None
        else replace(old, tons=old.tons + tons)
    )
    return tuple(v for _, v in sorted(out.items()))


def fate_after(unit: CampaignUnit, damage: UnitDamage, before: Fate) -> Fate:
    """The unit's fate once rolled damage is on it (T-DM1): a wreck by the glossary, else
    damaged if it was operational."""
    state = damage_state(subject_for(unit, damage))
    if state is DamageState.UTTERLY_DESTROYED:
        return Fate.UTTERLY_DESTROYED
    if state is DamageState.TRULY_DESTROYED:
        return Fate.TRULY_DESTROYED
    if any(loc.name == "Head" and loc.internal_gone for loc in damage.locations):
        return Fate.DESTROYED_REPAIRABLE
    if before is Fate.OPERATIONAL and state is not DamageState.UNDAMAGED:
        return Fate.DAMAGED
    return before


# --- the three rules --------------------------------------------------------------------------


def maintenance(
    unit: CampaignUnit,
    design: UnitDesign,
    damage: UnitDamage,
    fate: Fate,
    location_roll: int,
    critical_rolls: tuple[int, ...],
    dice: Dice,
    loadout: tuple[AmmoBinLoad, ...] = (),
) -> tuple[Applied, tuple[Roll, ...], Dice]:
    """Line 199: the front location rolled, then each critical roll (two on a location roll of
    2) read on the Determining Critical Hits table; each critical hit rolls its slot. A 'Mek
    only (T-DM5)."""
    work = _Work(design, damage, dice, f"maintenance, {unit.unit_id}:", loadout)
    name, _ = mek_location(design.kind, location_roll)
    where = work.standing(name)
    if where is None:
        work.notes.append(f"{name}: no location left to take the critical")
    else:
        for roll in critical_rolls:
            n = criticals_for(roll)
            if n == 0:
                work.hits.append(DamageLine(location=where, note=f"critical roll {roll}: none"))
            for _ in range(n):
                if work.gone(where):
                    break
                work.critical(where)
    return work.result(unit, fate), tuple(work.rolls), work.dice


def bombing(
    unit: CampaignUnit,
    design: UnitDesign,
    damage: UnitDamage,
    fate: Fate,
    points: int,
    dice: Dice,
    loadout: tuple[AmmoBinLoad, ...] = (),
) -> tuple[Applied, tuple[Roll, ...], Dice]:
    """Line 401: ``points`` of bombing damage in 5-point groups, each on the front hit
    location table; a 'Mek's structure damage (and a location roll of 2) rolls for criticals
    (T-DM3)."""
    mek = design.kind in BIPEDS | QUADS
    work = _Work(design, damage, dice, f"sabotage, {unit.unit_id}:", loadout)
    size = cluster_size()
    has_turret = any(loc.name == "Turret" for loc in damage.locations)
    left = points
    while left > 0:
        group = min(size, left)
        left -= group
        roll = work.roll("bombing location (front)", 2).total
        if mek:
            name, through = mek_location(design.kind, roll)
            work.points(name, group, mek=True)
            where = work.standing(name)
            if through and where is not None:
                work.chance(where)
        else:
            work.points(vehicle_location(roll, has_turret), group, mek=False)
    return work.result(unit, fate), tuple(work.rolls), work.dice


def consciousness_target(hits: int, fatigue: int) -> int:
    """Line 355: the check "modified by fatigue" (T-DM4): the table's number for the hits
    taken, plus the formation's fatigue."""
    table = consciousness_targets()
    return table[min(hits, max(table))] + fatigue


def describe(line: DamageLine) -> str:
    """One roll's result in words, for the resolve summary and the report."""
    if line.slot is not None:
        what = line.system.replace("_", " ") if line.system else line.item
        return f"{line.location} slot {line.slot} ({what}) critical hit"
    if line.armor or line.internal:
        return f"{line.location} -{line.armor} armour, -{line.internal} structure"
    return f"{line.location}: {line.note}" if line.note else line.location
