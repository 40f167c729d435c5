"""A unit's condition in a key=value MegaMek scenario, by the entity class MegaMek builds.

``ScenarioV1.applyDamage`` (MegaMek/megamek, ``megamek/src/megamek/common/scenario/
ScenarioV1.java``, the 2024 and the 2025 loader alike) treats units differently by class:

- 'Meks and ProtoMeks: a critical hit is ``location:slot`` (slot from 1), the slot itself.
- Tanks: a critical hit's "slot" *n* (1-6) becomes ``CriticalSlot(TYPE_SYSTEM, n)``, i.e. the
  vehicle critical *type* ``Tank.CRIT_*`` n (1 weapon jam, 2 weapon destroyed, 3 stabiliser,
  4 sensor, 5 commander, 6 crew killed), applied at location ``Entity.NONE``. So a hit weapon
  slot cannot be written (MegaMek would jam or destroy a weapon of its own choosing), nor a
  stabiliser (it belongs to a location, the loader passes none), a driver (type 0) or engine
  (type 9) hit. What can be: sensor hits and a commander hit.
- Battle armour: a ``DamageSpecific`` armour value above 0 is set one *lower* than written
  (``setArmor(setArmorTo - 1)``), so mekref writes one more.
- Ammunition counts go to 'Meks only (``instanceof Mek``).

Motive damage, turret locks, aero structural integrity and aero criticals have no v1 key: they
come back as gaps (the file's notes and the export's warnings). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from mekref.adapters.megamek.mul_model import ARMOR_DESTROYED, ARMOR_NA, Entity

MEK, PROTOMEK, TANK, BATTLE_ARMOR, INFANTRY, AERO, OTHER = (
    "mek", "protomek", "tank", "battle_armor", "infantry", "aero", "other",
)  # fmt: skip
UNIT_CLASSES = frozenset({MEK, PROTOMEK, TANK, BATTLE_ARMOR, INFANTRY, AERO, OTHER})
#: Movement modes of 'Meks in a MUL: the class when none is given.
MEK_MODES = frozenset({"Biped", "Quad", "Tripod", "LAM"})
#: ``Tank.CRIT_SENSOR`` and ``Tank.CRIT_COMMANDER``: the vehicle criticals v1 can carry.
TANK_CRIT_SENSOR, TANK_CRIT_COMMANDER = 4, 5


@dataclass(frozen=True, kw_only=True)
class UnitCondition:
    damage: tuple[str, ...]  # DamageSpecific entries
    crits: tuple[str, ...]  # CritHit / CriticalHit entries
    ammo: tuple[str, ...]  # SetAmmoTo entries
    gaps: tuple[str, ...]  # what the file cannot carry, in words


def class_of(e: Entity, unit_class: str | None) -> str:
    if unit_class is not None:
        return unit_class
    return MEK if e.movement_mode in MEK_MODES else OTHER


def _points(value: int) -> int | None:
    if value == ARMOR_NA:
        return None
    return 0 if value <= ARMOR_DESTROYED + 1 else value


def _damage(e: Entity, kind: str) -> list[str]:
    out: list[str] = []
    for loc in e.locations:
        for prefix, value in (("N", loc.armor), ("R", loc.rear)):
            if value is not None and (points := _points(value)) is not None:
                if kind == BATTLE_ARMOR and prefix == "N" and points > 0:
                    points += 1  # the loader sets one below what is written
                out.append(f"{prefix}{loc.index}:{points}")
        internal = 0 if loc.destroyed else loc.internal
        if internal is not None and (points := _points(internal)) is not None:
            out.append(f"I{loc.index}:{points}")
    return out


def _slot_conditions(e: Entity, kind: str) -> tuple[list[str], list[str], list[str]]:
    crits: list[str] = []
    ammo: list[str] = []
    gaps: list[str] = []
    slotted = kind in (MEK, PROTOMEK)
    for loc in e.locations:
        if loc.destroyed:
            continue  # a destroyed location's slots go with it
        where = loc.name or str(loc.index)
        if loc.stabilizer_hit:
            gaps.append(f"stabiliser hit in {where} not carried (no scenario key)")
        for slot in loc.slots:
            hit = (slot.is_hit or bool(slot.is_destroyed)) and not slot.is_missing
            if slot.index is None:
                if slot.shots is not None or slot.is_hit:
                    gaps.append(f"{slot.type} in {where}: no slot")
                continue
            if slot.shots is not None:
                if kind == MEK:
                    ammo.append(f"{loc.index}:{slot.index}-{slot.shots}")
                else:
                    gaps.append(
                        f"{slot.type} shots ({slot.shots}) not carried "
                        "(MegaMek sets ammunition of 'Meks only)"
                    )
                if hit:
                    gaps.append(
                        f"hit ammunition slot {loc.index}:{slot.index} carried as its shots "
                        "only (a critical hit would explode it again)"
                    )
            elif hit and slotted:
                crits.append(f"{loc.index}:{slot.index}")
            elif hit:
                gaps.append(
                    f"hit {slot.type} in {where} not carried (MegaMek's loader reads a "
                    "vehicle's critical as a critical type and would pick the weapon itself)"
                )
    return crits, ammo, gaps


def _tank_crits(e: Entity) -> tuple[list[str], list[str]]:
    crits: list[str] = []
    gaps: list[str] = []
    for name, value in e.tank_crits:
        if name == "sensors" and value.isdigit():
            crits += [f"0:{TANK_CRIT_SENSOR}"] * int(value)
        elif name == "commander" and value == "hit":
            crits.append(f"0:{TANK_CRIT_COMMANDER}")
        else:
            gaps.append(f"vehicle critical {name}={value} not carried (no scenario critical type)")
    return crits, gaps


def _other_gaps(e: Entity) -> list[str]:
    gaps: list[str] = []
    if e.motive_damage or e.motive_penalty:
        gaps.append(
            f"motive damage {e.motive_damage or 0} (penalty {e.motive_penalty or 0}) not carried "
            "(no scenario key): set it in MegaMek's unit dialog"
        )
    if e.turret_lock is not None:
        gaps.append("turret lock not carried (no scenario key)")
    if e.structural_integrity is not None:
        gaps.append(f"structural integrity {e.structural_integrity} not carried (no scenario key)")
    for group in (e.aero_crits, e.dropship_crits):
        gaps += [f"aero critical {n}={v} not carried (no scenario key)" for n, v in group]
    return gaps


def unit_condition(e: Entity, unit_class: str | None = None) -> UnitCondition:
    """The unit's damage, criticals and ammunition as v1 keys take them, and the gaps."""
    kind = class_of(e, unit_class)
    crits, ammo, gaps = _slot_conditions(e, kind)
    if kind == TANK:
        typed, lost = _tank_crits(e)
        crits += typed
        gaps += lost
    elif e.tank_crits:
        gaps += [f"vehicle critical {n}={v} not carried" for n, v in e.tank_crits]
    gaps += _other_gaps(e)
    if kind == BATTLE_ARMOR:
        gaps.append(
            "battle armour: each trooper's armour is written one higher, since MegaMek's loader "
            "sets one below the value; a trooper one point below full stays at full"
        )
    return UnitCondition(
        damage=tuple(_damage(e, kind)), crits=tuple(crits), ammo=tuple(ammo), gaps=tuple(gaps)
    )
