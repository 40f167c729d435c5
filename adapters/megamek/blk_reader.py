"""Read MegaMek ``.blk`` files (reference 5.2): ``<Tag>`` / values / ``</Tag>`` blocks.

Tags are case-insensitive (``<tonnage>`` and ``<Tonnage>`` both occur); ``#`` lines are comments.
Fluff blocks may hold HTML (``<p>``), so inside a block only the matching close tag ends it.
``<armor>`` lists one value per armored location in MegaMek index order, skipping index 0 for
ground units (tank Body, ProtoMek Body) and starting at the Nose for aero (``BLKFile.getBlock``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mekref.adapters.megamek.design import (
    AmmoBin,
    EngineInfo,
    Equipment,
    LargeCraftCrew,
    LocationStats,
    RulesLevel,
    TechBase,
    TransportBay,
    UnitDesign,
    UnitFileError,
)
from mekref.adapters.megamek.mtf_reader import decode_text
from mekref.adapters.megamek.structure_tables import (
    fighter_engine_rating,
    fighter_structural_integrity,
    protomek_internal,
    vehicle_engine_rating,
    vehicle_internal,
)
from mekref.adapters.megamek.unit_kinds import LOCATION_NAMES, UnitKind

__all__ = ["BlkDocument", "decode_text", "parse_blk", "parse_blk_tags"]

# UnitType -> (kind, support vehicle?). MegaMek writes these in BLKFile.getBlock.
_UNIT_TYPES: dict[str, tuple[UnitKind, bool]] = {
    "tank": (UnitKind.TANK, False),
    "supporttank": (UnitKind.SUPPORT_TANK, True),
    "largesupporttank": (UnitKind.SUPERHEAVY_TANK, True),
    "vtol": (UnitKind.VTOL, False),
    "supportvtol": (UnitKind.SUPPORT_VTOL, True),
    "aero": (UnitKind.AEROSPACE_FIGHTER, False),
    "aerospacefighter": (UnitKind.AEROSPACE_FIGHTER, False),
    "convfighter": (UnitKind.CONVENTIONAL_FIGHTER, False),
    "fixedwingsupport": (UnitKind.FIXED_WING_SUPPORT, True),
    "smallcraft": (UnitKind.SMALL_CRAFT, False),
    "dropship": (UnitKind.DROPSHIP, False),
    "jumpship": (UnitKind.JUMPSHIP, False),
    "warship": (UnitKind.WARSHIP, False),
    "spacestation": (UnitKind.SPACE_STATION, False),
    "battlearmor": (UnitKind.BATTLE_ARMOR, False),
    "infantry": (UnitKind.CONVENTIONAL_INFANTRY, False),
    "protomech": (UnitKind.PROTOMEK, False),
    "protomek": (UnitKind.PROTOMEK, False),
    "gunemplacement": (UnitKind.GUN_EMPLACEMENT, False),
}

# BLKFile engine codes (FUSION = 0 ... EXTERNAL = 13).
ENGINE_CODES: dict[int, str] = {
    0: "Fusion",
    1: "ICE",
    2: "XL",
    3: "XXL",
    4: "Light",
    5: "Compact",
    6: "Fuel Cell",
    7: "Fission",
    8: "None",
    9: "Maglev",
    10: "Steam",
    11: "Battery",
    12: "Solar",
    13: "External",
}

# BattleArmor weightclass codes (EntityWeightClass for BA: PA(L), Light, Medium, Heavy, Assault).
BA_WEIGHT_CLASSES = ("PA(L)", "Light", "Medium", "Heavy", "Assault")

_TECH = re.compile(
    r"^(?:(?P<base>IS|Clan)(?:\s+Level\s+(?P<level>\d))?"
    r"|Mixed \((?P<mixed>IS|Clan) Chassis\)(?:\s+(?P<tier>Advanced|Experimental|Unofficial))?)$",
    re.IGNORECASE,
)
_TIERS = {
    "advanced": RulesLevel.ADVANCED,
    "experimental": RulesLevel.EXPERIMENTAL,
    "unofficial": RulesLevel.UNOFFICIAL,
}
_OPEN = re.compile(r"^<([^<>/][^<>]*)>$")
_CLOSE = re.compile(r"^</([^<>]+)>$")
_BA_SHOTS = re.compile(r":Shots(\d+)#$", re.IGNORECASE)
_PROTO_SHOTS = re.compile(r"\s\((\d+)\)$")
_TRAILING_SUFFIX = re.compile(r"\s*\((ST|PT|T|FL|FR|RL|RR|R)\)$", re.IGNORECASE)

_MODELLED = frozenset(
    {
        "unittype", "name", "model", "mul id:", "year", "type", "motion_type", "transporters",
        "cruisemp", "jumpingmp", "safethrust", "engine_type", "armor", "tonnage",
        "internal_type", "armor_type", "structural_integrity", "designtype", "crew", "officers",
        "gunners", "passengers", "marines", "battlearmor", "otherpassenger", "life_boat",
        "escape_pod", "trooper count", "weightclass", "squad_size", "squadn", "uuid", "omni",
        "heatsinks", "sink_type", "quirks",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class BlkDocument:
    """The raw tag blocks of a BLK file: lower-cased tag -> values, and where each opened."""

    source: str
    tags: dict[str, tuple[str, ...]]
    lines: dict[str, int]
    #: Non-blank text found outside any block, with its line (kept, never silently dropped).
    stray: tuple[tuple[int, str], ...]


def parse_blk_tags(text: str, source: str) -> BlkDocument:
    tags: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    stray: list[tuple[int, str]] = []
    current: str | None = None
    current_name = ""
    opened_at = 0
    values: list[str] = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if current is None:
            if not line or line.startswith("#"):
                continue
            match = _OPEN.match(line)
            if match is None:
                stray.append((line_no, line))
                continue
            current_name = match.group(1).strip()
            current, opened_at, values = current_name.casefold(), line_no, []
            continue
        close = _CLOSE.match(line)
        if close is not None and close.group(1).strip().casefold() == current:
            # MegaMek's BuildingBlock keeps the first block of a name; later ones are kept
            # under a numbered key so nothing disappears.
            key = current
            n = 2
            while key in tags:
                key, n = f"{current}#{n}", n + 1
            tags[key] = tuple(values)
            lines[key] = opened_at
            current = None
            continue
        if line.startswith("#") or not line:
            continue
        # Anything else, even "</p>" from HTML fluff, is a value: a misplaced close tag shows
        # up as this block never closing, which is reported at its opening line.
        values.append(line)
    if current is not None:
        raise UnitFileError(
            source, f"<{current_name}> is never closed (truncated file?)", opened_at
        )
    return BlkDocument(source=source, tags=tags, lines=lines, stray=tuple(stray))


class _Reader:
    """Typed access to a BlkDocument, raising UnitFileError with the tag's line."""

    def __init__(self, doc: BlkDocument) -> None:
        self.doc = doc

    def text(self, tag: str) -> str | None:
        found = self.doc.tags.get(tag)
        if not found:
            return None
        return found[0]

    def all(self, tag: str) -> tuple[str, ...]:
        return self.doc.tags.get(tag, ())

    def error(self, tag: str | None, message: str) -> UnitFileError:
        line = self.doc.lines.get(tag) if tag else None
        return UnitFileError(self.doc.source, message, line)

    def integer(self, tag: str, default: int | None = None) -> int | None:
        found = self.text(tag)
        if found is None:
            return default
        try:
            return int(found)
        except ValueError:
            try:
                as_float = float(found)
            except ValueError:
                raise self.error(tag, f"<{tag}> is not a number: {found!r}") from None
            if not as_float.is_integer():
                raise self.error(tag, f"<{tag}> is not a whole number: {found!r}") from None
            return int(as_float)

    def number(self, tag: str) -> float | None:
        found = self.text(tag)
        if found is None:
            return None
        try:
            return float(found)
        except ValueError:
            raise self.error(tag, f"<{tag}> is not a number: {found!r}") from None


def parse_tech_type(text: str) -> tuple[TechBase, RulesLevel | None]:
    """``IS Level 2`` -> (Inner Sphere, standard); see ``BLKFile.setTechLevel``."""
    match = _TECH.match(" ".join(text.split()))
    if match is None:
        raise ValueError(f"unknown tech type {text!r}")
    if match.group("mixed"):
        base = (
            TechBase.MIXED_IS_CHASSIS
            if match.group("mixed").casefold() == "is"
            else TechBase.MIXED_CLAN_CHASSIS
        )
        tier = match.group("tier")
        return base, _TIERS[tier.casefold()] if tier else RulesLevel.STANDARD
    base = TechBase.INNER_SPHERE if match.group("base").casefold() == "is" else TechBase.CLAN
    level = match.group("level")
    if level is None:
        return base, RulesLevel.STANDARD
    number = int(level)
    return base, RulesLevel(number) if number in RulesLevel._value2member_map_ else None


def parse_transporter(raw: str) -> TransportBay:
    """One ``<transporters>`` line, as ``BLKFile.addTransports`` splits it."""
    text = raw.strip().casefold()
    omnipod = text.endswith(":omni")
    if omnipod:
        text = text[: -len(":omni")]
    if text.startswith("arts"):
        text = text[4:]
    kind, _, rest = text.partition(":")
    fields = rest.split(":") if rest else []

    def field(n: int) -> str:
        return fields[n].strip() if len(fields) > n else ""

    def as_int(value: str) -> int | None:
        try:
            return int(float(value)) if value else None
        except ValueError:
            return None

    try:
        capacity = float(field(0)) if field(0) else None
    except ValueError:
        capacity = None
    if kind == "dockingcollar":
        capacity = 1.0
    return TransportBay(
        kind=kind,
        capacity=capacity,
        doors=as_int(field(1)),
        bay_number=as_int(field(2)),
        raw=raw.strip(),
        omnipod=omnipod,
    )


def parse_equipment_line(raw: str, location: int, location_name: str) -> Equipment:
    """An equipment line: ``(R) (B) Name``, ``Name:20`` (bay ammo), ``Name:Body:Shots2#`` (BA),
    ``Name (10)`` (ProtoMek ammo), ``Name:OMNI``, ``Name(T)``, ``Name:SIZE:2.0``."""
    text = raw.strip()
    rear = bay = False
    while True:
        upper = text[:4].upper()
        if upper == "(R) ":
            rear, text = True, text[4:].lstrip()
        elif upper == "(B) ":
            bay, text = True, text[4:].lstrip()
        else:
            break
    shots: int | None = None
    modifiers: list[str] = []
    match = _BA_SHOTS.search(text)
    if match is not None:
        shots, text = int(match.group(1)), text[: match.start()]
    size_at = text.upper().find(":SIZE:")
    if size_at > 0:
        modifiers.append(text[size_at + 1 :])
        text = text[:size_at]
    head, *parts = text.split(":")
    for part in parts:
        part = part.strip()
        if part.isdigit() and shots is None:
            shots = int(part)
        elif part:
            modifiers.append(part)
    name = head.strip()
    while (suffix := _TRAILING_SUFFIX.search(name)) is not None:
        if suffix.group(1).upper() == "R":
            rear = True
        else:
            modifiers.append(f"({suffix.group(1).upper()})")
        name = name[: suffix.start()].rstrip()
    proto = _PROTO_SHOTS.search(name)
    if proto is not None and "ammo" in name.casefold():
        shots, name = int(proto.group(1)), name[: proto.start()].rstrip()
    return Equipment(
        name=name,
        location=location,
        location_name=location_name,
        raw=raw.strip(),
        rear=rear,
        bay_start=bay,
        shots=shots,
        modifiers=tuple(modifiers),
    )


def parse_blk(text: str, source: str) -> UnitDesign:
    doc = parse_blk_tags(text, source)
    r = _Reader(doc)
    unit_type = r.text("unittype")
    if unit_type is None:
        raise UnitFileError(source, "no <UnitType> block: cannot tell what kind of unit this is")
    # A UnitType this reader does not know (MegaMek keeps adding some, e.g. building
    # entities) is not a broken file: it reads as UNKNOWN, with every tag kept in ``extra``.
    kind, support = _UNIT_TYPES.get(
        unit_type.replace(" ", "").casefold(), (UnitKind.UNKNOWN, False)
    )
    if kind is UnitKind.TANK and "superheavy" in doc.tags:
        kind = UnitKind.SUPERHEAVY_TANK

    chassis = r.text("name")
    if not chassis:
        raise UnitFileError(source, "no <Name> block (the chassis)")
    type_text = r.text("type")
    if type_text is None:
        raise UnitFileError(source, "no <type> block (tech base and rules level)")
    try:
        tech_base, rules_level = parse_tech_type(type_text)
    except ValueError as exc:
        raise r.error("type", str(exc)) from None

    tonnage = r.number("tonnage")
    # Infantry, battle armor and gun emplacements state no tonnage (MegaMek computes it).
    if tonnage is None and kind not in _NO_TONNAGE:
        raise UnitFileError(source, "no <tonnage> block")

    walk = r.integer("cruisemp", 0) or 0
    jump = r.integer("jumpingmp", 0) or 0
    safe_thrust = r.integer("safethrust") if kind.is_aero else None
    movement = r.text("motion_type") or ""

    armor_values = tuple(_ints(r, "armor"))
    names = _location_names(kind, armor_values, r)
    trooper_count: int | None = None
    squad_size = squad_count = None
    if kind is UnitKind.BATTLE_ARMOR:
        trooper_count = r.integer("trooper count", 4)
    if kind is UnitKind.CONVENTIONAL_INFANTRY:
        squad_size = r.integer("squad_size")
        squad_count = r.integer("squadn")
        if squad_size is None or squad_count is None:
            raise UnitFileError(source, "infantry without <squad_size> and <squadn>")
        trooper_count = squad_size * squad_count
    locations = _locations(kind, tonnage or 0.0, names, armor_values, trooper_count, r)

    si: int | None = None
    if kind in _FIGHTERS:
        si = fighter_structural_integrity(kind, tonnage or 0.0, safe_thrust or 0)
    elif kind.is_aero:
        si = r.integer("structural_integrity")

    engine = _engine(r, kind, support, movement, tonnage or 0.0, walk, safe_thrust)
    equipment, ammo = _equipment(doc, names)
    bays = tuple(parse_transporter(line) for line in r.all("transporters") if line.strip())
    weight_class = r.integer("weightclass")

    extra = {k: v for k, v in doc.tags.items() if k not in _MODELLED and not _is_equipment_tag(k)}
    if kind is UnitKind.UNKNOWN:
        extra["unittype"] = (unit_type,)
    if doc.stray:
        extra["(outside tags)"] = tuple(f"line {n}: {t}" for n, t in doc.stray)
    sink_type = r.integer("sink_type")
    return UnitDesign(
        chassis=chassis,
        model=r.text("model") or "",
        kind=kind,
        movement_mode=movement,
        tonnage=tonnage,
        tech_base=tech_base,
        rules_level=rules_level,
        intro_year=r.integer("year"),
        walk_mp=0 if kind.is_aero else walk,
        jump_mp=jump,
        safe_thrust=safe_thrust,
        engine=engine,
        structure_type=str(r.integer("internal_type", 0)),
        armor_type=str(r.integer("armor_type", 0)),
        locations=locations,
        structural_integrity=si,
        crit_slots={},
        equipment=equipment,
        ammo_bins=ammo,
        bays=bays,
        crew=_crew(r) if kind in _LARGE_CRAFT else None,
        trooper_count=trooper_count,
        ba_weight_class=(
            BA_WEIGHT_CLASSES[weight_class]
            if kind is UnitKind.BATTLE_ARMOR
            and weight_class is not None
            and 0 <= weight_class < len(BA_WEIGHT_CLASSES)
            else None
        ),
        squad_size=squad_size,
        squad_count=squad_count,
        mul_id=r.integer("mul id:"),
        uuid=r.text("uuid"),
        source_file=source,
        omni=(r.integer("omni", 0) or 0) == 1,
        support_vehicle=support,
        heat_sinks=r.integer("heatsinks"),
        heat_sink_type={0: "Single", 1: "Double"}.get(sink_type) if sink_type is not None else None,
        quirks=r.all("quirks"),
        extra=extra,
    )


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
