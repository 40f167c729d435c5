"""Random pre-battle damage (lines 134-152): roll it, describe it, apply it to a unit's condition.

The description is plain data (location damage and effects, each with the table row it came
from) so it can be stored in an event and shown to players; :func:`apply_to_condition` turns it
into a new :class:`~mekref.adapters.megamek.condition.UnitCondition`.

The text's hit-location tables are biped 'Mech tables. Four-legged 'Mechs read them through
MegaMek's location numbering (``QuadMek``: the arm slots are the front legs, the leg slots the rear
legs); ground vehicles read the front column of Total Warfare's Ground Combat Vehicle Hit Location
Table (MegaMek's ``Tank.rollHitLocation``), the text deferring to the standard rules for them
("Roll again for vehicles."). Rulings HOUSE-20 to HOUSE-22.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import field, replace

from mekref.adapters.megamek.condition import AmmoCondition, LocationCondition, UnitCondition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.hit_location import side_table
from mekref.rules.house_rules.table_loader import HouseTables, Row, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal

BIPED_LOCATIONS = (
    "Head",
    "Center Torso",
    "Right Torso",
    "Left Torso",
    "Right Arm",
    "Left Arm",
    "Right Leg",
    "Left Leg",
)
SIDE_LOCATIONS = {
    "right": ("Right Arm", "Right Torso", "Right Leg"),
    "left": ("Left Arm", "Left Torso", "Left Leg"),
}
#: Where damage goes once a location is gone (Total Warfare's damage transfer).
TRANSFER = {
    "Left Arm": "Left Torso",
    "Right Arm": "Right Torso",
    "Left Leg": "Left Torso",
    "Right Leg": "Right Torso",
    "Left Torso": "Center Torso",
    "Right Torso": "Center Torso",
}
#: The kinds of random damage that leave an effect rather than armour damage.
EFFECT_KINDS = (
    "ammo_expended", "ammo_halved", "weapon_unusable", "weapon_heat", "heat_sinks",
    "engine_hit", "leg_actuator",
)  # fmt: skip
LEG_ACTUATORS = (SystemKind.UPPER_LEG, SystemKind.LOWER_LEG, SystemKind.FOOT)
#: Results the retreat table's "reroll any result not related to armor damage or ammo" keeps.
ARMOR_OR_AMMO = frozenset(
    {"ammo_expended", "side_damage", "clusters", "ammo_halved", "one_location", "all_locations"}
)
#: Quad 'Mech names for the biped names the tables print (MegaMek's QuadMek numbering).
QUAD_NAMES = {
    "Right Arm": "Front Right Leg",
    "Left Arm": "Front Left Leg",
    "Right Leg": "Rear Right Leg",
    "Left Leg": "Rear Left Leg",
}
QUAD_LOCATIONS = tuple(QUAD_NAMES.get(loc, loc) for loc in BIPED_LOCATIONS)
QUAD_TRANSFER = {QUAD_NAMES.get(k, k): v for k, v in TRANSFER.items()}
#: Total Warfare's Ground Combat Vehicle Hit Location Table, attack from the front (2d6); a
#: "Turret" result on a vehicle without one hits the Front (MegaMek: ``ignoreTurret``).
VEHICLE_FRONT = {
    2: "Front", 3: "Front", 4: "Front", 5: "Right", 6: "Front", 7: "Front", 8: "Front",
    9: "Left", 10: "Turret", 11: "Turret", 12: "Turret",
}  # fmt: skip
VEHICLE_LOCATIONS = ("Front", "Right", "Left", "Rear", "Turret")
BIPEDS = frozenset({UnitKind.BIPED_MEK, UnitKind.LAM})
QUADS = frozenset({UnitKind.QUAD_MEK, UnitKind.QUADVEE})
GROUND_VEHICLES = frozenset({UnitKind.TANK, UnitKind.SUPPORT_TANK})
SUPPORTED_KINDS = BIPEDS | QUADS | GROUND_VEHICLES
MAX_DEPTH = 8  # "Roll twice on this chart" may chain; eight levels is far beyond any real roll


@record
class LocationDamage(Record):
    location: str
    points: int
    rear: bool = False


@record
class Effect(Record):
    kind: str = field(metadata={"allowed": EFFECT_KINDS})
    detail: str = ""  # the weapon, ammo type or actuator chosen ("" when the unit has none)
    count: int = 1
    location: str = ""  # the leg, for a leg actuator


@record
class DamageResult(Record):
    roll: int
    kind: str
    line: int  # the table row's line in the source
    damage: tuple[LocationDamage, ...] = ()
    effects: tuple[Effect, ...] = ()


@record
class PreBattleDamage(Record):
    unit_id: str
    count_roll: int
    results: tuple[DamageResult, ...]
    kind: UnitKind = UnitKind.BIPED_MEK  # whose hit-location table placed the damage

    @property
    def damage(self) -> tuple[LocationDamage, ...]:
        return tuple(d for r in self.results for d in r.damage)

    @property
    def effects(self) -> tuple[Effect, ...]:
        return tuple(e for r in self.results for e in r.effects)


#: A critical slot names an item by MegaMek's internal name, the weapon list by its display
#: name: "Autocannon/5" is "AC/5", "ISERLargeLaser" is "ER Large Laser".
_TECH_PREFIX = re.compile(r"^(IS|CL|Clan)(?=[A-Z ])")


def equipment_key(name: str) -> str:
    """One spelling for both names of an item: no tech-base prefix, case, spaces or hyphens,
    "autocannon" as "ac"."""
    key = _TECH_PREFIX.sub("", name.strip()).casefold()
    key = re.sub(r"[\s\-_]", "", key)
    return key.replace("autocannon", "ac")


def same_equipment(slot_name: str, weapon_name: str) -> bool:
    """Whether a critical slot holds the weapon the Random Damage Table picked (L143)."""
    return equipment_key(slot_name) == equipment_key(weapon_name)


def _family(kind: UnitKind) -> frozenset[UnitKind]:
    for family in (BIPEDS, QUADS, GROUND_VEHICLES):
        if kind in family:
            return family
    raise Refusal(
        "no_hit_location_table",
        f"random pre-battle damage is for biped and four-legged 'Mechs and ground vehicles,"
        f" not {kind}",
    )


class _Body:
    """Where a unit kind's damage lands: the biped names the tables print, translated."""

    def __init__(self, kind: UnitKind, locations: tuple[str, ...]) -> None:
        self.family = _family(kind)
        self.vehicle = self.family is GROUND_VEHICLES
        standard = (
            VEHICLE_LOCATIONS
            if self.vehicle
            else QUAD_LOCATIONS
            if self.family is QUADS
            else BIPED_LOCATIONS
        )
        self.locations = tuple(loc for loc in standard if not locations or loc in locations)
        self.has_turret = "Turret" in self.locations

    def name(self, biped: str) -> str:
        return QUAD_NAMES.get(biped, biped) if self.family is QUADS else biped

    def front(self, roll: int, tables: HouseTables) -> str:
        """The front hit location table: the house Front column, or the vehicle table."""
        if self.vehicle:
            spot = VEHICLE_FRONT[roll]
            return spot if spot != "Turret" or self.has_turret else "Front"
        return self.name(side_table("front", roll, tables).location)

    def legs(self) -> tuple[str, ...]:
        return tuple(loc for loc in self.locations if loc.endswith("Leg"))


class _Roller:
    """Threads the dice through one unit's rolls, naming each and keeping them in order."""

    def __init__(self, dice: Dice, unit_id: str, tables: HouseTables, body: _Body) -> None:
        self.dice = dice
        self.unit_id = unit_id
        self.tables = tables
        self.body = body
        self.rolls: list[Roll] = []

    def roll(self, what: str, count: int = 1, sides: int = 6) -> int:
        roll, self.dice = self.dice.roll(f"random damage {what}, unit {self.unit_id}", count, sides)
        self.rolls.append(roll)
        return roll.total

    def pick(self, what: str, options: tuple[str, ...]) -> str:
        # "Determine at random if more than one."
        if not options:
            return ""
        if len(options) == 1:
            return options[0]
        return options[self.roll(what, 1, len(options)) - 1]


def roll_pre_battle_damage(
    dice: Dice,
    unit_id: str,
    *,
    weapons: tuple[str, ...] = (),
    ammo_types: tuple[str, ...] = (),
    times: int | None = None,
    only_kinds: frozenset[str] | None = None,
    kind: UnitKind = UnitKind.BIPED_MEK,
    locations: tuple[str, ...] = (),
    tables: HouseTables | None = None,
) -> tuple[PreBattleDamage, tuple[Roll, ...], Dice]:
    """Line 134: 1d6 halved (rounded down) rolls of 3d6 on the table, unless ``times`` is given.

    ``kind`` picks the hit-location table; ``locations`` (the unit's location names, when known)
    says which it has: a vehicle without a "Turret" takes turret results on its Front.
    """
    t = tables or load_tables()
    roller = _Roller(dice, unit_id, t, _Body(kind, locations))
    count = t.rule("random_damage", "count")
    count_roll = 0
    if times is None:
        count_roll = roller.roll("count", count.int("dice"))
        times = count_roll // count.int("divide_by")
    results: list[DamageResult] = []
    for n in range(1, times + 1):
        results += _roll_table(roller, str(n), weapons, ammo_types, only_kinds, 0)
    damage = PreBattleDamage(
        unit_id=unit_id, count_roll=count_roll, results=tuple(results), kind=kind
    )
    return damage, tuple(roller.rolls), roller.dice


def _roll_table(
    roller: _Roller,
    label: str,
    weapons: tuple[str, ...],
    ammo_types: tuple[str, ...],
    only_kinds: frozenset[str] | None,
    depth: int,
) -> list[DamageResult]:
    t = roller.tables
    dice = t.rule("random_damage", "count").int("table_dice")
    attempt = 0
    while True:
        attempt += 1
        suffix = "" if attempt == 1 else f" again {attempt}"
        total = roller.roll(f"{label}{suffix}", dice)
        row = next(r for r in t.rows("random_damage", "row") if r.int("roll") == total)
        kind = row.text("kind")
        if kind == "leg_actuator" and roller.body.vehicle:
            continue  # L147 "Roll again for vehicles."
        if only_kinds is None or kind in only_kinds:
            break
    if kind == "roll_twice":
        if depth >= MAX_DEPTH:
            return [DamageResult(roll=total, kind=kind, line=row.ref.line)]
        return [
            DamageResult(roll=total, kind=kind, line=row.ref.line),
            *_roll_table(roller, f"{label}.1", weapons, ammo_types, only_kinds, depth + 1),
            *_roll_table(roller, f"{label}.2", weapons, ammo_types, only_kinds, depth + 1),
        ]
    damage, effects = _resolve(roller, label, row, weapons, ammo_types)
    return [DamageResult(roll=total, kind=kind, line=row.ref.line, damage=damage, effects=effects)]


def _resolve(
    roller: _Roller, label: str, row: Row, weapons: tuple[str, ...], ammo_types: tuple[str, ...]
) -> tuple[tuple[LocationDamage, ...], tuple[Effect, ...]]:
    kind = row.text("kind")
    if kind == "side_damage":
        # Ruling HOUSE-13: one d6 for the row; every location on that side takes it on its front
        # armor, and the side torso on its rear armor too ("front and back").
        points = roller.roll(f"{label} points", row.int("dice"))
        side = row.text("side")
        body = roller.body
        if body.vehicle:
            # Ruling HOUSE-21: a vehicle's side is one location, with no rear armor.
            return (LocationDamage(location=side.title(), points=points),), ()
        out = [
            LocationDamage(location=body.name(loc), points=points) for loc in SIDE_LOCATIONS[side]
        ]
        out.append(LocationDamage(location=f"{side.title()} Torso", points=points, rear=True))
        return tuple(out), ()
    if kind == "clusters":
        # Ruling HOUSE-18: "the front hit location table" is the house table's Front column.
        hits = []
        for k in range(1, row.int("points") // row.int("cluster") + 1):
            spot = roller.body.front(roller.roll(f"{label} cluster {k}", 2), roller.tables)
            hits.append(LocationDamage(location=spot, points=row.int("cluster")))
        return tuple(hits), ()
    if kind == "one_location":
        attempt = 0
        while True:  # "ignore head hits": roll again
            attempt += 1
            spot = roller.body.front(roller.roll(f"{label} location {attempt}", 2), roller.tables)
            if spot != "Head":
                return (LocationDamage(location=spot, points=row.int("points")),), ()
    if kind == "all_locations":
        return tuple(
            LocationDamage(location=loc, points=row.int("points")) for loc in roller.body.locations
        ), ()
    if kind in ("ammo_expended", "none"):
        return (), (() if kind == "none" else (Effect(kind=kind),))
    if kind == "ammo_halved":
        return (), (Effect(kind=kind, detail=roller.pick(f"{label} ammo", ammo_types)),)
    if kind in ("weapon_unusable", "weapon_heat"):
        heat = row.int("heat") if kind == "weapon_heat" else 1
        return (), (Effect(kind=kind, detail=roller.pick(f"{label} weapon", weapons), count=heat),)
    if kind == "heat_sinks":
        return (), (Effect(kind=kind, count=row.int("count")),)
    if kind == "engine_hit":
        return (), (Effect(kind=kind, detail=SystemKind.ENGINE.value),)
    if kind == "leg_actuator":
        leg = roller.pick(f"{label} leg", roller.body.legs())
        actuator = roller.pick(f"{label} actuator", tuple(a.value for a in LEG_ACTUATORS))
        return (), (Effect(kind=kind, detail=actuator, location=leg),)
    raise ValueError(f"unknown random damage kind {kind!r}")


# --- applying the description to a unit's condition -----------------------------------------


def apply_to_condition(condition: UnitCondition, damage: PreBattleDamage) -> UnitCondition:
    """The condition after the damage: armor first, then internal structure, then inward.

    Ruling HOUSE-12: the table's damage follows Total Warfare's transfer (a destroyed arm or leg
    passes damage to its side torso, a side torso to the center torso; head and center torso
    excess is lost). A quad's legs pass to their side torso too; a vehicle transfers nothing
    (MegaMek's ``Tank.getTransferLocation``: excess is lost). Ruling HOUSE-22.
    """
    family = _family(condition.kind)
    if _family(damage.kind) is not family:
        raise Refusal(
            "wrong_hit_location_table",
            f"damage rolled for a {damage.kind} cannot be applied to a {condition.kind}",
        )
    transfer = {} if family is GROUND_VEHICLES else QUAD_TRANSFER if family is QUADS else TRANSFER
    locations = {loc.name: loc for loc in condition.locations}
    for hit in damage.damage:
        name = hit.location
        if family is GROUND_VEHICLES and name == "Turret" and name not in locations:
            name = "Front"  # no turret: the hit stays on the Front (MegaMek ``ignoreTurret``)
        _hit(locations, name, hit.points, hit.rear, transfer)
    hits = Counter(dict(condition.system_hits))
    ammo = list(condition.ammo)
    for effect in damage.effects:
        if effect.kind == "engine_hit":
            hits[SystemKind.ENGINE] += 1
        elif effect.kind == "leg_actuator" and effect.detail:
            leg = locations.get(effect.location)
            if leg is not None and not leg.destroyed:
                hits[SystemKind(effect.detail)] += 1
        elif effect.kind == "ammo_expended":
            ammo = [replace(a, shots=0) for a in ammo]
        elif effect.kind == "ammo_halved" and effect.detail:
            ammo = [_halve(a) if a.ammo_type == effect.detail else a for a in ammo]
    return replace(
        condition,
        locations=tuple(locations[loc.name] for loc in condition.locations),
        system_hits=tuple(sorted(hits.items())),
        ammo=tuple(ammo),
    )


def _halve(ammo: AmmoCondition) -> AmmoCondition:
    return replace(ammo, shots=ammo.shots // 2)


def _hit(
    locations: dict[str, LocationCondition],
    name: str,
    points: int,
    rear: bool,
    transfer: dict[str, str],
) -> None:
    while points > 0:
        loc = locations.get(name)
        if loc is None:
            return
        if not loc.destroyed:
            if rear and loc.rear is not None:
                absorbed = min(loc.rear, points)
                loc = replace(loc, rear=loc.rear - absorbed)
            else:
                absorbed = min(loc.armor, points)
                loc = replace(loc, armor=loc.armor - absorbed)
            points -= absorbed
            taken = min(loc.internal, points)
            loc = replace(loc, internal=loc.internal - taken)
            points -= taken
            if loc.internal == 0:
                loc = replace(loc, destroyed=True, armor=0, rear=None if loc.rear is None else 0)
            locations[name] = loc
        if points <= 0 or name not in transfer:
            return
        name, rear = transfer[name], False
