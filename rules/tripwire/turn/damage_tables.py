"""The damage tables rolled damage reads (``tables/damage.toml``: Total Warfare's hit location,
critical chance and consciousness rows), and the few facts of a design they are read against.
Pure lookups; :mod:`.rolled_damage` lays the rolls on a unit's condition."""

from __future__ import annotations

from functools import cache

from mekref.adapters.megamek.design import CritSlot, UnitDesign
from mekref.adapters.megamek.unit_kinds import UnitKind as DesignKind
from mekref.rules.tripwire.battle_model import SlotDamage
from mekref.rules.tripwire.turn.data import RangeRow, damage_table, lookup, single, table_rows

#: 'Meks that read the biped front column as it is, and those that read it as legs.
BIPEDS = frozenset({DesignKind.BIPED_MEK, DesignKind.LAM, DesignKind.TRIPOD_MEK})


QUADS = frozenset({DesignKind.QUAD_MEK, DesignKind.QUADVEE})


VEHICLES = frozenset({DesignKind.TANK, DesignKind.SUPPORT_TANK})


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
def transfer_table() -> dict[str, str]:
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


def slot_index(design: UnitDesign, name: str) -> int | None:
    for loc in design.locations:
        if loc.name == name:
            return loc.index
    return None


def hittable(slot: CritSlot, location: str, damaged: tuple[SlotDamage, ...]) -> bool:
    text = slot.name.lower()
    if slot.is_empty or any(k in text for k in _roll_again()):
        return False
    return not any(
        d.location == location and d.slot == slot.index and (d.destroyed or d.missing)
        for d in damaged
    )
