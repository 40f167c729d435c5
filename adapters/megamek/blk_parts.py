"""The parts of a unit in a BLK file: its locations with their armour, the engine, the equipment
block of each location and the crew, read from the tags :func:`.blk_reader.parse_blk` gathered."""

from __future__ import annotations

from mekref.adapters.megamek.blk_tags import (
    ENGINE_CODES,
    BlkDocument,
    _Reader,
    parse_equipment_line,
)
from mekref.adapters.megamek.design import (
    AmmoBin,
    EngineInfo,
    Equipment,
    LargeCraftCrew,
    LocationStats,
)
from mekref.adapters.megamek.structure_tables import (
    fighter_engine_rating,
    protomek_internal,
    vehicle_engine_rating,
    vehicle_internal,
)
from mekref.adapters.megamek.unit_kinds import LOCATION_NAMES, UnitKind

_NO_TONNAGE = frozenset(
    {
        UnitKind.BATTLE_ARMOR,
        UnitKind.CONVENTIONAL_INFANTRY,
        UnitKind.GUN_EMPLACEMENT,
        UnitKind.UNKNOWN,
    }
)


_FIGHTERS = frozenset(
    {UnitKind.AEROSPACE_FIGHTER, UnitKind.CONVENTIONAL_FIGHTER, UnitKind.FIXED_WING_SUPPORT}
)


_LARGE_CRAFT = frozenset(
    {
        UnitKind.SMALL_CRAFT,
        UnitKind.DROPSHIP,
        UnitKind.JUMPSHIP,
        UnitKind.WARSHIP,
        UnitKind.SPACE_STATION,
    }
)


def _ints(r: _Reader, tag: str) -> list[int]:
    out: list[int] = []
    for value in r.all(tag):
        try:
            out.append(int(value))
        except ValueError:
            raise r.error(tag, f"<{tag}> holds {value!r}, not a whole number") from None
    return out


def _location_names(kind: UnitKind, armor: tuple[int, ...], r: _Reader) -> tuple[str, ...]:
    """The locations this unit really has: turrets exist only when armor is listed for them."""
    names = LOCATION_NAMES.get(kind)
    if names is None:
        return ()
    if kind.is_vehicle:
        # Body + one location per armor value (Tank: 4 = no turret, 5 = turret, 6 = dual).
        wanted = 1 + len(armor)
        if len(armor) > len(names) - 1:
            most = len(names) - 1
            raise r.error("armor", f"{len(armor)} armor values; a {kind.value} has at most {most}")
        return names[:wanted]
    if kind is UnitKind.BATTLE_ARMOR:
        troopers = r.integer("trooper count", 4) or 4
        return names[: 1 + troopers]
    if kind is UnitKind.PROTOMEK:
        # Body + armored locations; the Main Gun exists only with an armor value for it.
        return names[: 1 + len(armor)] if armor else names[:6]
    return names


def _locations(
    kind: UnitKind,
    tonnage: float,
    names: tuple[str, ...],
    armor: tuple[int, ...],
    troopers: int | None,
    r: _Reader,
) -> tuple[LocationStats, ...]:
    if kind is UnitKind.BATTLE_ARMOR:
        per_trooper = armor[0] if armor else 0
        return tuple(
            LocationStats(
                index=i,
                name=name,
                armor=None if i == 0 else per_trooper,
                internal=None if i == 0 else 1,
            )
            for i, name in enumerate(names)
        )
    if kind is UnitKind.CONVENTIONAL_INFANTRY:
        return (
            LocationStats(index=0, name=names[0], armor=None, internal=troopers),
            LocationStats(index=1, name=names[1], armor=None, internal=None),
        )
    if kind.is_aero:
        expected = 6 if kind in (UnitKind.JUMPSHIP, UnitKind.WARSHIP, UnitKind.SPACE_STATION) else 4
        if armor and len(armor) != expected:
            raise r.error("armor", f"{len(armor)} armor values; a {kind.value} has {expected}")
        return tuple(
            LocationStats(index=i, name=name, armor=armor[i] if i < len(armor) else None)
            for i, name in enumerate(names)
        )
    if kind.is_vehicle:
        internal = vehicle_internal(tonnage, len(names) - 1)
        return tuple(
            LocationStats(
                index=i,
                name=name,
                armor=None if i == 0 else armor[i - 1],
                internal=internal.get(i),
            )
            for i, name in enumerate(names)
        )
    if kind is UnitKind.PROTOMEK:
        quad = (r.text("motion_type") or "").casefold() == "quad" or (
            (r.text("isquad") or "").casefold() in {"1", "true"}
        )
        # Six armor values (Head ... Main Gun) mean the ProtoMek has a main gun.
        internal = protomek_internal(tonnage, quad, main_gun=len(armor) >= 6)
        return tuple(
            LocationStats(
                index=i,
                name=name,
                armor=armor[i - 1] if 0 <= i - 1 < len(armor) else None,
                internal=internal.get(i),
            )
            for i, name in enumerate(names)
        )
    # Gun emplacements (and unknown kinds): armor as listed, no internal structure.
    return tuple(
        LocationStats(index=i, name=name, armor=armor[i] if i < len(armor) else None)
        for i, name in enumerate(names)
    )


def _engine(
    r: _Reader,
    kind: UnitKind,
    support: bool,
    movement: str,
    tonnage: float,
    cruise: int,
    thrust: int | None,
) -> EngineInfo | None:
    code = r.integer("engine_type")
    if code is None or kind in _LARGE_CRAFT:
        # MegaMek's loaders for small craft and up give them a nominal engine and ignore
        # engine_type (the Union says 1, "ICE"), so reporting it would mislead.
        return None
    name = ENGINE_CODES.get(code, f"code {code}")
    rating: int | None = None
    if kind in (UnitKind.AEROSPACE_FIGHTER, UnitKind.CONVENTIONAL_FIGHTER) and thrust is not None:
        rating = fighter_engine_rating(tonnage, thrust)
    elif kind.is_vehicle and not support:
        rating = vehicle_engine_rating(movement, tonnage, cruise)
    return EngineInfo(rating=rating, type=name)


def _is_equipment_tag(tag: str) -> bool:
    return tag.endswith(" equipment")


def _equipment(
    doc: BlkDocument, names: tuple[str, ...]
) -> tuple[tuple[Equipment, ...], tuple[AmmoBin, ...]]:
    index_of = {name.casefold(): i for i, name in enumerate(names)}
    # BLK writes the BA unit location as "Point" (Clan) or "Squad" (IS), and dual-turret
    # tanks' first turret as "Rear Turret".
    index_of.setdefault("point", 0)
    index_of.setdefault("squad", 0)
    if "front turret" in index_of:
        index_of.setdefault("rear turret", 5)
    equipment: list[Equipment] = []
    ammo: list[AmmoBin] = []
    for tag, lines in doc.tags.items():
        if not _is_equipment_tag(tag):
            continue
        where = tag[: -len(" equipment")].strip()
        index = index_of.get(where, -1)
        location_name = names[index] if 0 <= index < len(names) else where.title()
        for raw in lines:
            item = parse_equipment_line(raw, index, location_name)
            equipment.append(item)
            if "ammo" in item.name.casefold():
                ammo.append(
                    AmmoBin(
                        location=index,
                        location_name=location_name,
                        ammo_type=item.name,
                        shots=item.shots,
                    )
                )
    for raw in doc.tags.get("slotless_equipment", ()):
        equipment.append(parse_equipment_line(raw, -1, "None"))
    return tuple(equipment), tuple(ammo)


def _crew(r: _Reader) -> LargeCraftCrew:
    def n(tag: str) -> int:
        return r.integer(tag, 0) or 0

    return LargeCraftCrew(
        crew=n("crew"),
        officers=n("officers"),
        gunners=n("gunners"),
        passengers=n("passengers"),
        marines=n("marines"),
        battle_armor=n("battlearmor"),
        other_passengers=n("otherpassenger"),
        life_boats=n("life_boat"),
        escape_pods=n("escape_pod"),
    )
