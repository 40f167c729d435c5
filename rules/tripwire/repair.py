"""Repair, rearm, sell and scrap prices from the Support Point cost table.

Input is a :class:`RepairSubject`: the absolute condition of one unit, which the MegaMek adapter
fills from a battle record merged with the unit design. Output is a :class:`RepairBill` in whole
Support Points.

Ruling R-COST-1: the table prices the *entire* armor or internal structure; a partial repair
costs the same share of that price as the share of points lost (armor points lost over the
unit's total armor points). Ruling R-COST-2: each bill component is computed exactly (fractions)
and rounded up to a whole SP at the end; values paid *to* a player (sale, scrap) round down.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import field
from enum import StrEnum
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire.model import TechBase, UnitKind
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


class AmmoTier(StrEnum):
    INTRODUCTORY = "introductory"
    STANDARD = "standard"
    ADVANCED = "advanced"


class DamageState(StrEnum):
    """The damage states the scrap row distinguishes, plus undamaged."""

    UNDAMAGED = "undamaged"
    ARMOR_ONLY = "armor_damage_only"
    INTERNAL = "internal_damage"
    TRULY_DESTROYED = "truly_destroyed"
    UTTERLY_DESTROYED = "utterly_destroyed"


@record
class LocationDamage(Record):
    """One location's armor and internal structure (or a fighter's/DropShip's SI), max and now."""

    name: str
    armor_max: int
    armor_now: int
    internal_max: int
    internal_now: int
    is_center_torso: bool = False
    # The file says the location is destroyed (or a vehicle location's internal structure is
    # 0) though its maximum is unknown (no design): the glossary's "internal structure 0" holds
    # even when nothing can be priced. Left out of the JSON when False (older events).
    destroyed: bool = field(default=False, metadata=OMIT_IF_DEFAULT)
    # How ``armor_max``/``armor_now`` (front and rear together) split: the rear's share, when
    # the file said it (ruling T-X2). None: not known (older events, a unit without rear
    # armour); the writers then take the loss from the front first. Left out when None.
    rear_max: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    rear_now: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)

    def __post_init__(self) -> None:
        if not (0 <= self.armor_now <= self.armor_max and self.internal_now >= 0):
            raise ValueError(f"location {self.name}: armor/internal out of range")
        if self.internal_now > self.internal_max:
            raise ValueError(f"location {self.name}: internal above its maximum")
        if (self.rear_max is None) != (self.rear_now is None):
            raise ValueError(f"location {self.name}: rear armour needs both its figures")
        if self.rear_max is not None and self.rear_now is not None:
            front_now, front_max = self.armor_now - self.rear_now, self.armor_max - self.rear_max
            if not (0 <= self.rear_now <= self.rear_max and 0 <= front_now <= front_max):
                raise ValueError(f"location {self.name}: rear armour disagrees with the total")

    @property
    def armor_lost(self) -> int:
        return self.armor_max - self.armor_now

    @property
    def internal_lost(self) -> int:
        return self.internal_max - self.internal_now

    @property
    def internal_gone(self) -> bool:
        return self.destroyed or (self.internal_max > 0 and self.internal_now == 0)


@record
class AmmoUse(Record):
    """Tons of one ammunition type to replace (shots fired / shots per ton, exact)."""

    ammo_type: str
    tons: Fraction
    tier: AmmoTier | None = None  # None: classify from ammo_type with ammo_tier()


@record
class RepairSubject(Record):
    """What the rules need to price keeping one unit: the adapter's unit condition, reduced.

    The adapter maps its unit condition onto this: one :class:`LocationDamage` per location
    (armor and internal structure, max and now; a destroyed or blown-off location has both at 0;
    the 'Mech center torso flagged ``is_center_torso``; a fighter or DropShip gives its SI as a
    location with ``internal_max``), the count of critical hits to repair, the tons of each
    ammunition type to replace, and for infantry the troopers left.
    """

    unit_id: str
    kind: UnitKind
    tonnage: Fraction  # battle armor: tons per suit
    tech_base: TechBase = TechBase.INNER_SPHERE
    locations: tuple[LocationDamage, ...] = ()
    critical_hits: int = 0  # engine, gyro, cockpit, sensor, actuator, weapon... to repair
    ammo_used: tuple[AmmoUse, ...] = ()
    suits: int = 0  # battle armor squad size
    suits_damaged: int = 0  # battle armor suits alive but damaged
    troopers_alive: int | None = None  # infantry and battle armor: None when not applicable
    landing_gear_damaged: bool = False  # DropShips


@record
class RepairBill(Record):
    unit_id: str
    state: DamageState
    repairable: bool
    armor_sp: int  # armor restorable now
    armor_deferred_sp: int  # armor on locations with internal damage: after the internal repair
    internal_sp: int
    landing_gear_sp: int
    rearm_sp: int
    tech_hours: int
    needs_repair_facility: bool
    blocked_locations: tuple[str, ...]
    rules: tuple[SourceRef, ...]

    @property
    def total_sp(self) -> int:
        return (
            self.armor_sp
            + self.armor_deferred_sp
            + self.internal_sp
            + self.landing_gear_sp
            + self.rearm_sp
        )


def cost_sp(exact: Fraction) -> int:
    """A price the player pays: whole SP, rounded up (R-COST-2)."""
    return math.ceil(exact)


def gain_wp(exact: Fraction) -> int:
    """A value the player receives: whole WP, rounded down (R-COST-2)."""
    return math.floor(exact)


def tech_multiplier(tech_base: TechBase, tables: TripWireTables | None = None) -> Fraction:
    return (tables or load_tables()).cost(f"tech_base.{tech_base.value}").factor


_NORMALISE = re.compile(r"[^a-z0-9]")


#: Battle armour ammunition is named for its launcher with a "BA" prefix (MegaMek's
#: "BA-SRM2 Ammo", "BA Ammo LRM-5"); the launcher family decides the tier (L85 lists SRM).
_BATTLE_ARMOR_PREFIX = re.compile(r"^\s*(?:clan\s*|cl\s*|is\s*)?ba[-\s]+", re.IGNORECASE)
#: MegaMek's half-ton bins: "IS Machine Gun Ammo - Half", "ISMG Ammo Half",
#: "IS Machine Gun Ammo (1/2 ton)".
_HALF_TON = re.compile(r"\bhalf\b|1/2\s*ton", re.IGNORECASE)


def bin_tons(ammo_type: str) -> Fraction:
    """How many tons one full bin of this ammunition weighs (re-arming is priced per ton,
    L85-L87): half a ton for MegaMek's half-ton bins, else one (ruling R-AMMO-2)."""
    return Fraction(1, 2) if _HALF_TON.search(ammo_type) else Fraction(1)


def normalised_ammo_name(name: str) -> str:
    name = _BATTLE_ARMOR_PREFIX.sub("", name)
    text = _NORMALISE.sub("", name.lower())
    for word in ("ammo", "full", "half"):
        text = text.replace(word, "")
    for prefix in ("clan", "cl", "is"):
        if text.startswith(prefix):
            text = text[len(prefix) :]
            break
    return text


@functools.lru_cache(maxsize=1024)
def _ammo_names(ammo_type: str) -> tuple[str, str]:
    """The normalised name and its base (digits left out): asked for every bin of every
    unit a battle resolves, of the few names a campaign's ammunition has."""
    text = normalised_ammo_name(ammo_type)
    return text, re.sub(r"[0-9]", "", text)


def ammo_tier(ammo_type: str, tables: TripWireTables | None = None) -> AmmoTier:
    """The re-arm price tier of an ammunition type name (see ammo_tiers.toml for the order)."""
    t = tables or load_tables()
    text, base = _ammo_names(ammo_type)
    for row in t.ammo_tiers:
        if row.match == "substring" and any(k in text for k in row.keywords):
            return AmmoTier(row.name)
        if row.match == "base" and base in row.keywords:
            return AmmoTier(row.name)
    return AmmoTier.ADVANCED


def damage_state(subject: RepairSubject) -> DamageState:
    locs = subject.locations
    internal_locs = [loc for loc in locs if loc.internal_max > 0]
    if internal_locs and all(loc.internal_gone for loc in internal_locs):
        return DamageState.UTTERLY_DESTROYED
    if subject.kind.is_infantry and subject.troopers_alive == 0:
        return DamageState.TRULY_DESTROYED
    if subject.kind is UnitKind.MEK and any(
        loc.is_center_torso and loc.internal_gone for loc in locs
    ):
        return DamageState.TRULY_DESTROYED
    if subject.kind.is_vehicle and any(loc.internal_gone for loc in locs):
        return DamageState.TRULY_DESTROYED
    if (
        any(loc.internal_lost for loc in locs)
        or subject.critical_hits > 0
        or subject.landing_gear_damaged
    ):
        return DamageState.INTERNAL
    if any(loc.armor_lost for loc in locs) or subject.suits_damaged > 0:
        return DamageState.ARMOR_ONLY
    return DamageState.UNDAMAGED


def _armor_key(kind: UnitKind) -> str | None:
    if kind is UnitKind.MEK:
        return "repair.mek"
    if kind.is_vehicle:
        return "repair.vehicle"
    if kind is UnitKind.AEROSPACE_FIGHTER:
        return "repair.aerospace_fighter"
    if kind is UnitKind.DROPSHIP:
        return "repair.dropship"
    return None


def rearm_per_ton(
    ammo_type: str, tier: AmmoTier | None = None, tables: TripWireTables | None = None
) -> Fraction:
    """The price of one ton of ``ammo_type`` (L85-87) by its tier (``tier`` when the battle
    recorded one); no tech base multiplier (the re-arm rows carry no '#')."""
    t = tables or load_tables()
    return t.cost(f"rearm.{(tier or ammo_tier(ammo_type, t)).value}").factor


def rearm_sp(subject: RepairSubject, tables: TripWireTables | None = None) -> int:
    """Per ton by tier, the whole bill rounded up once."""
    t = tables or load_tables()
    exact = Fraction(0)
    for use in subject.ammo_used:
        if use.tons < 0:
            raise ValueError("ammunition tons used cannot be negative")
        exact += use.tons * rearm_per_ton(use.ammo_type, use.tier, t)
    return cost_sp(exact)


def _irreparable(
    subject: RepairSubject, state: DamageState, rules: list[SourceRef], t: TripWireTables
) -> RepairBill:
    """The bill of a truly or utterly destroyed unit: nothing to repair, and the rule why."""
    # Footnote **, and the glossary: truly destroyed units cannot be repaired; an utterly
    # destroyed one cannot even be scrapped (ruling R-REPAIR-1 extends ** to every truly
    # destroyed unit, as the glossary's "All other damage ... can be repaired" implies).
    if subject.kind is UnitKind.MEK:
        rules.append(t.footnotes["mek_center_torso_zero_irreparable"])
    else:
        rules.append(t.footnotes["truly_destroyed_other"])
    return RepairBill(
        unit_id=subject.unit_id,
        state=state,
        repairable=False,
        armor_sp=0,
        armor_deferred_sp=0,
        internal_sp=0,
        landing_gear_sp=0,
        rearm_sp=0,
        tech_hours=0,
        needs_repair_facility=False,
        blocked_locations=(),
        rules=tuple(rules),
    )


def _armor_points(subject: RepairSubject, footnote: bool, blocked: list[str]) -> tuple[int, int]:
    """The armor points lost that can be repaired now, and those that wait for the internal
    structure under them (footnote *: their locations are added to ``blocked``). Summed, then
    priced once: the same exact fractions as pricing each location."""
    now = later = 0
    for loc in subject.locations:
        if footnote and loc.internal_lost and loc.armor_lost:
            later += loc.armor_lost
            blocked.append(loc.name)
        else:
            now += loc.armor_lost
    return now, later


def repair_bill(subject: RepairSubject, tables: TripWireTables | None = None) -> RepairBill:
    t = tables or load_tables()
    state = damage_state(subject)
    rules: list[SourceRef] = []
    mult = tech_multiplier(subject.tech_base, t)
    if subject.tech_base is not TechBase.INNER_SPHERE:
        rules.append(t.footnotes["tech_base_multiplier_scope"])

    if state in (DamageState.TRULY_DESTROYED, DamageState.UTTERLY_DESTROYED):
        return _irreparable(subject, state, rules, t)

    armor_now = Fraction(0)
    armor_later = Fraction(0)
    internal = Fraction(0)
    gear = Fraction(0)
    blocked: list[str] = []
    hours = 0
    internal_task = False  # needs a repair facility or a DropShip bay (line 66)

    if subject.kind is UnitKind.BATTLE_ARMOR:
        row = t.cost("repair.battle_armor")
        armor_now = subject.suits_damaged * subject.tonnage * row.factor * mult
        rules.append(row.ref)
        if subject.suits_damaged:
            hours += t.tasks["repair_armor"].hours
    elif (prefix := _armor_key(subject.kind)) is not None:
        armor_row = t.cost(f"{prefix}.armor")
        internal_row = t.cost(f"{prefix}.internal")
        total_armor = sum(loc.armor_max for loc in subject.locations)
        total_internal = sum(loc.internal_max for loc in subject.locations)
        # Footnote * sits on the 'Mech and vehicle armor rows only.
        armor_footnote = subject.kind is UnitKind.MEK or subject.kind.is_vehicle
        if total_armor:
            rate = subject.tonnage * armor_row.factor * mult / total_armor
            now_points, later_points = _armor_points(subject, armor_footnote, blocked)
            armor_now, armor_later = now_points * rate, later_points * rate
            if armor_now or armor_later:
                rules.append(armor_row.ref)
                hours += t.tasks["repair_armor"].hours
        if blocked:
            rules.append(t.footnotes["armor_only_without_internal_damage"])
        lost_internal = sum(loc.internal_lost for loc in subject.locations)
        if total_internal and lost_internal:
            internal = subject.tonnage * internal_row.factor * mult * lost_internal
            internal /= total_internal
            rules.append(internal_row.ref)
        if subject.landing_gear_damaged and subject.kind is UnitKind.DROPSHIP:
            gear_row = t.cost("repair.dropship.landing_gear")
            gear = subject.tonnage * gear_row.factor
            rules.append(gear_row.ref)
        if lost_internal or subject.critical_hits or subject.landing_gear_damaged:
            # Ruling R-REPAIR-2: critical hits are repaired with the internal structure task
            # ("Repair Internal Structure/Criticals"), at no SP of their own.
            internal_task = True
            hours += t.tasks["repair_internal"].hours
            rules.append(t.footnotes["internal_needs_repair_facility"])

    rearm = rearm_sp(subject, t)
    if subject.ammo_used and rearm:
        hours += t.tasks["reload"].hours

    return RepairBill(
        unit_id=subject.unit_id,
        state=state,
        repairable=True,
        armor_sp=cost_sp(armor_now),
        armor_deferred_sp=cost_sp(armor_later),
        internal_sp=cost_sp(internal),
        landing_gear_sp=cost_sp(gear),
        rearm_sp=rearm,
        tech_hours=hours,
        needs_repair_facility=internal_task,
        blocked_locations=tuple(blocked),
        rules=tuple(rules),
    )


def technician_days(hours: int, technicians: int = 1, tables: TripWireTables | None = None) -> int:
    """Whole days for ``technicians`` to work ``hours`` at 6 hours a day each (line 64)."""
    if technicians < 1:
        raise Refusal("no_technician", "repairs need a technician present in the hex")
    per_day = (tables or load_tables()).technician_hours_per_day * technicians
    return math.ceil(Fraction(hours, per_day))


def sell_value(subject: RepairSubject, tables: TripWireTables | None = None) -> int:
    """WP received for selling a 'Mech (tonnage x 10) or vehicle (tonnage x 5).

    Footnote ***: a 'Mech must be fully repaired before it can be sold. Ruling R-SELL-1: the
    footnote mark is on the vehicle row too, so vehicles must also be fully repaired; spent
    ammunition does not count as damage.
    """
    t = tables or load_tables()
    if subject.kind is UnitKind.MEK:
        row = t.cost("sell.mek")
    elif subject.kind.is_vehicle:
        row = t.cost("sell.vehicle")
    else:
        raise Refusal("no_sale_row", f"the cost table has no sale price for {subject.kind}")
    state = damage_state(subject)
    if state is not DamageState.UNDAMAGED:
        raise Refusal(
            "not_fully_repaired",
            f"unit {subject.unit_id} is {state.value}; repair it fully before selling",
            t.footnotes["mek_fully_repaired_before_sale"],
        )
    return gain_wp(subject.tonnage * row.factor * tech_multiplier(subject.tech_base, t))


def scrap_value(subject: RepairSubject, tables: TripWireTables | None = None) -> int:
    """WP received for scrapping a unit, by damage state (Not CI).

    Ruling R-SCRAP-1: an undamaged unit scraps at the 'Armor Damage Only' rate, the best row.
    Battle armor tonnage is the squad's: suits x tons per suit.
    """
    t = tables or load_tables()
    if subject.kind is UnitKind.CONVENTIONAL_INFANTRY:
        raise Refusal(
            "cannot_scrap",
            "conventional infantry cannot be scrapped",
            t.cost("scrap.internal_damage").ref,
        )
    state = damage_state(subject)
    if state is DamageState.UTTERLY_DESTROYED:
        raise Refusal(
            "utterly_destroyed",
            f"unit {subject.unit_id} is utterly destroyed and can never be scrapped",
            t.footnotes["utterly_destroyed"],
        )
    key = {
        DamageState.UNDAMAGED: "scrap.armor_damage_only",
        DamageState.ARMOR_ONLY: "scrap.armor_damage_only",
        DamageState.INTERNAL: "scrap.internal_damage",
        DamageState.TRULY_DESTROYED: "scrap.truly_destroyed",
    }[state]
    tonnage = subject.tonnage
    if subject.kind is UnitKind.BATTLE_ARMOR:
        tonnage = subject.tonnage * subject.suits
    row = t.cost(key)
    return gain_wp(tonnage * row.factor * tech_multiplier(subject.tech_base, t))


def bomb_cost(tier: AmmoTier, bombs: int, tables: TripWireTables | None = None) -> int:
    if bombs < 0:
        raise ValueError("bomb count cannot be negative")
    return cost_sp(bombs * (tables or load_tables()).cost(f"bomb.{tier.value}").factor)


def reconfigure_cost(
    kind: UnitKind, tonnage: Fraction, tech_base: TechBase, tables: TripWireTables | None = None
) -> int:
    """Reconfigure an omni unit (tonnage/4, tech multiplier) or battle armor (0)."""
    t = tables or load_tables()
    if kind is UnitKind.BATTLE_ARMOR:
        return cost_sp(t.cost("reconfigure.battle_armor").factor)
    row = t.cost("reconfigure.omni_pod")
    return cost_sp(tonnage * row.factor * tech_multiplier(tech_base, t))


def extra_configurations_cost(
    kind: UnitKind,
    tonnage: Fraction,
    tech_base: TechBase,
    configurations: int,
    tables: TripWireTables | None = None,
) -> int:
    """Footnote ****: each configuration beyond the first costs one reconfiguration."""
    if configurations < 1:
        raise ValueError("a unit has at least one configuration")
    return (configurations - 1) * reconfigure_cost(kind, tonnage, tech_base, tables)


def dropship_crew_cost(members: int, tables: TripWireTables | None = None) -> int:
    """Replace/Heal DropShip Crew: 100 per crew member."""
    return cost_sp(members * (tables or load_tables()).cost("dropship.crew").factor)


def formation_change_cost(tables: TripWireTables | None = None) -> int:
    return cost_sp((tables or load_tables()).cost("formation.change").factor)
