"""Rolled damage laid on a unit's stored condition: the maintenance critical (line 199), the
Despised bombing (line 401) and the consciousness check beyond the rations (line 355).

Pure: a unit's condition (the battle ledger's :class:`UnitDamage`, or the design's as built when
it never fought), its design and the dice go in; the new condition, what each roll did and the
dice come out. The tables are ``tables/damage.toml`` (Total Warfare's rows, the TripWire line
that sends us there). Rulings T-DM1 to T-DM5 in docs/turn.md.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity
from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire.battle_damage import unit_damage
from mekref.rules.tripwire.battle_model import AmmoBinLoad, Fate, UnitDamage
from mekref.rules.tripwire.house_seam import PreBattleDamage
from mekref.rules.tripwire.state import CampaignUnit
from mekref.rules.tripwire.turn.damage_tables import (
    BIPEDS,
    QUADS,
    cluster_size,
    consciousness_targets,
    criticals_for,
    mek_location,
    vehicle_location,
)
from mekref.rules.tripwire.turn.damage_work import (
    Applied,
    DamageWork,
    apply_effect,
    design_bins,
    uncounted_bins,
)
from mekref.rules.tripwire.turn.events import DamageLine

# --- the tables -------------------------------------------------------------------------------


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
    work = DamageWork(design, damage, dice, f"maintenance, {unit.unit_id}:", loadout)
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
    work = DamageWork(design, damage, dice, f"sabotage, {unit.unit_id}:", loadout)
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


def maintenance_check(
    unit: CampaignUnit,
    design: UnitDesign,
    damage: UnitDamage,
    fate: Fate,
    location_roll: int,
    points: int,
    destroyed: bool,
    dice: Dice,
    loadout: tuple[AmmoBinLoad, ...] = (),
) -> tuple[Applied, tuple[Roll, ...], Dice]:
    """The house rules' maintenance check damage (their line 94, ruling HOUSE-42): the part
    is found by a front location roll, as line 199 finds the neglected one. Its points are
    armour, then structure (structure damage rolls for criticals, T-DM3); a destroyed part (4
    points) is one critical hit on that location, its slot rolled (T-DM3), and no armour. A
    vehicle's destroyed part is the referee's (T-DM5)."""
    mek = design.kind in BIPEDS | QUADS
    work = DamageWork(design, damage, dice, f"maintenance check, {unit.unit_id}:", loadout)
    if mek:
        name, _ = mek_location(design.kind, location_roll)
    else:
        name = vehicle_location(location_roll, any(n == "Turret" for n in work.locations))
    if not destroyed:
        work.points(name, points, mek=mek)
    elif not mek:
        work.notes.append(
            f"{name}: a part destroyed (4 points, HOUSE-42): no table places a vehicle's "
            "critical hit (T-DM5); the referee applies it"
        )
    else:
        where = work.standing(name)
        if where is None:
            work.notes.append(f"{name}: no location left to take the destroyed part")
        else:
            work.critical(where)
    return work.result(unit, fate), tuple(work.rolls), work.dice


def bins_now(
    design: UnitDesign, damage: UnitDamage, loadout: tuple[AmmoBinLoad, ...] = ()
) -> tuple[AmmoBinLoad, ...]:
    """The unit's ammunition bins as they are now (the ones rolled damage works on, T-X3)."""
    return damage.ammo_bins or loadout or design_bins(design)


def ammo_types(design: UnitDesign, bins: tuple[AmmoBinLoad, ...]) -> tuple[str, ...]:
    """The ammunition the unit carries: counted bins with shots left, and uncounted ones."""
    names = {b.ammo_type for b in bins if b.shots > 0}
    return tuple(sorted(names | {s.name for _, s in uncounted_bins(design, bins)}))


def pre_battle(
    unit: CampaignUnit,
    design: UnitDesign,
    damage: UnitDamage,
    fate: Fate,
    rolled: PreBattleDamage,
    dice: Dice,
    loadout: tuple[AmmoBinLoad, ...] = (),
) -> tuple[Applied, tuple[Roll, ...], Dice]:
    """The house rules' random pre-battle damage (their lines 134-152, rolled by
    :func:`~mekref.rules.house_rules.random_damage.roll_pre_battle_damage`) laid on the stored
    condition as the other rolled damage is (HOUSE-31): each hit as armour then structure,
    front and rear armour being one figure here (HOUSE-32); structure damage rolls for
    criticals (T-DM3). The effects mark the slot they name (HOUSE-33); what the condition
    cannot hold (a weapon's +2 heat, a heat sink without a slot) is a note for the referee."""
    mek = design.kind in BIPEDS | QUADS
    work = DamageWork(design, damage, dice, f"pre-battle damage, {unit.unit_id}:", loadout)
    for hit in rolled.damage:
        name = hit.location
        if not mek and name == "Turret" and name not in work.locations:
            name = "Front"  # no turret: the hit stays on the Front (MegaMek ``ignoreTurret``)
        work.points(name, hit.points, mek=mek, rear=hit.rear)
    for effect in rolled.effects:
        apply_effect(work, effect)
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
